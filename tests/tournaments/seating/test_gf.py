"""The finite fields the designs are built from (tournaments/seating/gf.py)."""

from __future__ import annotations

import itertools

from tournaments.seating.gf import GF, prime_power


def test_finite_fields() -> None:
    assert prime_power(8) == (2, 3)
    assert prime_power(12) is None
    for q in (4, 8, 9, 25):
        f = GF(q)
        for a, b, c in itertools.product(range(q), repeat=3):
            assert f.mul[a][f.add[b][c]] == f.add[f.mul[a][b]][f.mul[a][c]]
        assert all(any(f.mul[a][b] == 1 for b in range(q)) for a in range(1, q))
