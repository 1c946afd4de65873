"""Tournament seating, four to a table: plain Python, no Django.

Methods (``METHODS``): ``balanced`` plans the whole event to avoid repeat meetings, ``swiss``
seats by the standings while avoiding them, ``random`` draws a seeded seating. See
:func:`seat_round`; :func:`greedy_swiss` is the reference every method must match or beat, and
:func:`quality` the measures reported with each round. The same inputs give the same seating
on any machine; a round that takes longer than ``TIME_LIMIT_S`` raises ``seating_timeout``.
"""

from .model import (
    METHODS,
    RoundSeating,
    SeatingError,
    SeatingQuality,
    SeatingResult,
    TableSeating,
)
from .quality import quality
from .reference import greedy_swiss
from .seat import seat_round
from .timing import TIME_LIMIT_S

__all__ = [
    "METHODS",
    "RoundSeating",
    "SeatingError",
    "SeatingQuality",
    "SeatingResult",
    "TIME_LIMIT_S",
    "TableSeating",
    "greedy_swiss",
    "quality",
    "seat_round",
]
