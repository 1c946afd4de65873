"""Hand records the clubs tests submit."""

from __future__ import annotations

from tests.scoring.engine.records import PINGHU, XUEZHAN

#: the same hand self-drawn: every other seat pays S1 1
SELFDRAW = {**PINGHU, "events": [{**PINGHU["events"][0], "from": None}]}

#: 血战 under qq (the club's default): S3 暗杠 9s (2 from each of three = +6); S1 declared
#: 清一色 with one root, self-drawn: 3 + 1 = 4 fan → 8 from each of S0, S2, S3; S2 declared
#: 对对胡 on S0's discard: 2 fan → 2; the wall runs out: S0 declared not ready, S3 declared
#: ready on 平胡 with his kong's root: 1 + 1 = 2 fan → 2, paid by S0 (查叫).
DECLARED = {
    "dealer": 0,
    "events": [
        {"type": "kong", "seat": 3, "kind": "concealed", "tile": "9s"},
        {"type": "win", "from": None, "tile": "5m", "situation": [],
         "winners": [{"seat": 1, "declared": {"pattern": "qingyise", "roots": 1}}]},
        {"type": "win", "from": 0, "tile": "3p", "situation": [],
         "winners": [{"seat": 2, "declared": {"pattern": "duiduihu"}}]},
    ],
    "draw": {"hands": {
        "0": {"declared": "not_ready"},
        "3": {"declared": "ready", "wait": {"pattern": "pinghu", "roots": 1}},
    }},
}  # fmt: skip

__all__ = ["DECLARED", "PINGHU", "SELFDRAW", "XUEZHAN"]
