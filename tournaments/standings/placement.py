"""Placement points at one table: by table score, highest first, ties sharing exactly.

Players tied on table score share the points of the places they span (``fractions.Fraction``):
two tied for 1st with (4, 2, 1, 0) get (4 + 2) / 2 = 3 each, three tied for 1st (4 + 2 + 1) / 3
= 7/3 each. Their place is the average of the places spanned (3/2 for 1st and 2nd).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .model import TABLE_SIZE, StandingsError, is_int, is_rational

#: The points of 1st, 2nd, 3rd and 4th at a table.
DEFAULT_PLACEMENT_POINTS: tuple[int, ...] = (4, 2, 1, 0)


def mean_placement_points(points: Sequence[Fraction | int] = DEFAULT_PLACEMENT_POINTS) -> Fraction:
    """The customary bye score: the average placement points of a table (7/4 for 4/2/1/0)."""
    return Fraction(sum(points, Fraction(0)), len(points))


def _tie_spans(ordered_scores: Sequence[int]) -> list[tuple[int, int]]:
    """For scores sorted highest first, the (first, last) position of each one's tie group."""
    spans: list[tuple[int, int]] = []
    start = 0
    n = len(ordered_scores)
    for i in range(1, n + 1):
        if i == n or ordered_scores[i] != ordered_scores[start]:
            spans.extend([(start, i - 1)] * (i - start))
            start = i
    return spans


def _share(points: Sequence[Fraction], first: int, last: int) -> Fraction:
    return sum(points[first : last + 1], Fraction(0)) / (last - first + 1)


def placement_points(
    scores: Sequence[tuple[int, int]],
    points: Sequence[Fraction | int] = DEFAULT_PLACEMENT_POINTS,
) -> dict[int, Fraction]:
    """Placement points of each player at one table, ties sharing the places they span.

    ``scores`` is ``(player_id, table score)`` per seat; there must be one per entry of
    ``points``. The zero-sum rule of a table result is checked by ``compute_standings``, not
    here, so this can rank any set of scores.
    """
    if len(scores) != len(points):
        raise StandingsError(
            "table_size", f"{len(scores)} scores for {len(points)} placement points"
        )
    if not all(is_rational(p) for p in points):
        raise StandingsError(
            "invalid_placement_points", f"placement points must be exact numbers, got {points!r}"
        )
    exact = [Fraction(p) for p in points]
    for player, score in scores:
        if not is_int(score):
            raise StandingsError(
                "score_not_integer", f"player {player}: table score {score!r} is not an integer"
            )
    if len({player for player, _ in scores}) != len(scores):
        raise StandingsError("player_twice_at_table", "a player appears twice at the table")
    ordered = sorted(scores, key=score_of, reverse=True)
    spans = _tie_spans([score for _, score in ordered])
    return {
        player: _share(exact, first, last)
        for (player, _), (first, last) in zip(ordered, spans, strict=True)
    }


def score_of(seat: tuple[int, int]) -> int:
    """The table score of a ``(player, score)`` seat: the sort key of a table."""
    return seat[1]


def ties_of(ordered: Sequence[tuple[int, int]]) -> tuple[bool, ...]:
    """A table's tie pattern, seats sorted highest first: which neighbours scored the same."""
    # a list, not a generator: this runs once per table of the event
    return tuple([ordered[i][1] == ordered[i + 1][1] for i in range(TABLE_SIZE - 1)])


@dataclass(frozen=True, slots=True)
class Placing:
    """What one place of one tie pattern is worth: points, place, and whether it is a first."""

    points: Fraction
    scaled: int  # points * PlacementTable.scale, so totals are summed as ints
    place: Fraction
    rank_key: int  # first position of the tie group: equal for players tied at the table
    first: bool


class PlacementTable:
    """Placement points and the bye turned into lookup tables once per computation."""

    __slots__ = ("scale", "placings", "bye_scaled")

    def __init__(self, placement: Sequence[Fraction | int], bye_points: Fraction) -> None:
        points = [Fraction(p) for p in placement]
        # With scores sorted highest first, a table's tie pattern is which neighbours are
        # equal: 2**(TABLE_SIZE-1) patterns, each computed once here instead of per table.
        patterns: dict[tuple[bool, ...], list[tuple[Fraction, int, int]]] = {}
        for mask in range(2 ** (TABLE_SIZE - 1)):
            ties = tuple(bool(mask >> i & 1) for i in range(TABLE_SIZE - 1))
            fake_scores = [0]
            for tied in ties:
                fake_scores.append(fake_scores[-1] - (0 if tied else 1))
            patterns[ties] = [
                (_share(points, first, last), first, last)
                for first, last in _tie_spans(fake_scores)
            ]
        # Summing Fractions is the slow part of a naive loop. Scaled by the lcm of every
        # denominator that can occur (each share, and the bye), all points become integers
        # that add cheaply and exactly; the totals are turned back into Fractions at the end.
        denominators = {share.denominator for shares in patterns.values() for share, _, _ in shares}
        self.scale = math.lcm(bye_points.denominator, *denominators)
        self.bye_scaled = int(bye_points * self.scale)
        #: tie pattern (see ties_of) -> the placing of each seat, sorted highest first
        self.placings: dict[tuple[bool, ...], tuple[Placing, ...]] = {
            ties: tuple(
                Placing(
                    points=share,
                    scaled=int(share * self.scale),
                    place=Fraction(first + last + 2, 2),
                    rank_key=first,
                    first=first == 0,
                )
                for share, first, last in shares
            )
            for ties, shares in patterns.items()
        }
