"""Ratings and the statistics' lines follow every change to a session (``ratings.services``).

Each write goes through the clubs services and commits, so the outbox delivers
``clubs.session_changed`` and then ``ratings.refresh_session`` as a worker would.
"""

from __future__ import annotations

import pytest

from clubs.services.sessions import session_reopen
from ratings import system
from ratings.models import Rating, RatingChange, RatingPool, SessionLine
from ratings.services import pool_recompute
from tests.ratings.conftest import later


def ratings_of(club) -> dict[int, tuple[float, int]]:
    return {
        r.player_id: (r.rating, r.sessions)
        for r in Rating.objects.filter(pool__club=club, pool__tournament=None)
    }


def test_a_closed_session_is_one_rated_match(club4):
    c = club4()
    session = c.table([0, 1, 2, 3], [30, 10, -10, -30])
    changes = list(RatingChange.objects.filter(session=session).order_by("place"))
    assert [ch.place for ch in changes] == [1, 2, 3, 4]
    # four new players: the model expected all four level (rank 1 each), all at 1500
    assert {ch.expected_place for ch in changes} == {1}
    assert {round(ch.rating_before) for ch in changes} == {1500}
    # the winner rises most; everyone's σ shrinks, so even the last need not fall far
    after = [ch.rating_after for ch in changes]
    assert after == sorted(after, reverse=True)
    assert [ch.score for ch in changes] == [30, 10, -10, -30]
    rating = Rating.objects.get(player=c.players[0])
    assert rating.provisional and rating.sessions == 1
    # every row names the model, its parameters and the library version
    assert rating.system.model == "BradleyTerryFull"
    assert rating.system.library_version == "6.2.0"
    assert rating.system.parameters["mu"] == system.MU
    assert changes[0].system_id == rating.system_id


def test_an_open_session_is_not_rated_and_has_no_lines(club4):
    c = club4()
    c.table([0, 1, 2, 3], [30, 10, -10, -30], close=False)
    assert not RatingChange.objects.exists()
    assert not SessionLine.objects.exists()


def test_reopening_a_session_takes_it_out_until_it_is_closed_again(
    club4, django_capture_on_commit_callbacks
):
    c = club4()
    first = c.table([0, 1, 2, 3], [30, 10, -10, -30])
    second = c.table([0, 1, 4, 5], [-30, 10, 10, 10], at=later(days=1))
    assert ratings_of(c.club)[c.players[0].pk][1] == 2
    with django_capture_on_commit_callbacks(execute=True):
        session_reopen(session=first)
    # the first session is out: player 0 has one rated session, players 2 and 3 none at all
    now = ratings_of(c.club)
    assert now[c.players[0].pk][1] == 1
    assert c.players[2].pk not in now and c.players[3].pk not in now
    assert not SessionLine.objects.filter(session=first).exists()
    # and player 0's one rated session is now rated as his first: from 1500
    change = RatingChange.objects.get(session=second, player=c.players[0])
    assert change.number == 1 and round(change.rating_before) == 1500


def test_a_session_played_earlier_and_entered_later_rerates_what_followed(club4):
    c = club4()
    c.table([0, 1, 2, 3], [30, 10, -10, -30], at=later(days=2))
    before = ratings_of(c.club)
    # a table of the evening before, entered afterwards: it comes first in play order
    early = c.table([0, 1, 2, 3], [-30, -10, 10, 30], at=later(days=1))
    first = RatingChange.objects.get(session=early, player=c.players[0])
    assert first.number == 1 and round(first.rating_before) == 1500
    assert ratings_of(c.club) != before
    incremental = list(RatingChange.objects.values_list("session_id", "player_id", "mu_after"))
    pool = RatingPool.objects.get(club=c.club, tournament=None)
    pool_recompute(club_id=pool.club_id)
    again = list(RatingChange.objects.values_list("session_id", "player_id", "mu_after"))
    assert sorted(again) == sorted(incremental)


def test_a_correction_of_totals_rerates_from_that_session(
    club4, django_capture_on_commit_callbacks
):
    c = club4()
    first = c.table([0, 1, 2, 3], [30, 10, -10, -30])
    c.table([0, 1, 2, 3], [30, 10, -10, -30], at=later(days=1))
    with django_capture_on_commit_callbacks(execute=True):
        session_reopen(session=first)
    c.enter(first, [-30, -10, 10, 30])
    from clubs.services.sessions import session_close

    with django_capture_on_commit_callbacks(execute=True):
        session_close(session=first)
    change = RatingChange.objects.get(session=first, player=c.players[3])
    assert change.place == 1 and change.score == 30
    assert SessionLine.objects.get(session=first, player=c.players[3]).place == 1


def test_ties_share_the_better_place(club4):
    c = club4()
    session = c.table([0, 1, 2, 3], [10, 10, 0, -20])
    places = dict(RatingChange.objects.filter(session=session).values_list("player_id", "place"))
    assert [places[p.pk] for p in c.players[:4]] == [1, 1, 3, 4]
    lines = SessionLine.objects.filter(session=session).order_by("seat")
    assert [ln.tied for ln in lines] == [True, True, False, False]


@pytest.mark.parametrize("n_sessions", [1, 12])
def test_provisional_under_ten_rated_sessions(club4, n_sessions):
    c = club4()
    for day in range(n_sessions):
        c.table([0, 1, 2, 3], [30, 10, -10, -30], at=later(days=day))
    rating = Rating.objects.get(player=c.players[0])
    assert rating.sessions == n_sessions
    assert rating.provisional is (n_sessions < 10)
