"""Redis restarts empty while follow-ups wait in it: none is lost.

Before, the outbox deleted a message as soon as Redis took it: 219 tasks queued at a SIGKILL of
Redis were gone after its restart (21 closed tables never reached ratings, statistics, awards
or the ranking), and nothing said so. Now a message stays until its task is done, and the sweep
sends it again once it has been out too long.

Here Redis is the test's own, on a port of its own, without persistence (as the compose file
had it). An evening is entered over the API — club tables opened, hands recorded, closed;
a tournament round's tables — and the sweep hands every follow-up to that Redis while no worker
runs. Redis is killed (SIGKILL) and started again, empty, on the same port; a worker starts on
it and the sweep goes on, as beat runs it, with no manual step. Then the ratings, statistics
lines and award holders are exactly what a computation from scratch gives, and so are the
standings.
"""

from __future__ import annotations

import os
import signal
import time

import pytest
import redis
from django.db.models import F

from clubs.models import Role, TableSession
from core import outbox
from core.models import OutboxMessage
from ratings.models import SessionLine
from ratings.services import club_recompute
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.clubs.records import PINGHU, SELFDRAW
from tests.core.test_celery_worker import sweeping
from tests.faults.test_broker_down import broker_at, tasks_in_process, wait_until
from tests.helpers import client_for, member_login
from tests.processes import (
    database_url,
    free_port,
    redis_command,
    spawn,
    stop,
    wait_answering,
    worker_command,
)
from tests.recompute import awards_state, ratings_state, snapshot_standings, standings_from_scratch
from tournaments import services
from tournaments.models import StandingsSnapshot
from tournaments.selectors import tables_data_version

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_redis_restarted_empty_loses_no_follow_up(tmp_path, postgresql, settings):
    # the sweep sends again what has been out 3 s without being done (180 s in production)
    settings.OUTBOX_REDELIVER_SECONDS = 3
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    server = spawn(redis_command(port, tmp_path), tmp_path / "redis-1.log", dict(os.environ))
    worker = None
    try:
        wait_answering(port)
        club = ClubFactory(slug="restart-club")
        players = [MembershipFactory(club=club).player for _ in range(8)]
        organiser = member_login(club, Role.ORGANISER)
        with tasks_in_process():
            t = services.tournament_create(
                name="Restart cup", slug="restart-cup", user=organiser, club=club, rounds=2,
                hands_per_table=2, mode=TableSession.Mode.SINGLE,
            )  # fmt: skip
            for i in range(8):
                services.registration_create(tournament=t, name=f"R{i}")
            round_ = services.round_start(tournament=t)
        OutboxMessage.objects.all().delete()
        tables = list(round_.tables.select_related("session").order_by("number"))

        scorer = client_for(member_login(club, Role.SCORER))
        with broker_at(url):
            # the evening: three club tables and the round's two tables, over the API
            for seats in ((0, 1, 2, 3), (4, 5, 6, 7), (1, 3, 5, 7)):
                r = scorer.post(
                    f"/api/v1/clubs/{club.slug}/sessions/",
                    {"players": [players[i].pk for i in seats], "mode": "single"}, format="json",
                )  # fmt: skip
                assert r.status_code == 201, r.content
                session = r.json()["id"]
                for record in (PINGHU, SELFDRAW, PINGHU):
                    hand = scorer.post(f"/api/v1/sessions/{session}/hands/", record,
                                       format="json")  # fmt: skip
                    assert hand.status_code == 201, hand.content
                assert scorer.post(f"/api/v1/sessions/{session}/close/").status_code == 200
            for table in tables:
                for record in (SELFDRAW, PINGHU):
                    hand = scorer.post(f"/api/v1/sessions/{table.session_id}/hands/", record,
                                       format="json")  # fmt: skip
                    assert hand.status_code == 201, hand.content

            # every follow-up handed to Redis, none done: no worker yet
            waiting = OutboxMessage.objects.count()
            assert waiting > 0
            assert wait_until(lambda: outbox.deliver() == 0 and not
                              OutboxMessage.objects.filter(sent_at=None).exists(), 10)  # fmt: skip
            assert redis.Redis(port=port).llen("celery") >= waiting

            # Redis dies and comes back empty
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(10)
            server = spawn(redis_command(port, tmp_path), tmp_path / "redis-2.log",
                           dict(os.environ))  # fmt: skip
            wait_answering(port)
            assert redis.Redis(port=port).dbsize() == 0
            assert OutboxMessage.objects.count() == waiting  # nothing forgotten here

            # a worker on it, and the sweep as beat runs it: no manual step
            worker = spawn(
                worker_command("restart@%h", concurrency=2),
                tmp_path / "worker.log",
                {**os.environ, "DATABASE_URL": database_url(postgresql),
                 "CELERY_BROKER_URL": url, "DJANGO_ENV": "test"},
            )  # fmt: skip
            halt, thread = sweeping(0.2)  # as Celery beat sweeps
            try:
                finished = 3  # the club's closed tables; the round's tables are fixed-length
                done = wait_until(
                    lambda: (
                        not OutboxMessage.objects.exists()
                        and SessionLine.objects.filter(tournament=None).count() == 4 * finished
                    ),
                    90,
                )
            finally:
                halt.set()
                thread.join(10)
            assert done, {
                "outbox": list(OutboxMessage.objects.values_list("task", "deliveries")[:5]),
                "lines": SessionLine.objects.count(),
                "worker": (tmp_path / "worker.log").read_text()[-3000:],
            }
        time.sleep(0.5)  # a follow-up sent twice, still running, writes the same rows

        # what the workers keep is what a computation from scratch gives
        followed, awards = ratings_state(), awards_state()
        assert followed["lines"] and followed["ratings"]
        snapshot = StandingsSnapshot.objects.filter(tournament=t).order_by("-version").first()
        t.refresh_from_db()
        assert snapshot is not None and snapshot_standings(snapshot) == standings_from_scratch(t)
        # and they say so: every derived store records the data version it was computed from
        assert not TableSession.objects.filter(data_version__gt=F("derived_version")).exists()
        assert snapshot.sessions_version == tables_data_version(t.pk)
        club_recompute(club_id=club.pk)
        assert ratings_state() == followed
        assert awards_state() == awards
    finally:
        if worker is not None:
            stop(worker)
        stop(server)
