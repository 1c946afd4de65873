"""Resolvable designs that give repeat-free rounds outright, where the player count fits.

* Affine geometry AG(d, 4) for 4^d players (16, 64, 256, 1024): points are vectors of GF(4)^d,
  the lines through them have four points, and the lines of one direction partition the points
  into a round. Every pair of points lies on exactly one line, so the (4^d - 1) / 3 directions
  are that many rounds in which nobody meets anyone twice.
* Resolvable transversal design RTD(4, q) for 4q players, q a prime power >= 4 (20, 28, 32, 36,
  44, ...): points (g, x) with g in 0..3 and x in GF(q); round b has the tables
  {(g, a + b * g) : g in 0..3} for a in GF(q). Two points of different groups meet in exactly
  one round and points of one group never meet, so this gives q repeat-free rounds.

The designs come as rounds of 4-tuples of point numbers 0..n-1; the caller maps points to
players. Points in ``keep_apart`` are placed where they never share a table if the design allows
(on one line in AG, in one group in RTD): players pinned to different tables may never meet.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from .gf import field, prime_power

Round = list[tuple[int, int, int, int]]

#: GF(4) multiplication, elements 0, 1, x, x + 1 as 0..3 (x^2 = x + 1); addition is XOR.
_MUL4 = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))
#: Beyond this, building the field tables costs more than the search it saves.
_MAX_Q = 256


def _affine_dimension(n: int) -> int | None:
    d, m = 0, 1
    while m < n:
        m *= 4
        d += 1
    return d if m == n and d >= 2 else None


def _rtd_order(n: int) -> int | None:
    if n % 4:
        return None
    q = n // 4
    return q if 4 <= q <= _MAX_Q and prime_power(q) else None


def design_rounds(n: int) -> int:
    """How many repeat-free rounds a construction gives for n players (0: none fits)."""
    d = _affine_dimension(n)
    if d is not None:
        return (n - 1) // 3
    q = _rtd_order(n)
    return q or 0


def _scale(lam: int, v: int, d: int) -> int:
    out = 0
    for i in range(d):
        out |= _MUL4[lam][(v >> (2 * i)) & 3] << (2 * i)
    return out


def _affine_directions(d: int) -> list[int]:
    """One representative per direction of AG(d, 4) (leading digit 1): one round each."""
    out = []
    for v in range(1, 4**d):
        top = (v.bit_length() - 1) // 2
        if (v >> (2 * top)) & 3 == 1:
            out.append(v)
    return out


def _affine_round(d: int, v: int) -> Round:
    """The lines of direction v: the round they make."""
    n = 4**d
    steps = [_scale(lam, v, d) for lam in range(4)]
    seen = bytearray(n)
    rnd: Round = []
    for p in range(n):
        if not seen[p]:
            line = (p ^ steps[0], p ^ steps[1], p ^ steps[2], p ^ steps[3])
            for x in line:
                seen[x] = 1
            rnd.append(line)
    return rnd


def _rtd_rounds(q: int) -> Iterator[Round]:
    f = field(q)
    for b in range(q):
        shifts = [f.mul[b][g] for g in range(4)]
        yield [
            (f.add[a][shifts[0]], q + f.add[a][shifts[1]],
             2 * q + f.add[a][shifts[2]], 3 * q + f.add[a][shifts[3]])
            for a in range(q)
        ]  # fmt: skip


def construct(n: int, rounds: int, rng: random.Random, keep_apart: int = 0) -> list[Round]:
    """Up to ``rounds`` repeat-free rounds for points 0..n-1, or [] if no design fits.

    The first ``keep_apart`` points never share a table in the rounds returned (rounds that
    would seat two of them together are dropped); the rounds are a seeded choice among the
    design's, in a seeded order.
    """
    d = _affine_dimension(n)
    if d is not None:
        directions = _affine_directions(d)
        if keep_apart < 2:
            # Only the rounds chosen are built (AG(6, 4) has 1,365 of 4,096 points each): the
            # shuffle draws the same whatever the list holds, so the choice is the same.
            order = list(range(len(directions)))
            rng.shuffle(order)
            return [_affine_round(d, directions[k]) for k in order[:rounds]]
        # Points 0..3 form the line {lambda * e0} and 0..15 the plane of e0, e1: kept-apart
        # points there share few directions, so few rounds are lost.
        source = [_affine_round(d, v) for v in directions]
    else:
        q = _rtd_order(n)
        if q is None:
            return []
        source = list(_rtd_rounds(q))  # points 0..q-1 are group 0: they never meet
    apart = set(range(keep_apart))
    if len(apart) > 1:
        source = [rnd for rnd in source if not any(len(apart.intersection(t)) > 1 for t in rnd)]
    rng.shuffle(source)
    return source[:rounds]
