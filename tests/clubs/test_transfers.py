"""最少转账: hand-worked cases of the fewest transfers that settle an evening (clubs.transfers)."""

from __future__ import annotations

import itertools
import random

import pytest

from clubs.transfers import EXACT_LIMIT, Transfer, settle


def applied(nets: dict, transfers: list[Transfer]) -> dict:
    """The nets after the transfers: a payer's net rises by what he pays, a payee's falls."""
    out = dict(nets)
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        out[t.payer] += t.amount
        out[t.payee] -= t.amount
    return out


def brute_force_minimum(nets: dict) -> int:
    """The fewest transfers by trying every partition into zero-sum groups (tiny inputs)."""
    people = [p for p, v in nets.items() if v]
    best = 0

    def split(rest, groups):
        nonlocal best
        if not rest:
            best = max(best, groups)
            return
        first, others = rest[0], rest[1:]
        for r in range(len(others) + 1):
            for combo in itertools.combinations(others, r):
                if nets[first] + sum(nets[p] for p in combo) == 0:
                    split([p for p in others if p not in combo], groups + 1)

    split(people, 0)
    return len(people) - best


def test_two_matching_pairs_take_two_transfers_not_three():
    # +5 +3 −5 −3: {A, C} and {B, D} each sum to zero: two groups of two, one transfer each
    # (C pays A 5, D pays B 3): 4 − 2 = 2 transfers. A chain that lets D pay A first (3, then
    # C pays A 2 and C pays B 3) would take three.
    nets = {"A": 5, "B": 3, "C": -5, "D": -3}
    assert settle(nets) == [Transfer("C", "A", 5), Transfer("D", "B", 3)]


def test_groups_are_found_where_they_exist_and_only_there():
    # +7 +3 −4 −6: no part of it sums to zero but the whole (7 ≠ 4, 6, 10; 3 ≠ 4, 6, 10), so
    # one group of four: 4 − 1 = 3 transfers.
    assert len(settle({"A": 7, "B": 3, "C": -4, "D": -6})) == 3
    # +4 +3 −2 −2 −3: {+3, −3} and {+4, −2, −2} are zero-sum groups: (2 − 1) + (3 − 1) = 3
    # transfers, where a chain through all five would take 4: E pays B 3, C and D pay A 2 each.
    nets = {"A": 4, "B": 3, "C": -2, "D": -2, "E": -3}
    assert settle(nets) == [
        Transfer("C", "A", 2),
        Transfer("D", "A", 2),
        Transfer("E", "B", 3),
    ]


def test_everyone_square_pays_nothing_and_zero_people_are_left_out():
    assert settle({}) == []
    assert settle({"A": 0, "B": 0}) == []
    assert settle({"A": 10, "Z": 0, "B": -10}) == [Transfer("B", "A", 10)]


def test_one_winner_is_paid_by_each_loser():
    # the table's usual evening: one big winner, three losers → three transfers
    nets = {"A": 12, "B": -2, "C": -4, "D": -6}
    assert settle(nets) == [Transfer("B", "A", 2), Transfer("C", "A", 4), Transfer("D", "A", 6)]


def test_refuses_nets_that_do_not_add_up_or_are_not_whole():
    with pytest.raises(ValueError):
        settle({"A": 5, "B": -4})
    with pytest.raises(TypeError):
        settle({"A": 0.5, "B": -0.5})


def test_the_order_is_the_input_order_whatever_the_dict_holds():
    nets = {"D": -3, "C": -5, "B": 3, "A": 5}
    assert settle(nets) == [Transfer("D", "B", 3), Transfer("C", "A", 5)]
    assert settle(nets) == settle(dict(nets))


@pytest.mark.parametrize("seed", range(40))
def test_random_small_evenings_are_settled_exactly(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 8)
    values = [rng.choice([-6, -4, -3, -2, -1, 1, 2, 3, 4, 6]) for _ in range(n - 1)]
    values.append(-sum(values))
    nets = {f"P{i}": v for i, v in enumerate(values)}
    transfers = settle(nets)
    assert all(v == 0 for v in applied(nets, transfers).values())
    assert len(transfers) == brute_force_minimum(nets)


def test_beyond_the_exact_limit_the_greedy_still_settles_everyone():
    # 20 people: ten pairs of +k / −k; the greedy pairs them first → ten transfers (optimal)
    n = EXACT_LIMIT + 6
    nets = {}
    for i in range(n // 2):
        nets[f"W{i}"] = i + 1
        nets[f"L{i}"] = -(i + 1)
    transfers = settle(nets)
    assert len(transfers) == n // 2
    assert all(v == 0 for v in applied(nets, transfers).values())
    # and without pairs it makes at most n − 1
    rng = random.Random(7)
    values = [rng.randint(-50, 50) or 1 for _ in range(n - 1)]
    values.append(-sum(values))
    nets = {f"P{i}": v for i, v in enumerate(values)}
    transfers = settle(nets)
    assert len(transfers) <= sum(1 for v in values if v) - 1
    assert all(v == 0 for v in applied(nets, transfers).values())
