"""The tiebreak registry: every criterion a tournament may put in its chain, by code.

Each :class:`Tiebreak` has the code stored with a tournament, its :class:`~core.names.Name`
for people, and the key it ranks by (higher is better), read from a player's running totals
(:class:`~tournaments.standings.tally.Tally`). Adding a tiebreak is adding one entry to
``TIEBREAKS``; a key that needs more than the totals can read the player's rounds
(``Tally.entries``). The chain is applied by :func:`break_ties`, in the configured order:

- ``placement_points``: total placement points, byes included;
- ``table_score``: total table score, byes included;
- ``first_places``: tables finished first; a shared first counts as a first place for every
  player sharing it (they did not finish below anyone);
- ``best_table_score``: best single table score; a player without a table ranks below any
  score;
- ``head_to_head``: among the players still tied at that point of the chain, at every table
  where two of them met, +1 for each tied opponent placed below, -1 for each placed above
  (0 for a tie at that table); compare the sums. It is computed per tied group, never over
  the whole field, so it costs nothing when no one is tied.

Players still tied after the whole chain share the rank (1, 2, 2, 4) and are listed by id.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from types import MappingProxyType

from core.names import Name

from .tally import TableRanks, Tally

#: What a key ranks by; higher is better.
Key = int | float


@dataclass(frozen=True)
class Tiebreak:
    """One criterion of the tiebreak chain: its code, its name, and the key it ranks by."""

    code: str
    name: Name
    #: the player's value for this criterion, higher is better
    key: Callable[[Tally], Key]
    #: for a criterion that depends on who is still tied (head-to-head): run on each tied group
    #: before ``key`` is read, it writes what ``key`` reads. None for a total.
    prepare: Callable[[Sequence[Tally], TableRanks], None] | None = None


_NO_TABLE = -math.inf  # below any best table score


def _best_table_score(tally: Tally) -> Key:
    return _NO_TABLE if tally.best is None else tally.best


def _head_to_head(group: Sequence[Tally], table_ranks: TableRanks) -> None:
    members = {t.player for t in group}
    for tally in group:
        me = tally.player
        total = 0
        for index, my_rank in tally.tables:
            for other, their_rank in table_ranks[index].items():
                if other != me and other in members:
                    # rank_key is a position: smaller is better; equal means tied at the table
                    if their_rank > my_rank:
                        total += 1
                    elif their_rank < my_rank:
                        total -= 1
        tally.head_to_head = total


_ENTRIES: dict[str, Tiebreak] = {
    t.code: t
    for t in (
        Tiebreak(
            "placement_points", Name("名次分", "Placement points"), attrgetter("scaled_points")
        ),
        Tiebreak("table_score", Name("桌分", "Table score"), attrgetter("table_score")),
        Tiebreak("first_places", Name("第一名次数", "First places"), attrgetter("first_places")),
        Tiebreak("best_table_score", Name("单桌最高分", "Best table score"), _best_table_score),
        Tiebreak(
            "head_to_head",
            Name("相互胜负", "Head-to-head"),
            attrgetter("head_to_head"),
            prepare=_head_to_head,
        ),
    )
}

#: Every tiebreak by code, in the order people are shown them: ``code in TIEBREAKS`` checks a
#: code, iterating gives the codes, ``TIEBREAKS[code].name`` the name. Read-only.
TIEBREAKS: Mapping[str, Tiebreak] = MappingProxyType(_ENTRIES)

#: The chain of a tournament that does not choose one.
DEFAULT_TIEBREAKS: tuple[str, ...] = (
    "placement_points",
    "table_score",
    "first_places",
    "best_table_score",
    "head_to_head",
)


def break_ties(
    group: list[Tally], chain: Sequence[Tiebreak], table_ranks: TableRanks
) -> list[list[Tally]]:
    """Split ``group`` (already in the order of the previous criteria) into ranked tie groups."""
    if len(group) <= 1 or not chain:
        return [group] if group else []
    tiebreak, rest = chain[0], chain[1:]
    if tiebreak.prepare is not None:
        tiebreak.prepare(group, table_ranks)
    key = tiebreak.key
    ordered = sorted(group, key=key, reverse=True)
    out: list[list[Tally]] = []
    start = 0
    current = key(ordered[0])
    for i in range(1, len(ordered) + 1):
        if i == len(ordered) or (value := key(ordered[i])) != current:
            out.extend(break_ties(ordered[start:i], rest, table_ranks))
            if i < len(ordered):
                start, current = i, value
    return out
