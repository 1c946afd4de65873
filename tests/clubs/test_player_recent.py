"""``clubs.selectors.player_recent``: a player's page's clubs and last sessions, read alone.

What it lists is what ``player_history`` (every session, with totals) ends with: his latest
club sessions and tournament tables, the latest first, with his total in each (a seat's, or a
叫马 bet's), over the clubs the user may read. Its queries do not grow with his history.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs import selectors
from clubs.models import Club
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close, session_create, session_result_enter
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.clubs.records import PINGHU, SELFDRAW
from tests.helpers import login, member_login
from tests.ratings.stats_scenario import tournament_table

pytestmark = pytest.mark.django_db

START = datetime(2025, 3, 1, 12, tzinfo=UTC)


def players_of(club: Club, n: int):
    return [MembershipFactory(club=club).player for _ in range(n)]


def table(club, players, at, *, totals=None, hands=(), bettors=(), close=True):
    """A table of ``players`` (seats 0–3; 普通 mode: a hand ends at its first win), its hands
    or its entered totals (seats, then bettors), closed unless told."""
    session = session_create(club=club, players=players, user=login(), started_at=at,
                             bettors=[{"player": b} for b in bettors], mode="single")  # fmt: skip
    for data in hands:
        hand_record(session=session, data=data, user=None)
    if totals is not None:
        ids = [("player", p.pk) for p in players]
        ids += [("bettor", b.pk) for b in session.bettors.order_by("pk")]
        session_result_enter(
            session=session,
            totals=[{kind: pk, "total": t} for (kind, pk), t in zip(ids, totals, strict=True)],
            user=None,
        )
    if close:
        session_close(session=session)
    return session


def recent(player, user=None, **kw) -> list[tuple[int, str, int]]:
    found = selectors.player_recent(player=player, user=user or AnonymousUser(), limit=10, **kw)
    return [(s.session.pk, s.role, s.total) for s in found.sessions]


def from_history(player, user=None, club=None) -> list[tuple[int, str, int]]:
    history = selectors.player_history(player=player, user=user or AnonymousUser())
    sessions = [s for s in history.sessions if club is None or s.session.club_id == club.pk]
    return [(s.session.pk, s.role, s.total) for s in reversed(sessions[-10:])]


@pytest.fixture
def club():
    c = ClubFactory(name="Teahouse")
    a, b, c_, d, e = players_of(c, 5)
    c.a, c.b, c.c, c.d, c.e = a, b, c_, d, e
    # twelve tables of entered totals: A's total at the n-th is n − 6 (B pays it)
    c.tables = [
        table(c, [a, b, c_, d], START + timedelta(days=n), totals=[n - 6, 6 - n, 0, 0])
        for n in range(12)
    ]
    # then one played hand by hand (PINGHU: S1 wins 1 on S2's discard; SELFDRAW: 1 from each)
    c.played = table(c, [d, a, b, c_], START + timedelta(days=20), hands=[PINGHU, SELFDRAW])
    # E bets (叫马) on a table of totals entered: +2 for him; and an open table of A's
    c.bet = table(c, [a, b, c_, d], START + timedelta(days=21), totals=[1, -1, -2, 0, 2],
                  bettors=[e])  # fmt: skip
    c.open_table = table(c, [a, b, c_, d], START + timedelta(days=22), close=False)
    return c


def test_his_last_ten_sessions_latest_first_with_his_totals(club):
    found = recent(club.a)
    assert found == from_history(club.a)
    # the open table (no total yet), E's bet's table (+1), the played one (PINGHU 1 + 自摸 3
    # = +4 as S1), then the totals tables 11 … 5 (n − 6: +5 … −1)
    assert found == [
        (club.open_table.pk, "seat", 0),
        (club.bet.pk, "seat", 1),
        (club.played.pk, "seat", 4),
        *[(club.tables[n].pk, "seat", n - 6) for n in range(11, 4, -1)],
    ]
    assert recent(club.e) == from_history(club.e) == [(club.bet.pk, "bettor", 2)]
    assert recent(club.b) == from_history(club.b)


def test_his_clubs_and_the_club_asked_for(club):
    annex = ClubFactory(name="Annex", visibility=Club.Visibility.MEMBERS)
    MembershipFactory(club=annex, player=club.a)
    f, g, h = players_of(annex, 3)
    there = table(annex, [club.a, f, g, h], START + timedelta(days=30), totals=[3, -3, 0, 0])
    only_member = ClubFactory(name="Backroom")  # a membership, no table
    MembershipFactory(club=only_member, player=club.a)

    outsider = selectors.player_recent(player=club.a, user=AnonymousUser(), limit=10)
    assert [c.name for c in outsider.clubs] == ["Backroom", "Teahouse"]  # the annex hidden
    assert there.pk not in [s.session.pk for s in outsider.sessions]
    member = member_login(annex)
    inside = selectors.player_recent(player=club.a, user=member, limit=10)
    assert [c.name for c in inside.clubs] == ["Annex", "Backroom", "Teahouse"]
    assert recent(club.a, member) == from_history(club.a, member)
    assert recent(club.a, member)[0] == (there.pk, "seat", 3)
    assert recent(club.a, member, club=annex) == [(there.pk, "seat", 3)]
    assert recent(club.a, member, club=club) == from_history(club.a, member, club)


def test_his_tournament_tables_apart(club):
    """A tournament table of the club: listed apart, never among his club sessions; a club
    where he only played a tournament is not one of his clubs."""
    host = ClubFactory(name="Host")
    MembershipFactory(club=host, player=club.a)
    players = [club.a, *(PlayerFactory() for _ in range(3))]  # the others no members
    t = tournament_table(host, dict(zip(players, [4, 0, -1, -3], strict=True)))
    session = t.round_set.get().tables.get().session
    found = selectors.player_recent(player=club.a, user=AnonymousUser(), limit=10)
    assert [(s.session.pk, s.role, s.total) for s in found.tournament_tables] == [
        (session.pk, "seat", 4)
    ]
    assert session.pk not in [s.session.pk for s in found.sessions]
    history = selectors.player_history(player=club.a, user=AnonymousUser())
    assert [(s.session.pk, s.total) for s in history.tournament_tables] == [(session.pk, 4)]
    # the host is his club (a membership); a player who only played its tournament has none
    assert [c.name for c in found.clubs] == ["Host", "Teahouse"]
    other = selectors.player_recent(player=players[1], user=AnonymousUser(), limit=10)
    assert other.clubs == [] and len(other.tournament_tables) == 1


def test_the_queries_do_not_grow_with_his_history(club):
    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            selectors.player_recent(player=club.a, user=AnonymousUser(), limit=10)
        return len(ctx.captured_queries)

    before = count()
    for n in range(5):
        table(club, [club.a, club.b, club.c, club.d], START + timedelta(days=40 + n),
              totals=[1, -1, 0, 0])  # fmt: skip
    # his clubs, his last club sessions, their payments and entered results (a 叫马 bet of
    # his among them would add his bettors, a tournament table his tables)
    assert count() == before == 4
