"""Fuzzing the settlement: whatever record it is given, under every preset, ``settle`` answers
a zero-sum settlement or an ``EngineError`` listing its problems in the one shape — never
another exception.

The records (``records.fuzz_record``) are valid ones (``random_record``, with random options
from the option schema), declared (every winner and player at the draw by his declaration,
RULES §6), mixed (some declared, some shown), broken (one to four fields changed to another
plausible value or a hostile one, dropped, added, repeated or moved), and padded to the
engine's bounds (64 events, 8 bettors with the longest names). A preset added to
``PRESETS`` is fuzzed at once.

The work is bounded by the records themselves: none exceeds the engine's bounds
(``bounds.py``) but the broken ones, which it refuses. How long a record takes is measured by
``tests/bench/bench_fuzz.py`` (``make bench``), beside the 50 ms target, never here.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import PRESETS, EngineError
from scoring.engine.bounds import MAX_AMOUNT, MAX_PROBLEMS
from scoring.engine.settle import settle

from ..records import (
    HOSTILE,
    KINDS,
    declared_twin,
    field_paths,
    fuzz_record,
    random_record,
    random_ruleset,
    replaced,
)


def check_refusal(error: EngineError) -> None:
    """The problems in the one shape, short, and sendable as UTF-8 JSON."""
    problems = error.as_dicts()
    assert 1 <= len(problems) <= MAX_PROBLEMS
    for p in problems:
        assert set(p) == {"path", "code", "message"}, p
        assert all(isinstance(v, str) for v in p.values()), p
        assert p["code"] and p["message"], p
        assert len(p["message"]) < 600 and len(p["path"]) < 600, p
    json.dumps(problems, ensure_ascii=False).encode("utf-8")


def check_settlement(result) -> None:
    assert sum(result.seat_totals) + sum(result.bettor_totals) == 0
    for p in result.payments:
        assert isinstance(p.amount, int) and 0 < p.amount <= MAX_AMOUNT, p
    json.dumps(result.as_dict(), ensure_ascii=False, allow_nan=False).encode("utf-8")


@pytest.mark.parametrize("preset", list(PRESETS))
@settings(max_examples=250, deadline=None)
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(KINDS))
def test_a_record_settles_or_is_refused_in_the_one_shape(preset, seed, kind):
    kind, record = fuzz_record(random.Random(seed), preset, kind)
    try:
        result = settle(record)
    except EngineError as error:
        assert kind not in ("valid", "declared", "mixed"), error.as_dicts()
        check_refusal(error)
    else:
        check_settlement(result)


def rich_record(preset: str) -> dict:
    """A mixed record (winners and players at the draw, some declared and some shown) with a
    kong and bettors: the first seed that gives one, so always the same."""
    for seed in range(10_000):
        rnd = random.Random(seed)
        record = random_record(rnd, random_ruleset(rnd, preset), bettors=2)
        kinds = {e["type"] for e in record["events"]}
        if kinds == {"kong", "win"} and record.get("draw"):
            twin = declared_twin(record, rnd, share=0.5, draw_share=0.5)
            hands = twin["draw"]["hands"].values()
            if {"declared" in h for h in hands} == {True, False}:
                return twin
    raise AssertionError(f"no rich record under {preset}")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_field_given_every_hostile_value(preset):
    """Each field and item of a rich record, replaced in turn by each value of ``HOSTILE``
    (wrong types, out of range, unprintable, unencodable): refused in the one shape, or
    settled, never another exception. (A list as a draw's declaration was looked up in a
    dict: ``TypeError: unhashable type``.)"""
    record = rich_record(preset)
    for path in field_paths(record):
        for value in HOSTILE:
            try:
                result = settle(replaced(record, path, value))
            except EngineError as error:
                check_refusal(error)
            else:
                check_settlement(result)
