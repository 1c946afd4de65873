"""A player's running totals while the standings are computed; the tiebreaks read them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .model import RoundEntry

#: Per seated table of the event, player -> rank_key there (a position: smaller is better,
#: equal for players tied at the table). Read only by head-to-head.
TableRanks = Sequence[Mapping[int, int]]


class Tally:
    """Mutable running totals of one player, frozen into a ``Standing`` at the end."""

    __slots__ = (
        "player",
        "scaled_points",
        "table_score",
        "first_places",
        "best",
        "played",
        "byes",
        "entries",
        "tables",
        "head_to_head",
        "penalty",
    )

    def __init__(self, player: int) -> None:
        self.player = player
        #: placement points times PlacementTable.scale, summed as an int
        self.scaled_points = 0
        self.table_score = 0
        self.first_places = 0
        #: best single table score; None until a table is played (a bye is not a table)
        self.best: int | None = None
        self.played = 0
        self.byes = 0
        #: every round, table or bye, in the order seen
        self.entries: list[RoundEntry] = []
        #: (index into TableRanks, this player's rank_key there), for head-to-head
        self.tables: list[tuple[int, int]] = []
        #: written by head-to-head for the tied group it is used in
        self.head_to_head = 0
        #: placement points taken off by the referee's penalties (already out of scaled_points)
        self.penalty = 0
