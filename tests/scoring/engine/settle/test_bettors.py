"""叫马 bettors (RULES §4.7): ``settle/bettors.py`` (mirroring, 马吃马) and the seat a tile
counts to (``settle/dealer.py: bettor_seat``).

Amounts are worked out by hand from RULES.md, every payment listed (the presets' values: hands.py).
"""

from __future__ import annotations

import pytest

from scoring.engine.settle import settle

from ..builders import kong, record
from .hands import FOUR_HANDS, LATEST_KONG, LATEST_KONG_DRAW

# qq kongs (see test_kong_payments_per_preset): seat totals without bettors [-4, 5, -2, 1].
BETTOR_KONGS = [
    kong(1, "concealed", "9s"),
    kong(2, "direct", "5p", frm=0),
    kong(3, "added", "7p"),
]


NO_BETTOR_TOTALS = [-4, 5, -2, 1]


@pytest.mark.parametrize(
    ("dealer", "seats"),
    [
        # rank 1 → dealer, 2 → next, 3 → opposite, 4 → previous, 5 → dealer again …
        (0, [0, 1, 2, 3, 0, 1, 2, 3, 0]),
        (2, [2, 3, 0, 1, 2, 3, 0, 1, 2]),
        (3, [3, 0, 1, 2, 3, 0, 1, 2, 3]),
    ],
)
@pytest.mark.parametrize("rank", range(1, 10))
def test_bettor_seat_counted_from_the_dealer_by_rank(dealer, seats, rank):
    """A bettor drawing rank r is bound to the seat r−1 steps after the dealer in play order.
    With one bettor and 马吃马 off he wins or loses exactly what his seat does in the hand
    without bettors: qq kongs give [−4, 5, −2, 1]."""
    rec = record("qq", BETTOR_KONGS, dealer=dealer, bettors=[{"name": "老王", "tile": f"{rank}m"}])
    d = settle(rec).as_dict()
    seat = seats[rank - 1]
    assert d["bettors"][0]["seat"] == seat
    assert d["totals"]["bettors"] == [NO_BETTOR_TOTALS[seat]]


@pytest.mark.parametrize(
    ("horse_eats_horse", "bettor_totals"),
    [(False, [5, -4]), (True, [7, -6])],
)
def test_bettors_mirror_their_seats_and_horse_eats_horse(horse_eats_horse, bettor_totals):
    """qq, dealer S0. Bettor B0 drew 2m → S1; B1 drew 1m → S0 (the dealer).
    Seat payments (qq kongs): E0 S0→S1 2, S2→S1 2, S3→S1 2; E1 S0→S2 1; E2 S0→S3 1,
    S1→S3 1, S2→S3 1.
    Mirrors: a payment to S1 is paid again to B0 by the same payer: S0→B0 2, S2→B0 2, S3→B0 2;
    a payment by S1 is paid again by B0: B0→S3 1. A payment by S0 is paid again by B1:
    B1→S1 2, B1→S2 1, B1→S3 1.
    马吃马 on: for S0→S1 2, B1 (on the payer) also pays B0 (on the payee) 2.
    Seats: S0 −4−2 = −6; S1 5+2 = 7; S2 −2−2+1 = −3; S3 1−2+1+1 = 1.
    Bettors off: B0 +6−1 = 5, B1 −4; on: B0 7, B1 −6. Sum 0 either way.
    """
    rec = record(
        {"preset": "qq", "options": {"horse_eats_horse": horse_eats_horse}},
        BETTOR_KONGS,
        bettors=[{"name": "老王", "tile": "2m"}, {"name": "小李", "tile": "1m"}],
    )
    d = settle(rec).as_dict()
    assert [b["seat"] for b in d["bettors"]] == [1, 0]
    assert d["totals"] == {"seats": [-6, 7, -3, 1], "bettors": bettor_totals}
    payments = d["payments"]
    mirrored = sorted(
        (
            p["payer"],
            p["payee"],
            p["amount"],
            (payments[p["mirrors"]]["payer"], payments[p["mirrors"]]["payee"]),
        )
        for p in payments
        if p["reason"] == "bettor"
    )
    expected = [
        ("S0", "B0", 2, ("S0", "S1")),
        ("S2", "B0", 2, ("S2", "S1")),
        ("S3", "B0", 2, ("S3", "S1")),
        ("B0", "S3", 1, ("S1", "S3")),
        ("B1", "S1", 2, ("S0", "S1")),
        ("B1", "S2", 1, ("S0", "S2")),
        ("B1", "S3", 1, ("S0", "S3")),
    ]
    if horse_eats_horse:
        expected.append(("B1", "B0", 2, ("S0", "S1")))
    assert mirrored == sorted(expected)
    for p in payments:
        if p["reason"] == "bettor":
            assert p["event"] == payments[p["mirrors"]]["event"]
            assert payments[p["mirrors"]]["reason"] != "bettor"


def test_bettor_follows_huazhu_and_chajiao_at_a_draw():
    """qq draw of FOUR_HANDS with a bettor on 4m (dealer S0: rank 4 → S3, the not-ready seat).
    Seat payments: 花猪 S0 → S1, S2, S3 16 each; 查叫 S3 → S1 1, S3 → S2 2.
    Mirrors: S0 → B0 16 (payment to S3); B0 → S1 1 and B0 → S2 2 (payments by S3).
    Seats: S0 −48−16 = −64; S1 17+1 = 18; S2 18+2 = 20; S3 13. B0 16−3 = 13 (= S3's total).
    4m copies: S1 one, S3 one, the bettor's tile one = 3.
    """
    rec = record("qq", draw={"hands": FOUR_HANDS}, bettors=[{"name": "老王", "tile": "4m"}])
    d = settle(rec).as_dict()
    assert d["totals"] == {"seats": [-64, 18, 20, 13], "bettors": [13]}


@pytest.mark.parametrize(
    ("horse_eats_horse", "bettor_totals"),
    [(False, [4, -4]), (True, [8, -8])],
)
def test_bettors_follow_transfer_and_refund_of_a_seat_that_left_early(
    horse_eats_horse, bettor_totals
):
    """qq, the LATEST_KONG record with two bettors (RULES §4.7): B0 drew 2s → S1 (who wins at
    E2 and leaves), B1 drew 3s → S2 (the konger).
    Seat payments as above: to S2 2+2+2 and 1+1+1; S2 → S1 2 (win) + 3 (transfer);
    S2 → S0 1, S2 → S3 1 (查叫); S2 → S0, S1, S3 2 each (退税).
    B0 mirrors S1: receives S2's 2 + 3 + 2 = 7, pays S2 2 + 1 = 3 → +4 (= S1's total).
    B1 mirrors S2: receives 2+2+2+1+1+1 = 9, pays 2+3+1+1+2+2+2 = 13 → −4.
    马吃马: S1 → S2 payments (2, 1) make B0 → B1 3; S2 → S1 payments (2, 3, 2) make B1 → B0 7:
    B0 4 − 3 + 7 = 8, B1 −8.
    Seats: each mirror by a bettor is paid to or from the other seat: S0 pays B1 3 and gets 3
    from B1 → 0; S1 pays B1 3, gets 7 from B1 → 4 + 4 = 8; S2 gets 3 from B0 and pays B0 7 →
    −4 − 4 = −8; S3 0.
    """
    rec = record(
        {"preset": "qq", "options": {"horse_eats_horse": horse_eats_horse}},
        LATEST_KONG,
        draw=LATEST_KONG_DRAW,
        bettors=[{"name": "老王", "tile": "2s"}, {"name": "小李", "tile": "3s"}],
    )
    d = settle(rec).as_dict()
    assert [b["seat"] for b in d["bettors"]] == [1, 2]
    assert d["totals"] == {"seats": [0, 8, -8, 0], "bettors": bettor_totals}
