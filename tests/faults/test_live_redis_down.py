"""Redis goes away under the live pages and comes back empty: no write fails, no page stays
stale.

Here Redis is the test's own, on a port of its own (the broker and the live events' store and
publisher, as in production). gunicorn takes the hands over the API; the ASGI server holds a
stream following the table, read by this test as a browser reads it. Redis is killed: a hand is
still answered 201 and stored once, and its event waits in the outbox. Redis is started again,
empty, on its port: the ASGI server listens again and tells the open page to read itself again
(its event ids started over with the empty Redis), and a worker, fed by the sweep as beat feeds
it, sends the event that waited — the page hears of the second hand.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import threading

import pytest
from rest_framework.authtoken.models import Token

from clubs.models import Hand, Role
from core.models import OutboxMessage
from tests.clubs.factories import ClubFactory, TableSessionFactory
from tests.clubs.records import PINGHU
from tests.core.test_celery_worker import sweeping
from tests.faults.test_broker_down import broker_at, wait_until
from tests.faults.test_cache_down import call
from tests.helpers import member_login
from tests.processes import (
    database_url,
    free_port,
    project_env,
    redis_command,
    spawn,
    stop,
    uvicorn_command,
    wait_answering,
    worker_command,
)

pytestmark = pytest.mark.django_db(transaction=True)


class Stream:
    """A page's event stream, read line by line in a thread: ``events`` (type, data)."""

    def __init__(self, port: int, path: str) -> None:
        self.events: list[tuple[str, dict]] = []
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        kind = ""
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "changed":
                    self.events.append((kind, json.loads(line[6:])))
        except (OSError, ValueError, AttributeError):  # closed under the reader at the end
            return

    def heard(self, **data) -> bool:
        return any(all(event.get(k) == v for k, v in data.items()) for _, event in self.events)

    def close(self) -> None:
        self.connection.close()


def test_redis_down_and_back_empty_leaves_no_page_stale(tmp_path, postgresql, http_server):
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    redis_server = spawn(redis_command(port, tmp_path), tmp_path / "redis-1.log", dict(os.environ))
    processes = [redis_server]
    stream = None
    try:
        wait_answering(port)
        session = TableSessionFactory(club=ClubFactory(slug="live-fault"))
        token = Token.objects.create(user=member_login(session.club, Role.SCORER)).key
        env = {"CELERY_BROKER_URL": url, "DATABASE_URL": database_url(postgresql),
               "LIVE_BACKOFF_SECONDS": "1"}  # fmt: skip
        web = http_server(**env)
        asgi_port = free_port()
        processes.append(
            spawn(uvicorn_command(asgi_port), tmp_path / "uvicorn.log", project_env(**env))
        )
        wait_answering(asgi_port, timeout=30)
        stream = Stream(asgi_port, f"/live/events/?channel=table-{session.pk}")
        hands = f"{web}/api/v1/sessions/{session.pk}/hands/"

        assert call(hands, "POST", PINGHU, token)[0] == 201
        assert wait_until(lambda: stream.heard(kind="table", version=1), 10), stream.events

        os.killpg(redis_server.pid, signal.SIGKILL)
        redis_server.wait(10)
        assert call(hands, "POST", PINGHU, token)[0] == 201  # the write does not fail
        assert Hand.objects.filter(session=session).count() == 2
        assert OutboxMessage.objects.filter(task="core.publish_live").count() == 1

        redis_server = spawn(
            redis_command(port, tmp_path), tmp_path / "redis-2.log", dict(os.environ)
        )
        processes.append(redis_server)
        wait_answering(port)
        # the ASGI server listens again, and tells the page to read itself again
        assert wait_until(lambda: stream.heard(kind="resync"), 30), stream.events

        worker = spawn(worker_command("live-fault@%h"), tmp_path / "worker.log", project_env(**env))
        processes.append(worker)
        with broker_at(url):
            halt, thread = sweeping(0.2)  # as Celery beat sweeps
            try:
                sent = wait_until(
                    lambda: (
                        stream.heard(kind="table", version=2)
                        and not OutboxMessage.objects.filter(task="core.publish_live").exists()
                    ),
                    60,
                )
            finally:
                halt.set()
                thread.join(10)
        assert sent, (stream.events, (tmp_path / "worker.log").read_text()[-2000:])
    finally:
        if stream is not None:
            stream.close()
        for process in reversed(processes):
            stop(process)
