"""The value types of the standings: table results in, standings out, exact numbers throughout.

Points are ``fractions.Fraction`` and scores ``int``: a shared place is worth 7/3 exactly, and
nothing here is formatted for people (the Django side renders the numbers).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational

from tournaments.errors import TournamentError

#: Players at a table.
TABLE_SIZE = 4


class StandingsError(TournamentError):
    """Bad input to the standings; ``code`` is stable for the API, ``message`` is for people."""


@dataclass(frozen=True)
class TableResult:
    """One table of one round: ``scores`` holds ``(player_id, table score)`` in seat order
    (player None: a seat credited to nobody)."""

    round: int
    table: int
    scores: tuple[tuple[int | None, int], ...]


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One round of one player: a table played (``bye`` false) or a bye (``table`` None)."""

    round: int
    table: int | None
    table_score: int
    placement_points: Fraction
    place: Fraction | None  # average of the places spanned: 3/2 when sharing 1st and 2nd
    bye: bool


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line in the standings: rank, the totals the tiebreaks read, every round."""

    rank: int
    player: int
    placement_points: Fraction
    table_score: int
    first_places: int
    best_table_score: int | None
    head_to_head: int  # from the tied group it was used in, else 0
    rounds_played: int  # tables played; byes are counted apart
    byes: int
    withdrawn: bool
    rounds: tuple[RoundEntry, ...]
    shared: bool  # the rank is shared with at least one other player
    penalty: int = 0  # placement points the referee took off (placement_points is after it)
    #: a finalist's placement points in the final rounds (None: not a finalist)
    final_points: Fraction | None = None


def is_int(value: object) -> bool:
    """An integer score or id; bool is an int subclass, but True is always a caller's bug."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_rational(value: object) -> bool:
    """An exact number of points (an int or a Fraction)."""
    # Floats are refused rather than converted: Fraction(0.1) is not one tenth, and shared
    # points must stay exact for ties in the standings to be real ties.
    return isinstance(value, Rational) and not isinstance(value, bool)
