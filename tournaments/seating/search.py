"""Grouping players four to a table over one or more rounds with as few repeat meetings as
possible: greedy fills to start from, then swaps between tables (and with players on a bye),
chosen by a steepest-descent tabu search and, for what a whole plan still repeats, by simulated
annealing.

Players are the indices 0..n-1 here; the caller maps them to ids. Everything random draws from
the ``random.Random`` passed in, and the search stops on a count of evaluated moves, so the same
input gives the same grouping on any machine. The searches look at the round's time limit now
and then and past it raise ``seating_timeout`` (timing.py): the clock can turn a search into an
error, never cut it short into another grouping.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from .timing import TimeLimit

Group = list[int]
Round = list[Group]

#: Cost of a pair that met m times: each meeting after the first weighs _REPEAT, and a third or
#: later meeting weighs a little more again, so unavoidable repeats are spread over many pairs
#: (a lower ``max_meetings``) before anything else. Displacement (swiss) is counted in units.
_REPEAT = 1 << 32
_PILE_UP = 1 << 20
#: Share of annealing moves that swap a player with one on a bye (where the round has byes).
_BYE_MOVES = 0.25
#: Annealing temperatures, in repeats: early on a move that adds one repeat is taken about one
#: time in twelve, at the end about one in 22,000.
_T_START = 0.4
_T_END = 0.1


def _cost_tables(max_meetings: int) -> tuple[list[int], list[int], list[int]]:
    size = max_meetings + 3
    cost = [0, 0] + [(m - 1) * _REPEAT + (m - 1) * (m - 2) // 2 * _PILE_UP for m in range(2, size)]
    inc = [cost[m + 1] - cost[m] for m in range(size - 1)]
    dec = [0] + [cost[m - 1] - cost[m] for m in range(1, size - 1)]
    return cost, inc, dec


class Schedule:
    """Rounds of groups being searched, with the meeting counts they and the history make.

    ``labels[p]`` is the table a player is pinned to (0: none). Players with one label must sit
    together and players with different labels apart; every move keeps that so.
    ``ideal[p]`` (swiss, single round) is the group index the player's standing asks for; the
    distance from it is added to the cost (sitting out counts as the group past the last).
    Players on a bye may trade places with seated ones as long as the byes stay fair: fewest
    byes so far first, counting from ``bye_base``.
    """

    def __init__(
        self,
        n: int,
        history_pairs: Mapping[int, int],
        labels: Sequence[int],
        rng: random.Random,
        *,
        max_meetings: int,
        ideal: Sequence[int] | None = None,
        bye_base: Sequence[int] | None = None,
        limit: TimeLimit | None = None,
    ) -> None:
        self.n = n
        self.rng = rng
        self.labels = list(labels)
        self.has_labels = any(self.labels)
        self.ideal = list(ideal) if ideal is not None else None
        self.cost_of, self.inc, self.dec = _cost_tables(max_meetings)
        self.hist = dict(history_pairs)
        #: byes each player had before the first round here, for the fairness of bye moves
        self.bye_base = list(bye_base) if bye_base is not None else [0] * n
        self.evals = 0
        #: looked at while the meeting table (n x n) is built, which takes seconds at 16,384
        self.limit = limit
        self._reset()

    def _reset(self) -> None:
        n, limit = self.n, self.limit
        self.rows = []
        for i in range(n):
            if limit is not None and i % 128 == 0:
                limit.check()
            self.rows.append([0] * n)
        for key, m in self.hist.items():
            i, j = divmod(key, n)
            self.rows[i][j] = self.rows[j][i] = m
        self.rounds: list[Round] = []
        self.byes: list[list[int]] = []
        self.where: list[list[int]] = []
        self.tabu: list[list[int]] = []
        self.bad: list[int] = []  # pairs (i * n + j, i < j) met twice or more, once in a round here
        self.bad_at: dict[int, int] = {}
        self.cost = 0
        self.repeats = 0
        for m in self.hist.values():
            self.cost += self.cost_of[m]
            self.repeats += max(0, m - 1)

    # --- building -------------------------------------------------------------------------
    def add_round(self, groups: Round, byes: Sequence[int] = ()) -> None:
        where = [-1] * self.n
        for g, group in enumerate(groups):
            for p in group:
                where[p] = g
            for i in range(len(group)):
                for j in range(i + 1, len(group)):
                    self._bump(group[i], group[j], 1)
            if self.ideal is not None:
                self.cost += sum(abs(g - self.ideal[p]) for p in group)
        if self.ideal is not None:
            self.cost += sum(abs(len(groups) - self.ideal[p]) for p in byes)
        self.rounds.append(groups)
        self.byes.append(list(byes))
        self.where.append(where)
        self.tabu.append([0] * self.n)

    def _bump(self, i: int, j: int, step: int) -> None:
        row_i = self.rows[i]
        m = row_i[j]
        new = m + step
        row_i[j] = new
        self.rows[j][i] = new
        self.cost += self.cost_of[new] - self.cost_of[m]
        self.repeats += max(0, new - 1) - max(0, m - 1)
        key = i * self.n + j if i < j else j * self.n + i
        h = self.hist.get(key, 0)
        was = m >= 2 and m > h
        now = new >= 2 and new > h
        if was != now:
            if now:
                self.bad_at[key] = len(self.bad)
                self.bad.append(key)
            else:
                at = self.bad_at.pop(key)
                last = self.bad.pop()
                if last != key:
                    self.bad[at] = last
                    self.bad_at[last] = at

    def snapshot(self) -> tuple[list[Round], list[list[int]]]:
        return [[list(g) for g in rnd] for rnd in self.rounds], [list(b) for b in self.byes]

    def _restore(self, snap: tuple[list[Round], list[list[int]]]) -> None:
        rounds, byes = snap
        self._reset()
        for groups, out in zip(rounds, byes, strict=True):
            self.add_round(groups, out)

    def byes_fair(self, start: int) -> bool:
        """Whether every round from ``start`` on gives its byes to players with the fewest byes
        so far among those not pinned (pinned players sit out only when nobody else can)."""
        counts = list(self.bye_base)
        labels = self.labels
        for r, out in enumerate(self.byes):
            if r >= start and out:
                sitting = set(out)
                playing = [p for p in range(self.n) if p not in sitting and not labels[p]]
                if playing and (
                    any(labels[p] for p in out)
                    or max(counts[p] for p in out) > min(counts[p] for p in playing)
                ):
                    return False
            for p in out:
                counts[p] += 1
        return True

    def swap_bye(self, r: int, a: int, b: int) -> None:
        """a (seated) sits out round r and b (on a bye) takes a's seat."""
        groups, where = self.rounds[r], self.where[r]
        ga = where[a]
        group = groups[ga]
        for x in group:
            if x != a:
                self._bump(a, x, -1)
                self._bump(b, x, 1)
        if self.ideal is not None:
            out_at, ia, ib = len(groups), self.ideal[a], self.ideal[b]
            self.cost += abs(ga - ib) + abs(out_at - ia) - abs(ga - ia) - abs(out_at - ib)
        group[group.index(a)] = b
        out = self.byes[r]
        out[out.index(b)] = a
        where[a], where[b] = -1, ga

    # --- moves -----------------------------------------------------------------------------
    def pins_allow(self, groups: Round, ga: int, a: int, gb: int, b: int) -> bool:
        """Whether swapping a (group ga) with b (group gb) keeps pinned players as pinned."""
        labels = self.labels
        la, lb = labels[a], labels[b]
        if la == lb:
            return True
        if la:
            if any(x != a and labels[x] == la for x in groups[ga]):
                return False  # would split a's table from the others pinned there
            if any(y != b and labels[y] and labels[y] != la for y in groups[gb]):
                return False
        if lb:
            if any(y != b and labels[y] == lb for y in groups[gb]):
                return False
            if any(x != a and labels[x] and labels[x] != lb for x in groups[ga]):
                return False
        return True

    def delta(self, r: int, a: int, b: int) -> int:
        groups, where = self.rounds[r], self.where[r]
        ga, gb = where[a], where[b]
        ra, rb, inc, dec = self.rows[a], self.rows[b], self.inc, self.dec
        d = 0
        for x in groups[ga]:
            if x != a:
                d += dec[ra[x]] + inc[rb[x]]
        for y in groups[gb]:
            if y != b:
                d += dec[rb[y]] + inc[ra[y]]
        if self.ideal is not None:
            ia, ib = self.ideal[a], self.ideal[b]
            d += abs(gb - ia) + abs(ga - ib) - abs(ga - ia) - abs(gb - ib)
        self.evals += 1
        return d

    def best_swap(self, r: int, a: int, it: int, best_cost: int) -> tuple[int | None, int, bool]:
        """The best partner b for a in round r: (b, cost change, b is on a bye); ties between
        tables broken at random.

        Tabu players are skipped unless the swap beats the best cost seen (aspiration)."""
        groups, where, tabu = self.rounds[r], self.where[r], self.tabu[r]
        inc, dec, rows, ideal = self.inc, self.dec, self.rows, self.ideal
        ga = where[a]
        x1, x2, x3 = (x for x in groups[ga] if x != a)
        ra = rows[a]
        da = dec[ra[x1]] + dec[ra[x2]] + dec[ra[x3]]
        a_tabu = tabu[a] > it
        ia = ideal[a] if ideal is not None else 0
        best_b, best_d, ties = None, 0, 0
        labels = self.labels if self.has_labels else None
        for gb, group in enumerate(groups):
            if gb == ga:
                continue
            b0, b1, b2, b3 = group
            ia_b = inc[ra[b0]] + inc[ra[b1]] + inc[ra[b2]] + inc[ra[b3]]
            for b in group:
                rb = rows[b]
                d = (
                    da + ia_b - inc[ra[b]]
                    + inc[rb[x1]] + inc[rb[x2]] + inc[rb[x3]]
                    + dec[rb[b0]] + dec[rb[b1]] + dec[rb[b2]] + dec[rb[b3]]
                )  # fmt: skip
                if ideal is not None:
                    ib = ideal[b]
                    d += abs(gb - ia) + abs(ga - ib) - abs(ga - ia) - abs(gb - ib)
                if (a_tabu or tabu[b] > it) and self.cost + d >= best_cost:
                    continue
                if best_b is not None and d > best_d:
                    continue
                if labels is not None and not self.pins_allow(groups, ga, a, gb, b):
                    continue
                if best_b is None or d < best_d:
                    best_b, best_d, ties = b, d, 1
                else:
                    ties += 1
                    if self.rng.randrange(ties) == 0:
                        best_b = b
        self.evals += len(groups) * 4
        # Or a sits out and someone on a bye takes the seat (sitting out counts as one table
        # past the last for the displacement).
        best_out = False
        out_at = len(groups)
        for b in self.byes[r]:
            if self.labels[a] or self.labels[b]:
                continue
            rb = rows[b]
            d = da + inc[rb[x1]] + inc[rb[x2]] + inc[rb[x3]]
            if ideal is not None:
                ib = ideal[b]
                d += abs(ga - ib) + abs(out_at - ia) - abs(ga - ia) - abs(out_at - ib)
            if (a_tabu or tabu[b] > it) and self.cost + d >= best_cost:
                continue
            if best_b is not None and d >= best_d:
                continue
            self.swap_bye(r, a, b)
            fair = self.byes_fair(r)
            self.swap_bye(r, b, a)
            if fair:
                best_b, best_d, best_out = b, d, True
        return best_b, best_d, best_out

    def swap(self, r: int, a: int, b: int) -> None:
        groups, where = self.rounds[r], self.where[r]
        ga, gb = where[a], where[b]
        A, B = groups[ga], groups[gb]
        for x in A:
            if x != a:
                self._bump(a, x, -1)
                self._bump(b, x, 1)
        for y in B:
            if y != b:
                self._bump(b, y, -1)
                self._bump(a, y, 1)
        if self.ideal is not None:
            ia, ib = self.ideal[a], self.ideal[b]
            self.cost += abs(gb - ia) + abs(ga - ib) - abs(ga - ia) - abs(gb - ib)
        A[A.index(a)] = b
        B[B.index(b)] = a
        where[a], where[b] = gb, ga

    # --- search ----------------------------------------------------------------------------
    def tabu_search(self, *, max_evals: int, limit: TimeLimit, target_repeats: int = 0) -> None:
        """Swap players out of repeated pairs until none is left (or the lower bound, or the
        budget, is reached); keeps the best grouping seen. Raises past ``limit``."""
        if not self.bad or len(self.rounds[0]) < 2:
            return
        rng, n, nrounds = self.rng, self.n, len(self.rounds)
        best_cost, best = self.cost, self.snapshot()
        best_evals = self.evals
        stop = self.evals + max_evals
        it = 0
        while self.bad and self.repeats > target_repeats and self.evals < stop:
            it += 1
            if it % 32 == 0:
                limit.check()
            key = self.bad[rng.randrange(len(self.bad))]
            i, j = divmod(key, n)
            shared = [
                r
                for r in range(nrounds)
                if self.where[r][i] >= 0 and self.where[r][i] == self.where[r][j]
            ]
            r = shared[rng.randrange(len(shared))]
            a = i if rng.random() < 0.5 else j
            b, _d, out = self.best_swap(r, a, it, best_cost)
            if b is None:
                continue
            if out:
                self.swap_bye(r, a, b)
            else:
                self.swap(r, a, b)
            tenure = rng.randint(2, 10)
            self.tabu[r][a] = it + tenure
            self.tabu[r][b] = it + tenure
            if self.cost < best_cost:
                best_cost, best, best_evals = self.cost, self.snapshot(), self.evals
            elif self.evals - best_evals > 40 * n * max(1, nrounds):
                # Stuck: a few random swaps in the conflicted rounds shake the search loose.
                self._perturb(rng.randint(1, 3))
                best_evals = self.evals
        if self.cost > best_cost:
            self._restore(best)

    def anneal(self, *, moves: int, limit: TimeLimit, target_repeats: int = 0) -> None:
        """Simulated annealing over all rounds at once: a player of a repeated pair swaps with a
        random player of another table in a round where the pair meets; worse schedules are
        accepted with a probability that shrinks as the temperature falls. Keeps the best.
        Raises past ``limit``."""
        if not self.bad:
            return
        rng, n, nrounds = self.rng, self.n, len(self.rounds)
        rows, wheres, rounds, bad = self.rows, self.where, self.rounds, self.bad
        inc, dec, rand, has_labels = self.inc, self.dec, rng.random, self.has_labels
        byes, labels = self.byes, self.labels
        tables = len(rounds[0])
        if tables < 2:
            return
        best_cost, best = self.cost, self.snapshot()
        scale = 1.0
        for it in range(moves):
            if not bad or self.repeats <= target_repeats:
                break
            if it % 1024 == 0:
                limit.check()
                temperature = _T_START * (_T_END / _T_START) ** (it / moves)
                scale = 1.0 / (temperature * _REPEAT)
            i, j = divmod(bad[int(rand() * len(bad))], n)
            r = int(rand() * nrounds)
            for _ in range(nrounds):  # a round where i and j meet, from a random start
                w = wheres[r]
                ga = w[i]
                if ga >= 0 and ga == w[j]:
                    break
                r = r + 1 if r + 1 < nrounds else 0
            a = i if rand() < 0.5 else j
            groups = rounds[r]
            out = byes[r]
            if out and rand() < _BYE_MOVES:
                # a sits out instead of someone on a bye, if the byes stay fair
                b = out[int(rand() * len(out))]
                if has_labels and (labels[a] or labels[b]):
                    continue
                ra, rb = rows[a], rows[b]
                a0, a1, a2, a3 = groups[ga]
                d = (
                    dec[ra[a0]] + dec[ra[a1]] + dec[ra[a2]] + dec[ra[a3]]
                    + inc[rb[a0]] + inc[rb[a1]] + inc[rb[a2]] + inc[rb[a3]]
                    - inc[rb[a]]
                )  # fmt: skip
                if d > 0 and rand() >= math.exp(-d * scale):
                    continue
                # Fair only if the two had sat out equally often before this round (cheap to
                # see); the rounds after it are checked in full.
                if sum(w[a] < 0 for w in wheres[:r]) - sum(w[b] < 0 for w in wheres[:r]) != (
                    self.bye_base[b] - self.bye_base[a]
                ):
                    continue
                self.swap_bye(r, a, b)
                if not self.byes_fair(r):
                    self.swap_bye(r, b, a)
                    continue
                if self.cost < best_cost:
                    best_cost, best = self.cost, self.snapshot()
                continue
            gb = int(rand() * (tables - 1))
            if gb >= ga:
                gb += 1
            b = groups[gb][int(rand() * 4)]
            ra, rb = rows[a], rows[b]
            a0, a1, a2, a3 = groups[ga]
            b0, b1, b2, b3 = groups[gb]
            # The same sums as delta(), unrolled: rows[p][p] is 0 and dec[0] is 0, and the a-b
            # pair (counted once in each direction) is taken back out.
            d = (
                dec[ra[a0]] + dec[ra[a1]] + dec[ra[a2]] + dec[ra[a3]]
                + inc[rb[a0]] + inc[rb[a1]] + inc[rb[a2]] + inc[rb[a3]]
                + dec[rb[b0]] + dec[rb[b1]] + dec[rb[b2]] + dec[rb[b3]]
                + inc[ra[b0]] + inc[ra[b1]] + inc[ra[b2]] + inc[ra[b3]]
                - 2 * inc[ra[b]]
            )  # fmt: skip
            if d > 0 and rand() >= math.exp(-d * scale):
                continue
            if has_labels and not self.pins_allow(groups, ga, a, gb, b):
                continue
            self.swap(r, a, b)
            if self.cost < best_cost:
                best_cost, best = self.cost, self.snapshot()
        self.evals += moves
        if self.cost > best_cost:
            self._restore(best)

    def _perturb(self, moves: int) -> None:
        rng = self.rng
        for _ in range(moves):
            key = self.bad[rng.randrange(len(self.bad))] if self.bad else None
            if key is None:
                return
            i, _j = divmod(key, self.n)
            rounds = [r for r in range(len(self.rounds)) if self.where[r][i] >= 0]
            r = rounds[rng.randrange(len(rounds))]
            groups, where = self.rounds[r], self.where[r]
            for _ in range(20):
                gb = rng.randrange(len(groups))
                b = groups[gb][rng.randrange(4)]
                if gb != where[i] and (
                    not self.has_labels or self.pins_allow(groups, where[i], i, gb, b)
                ):
                    self.swap(r, i, b)
                    break

    def settle(self, *, max_evals: int, limit: TimeLimit) -> None:
        """Swiss: move players back toward the table their standing asks for, by swaps that
        lower the cost (so never at the price of a repeat)."""
        assert self.ideal is not None and len(self.rounds) == 1
        groups, where, ideal = self.rounds[0], self.where[0], self.ideal
        stop = self.evals + max_evals
        improved = True
        while improved and self.evals < stop:
            improved = False
            for a in range(self.n):
                if a % 256 == 0:
                    limit.check()
                ga = where[a]
                want = min(ideal[a], len(groups) - 1)  # a player due a bye wants the last table
                if ga < 0 or ga == want:
                    continue
                step = 1 if ga > want else -1
                for gb in range(want, ga, step):
                    for b in groups[gb]:
                        if self.delta(0, a, b) < 0 and (
                            not self.has_labels or self.pins_allow(groups, ga, a, gb, b)
                        ):
                            self.swap(0, a, b)
                            improved = True
                            break
                    if where[a] != ga:
                        break


def fill_groups(
    rows: list[list[int]],
    order: Sequence[int],
    seeds: Mapping[int, Sequence[int]],
    tables: int,
    *,
    limit: TimeLimit | None = None,
) -> Round:
    """Greedy: group by group, start from the seed (players pinned together) or the first player
    left, then take the first players in ``order`` nobody at the table has met; if there are
    none, the one with fewest meetings there (the first of those)."""
    pool = list(order)
    groups: Round = []
    for g in range(tables):
        if limit is not None and g % 8 == 0:
            limit.check()
        group = list(seeds.get(g, ()))
        if not group:
            group.append(pool.pop(0))
        while len(group) < 4:
            pick = -1
            for k, c in enumerate(pool):
                rc = rows[c]
                for x in group:
                    if rc[x]:
                        break
                else:
                    pick = k
                    break
            if pick < 0:
                scores = [sum(rows[c][x] for x in group) for c in pool]
                pick = scores.index(min(scores))
            group.append(pool.pop(pick))
        groups.append(group)
    return groups
