"""最少转账: the fewest payments that settle an evening's nets (pure Python, no Django).

Given each person's net (integers summing to zero), find transfers ``(payer, payee, amount)``
that bring every net to zero, as few as possible.

Why ``n − k``: split the people with a non-zero net into groups that each sum to zero. A group
of ``m`` people settles in ``m − 1`` transfers (a chain: the running balance passes from one to
the next), and no set of transfers does better, since every transfer joins at most two groups of
a graph whose connected parts must each sum to zero. So the minimum is ``n − k`` where ``k`` is
the largest number of disjoint zero-sum groups the ``n`` non-zero people can be split into.

Exact up to :data:`EXACT_LIMIT` non-zero people: a dynamic programme over subsets (``2^n``
states; 14 people are 16,384 states) finds the largest ``k`` and the groups. Beyond it, a
documented greedy: pair equal and opposite amounts first (each such pair is a group of two,
which every optimum may use), then settle the rest largest debtor to largest creditor. The
greedy never makes more than ``n − 1`` transfers, but may miss larger zero-sum groups.

Deterministic: the people are ordered by (net, key) before anything is chosen, every loop runs
in that order, and the result is sorted (payer, payee) by their position in the input.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import NamedTuple

#: the most non-zero people settled exactly (the subset programme is 2^n states)
EXACT_LIMIT = 14


class Transfer(NamedTuple):
    payer: Hashable
    payee: Hashable
    amount: int


def settle(nets: Mapping[Hashable, int]) -> list[Transfer]:
    """The fewest transfers that bring every net to zero (exact up to ``EXACT_LIMIT``).

    ``nets``: person → net (positive: is owed; negative: owes), integers summing to zero.
    Order of the answer: by the payer's then the payee's position in ``nets``.
    """
    if any(not isinstance(v, int) or isinstance(v, bool) for v in nets.values()):
        raise TypeError("nets are whole numbers")
    if sum(nets.values()) != 0:
        raise ValueError(f"nets sum to {sum(nets.values())}, not 0")
    position = {key: i for i, key in enumerate(nets)}
    people = sorted((k for k, v in nets.items() if v), key=lambda k: (nets[k], position[k]))
    if len(people) <= EXACT_LIMIT:
        groups = _best_groups(people, nets)
    else:
        groups = _greedy_groups(people, nets)
    out = [t for group in groups for t in _chain(group, nets)]
    return sorted(out, key=lambda t: (position[t.payer], position[t.payee]))


def _best_groups(people: list, nets: Mapping) -> list[list]:
    """The largest number of disjoint zero-sum groups covering everyone (subset DP).

    ``best[mask]`` = most zero-sum groups the people in ``mask`` split into (``mask`` itself
    summing to zero). Building up by adding one person at a time: a mask summing to zero gains
    a group whenever it closes one, so ``best[mask] = max(best[mask − i]) + (sum(mask) == 0)``.
    The groups are read back by walking from the full mask.
    """
    n = len(people)
    if n == 0:
        return []
    amounts = [nets[p] for p in people]
    full = (1 << n) - 1
    total = [0] * (1 << n)
    best = [0] * (1 << n)
    came = [0] * (1 << n)  # the person removed on the best path to mask
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        top, pick = -1, 0
        for i in range(n):
            bit = 1 << i
            if mask & bit and best[mask ^ bit] > top:
                top, pick = best[mask ^ bit], i
        best[mask] = top + (1 if total[mask] == 0 else 0)
        came[mask] = pick
    # walk back: the people removed since the last zero-sum mask form one group
    groups, current, mask = [], [], full
    while mask:
        i = came[mask]
        current.append(people[i])
        mask ^= 1 << i
        if total[mask] == 0:
            groups.append(current)
            current = []
    return [sorted(g, key=people.index) for g in reversed(groups)]


def _greedy_groups(people: list, nets: Mapping) -> list[list]:
    """Beyond the exact limit: equal and opposite pairs as groups of two, everyone else one
    group (settled largest debtor to largest creditor by :func:`_chain`)."""
    groups, rest = [], list(people)
    by_amount: dict[int, list] = {}
    for p in people:
        by_amount.setdefault(nets[p], []).append(p)
    for p in people:
        if nets[p] >= 0 or p not in rest:
            continue
        partners = [q for q in by_amount.get(-nets[p], []) if q in rest]
        if partners:
            q = partners[0]
            groups.append([p, q])
            rest.remove(p)
            rest.remove(q)
    if rest:
        groups.append(rest)
    return groups


def _chain(group: list, nets: Mapping) -> list[Transfer]:
    """A zero-sum group settled in ``len(group) − 1`` transfers: the largest debtor pays the
    largest creditor as much as both allow, until all are square (each step settles at least
    one person, the last settles two)."""
    balance = {p: nets[p] for p in group}
    order = {p: i for i, p in enumerate(group)}
    out = []
    while True:
        debtors = [p for p in group if balance[p] < 0]
        creditors = [p for p in group if balance[p] > 0]
        if not debtors:
            return out
        payer = min(debtors, key=lambda p: (balance[p], order[p]))
        payee = max(creditors, key=lambda p: (balance[p], -order[p]))
        amount = min(-balance[payer], balance[payee])
        out.append(Transfer(payer, payee, amount))
        balance[payer] += amount
        balance[payee] -= amount
