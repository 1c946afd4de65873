"""The Sichuan mahjong rules engine: plain Python, no Django.

Public API::

    from scoring.engine import parse_tiles, resolve_ruleset, parse_winning_hand, evaluate

    hand = parse_winning_hand({"concealed": "123567234s7s", "winning_tile": "7s",
                               "melds": [{"kind": "kong", "tile": "8s"}]})
    evaluate(hand, "qq").as_dict()   # {"win": True, "pattern": "qingyise", "fan": 4, "value": 8, …}
    readiness(parse_tiles("1112345678999m"), "chengdu").as_dict()

    pinned = ruleset_from_description(stored_description)  # the rules a hand was recorded with
    evaluate(hand, pinned)

    declaration_menu("chengdu").as_dict()  # what a scorer may declare (RULES §6, declared.py)
"""

from .declared import (
    Declaration,
    DeclarationMenu,
    DrawChoice,
    ExtraChoice,
    PatternChoice,
    SituationChoice,
    declaration_menu,
)
from .described import ruleset_from_description
from .errors import EngineError, Problem
from .evaluate import (
    Evaluation,
    Line,
    Valuation,
    WinningHand,
    evaluate,
    evaluate_key,
    evaluate_tiles,
    parse_winning_hand,
)
from .melds import Meld, MeldGroup
from .patterns import EXTRA_NAMES, PATTERN_NAMES, SITUATIONS
from .rulesets import (
    PRESETS,
    Options,
    Ruleset,
    get_ruleset,
    option_schema,
    resolve_ruleset,
)
from .tiles import format_tiles, parse_suit, parse_tile, parse_tiles, tile_name
from .waits import (
    Readiness,
    Wait,
    chajiao_owed,
    chajiao_pick,
    chajiao_value,
    parse_waiting_hand,
    readiness,
    wait_valuations,
)

__all__ = [
    "EXTRA_NAMES",
    "PATTERN_NAMES",
    "PRESETS",
    "SITUATIONS",
    "Declaration",
    "DeclarationMenu",
    "DrawChoice",
    "EngineError",
    "Evaluation",
    "ExtraChoice",
    "Line",
    "Meld",
    "MeldGroup",
    "Options",
    "PatternChoice",
    "Problem",
    "Readiness",
    "Ruleset",
    "SituationChoice",
    "Valuation",
    "Wait",
    "WinningHand",
    "chajiao_owed",
    "chajiao_pick",
    "chajiao_value",
    "declaration_menu",
    "evaluate",
    "evaluate_key",
    "evaluate_tiles",
    "format_tiles",
    "get_ruleset",
    "option_schema",
    "parse_suit",
    "parse_tile",
    "parse_tiles",
    "parse_waiting_hand",
    "parse_winning_hand",
    "readiness",
    "resolve_ruleset",
    "ruleset_from_description",
    "tile_name",
    "wait_valuations",
]
