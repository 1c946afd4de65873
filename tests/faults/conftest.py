"""What the fault tests run on: the real PostgreSQL and Redis, a real worker, a real HTTP server.

They need the services CI gives (``DATABASE_URL`` on PostgreSQL, ``CELERY_BROKER_URL`` on
Redis). Where one is missing they are skipped and say why, except under CI (``CI`` set), where
a missing service fails them: there they must run.

* ``broker_url``: the suite's Redis broker (overrides the worker tests' fixture of that name,
  so ``non_eager_app`` / ``worker`` fail under CI instead of skipping).
* ``postgresql``: the test database's connection settings (a dict), PostgreSQL only.
* ``http_server``: start gunicorn (the production server) on the project in a process of its
  own, with environment variables of the test's choosing; answers its base URL.
* ``run_worker``: start ``celery -A config worker`` in a process of its own on the test
  database and a queue of the test's own.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.db import connection

from tests.core.test_celery_worker import non_eager_app, outbox_sweeper, worker  # noqa: F401
from tests.helpers import MODE_VARIABLES, ROOT

BIN = Path(sys.executable).parent


def unavailable(reason: str) -> None:
    """Skip, or under CI fail: these tests must run there."""
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {reason}: the fault tests must run in CI")
    pytest.skip(reason)


def answers(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError:
        return False
    return True


@pytest.fixture
def postgresql(transactional_db) -> dict:
    if connection.vendor != "postgresql":
        unavailable("the test database is not PostgreSQL (set DATABASE_URL=postgres://…)")
    return connection.settings_dict


@pytest.fixture
def broker_url() -> str:
    url = settings.CELERY_BROKER_URL if settings.CELERY_BROKER_CONFIGURED else ""
    if not url:
        unavailable("CELERY_BROKER_URL is not set (tasks run eagerly: no broker, no worker)")
    parsed = urlparse(url)
    if parsed.scheme not in {"redis", "rediss"}:
        unavailable(f"the fault tests expect a redis:// broker, not {parsed.scheme}://")
    if not answers(parsed.hostname or "127.0.0.1", parsed.port or 6379):
        unavailable(f"CELERY_BROKER_URL={url} does not answer")
    return url


def database_url(db: dict, host: str | None = None, port: int | None = None) -> str:
    """A ``DATABASE_URL`` for another process: the test database, maybe through a proxy."""
    user = db["USER"] or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{user}{password}@{host or db['HOST'] or '127.0.0.1'}:"
        f"{port or db['PORT'] or 5432}/{db['NAME']}"
    )


def project_env(**overrides: str) -> dict[str, str]:
    """The suite's environment minus its mode (as ``tests.helpers.run_python``), plus these."""
    env = {k: v for k, v in os.environ.items() if k not in MODE_VARIABLES}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DJANGO_ENV="test", PYTHONUNBUFFERED="1")
    env.update(overrides)
    return env


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def stop(process: subprocess.Popen, timeout: float = 15) -> None:
    """Stop a process group started here (``start_new_session``): SIGTERM, and SIGKILL to
    whatever is left of it after ``timeout``; returns once every process of it is gone (so
    are their database sessions, soon after)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while group_alive(process.pid) and time.monotonic() < deadline:
        process.poll()  # reaps the leader
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout)


def spawn(args: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen:
    """Start ``args`` in the project, in a process group of its own, its output to ``log``
    (``process.log``)."""
    with open(log, "w") as out:  # the child has its own copy
        process = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    process.log = log
    return process


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def http_server(tmp_path):
    """``start(workers=4, **env)`` runs gunicorn on the project (sync workers) and answers its
    base URL once it serves; stopped (and its database connections closed) at the end."""
    started: list[subprocess.Popen] = []

    def start(workers: int = 4, **env: str) -> str:
        port = free_port()
        process = spawn(
            [str(BIN / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--workers", str(workers), "--timeout", "60", "--graceful-timeout", "5",
             "--no-control-socket"],
            tmp_path / f"gunicorn-{port}.log", project_env(**env),
        )  # fmt: skip
        started.append(process)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                pytest.fail(f"gunicorn exited: {process.log.read_text()}")
            try:
                urllib.request.urlopen(f"{url}/api/v1/", timeout=2).close()
                return url
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("gunicorn did not answer within 30 s")
                time.sleep(0.1)

    yield start
    for process in started:
        stop(process)


@pytest.fixture
def run_worker(tmp_path, postgresql, broker_url):
    """``start(**env)`` runs ``celery -A config worker`` (prefork, one child) in a process
    group of its own on the test database, consuming this test's queue only; answers the
    Popen. Each is stopped at the end (SIGTERM, then SIGKILL)."""
    queue = f"xuezhan-fault-{uuid.uuid4().hex[:12]}"
    started: list[subprocess.Popen] = []

    def start(**env: str) -> subprocess.Popen:
        name = f"fault{len(started)}-{queue}@%h"
        process = spawn(
            [str(BIN / "celery"), "-A", "config", "worker", "--pool", "prefork",
             "--concurrency", "1", "--queues", queue, "--hostname", name, "--loglevel", "INFO",
             "--without-mingle", "--without-gossip", "--without-heartbeat"],
            tmp_path / f"worker-{len(started)}.log",
            project_env(DATABASE_URL=database_url(postgresql), CELERY_BROKER_URL=broker_url,
                        **env),
        )  # fmt: skip
        started.append(process)
        return process

    start.queue = queue
    yield start
    for process in started:
        stop(process)
