"""Table numbers and seat order for groups of four that are already decided.

The grouping decides who meets whom; what is left is fairness of place: nobody should keep the
same table number or keep being (or never be) the first dealer. A single round is placed
greedily against the counts so far. A whole plan gets exactly balanced seats from an edge
colouring when it starts fresh, then its rounds are placed again against one another.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence

from .model import RoundSeating, TableSeating
from .timing import TimeLimit

_PERMS = tuple(itertools.permutations(range(4)))


class PlaceCounts:
    """Seat and table-number counts per player, over the rounds seen so far, and who has sat at
    each table number (``at``: number -> players counted there at least once)."""

    def __init__(self, rounds: Sequence[RoundSeating] = ()) -> None:
        self.seats: dict[int, list[int]] = {}
        self.tables: dict[int, Counter[int]] = {}
        self.at: dict[int, set[int]] = {}
        for rnd in rounds:
            self.add(rnd)

    def add(self, rnd: RoundSeating) -> None:
        seats, tables, at = self.seats, self.tables, self.at
        for table in rnd.tables:
            number = table.number
            there = at.get(number)
            if there is None:
                there = at[number] = set()
            for seat, p in enumerate(table.players):
                row = seats.get(p)
                if row is None:
                    row = seats[p] = [0, 0, 0, 0]
                row[seat] += 1
                c = tables.get(p)
                if c is None:
                    c = tables[p] = Counter()
                c[number] += 1
                there.add(p)

    def remove(self, rnd: RoundSeating) -> None:
        seats, tables, at = self.seats, self.tables, self.at
        for table in rnd.tables:
            number = table.number
            there = at[number]
            for seat, p in enumerate(table.players):
                seats[p][seat] -= 1
                c = tables[p]
                c[number] -= 1
                if c[number] <= 0:
                    there.discard(p)

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
    limit: TimeLimit | None = None,
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
            if limit is not None:  # this group is compared with every other one
                limit.check()
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
    limit: TimeLimit | None = None,
) -> RoundSeating:
    """Number the tables and order the seats of one round (unless the groups come ``seated``
    already), then count it in ``counts``."""
    if limit is not None:
        limit.check()
    numbers = number_tables(groups, pinned, counts, rng, ranked=ranked, limit=limit)
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


def _seat_costs(row: Sequence[int]) -> list[int]:
    """What seating a player in each seat adds to their seat cost, given their other rounds
    (``row``: their count in each seat): the square of the count, and their spread weighed by
    ``_SPREAD``."""
    top, low = max(row), min(row)
    lows = row.count(low)
    before = (top - low) * (top - low)
    out = []
    for c in row:
        after = max(top, c + 1) - (low if c != low or lows > 1 else low + 1)
        out.append(2 * c + 1 + _SPREAD * (after * after - before))
    return out


def place_plan(
    rounds: Sequence[tuple[Sequence[Sequence[int]], Sequence[int]]],
    pinned: Mapping[int, int],
    history: Sequence[RoundSeating],
    rng: random.Random,
    limit: TimeLimit,
    passes: int = 40,
) -> list[RoundSeating]:
    """Number and seat a whole plan (``rounds``: groups and byes of each round).

    Round by round first. An early round was placed without knowing the later ones, so then the
    tables of players whose counts are off (a seat spread or a table-number count above what
    their number of rounds forces) are placed again against every other round: changes that
    lower the total cost, or keep it (chosen by the seed), so that the excess moves from player
    to player until two excesses cancel out. Raises past ``limit``."""
    counts = PlaceCounts(history)
    if not any(p in counts.seats for groups, _ in rounds for g in groups for p in g):
        # A fresh start: seats can be balanced exactly (see balanced_seats).
        limit.check()
        orders = balanced_seats([groups for groups, _ in rounds], rng)
        limit.check()
        plan = [
            place_round(order, byes, pinned, counts, rng, seated=True, limit=limit)
            for order, (_, byes) in zip(orders, rounds, strict=True)
        ]
    else:
        plan = [
            place_round(groups, byes, pinned, counts, rng, limit=limit) for groups, byes in rounds
        ]
    played = Counter(p for rnd in [*history, *plan] for t in rnd.tables for p in t.players)
    tables = len(plan[0].tables) if plan else 0
    fewest, stalled = len(played) + 1, 0
    for _ in range(passes):
        limit.check()
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
                plan[r] = _improve_round(rnd, pinned, counts, rng, off, limit)
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


class _Ties:
    """The tied partners of a number swap in ascending table order, as a sequence that
    ``random.Random.choice`` can pick from without the list being built: ``common`` (sorted)
    less ``dropped``, plus the few ``extra`` ones (sorted, none of them in ``common``)."""

    __slots__ = ("common", "dropped", "extra", "size", "end")

    def __init__(self, common: list[int], dropped: list[int], extra: list[int], end: int) -> None:
        self.common, self.dropped, self.extra = common, dropped, extra
        self.size = len(common) - len(dropped) + len(extra)
        self.end = end  # every tie is below it

    def __len__(self) -> int:
        return self.size

    def _at_most(self, v: int) -> int:
        """How many of the ties are ``<= v``."""
        return (
            bisect.bisect_right(self.common, v)
            - bisect.bisect_right(self.dropped, v)
            + bisect.bisect_right(self.extra, v)
        )

    def __getitem__(self, k: int) -> int:
        if not self.dropped and not self.extra:
            return self.common[k]
        if not self.common:
            return self.extra[k]
        # The k-th tie is the least v with k + 1 ties at most v.
        lo, hi = 0, self.end - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self._at_most(mid) > k:
                hi = mid
            else:
                lo = mid + 1
        return lo


def _improve_round(
    rnd: RoundSeating,
    pinned: Mapping[int, int],
    counts: PlaceCounts,
    rng: random.Random,
    off: set[int],
    limit: TimeLimit,
) -> RoundSeating:
    """The round re-placed against every other round in ``counts``: table numbers swapped
    between groups and seats reordered within the tables of players in ``off``, wherever that
    costs no more.

    Each group of ``off`` players takes the swap of numbers that lowers the cost most (ties by
    the seed). Comparing it with every other group is what a round of a thousand tables cannot
    afford, so the cost is split: at a number none of its players has had, a group costs the
    same whatever the number; the few numbers its players have had add an extra. A swap with a
    group that none of this group's numbers touch then changes the cost by the extras the two
    groups give up (their gains), the same for every such partner: groups are kept sorted by
    gain, and only the partners touched by a number are costed one by one. The choice is the
    one comparing every pair would make, ties and the seeded draw included."""
    groups = [list(t.players) for t in rnd.tables]
    numbers = [t.number for t in rnd.tables]
    movable = [i for i, g in enumerate(groups) if not any(p in pinned for p in g)]
    hot = [any(p in off for p in g) for g in groups]  # a table with a player in ``off``
    tables = counts.tables
    spread = _SPREAD

    # A player's cost at a number they have never had (k = 0) does not depend on the number:
    # 1, or 1 + _SPREAD if their counts are all 0. At a number they have had k > 0 times, so
    # that their most-used count ``top`` >= 1, it is that plus 2k, plus _SPREAD * (2k + 1) when
    # k is their top (the round would raise it): only such extras differ between numbers.
    top_of: dict[int, int] = {}  # filled as needed
    group_of: dict[int, int] = {}

    def above(i: int, number: int) -> int:
        """What group i costs at ``number`` beyond its cost at a number none of them had."""
        e = 0
        for p in groups[i]:
            c = tables.get(p)
            if c:
                k = c.get(number, 0)
                if k > 0:
                    top = top_of.get(p)
                    if top is None:
                        top = top_of[p] = max(c.values())
                    e += 2 * k + spread * (2 * k + 1) if k == top else 2 * k
        return e

    gain = [0] * len(groups)  # less the extras at its number now: what a move gives up
    for i in movable:
        for p in groups[i]:
            group_of[p] = i
        gain[i] = -above(i, numbers[i])

    holder = {numbers[i]: i for i in movable}
    # Movable groups by gain, each list in ascending table order, and the gains in order.
    by_gain: dict[int, list[int]] = {}
    for i in movable:
        by_gain.setdefault(gain[i], []).append(i)
    gains = sorted(by_gain)

    def regain(i: int, new: int) -> None:
        old = by_gain[gain[i]]
        del old[bisect.bisect_left(old, i)]
        if not old:
            del by_gain[gain[i]]
            del gains[bisect.bisect_left(gains, gain[i])]
        gain[i] = new
        if new in by_gain:
            bisect.insort(by_gain[new], i)
        else:
            by_gain[new] = [i]
            bisect.insort(gains, new)

    for step, i in enumerate(movable):
        if step % 64 == 0:
            limit.check()
        if not hot[i]:
            continue
        gain_i, number_i = gain[i], numbers[i]
        # What group i would cost beyond zero at each number its players have had.
        above_i: dict[int, int] = {}
        for p in groups[i]:
            c = tables.get(p)
            if c:
                top = top_of.get(p)
                if top is None:
                    top = top_of[p] = max(c.values())
                for number, k in c.items():
                    if k > 0:
                        e = 2 * k + spread * (2 * k + 1) if k == top else 2 * k
                        above_i[number] = above_i.get(number, 0) + e
        # The partners touched by a number: the holder of one that i's players have had, or a
        # group with a player who had i's number. A swap with any other partner costs the two
        # gains, and the best of those is the lowest gain with a group left once i and the
        # touched groups are set aside.
        touched = {holder[n] for n in above_i if n in holder}
        touched.update(group_of[q] for q in counts.at.get(number_i, ()) if q in group_of)
        touched.discard(i)
        least: int | None = None
        for g in gains:
            if gain_i + g > 0:
                break
            if any(j not in touched and j != i for j in by_gain[g]):
                least = gain_i + g
                break
        # A touched partner costs strictly more than the two gains (the extras are positive),
        # so most are passed over before their own extra is counted.
        bound = 0 if least is None else least
        extra_ties: list[int] = []
        for j in touched:
            delta = gain_i + gain[j]
            if delta >= bound:
                continue
            delta += above_i.get(numbers[j], 0)
            if delta > bound:
                continue
            delta += above(j, number_i)
            if delta > bound:
                continue
            if least is None or delta < least:
                least = bound = delta
                extra_ties = [j]
            else:
                extra_ties.append(j)
        if least is None:
            continue
        want = least - gain_i
        common = by_gain.get(want, [])
        if common:
            dropped = [j for j in touched if gain[j] == want]
            if gain_i == want:
                dropped.append(i)
            dropped.sort()
        else:
            dropped = []
        extra_ties.sort()
        j = rng.choice(_Ties(common, dropped, extra_ties, len(groups)))
        number_j = numbers[j]
        new_i = -above_i.get(number_j, 0)
        regain(j, -above(j, number_i))
        regain(i, new_i)
        numbers[i], numbers[j] = number_j, number_i
        holder[number_j], holder[number_i] = i, j
    placed = []
    for number, group, is_hot in zip(numbers, groups, hot, strict=True):
        if is_hot:
            add = [_seat_costs(counts.seat_row(p)) for p in group]
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
