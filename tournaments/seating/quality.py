"""Measuring a seating: repeated pairs, meetings, seat and table-number spread.

Definitions (the figures the API reports):

* a pair's *meetings*: the rounds in which the two sat at the same table;
* *repeated pairs*: over every pair, each meeting after their first, summed
  (``sum(max(0, meetings - 1))``); a repeat-free event has 0;
* *seat spread*: for each player, how many times they sat in each seat 0..3 (seat 0 is the
  first dealer), max count minus min count; the report is the worst player;
* *table spread*: for each player, the most times they sat at one table number, minus one; the
  report is the worst player. 0 means nobody has sat at the same table number twice. Players
  pinned to a table sit there by design and are left out when they are named in ``pinned``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence

from .model import RoundSeating, SeatingQuality


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def meetings(rounds: Iterable[RoundSeating]) -> Counter[tuple[int, int]]:
    """How many times each pair that ever met has sat together."""
    counts: Counter[tuple[int, int]] = Counter()
    for rnd in rounds:
        for table in rnd.tables:
            ps = table.players
            for i in range(len(ps)):
                for j in range(i + 1, len(ps)):
                    counts[pair_key(ps[i], ps[j])] += 1
    return counts


def repeated_pairs(counts: Counter[tuple[int, int]]) -> int:
    return sum(m - 1 for m in counts.values() if m > 1)


def seat_counts(rounds: Iterable[RoundSeating]) -> dict[int, list[int]]:
    """Per player, how many times they sat in seat 0, 1, 2 and 3."""
    counts: dict[int, list[int]] = {}
    for rnd in rounds:
        for table in rnd.tables:
            for seat, p in enumerate(table.players):
                counts.setdefault(p, [0, 0, 0, 0])[seat] += 1
    return counts


def table_counts(rounds: Iterable[RoundSeating]) -> dict[int, Counter[int]]:
    """Per player, how many times they sat at each table number."""
    counts: dict[int, Counter[int]] = {}
    for rnd in rounds:
        for table in rnd.tables:
            for p in table.players:
                counts.setdefault(p, Counter())[table.number] += 1
    return counts


def bye_counts(rounds: Iterable[RoundSeating]) -> Counter[int]:
    counts: Counter[int] = Counter()
    for rnd in rounds:
        counts.update(rnd.byes)
    return counts


def quality(
    history: Sequence[RoundSeating], new: RoundSeating, *, pinned: Collection[int] = ()
) -> SeatingQuality:
    """The quality of the event after ``new`` is played on top of ``history``."""
    before = meetings(history)
    after = before + meetings([new])
    rounds = [*history, new]
    seats = seat_counts(rounds)
    tables = table_counts(rounds)
    total = repeated_pairs(after)
    return SeatingQuality(
        repeated_pairs=total,
        repeated_pairs_round=total - repeated_pairs(before),
        max_meetings=max(after.values(), default=0),
        seat_spread=max((max(c) - min(c) for c in seats.values()), default=0),
        table_spread=max(
            (max(c.values()) - 1 for p, c in tables.items() if p not in pinned), default=0
        ),
    )
