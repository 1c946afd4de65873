"""The greedy swiss seating every method is measured against (and must never lose to)."""

from __future__ import annotations

from collections.abc import Sequence

from .model import RoundSeating
from .quality import meetings, pair_key


def greedy_swiss(players: Sequence[int], history: Sequence[RoundSeating]) -> RoundSeating:
    """Leaders first: each table starts with the best-placed player left and takes the next
    players in order that nobody at it has met (if there are none, simply the next ones).
    The byes go to the last ``len(players) % 4`` players; tables are numbered in order."""
    met = meetings(history)
    seated = len(players) - len(players) % 4
    pool = list(players[:seated])
    groups: list[list[int]] = []
    while pool:
        group = [pool.pop(0)]
        k = 0
        while len(group) < 4 and k < len(pool):
            c = pool[k]
            if all(pair_key(c, x) not in met for x in group):
                group.append(pool.pop(k))
            else:
                k += 1
        while len(group) < 4:
            group.append(pool.pop(0))
        groups.append(group)
    return RoundSeating.from_groups(groups, players[seated:])
