"""A tournament's standings rules: placement points, tiebreak chain, what a bye scores."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from .model import TABLE_SIZE, StandingsError, is_int, is_rational
from .placement import DEFAULT_PLACEMENT_POINTS
from .tiebreaks import DEFAULT_TIEBREAKS, TIEBREAKS


@dataclass(frozen=True)
class StandingsRules:
    """How a tournament ranks: the placement points of 1st-4th, the tiebreak chain (codes of
    ``TIEBREAKS``, in order), and the placement points and table score of a bye."""

    placement_points: tuple[Fraction | int, ...] = DEFAULT_PLACEMENT_POINTS
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    bye_points: Fraction = Fraction(7, 4)
    bye_table_score: int = 0

    def __post_init__(self) -> None:
        # Checked on construction so a bad tournament setting fails where it is read, not in
        # the middle of a recompute. Lists are accepted and stored as tuples (hashable).
        points = self.placement_points
        if isinstance(points, str | bytes) or not isinstance(points, Iterable):
            raise StandingsError(
                "invalid_placement_points", "placement points must be a sequence of numbers"
            )
        points = tuple(points)
        if len(points) != TABLE_SIZE or not all(is_rational(p) for p in points):
            raise StandingsError(
                "invalid_placement_points",
                f"placement points must be {TABLE_SIZE} integers or fractions, got {points!r}",
            )
        object.__setattr__(self, "placement_points", points)

        tiebreaks = self.tiebreaks
        if isinstance(tiebreaks, str):
            # A lone string would otherwise be read one character at a time.
            tiebreaks = (tiebreaks,)
        tiebreaks = tuple(tiebreaks)
        for code in tiebreaks:
            if code not in TIEBREAKS:
                known = ", ".join(TIEBREAKS)
                raise StandingsError(
                    "unknown_tiebreak", f"unknown tiebreak {code!r} (known: {known})"
                )
        if len(set(tiebreaks)) != len(tiebreaks):
            raise StandingsError(
                "duplicate_tiebreak", f"a tiebreak appears twice in {list(tiebreaks)!r}"
            )
        object.__setattr__(self, "tiebreaks", tiebreaks)

        if not is_rational(self.bye_points):
            raise StandingsError(
                "invalid_bye_score",
                f"bye points must be an integer or a fraction, got {self.bye_points!r}",
            )
        object.__setattr__(self, "bye_points", Fraction(self.bye_points))
        if not is_int(self.bye_table_score):
            raise StandingsError(
                "invalid_bye_score",
                f"bye table score must be an integer, got {self.bye_table_score!r}",
            )
