"""Table numbers and seat order for groups of four that are already decided.

The grouping decides who meets whom; what is left is fairness of place: nobody should keep the
same table number or keep being (or never be) the first dealer. A single round is placed
greedily against the counts so far. A whole plan gets exactly balanced seats from an edge
colouring when it starts fresh, then its rounds are placed again against one another.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence

from .model import RoundSeating, TableSeating

_PERMS = tuple(itertools.permutations(range(4)))


class PlaceCounts:
    """Seat and table-number counts per player, over the rounds seen so far."""

    def __init__(self, rounds: Sequence[RoundSeating] = ()) -> None:
        self.seats: dict[int, list[int]] = {}
        self.tables: dict[int, Counter[int]] = {}
        for rnd in rounds:
            self.add(rnd)

    def add(self, rnd: RoundSeating) -> None:
        for table in rnd.tables:
            for seat, p in enumerate(table.players):
                self.seats.setdefault(p, [0, 0, 0, 0])[seat] += 1
                self.tables.setdefault(p, Counter())[table.number] += 1

    def remove(self, rnd: RoundSeating) -> None:
        for table in rnd.tables:
            for seat, p in enumerate(table.players):
                self.seats[p][seat] -= 1
                self.tables[p][table.number] -= 1

    def seat_row(self, p: int) -> list[int]:
        return self.seats.get(p) or [0, 0, 0, 0]


def order_seats(group: Sequence[int], counts: PlaceCounts, rng: random.Random) -> tuple[int, ...]:
    """The seat order that puts each player where they have sat least (ties by the seed)."""
    if len(group) != 4:
        return tuple(group)
    rows = [counts.seat_row(p) for p in group]
    # Squares, so one player's third first deal weighs more than two players' second.
    start = rng.randrange(len(_PERMS))
    best, best_cost = _PERMS[start], None
    for k in range(len(_PERMS)):
        perm = _PERMS[(start + k) % len(_PERMS)]
        cost = 0
        for who, seat in enumerate(perm):
            c = rows[who][seat]
            cost += c * c
        if best_cost is None or cost < best_cost:
            best, best_cost = perm, cost
    seated = [0, 0, 0, 0]
    for who, seat in enumerate(best):
        seated[seat] = group[who]
    return tuple(seated)


def balanced_seats(
    rounds: Sequence[Sequence[Sequence[int]]], rng: random.Random
) -> list[list[tuple[int, ...]]]:
    """Seat orders for the groups of a whole plan in which every player sits in every seat
    equally often: within each four consecutive rounds a player plays, once in each seat (one
    more or less in seats of a final, shorter stretch).

    This is a proper 4-edge-colouring (colour = seat) of the bipartite graph between tables and
    "stretches" (a player's rounds taken four at a time): both sides have degree at most 4,
    and König's theorem says 4 colours then always suffice. Built edge by edge; when the colours
    free at the two ends differ, a two-colour alternating path is swapped to free one.
    """
    ends: list[tuple[int, int]] = []  # (table vertex, stretch vertex) per edge
    stretch_of: dict[tuple[int, int], int] = {}
    played: Counter[int] = Counter()
    t = -1  # tables are the vertices 0, 1, ...
    for groups in rounds:
        for group in groups:
            t += 1
            for p in group:
                key = (p, played[p] // 4)
                played[p] += 1
                if key not in stretch_of:
                    stretch_of[key] = -1 - len(stretch_of)  # stretches are negative vertices
                ends.append((t, stretch_of[key]))
    at: dict[int, list[int]] = {}  # vertex -> edge id of each colour, -1 if free
    colour = [-1] * len(ends)
    order = list(range(len(ends)))
    rng.shuffle(order)
    for e in order:
        u, v = ends[e]
        cu = at.setdefault(u, [-1, -1, -1, -1])
        cv = at.setdefault(v, [-1, -1, -1, -1])
        a = next(c for c in range(4) if cu[c] < 0)
        if cv[a] >= 0:
            b = next(c for c in range(4) if cv[c] < 0)
            # Walk from v along colours a, b, a, ...; in a bipartite graph the walk cannot
            # reach u, and swapping a and b along it frees a at v.
            path, x, want = [], v, a
            while at[x][want] >= 0:
                f = at[x][want]
                path.append(f)
                x = ends[f][0] if ends[f][1] == x else ends[f][1]
                want = b if want == a else a
            for f in path:
                for y in ends[f]:
                    if at[y][colour[f]] == f:
                        at[y][colour[f]] = -1
            for f in path:
                colour[f] = b if colour[f] == a else a
                for y in ends[f]:
                    at[y][colour[f]] = f
        colour[e] = a
        cu[a] = e
        cv[a] = e
    seated: list[list[tuple[int, ...]]] = []
    e = 0
    for groups in rounds:
        out = []
        for group in groups:
            seats = [0, 0, 0, 0]
            for p in group:
                seats[colour[e]] = p
                e += 1
            out.append(tuple(seats))
        seated.append(out)
    return seated


def _number_cost(group: Sequence[int], number: int, counts: PlaceCounts) -> int:
    cost = 0
    for p in group:
        c = counts.tables.get(p)
        if c:
            k = c.get(number, 0)
            cost += k * k
    return cost


def number_tables(
    groups: Sequence[Sequence[int]],
    pinned: Mapping[int, int],
    counts: PlaceCounts,
    rng: random.Random,
    *,
    ranked: bool,
) -> list[int]:
    """A table number for each group: pinned groups get their pin; the rest either follow the
    groups' order (``ranked``: swiss, leaders on table 1) or go where their players have sat
    least (ties by the seed)."""
    numbers = [0] * len(groups)
    taken: set[int] = set()
    for i, g in enumerate(groups):
        for p in g:
            if p in pinned:
                numbers[i] = pinned[p]
                taken.add(pinned[p])
                break
    free = [t for t in range(1, len(groups) + 1) if t not in taken]
    loose = [i for i in range(len(groups)) if not numbers[i]]
    if ranked:
        for i, t in zip(loose, free, strict=True):
            numbers[i] = t
        return numbers
    rng.shuffle(loose)
    # Greedy: each group takes a number none of its players has had (random among those), else
    # the least-used one; then swaps between groups fix what the greedy order got wrong.
    free_set = set(free)
    for i in loose:
        used: Counter[int] = Counter()
        for p in groups[i]:
            c = counts.tables.get(p)
            if c:
                used.update({t: k * k for t, k in c.items() if t in free_set})
        pick = None
        if len(used) < len(free):
            for _ in range(8):
                t = free[rng.randrange(len(free))]
                if t not in used:
                    pick = t
                    break
            if pick is None:
                unused = [t for t in free if t not in used]
                pick = unused[rng.randrange(len(unused))]
        else:
            pick = min(free, key=lambda t: (used[t], rng.random()))
        numbers[i] = pick
        free.remove(pick)
        free_set.discard(pick)
    cost = {i: _number_cost(groups[i], numbers[i], counts) for i in loose}
    for _ in range(4):
        improved = False
        for i in loose:
            if not cost[i]:
                continue
            best_j, best_delta = None, 0
            for j in loose:
                if j == i:
                    continue
                ci = _number_cost(groups[i], numbers[j], counts)
                cj = _number_cost(groups[j], numbers[i], counts)
                delta = ci + cj - cost[i] - cost[j]
                if delta < best_delta:
                    best_j, best_delta = j, delta
            if best_j is not None:
                j = best_j
                numbers[i], numbers[j] = numbers[j], numbers[i]
                cost[i] = _number_cost(groups[i], numbers[i], counts)
                cost[j] = _number_cost(groups[j], numbers[j], counts)
                improved = True
        if not improved:
            break
    return numbers


def place_round(
    groups: Sequence[Sequence[int]],
    byes: Sequence[int],
    pinned: Mapping[int, int],
    counts: PlaceCounts,
    rng: random.Random,
    *,
    ranked: bool = False,
    seated: bool = False,
) -> RoundSeating:
    """Number the tables and order the seats of one round (unless the groups come ``seated``
    already), then count it in ``counts``."""
    numbers = number_tables(groups, pinned, counts, rng, ranked=ranked)
    tables = sorted(
        (
            TableSeating(t, tuple(g) if seated else order_seats(g, counts, rng))
            for t, g in zip(numbers, groups, strict=True)
        ),
        key=lambda table: table.number,
    )
    rnd = RoundSeating(tables=tuple(tables), byes=tuple(byes))
    counts.add(rnd)
    return rnd


#: In the place costs, a player's spread weighs more than any sum of squares it could trade off
#: against at tournament sizes: the reported figures are worst-player spreads.
_SPREAD = 64


def _seat_cost(row: Sequence[int], seat: int) -> int:
    """What seating a player in ``seat`` adds to their seat cost, given their other rounds."""
    c = row[seat]
    spread_before = max(row) - min(row)
    lowest = min(row) if c != min(row) or row.count(c) > 1 else min(row) + 1
    spread_after = max(max(row), c + 1) - lowest
    return 2 * c + 1 + _SPREAD * (spread_after * spread_after - spread_before * spread_before)


def _table_cost(counts: PlaceCounts, p: int, number: int) -> int:
    """What a round at table ``number`` adds to a player's table-number cost."""
    c = counts.tables.get(p)
    if not c:
        return 1
    k = c.get(number, 0)
    top = max(c.values(), default=0)
    return 2 * k + 1 + _SPREAD * (max(top, k + 1) ** 2 - top * top)


def place_plan(
    rounds: Sequence[tuple[Sequence[Sequence[int]], Sequence[int]]],
    pinned: Mapping[int, int],
    history: Sequence[RoundSeating],
    rng: random.Random,
    passes: int = 40,
) -> list[RoundSeating]:
    """Number and seat a whole plan (``rounds``: groups and byes of each round).

    Round by round first. An early round was placed without knowing the later ones, so then the
    tables of players whose counts are off (a seat spread or a table-number count above what
    their number of rounds forces) are placed again against every other round: changes that
    lower the total cost, or keep it (chosen by the seed), so that the excess moves from player
    to player until two excesses cancel out."""
    counts = PlaceCounts(history)
    if not any(p in counts.seats for groups, _ in rounds for g in groups for p in g):
        # A fresh start: seats can be balanced exactly (see balanced_seats).
        orders = balanced_seats([groups for groups, _ in rounds], rng)
        plan = [
            place_round(order, byes, pinned, counts, rng, seated=True)
            for order, (_, byes) in zip(orders, rounds, strict=True)
        ]
    else:
        plan = [place_round(groups, byes, pinned, counts, rng) for groups, byes in rounds]
    played = Counter(p for rnd in [*history, *plan] for t in rnd.tables for p in t.players)
    tables = len(plan[0].tables) if plan else 0
    fewest, stalled = len(played) + 1, 0
    for _ in range(passes):
        off = {p for p in played if _off(p, played[p], tables, counts, pinned)}
        if len(off) < fewest:
            fewest, stalled = len(off), 0
        else:
            stalled += 1
        if not off or stalled > 3:  # what is left is likely forced by the grouping
            break
        for r, rnd in enumerate(plan):
            if any(p in off for t in rnd.tables for p in t.players):
                counts.remove(rnd)
                plan[r] = _improve_round(rnd, pinned, counts, rng, off)
                counts.add(plan[r])
    return plan


def _off(p: int, played: int, tables: int, counts: PlaceCounts, pinned: Mapping[int, int]) -> bool:
    seats = counts.seat_row(p)
    if max(seats) - min(seats) > (1 if played % 4 else 0):
        return True
    numbers = counts.tables.get(p)
    return (
        p not in pinned
        and numbers is not None
        and max(numbers.values()) > -(-played // max(1, tables))
    )


def _improve_round(
    rnd: RoundSeating,
    pinned: Mapping[int, int],
    counts: PlaceCounts,
    rng: random.Random,
    off: set[int],
) -> RoundSeating:
    """The round re-placed against every other round in ``counts``: table numbers swapped
    between groups and seats reordered within the tables of players in ``off``, wherever that
    costs no more."""
    groups = [list(t.players) for t in rnd.tables]
    numbers = [t.number for t in rnd.tables]
    movable = [i for i, g in enumerate(groups) if not any(p in pinned for p in g)]

    def cost(i: int, number: int) -> int:
        return sum(_table_cost(counts, p, number) for p in groups[i])

    base = {i: cost(i, numbers[i]) for i in movable}
    for i in movable:
        if not any(p in off for p in groups[i]):
            continue
        options = []
        for j in movable:
            if j != i:
                ci, cj = cost(i, numbers[j]), cost(j, numbers[i])
                delta = ci + cj - base[i] - base[j]
                if delta <= 0:
                    options.append((delta, j, ci, cj))
        if options:
            least = min(o[0] for o in options)
            _, j, ci, cj = rng.choice([o for o in options if o[0] == least])
            numbers[i], numbers[j] = numbers[j], numbers[i]
            base[i], base[j] = ci, cj
    placed = []
    for number, group in zip(numbers, groups, strict=True):
        if any(p in off for p in group):
            rows = [counts.seat_row(p) for p in group]
            add = [[_seat_cost(row, seat) for seat in range(4)] for row in rows]
            current = add[0][0] + add[1][1] + add[2][2] + add[3][3]
            options = []
            for perm in _PERMS:
                c = add[0][perm[0]] + add[1][perm[1]] + add[2][perm[2]] + add[3][perm[3]]
                if c <= current:
                    options.append((c, perm))
            least = min(c for c, _ in options)
            perm = rng.choice([p for c, p in options if c == least])
            seated = [0, 0, 0, 0]
            for who, seat in enumerate(perm):
                seated[seat] = group[who]
            group = seated
        placed.append(TableSeating(number, tuple(group)))
    placed.sort(key=lambda t: t.number)
    return RoundSeating(tables=tuple(placed), byes=rnd.byes)
