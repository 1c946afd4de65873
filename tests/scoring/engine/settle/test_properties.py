"""Properties of the settlement on random valid records (hypothesis).

Records come from ``records.random_record``: kongs (杠上杠 chains too), discard and self-drawn
wins (一炮多响, 杠上花, 杠上炮 included), 诈胡, draws with shown hands, and 叫马 bettors, under
every preset (the competition presets' 呼叫转移 split, 杠上炮 refund and 花猪 as not ready
included).
"""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.settle import REASON_NAMES, settle

from ..records import random_record
from ..strategies import PRESET_NAMES as PRESETS

records = st.builds(
    lambda seed, preset: random_record(random.Random(seed), preset),
    st.integers(0, 2**32),
    st.sampled_from(PRESETS),
)


def rotate(record: dict, k: int) -> dict:
    """The same hand with every seat renamed s -> s + k (the dealer moves with them)."""
    r = copy.deepcopy(record)
    turn = lambda s: None if s is None else (s + k) % 4  # noqa: E731
    r["dealer"] = turn(r["dealer"])
    for ev in r["events"]:
        if ev["type"] in ("kong", "false_win"):
            ev["seat"] = turn(ev["seat"])
            if "from" in ev:
                ev["from"] = turn(ev["from"])
        else:
            ev["from"] = turn(ev["from"])
            for w in ev["winners"]:
                w["seat"] = turn(w["seat"])
    if "draw" in r:
        r["draw"]["hands"] = {str(turn(int(s))): h for s, h in r["draw"]["hands"].items()}
    return r


@settings(max_examples=300, deadline=None)
@given(records)
def test_every_accepted_record_is_zero_sum(record):
    result = settle(record)
    totals = result.seat_totals + result.bettor_totals
    assert sum(totals) == 0
    assert all(isinstance(p.amount, int) and p.amount > 0 for p in result.payments)


@settings(max_examples=200, deadline=None)
@given(records, st.integers(1, 3))
def test_renaming_seats_permutes_the_totals_the_same_way(record, k):
    before = settle(record)
    after = settle(rotate(record, k))
    assert [after.seat_totals[(s + k) % 4] for s in range(4)] == list(before.seat_totals)
    assert after.bettor_totals == before.bettor_totals
    if before.next_dealer is not None:
        assert after.next_dealer == (before.next_dealer + k) % 4


@settings(max_examples=200, deadline=None)
@given(records, st.randoms(use_true_random=False))
def test_permuting_bettors_permutes_their_totals(record, rnd):
    order = list(range(len(record["bettors"])))
    rnd.shuffle(order)
    shuffled = dict(record, bettors=[record["bettors"][i] for i in order])
    before = settle(record)
    after = settle(shuffled)
    assert after.seat_totals == before.seat_totals
    assert list(after.bettor_totals) == [before.bettor_totals[i] for i in order]


@settings(max_examples=200, deadline=None)
@given(records)
def test_a_bettor_wins_or_loses_exactly_what_his_seat_does(record):
    """叫马者与被叫者同样的输赢: with 马吃马 off, each bettor's total equals his seat's total
    in the same hand settled with no bettors at all."""
    alone = settle(dict(record, bettors=[]))
    result = settle(record)
    for b, total in zip(result.record.bettors, result.bettor_totals, strict=True):
        assert total == alone.seat_totals[b.seat]


@settings(max_examples=200, deadline=None)
@given(records)
def test_every_payment_reason_has_a_name(record):
    """Pages show a payment's reason by its name (REASON_NAMES), never the bare code."""
    for p in settle(record).payments:
        name = REASON_NAMES[p.reason]
        assert name.zh and name.en
