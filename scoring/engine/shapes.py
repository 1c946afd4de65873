"""Winning shapes, decided by table look-up (RULES §2).

A hand is packed into one integer key: three bits per tile kind (a count 0–4), tile ``t`` at bit
``3 * t``, so each suit's nine counts are one 27-bit field. At import we enumerate every way a
suit can be split into sets (runs and triplets) with or without one pair, and remember for each
suit key which *split facts* are reachable:

- ``T``: every set is a triplet (对对胡 material),
- ``Y``: every set and the pair hold a 1 or a 9 (带幺九 material).

A split fact pair ``(t, y)`` is one bit of a 4-bit mask (bit ``2*t + y``). Suits and melds
combine by AND-ing facts, so the best split of a whole hand is found without searching.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations_with_replacement

SUIT_BITS = 27
SUIT_MASK = (1 << SUIT_BITS) - 1

#: bit of a tile in a hand key
TILE_BIT = tuple(1 << (3 * t) for t in range(27))

# Low bit of every 3-bit count: set for counts 1 and 3 (odd).
ODD_BITS = sum(1 << (3 * t) for t in range(27))
# High bit of every count: set only for a count of 4.
FOUR_BITS = ODD_BITS << 2
NON_258_BITS = sum(7 << (3 * t) for t in range(27) if t % 9 + 1 not in (2, 5, 8))
_TERMINAL = frozenset(t for t in range(27) if t % 9 in (0, 8))

#: the identity of fact combination: an empty suit constrains nothing
ALL_FACTS = 1 << 3  # (t=1, y=1)


def _combine(a: int, b: int) -> int:
    out = 0
    for i in range(4):
        if a >> i & 1:
            for j in range(4):
                if b >> j & 1:
                    out |= 1 << (i & j)
    return out


#: COMBINE[a][b]: the facts reachable by a hand made of parts with fact masks a and b
COMBINE = tuple(tuple(_combine(a, b) for b in range(16)) for a in range(16))


def _build_tables() -> dict[int, int]:
    # sets as count vectors (packing them could carry a count of 9 into the next rank)
    sets = []
    for r in range(7):
        sets.append((tuple(1 if r <= i <= r + 2 else 0 for i in range(9)), 0, r in (0, 6)))
    for r in range(9):
        sets.append((tuple(3 if i == r else 0 for i in range(9)), 1, r in (0, 8)))
    table: dict[int, int] = {0: ALL_FACTS}
    bodies: list[tuple[tuple[int, ...], int]] = [((0,) * 9, ALL_FACTS)]
    for n in range(1, 5):
        for combo in combinations_with_replacement(sets, n):
            counts = tuple(map(sum, zip(*(s[0] for s in combo), strict=True)))
            if max(counts) > 4:
                continue
            t = all(s[1] for s in combo)
            y = all(s[2] for s in combo)
            bodies.append((counts, 1 << (2 * t + y)))
    for counts, fact in bodies:
        key = _pack(counts)
        table[key] = table.get(key, 0) | fact
    for counts, fact in bodies:
        for r in range(9):
            if counts[r] > 2:
                continue
            key = _pack(counts) + (2 << (3 * r))
            t, y = fact >= 4, bool(fact & 0b1010) and r in (0, 8)  # one fact per split
            table[key] = table.get(key, 0) | 1 << (2 * t + y)
    return table


def _pack(counts: tuple[int, ...]) -> int:
    return sum(c << (3 * i) for i, c in enumerate(counts))


#: suit key -> fact mask, for suits that split into sets (+ one pair when 3n+2 tiles)
SUIT_FACTS: dict[int, int] = _build_tables()


# --- concealed hands without melds: one small "info" integer per suit ----------------------
# bits 0-3 split facts (0: no standard split), bit 4 every count even (seven-pairs material),
# bit 6 only ranks 2/5/8, bits 8-10 fours held, bits 14-15 number of suits present.
# These are laid out as the evaluator's signature bits, so combining suits is a little
# arithmetic, memoised per pair of infos.
INFO_EVEN = 1 << 4
INFO_258 = 1 << 6
INFO_FOURS = 8
INFO_SUITS = 14


_ODD9 = ODD_BITS & SUIT_MASK
_FOUR9 = FOUR_BITS & SUIT_MASK


def _suit_info(key: int) -> int | None:
    facts = SUIT_FACTS.get(key, 0)
    even = not key & _ODD9
    if not facts and not even:
        return None
    return (
        facts
        | even << 4
        | (not key & NON_258_BITS) << 6
        | (key & _FOUR9).bit_count() << INFO_FOURS
        | (key != 0) << INFO_SUITS
    )


def _even_keys() -> list[int]:
    """Suit keys whose every count is 0, 2 or 4, with at most 14 tiles."""
    out = [(0, 0)]  # (key, tiles)
    for r in range(9):
        out = [(k + (c << (3 * r)), n + c) for k, n in out for c in (0, 2, 4) if n + c <= 14]
    return [k for k, _ in out]


#: suit key -> info, for suits that split into sets or into pairs (anything else never wins)
SUIT_INFO: dict[int, int] = {
    k: info for k in {*SUIT_FACTS, *_even_keys()} if (info := _suit_info(k)) is not None
}


def combine_info(a: int, b: int) -> int:
    """The info of a hand made of two parts (facts AND-ed, fours and suits added)."""
    return (
        COMBINE[a & 15][b & 15]
        | (a & b & (INFO_EVEN | INFO_258))
        | ((a >> INFO_FOURS & 7) + (b >> INFO_FOURS & 7)) << INFO_FOURS
        | ((a >> INFO_SUITS & 3) + (b >> INFO_SUITS & 3)) << INFO_SUITS
    )


def hand_key(tiles) -> int:
    k = 0
    for t in tiles:
        k += TILE_BIT[t]
    return k


#: suit keys whose :func:`suit_joins` stay memoised (~150 bytes each)
SUIT_JOINS_KEPT = 1 << 15

_BIT1 = ODD_BITS << 1  # the middle bit of every 3-bit count


def copies_within_four(key: int, n_tiles: int) -> bool:
    """Whether a key built from ``n_tiles`` tiles holds no more than four copies of any tile.

    A count past seven carries into the next tile's field (8 copies read as none of this tile
    and one of the next), and each carry leaves the fields summing to seven fewer than the
    tiles added, so the fields sum to ``n_tiles`` exactly when nothing carried; then no field
    may read 5–7 (its high bit with either low bit).
    """
    held = (key & ODD_BITS).bit_count() + 2 * (key & _BIT1).bit_count()
    held += 4 * (key & FOUR_BITS).bit_count()
    return held == n_tiles and not key >> 2 & (key | key >> 1) & ODD_BITS


def only_258(key: int) -> bool:
    return not key & NON_258_BITS


def meld_facts(t: int) -> int:
    """A pung or kong is a triplet; it holds a terminal when its tile is a 1 or a 9."""
    return 1 << (2 + (t in _TERMINAL))


@cache
def suit_completions(suit_key: int) -> tuple[int, ...]:
    """Ranks (0–8) that, added to this suit, give a splittable suit (never a fifth copy)."""
    out = []
    for r in range(9):
        if suit_key >> (3 * r) & 7 >= 4:
            continue
        if suit_key + (1 << (3 * r)) in SUIT_FACTS:
            out.append(r)
    return tuple(out)


@lru_cache(maxsize=SUIT_JOINS_KEPT)
def suit_joins(suit_key: int) -> tuple[tuple[int, int, bool], ...]:
    """Ranks (0–8) at which one more tile leaves this suit able to be part of a win (split into
    sets with or without a pair, or into pairs), never a fifth copy: each as (rank, the suit's
    info with the tile, whether the suit held exactly one copy of it before).

    Memoised for the suits seen most recently, a bounded number: a suit has some 290,000 keys
    of up to 13 tiles, and strangers choose the hands (ARCHITECTURE "Bounded")."""
    out = []
    for r in range(9):
        held = suit_key >> (3 * r) & 7
        if held >= 4:
            continue
        info = SUIT_INFO.get(suit_key + (1 << (3 * r)))
        if info is not None:
            out.append((r, info, held == 1))
    return tuple(out)
