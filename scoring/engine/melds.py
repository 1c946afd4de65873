"""Exposed and concealed sets (碰 pung, 杠 kong) as the evaluator needs them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .bounds import MAX_MELDS
from .errors import Collector, shown
from .shapes import ALL_FACTS, COMBINE, TILE_BIT, meld_facts, only_258
from .tiles import parse_tile, suit_of, tile_name

MELD_KINDS = ("pung", "kong")
_MELD_FIELDS = frozenset(("kind", "tile", "concealed"))


@dataclass(frozen=True)
class Meld:
    """A pung (碰) or kong (杠: 明杠 exposed, 暗杠 concealed) laid down by a player."""

    kind: str
    tile: int
    concealed: bool = False

    @property
    def size(self) -> int:
        """Tiles in the meld: 4 for a kong, 3 for a pung (in the shape count a kong is 3)."""
        return 4 if self.kind == "kong" else 3

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "tile": tile_name(self.tile), "concealed": self.concealed}


@dataclass(frozen=True)
class MeldGroup:
    """Everything the evaluator reads from a player's melds, computed once."""

    melds: tuple[Meld, ...]
    count: int
    facts: int  # split facts of the melds (all triplets; terminal or not)
    suits: int  # bit per suit present
    all258: bool
    kongs: int
    pung_bits: int  # hand-key low bit of each pung's tile: a fourth copy in hand is a root
    key: int  # hand key of the meld tiles themselves (each meld's size)

    @classmethod
    @lru_cache(maxsize=4096)
    def of(cls, melds: tuple[Meld, ...] = ()) -> MeldGroup:
        facts, suits, key, pung_bits = ALL_FACTS, 0, 0, 0
        for m in melds:
            facts = COMBINE[facts][meld_facts(m.tile)]
            suits |= 1 << suit_of(m.tile)
            key += TILE_BIT[m.tile] * m.size
            if m.kind == "pung":
                pung_bits |= TILE_BIT[m.tile]
        return cls(
            melds=melds,
            count=len(melds),
            facts=facts,
            suits=suits,
            all258=only_258(key),
            kongs=sum(m.kind == "kong" for m in melds),
            pung_bits=pung_bits,
            key=key,
        )

    def kongs_not_roots(self) -> MeldGroup:
        """The same melds with their kongs no longer counted as roots (查叫 under
        ``chajiao_kongs: false``); a pung with its fourth tile in hand still is one."""
        return replace(self, kongs=0) if self.kongs else self


NO_MELDS = MeldGroup.of(())


def parse_melds(c: Collector, data: Any, path: str) -> tuple[Meld, ...]:
    """Melds from JSON: ``[{"kind": "pung"|"kong", "tile": "5p", "concealed": bool}]``."""
    if data is None:
        return ()
    if not isinstance(data, list):
        c.add("invalid_melds", "melds must be a list", path)
        return ()
    if len(data) > MAX_MELDS:  # refused as a whole: a longer list is not read
        c.add("too_many_melds", f"a hand has at most {MAX_MELDS} melds", path)
        return ()
    out = []
    for i, item in enumerate(data):
        p = f"{path}[{i}]"
        if not isinstance(item, dict):
            c.add("invalid_meld", "a meld is an object {kind, tile}", p)
            continue
        c.unknown_fields(item, _MELD_FIELDS, p)
        kind = item.get("kind")
        if kind not in MELD_KINDS:
            c.add(
                "invalid_meld_kind", f"a meld is a pung or a kong, got {shown(kind)}", f"{p}.kind"
            )
        concealed = item.get("concealed", False)
        if not isinstance(concealed, bool):
            c.add("invalid_type", "concealed is true or false", f"{p}.concealed")
            concealed = False
        if kind == "pung" and concealed:
            c.add("concealed_pung", "a pung is always exposed (碰)", f"{p}.concealed")
        t = c.attempt(parse_tile, item.get("tile"), f"{p}.tile")
        if t is not None and kind in MELD_KINDS:
            out.append(Meld(kind, t, concealed))
    return tuple(out)
