"""Pattern and extra codes (番种) with their Chinese and English names.

Codes are stable identifiers: stored hands, API clients and tests refer to them.
"""

from __future__ import annotations

from typing import NamedTuple


class Name(NamedTuple):
    zh: str
    en: str


#: base patterns (基本番型): only the best one counts
PATTERN_NAMES: dict[str, Name] = {
    "pinghu": Name("平胡", "Basic win"),
    "duiduihu": Name("对对胡", "All pungs"),
    "qingyise": Name("清一色", "Pure one suit"),
    "daiyaojiu": Name("带幺九", "Terminals in every set"),
    "qidui": Name("七对", "Seven pairs"),
    "qingdui": Name("清对", "Pure all pungs"),
    "jiangdui": Name("将对", "All pungs of 2, 5 and 8"),
    "longqidui": Name("龙七对", "Seven pairs with a four"),
    "qingqidui": Name("清七对", "Pure seven pairs"),
    "qingyaojiu": Name("清幺九", "Pure terminals in every set"),
    "qinglongqidui": Name("清龙七对", "Pure seven pairs with a four"),
    "jingoudiao": Name("金钩钓", "Golden hook: four melds, single wait"),
    "tianhu": Name("天胡", "Heavenly hand"),
    "dihu": Name("地胡", "Earthly hand"),
}

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
