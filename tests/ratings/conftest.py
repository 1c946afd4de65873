"""Clubs with finished sessions, written through the services so the outbox runs the real
path (``clubs.session_changed`` → ``ratings.refresh_session``) when each write commits."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from clubs.models import Club, TableSession
from clubs.services.sessions import session_close, session_create, session_result_enter
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.helpers import login

CHENGDU = ZoneInfo("Asia/Shanghai")
EVENING = datetime(2026, 11, 3, 19, 30, tzinfo=CHENGDU)


class Club4:
    """A club, its organiser's login and its players; ``table(...)`` plays a finished session
    of entered totals, every write committed (the refresh runs as on a worker)."""

    def __init__(self, commit, n_players: int = 6, **club) -> None:
        self.club: Club = ClubFactory(**club)
        self.user = login()
        self.players = [MembershipFactory(club=self.club).player for _ in range(n_players)]
        self.commit = commit

    def open(self, seats, at: datetime = EVENING, **kw) -> TableSession:
        with self.commit(execute=True):
            return session_create(
                club=self.club, players=[self.players[i] for i in seats], user=self.user,
                started_at=at, **kw,
            )  # fmt: skip

    def table(self, seats, totals, at: datetime = EVENING, close: bool = True) -> TableSession:
        session = self.open(seats, at)
        self.enter(session, totals)
        if close:
            with self.commit(execute=True):
                session_close(session=session)
        return session

    def enter(self, session: TableSession, totals) -> None:
        players = [s.player_id for s in session.seats.order_by("number")]
        with self.commit(execute=True):
            session_result_enter(
                session=session,
                totals=[{"player": p, "total": t} for p, t in zip(players, totals, strict=True)],
                user=self.user,
            )


@pytest.fixture(autouse=True)
def _tasks_in_process(in_process_tasks):
    """These tests are about what the tasks write: they run in this process when a write
    commits, even where CI gives a broker (``tests/core/test_celery_worker.py`` runs a worker)."""


@pytest.fixture
def club4(db, django_capture_on_commit_callbacks):
    def make(**kw) -> Club4:
        return Club4(django_capture_on_commit_callbacks, **kw)

    return make


def later(days: int = 0, minutes: int = 0) -> datetime:
    return EVENING + timedelta(days=days, minutes=minutes)
