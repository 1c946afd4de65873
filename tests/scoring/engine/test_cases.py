"""Every worked case of ``shared/cases/evaluate.json`` (reasoning by hand in each ``why``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.engine import evaluate, parse_winning_hand

# shared/ lies beside the repository; a snapshot is kept here for machines without it
_SHARED = Path(__file__).resolve().parents[4] / "shared" / "cases" / "evaluate.json"
CASES_FILE = _SHARED if _SHARED.exists() else Path(__file__).parent / "cases" / "evaluate.json"
CASES = json.loads(CASES_FILE.read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_worked_case(case):
    hand = parse_winning_hand(case)
    result = evaluate(hand, case["ruleset"]).as_dict()
    for key, expected in case["expect"].items():
        assert result[key] == expected, f"{key}: {case['why']}"
