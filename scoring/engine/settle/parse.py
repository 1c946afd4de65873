"""Reading a hand record from its JSON form (RULES §4, §5): every refusal collected, so a
scorer is told of every mistake at once.

A winner or a player at the draw is shown (``concealed`` and ``melds``) or declared (RULES §6,
``declared.py``): ``{"seat", "declared": {"pattern", "roots", "extras"}, "melds"?}`` in a win
event; ``{"declared": "huazhu" | "not_ready"}`` or ``{"declared": "ready", "wait": {"pattern",
"roots", "extras"}, "melds"?}`` in ``draw.hands``. What a declaration may say under the
ruleset is checked in the replay, against the events (``replay.py``).

A win event's ``tile`` (the winning tile) may be left out, or null, when every one of its
winners is declared: a declared value does not depend on it (``declared.py``, "The winning
tile"). A shown winner's hand is valued with it, so a win holding a shown winner and no tile is
refused (``winning_tile_missing``).
"""

from __future__ import annotations

from typing import Any

from ..bounds import (
    MAX_BASE,
    MAX_BETTORS,
    MAX_EVENTS,
    MAX_NAME,
    MAX_SESSION_DOUBLINGS,
    MAX_WINNERS,
    MIN_BASE,
)
from ..declared import DRAW_DECLARATIONS, parse_declaration
from ..errors import Collector, EngineError, Problem, is_int, is_text, path_key, shown
from ..evaluate import parse_situation
from ..melds import parse_melds
from ..rulesets import resolve_ruleset
from ..tiles import parse_suit, parse_tile, parse_tiles
from .dealer import bettor_seat
from .record import KONG_KINDS, MODES, Bettor, Event, FalseWin, HandRecord, Kong, Shown, Win, Winner

#: the fields of each level of a hand record: any other key is refused (RULES §5)
_RECORD_FIELDS = frozenset(
    ("ruleset", "base", "mode", "dealer", "declared_void", "events", "draw", "bettors", "session")
)
_KONG_FIELDS = frozenset(("type", "seat", "kind", "tile", "from", "same_turn", "on_replacement"))
_FALSE_WIN_FIELDS = frozenset(("type", "seat"))
EVENT_TYPES = ("kong", "win", "false_win")
_WIN_FIELDS = frozenset(("type", "from", "tile", "situation", "winners"))
_WINNER_FIELDS = frozenset(("seat", "concealed", "melds", "declared"))
_DRAW_FIELDS = frozenset(("hands",))
SEAT_KEYS = ("0", "1", "2", "3")  # the draw's hands, by seat
_SHOWN_FIELDS = frozenset(("concealed", "melds", "declared", "wait"))
_BETTOR_FIELDS = frozenset(("name", "tile"))
_SESSION_FIELDS = frozenset(("draws_before", "dealer_streak"))


def _seat(c: Collector, value: Any, path: str, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if not is_int(value) or not 0 <= value <= 3:
        c.add("invalid_seat", f"a seat is 0, 1, 2 or 3, got {shown(value)}", path)
        return None
    return value


def parse_record(data: Any) -> HandRecord:
    """A hand record from its JSON form; raises EngineError listing every problem found."""
    c = Collector()
    record = collect_record(data, c)
    c.raise_if_any()
    return record


def read_record(data: Any) -> tuple[HandRecord, list[Problem]]:
    """A hand record and the problems found reading it (as an answer lists them)."""
    c = Collector()
    record = collect_record(data, c)
    return record, c.listed()


def collect_record(data: Any, c: Collector) -> HandRecord:
    """A hand record, every problem found reading it collected in ``c``.

    Where a field is wrong the record carries a stand-in (the default preset, base 1,
    dealer 0), so the events can still be replayed and their problems reported too.
    """
    if not isinstance(data, dict):
        raise EngineError("invalid_record", "a hand record is a JSON object", "")
    c.unknown_fields(data, _RECORD_FIELDS, "")
    ruleset = c.attempt(resolve_ruleset, data.get("ruleset"), "ruleset")
    base = data.get("base", 1)
    if not is_int(base) or base < MIN_BASE:
        c.add("invalid_base", f"base is a whole number ≥ 1, got {shown(base)}", "base")
    elif base > MAX_BASE:
        c.add("base_out_of_range", f"base is at most {MAX_BASE:,}, got {shown(base)}", "base")
    mode = data.get("mode")
    if mode is not None and mode not in MODES:
        c.add("invalid_mode", f"mode is xuezhan or single, got {shown(mode)}", "mode")
    dealer = _seat(c, data.get("dealer", 0), "dealer")
    voids: list[int | None] = [None] * 4
    raw_voids = data.get("declared_void")
    if raw_voids is not None:
        if not isinstance(raw_voids, list) or len(raw_voids) != 4:
            c.add(
                "invalid_declared_void", "declared_void lists four suits or nulls", "declared_void"
            )
        else:
            voids = [
                c.attempt(parse_suit, v, f"declared_void[{i}]") for i, v in enumerate(raw_voids)
            ]
    events = _parse_events(c, data.get("events", []))
    draw = _parse_draw(c, data.get("draw"))
    bettors = _parse_bettors(c, data.get("bettors"), dealer or 0)
    session = data.get("session")
    if session is None:
        session = {}
    draws_before = dealer_streak = 0
    if not isinstance(session, dict):
        c.add("invalid_session", "session is an object", "session")
    else:
        c.unknown_fields(session, _SESSION_FIELDS, "session")
        draws_before = session.get("draws_before", 0)
        dealer_streak = session.get("dealer_streak", 0)
        for key, value in (("draws_before", draws_before), ("dealer_streak", dealer_streak)):
            if not is_int(value) or not 0 <= value <= MAX_SESSION_DOUBLINGS:
                message = f"{key} is a whole number from 0 to {MAX_SESSION_DOUBLINGS}"
                c.add("invalid_session", message, f"session.{key}")
                draws_before = dealer_streak = 0
    ruleset = ruleset or resolve_ruleset(None)
    return HandRecord(
        ruleset=ruleset,
        base=base if is_int(base) and MIN_BASE <= base <= MAX_BASE else 1,
        mode=mode if mode in MODES else ruleset.options.mode,
        dealer=dealer if dealer is not None else 0,
        declared_void=tuple(voids),
        events=tuple(events),
        draw=draw,
        bettors=tuple(bettors),
        draws_before=draws_before,
        dealer_streak=dealer_streak,
    )


def _parse_events(c: Collector, raw: Any) -> list[Event]:
    if not isinstance(raw, list):
        c.add("invalid_events", "events is a list", "events")
        return []
    if len(raw) > MAX_EVENTS:  # refused as a whole: a longer list is not read
        message = f"a hand has at most {MAX_EVENTS} events, this one has {len(raw)}"
        c.add("too_many_events", message, "events")
        return []
    events: list[Event] = []
    for i, ev in enumerate(raw):
        path = f"events[{i}]"
        if not isinstance(ev, dict):
            c.add("invalid_event", "an event is an object", path)
            continue
        kind = ev.get("type")
        if kind == "kong":
            kong = _parse_kong(c, ev, i, path)
            if kong:
                events.append(kong)
        elif kind == "win":
            win = _parse_win(c, ev, i, path)
            if win:
                events.append(win)
        elif kind == "false_win":
            c.unknown_fields(ev, _FALSE_WIN_FIELDS, path)
            seat = _seat(c, ev.get("seat"), f"{path}.seat")
            if seat is not None:
                events.append(FalseWin(i, seat))
        else:
            # a misspelt "type" is named as well as missed
            c.unknown_fields(ev, _KONG_FIELDS | _WIN_FIELDS, path)
            c.add(
                "invalid_event_type",
                f"an event is a kong, a win or a false_win, got {shown(kind)}",
                f"{path}.type",
            )
    return events


def _parse_kong(c: Collector, ev: dict, i: int, path: str) -> Kong | None:
    c.unknown_fields(ev, _KONG_FIELDS, path)
    before = c.found
    seat = _seat(c, ev.get("seat"), f"{path}.seat")
    kind = ev.get("kind")
    if kind not in KONG_KINDS:
        c.add(
            "invalid_kong_kind",
            f"a kong is concealed, direct or added, got {shown(kind)}",
            f"{path}.kind",
        )
    tile = c.attempt(parse_tile, ev.get("tile"), f"{path}.tile")
    from_ = _seat(c, ev.get("from"), f"{path}.from", optional=True)
    if kind == "direct" and ev.get("from") is None:
        c.add(
            "direct_kong_without_discarder",
            "a direct kong (直杠) is made on another player's discard: give its seat in from",
            f"{path}.from",
        )
    if kind in ("concealed", "added") and ev.get("from") is not None:
        c.add(
            "kong_with_discarder",
            f"a {kind} kong is made from one's own tiles: no from",
            f"{path}.from",
        )
    if from_ is not None and from_ == seat:
        c.add("discarder_is_konger", "a player cannot kong his own discard", f"{path}.from")
    same_turn = ev.get("same_turn", True)
    if not isinstance(same_turn, bool):
        c.add("invalid_type", "same_turn is true or false", f"{path}.same_turn")
    elif "same_turn" in ev and kind in ("concealed", "direct"):
        c.add(
            "same_turn_not_added",
            "same_turn says when an added kong (弯杠) was declared; a concealed or direct kong "
            "has no such choice: leave it out",
            f"{path}.same_turn",
        )
    on_replacement = ev.get("on_replacement", False)
    if not isinstance(on_replacement, bool):
        c.add("invalid_type", "on_replacement is true or false", f"{path}.on_replacement")
    elif on_replacement and kind == "direct":
        c.add(
            "on_replacement_direct_kong",
            "杠上杠: only a kong made from a replacement tile follows a kong; a direct kong "
            "(直杠) claims another player's discard",
            f"{path}.on_replacement",
        )
    if c.found > before:
        return None
    return Kong(i, seat, kind, tile, from_, same_turn, on_replacement)


def _parse_win(c: Collector, ev: dict, i: int, path: str) -> Win | None:
    c.unknown_fields(ev, _WIN_FIELDS, path)
    before = c.found
    from_ = _seat(c, ev.get("from"), f"{path}.from", optional=True)
    # the winning tile may be left out (or null) when every winner is declared (RULES §6)
    tile = None
    if ev.get("tile") is not None:
        tile = c.attempt(parse_tile, ev.get("tile"), f"{path}.tile")
    situation = c.attempt(
        parse_situation, ev.get("situation"), f"{path}.situation", default=frozenset()
    )
    raw = ev.get("winners")
    winners = []
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_WINNERS:
        c.add("invalid_winners", "a win lists one to three winners", f"{path}.winners")
        raw = []
    if from_ is None and len(raw) > 1:
        c.add("several_self_draw_winners", "a self-drawn win has one winner", f"{path}.winners")
    for j, w in enumerate(raw):
        wpath = f"{path}.winners[{j}]"
        if not isinstance(w, dict):
            c.add("invalid_winner", "a winner is an object {seat, concealed, melds}", wpath)
            continue
        c.unknown_fields(w, _WINNER_FIELDS, wpath)
        seat = _seat(c, w.get("seat"), f"{wpath}.seat")
        melds = parse_melds(c, w.get("melds"), f"{wpath}.melds")
        if "declared" in w:  # RULES §6: what the hand was, in place of its tiles
            if "concealed" in w:
                c.add(
                    "declared_and_shown",
                    "a winner is shown (concealed) or declared, not both",
                    f"{wpath}.concealed",
                )
            declared = parse_declaration(c, w["declared"], f"{wpath}.declared")
            winners.append(Winner(seat, (), melds, declared))
            continue
        concealed = c.attempt(parse_tiles, w.get("concealed", ""), f"{wpath}.concealed")
        winners.append(Winner(seat, concealed, melds))
    if ev.get("tile") is None and any(w.declared is None for w in winners):
        c.add(
            "winning_tile_missing",
            "a shown winner's hand is valued with the winning tile: give the win's tile "
            "(only a win whose winners are all declared may leave it out)",
            f"{path}.tile",
        )
    seats = [w.seat for w in winners]
    if len(set(seats)) != len(seats):
        c.add("duplicate_winner", "a player appears twice among the winners", f"{path}.winners")
    if c.found > before:
        return None
    return Win(i, from_, tile, situation, tuple(winners))


def _parse_draw(c: Collector, raw: Any) -> tuple[Shown, ...] | None:
    if raw is None:
        return None
    if isinstance(raw, dict):  # a misspelt "hands" is named as well as missed
        c.unknown_fields(raw, _DRAW_FIELDS, "draw")
    if not isinstance(raw, dict) or not isinstance(raw.get("hands"), dict):
        c.add("invalid_draw", 'draw is {"hands": {seat: {concealed, melds}}}', "draw")
        return None
    hands = raw["hands"]
    for key in hands:  # (however many keys were sent, only the four seats are read below)
        if key not in SEAT_KEYS:
            message = f"draw hands are keyed by seat 0–3, got {shown(key)}"
            c.add("invalid_seat", message, f"draw.hands.{path_key(key)}")
    out = []
    for seat, key in enumerate(SEAT_KEYS):
        if key not in hands:
            continue
        hand, path = hands[key], f"draw.hands.{key}"
        if not isinstance(hand, dict):
            c.add("invalid_hand", "a shown hand is {concealed, melds}", path)
            continue
        c.unknown_fields(hand, _SHOWN_FIELDS, path)
        melds = parse_melds(c, hand.get("melds"), f"{path}.melds")
        if "declared" in hand:
            declared = _parse_draw_declaration(c, hand, path)
            if declared is not None:
                out.append(Shown(seat, (), melds, *declared))
            continue
        if "wait" in hand:
            message = "a wait is given only for a player declared ready"
            c.add("unexpected_wait", message, f"{path}.wait")
        concealed = c.attempt(parse_tiles, hand.get("concealed", ""), f"{path}.concealed")
        if concealed is not None:
            out.append(Shown(seat, concealed, melds))
    return tuple(out)


def _parse_draw_declaration(c: Collector, hand: dict, path: str) -> tuple | None:
    """(declaration, wait) of a declared player at the draw (RULES §6), or None."""
    before = c.found
    declared, wait = hand["declared"], None
    if "concealed" in hand:
        c.add(
            "declared_and_shown",
            "a player at the draw is shown (concealed) or declared, not both",
            f"{path}.concealed",
        )
    # (a list or an object is no declaration, and cannot be looked up: not hashable)
    if not isinstance(declared, str) or declared not in DRAW_DECLARATIONS:
        c.add(
            "invalid_draw_declaration",
            f"a player at the draw is declared {', '.join(DRAW_DECLARATIONS)}, "
            f"got {shown(declared)}",
            f"{path}.declared",
        )
    elif declared == "ready":
        if hand.get("wait") is None:
            c.add("wait_missing", "a ready player is declared with the wait 查叫 uses", path)
        else:
            wait = parse_declaration(c, hand["wait"], f"{path}.wait")
    elif "wait" in hand:
        c.add("unexpected_wait", "a wait is given only for a player declared ready", f"{path}.wait")
    if c.found > before:
        return None
    return declared, wait


def _parse_bettors(c: Collector, raw: Any, dealer: int) -> list[Bettor]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        c.add("invalid_bettors", "bettors is a list", "bettors")
        return []
    if len(raw) > MAX_BETTORS:  # refused as a whole: a longer list is not read
        c.add(
            "too_many_bettors", f"at most {MAX_BETTORS} bettors stand behind one table", "bettors"
        )
        return []
    out = []
    for i, b in enumerate(raw):
        path = f"bettors[{i}]"
        if not isinstance(b, dict):
            c.add("invalid_bettor", "a bettor is {name, tile}", path)
            continue
        c.unknown_fields(b, _BETTOR_FIELDS, path)
        name = b.get("name")
        if not isinstance(name, str) or not name.strip():
            c.add("invalid_bettor_name", "a bettor has a name", f"{path}.name")
        elif len(name) > MAX_NAME or not is_text(name):
            # the settlement repeats the name: it must be text an answer can carry
            message = f"a name is text of at most {MAX_NAME} characters (no lone surrogate)"
            c.add("invalid_bettor_name", message, f"{path}.name")
        tile = c.attempt(parse_tile, b.get("tile"), f"{path}.tile")
        if tile is not None and isinstance(name, str):
            out.append(Bettor(name, tile, bettor_seat(dealer, tile)))
    return out
