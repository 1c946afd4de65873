"""Tiles and their notation (RULES §1).

A tile is an ``int`` from 0 to 26: ``suit * 9 + rank - 1`` with suits m 万 (0), p 筒 (1),
s 条 (2). Hands are tuples of such ints. Notation in: compact (``123m456p``) or Chinese
(``123万456筒``, also 饼/铜 for p and 索 for s); out: sorted compact form.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .bounds import MAX_TILES_TEXT
from .errors import EngineError, shown

SUITS = "mps"
SUIT_ZH = "万筒条"
SUIT_EN = ("characters", "dots", "bamboo")
N_KINDS = 27

# Chinese suit marks, simplified and traditional, as they appear in the seeds and at tables.
_SUIT_MARKS = {
    "m": 0,
    "万": 0,
    "萬": 0,
    "p": 1,
    "筒": 1,
    "饼": 1,
    "餅": 1,
    "铜": 1,
    "銅": 1,
    "s": 2,
    "条": 2,
    "條": 2,
    "索": 2,
}


def tile(suit: int, rank: int) -> int:
    return suit * 9 + rank - 1


def suit_of(t: int) -> int:
    return t // 9


def rank_of(t: int) -> int:
    return t % 9 + 1


def tile_name(t: int) -> str:
    return f"{rank_of(t)}{SUITS[suit_of(t)]}"


_MARKS = "".join(_SUIT_MARKS)
_WELL_FORMED = re.compile(f"(?:[1-9]+[{_MARKS}])*")
_BASES = {mark: suit * 9 for mark, suit in _SUIT_MARKS.items()}
_OFFSETS = {digit: int(digit) - 1 for digit in "123456789"}
_SINGLE = {
    f"{r}{mark}": suit * 9 + r - 1 for mark, suit in _SUIT_MARKS.items() for r in range(1, 10)
}


def parse_tiles(text: str, path: str = "") -> tuple[int, ...]:
    """Parse a tile list in compact or Chinese notation.

    Raises EngineError(code=notation_*) naming the offending character position; a string
    longer than :data:`~.bounds.MAX_TILES_TEXT` is not read at all (``notation_too_long``).
    """
    if not isinstance(text, str):
        raise EngineError("notation_type", f"tiles are given as a string, got {shown(text)}", path)
    if len(text) > MAX_TILES_TEXT:
        raise EngineError(
            "notation_too_long",
            f"a tile string is at most {MAX_TILES_TEXT} characters, this one has {len(text)}",
            path,
        )
    if _WELL_FORMED.fullmatch(text):
        out = []
        base = 0
        for ch in reversed(text):  # each run of digits is read after its suit mark
            offset = _OFFSETS.get(ch)
            if offset is None:
                base = _BASES[ch]
            else:
                out.append(base + offset)
        out.sort()
        return tuple(out)
    return _parse_slowly(text, path)


def _parse_slowly(text: str, path: str) -> tuple[int, ...]:
    """The character-by-character parse, which also finds the position of a mistake."""
    out: list[int] = []
    pending: list[tuple[int, int]] = []  # (rank, position) digits waiting for their suit mark
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if "1" <= ch <= "9":
            pending.append((ord(ch) - 48, pos))
        elif ch == "0":
            raise EngineError(
                "notation_rank", f"rank 0 at position {pos} of {shown(text)}", path, position=pos
            )
        elif ch in _SUIT_MARKS:
            if not pending:
                raise EngineError(
                    "notation_suit_without_rank",
                    f"suit mark {ch!r} at position {pos} of {shown(text)} follows no digit",
                    path,
                    position=pos,
                )
            suit = _SUIT_MARKS[ch]
            out.extend(suit * 9 + rank - 1 for rank, _ in pending)
            pending.clear()
        else:
            raise EngineError(
                "notation_character",
                f"unexpected character {ch!r} at position {pos} of {shown(text)}",
                path,
                position=pos,
            )
    if pending:
        pos = pending[0][1]
        raise EngineError(
            "notation_missing_suit",
            f"digits from position {pos} of {shown(text)} have no suit mark",
            path,
            position=pos,
        )
    return tuple(sorted(out))


def parse_tile(text: str, path: str = "") -> int:
    """Parse exactly one tile (``"5p"``, ``"5筒"``)."""
    try:
        t = _SINGLE.get(text)  # the usual case, without the general parser
    except TypeError:  # a list or an object: no tile (parse_tiles says so)
        t = None
    if t is not None:
        return t
    tiles = parse_tiles(text, path)
    if len(tiles) != 1:
        raise EngineError("not_one_tile", f"expected exactly one tile, got {shown(text)}", path)
    return tiles[0]


def format_tiles(tiles: Iterable[int]) -> str:
    """Sorted compact notation: ``123m456p``."""
    by_suit: list[list[str]] = [[], [], []]
    for t in sorted(tiles):
        by_suit[t // 9].append(str(t % 9 + 1))
    return "".join("".join(ranks) + SUITS[s] for s, ranks in enumerate(by_suit) if ranks)


def counts_of(tiles: Iterable[int]) -> list[int]:
    counts = [0] * N_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def parse_suit(text: str | None, path: str = "") -> int | None:
    """A declared void suit (定缺): ``m``/``p``/``s`` or 万/筒/条…; None when not declared."""
    if text is None:
        return None
    if isinstance(text, str) and text.strip() in _SUIT_MARKS:
        return _SUIT_MARKS[text.strip()]
    raise EngineError("invalid_suit", f"expected a suit m, p or s, got {shown(text)}", path)
