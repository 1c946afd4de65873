"""A tournament table whose hand the confirmation rule holds (issue 24 §2) is not done: the
standings leave it out until the hand counts. The tournament's rule overrides the club's for
its tables, and changing it counts their hands again.

PINGHU (``tests/clubs/records.py``): S1's 平胡 on S2's discard, 1 fan under qq, worth 2^0 = 1,
paid by S2 alone: S1 +1, S2 −1.
"""

from __future__ import annotations

import pytest

from clubs.models import Hand
from clubs.services.confirmations import hand_confirm
from clubs.services.hands import hand_record
from tests.clubs.records import PINGHU
from tournaments import selectors as tournament_selectors
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def confirm(hand: Hand, seats) -> None:
    """The players at ``seats`` confirm through the table's players' link."""
    for seat in seats:
        hand_confirm(hand=hand, verdict="confirm", by_link=True, seat=seat)


def test_a_tournament_table_waits_for_its_confirmations(
    make_tournament, seat, django_capture_on_commit_callbacks, in_process_tasks
):
    """The host club shows confirmations only; the tournament overrides it with ``two``. Its
    one-hand table's card holder (no login) enters PINGHU (S2 → S1 1): the table is not done
    and the standings count no table. One confirmation: still not. Two: the table counts, S1's
    table score +1 and S2's −1."""
    t = make_tournament(players=4, rounds=2, hands_per_table=1, mode="single",
                        confirmation_rule="two")  # fmt: skip
    table = seat(t).tables.get()
    assert table.session.confirmation_rule == "two"
    commit = django_capture_on_commit_callbacks
    with commit(execute=True):
        hand = hand_record(session=table.session, data=PINGHU, user=None).hand
    assert not hand.counts
    assert tournament_selectors.latest_standings(t).tables_counted == 0
    with commit(execute=True):
        confirm(hand, (3,))
    assert tournament_selectors.latest_standings(t).tables_counted == 0
    with commit(execute=True):
        confirm(hand, (1,))
    standings = tournament_selectors.latest_standings(t)
    assert standings.tables_counted == 1
    seats = list(table.session.seats.order_by("number").values_list("player_id", flat=True))
    scores = {r.player: r.table_score for r in standings.rows}
    assert [scores[p] for p in seats] == [0, 1, -1, 0]


def test_a_tournaments_rule_change_recounts_its_tables(
    make_tournament, seat, django_capture_on_commit_callbacks, in_process_tasks
):
    """Held under ``three`` with no confirmation; the tournament goes back to the club's rule
    (``shown``): the hand counts and the table is in the standings."""
    t = make_tournament(players=4, rounds=2, hands_per_table=1, mode="single",
                        confirmation_rule="three")  # fmt: skip
    table = seat(t).tables.get()
    commit = django_capture_on_commit_callbacks
    with commit(execute=True):
        hand = hand_record(session=table.session, data=PINGHU, user=None).hand
    assert tournament_selectors.latest_standings(t).tables_counted == 0
    with commit(execute=True):
        tournaments.tournament_update(tournament=t, confirmation_rule="")
    hand.refresh_from_db()
    table.session.refresh_from_db()
    assert hand.counts and table.session.confirmation_rule == ""
    assert tournament_selectors.latest_standings(t).tables_counted == 1
