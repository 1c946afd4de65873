"""What the tournament reads answer: plain objects that JSON, CSV and pages render alike.

Numbers stay numbers (placement points are exact fractions); they are formatted only when
rendered. A standings snapshot stores its rows as :func:`standings_json` writes them, every
placement points value a whole number of ``1/scale`` (the snapshot's ``points_scale``: the
least common denominator, so 7/3 with scale 12 is stored as 28), and reads them back as
:class:`StandingRow` (:func:`snapshot_rows`). A standings table has a row per player and a cell
per round, thousands of them: a row is stored as an array of its values in the order of
:data:`ROW_FIELDS`, its rounds one flat array of :data:`CELL_FIELDS` values after another (no
key repeated in every cell: a quarter to a fifth of the bytes to write, parse and store, issue
25); whole numbers decode fast, the rows are named tuples and equal fractions are built once.
Snapshots written before that hold a JSON object a row (``rounds`` a list of objects): they
are read as they are (a snapshot never changes).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

from tournaments.models import Round
from tournaments.standings import Standing


@lru_cache(maxsize=4096)
def _fraction(numerator: int, scale: int) -> Fraction:
    return Fraction(numerator, scale)


def fraction_of(scaled: int | None, scale: int) -> Fraction | None:
    return None if scaled is None else _fraction(scaled, scale)


class RoundCell(NamedTuple):
    """One round of one player: a table played, or a bye (``table`` None)."""

    round: int
    table: int | None
    table_score: int
    placement_points: Fraction
    place: Fraction | None  # the average of the places a tie spans: 3/2 sharing 1st and 2nd
    bye: bool


class StandingRow(NamedTuple):
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
    penalty: int = 0
    #: a finalist's placement points in the final rounds (None: not a finalist)
    final_points: Fraction | None = None

    @classmethod
    def from_json(cls, d: dict[str, Any], scale: int) -> StandingRow:
        """A row of a snapshot written before rows were arrays (an object a row)."""
        return cls(
            d["rank"], d["shared"], d["player"], d["name"],
            fraction_of(d["placement_points"], scale), d["table_score"], d["first_places"],
            d["best_table_score"], d["head_to_head"], d["rounds_played"], d["byes"],
            d["withdrawn"],
            tuple(
                RoundCell(
                    c["round"], c["table"], c["table_score"],
                    fraction_of(c["placement_points"], scale), fraction_of(c["place"], scale),
                    c["bye"],
                )
                for c in d["rounds"]
            ),
            d.get("penalty", 0),  # a snapshot from before penalties has none
            fraction_of(d.get("final_points"), scale),
        )  # fmt: skip

    @classmethod
    def from_array(cls, a: list[Any], scale: int) -> StandingRow:
        """A row as :func:`standings_json` writes it (:data:`ROW_FIELDS`)."""
        (rank, shared, player, name, points, table_score, first_places, best, head_to_head,
         played, byes, withdrawn, penalty, final_points, cells) = a  # fmt: skip
        return cls(
            rank, shared, player, name, _fraction(points, scale), table_score, first_places,
            best, head_to_head, played, byes, withdrawn,
            tuple(
                RoundCell(
                    cells[i], cells[i + 1], cells[i + 2], _fraction(cells[i + 3], scale),
                    fraction_of(cells[i + 4], scale), cells[i + 5],
                )
                for i in range(0, len(cells), CELL_SIZE)
            ),
            penalty, fraction_of(final_points, scale),
        )  # fmt: skip


#: The values of a snapshot's row, in the order it stores them (``rounds``: its cells, flat).
ROW_FIELDS = (
    "rank", "shared", "player", "name", "placement_points", "table_score", "first_places",
    "best_table_score", "head_to_head", "rounds_played", "byes", "withdrawn", "penalty",
    "final_points", "rounds",
)  # fmt: skip
#: The values of one round's cell, in the order a row's flat ``rounds`` array holds them.
CELL_FIELDS = ("round", "table", "table_score", "placement_points", "place", "bye")
CELL_SIZE = len(CELL_FIELDS)


def snapshot_rows(rows: list[Any], scale: int) -> tuple[StandingRow, ...]:
    """A snapshot's stored rows read back, in either layout (arrays, or an object a row in a
    snapshot written before them)."""
    if rows and isinstance(rows[0], dict):
        return tuple(StandingRow.from_json(row, scale) for row in rows)
    return tuple(StandingRow.from_array(row, scale) for row in rows)


def standings_json(
    standings: Sequence[Standing], names: Mapping[int, str]
) -> tuple[int, list[tuple[Any, ...]]]:
    """Computed standings as a snapshot stores them: (scale, rows), a row an array of
    :data:`ROW_FIELDS` (its rounds flat, :data:`CELL_FIELDS` after one another), every
    placement points value (and shared place) a whole number of ``1/scale``;
    :func:`snapshot_rows` reads them back."""
    # a round's placement points and place are a handful of distinct values, the same objects
    # cell after cell (the placing table's): each scaled once, found by identity (the
    # standings hold them while this runs), not by a Fraction's costly hash
    distinct: dict[int, Fraction] = {}
    denominators = {1}
    for s in standings:
        denominators.add(s.placement_points.denominator)
        if s.final_points is not None:
            denominators.add(s.final_points.denominator)
        for e in s.rounds:
            distinct[id(e.placement_points)] = e.placement_points
            if e.place is not None:
                distinct[id(e.place)] = e.place
    denominators.update(value.denominator for value in distinct.values())
    scale = math.lcm(*denominators)

    def scaled(value: Fraction) -> int:
        return value.numerator * (scale // value.denominator)

    known: dict[int, int | None] = {key: scaled(value) for key, value in distinct.items()}
    known[id(None)] = None
    rows = []
    # each row and its cells a tuple (JSON arrays alike): tuples of plain values the garbage
    # collector stops tracking, where 20,000 lists at 10,000 players stayed for its full passes
    # to walk (issue 25)
    cells: list[Any] = []
    for s in standings:
        for e in s.rounds:
            cells += (e.round, e.table, e.table_score, known[id(e.placement_points)],
                      known[id(e.place)], e.bye)  # fmt: skip
        rows.append((
            s.rank, s.shared, s.player, names.get(s.player, ""), scaled(s.placement_points),
            s.table_score, s.first_places, s.best_table_score, s.head_to_head, s.rounds_played,
            s.byes, s.withdrawn, s.penalty,
            None if s.final_points is None else scaled(s.final_points), tuple(cells),
        ))  # fmt: skip
        cells.clear()
    return scale, rows


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
    #: while the last rounds are hidden: the last round whose results are shown to players
    #: (these rows, unless a director reads the full ones: then the rows are all of them)
    hidden_after: int | None = None


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


@dataclass(frozen=True)
class TournamentOverview:
    """What a tournament's home page shows besides the tournament itself: its entries, each
    round with its progress, and the round in play (the latest seated one, None before)."""

    players: int
    withdrawn: int
    rounds: tuple[RoundProgress, ...]
    current: Round | None


@dataclass(frozen=True)
class RankChanges:
    """How the standings moved since the end of the round before the latest one played
    (``since``: that round, None when there is none yet): a player's rank then, by id. A
    player without a table or a bye before the latest round is not in ``previous``."""

    since: int | None
    previous: Mapping[int, int]

    def change(self, player: int, rank: int) -> int | None:
        """Places gained (positive) or lost (negative); None when there is nothing to compare."""
        before = self.previous.get(player)
        return None if before is None else before - rank


class LiveSeat(NamedTuple):
    seat: int
    player: int
    name: str


@dataclass(frozen=True)
class LiveTable:
    """A table of the round in play: who sits there (seat 0 deals first), the hands recorded
    so far out of the tournament's number, and whether it has its result (``done``: the hands
    are in, or the totals were entered)."""

    number: int
    id: int
    session: int
    seats: tuple[LiveSeat, ...]
    hands: int
    hands_per_table: int
    entered: bool
    done: bool
    #: done, and waiting for the scorekeeper's approval before it counts (an approve gate)
    to_approve: bool = False

    @property
    def started(self) -> bool:
        return self.done or self.hands > 0


@dataclass(frozen=True)
class RoundLive:
    """The round in play, table by table, with how many are done, playing, not started."""

    round: Round
    tables: tuple[LiveTable, ...]
    done: int
    playing: int
    waiting: int


@dataclass(frozen=True)
class TournamentReport:
    """What a tournament's report lists besides its standings: every seated round's tables
    and byes, who entered each table's hands or totals (session id → usernames), the
    penalties (revoked ones too), the rounds unlocked for a correction, and who withdrew."""

    rounds: tuple[RoundDetail, ...]
    entered_by: Mapping[int, tuple[str, ...]]
    penalties: tuple[Any, ...]
    unlocks: tuple[Any, ...]
    withdrawn: tuple[Any, ...]
    #: (round number, table number, the seat repair) in the order they were made
    repairs: tuple[tuple[int, int, Any], ...] = ()
    #: the substitutions (替补), by round and table
    substitutes: tuple[Any, ...] = ()


class ReportLine(NamedTuple):
    """One player in one round of the report (``tournaments.serializers.REPORT`` its columns):
    his seat at a table, or his bye (``table`` and ``seat`` None), what the standings count for
    it (``cell``: None while the table does not count) and, for a substitute (替补), whom he
    played for."""

    round: int
    table: int | None
    session: int | None  # the table's session (who entered it); None: a bye
    seat: int | None  # 0 East … 3 North
    player: int
    name: str
    cell: RoundCell | None
    substitute_for: str  # the absent entry's name; "" for anyone else


@dataclass(frozen=True)
class RoundClock:
    """A round's clock as stored: started at, minutes, minutes added for every table and for
    single tables (by number). What is left is worked out from a given moment, so the clock
    is the same on every page and after any restart."""

    round: int
    started_at: datetime
    minutes: int
    extra: int
    table_extra: Mapping[int, int]

    def ends_at(self, table: int | None = None) -> datetime:
        extra = self.extra + (self.table_extra.get(table, 0) if table is not None else 0)
        return self.started_at + timedelta(minutes=self.minutes + extra)

    def seconds_left(self, now: datetime, table: int | None = None) -> int:
        """Whole seconds until the end (0 once it has passed)."""
        return max(0, math.ceil((self.ends_at(table) - now).total_seconds()))
