"""The engine's bounds: RULES §5 "amounts out of range", and the engine's own where RULES is
silent. Whatever a stranger sends, neither an answer nor the work behind it grows without end,
and every amount stays a whole number that any JSON client reads exactly.

They are stated to clients by :func:`~.rulesets.option_schema` (``GET /api/v1/rulesets/``) and
in the README's "Rules engine" section.
"""

from __future__ import annotations

# --- RULES §5 ----------------------------------------------------------------------------------

#: a hand record's ``base``: what one unit of value pays
MIN_BASE, MAX_BASE = 1, 10_000
#: the highest ``cap`` a ruleset may set, in its curve's unit: 30 fan (a value of 2^30, or
#: 2^29 where 平胡 is 1 fan), or a multiple or points of a billion
MAX_CAP = {"fan": 30, "multiple": 1_000_000_000, "points": 1_000_000_000}
MAX_BETTORS = 8  # 叫马 bettors behind one table
MAX_EVENTS = 64  # kongs and wins in one hand
#: an answer lists at most this many problems; the last one then says how many more there were
MAX_PROBLEMS = 100

# --- the engine's own (RULES is silent) ------------------------------------------------------

#: every amount a settlement reports, and a ruleset's largest value: a JSON number is an IEEE
#: double in most clients, which holds every whole number up to 2^53 exactly
MAX_AMOUNT = 2**53 - 1
#: an option counted in base units (``kong_concealed``, ``kong_added``, ``kong_direct``, a fixed
#: ``huazhu``): as high as a cap on points may go
MAX_OPTION_AMOUNT = 1_000_000_000
#: a tile string, in characters: all 108 tiles written one by one with a space after each
#: (``"1m 1m 1m …"``, 324 characters) still fit
MAX_TILES_TEXT = 512
MAX_NAME = 80  # a bettor's name, in characters (as long as a club player's)
MAX_WINNERS = 3  # on one discard (一炮多响): everyone but the discarder
MAX_MELDS = 4  # a hand of 14 lays down at most four sets
MAX_SESSION_DOUBLINGS = 16  # ``session.draws_before`` and ``session.dealer_streak`` each
#: a stored ruleset description: each extra's steps of the curve, the fan offset
MAX_STEPS = 30
MAX_ROOTS = 4  # 根 in one hand (four kongs); a pattern includes at most this many
