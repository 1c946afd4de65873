"""The value types the seating package hands back and forth: plain, frozen, comparable."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.errors import TournamentError

#: The seating methods a tournament can choose.
METHODS = ("balanced", "swiss", "random")


@dataclass(frozen=True)
class TableSeating:
    """One table: its number (1-based) and four player ids in seat order.

    ``players[0]`` sits in seat 0, the first dealer of the table's first hand.
    """

    number: int
    players: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "players": list(self.players)}


@dataclass(frozen=True)
class RoundSeating:
    """A whole round: its tables ordered by number, and the players sitting out (byes)."""

    tables: tuple[TableSeating, ...]
    byes: tuple[int, ...] = ()

    def players(self) -> list[int]:
        """Everyone in the round, seated or on a bye."""
        return [p for t in self.tables for p in t.players] + list(self.byes)

    # The Django side keeps the balanced plan between rounds; JSON is the natural store.
    def as_dict(self) -> dict[str, Any]:
        return {"tables": [t.as_dict() for t in self.tables], "byes": list(self.byes)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundSeating:
        tables = tuple(
            TableSeating(int(t["number"]), tuple(int(p) for p in t["players"]))
            for t in data.get("tables", ())
        )
        return cls(tables=tables, byes=tuple(int(p) for p in data.get("byes", ())))

    @classmethod
    def from_groups(cls, groups: Sequence[Sequence[int]], byes: Sequence[int] = ()) -> RoundSeating:
        """Tables numbered 1.. in the order given, seats in the order given."""
        tables = tuple(TableSeating(i + 1, tuple(g)) for i, g in enumerate(groups))
        return cls(tables=tables, byes=tuple(byes))


@dataclass(frozen=True)
class SeatingQuality:
    """How good a seating is; see :func:`tournaments.seating.quality.quality` for definitions."""

    repeated_pairs: int
    repeated_pairs_round: int
    max_meetings: int
    seat_spread: int
    table_spread: int

    def as_dict(self) -> dict[str, int]:
        return {
            "repeated_pairs": self.repeated_pairs,
            "repeated_pairs_round": self.repeated_pairs_round,
            "max_meetings": self.max_meetings,
            "seat_spread": self.seat_spread,
            "table_spread": self.table_spread,
        }


@dataclass(frozen=True)
class SeatingResult:
    round: RoundSeating
    #: balanced only: the planned rounds after this one, to pass back as ``plan`` next time
    plan: tuple[RoundSeating, ...]
    quality: SeatingQuality


class SeatingError(TournamentError):
    """A seating that cannot be made from these inputs; ``code`` is stable for API clients."""

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"
