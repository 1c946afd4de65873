"""The pattern-facts table (RULES §2 "Pattern facts"): each base pattern declared once, as the
facts a reading of the hand needs; the evaluator reads nothing else to know what a hand is."""

from __future__ import annotations

import pytest

from core.names import Name
from scoring.engine import PATTERN_NAMES, PRESETS
from scoring.engine.patterns import PATTERNS, Fact, qualifying

F = Fact


@pytest.mark.parametrize(
    ("facts", "patterns"),
    [
        # 123m 456m 789m 11p 234p: a standard split, nothing else
        (F.STANDARD, {"pinghu"}),
        # 111m 222m 333m 555m 77m read as triplets: 平胡 is always there too (the table
        # decides which counts); 清一色 + 对对胡 = 清对
        (F.STANDARD | F.TRIPLETS | F.ONE_SUIT,
         {"pinghu", "duiduihu", "qingyise", "qingdui"}),
        # 222m 555m 888p 222p 55p: all triplets of 2/5/8 = 将对 (also 对对胡)
        (F.STANDARD | F.TRIPLETS | F.ONLY_258, {"pinghu", "duiduihu", "jiangdui"}),
        # 123m 789m 111p 999p 99m: 1 or 9 in every set and the pair = 带幺九
        (F.STANDARD | F.TERMINALS, {"pinghu", "daiyaojiu"}),
        (F.STANDARD | F.TERMINALS | F.ONE_SUIT,
         {"pinghu", "daiyaojiu", "qingyise", "qingyaojiu"}),
        # four pungs laid down, won on the pair: 金钩钓 (and 对对胡)
        (F.STANDARD | F.TRIPLETS | F.FOUR_MELDS,
         {"pinghu", "duiduihu", "jingoudiao"}),
        # 七对 is no standard shape: no 平胡; with a four it is 龙七对
        (F.SEVEN_PAIRS, {"qidui"}),
        (F.SEVEN_PAIRS | F.ROOT, {"qidui", "longqidui"}),
        (F.SEVEN_PAIRS | F.ROOT | F.ONE_SUIT,
         {"qidui", "longqidui", "qingyise", "qingqidui", "qinglongqidui"}),
        # 将对 needs triplets: seven pairs of 2/5/8 is not 将对
        (F.SEVEN_PAIRS | F.ONLY_258, {"qidui"}),
        # 天胡 / 地胡 are the scorer's flags, whatever the shape
        (F.STANDARD | F.HEAVENLY, {"pinghu", "tianhu"}),
        (F.SEVEN_PAIRS | F.EARTHLY, {"qidui", "dihu"}),
    ],
)  # fmt: skip
def test_a_reading_qualifies_for_the_patterns_its_facts_make(facts, patterns):
    assert qualifying(facts) == patterns


def test_every_pattern_of_every_preset_is_declared_with_its_name():
    for preset in PRESETS.values():
        for entry in preset.table:
            assert entry.code in PATTERNS, (preset.name, entry.code)
    for code, pattern in PATTERNS.items():
        assert isinstance(pattern.name, Name) and pattern.name == PATTERN_NAMES[code]
        assert pattern.needs, code
