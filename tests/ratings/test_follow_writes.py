"""Every write that changes a session's result moves its statistics' lines and its ratings.

The lines are a read model kept by the ``ratings.refresh_session`` task, which the outbox
queues after every such write; no other cache stands between a write and the ranking. Each
write below is made through the services and committed (the task runs as on a worker), then
the lines and the ratings are compared with what the session now says.
"""

from __future__ import annotations

import pytest

from clubs.models import Hand
from clubs.services.hands import hand_correct, hand_delete, hand_record
from clubs.services.sessions import session_close, session_reopen
from ratings.models import Rating, RatingChange, SessionLine, WinLine
from tests.ratings.test_facts import DOUBLE_HAND, KONG_HAND
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def lines_of(session) -> dict[int, tuple[int, int]]:
    """Seat → (score, wins) of the session's lines."""
    return {ln.seat: (ln.score, ln.wins) for ln in SessionLine.objects.filter(session=session)}


def test_club_table_hand_by_hand(club4, django_capture_on_commit_callbacks):
    c = club4()
    s = c.open([0, 1, 2, 3], mode="xuezhan")
    commit = django_capture_on_commit_callbacks
    with commit(execute=True):
        hand_record(session=s, data=KONG_HAND, user=c.user)
    assert lines_of(s) == {}  # still being played: no lines, no rating
    with commit(execute=True):
        session_close(session=s)
    # KONG_HAND (tests/ratings/test_facts.py): S0 −9, S1 +1, S2 +7, S3 +1
    assert lines_of(s) == {0: (-9, 0), 1: (1, 1), 2: (7, 1), 3: (1, 1)}
    assert WinLine.objects.filter(session=s).count() == 3
    assert RatingChange.objects.filter(session=s).count() == 4

    with commit(execute=True):
        session_reopen(session=s)
    assert lines_of(s) == {} and not RatingChange.objects.filter(session=s).exists()
    with commit(execute=True):
        hand_record(session=s, data=DOUBLE_HAND, user=c.user)
    with commit(execute=True):
        session_close(session=s)
    # + DOUBLE_HAND: S0 pays 1 + 1 + 8 = −10 → −19; S1 +1 → 2; S2 +1 → 8; S3 +8 → 9
    assert lines_of(s) == {0: (-19, 0), 1: (2, 2), 2: (8, 2), 3: (9, 2)}
    # S3 now first: his rating row says so
    assert RatingChange.objects.get(session=s, player=c.players[3]).place == 1


@pytest.fixture
def tournament_table(club4, django_capture_on_commit_callbacks):
    """A tournament of two hands a table, its first round seated: one table of four."""
    c = club4()
    t = tournaments.tournament_create(
        name="Cup", slug="cup", user=c.user, club=c.club, rounds=2, hands_per_table=2,
        mode="xuezhan",
    )  # fmt: skip
    for p in c.players[:4]:
        tournaments.registration_create(tournament=t, player=p)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = tournaments.round_start(tournament=t)
    return c, t, round_.tables.get().session


def test_a_tournament_table_is_rated_in_its_tournament_once_it_has_played_its_hands(
    tournament_table, django_capture_on_commit_callbacks
):
    c, t, s = tournament_table
    commit = django_capture_on_commit_callbacks
    seat_player = dict(s.seats.values_list("number", "player_id"))
    with commit(execute=True):
        hand_record(session=s, data=KONG_HAND, user=c.user)
    assert lines_of(s) == {}  # one of its two hands
    with commit(execute=True):
        hand_record(session=s, data=DOUBLE_HAND, user=c.user)
    assert lines_of(s) == {0: (-19, 0), 1: (2, 2), 2: (8, 2), 3: (9, 2)}
    # rated in the tournament's pool, not the club's: tournament points are not club money
    assert {r.pool.tournament_id for r in Rating.objects.select_related("pool")} == {t.pk}
    assert SessionLine.objects.filter(session=s, tournament=t).count() == 4

    # a correction of hand 2 (the 一炮多响 hand becomes KONG_HAND again) moves both
    with commit(execute=True):
        hand_correct(
            hand=Hand.objects.get(session=s, number=2), data=KONG_HAND, user=c.user,
            reason="wrong hand",
        )  # fmt: skip
    assert lines_of(s) == {0: (-18, 0), 1: (2, 2), 2: (14, 2), 3: (2, 2)}
    top = RatingChange.objects.get(session=s, place=1)
    assert top.player_id == seat_player[2] and top.score == 14

    # a deletion leaves one hand of two: the table is no longer finished, nothing is rated
    with commit(execute=True):
        hand_delete(hand=Hand.objects.get(session=s, number=2), reason="entered twice",
                    user=c.user)  # fmt: skip
    assert lines_of(s) == {}
    assert not Rating.objects.exists()


def test_a_tournament_table_entered_as_totals(tournament_table, django_capture_on_commit_callbacks):
    c, t, s = tournament_table
    table = s.tournament_table
    order = list(s.seats.order_by("number").values_list("player_id", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.table_result_enter(
            table=table,
            scores=[{"player": p, "score": n} for p, n in zip(order, [5, 5, -4, -6], strict=True)],
            user=c.user,
        )
    assert lines_of(s) == {0: (5, 0), 1: (5, 0), 2: (-4, 0), 3: (-6, 0)}
    places = dict(RatingChange.objects.filter(session=s).values_list("player_id", "place"))
    assert [places[p] for p in order] == [1, 1, 3, 4]
