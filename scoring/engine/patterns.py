"""Pattern and extra codes (番种) with their names, and the facts that make each pattern.

Codes are stable identifiers: stored hands, API clients and tests refer to them. Each base
pattern is declared once, as the facts a reading of the hand must have (RULES §2 "Pattern
facts"); the evaluator reads this table, and a preset's table (``rulesets.py``) only says what
each pattern is worth.
"""

from __future__ import annotations

from enum import IntFlag
from typing import NamedTuple

from core.names import Name


class Fact(IntFlag):
    """A fact about one reading of a winning hand (a split into sets and a pair, or 七对),
    computed on the whole hand: concealed tiles, melds and the winning tile."""

    STANDARD = 1  # four sets and a pair
    TRIPLETS = 2  # every set a triplet (pungs and kongs are triplets)
    TERMINALS = 4  # every set and the pair hold a 1 or a 9
    SEVEN_PAIRS = 8  # 七对: fourteen concealed tiles in pairs (a four counts as two)
    ONE_SUIT = 16  # 清: tiles of one suit only
    ONLY_258 = 32  # every tile a 2, 5 or 8
    FOUR_MELDS = 64  # four melds laid down, won on the pair of the one concealed tile
    ROOT = 128  # at least one 根: all four copies of a tile kind
    HEAVENLY = 256  # the scorer's 天胡 flag
    EARTHLY = 512  # the scorer's 地胡 flag
    SINGLE_WAIT = 1024  # 单钓: the concealed tiles before the win held one copy of the winning tile


class Pattern(NamedTuple):
    """A base pattern (基本番型): its name and the facts a reading of the hand needs for it."""

    name: Name
    needs: Fact


F = Fact

#: base patterns (基本番型), one declaration each: only the best one of a hand counts
PATTERNS: dict[str, Pattern] = {
    "pinghu": Pattern(Name("平胡", "Basic win"), F.STANDARD),
    "duiduihu": Pattern(Name("对对胡", "All pungs"), F.STANDARD | F.TRIPLETS),
    "qingyise": Pattern(Name("清一色", "Pure one suit"), F.ONE_SUIT),
    "daiyaojiu": Pattern(Name("带幺九", "Terminals in every set"), F.STANDARD | F.TERMINALS),
    "qidui": Pattern(Name("七对", "Seven pairs"), F.SEVEN_PAIRS),
    "qingdui": Pattern(Name("清对", "Pure all pungs"), F.STANDARD | F.TRIPLETS | F.ONE_SUIT),
    "jiangdui": Pattern(
        Name("将对", "All pungs of 2, 5 and 8"), F.STANDARD | F.TRIPLETS | F.ONLY_258
    ),
    "longqidui": Pattern(Name("龙七对", "Seven pairs with a four"), F.SEVEN_PAIRS | F.ROOT),
    "qingqidui": Pattern(Name("清七对", "Pure seven pairs"), F.SEVEN_PAIRS | F.ONE_SUIT),
    "qingyaojiu": Pattern(
        Name("清幺九", "Pure terminals in every set"), F.STANDARD | F.TERMINALS | F.ONE_SUIT
    ),
    "qinglongqidui": Pattern(
        Name("清龙七对", "Pure seven pairs with a four"), F.SEVEN_PAIRS | F.ROOT | F.ONE_SUIT
    ),
    "jingoudiao": Pattern(
        Name("金钩钓", "Golden hook: four melds, single wait"), F.STANDARD | F.FOUR_MELDS
    ),
    # 单钓 Golden Wait (sbr): all triplets, won on the pair's second tile, any number of melds
    "golden_wait": Pattern(
        Name("单钓", "Golden wait: all pungs, won on the pair"),
        F.STANDARD | F.TRIPLETS | F.SINGLE_WAIT,
    ),
    "tianhu": Pattern(Name("天胡", "Heavenly hand"), F.HEAVENLY),
    "dihu": Pattern(Name("地胡", "Earthly hand"), F.EARTHLY),
}

PATTERN_NAMES: dict[str, Name] = {code: p.name for code, p in PATTERNS.items()}

#: extras (加番 / 额外倍数): added on top of the base pattern
EXTRA_NAMES: dict[str, Name] = {
    "gen": Name("根", "Root (four of a kind)"),
    "gangshanghua": Name("杠上花", "Win on a kong replacement tile"),
    "gangshangpao": Name("杠上炮", "Win on the discard after a kong"),
    "qiangganghu": Name("抢杠胡", "Robbing a kong"),
    "haidi": Name("海底", "Win on the last tile"),
    "juezhang": Name("绝张", "Win on the last copy"),
    "zimo": Name("自摸", "Self-draw"),
}

#: situational flags a scorer enters, and the scoring element each one stands for
SITUATIONS: dict[str, str] = {
    "kong_flower": "gangshanghua",
    "kong_discard": "gangshangpao",
    "robbing_kong": "qiangganghu",
    "last_tile": "haidi",
    "last_copy": "juezhang",
    "heavenly": "tianhu",
    "earthly": "dihu",
}
SITUATION_BIT: dict[str, int] = {name: 1 << i for i, name in enumerate(SITUATIONS)}


# plain ints: the evaluator scans this table for every new hand signature
_NEEDS = tuple((code, int(p.needs)) for code, p in PATTERNS.items())


def qualifying(facts: int) -> set[str]:
    """The base patterns a reading of a hand with these facts qualifies for."""
    return {code for code, needs in _NEEDS if facts & needs == needs}
