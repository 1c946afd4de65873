"""Small finite fields GF(p^k), just enough arithmetic for the block-design constructions.

Elements are the ints 0..q-1, read as polynomials over GF(p) whose coefficients are the base-p
digits. Multiplication goes through exp/log tables of a primitive element, found by trying monic
polynomials in a fixed order, so the field (and every design built on it) is the same on every run.
"""

from __future__ import annotations

from functools import cache


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q == p**k`` and p prime, or None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    k, r = 0, q
    while r % p == 0:
        r //= p
        k += 1
    return (p, k) if r == 1 else None


class GF:
    """Addition and multiplication tables of GF(q)."""

    def __init__(self, q: int) -> None:
        pk = prime_power(q)
        if pk is None:
            raise ValueError(f"{q} is not a prime power")
        p, k = pk
        self.q, self.p, self.k = q, p, k
        digits = [[(x // p**i) % p for i in range(k)] for x in range(q)]

        def from_digits(ds: list[int]) -> int:
            return sum(d * p**i for i, d in enumerate(ds))

        self.add = [
            [from_digits([(a + b) % p for a, b in zip(digits[x], digits[y], strict=True)])
             for y in range(q)]
            for x in range(q)
        ]  # fmt: skip
        exp = self._exp_table(p, k) if k > 1 else self._exp_prime(p)
        log = [0] * q
        for i, e in enumerate(exp):
            log[e] = i
        n = q - 1
        self.mul = [[0] * q for _ in range(q)]
        for x in range(1, q):
            row = self.mul[x]
            for y in range(1, q):
                row[y] = exp[(log[x] + log[y]) % n]

    @staticmethod
    def _exp_prime(p: int) -> list[int]:
        for g in range(1, p):
            powers, x = [], 1
            for _ in range(p - 1):
                powers.append(x)
                x = x * g % p
            if len(set(powers)) == p - 1:
                return powers
        raise AssertionError("every prime field has a primitive root")

    @staticmethod
    def _exp_table(p: int, k: int) -> list[int]:
        q = p**k
        # A monic f of degree k is primitive iff the powers of x modulo f run through all q - 1
        # nonzero residues before returning to 1; trying them in order keeps the field fixed.
        for tail in range(q):
            f = [(tail // p**i) % p for i in range(k)]  # f = x^k + f[k-1] x^(k-1) + ... + f[0]
            if f[0] == 0:
                continue
            cur = [1] + [0] * (k - 1)
            seen: list[int] = []
            for _ in range(q - 1):
                seen.append(sum(c * p**i for i, c in enumerate(cur)))
                top = cur[-1]
                cur = [0, *cur[:-1]]  # multiply by x, then reduce x^k = -(f[k-1] x^(k-1) + ...)
                cur = [(c - top * fc) % p for c, fc in zip(cur, f, strict=True)]
            if len(set(seen)) == q - 1:
                return seen
        raise AssertionError("every finite field has a primitive polynomial")


@cache
def field(q: int) -> GF:
    return GF(q)
