"""A recompute gives the numbers it always gave, to the last bit, and rewrites only what moved.

The reference is the recompute as it was before it rated in plain floats and compared with
what is stored: every history row and rating deleted, then each table rated in play order by
openskill's own objects (``system.rate_table``) — written out here from the lines. The
recompute must store exactly that (every float equal, not approximately), leave the rows alone
when nothing changed (no statement writes a history row, a rating or a line), and put back
exactly that after rows were tampered with.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import TableSession
from ratings import system
from ratings.fastpath import CHANGE_COLUMNS, LINE_COLUMNS, WIN_COLUMNS
from ratings.models import Rating, RatingChange, RatingPool, SessionLine, WinLine
from ratings.services import club_recompute
from tests.ratings.generate import generated_club

pytestmark = pytest.mark.django_db

#: a statement that writes a history row, a rating or a line (not the temporary tables)
WRITES = re.compile(
    r"^\s*(INSERT INTO|DELETE FROM|UPDATE|COPY)\s+"
    r'"ratings_(ratingchange|rating|sessionline|winline)"',
    re.IGNORECASE,
)


def reference(club_id: int) -> tuple[list[tuple], list[tuple]]:
    """The club pool's history rows (``CHANGE_COLUMNS`` without the pool and the system) and
    ratings (player, μ, σ, display, sessions), as the recompute computed them before: every
    table of the lines in play order, rated by openskill's own API."""
    skills: dict[int, tuple[system.Skill, int]] = {}
    tables: dict[int, list[tuple]] = {}
    lines = SessionLine.objects.filter(club_id=club_id, kind=TableSession.Kind.CLUB)
    for row in lines.order_by("started_at", "session_id", "seat").values_list(
        "session_id", "started_at", "player_id", "place", "score"
    ):
        tables.setdefault(row[0], []).append(row[1:])
    changes = []
    for session_id, seats in tables.items():
        rated = system.rate_table(
            [skills.get(p, (system.Skill(), 0))[0] for _, p, _, _ in seats],
            [place for _, _, place, _ in seats],
        )
        for (played_at, player_id, place, score), r in zip(seats, rated, strict=True):
            number = skills.get(player_id, (None, 0))[1] + 1
            skills[player_id] = (r.after, number)
            changes.append(
                (
                    player_id, session_id, played_at, number, score, place, r.expected_place,
                    r.expected_probability, r.before.mu, r.before.sigma, r.after.mu,
                    r.after.sigma, r.before.display, r.after.display,
                )
            )  # fmt: skip
    ratings = [(p, s.mu, s.sigma, s.display, n) for p, (s, n) in skills.items()]
    return sorted(changes), sorted(ratings)


def stored(club_id: int) -> tuple[list[tuple], list[tuple]]:
    pool = RatingPool.objects.get(club_id=club_id, tournament__isnull=True)
    columns = [c for c in CHANGE_COLUMNS if c not in ("pool_id", "system_id")]
    changes = sorted(pool.changes.values_list(*columns))
    assert set(pool.changes.values_list("system_id", flat=True)) == {pool.system_id}
    ratings = sorted(pool.ratings.values_list("player_id", "mu", "sigma", "rating", "sessions"))
    return changes, ratings


def lines_of(club_id: int) -> tuple[list[tuple], list[tuple]]:
    return (
        sorted(SessionLine.objects.filter(club_id=club_id).values_list(*LINE_COLUMNS)),
        sorted(WinLine.objects.filter(club_id=club_id).values_list(*WIN_COLUMNS)),
    )


def row_ids() -> set[int]:
    return set(RatingChange.objects.values_list("pk", flat=True)) | {
        -pk for pk in SessionLine.objects.values_list("pk", flat=True)
    }


def writes_of(fn) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        fn()
    return [q["sql"][:80] for q in queries.captured_queries if WRITES.match(q["sql"])]


@pytest.fixture
def club():
    # a third of the sessions played hand by hand (lines with wins), the rest entered totals
    gen = generated_club(players=24, sessions=300, hands_per_session=3, hand_sessions=100)
    return gen.club


def test_a_recompute_stores_what_openskill_rated_to_the_last_bit(club):
    club_recompute(club_id=club.pk)
    expected = reference(club.pk)
    assert len(expected[0]) == 4 * 300
    assert stored(club.pk) == expected  # floats compared with ==, not approximately


def test_a_recompute_of_unchanged_data_writes_nothing_and_gives_the_same(club):
    club_recompute(club_id=club.pk)
    before, lines, ids = stored(club.pk), lines_of(club.pk), row_ids()
    assert writes_of(lambda: club_recompute(club_id=club.pk, lines=False)) == []
    assert writes_of(lambda: club_recompute(club_id=club.pk)) == []
    assert stored(club.pk) == before == reference(club.pk)
    assert lines_of(club.pk) == lines
    assert row_ids() == ids  # the very rows stand


def test_tampered_rows_are_put_back_exactly(club):
    club_recompute(club_id=club.pk)
    expected, lines = reference(club.pk), lines_of(club.pk)
    pool = RatingPool.objects.get(club=club, tournament__isnull=True)
    changes = list(pool.changes.order_by("played_at", "session_id", "player_id"))
    # the last bit of one row, another row gone, a rating off by one session, a rating of
    # someone who never played in the pool, a line's score and a win's amount
    RatingChange.objects.filter(pk=changes[500].pk).update(
        mu_after=changes[500].mu_after * (1 + 2**-52)
    )
    changes[900].delete()
    Rating.objects.filter(pool=pool, player_id=changes[0].player_id).update(sessions=1)
    stranger = generated_club(players=4, sessions=1, slug="elsewhere").players[0]
    Rating.objects.create(
        pool=pool, player=stranger, system=pool.system, mu=30, sigma=5, rating=1600, sessions=3
    )
    line = SessionLine.objects.filter(club=club).order_by("started_at", "seat")[100]
    SessionLine.objects.filter(pk=line.pk).update(score=line.score + 1)
    win = WinLine.objects.filter(club=club).order_by("started_at", "hand_number")[10]
    WinLine.objects.filter(pk=win.pk).update(amount=win.amount + 1)

    written = writes_of(lambda: club_recompute(club_id=club.pk, lines=False))
    assert written  # the tampered history and ratings were rewritten...
    assert stored(club.pk) != expected  # ...from the tampered line, which stands for now
    club_recompute(club_id=club.pk)
    assert lines_of(club.pk) == lines
    assert stored(club.pk) == expected


def test_a_new_rating_system_rewrites_every_row_with_the_same_numbers(club):
    club_recompute(club_id=club.pk)
    expected = reference(club.pk)
    pool = RatingPool.objects.get(club=club, tournament__isnull=True)
    old = pool.system
    old.pk = None
    old.key = "an older model"
    old.save()
    RatingChange.objects.filter(pool=pool).update(system=old)
    Rating.objects.filter(pool=pool).update(system=old)
    ids = set(pool.changes.values_list("pk", flat=True))
    written = writes_of(lambda: club_recompute(club_id=club.pk, lines=False))
    assert stored(club.pk) == expected  # every row names the pool's system again
    # each row rewritten where it stands (its pool, player and session kept), none deleted
    # nor stored anew
    assert set(pool.changes.values_list("pk", flat=True)) == ids
    assert not any(re.match(r'(INSERT INTO|DELETE FROM|COPY) "ratings_ratingchange"', w)
                   for w in written)  # fmt: skip


def test_a_moved_session_rewrites_its_rows_in_place_and_the_rest_stands(club):
    club_recompute(club_id=club.pk)
    pool = RatingPool.objects.get(club=club, tournament__isnull=True)
    ids = set(pool.changes.values_list("pk", flat=True))
    # the first table's winner and loser swap their results: its places, and every rating
    # after it, move
    first = SessionLine.objects.filter(club=club).order_by("started_at", "session_id")[0]
    seats = sorted(
        SessionLine.objects.filter(session_id=first.session_id), key=lambda line: line.place
    )
    a, b = seats[0], seats[-1]
    assert a.place < b.place
    SessionLine.objects.filter(pk=a.pk).update(score=b.score, place=b.place)
    SessionLine.objects.filter(pk=b.pk).update(score=a.score, place=a.place)
    before = stored(club.pk)
    club_recompute(club_id=club.pk, lines=False)
    assert set(pool.changes.values_list("pk", flat=True)) == ids
    assert stored(club.pk) == reference(club.pk) != before  # rated from the lines as they stand
