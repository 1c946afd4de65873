"""A settled hand read back from its stored form (issue 26 §1): ``Settlement.from_dict`` and
``HandRecord.from_dict`` are the exact inverses of ``as_dict``, over the fuzz corpus
(``records.fuzz_record``: valid, declared, mixed, broken, padded records under every preset,
with random options), every worked case of ``cases/settle.json``, and every preset; and a
form of format 1 (stored before 杠钱归胡家 had its own reason) reads as format 2.

Both ways: ``X.from_dict(x.as_dict()) == x``, and ``from_dict(d).as_dict() == d`` for the
form ``d`` itself (through JSON, as the database keeps it). And the summary read from the form
and the record's (``SettlementSummary.from_dict``, the 流水 sheet's) is what the settlement
says of itself.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import PRESETS, EngineError, resolve_ruleset
from scoring.engine.evaluate import Valuation
from scoring.engine.settle import (
    SETTLEMENT_FORMAT,
    HandRecord,
    Settlement,
    SettlementSummary,
    settle,
    upgraded_form,
)

from ..builders import kong, record, win, winner
from ..records import KINDS, fuzz_record, random_record, random_ruleset
from .hands import PINGHU
from .test_cases import CASES


def stored(d: dict) -> dict:
    """A form as the database gives it back (JSON: tuples become lists)."""
    return json.loads(json.dumps(d, ensure_ascii=False))


def check_inverse(result: Settlement) -> None:
    rec = result.record
    form = stored(rec.as_dict())
    read = HandRecord.from_dict(form)
    bare = {k: v for k, v in form.items() if k != "ruleset"}
    assert read == rec
    assert read.as_dict() == form
    d = stored(result.as_dict())
    assert d["format"] == SETTLEMENT_FORMAT
    back = Settlement.from_dict(d, read)
    assert back == result
    assert back.as_dict() == d
    # at a glance (the 流水 sheet's), from the forms alone: what the settlement says
    assert SettlementSummary.from_dict(d, form) == result.summary()
    assert SettlementSummary.from_dict(d, bare) == result.summary()
    # a stored hand keeps its record without the ruleset: its session pinned it
    assert HandRecord.from_dict(bare, rec.ruleset) == rec


@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(KINDS))
def test_the_stored_form_reads_back_to_the_same_settlement(preset, seed, kind):
    kind, data = fuzz_record(random.Random(seed), preset, kind)
    try:
        result = settle(data)
    except EngineError:
        return  # refused: nothing is stored
    check_inverse(result)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_a_record_with_bettors_a_draw_and_declarations(preset):
    """The first seeds of each preset that give a draw, bettors and a declared hand: the
    parts a form has, each read back (not left to chance)."""
    seen: set[str] = set()
    for seed in range(400):
        rnd = random.Random(seed)
        result = settle(random_record(rnd, random_ruleset(rnd, preset), bettors=rnd.randint(0, 3)))
        check_inverse(result)
        seen |= {"draw"} if result.draw else set()
        seen |= {"bettors"} if result.record.bettors else set()
        _, data = fuzz_record(rnd, preset, "declared")
        try:
            declared = settle(data)
        except EngineError:
            continue
        check_inverse(declared)
        seen |= {"declared"} if not declared.verified else set()
        if len(seen) == 3 and seed >= 20:
            break
    assert seen == {"draw", "bettors", "declared"}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_every_worked_case_reads_back(case):
    check_inverse(settle(case["record"]))


def test_a_line_keeps_what_it_does():
    """A valuation's lines are written without their ``op``; read back, each has it again —
    the base pattern, an extra step added (fan, points) or multiplied (multiples), the cap,
    the self-draw bonus after the cap — as the valuation made it, over every preset's
    random records until each kind of line has been seen."""
    every = {"base", "add", "times", "cap", "bonus"}
    seen: set[str] = set()
    for seed in range(1000):
        rnd = random.Random(seed)
        result = settle(random_record(rnd, random_ruleset(rnd, rnd.choice(list(PRESETS)))))
        back = Settlement.from_dict(stored(result.as_dict()), result.record)
        for w, b in zip(result.wins, back.wins, strict=True):
            assert b.valuation.lines == w.valuation.lines
            seen |= {line.op for line in w.valuation.lines}
        if seen == every:
            break
    assert seen == every


# --- format 1 ----------------------------------------------------------------------------------

#: xuezhan9 (RULES §3.4): S2 弯杠 4p, S1 robs it: 平胡 0 fan + 抢杠胡 1 = 1 fan → 2; 杠钱归胡家:
#: S2 pays S1 what the kong would have collected from S0, S1 and S3, 3 × 1 = 3
ROBBED = record(
    "xuezhan9",
    [kong(2, "added", "4p"), win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"])],
)
#: qq (呼叫转移 ``copy``, RULES §4.4): S2 暗杠 9s, 2 from each of S0, S1, S3; S1 wins on S2's
#: next discard 4p (杠上炮) and is handed the kong's income, 6
TRANSFERRED = record(
    "qq",
    [kong(2, "concealed", "9s"), win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard"])],
)


def format_1(result: Settlement) -> dict:
    """The form as the code before format 2 wrote it: no ``format``, 杠钱归胡家 under
    ``kong_transfer``."""
    d = stored(result.as_dict())
    del d["format"]
    for p in d["payments"]:
        if p["reason"] == "kong_to_winner":
            p["reason"] = "kong_transfer"
    return d


def test_a_format_1_form_reads_with_kong_to_winner():
    result = settle(ROBBED)
    old = format_1(result)
    assert [p["reason"] for p in old["payments"]] == ["win", "kong_transfer"]
    back = Settlement.from_dict(old, result.record)
    assert back == result
    assert [(p.payer, p.payee, p.amount, p.reason) for p in back.payments] == [
        ("S2", "S1", 2, "win"),
        ("S2", "S1", 3, "kong_to_winner"),
    ]
    assert upgraded_form(old, result.record) == stored(result.as_dict())


def test_a_format_1_kong_transfer_stays_one():
    """呼叫转移's own payment keeps its reason: its win is a 杠上炮, not a 抢杠."""
    result = settle(TRANSFERRED)
    old = format_1(result)
    assert ("S2", "S1", 6, "kong_transfer") in [
        (p["payer"], p["payee"], p["amount"], p["reason"]) for p in old["payments"]
    ]
    assert Settlement.from_dict(old, result.record) == result
    assert upgraded_form(old, result.record) == stored(result.as_dict())


def test_a_format_1_form_without_verified_reads_as_shown():
    """Before RULES §6 every hand was shown: a win or a draw seat without ``verified``."""
    result = settle(ROBBED)
    old = format_1(result)
    for w in old["wins"]:
        del w["verified"]
    del old["verified"]
    assert Settlement.from_dict(old, result.record) == result
    form = stored(result.record.as_dict())
    assert SettlementSummary.from_dict(old, form) == result.summary()
    assert SettlementSummary.from_dict(old, form).verified


def test_a_form_newer_than_the_code_is_refused():
    result = settle(TRANSFERRED)
    newer = {**result.as_dict(), "format": SETTLEMENT_FORMAT + 1}
    with pytest.raises(ValueError, match="newer"):
        Settlement.from_dict(newer, result.record)
    with pytest.raises(ValueError, match="newer"):
        SettlementSummary.from_dict(newer, result.record.as_dict())


@pytest.mark.parametrize(
    "junk", [None, [], "x", {"payments": "x"}, {"payments": [1, {"event": []}]}]
)
def test_upgrading_what_is_not_a_form_never_raises(junk):
    rec = settle(ROBBED).record
    out = upgraded_form(junk, rec)
    assert out == junk or out == {"format": SETTLEMENT_FORMAT, **junk}


def test_a_record_read_with_the_pinned_rules_keeps_them():
    """A stored record has no ruleset: the one given is the record's, whatever it says."""
    rules = resolve_ruleset({"preset": "qq", "options": {"cap": 3}})
    rec = HandRecord.from_dict({**ROBBED, "ruleset": "chengdu"}, rules)
    assert rec.ruleset is rules


@pytest.mark.parametrize("preset", ["xuezhan9", "tfmj2024"])
def test_a_ruleset_spec_names_a_false_win_its_huazhu_would_not_imply(preset):
    """RULES §3.8: where a preset's 诈胡 follows its 花猪 (``cap`` while a 花猪 has no price of
    its own), a spec without ``false_win`` resolves to the one its ``huazhu`` implies. With
    ``huazhu: cap`` that is ``huazhu``; these rules keep ``false_win: cap``, so their spec
    names it (it was left out as the preset's default, and read back as other rules)."""
    rules = resolve_ruleset({"preset": preset, "options": {"huazhu": "cap", "false_win": "cap"}})
    assert rules.options.false_win == "cap"
    assert rules.to_spec()["options"] == {"huazhu": "cap", "false_win": "cap"}
    assert resolve_ruleset(rules.to_spec()) == rules
    follows = resolve_ruleset({"preset": preset, "options": {"huazhu": "cap"}})
    assert follows.options.false_win == "huazhu"
    assert resolve_ruleset(follows.to_spec()) == follows


def test_a_valuation_read_again_is_the_one_read_before_and_only_that():
    """A valuation read back is kept by all it was read from: the same form reads as the same
    (immutable) valuation; a form differing in anything read from it — a line's name, its
    amount, a bonus line — reads as its own."""
    result = settle(ROBBED)
    form = stored(result.as_dict())["wins"][0]
    rules = result.record.ruleset
    first = Valuation.from_dict(form, rules)
    assert Valuation.from_dict(stored(form), rules) is first
    renamed = stored(form)
    renamed["lines"][0]["en"] = "Another name"
    assert Valuation.from_dict(renamed, rules).lines[0].en == "Another name"
    unit = form["unit"]
    more = stored(form)
    more["lines"][-1][unit] += 1
    assert Valuation.from_dict(more, rules).lines[-1].amount == form["lines"][-1][unit] + 1
    bonus = stored(form)
    bonus["lines"].append({"code": "self_draw", "zh": "自摸", "en": "Self-drawn", "value": 1})
    assert Valuation.from_dict(bonus, rules).lines[-1].op == "bonus"
    assert Valuation.from_dict(form, rules) is first
