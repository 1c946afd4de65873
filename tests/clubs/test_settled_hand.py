"""A stored hand read as the engine settled it (issue 26 §1): ``clubs.selectors.settled_hand``.

Adding a reader of settled hands needs exactly one declaration: the reader itself. The one
below is declared in this module alone — the kong money each seat received by 杠钱归胡家 — and
reads a hand recorded through the service, and one stored before the reason had its name
(format 1), through the one public function: no dict of the settlement or of the record is
walked, no tile string parsed again.

The hands (xuezhan9, RULES §3.4; base 1; 普通 mode, a hand ends at the first win):

- S2 弯杠 4p; S1 robs it (抢杠) with 123m 456m 789m 11p 234p: 平胡 0 fan + 抢杠胡 1 = 1 fan → 2,
  S2 → S1 2. 杠钱归胡家: S2 also pays S1 what the kong would have collected from each other
  player still in (S0, S1, S3), 3 × 1 = 3.
"""

from __future__ import annotations

import pytest

from clubs.models import Hand, Payment, Role
from clubs.selectors import session_page, settled_hand, table_sheet
from clubs.services.hands import hand_correct, hand_record
from scoring.engine.settle import Settlement, WinSummary
from scoring.services import ruleset_snapshot_get_or_create
from tests.clubs.factories import ClubFactory, TableSessionFactory, member

pytestmark = pytest.mark.django_db

ROBBED = {
    "dealer": 0,
    "events": [
        {"type": "kong", "seat": 2, "kind": "added", "tile": "4p"},
        {"type": "win", "from": 2, "tile": "4p", "situation": ["robbing_kong"],
         "winners": [{"seat": 1, "concealed": "123m456m789m11p23p"}]},
    ],
}  # fmt: skip


def robbed_kong_money(settled: Settlement) -> list[int]:
    """The reader this module adds: what each seat received by 杠钱归胡家."""
    received = [0, 0, 0, 0]
    for p in settled.payments:
        if p.reason == "kong_to_winner":
            received[int(p.payee[1])] += p.amount
    return received


@pytest.fixture
def hand() -> Hand:
    club = ClubFactory(ruleset=ruleset_snapshot_get_or_create(spec="xuezhan9"))
    session = TableSessionFactory(club=club)
    user = member(club, role=Role.SCORER)
    return hand_record(session=session, data=ROBBED, user=user).hand


def test_a_reader_declared_here_reads_a_recorded_hand(hand):
    settled = settled_hand(Hand.objects.get(pk=hand.pk))
    assert robbed_kong_money(settled) == [0, 3, 0, 0]
    assert settled.seat_totals == (0, 5, -5, 0)
    # the record within is typed too: the robbed kong, the winner's tiles as tile numbers
    kong, win = settled.record.events
    assert (kong.seat, kong.kind, win.situation) == (2, "added", frozenset({"robbing_kong"}))
    assert len(win.winners[0].concealed) == 13


def test_a_hand_stored_before_kong_to_winner_reads_the_same(hand):
    """Format 1: no ``format``, 杠钱归胡家 written ``kong_transfer`` (as the code before wrote
    it): read through the same function, the same settlement."""
    now = settled_hand(Hand.objects.get(pk=hand.pk))
    old = {k: v for k, v in hand.settlement.items() if k != "format"}
    old["payments"] = [
        {**p, "reason": "kong_transfer"} if p["reason"] == "kong_to_winner" else p
        for p in old["payments"]
    ]
    Hand.objects.filter(pk=hand.pk).update(settlement=old)
    stored = Hand.objects.get(pk=hand.pk)
    assert "format" not in stored.settlement
    assert settled_hand(stored) == now
    assert robbed_kong_money(settled_hand(stored)) == [0, 3, 0, 0]


def test_the_payment_rows_say_kong_to_winner(hand):
    assert list(Payment.objects.filter(hand=hand).values_list("reason", "amount")) == [
        ("win", 2),
        ("kong_to_winner", 3),
    ]


#: ROBBED corrected: S1 wins the same tiles on S3's discard, no kong (平胡 0 fan → 1)
CORRECTED = {
    "dealer": 0,
    "events": [
        {"type": "win", "from": 3, "tile": "4p", "situation": [],
         "winners": [{"seat": 1, "concealed": "123m456m789m11p23p"}]},
    ],
}  # fmt: skip


def test_the_sheet_reads_a_hand_at_a_glance_and_its_settlement_when_asked(hand):
    """The 流水 sheet's row: its figures from the settlement at a glance, and the whole
    settlement (``row.settlement``) the one ``settled_hand`` reads."""
    (row,) = table_sheet(session_page(hand.session_id)).rows
    settled = settled_hand(Hand.objects.get(pk=hand.pk))
    assert (row.nets, row.drawn, row.verified) == (settled.seat_totals, False, True)
    assert [tuple(w) for w in row.wins] == [(1, 2, "pinghu", 0, 2, True, 1)]
    assert row.false_wins == ()
    assert all(type(w) is WinSummary for w in row.wins)  # the engine's summary, as it is
    assert row.settlement == settled
    assert robbed_kong_money(row.settlement) == [0, 3, 0, 0]


def test_a_corrected_hand_is_read_anew(hand):
    """A correction is a new state of the hand: the sheet and its settlement read it, not
    the one read (and kept) before."""
    before = table_sheet(session_page(hand.session_id)).rows[0].settlement
    hand_correct(hand=hand, data=CORRECTED, user=hand.entered_by)
    (row,) = table_sheet(session_page(hand.session_id)).rows
    corrected = row.settlement
    assert corrected != before
    assert len(corrected.record.events) == 1
    assert robbed_kong_money(corrected) == [0, 0, 0, 0]
    assert row.nets == corrected.seat_totals == (0, 1, 0, -1)
    assert [(w.seat, w.from_, w.pattern) for w in row.wins] == [(1, 3, "pinghu")]
