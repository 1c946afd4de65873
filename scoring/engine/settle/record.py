"""A hand record (RULES §4): the ordered list of what happened at one table in one hand.

Its JSON form is the one the API takes (``parse.py`` reads it, refusing what it cannot be);
:meth:`HandRecord.as_dict` writes it in its canonical spelling (compact sorted tiles, the
defaults written out, the ruleset as its smallest spec) and :meth:`HandRecord.from_dict`
reads any form the API ever took: the form has not changed since the first hand was stored
(format 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..bounds import MAX_BETTORS
from ..declared import Declaration
from ..melds import Meld
from ..patterns import SITUATIONS
from ..rulesets import Ruleset
from ..tiles import SUITS, format_tiles, tile_name

KONG_KINDS = ("concealed", "direct", "added")
MODES = ("xuezhan", "single")

SEAT_LABELS = ("S0", "S1", "S2", "S3")
BETTOR_LABELS = tuple(f"B{i}" for i in range(MAX_BETTORS))


def seat_label(seat: int) -> str:
    return SEAT_LABELS[seat]


@dataclass(frozen=True)
class Kong:
    """A kong event (刮风下雨): 暗杠 concealed, 直杠 direct (on ``from_``'s discard), 弯杠 added."""

    index: int
    seat: int
    kind: str
    tile: int
    from_: int | None = None
    same_turn: bool = True  # a 弯杠 declared on the turn its tile was drawn
    #: 杠上杠: declared on the replacement tile of the same player's kong right before it
    on_replacement: bool = False


@dataclass(frozen=True)
class Winner:
    """A winner of a win event: shown (his concealed tiles and melds) or declared (what his
    hand was, RULES §6; melds listed or not)."""

    seat: int
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    declared: Declaration | None = None


@dataclass(frozen=True)
class Win:
    """A win event: one self-draw (``from_`` None) or one discard won by one or more (一炮多响)."""

    index: int
    from_: int | None
    tile: int | None  # None: not recorded (every winner declared, RULES §6)
    situation: frozenset[str]
    winners: tuple[Winner, ...]


@dataclass(frozen=True)
class FalseWin:
    """A 诈胡 (false win, RULES §4.9): ``seat`` declared a win his tiles did not make. He pays,
    returns his kong income, and stays in the hand."""

    index: int
    seat: int


Event = Kong | Win | FalseWin


@dataclass(frozen=True)
class Shown:
    """A player still in the hand when the wall runs out: the tiles he shows, or what he was
    declared (RULES §6: ``huazhu``, ``not_ready``, or ``ready`` with the ``wait`` 查叫 uses)."""

    seat: int
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    declared: str | None = None
    wait: Declaration | None = None


@dataclass(frozen=True)
class Bettor:
    """叫马: a person beyond the four, bound to the seat his tile counts to from the dealer."""

    name: str
    tile: int
    seat: int


@dataclass(frozen=True)
class HandRecord:
    """One hand as recorded: its rules, stake and dealer, the events in the order they
    happened, the hands shown at a draw (流局), the 叫马 bettors and the session so far."""

    ruleset: Ruleset
    base: int
    mode: str
    dealer: int
    declared_void: tuple[int | None, ...]
    events: tuple[Event, ...]
    draw: tuple[Shown, ...] | None
    bettors: tuple[Bettor, ...]
    draws_before: int = 0
    dealer_streak: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The record in its canonical JSON form: ``from_dict(r.as_dict()) == r``."""
        return {
            "ruleset": self.ruleset.to_spec(),
            "base": self.base,
            "mode": self.mode,
            "dealer": self.dealer,
            "declared_void": [None if v is None else SUITS[v] for v in self.declared_void],
            "events": [_event_dict(ev) for ev in self.events],
            "draw": None
            if self.draw is None
            else {"hands": {str(h.seat): _shown_dict(h) for h in self.draw}},
            "bettors": [{"name": b.name, "tile": tile_name(b.tile)} for b in self.bettors],
            "session": {"draws_before": self.draws_before, "dealer_streak": self.dealer_streak},
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], ruleset: Ruleset | None = None) -> HandRecord:
        """The record a JSON form describes (canonical or as a scorer sent it); ``ruleset``
        in place of the form's own (a stored hand's record is kept without it: its session
        pinned the rules). Raises ``EngineError`` listing every problem, as ``parse_record``."""
        from .parse import parse_record  # (parse builds records: it imports this module)

        return parse_record(d if ruleset is None else {**d, "ruleset": ruleset})


def _melds(melds: tuple[Meld, ...]) -> list[dict[str, Any]]:
    return [m.as_dict() for m in melds]


def _event_dict(ev: Event) -> dict[str, Any]:
    if isinstance(ev, Kong):
        d: dict[str, Any] = {
            "type": "kong",
            "seat": ev.seat,
            "kind": ev.kind,
            "tile": tile_name(ev.tile),
        }
        if ev.from_ is not None:
            d["from"] = ev.from_
        if not ev.same_turn:  # (only an added kong has the choice; true is the default)
            d["same_turn"] = False
        if ev.on_replacement:
            d["on_replacement"] = True
        return d
    if isinstance(ev, Win):
        return {
            "type": "win",
            "from": ev.from_,
            "tile": None if ev.tile is None else tile_name(ev.tile),
            "situation": [s for s in SITUATIONS if s in ev.situation],
            "winners": [_winner_dict(w) for w in ev.winners],
        }
    return {"type": "false_win", "seat": ev.seat}


def _winner_dict(w: Winner) -> dict[str, Any]:
    if w.declared is not None:
        return {"seat": w.seat, "declared": w.declared.as_dict(), "melds": _melds(w.melds)}
    return {"seat": w.seat, "concealed": format_tiles(w.concealed), "melds": _melds(w.melds)}


def _shown_dict(h: Shown) -> dict[str, Any]:
    if h.declared is None:
        return {"concealed": format_tiles(h.concealed), "melds": _melds(h.melds)}
    d: dict[str, Any] = {"declared": h.declared, "melds": _melds(h.melds)}
    if h.wait is not None:
        d["wait"] = h.wait.as_dict()
    return d
