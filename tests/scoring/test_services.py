"""``scoring.services``: the engine behind the project's plain errors, for the pages.

The calculator's two questions: 1112345678999m + 9m under qq is 清一色 3 fan with one 根 (all
four 9万) for 4 fan, worth 2^(4−1) = 8 (RULES §3.1, §3.6); the same thirteen tiles wait on every
万 (九莲宝灯's shape). A hand the engine cannot read is ``Invalid``, never ``EngineError``.
"""

from __future__ import annotations

import pytest

from core.errors import Invalid
from scoring.services import hand_value, hand_waits, ruleset_resolve


def test_a_hand_is_valued():
    found = hand_value("qq", concealed="1112345678999m", winning_tile="9m", self_draw=False)
    assert found.win and found.valuation.pattern == "qingyise"
    assert found.valuation.total == 4 and found.value == 8


def test_a_hand_one_tile_short_has_its_waits():
    found = hand_waits("qq", concealed="1112345678999m")
    assert sorted(w["tile"] for w in found["waits"]) == [f"{r}m" for r in range(1, 10)]


@pytest.mark.parametrize(
    "ask",
    [
        lambda: hand_value("qq", concealed="11m", winning_tile="x", self_draw=False),
        lambda: hand_waits("qq", concealed="1z"),
        lambda: hand_value("no-such-preset", concealed="11m", winning_tile="1m", self_draw=False),
        lambda: ruleset_resolve({"preset": "qq", "options": {"no_such_option": 1}}),
    ],
)
def test_what_the_engine_refuses_is_invalid_with_its_problems(ask):
    with pytest.raises(Invalid) as refused:
        ask()
    assert refused.value.problems and all(p["message"] for p in refused.value.problems)
