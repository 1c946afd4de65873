"""What the tournament reads answer: plain objects that JSON, CSV and pages render alike.

Numbers stay numbers (placement points are exact fractions); they are formatted only when
rendered. A standings snapshot stores its rows as :meth:`StandingRow.as_json` (a fraction as
``[numerator, denominator]``) and reads them back with :meth:`StandingRow.from_json`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any, NamedTuple

from tournaments.models import Round
from tournaments.standings import Standing


def fraction_json(value: Fraction | None) -> list[int] | None:
    return None if value is None else [value.numerator, value.denominator]


def fraction_of(data: list[int] | None) -> Fraction | None:
    return None if data is None else Fraction(data[0], data[1])


@dataclass(frozen=True)
class RoundCell:
    """One round of one player: a table played, or a bye (``table`` None)."""

    round: int
    table: int | None
    table_score: int
    placement_points: Fraction
    place: Fraction | None  # the average of the places a tie spans: 3/2 sharing 1st and 2nd
    bye: bool


@dataclass(frozen=True)
class StandingRow:
    """One player's line of the standings."""

    rank: int
    shared: bool
    player: int
    name: str
    placement_points: Fraction
    table_score: int
    first_places: int
    best_table_score: int | None
    head_to_head: int
    rounds_played: int
    byes: int
    withdrawn: bool
    rounds: tuple[RoundCell, ...]

    @classmethod
    def from_standing(cls, s: Standing, name: str) -> StandingRow:
        return cls(
            rank=s.rank, shared=s.shared, player=s.player, name=name,
            placement_points=s.placement_points, table_score=s.table_score,
            first_places=s.first_places, best_table_score=s.best_table_score,
            head_to_head=s.head_to_head, rounds_played=s.rounds_played, byes=s.byes,
            withdrawn=s.withdrawn,
            rounds=tuple(
                RoundCell(e.round, e.table, e.table_score, e.placement_points, e.place, e.bye)
                for e in s.rounds
            ),
        )  # fmt: skip

    def as_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank, "shared": self.shared, "player": self.player, "name": self.name,
            "placement_points": fraction_json(self.placement_points),
            "table_score": self.table_score, "first_places": self.first_places,
            "best_table_score": self.best_table_score, "head_to_head": self.head_to_head,
            "rounds_played": self.rounds_played, "byes": self.byes, "withdrawn": self.withdrawn,
            "rounds": [
                {"round": c.round, "table": c.table, "table_score": c.table_score,
                 "placement_points": fraction_json(c.placement_points),
                 "place": fraction_json(c.place), "bye": c.bye}
                for c in self.rounds
            ],
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StandingRow:
        return cls(
            **{k: v for k, v in data.items() if k not in ("placement_points", "rounds")},
            placement_points=fraction_of(data["placement_points"]),
            rounds=tuple(
                RoundCell(
                    round=c["round"], table=c["table"], table_score=c["table_score"],
                    placement_points=fraction_of(c["placement_points"]),
                    place=fraction_of(c["place"]), bye=c["bye"],
                )
                for c in data["rounds"]
            ),
        )  # fmt: skip


@dataclass(frozen=True)
class StandingsTable:
    """The standings as last computed (version 0 and no rows before the first computation),
    with the tiebreak chain that ordered them."""

    version: int
    computed_at: datetime | None
    rounds_complete: int
    tables_counted: int
    rows: tuple[StandingRow, ...]
    tiebreaks: tuple[str, ...]


@dataclass(frozen=True)
class RoundProgress:
    """A round with how many tables it has and how many have a result."""

    round: Round
    tables: int
    tables_with_result: int


class SeatRow(NamedTuple):
    """One seat of a round (or one bye: ``table`` None), as a printed seating lists it."""

    round: int
    table: int | None
    table_id: int | None
    session: int | None
    seat: int | None
    player: int
    name: str
    first_dealer: bool
    score: int | None


@dataclass(frozen=True)
class TableSeats:
    """A table of a round: its seats in order (seat 0 deals first) and whether it has a result."""

    number: int
    id: int
    session: int
    has_result: bool
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True)
class RoundDetail:
    """A round with its progress, its tables and its byes."""

    round: Round
    tables: int
    tables_with_result: int
    table_rows: tuple[TableSeats, ...]
    bye_rows: tuple[SeatRow, ...]
