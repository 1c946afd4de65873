"""Hand records the clubs tests submit."""

from __future__ import annotations

from tests.scoring.engine.records import PINGHU, XUEZHAN

#: the same hand self-drawn: every other seat pays S1 1
SELFDRAW = {**PINGHU, "events": [{**PINGHU["events"][0], "from": None}]}

__all__ = ["PINGHU", "SELFDRAW", "XUEZHAN"]
