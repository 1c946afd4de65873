"""The ratings app's constants, apart from its models: code which only needs one of them (the
pages) reads it here without importing a model; ``ratings.models`` keeps the names working."""

from __future__ import annotations

#: under this many rated sessions a rating is provisional (shown, marked, not yet to be trusted)
PROVISIONAL_SESSIONS = 10

#: the season of an award holder that covers all time (others are years)
ALL_TIME = 0
