"""The designs that seat whole events without a repeat (tournaments/seating/constructions.py)."""

from __future__ import annotations

import itertools
import random

import pytest

from tournaments.seating.constructions import construct, design_rounds


@pytest.mark.parametrize("n", [16, 20, 28, 32, 36, 64, 100, 128, 256])
def test_constructions_are_repeat_free(n: int) -> None:
    rounds = construct(n, 50, random.Random(n))
    assert len(rounds) == min(50, design_rounds(n))
    seen: set[tuple[int, int]] = set()
    for rnd in rounds:
        assert sorted(p for t in rnd for p in t) == list(range(n))
        for t in rnd:
            for pair in itertools.combinations(sorted(t), 2):
                assert pair not in seen
                seen.add(pair)


def test_constructions_keep_pinned_points_apart() -> None:
    for n, keep in [(16, 3), (64, 4), (32, 8)]:
        for rnd in construct(n, 50, random.Random(1), keep_apart=keep):
            assert all(len(set(range(keep)) & set(t)) <= 1 for t in rnd)
