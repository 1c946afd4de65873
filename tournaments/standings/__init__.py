"""Tournament standings: placement points, byes and the tiebreak chain, in plain Python.

No Django import: the Celery task loads rounds, tables, results, byes and drop-outs from the
database, calls :func:`compute_standings` and stores what it returns as a snapshot. Keeping the
arithmetic here lets it be tested and benchmarked without a database.

- ``placement.py``: placement points at one table, ties sharing the places they span exactly;
- ``tiebreaks.py``: the tiebreak registry ``TIEBREAKS`` (code -> :class:`Tiebreak`, with its
  ``Name`` and key) and the chain that applies it;
- ``rules.py``: a tournament's :class:`StandingsRules`;
- ``compute.py``: :func:`compute_standings`, byes and withdrawn players;
- ``finals.py``: :func:`order_finals`, the finalists ranked first (carry-over or from zero);
- ``model.py``: the value types (:class:`TableResult` in, :class:`Standing` out) and
  :class:`StandingsError`. Points stay exact ``Fraction``\\ s; nothing here formats them.
"""

from .compute import compute_standings
from .finals import final_points, order_finals
from .model import TABLE_SIZE, RoundEntry, Standing, StandingsError, TableResult
from .placement import DEFAULT_PLACEMENT_POINTS, mean_placement_points, placement_points
from .rules import StandingsRules
from .tiebreaks import DEFAULT_TIEBREAKS, TIEBREAKS, Tiebreak

__all__ = [
    "DEFAULT_PLACEMENT_POINTS",
    "DEFAULT_TIEBREAKS",
    "TABLE_SIZE",
    "TIEBREAKS",
    "RoundEntry",
    "Standing",
    "StandingsError",
    "StandingsRules",
    "TableResult",
    "Tiebreak",
    "compute_standings",
    "final_points",
    "order_finals",
    "mean_placement_points",
    "placement_points",
]
