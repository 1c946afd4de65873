"""A hand the table's confirmation rule holds (issue 24 §2) is left out of everything built on
the table's hands — its totals, its statistics' lines, ratings, the club ranking — until it
counts (a tournament's standings: ``tests/tournaments/test_confirmation_rule.py``).

The hands are ``tests/ratings/test_facts.py``'s, worked out there:
KONG_HAND: S0 −9, S1 +1, S2 +7, S3 +1 (S2's 暗杠 takes 2 from each other seat, S1's 自摸 平胡 1
from each, S3's 清一色 4 and S2's 平胡 1根 2 from S0: S0 −2 −1 −4 −2 = −9, S1 −2 +3 = +1,
S2 +6 −1 +2 = +7, S3 −2 −1 +4 = +1). DOUBLE_HAND: S0 pays 1 + 1 + 8 = −10; S1 +1, S2 +1, S3 +8.
"""

from __future__ import annotations

import pytest

from clubs.models import Hand
from clubs.services.confirmations import hand_confirm
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close, session_reopen
from ratings.models import RatingChange, SessionLine
from ratings.periods import Period
from ratings.ranking import club_ranking
from tests.ratings.test_facts import DOUBLE_HAND, KONG_HAND

pytestmark = pytest.mark.django_db


def lines_of(session) -> dict[int, tuple[int, int, int]]:
    """Seat → (score, wins, hands) of the session's lines."""
    return {
        ln.seat: (ln.score, ln.wins, ln.hands) for ln in SessionLine.objects.filter(session=session)
    }


def confirm(hand: Hand, seats) -> None:
    """The players at ``seats`` confirm through the table's players' link."""
    for seat in seats:
        hand_confirm(hand=hand, verdict="confirm", by_link=True, seat=seat)


def test_a_held_hand_is_left_out_of_lines_ratings_and_ranking(
    club4, django_capture_on_commit_callbacks
):
    """Club rule ``three``; the organiser (not at the table) enters both hands, so each needs
    three of the four. KONG_HAND is confirmed by S1, S2, S3; DOUBLE_HAND only by S1 and S2
    when the table closes. The lines are KONG_HAND's alone — S0 −9, S1 +1, S2 +7, S3 +1, one
    hand each — and so is the ranking's total (S3 +1, not +1 + 8 = +9). Reopened, S0
    confirms DOUBLE_HAND too, closed again: S0 −9 − 10 = −19, S1 1 + 1 = 2, S2 7 + 1 = 8,
    S3 1 + 8 = 9, two hands each."""
    c = club4(confirmation_rule="three")
    commit = django_capture_on_commit_callbacks
    s = c.open([0, 1, 2, 3], mode="xuezhan")
    with commit(execute=True):
        first = hand_record(session=s, data=KONG_HAND, user=c.user).hand
        second = hand_record(session=s, data=DOUBLE_HAND, user=c.user).hand
        confirm(first, (1, 2, 3))
        confirm(second, (1, 2))
    with commit(execute=True):
        session_close(session=s)
    assert lines_of(s) == {0: (-9, 0, 1), 1: (1, 1, 1), 2: (7, 1, 1), 3: (1, 1, 1)}
    assert RatingChange.objects.get(session=s, player=c.players[2]).place == 1
    ranking = {r.player_id: r.total for r in club_ranking(c.club, Period()).rows}
    assert ranking[c.players[3].pk] == 1 and ranking[c.players[0].pk] == -9

    with commit(execute=True):
        session_reopen(session=s)
        confirm(second, (0,))
    with commit(execute=True):
        session_close(session=s)
    assert lines_of(s) == {0: (-19, 0, 2), 1: (2, 2, 2), 2: (8, 2, 2), 3: (9, 2, 2)}
    assert RatingChange.objects.get(session=s, player=c.players[3]).place == 1
