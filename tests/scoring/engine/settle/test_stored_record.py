"""A stored record read back without its refusals (``stored_record``): the very record
``parse_record`` reads from the form, for every form the engine accepts — as a scorer sent it
(the fuzz corpus, the worked cases) and spelt every other way it accepts (Chinese suit marks,
spaces, the defaults left out or written out) — and a form it never accepted refused as
``parse_record`` refuses it. The false wins a hand's summary reads from such a form are the
record's."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import PRESETS, EngineError, resolve_ruleset
from scoring.engine.settle import (
    FalseWin,
    SettlementSummary,
    parse_record,
    settle,
    stored_record,
)

from ..records import KINDS, fuzz_record
from .test_cases import CASES

#: the other suit marks a scorer may write (RULES §1)
MARKS = {"m": ("万", "萬"), "p": ("筒", "饼", "餅", "铜", "銅"), "s": ("条", "條", "索")}
#: fields whose absence means the value given
DEFAULTS: dict[str, Any] = {
    "same_turn": True, "on_replacement": False, "concealed": False, "melds": [], "roots": 0,
    "extras": [], "situation": [], "bettors": [], "draw": None, "base": 1, "dealer": 0,
}  # fmt: skip


def respelt(rnd: random.Random, data: Any, key: str = "") -> Any:
    """The form spelt another way the engine reads alike: tiles with other suit marks and
    spaces, a default left out or written out, a null where it means nothing."""
    if isinstance(data, dict):
        out = {}
        for k, v in data.items():
            if k in DEFAULTS and v == DEFAULTS[k] and rnd.random() < 0.5:
                continue  # left out: the same
            out[k] = respelt(rnd, v, k)
        if "extras" in out and out["extras"] == [] and rnd.random() < 0.5:
            out["extras"] = None
        return out
    if isinstance(data, list):
        return [respelt(rnd, v, key) for v in data]
    if isinstance(data, str) and key in ("tile", "concealed") and rnd.random() < 0.7:
        for mark, others in MARKS.items():
            data = data.replace(mark, rnd.choice(others))
        return data.replace("", " ") if rnd.random() < 0.2 else data
    if isinstance(data, str) and key == "declared_void" and rnd.random() < 0.5:
        return f" {rnd.choice(MARKS[data])} "
    return data


def check_alike(data: dict) -> None:
    """Read as stored (without its ruleset, read with the rules its session pinned): the
    record ``parse_record`` reads, or a refusal where it refuses."""
    rules = resolve_ruleset(data.get("ruleset"))
    bare = json.loads(json.dumps({k: v for k, v in data.items() if k != "ruleset"}))
    try:
        expected = parse_record({**bare, "ruleset": rules})
    except EngineError:
        with pytest.raises(EngineError):
            stored_record(bare, rules)
        return
    assert stored_record(bare, rules) == expected
    # the false wins a sheet reads from the form as it was sent are the record's
    settled = json.loads(json.dumps(settle({**bare, "ruleset": rules}).as_dict()))
    false_wins = tuple(ev for ev in expected.events if isinstance(ev, FalseWin))
    assert SettlementSummary.from_dict(settled, bare).false_wins == false_wins


@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(KINDS))
def test_a_stored_record_reads_as_parse_record_reads_it(preset, seed, kind):
    rnd = random.Random(seed)
    _, data = fuzz_record(rnd, preset, kind)
    try:
        settle(data)
    except EngineError:
        return  # refused: nothing is stored
    check_alike(data)
    check_alike(respelt(rnd, data))


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_every_worked_case_reads_as_parse_record_reads_it(case):
    check_alike(case["record"])
    check_alike(respelt(random.Random(case["id"]), case["record"]))


@pytest.mark.parametrize(
    "corrupt",
    [
        {"events": "x"},
        {"events": [{"type": "kong", "seat": 0, "kind": "concealed", "tile": "0m"}]},
        {"events": [{"type": "chow"}]},
        {"events": [{"type": "win", "from": 1, "tile": "1m", "winners": [{"seat": 0,
                     "declared": None}]}]},
        {"draw": {"hands": []}},
        {"declared_void": ["x", None, None, None]},
    ],
)  # fmt: skip
def test_a_form_never_accepted_is_refused_as_parse_record_refuses_it(corrupt):
    rules = resolve_ruleset("qq")
    with pytest.raises(EngineError) as refused:
        parse_record({**corrupt, "ruleset": rules})
    with pytest.raises(EngineError) as read:
        stored_record(corrupt, rules)
    assert read.value.as_dicts() == refused.value.as_dicts()
