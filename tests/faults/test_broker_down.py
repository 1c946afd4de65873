"""The broker is down while a scorer enters an evening's tables, then comes back.

A club with two evenings rated already and a tournament whose first round is seated (tasks in
process). Then the broker goes away: the scorer opens a club table, records its hands and
closes it, records a tournament table's hands and enters another's totals, all over the API;
every write gets its success answer, and what each asked of the workers waits in the outbox.
The sweep cannot send it (to a broker that refuses connections, nor to one that takes them and
never answers: that one must not hold the sweep). Then the broker is back, with a real worker
and the sweep: the standings and the ratings follow, and they are exactly what a computation
from scratch gives (``ratings_recompute``, the standings from the results).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time

import pytest
from django.db import connections
from django.utils import timezone

from clubs.models import Role, TableSession
from clubs.services.sessions import session_close, session_create, session_result_enter
from config.celery import app
from core import outbox
from core.models import OutboxMessage, TaskRecord
from ratings.models import Rating, RatingChange, SessionLine
from ratings.services import club_recompute
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.clubs.records import PINGHU, SELFDRAW
from tests.helpers import client_for, member_login
from tests.recompute import ratings_state, snapshot_standings, standings_from_scratch
from tournaments import services
from tournaments.models import StandingsSnapshot

pytestmark = pytest.mark.django_db(transaction=True)

#: nothing listens on port 1: a broker that refuses connections
REFUSING = "redis://127.0.0.1:1/0"


def fresh_broker_connections() -> None:
    """Forget Celery's pooled broker connections (as after a fork), so the next publish
    connects to the broker the configuration names now."""
    app._after_fork()


@contextlib.contextmanager
def broker_at(url: str, **transport):
    """Tasks go to the broker at ``url`` (not eager) for the block."""
    keys = ("task_always_eager", "broker_url", "broker_transport_options")
    saved = {k: getattr(app.conf, k) for k in keys}
    # Celery reads the broker from this variable before its configuration
    saved_env = os.environ.get("CELERY_BROKER_URL")
    os.environ["CELERY_BROKER_URL"] = url
    app.conf.task_always_eager = False
    app.conf.broker_url = url
    app.conf.broker_transport_options = {**saved["broker_transport_options"], **transport}
    fresh_broker_connections()
    try:
        yield
    finally:
        for key, value in saved.items():
            setattr(app.conf, key, value)
        if saved_env is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = saved_env
        fresh_broker_connections()


@contextlib.contextmanager
def tasks_in_process():
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = saved


def wait_until(condition, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_the_broker_down_during_an_evening(request, postgresql, non_eager_app, silent_port):
    club = ClubFactory(slug="fault-club")
    players = [MembershipFactory(club=club).player for _ in range(8)]
    organiser = member_login(club, Role.ORGANISER)
    with tasks_in_process():
        # two evenings rated already
        for seats, totals in (((0, 1, 2, 3), (12, 4, -4, -12)), ((2, 3, 4, 5), (8, 0, 0, -8))):
            session = session_create(club=club, players=[players[i] for i in seats], user=organiser)
            entered = [
                {"player": players[i].pk, "total": t} for i, t in zip(seats, totals, strict=True)
            ]
            session_result_enter(session=session, totals=entered, user=organiser)
            session_close(session=session)
        t = services.tournament_create(
            name="Fault cup", slug="fault-cup", user=organiser, club=club, rounds=2,
            hands_per_table=2, mode=TableSession.Mode.SINGLE,
        )  # fmt: skip
        for i in range(8):
            services.registration_create(tournament=t, name=f"F{i}")
        round_ = services.round_start(tournament=t)
    round_.refresh_from_db()
    assert round_.status == "seated" and round_.tables.count() == 2
    assert Rating.objects.filter(pool__tournament=None).count() == 6
    rated_before = ratings_state()
    snapshots_before = StandingsSnapshot.objects.filter(tournament=t).count()
    OutboxMessage.objects.all().delete()  # nothing left over from the set-up
    tables = list(round_.tables.select_related("session").order_by("number"))

    scorer = client_for(member_login(club, Role.SCORER))
    with broker_at(REFUSING, socket_connect_timeout=0.5):
        # a club table: opened, three hands, closed
        seated = [players[i].pk for i in (1, 3, 5, 7)]
        r = scorer.post(
            f"/api/v1/clubs/{club.slug}/sessions/", {"players": seated, "mode": "single"},
            format="json",
        )  # fmt: skip
        assert r.status_code == 201, r.content
        session = r.json()["id"]
        for record in (PINGHU, SELFDRAW, PINGHU):
            hand = scorer.post(f"/api/v1/sessions/{session}/hands/", record, format="json")
            assert hand.status_code == 201, hand.content
        assert scorer.post(f"/api/v1/sessions/{session}/close/").status_code == 200
        # tournament table 1: its two hands; table 2: its totals
        for record in (SELFDRAW, PINGHU):
            hand = scorer.post(
                f"/api/v1/sessions/{tables[0].session_id}/hands/", record, format="json"
            )
            assert hand.status_code == 201, hand.content
        seats = tables[1].session.seats.order_by("number").values_list("player_id", flat=True)
        scores = [{"player": p, "score": v} for p, v in zip(seats, (5, 1, -1, -5), strict=True)]
        result = scorer.post(
            f"/api/v1/tournaments/{t.slug}/rounds/1/tables/2/result/", {"scores": scores},
            format="json",
        )  # fmt: skip
        assert result.status_code == 200, result.content

        # what they asked of the workers waits, a message per table at least (a table's writes
        # within FOLLOW_UP_COALESCE_SECONDS share one), one per write at most; nothing followed
        waiting = OutboxMessage.objects.count()
        assert 3 <= waiting <= 3 + 1 + 2 + 1  # three hands and the close; two hands; the totals
        OutboxMessage.objects.update(not_before=timezone.now())  # due now: the sweep tries
        assert ratings_state() == rated_before
        assert StandingsSnapshot.objects.filter(tournament=t).count() == snapshots_before
        assert outbox.deliver() == 0
        assert OutboxMessage.objects.count() == waiting

    with broker_at(f"redis://127.0.0.1:{silent_port}/0"):
        # a broker that takes the connection and never answers: the sweep gives up on it
        # (the broker's socket timeout) instead of holding its transaction forever
        sent: list[int] = []

        def sweep_once() -> None:
            try:
                sent.append(outbox.deliver())
            finally:
                connections.close_all()  # this thread's own

        sweep = threading.Thread(target=sweep_once, daemon=True)
        sweep.start()
        sweep.join(30)
        assert not sweep.is_alive(), "the sweep hangs on a broker that does not answer"
        assert sent == [0]
        assert OutboxMessage.objects.count() == waiting
        assert "Timeout" in OutboxMessage.objects.order_by("pk").first().last_error

    # the broker is back: a worker, and the sweep as beat runs it
    request.getfixturevalue("worker")
    finished = 2 + 1 + 2  # sessions (club: two before, one now; two tables), each rated

    def settled() -> bool:
        snapshot = StandingsSnapshot.objects.filter(tournament=t).order_by("-version").first()
        return (
            not OutboxMessage.objects.exists()
            and not TaskRecord.objects.filter(state__in=("PENDING", "STARTED")).exists()
            and snapshot is not None
            and snapshot.tables_counted == 2
            and RatingChange.objects.count() == 4 * finished
            and SessionLine.objects.count() == 4 * finished
        )

    assert wait_until(settled, 60), {
        "outbox": list(OutboxMessage.objects.values_list("task", "attempts", "last_error")[:5]),
        "jobs": list(TaskRecord.objects.values_list("name", "state")),
        "snapshots": list(StandingsSnapshot.objects.values_list("version", "tables_counted")),
        "changes": RatingChange.objects.count(),
        "lines": SessionLine.objects.count(),
    }
    time.sleep(0.5)  # a repeated follow-up still running writes the same rows
    assert wait_until(lambda: not OutboxMessage.objects.exists(), 10)

    # the standings: those of the results as they are
    snapshot = StandingsSnapshot.objects.filter(tournament=t).order_by("-version").first()
    t.refresh_from_db()
    assert snapshot_standings(snapshot) == standings_from_scratch(t)
    assert (snapshot.rounds_complete, snapshot.tables_counted) == (1, 2)
    assert (
        client_for().get(f"/api/v1/tournaments/{t.slug}/standings/").json()["tables_counted"] == 2
    )

    # the ratings and the statistics: what a computation from scratch gives
    followed = ratings_state()
    assert followed != rated_before
    assert {row[1] for row in followed["ratings"]} == {None, t.pk}
    club_recompute(club_id=club.pk)
    assert ratings_state() == followed
