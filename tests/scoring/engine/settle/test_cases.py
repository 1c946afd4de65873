"""Every worked record of ``shared/cases/settle.json`` (every payment listed in its ``why``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.engine.settle import settle

_SHARED = Path(__file__).resolve().parents[5] / "shared" / "cases" / "settle.json"
CASES_FILE = _SHARED if _SHARED.exists() else Path(__file__).parents[1] / "cases" / "settle.json"
CASES = json.loads(CASES_FILE.read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_worked_record(case):
    result = settle(case["record"]).as_dict()
    expect = case["expect"]
    assert result["totals"] == expect["totals"], case["why"]
    if "next_dealer" in expect:
        assert result["next_dealer"] == expect["next_dealer"], case["why"]
    for got, want in zip(result["wins"], expect.get("wins", []), strict=True):
        assert {k: got[k] for k in want} == want, case["why"]
