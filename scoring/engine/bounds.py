"""The engine's bounds (RULES §5 "amounts out of range", and the engine's own where RULES is
silent): what a stranger sends can grow neither an answer nor the work behind it without end.
"""

from __future__ import annotations

#: an answer lists at most this many problems; the last one then says how many more there were
MAX_PROBLEMS = 100
