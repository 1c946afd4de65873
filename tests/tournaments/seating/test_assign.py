"""Table numbers and seat order of decided groups (tournaments/seating/assign.py)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.seating.helpers import random_round
from tournaments.seating.assign import balanced_seats


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(min_value=4, max_value=41),
    rounds=st.integers(min_value=1, max_value=12),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_plan_seats_are_exactly_balanced(players: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    groups = [
        [list(t.players) for t in random_round(range(players), rng).tables] for _ in range(rounds)
    ]
    seated = balanced_seats(groups, rng)
    seats: dict[int, list[int]] = {}
    for rnd, orders in zip(groups, seated, strict=True):
        for group, order in zip(rnd, orders, strict=True):
            assert sorted(order) == sorted(group)
            for seat, p in enumerate(order):
                seats.setdefault(p, [0, 0, 0, 0])[seat] += 1
    for counts in seats.values():
        assert max(counts) - min(counts) <= (1 if sum(counts) % 4 else 0)
