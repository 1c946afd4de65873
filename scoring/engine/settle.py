"""Settling one whole hand (RULES §3–§5): replay the record, refuse what cannot have happened,
and list who pays whom and why.

The replay keeps, per player, whether he is still in the hand, and per kong the income it
collected (for 呼叫转移 and 退税). Every payment is a transfer in integers of the base unit,
so the settlement is zero-sum by construction; it is still proven before it is returned.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .errors import Collector, EngineError, Problem
from .evaluate import (
    Valuation,
    WinningHand,
    check_winning_hand,
    evaluate_key,
    parse_situation,
    situation_bits,
)
from .melds import Meld, MeldGroup, parse_melds
from .rulesets import Ruleset, resolve_ruleset
from .shapes import TILE_BIT, hand_key
from .tiles import parse_suit, parse_tile, parse_tiles, rank_of, tile_name
from .waits import chajiao_owed, chajiao_pick, is_huazhu, wait_valuations

KONG_KINDS = ("concealed", "direct", "added")
KONG_REASON = {"concealed": "kong_concealed", "direct": "kong_direct", "added": "kong_added"}
MODES = ("xuezhan", "single")
MAX_BETTORS = 32  # each draws a tile from the wall: far more than a table ever has


# --- the record --------------------------------------------------------------------------


@dataclass(frozen=True)
class Kong:
    """A kong event (刮风下雨): 暗杠 concealed, 直杠 direct (on ``from_``'s discard), 弯杠 added."""

    index: int
    seat: int
    kind: str
    tile: int
    from_: int | None = None
    same_turn: bool = True  # a 弯杠 declared on the turn its tile was drawn


@dataclass(frozen=True)
class Winner:
    seat: int
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]


@dataclass(frozen=True)
class Win:
    """A win event: one self-draw (``from_`` None) or one discard won by one or more (一炮多响)."""

    index: int
    from_: int | None
    tile: int
    situation: frozenset[str]
    winners: tuple[Winner, ...]


@dataclass(frozen=True)
class Shown:
    """The tiles a player still in the hand shows when the wall runs out."""

    seat: int
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]


@dataclass(frozen=True)
class Bettor:
    """叫马: a person beyond the four, bound to the seat his tile counts to from the dealer."""

    name: str
    tile: int
    seat: int


@dataclass(frozen=True)
class HandRecord:
    ruleset: Ruleset
    base: int
    mode: str
    dealer: int
    declared_void: tuple[int | None, ...]
    events: tuple[Kong | Win, ...]
    draw: tuple[Shown, ...] | None
    bettors: tuple[Bettor, ...]
    draws_before: int = 0
    dealer_streak: int = 0


# --- the settlement ----------------------------------------------------------------------


class Payment(NamedTuple):
    """One transfer (an immutable tuple: a hand makes dozens of them)."""

    payer: str  # "S0"–"S3" or "B0"…
    payee: str
    amount: int
    reason: str
    event: int | None  # index into the record's events; None for the draw (流局) stage
    mirrors: int | None = None  # for a bettor's payment: the index of the seat payment

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "reason": self.reason,
            "event": self.event,
        }
        if self.mirrors is not None:
            d["mirrors"] = self.mirrors
        return d


@dataclass(frozen=True)
class WinResult:
    event: int
    seat: int
    from_: int | None
    tile: int
    self_draw: bool
    valuation: Valuation
    amount: int  # what each payer pays this winner for the win itself

    def as_dict(self, r: Ruleset) -> dict[str, Any]:
        return {
            "event": self.event,
            "seat": self.seat,
            "from": self.from_,
            "tile": tile_name(self.tile),
            "self_draw": self.self_draw,
            **self.valuation.as_dict(r),
            "amount": self.amount,
        }


@dataclass(frozen=True)
class DrawSeat:
    """One player still in the hand at 流局: 花猪, ready (下叫) with which waits, 查叫 value."""

    seat: int
    huazhu: bool
    ready: bool
    waits: tuple[tuple[int, Valuation, bool], ...]  # (tile, valuation, dead)
    chajiao_value: int | None  # what each not-ready player pays him; None: not ready, 查叫 off
    chajiao_wait: Valuation | None = None  # the wait 查叫 values him by (waits.chajiao_pick)

    def as_dict(self, r: Ruleset) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "huazhu": self.huazhu,
            "ready": self.ready,
            "waits": [
                {"tile": tile_name(t), "pattern": v.pattern, "value": v.value, "dead": dead}
                for t, v, dead in self.waits
            ],
            "chajiao_value": self.chajiao_value,
        }


@dataclass(frozen=True)
class Settlement:
    record: HandRecord
    wins: tuple[WinResult, ...]
    payments: tuple[Payment, ...]
    seat_totals: tuple[int, ...]
    bettor_totals: tuple[int, ...]
    draw: tuple[DrawSeat, ...] | None
    next_dealer: int | None
    finished: bool

    def as_dict(self) -> dict[str, Any]:
        rec = self.record
        r = rec.ruleset
        return {
            "ruleset": r.fingerprint,
            "preset": r.preset,
            "base": rec.base,
            "mode": rec.mode,
            "dealer": rec.dealer,
            "multiplier": session_multiplier(rec),
            "wins": [w.as_dict(r) for w in self.wins],
            "payments": [p.as_dict() for p in self.payments],
            "totals": {"seats": list(self.seat_totals), "bettors": list(self.bettor_totals)},
            "draw": None if self.draw is None else [d.as_dict(r) for d in self.draw],
            "bettors": [
                {"name": b.name, "tile": tile_name(b.tile), "seat": b.seat} for b in rec.bettors
            ],
            "next_dealer": self.next_dealer,
            "finished": self.finished,
        }


SEAT_LABELS = ("S0", "S1", "S2", "S3")
BETTOR_LABELS = tuple(f"B{i}" for i in range(MAX_BETTORS))


def seat_label(seat: int) -> str:
    return SEAT_LABELS[seat]


def session_multiplier(rec: HandRecord) -> int:
    """Cross-hand doubling where the preset has it (xuezhan9): 黄庄加倍 per drawn hand before,
    连庄 from the dealer's third hand in a row."""
    if not rec.ruleset.session_doubling:
        return 1
    mult = 1 << rec.draws_before
    if rec.dealer_streak >= 2:
        mult <<= rec.dealer_streak - 1
    return mult


def bettor_seat(dealer: int, tile: int) -> int:
    """Counting from the dealer in play order by the tile's rank: 1 dealer, 2 next, …"""
    return (dealer + rank_of(tile) - 1) % 4


# --- parsing -----------------------------------------------------------------------------


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _seat(c: Collector, value: Any, path: str, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if not _is_int(value) or not 0 <= value <= 3:
        c.add("invalid_seat", f"a seat is 0, 1, 2 or 3, got {value!r}", path)
        return None
    return value


def parse_record(data: Any) -> HandRecord:
    """A hand record from its JSON form; raises EngineError listing every problem found."""
    record, problems = read_record(data)
    if problems:
        raise EngineError.many(problems)
    return record


def read_record(data: Any) -> tuple[HandRecord, list[Problem]]:
    """A hand record and the problems found reading it.

    Where a field is wrong the record carries a stand-in (the default preset, base 1,
    dealer 0), so the events can still be replayed and their problems reported too.
    """
    if not isinstance(data, dict):
        raise EngineError("invalid_record", "a hand record is a JSON object", "")
    c = Collector()
    c.unknown_fields(
        data,
        {
            "ruleset",
            "base",
            "mode",
            "dealer",
            "declared_void",
            "events",
            "draw",
            "bettors",
            "session",
        },
        "",
    )
    ruleset = c.attempt(resolve_ruleset, data.get("ruleset"), "ruleset")
    base = data.get("base", 1)
    if not _is_int(base) or base < 1:
        c.add("invalid_base", f"base is a whole number ≥ 1, got {base!r}", "base")
    mode = data.get("mode")
    if mode is not None and mode not in MODES:
        c.add("invalid_mode", f"mode is xuezhan or single, got {mode!r}", "mode")
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
    session = data.get("session") or {}
    draws_before = dealer_streak = 0
    if not isinstance(session, dict):
        c.add("invalid_session", "session is an object", "session")
    else:
        c.unknown_fields(session, {"draws_before", "dealer_streak"}, "session")
        draws_before = session.get("draws_before", 0)
        dealer_streak = session.get("dealer_streak", 0)
        for key, value in (("draws_before", draws_before), ("dealer_streak", dealer_streak)):
            if not _is_int(value) or not 0 <= value <= 16:
                c.add("invalid_session", f"{key} is a whole number from 0 to 16", f"session.{key}")
                draws_before = dealer_streak = 0
    ruleset = ruleset or resolve_ruleset(None)
    record = HandRecord(
        ruleset=ruleset,
        base=base if _is_int(base) and base >= 1 else 1,
        mode=mode if mode in MODES else ruleset.options.mode,
        dealer=dealer if dealer is not None else 0,
        declared_void=tuple(voids),
        events=tuple(events),
        draw=draw,
        bettors=tuple(bettors),
        draws_before=draws_before,
        dealer_streak=dealer_streak,
    )
    return record, c.problems


def _parse_events(c: Collector, raw: Any) -> list[Kong | Win]:
    if not isinstance(raw, list):
        c.add("invalid_events", "events is a list", "events")
        return []
    events: list[Kong | Win] = []
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
        else:
            c.add(
                "invalid_event_type", f"an event is a kong or a win, got {kind!r}", f"{path}.type"
            )
    return events


def _parse_kong(c: Collector, ev: dict, i: int, path: str) -> Kong | None:
    c.unknown_fields(ev, {"type", "seat", "kind", "tile", "from", "same_turn"}, path)
    before = len(c)
    seat = _seat(c, ev.get("seat"), f"{path}.seat")
    kind = ev.get("kind")
    if kind not in KONG_KINDS:
        c.add(
            "invalid_kong_kind",
            f"a kong is concealed, direct or added, got {kind!r}",
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
    if len(c) > before:
        return None
    return Kong(i, seat, kind, tile, from_, same_turn)


def _parse_win(c: Collector, ev: dict, i: int, path: str) -> Win | None:
    c.unknown_fields(ev, {"type", "from", "tile", "situation", "winners"}, path)
    before = len(c)
    from_ = _seat(c, ev.get("from"), f"{path}.from", optional=True)
    tile = c.attempt(parse_tile, ev.get("tile"), f"{path}.tile")
    situation = c.attempt(
        parse_situation, ev.get("situation"), f"{path}.situation", default=frozenset()
    )
    raw = ev.get("winners")
    winners = []
    if not isinstance(raw, list) or not raw:
        c.add("invalid_winners", "a win lists one or more winners", f"{path}.winners")
        raw = []
    if from_ is None and len(raw) > 1:
        c.add("several_self_draw_winners", "a self-drawn win has one winner", f"{path}.winners")
    for j, w in enumerate(raw):
        wpath = f"{path}.winners[{j}]"
        if not isinstance(w, dict):
            c.add("invalid_winner", "a winner is an object {seat, concealed, melds}", wpath)
            continue
        c.unknown_fields(w, {"seat", "concealed", "melds"}, wpath)
        seat = _seat(c, w.get("seat"), f"{wpath}.seat")
        concealed = c.attempt(parse_tiles, w.get("concealed", ""), f"{wpath}.concealed")
        melds = parse_melds(c, w.get("melds"), f"{wpath}.melds")
        winners.append(Winner(seat, concealed, melds))
    seats = [w.seat for w in winners]
    if len(set(seats)) != len(seats):
        c.add("duplicate_winner", "a player appears twice among the winners", f"{path}.winners")
    if len(c) > before:
        return None
    return Win(i, from_, tile, situation, tuple(winners))


def _parse_draw(c: Collector, raw: Any) -> tuple[Shown, ...] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("hands"), dict):
        c.add("invalid_draw", 'draw is {"hands": {seat: {concealed, melds}}}', "draw")
        return None
    c.unknown_fields(raw, {"hands"}, "draw")
    shown = []
    for key, hand in sorted(raw["hands"].items()):
        path = f"draw.hands.{key}"
        if key not in ("0", "1", "2", "3"):
            c.add("invalid_seat", f"draw hands are keyed by seat 0–3, got {key!r}", path)
            continue
        if not isinstance(hand, dict):
            c.add("invalid_hand", "a shown hand is {concealed, melds}", path)
            continue
        c.unknown_fields(hand, {"concealed", "melds"}, path)
        concealed = c.attempt(parse_tiles, hand.get("concealed", ""), f"{path}.concealed")
        melds = parse_melds(c, hand.get("melds"), f"{path}.melds")
        if concealed is not None:
            shown.append(Shown(int(key), concealed, melds))
    return tuple(shown)


def _parse_bettors(c: Collector, raw: Any, dealer: int) -> list[Bettor]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        c.add("invalid_bettors", "bettors is a list", "bettors")
        return []
    if len(raw) > MAX_BETTORS:
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
        c.unknown_fields(b, {"name", "tile"}, path)
        name = b.get("name")
        if not isinstance(name, str) or not name.strip():
            c.add("invalid_bettor_name", "a bettor has a name", f"{path}.name")
        tile = c.attempt(parse_tile, b.get("tile"), f"{path}.tile")
        if tile is not None and isinstance(name, str):
            out.append(Bettor(name, tile, bettor_seat(dealer, tile)))
    return out


# --- the replay --------------------------------------------------------------------------


@dataclass
class _KongIncome:
    kong: Kong
    paid: list[tuple[int, int]] = field(default_factory=list)  # (payer seat, amount)
    moved: bool = False  # handed on to a winner by 呼叫转移: never refunded


class _Replay:
    def __init__(self, rec: HandRecord, problems: list[Problem] | None = None) -> None:
        self.rec = rec
        self.r = rec.ruleset
        self.unit = rec.base * session_multiplier(rec)
        self.in_hand = [True, True, True, True]
        self.problems: list[Problem] = list(problems or ())
        self.payments: list[Payment] = []
        self.incomes: list[_KongIncome] = []
        self.wins: list[WinResult] = []
        self.n_winners = 0
        self.ended = False
        self.first_win: Win | None = None
        self.cancelled = self._robbed_kongs()
        self._seen: Counter | None = None

    def fail(self, code: str, message: str, path: str) -> None:
        self.problems.append(Problem(code, message, path))

    def pay(self, payer: int, payee: int, amount: int, reason: str, event: int | None) -> None:
        if amount > 0:
            self.payments.append(
                Payment(seat_label(payer), seat_label(payee), amount, reason, event)
            )

    def others_in(self, seat: int) -> list[int]:
        return [s for s in range(4) if s != seat and self.in_hand[s]]

    def _robbed_kongs(self) -> set[int]:
        """Added kongs robbed by the win right after them (抢杠): cancelled, paying nothing."""
        events = self.rec.events
        out = set()
        for i, ev in enumerate(events):
            if not isinstance(ev, Win) or "robbing_kong" not in ev.situation or i == 0:
                continue
            prev = events[i - 1]
            if isinstance(prev, Kong) and prev.seat == ev.from_:
                if prev.kind != "added" or prev.tile != ev.tile:
                    self.fail(
                        "robbing_kong_mismatch",
                        "抢杠 robs an added kong (弯杠) of the winning tile; the kong before "
                        f"is a {prev.kind} kong of {tile_name(prev.tile)}",
                        f"events[{i}].situation",
                    )
                out.add(prev.index)
        return out

    # events

    def run(self) -> Settlement:
        for ev in self.rec.events:
            path = f"events[{ev.index}]"
            if self.ended:
                self.fail(
                    "hand_already_over",
                    "the hand was already over (three winners, or a win in single mode)",
                    path,
                )
                continue
            if isinstance(ev, Kong):
                self.kong(ev, path)
            else:
                self.win(ev, path)
        draw = self.draw() if self.rec.draw is not None else None
        self.check_copies()
        if self.problems:
            raise EngineError.many(self.problems)
        payments = self.with_bettors()
        books = dict.fromkeys((*SEAT_LABELS, *BETTOR_LABELS[: len(self.rec.bettors)]), 0)
        for p in payments:
            books[p.payer] -= p.amount
            books[p.payee] += p.amount
        seats = [books[label] for label in SEAT_LABELS]
        bettors = [books[label] for label in BETTOR_LABELS[: len(self.rec.bettors)]]
        if sum(books.values()) != 0:  # pragma: no cover - transfers cannot create money
            raise AssertionError("settlement is not zero-sum")
        return Settlement(
            record=self.rec,
            wins=tuple(self.wins),
            payments=tuple(payments),
            seat_totals=tuple(seats),
            bettor_totals=tuple(bettors),
            draw=draw,
            next_dealer=self.next_dealer(),
            finished=self.ended or self.rec.draw is not None,
        )

    def kong(self, k: Kong, path: str) -> None:
        if not self.in_hand[k.seat]:
            self.fail(
                "player_already_won", "a player who has won is out of the hand", f"{path}.seat"
            )
            return
        if k.from_ is not None and not self.in_hand[k.from_]:
            self.fail(
                "discarder_already_won", "a player who has won no longer discards", f"{path}.from"
            )
            return
        income = _KongIncome(k)
        self.incomes.append(income)
        if k.index in self.cancelled:
            return
        o = self.r.options
        if k.kind == "direct":
            charges = [(k.from_, o.kong_direct)]
            if o.drizzle:  # 下毛毛雨: the others still in pay 1 as well
                charges += [(s, 1) for s in self.others_in(k.seat) if s != k.from_]
        elif k.kind == "concealed":
            charges = [(s, o.kong_concealed) for s in self.others_in(k.seat)]
        elif o.added_kong_same_turn and not k.same_turn:
            charges = []  # a 弯杠 declared after the turn its tile was drawn pays nothing
        else:
            charges = [(s, o.kong_added) for s in self.others_in(k.seat)]
        for payer, n in charges:
            amount = n * self.unit
            if amount:
                self.pay(payer, k.seat, amount, KONG_REASON[k.kind], k.index)
                income.paid.append((payer, amount))

    def win(self, w: Win, path: str) -> None:
        before = len(self.problems)
        events = self.rec.events
        prev = events[w.index - 1] if w.index else None
        prev_kong = prev if isinstance(prev, Kong) else None
        seats = [x.seat for x in w.winners]
        if w.from_ is not None:
            if not self.in_hand[w.from_]:
                self.fail(
                    "discarder_already_won",
                    "a player who has won no longer discards",
                    f"{path}.from",
                )
            if w.from_ in seats:
                self.fail(
                    "discarder_is_winner", "a player cannot win on his own discard", f"{path}.from"
                )
        for j, seat in enumerate(seats):
            if not self.in_hand[seat]:
                self.fail(
                    "player_already_won",
                    "a player who has won is out of the hand",
                    f"{path}.winners[{j}].seat",
                )
        if self.rec.mode == "xuezhan" and self.n_winners + len(seats) > 3:
            self.fail("too_many_wins", "血战到底 ends when three players have won", path)
        s = w.situation
        if "kong_flower" in s and not (prev_kong and prev_kong.seat in seats):
            self.fail(
                "kong_flower_without_kong",
                "杠上花 needs the winner's own kong just before the win",
                f"{path}.situation",
            )
        if "kong_discard" in s and not (prev_kong and prev_kong.seat == w.from_):
            self.fail(
                "kong_discard_without_kong",
                "杠上炮 needs the discarder's kong just before the win",
                f"{path}.situation",
            )
        if "heavenly" in s and (seats != [self.rec.dealer] or w.from_ is not None or w.index):
            self.fail(
                "heavenly_impossible",
                "天胡 is the dealer's self-drawn win before any other event",
                f"{path}.situation",
            )
        if "earthly" in s and (self.rec.dealer in seats or w.index):
            self.fail(
                "earthly_impossible",
                "地胡 is a non-dealer's win in the first go-round, before any other event",
                f"{path}.situation",
            )
        after_direct = (
            "kong_flower" in s
            and prev_kong is not None
            and prev_kong.kind == "direct"
            and self.r.options.kong_flower_after_direct == "discard"
        )
        results = []
        for j, x in enumerate(w.winners):
            wpath = f"{path}.winners[{j}]"
            hand = WinningHand(x.concealed, w.tile, x.melds, w.from_ is None, s)
            for p in check_winning_hand(hand, wpath):
                if p.path.endswith(".situation"):
                    p = Problem(p.code, p.message, f"{path}.situation")
                if (p.code, p.path) not in {(q.code, q.path) for q in self.problems}:
                    self.problems.append(p)
            self.check_melds(x.seat, x.melds, w.index, f"{wpath}.melds")
            key = hand_key(x.concealed) + TILE_BIT[w.tile]
            v = evaluate_key(
                key,
                len(x.concealed) + 1,
                self.r,
                MeldGroup.of(x.melds),
                w.from_ is None and not after_direct,
                situation_bits(s),
                self.rec.declared_void[x.seat],
            )
            if isinstance(v, str):
                self.fail(v, f"seat {x.seat}'s hand is not a win: {v.replace('_', ' ')}", wpath)
            else:
                results.append((x.seat, v))
        was_in = list(self.in_hand)  # who was still in when the tile was discarded
        for seat in seats:
            self.in_hand[seat] = False
        self.n_winners += len(seats)
        if self.rec.mode == "single" or self.n_winners >= 3:
            self.ended = True
        if len(self.problems) > before:
            return
        self.first_win = self.first_win or w
        for seat, v in results:
            self.pay_win(w, seat, v, prev_kong, after_direct, was_in)

    def pay_win(
        self,
        w: Win,
        seat: int,
        v: Valuation,
        prev_kong: Kong | None,
        after_direct: bool,
        was_in: list[bool],
    ) -> None:
        amount = v.value * self.unit
        i = w.index
        if w.from_ is None:
            self.wins.append(WinResult(i, seat, None, w.tile, not after_direct, v, amount))
            if after_direct:  # 引杠杠上花 paid as a discard by the player whose tile was konged
                self.pay(prev_kong.from_, seat, amount, "win", i)
            else:
                for payer in self.others_in(seat):
                    self.pay(payer, seat, amount, "self_draw", i)
            return
        self.wins.append(WinResult(i, seat, w.from_, w.tile, False, v, amount))
        self.pay(w.from_, seat, amount, "win", i)
        if "kong_discard" in w.situation:  # 呼叫转移: a full copy of the kong income each
            income = self.income_of(prev_kong)
            income.moved = True
            self.pay(w.from_, seat, sum(a for _, a in income.paid), "kong_transfer", i)
        if "robbing_kong" in w.situation and self.r.robbing_pays_kong:
            # 杠钱归胡家: what the added kong would have collected from everyone still in
            # when it was declared, every winner of this discard included (一炮多响: each
            # robber receives the full amount)
            still_in = [s for s in range(4) if s != w.from_ and was_in[s]]
            extra = self.r.options.kong_added * self.unit * len(still_in)
            self.pay(w.from_, seat, extra, "kong_transfer", i)

    def income_of(self, kong: Kong) -> _KongIncome:
        return next(inc for inc in self.incomes if inc.kong is kong)

    def check_melds(self, seat: int, melds: tuple[Meld, ...], upto: int, path: str) -> None:
        """Kongs in a shown hand and kong events of that player must match one to one."""
        made = [
            inc.kong.tile
            for inc in self.incomes
            if inc.kong.seat == seat
            and inc.kong.index < upto
            and inc.kong.index not in self.cancelled
        ]
        laid = [m.tile for m in melds if m.kind == "kong"]
        if not made and not laid:
            return
        events, shown = Counter(made), Counter(laid)
        for t in sorted(shown - events):
            self.fail(
                "meld_kong_without_event",
                f"the kong of {tile_name(t)} in seat {seat}'s melds has no kong event",
                path,
            )
        for t in sorted(events - shown):
            self.fail(
                "kong_not_in_melds",
                f"seat {seat} made a kong of {tile_name(t)} that is missing from his melds",
                path,
            )

    # the draw (流局)

    def draw(self) -> tuple[DrawSeat, ...] | None:
        rec = self.rec
        if self.ended:
            self.fail("draw_after_end", "the hand was over before the wall ran out", "draw")
            return None
        still_in = [s for s in range(4) if self.in_hand[s]]
        shown = {h.seat: h for h in rec.draw}
        for s in still_in:
            if s not in shown:
                self.fail(
                    "draw_hand_missing",
                    f"seat {s} is still in the hand and must show his tiles",
                    f"draw.hands.{s}",
                )
        for s in shown:
            if s not in still_in:
                self.fail("draw_hand_of_winner", f"seat {s} has already won", f"draw.hands.{s}")
        n_events = len(rec.events)
        for h in shown.values():
            n = len(h.concealed) + 3 * len(h.melds)
            if n != 13:
                self.fail(
                    "wrong_tile_count",
                    f"a hand at the draw has 13 effective tiles, seat {h.seat}'s has {n}",
                    f"draw.hands.{h.seat}.concealed",
                )
            self.check_melds(h.seat, h.melds, n_events, f"draw.hands.{h.seat}.melds")
        if self.problems:
            return None
        seen = self.seen_tiles()
        analysis = {s: self.analyse(shown[s], seen) for s in still_in}
        self.charge_draw(analysis)
        return tuple(analysis[s] for s in still_in)

    def analyse(self, h: Shown, seen: Counter) -> DrawSeat:
        r = self.r
        key = hand_key(h.concealed)
        mg = MeldGroup.of(h.melds)
        void = self.rec.declared_void[h.seat]
        if is_huazhu(key, mg, void):
            return DrawSeat(h.seat, True, False, (), None)
        candidates = wait_valuations(key, len(h.concealed), r, mg, void)
        waits = tuple((t, v, seen[t] >= 4) for t, v in candidates)
        pick = chajiao_pick(r, candidates, {t for t, _, dead in waits if dead})
        return DrawSeat(h.seat, False, pick is not None, waits, chajiao_owed(r, pick), pick)

    def charge_draw(self, analysis: dict[int, DrawSeat]) -> None:
        r, o = self.r, self.r.options
        # a. 查花猪
        for h in (d for d in analysis.values() if d.huazhu):
            for d in analysis.values():
                if d.huazhu:
                    continue
                if o.huazhu == "chajiao_plus_fan":
                    amount = self.chajiao_plus_one(d) if d.ready else 0
                elif o.huazhu == "cap":
                    amount = r.cap_value()
                else:
                    amount = o.huazhu
                self.pay(h.seat, d.seat, amount * self.unit, "huazhu", None)
        # b. 查叫 (a ready hand has no 查叫 value when 查叫 is off: nothing is paid)
        for d in analysis.values():
            if d.ready or d.huazhu:
                continue
            for t in analysis.values():
                if t.chajiao_value is not None:
                    self.pay(d.seat, t.seat, t.chajiao_value * self.unit, "chajiao", None)
        # c. 退税
        if o.refund_kongs:
            for d in analysis.values():
                if d.ready:
                    continue
                for inc in self.incomes:
                    if inc.kong.seat == d.seat and not inc.moved:
                        for payer, amount in inc.paid:
                            self.pay(d.seat, payer, amount, "kong_refund", None)

    def chajiao_plus_one(self, d: DrawSeat) -> int:
        """The 花猪 penalty ``chajiao_plus_fan`` (xuezhan9): the ready player's 查叫 wait with
        one more step of the curve (one more fan), capped."""
        return self.r.capped_value(self.r.step(d.chajiao_wait.total, 1))[0]

    # the whole record

    def seen_tiles(self) -> Counter:
        """Every copy the record shows: hands, melds, winning tiles, unshown kongs, 叫马 tiles."""
        if self._seen is None:
            tiles: list[int] = []
            for part, _ in self.record_parts():
                tiles += part
            self._seen = Counter(tiles)
        return self._seen

    def record_parts(self):
        """(tiles, path) for every part of the record that shows tiles, in record order.

        A kong is seen in its owner's melds when he shows his hand, else as the event; the
        one discard that several players win on is one tile.
        """
        rec = self.rec
        showing = {h.seat for h in rec.draw or ()}
        for ev in rec.events:
            if isinstance(ev, Win):
                showing.update(x.seat for x in ev.winners)
        for ev in rec.events:
            path = f"events[{ev.index}]"
            if isinstance(ev, Kong):
                if ev.seat not in showing and ev.index not in self.cancelled:
                    yield (ev.tile,) * 4, f"{path}.tile"
                continue
            yield (ev.tile,), f"{path}.tile"
            for j, x in enumerate(ev.winners):
                yield from self._hand_parts(x.concealed, x.melds, f"{path}.winners[{j}]")
        for h in rec.draw or ():
            yield from self._hand_parts(h.concealed, h.melds, f"draw.hands.{h.seat}")
        for i, b in enumerate(rec.bettors):
            yield (b.tile,), f"bettors[{i}].tile"

    @staticmethod
    def _hand_parts(concealed, melds, path):
        yield concealed, f"{path}.concealed"
        for k, m in enumerate(melds):
            yield (m.tile,) * m.size, f"{path}.melds[{k}]"

    def check_copies(self) -> None:
        if max(self.seen_tiles().values(), default=0) <= 4:
            return
        counts: Counter = Counter()
        reported = set()
        for tiles, path in self.record_parts():
            for t in tiles:
                counts[t] += 1
                if counts[t] > 4 and t not in reported:
                    reported.add(t)
                    self.fail(
                        "too_many_copies",
                        f"more than four {tile_name(t)} in this record (a tile has four copies)",
                        path,
                    )

    def with_bettors(self) -> list[Payment]:
        """Each seat payment followed by the 叫马 payments that mirror it."""
        bettors = self.rec.bettors
        if not bettors:
            return self.payments
        out: list[Payment] = []
        eats = self.r.options.horse_eats_horse
        for p in self.payments:
            k = len(out)
            out.append(p)
            payer, payee = SEAT_LABELS.index(p.payer), SEAT_LABELS.index(p.payee)
            for b, bettor in enumerate(bettors):
                if bettor.seat == payee:
                    out.append(Payment(p.payer, BETTOR_LABELS[b], p.amount, "bettor", p.event, k))
                if bettor.seat == payer:
                    out.append(Payment(BETTOR_LABELS[b], p.payee, p.amount, "bettor", p.event, k))
            if eats:  # 马吃马: the payer's bettors also pay the payee's bettors
                for b, giver in enumerate(bettors):
                    for c, taker in enumerate(bettors):
                        if giver.seat == payer and taker.seat == payee:
                            out.append(
                                Payment(
                                    BETTOR_LABELS[b],
                                    BETTOR_LABELS[c],
                                    p.amount,
                                    "bettor",
                                    p.event,
                                    k,
                                )
                            )
        return out

    def next_dealer(self) -> int | None:
        rec, w = self.rec, self.first_win
        if self.r.next_dealer == "discarder_or_dice":
            if rec.mode == "xuezhan":
                return None  # 血战: dice decide; the scorer enters the next dealer
            if w is None:
                return rec.dealer
            return w.winners[0].seat if w.from_ is None else w.from_
        if w is None:
            return rec.dealer
        if len(w.winners) > 1:
            return w.from_  # 一炮多响: the discarder deals
        return w.winners[0].seat


def settle(record: HandRecord | dict) -> Settlement:
    """Replay a hand record and settle it; raises EngineError listing every refusal."""
    problems: list[Problem] = []
    if not isinstance(record, HandRecord):
        record, problems = read_record(record)
        # a malformed event, shown hand or bettor would only make the replay report
        # follow-on errors; anything else still lets the events tell their own problems
        if any(p.path.startswith(("events", "draw", "bettors")) for p in problems):
            raise EngineError.many(problems)
    return _Replay(record, problems).run()
