"""The second net under the outbox: a session's derived data that stayed behind are found and
made good by the periodic check (``ratings.reconcile``), with no manual step.

Every write to a session counts its ``data_version``; a refresh records the version it read
as ``derived_version``. Here a table's follow-ups are lost outright — their outbox messages
deleted before they ran, as the old outbox lost them when Redis restarted empty — and the
check, once the table has been quiet for ``RECONCILE_AFTER_SECONDS``, refreshes it: its lines
and ratings are then what a computation from scratch gives.
"""

from __future__ import annotations

import pytest
from celery.signals import task_prerun

from clubs.models import TableSession
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close, session_result_enter
from core.models import OutboxMessage
from ratings import services
from ratings.models import SessionLine
from ratings.tasks import reconcile
from tests.ratings.test_facts import KONG_HAND
from tests.recompute import ratings_state

pytestmark = pytest.mark.django_db


def versions(session: TableSession) -> tuple[int, int]:
    session.refresh_from_db()
    return session.data_version, session.derived_version


def lost_table(c, seats, totals) -> TableSession:
    """A table played and closed, its follow-ups never run and then gone from the outbox."""
    session = c.open(seats)
    players = [s.player_id for s in session.seats.order_by("number")]
    with c.commit(execute=False):
        session_result_enter(
            session=session,
            totals=[{"player": p, "total": t} for p, t in zip(players, totals, strict=True)],
            user=c.user,
        )
        session_close(session=session)
    OutboxMessage.objects.all().delete()
    return session


def test_a_table_whose_follow_ups_were_lost_is_refreshed_by_the_periodic_check(
    club4, settings, django_capture_on_commit_callbacks
):
    c = club4()
    followed = c.table([0, 1, 2, 3], [30, -10, -10, -10])
    lost = lost_table(c, [2, 3, 4, 5], [-5, 15, -5, -5])
    # two writes each (totals entered, closed); the lost table's derived data read neither
    assert versions(followed) == (2, 2)
    assert versions(lost) == (2, 0)
    assert not SessionLine.objects.filter(session=lost).exists()

    # changed just now: its follow-up may still be on its way, the check leaves it
    settings.RECONCILE_AFTER_SECONDS = 600
    assert reconcile() == {"sessions": []}
    assert not OutboxMessage.objects.exists()

    # quiet long enough (the database's clock stands still in a test's transaction)
    settings.RECONCILE_AFTER_SECONDS = 0
    with django_capture_on_commit_callbacks(execute=True):
        assert reconcile() == {"sessions": [lost.pk]}
    assert versions(lost) == (2, 2)
    lines = SessionLine.objects.filter(session=lost).order_by("seat")
    assert [(ln.score, ln.place) for ln in lines] == [(-5, 2), (15, 1), (-5, 2), (-5, 2)]
    assert services.lagging_sessions() == []

    # what the check left is what a computation from scratch gives
    state = ratings_state()
    services.club_recompute(club_id=c.club.pk)
    assert ratings_state() == state


@pytest.fixture
def tasks_run():
    """The names of the tasks run (in this process) while the test lasts."""
    ran: list[str] = []

    def record(sender=None, **_) -> None:
        ran.append(sender.name)

    task_prerun.connect(record, weak=False)
    yield ran
    task_prerun.disconnect(record)


def test_a_table_still_being_played_is_marked_current_without_a_ratings_task(
    club4, settings, django_capture_on_commit_callbacks, tasks_run
):
    """A hand of an open table writes no line nor rating: its table's totals task marks its
    derived data current and queues no ratings refresh (the ratings' queue is kept for the
    finished tables), and the check never takes a table being played for a lagging one."""
    c = club4()
    session = c.open([0, 1, 2, 3], mode="xuezhan")
    with django_capture_on_commit_callbacks(execute=True):
        hand_record(session=session, data=KONG_HAND, user=c.user)
    assert tasks_run == ["clubs.session_changed"]
    assert versions(session) == (1, 1)
    settings.RECONCILE_AFTER_SECONDS = 0
    assert services.lagging_sessions() == []

    with django_capture_on_commit_callbacks(execute=True):
        session_close(session=session)  # finished: its lines are written by a refresh
    assert tasks_run[1:] == [
        "clubs.session_changed", "ratings.refresh_session", "ratings.refresh_awards"
    ]  # fmt: skip
    assert versions(session) == (2, 2)
    assert SessionLine.objects.filter(session=session).count() == 4


def test_a_refresh_never_lowers_the_recorded_version(club4):
    """Two refreshes of one session may finish in either order: the one that read an older
    version, finishing last, does not put the recorded version back."""
    c = club4()
    session = c.table([0, 1, 2, 3], [30, -10, -10, -10])
    TableSession.objects.filter(pk=session.pk).update(data_version=7)
    services.session_refresh(session_id=session.pk)  # reads 7
    assert versions(session) == (7, 7)
    services._mark_derived({session.pk: 5})  # a slower refresh that read 5
    assert versions(session) == (7, 7)
