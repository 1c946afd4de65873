"""Reading back a hand record the engine accepted once (a stored hand's): straight, without
its refusals.

``parse.py`` reads what a scorer sends and checks every field of it, collecting every problem.
A stored record was read that way before it was settled and stored, so reading it again need
not check it again: :func:`stored_record` builds the same :class:`HandRecord` that
``parse_record`` builds from it — the same defaults, the same spellings of tiles (compact or
Chinese) and suits — doing only the reading. A table's 流水 sheet reads every hand of the table
so when nothing is kept (issue 26 §1: the checks were most of that time).

What it cannot read (a form no code of the engine ever accepted: a corrupt row) goes to
``parse_record``, which says what is wrong with it (``EngineError``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..declared import Declaration
from ..melds import Meld
from ..rulesets import Ruleset
from ..tiles import parse_suit, parse_tile, parse_tiles
from .dealer import bettor_seat
from .parse import SEAT_KEYS, parse_record
from .record import MODES, Bettor, Event, FalseWin, HandRecord, Kong, Shown, Win, Winner

_NO_VOIDS = (None, None, None, None)
_NO_SITUATION: frozenset[str] = frozenset()


def stored_record(d: Mapping[str, Any], ruleset: Ruleset) -> HandRecord:
    """The record a stored form describes, under the rules its session pinned: what
    ``parse_record({**d, "ruleset": ruleset})`` gives for a form it accepts, read without
    checking it again. A form it cannot read is handed to ``parse_record`` (its refusal)."""
    try:
        return _record(d, ruleset)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # EngineError too
        return parse_record({**d, "ruleset": ruleset})


def _record(d: Mapping[str, Any], ruleset: Ruleset) -> HandRecord:
    dealer = d.get("dealer", 0)
    voids = d.get("declared_void")
    mode = d.get("mode")
    session = d.get("session") or {}
    draw = d.get("draw")
    bettors = d.get("bettors")
    return HandRecord(
        ruleset,
        d.get("base", 1),
        mode if mode in MODES else ruleset.options.mode,
        dealer,
        _NO_VOIDS if voids is None else tuple(parse_suit(v) for v in voids),
        tuple(_event(i, ev) for i, ev in enumerate(d.get("events", ()))),
        None if draw is None else _draw(draw["hands"]),
        ()
        if not bettors
        else tuple(
            Bettor(b["name"], t, bettor_seat(dealer, t))
            for b in bettors
            for t in (parse_tile(b["tile"]),)
        ),
        session.get("draws_before", 0),
        session.get("dealer_streak", 0),
    )


def _event(i: int, ev: Mapping[str, Any]) -> Event:
    kind = ev["type"]
    if kind == "win":
        tile = ev.get("tile")
        situation = ev.get("situation")
        return Win(
            i,
            ev.get("from"),
            None if tile is None else parse_tile(tile),
            frozenset(situation) if situation else _NO_SITUATION,
            tuple(_winner(w) for w in ev["winners"]),
        )
    if kind == "kong":
        return Kong(
            i,
            ev["seat"],
            ev["kind"],
            parse_tile(ev["tile"]),
            ev.get("from"),
            ev.get("same_turn", True),
            ev.get("on_replacement", False),
        )
    if kind == "false_win":
        return FalseWin(i, ev["seat"])
    raise ValueError(f"not an event: {kind!r}")


def _winner(w: Mapping[str, Any]) -> Winner:
    melds = _melds(w.get("melds"))
    declared = w.get("declared")
    if declared is not None:
        return Winner(w["seat"], (), melds, _declaration(declared))
    if "declared" in w:  # declared null: refused when it was sent, so never stored
        raise ValueError("a winner declared null")
    return Winner(w["seat"], parse_tiles(w.get("concealed", "")), melds)


def _melds(melds: list[Mapping[str, Any]] | None) -> tuple[Meld, ...]:
    if not melds:
        return ()
    return tuple(Meld(m["kind"], parse_tile(m["tile"]), m.get("concealed", False)) for m in melds)


def _declaration(d: Mapping[str, Any]) -> Declaration:
    extras = d.get("extras")
    return Declaration(d["pattern"], d.get("roots", 0), tuple(extras) if extras else ())


def _draw(hands: Mapping[str, Any]) -> tuple[Shown, ...]:
    out = []
    for seat, key in enumerate(SEAT_KEYS):
        hand = hands.get(key)
        if hand is None:
            continue
        melds = _melds(hand.get("melds"))
        if "declared" in hand:
            declared = hand["declared"]
            wait = _declaration(hand["wait"]) if declared == "ready" else None
            out.append(Shown(seat, (), melds, declared, wait))
        else:
            out.append(Shown(seat, parse_tiles(hand.get("concealed", "")), melds))
    return tuple(out)
