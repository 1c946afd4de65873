"""A settled hand (RULES §4): every payment with its reason, the wins, the draw, the totals.

Its stored form is :meth:`Settlement.as_dict` (on a hand, each of its revisions, an exported
club file, the API's answer); :meth:`Settlement.from_dict` reads it back, with the hand's
record, into the same typed settlement — the exact inverse, so a reader takes the typed
object and never walks the dict. The form carries its ``format``:

* 1 (no ``format`` key; stored before issue 26): 杠钱归胡家 was paid under ``kong_transfer``
  like 呼叫转移, and a win or a player at the draw may lack ``verified`` (before RULES §6
  every hand was shown). Read as format 2: such a payment is told apart by its event, a win
  robbing a kong (抢杠, which excludes 杠上炮), and relabelled ``kong_to_winner``.
* 2: every payment reason its own (:data:`REASON_NAMES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from core.names import Name

from ..evaluate import Valuation
from ..rulesets import Ruleset
from ..tiles import parse_tile, tile_name
from .dealer import session_multiplier
from .record import FalseWin, HandRecord, Win

#: the version of :meth:`Settlement.as_dict`'s form (see the module's docstring)
SETTLEMENT_FORMAT = 2

#: every payment reason with its name, for pages to show (the codes are stable)
REASON_NAMES: dict[str, Name] = {
    "kong_concealed": Name("暗杠", "Concealed kong"),
    "kong_direct": Name("直杠", "Kong on a discard"),
    "kong_added": Name("弯杠", "Added kong"),
    "win": Name("点炮", "Win on a discard"),
    "self_draw": Name("自摸", "Self-drawn win"),
    "kong_transfer": Name("呼叫转移", "Kong money handed to the winner"),
    "kong_to_winner": Name("杠钱归胡家", "Robbed kong's money to the robber"),
    "huazhu": Name("查花猪", "Three suits at the draw"),
    "chajiao": Name("查叫", "Not ready at the draw"),
    "kong_refund": Name("退税", "Kong money returned at the draw"),
    "kong_return": Name("退杠钱", "Kong money returned"),
    "false_win": Name("诈胡", "False win"),
    "bettor": Name("叫马", "A bettor follows his seat"),
}


class Payment(NamedTuple):
    """One transfer (an immutable tuple: a hand makes dozens of them)."""

    payer: str  # "S0"–"S3" or "B0"…
    payee: str
    amount: int
    reason: str  # a code of REASON_NAMES
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

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Payment:
        # made as the tuple it is, without the generated __new__'s call: a hand read back
        # makes dozens of them
        return _tuple_new(
            cls, (d["payer"], d["payee"], d["amount"], d["reason"], d["event"], d.get("mirrors"))
        )


_tuple_new = tuple.__new__


@dataclass(frozen=True)
class WinResult:
    """One winner of a win event, with what his hand is worth."""

    event: int
    seat: int
    from_: int | None
    tile: int | None  # None: a declared win recorded without its tile (RULES §6)
    self_draw: bool
    valuation: Valuation
    amount: int  # what each payer pays this winner for the win itself
    verified: bool = True  # shown by his tiles; False: declared (RULES §6)

    def as_dict(self, r: Ruleset) -> dict[str, Any]:
        return {
            "event": self.event,
            "seat": self.seat,
            "from": self.from_,
            "tile": None if self.tile is None else tile_name(self.tile),
            "self_draw": self.self_draw,
            **self.valuation.as_dict(r),
            "amount": self.amount,
            "verified": self.verified,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], r: Ruleset) -> WinResult:
        tile = d["tile"]
        return cls(
            d["event"],
            d["seat"],
            d["from"],
            None if tile is None else parse_tile(tile),
            d["self_draw"],
            Valuation.from_dict(d, r),
            d["amount"],
            d.get("verified", True),
        )


class DrawWait(NamedTuple):
    """A tile a ready player at the draw waits on: the pattern and value it would win with,
    and whether it is dead (死叫: every copy in sight)."""

    tile: int
    pattern: str
    value: int
    dead: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "tile": tile_name(self.tile),
            "pattern": self.pattern,
            "value": self.value,
            "dead": self.dead,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> DrawWait:
        return cls(parse_tile(d["tile"]), d["pattern"], d["value"], d["dead"])


@dataclass(frozen=True)
class DrawSeat:
    """One player still in the hand at 流局: 花猪, ready (下叫) with which waits, 查叫 value."""

    seat: int
    huazhu: bool
    ready: bool
    waits: tuple[DrawWait, ...]
    chajiao_value: int | None  # what each not-ready player pays him; None: not ready, 查叫 off
    #: the wait 查叫 values him by (waits.chajiao_pick), while the hand is settled (花猪 pays
    #: by it under ``chajiao_plus_fan``); what it came to is ``chajiao_value``, which is what
    #: is kept: not stored, so None in a settlement read back, and not compared
    chajiao_wait: Valuation | None = field(default=None, compare=False)
    verified: bool = True  # shown by his tiles; False: declared (RULES §6)

    def as_dict(self, r: Ruleset) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "huazhu": self.huazhu,
            "ready": self.ready,
            "waits": [w.as_dict() for w in self.waits],
            "chajiao_value": self.chajiao_value,
            "verified": self.verified,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> DrawSeat:
        return cls(
            seat=d["seat"],
            huazhu=d["huazhu"],
            ready=d["ready"],
            waits=tuple(DrawWait.from_dict(w) for w in d["waits"]),
            chajiao_value=d["chajiao_value"],
            verified=d.get("verified", True),
        )


class WinSummary(NamedTuple):
    """One win of a settled hand at a glance: the winner, the discarder (None: 自摸), the
    pattern and roots, what each payer paid him for it, whether his tiles were shown, and
    its event (index into the record's events)."""

    seat: int
    from_: int | None
    pattern: str
    roots: int
    amount: int
    verified: bool
    event: int


class SettlementSummary(NamedTuple):
    """A settled hand at a glance, as a table's 流水 sheet shows each of its hands: the net
    per seat and per bettor, the bettors' names (in the record's order), the wins, the false
    wins (诈胡: the record's ``FalseWin`` events), whether the wall ran out (流局) and whether
    everything was shown (:attr:`Settlement.verified`).

    :meth:`from_dict` reads it from the stored forms — the settlement's, and of the record's
    only its false wins: no record, no rules, no valuation built — so a sheet of 400 hands
    read from nothing costs what reading their forms costs; it is what
    :meth:`Settlement.summary` says of the settlement the forms read as."""

    seat_totals: tuple[int, ...]
    bettor_totals: tuple[int, ...]
    bettors: tuple[str, ...]
    wins: tuple[WinSummary, ...]
    false_wins: tuple[FalseWin, ...]
    drawn: bool
    verified: bool

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], record: Mapping[str, Any]) -> SettlementSummary:
        """The summary of a stored settlement ``d`` (:meth:`Settlement.as_dict`, any
        ``format`` so far: a form of format 1 may lack ``verified``, and was shown) and its
        hand's stored ``record`` (a form the engine accepted). ``ValueError`` for a form
        newer than this code, as :meth:`Settlement.from_dict`."""
        version = d.get("format", 1)
        if version > SETTLEMENT_FORMAT:
            raise ValueError(f"settlement format {version} is newer than {SETTLEMENT_FORMAT}")
        wins = tuple([_win_summary(w) for w in d["wins"]])
        draw = d["draw"]
        totals = d["totals"]
        verified = all(w.verified for w in wins) and (
            draw is None or all(x.get("verified", True) for x in draw)
        )
        return cls(
            tuple(totals["seats"]),
            tuple(totals["bettors"]),
            tuple([b["name"] for b in d["bettors"]]),
            wins,
            tuple(
                [
                    FalseWin(i, ev["seat"])
                    for i, ev in enumerate(record.get("events") or ())
                    if ev["type"] == "false_win"
                ]
            ),
            draw is not None,
            verified,
        )


def _win_summary(w: Mapping[str, Any]) -> WinSummary:
    fields = (
        w["seat"], w["from"], w["pattern"], w["roots"], w["amount"], w.get("verified", True),
        w["event"],
    )  # fmt: skip
    return _tuple_new(WinSummary, fields)


@dataclass(frozen=True)
class Settlement:
    """A settled hand: zero-sum across the seats and the bettors (proven before it is made)."""

    record: HandRecord
    wins: tuple[WinResult, ...]
    payments: tuple[Payment, ...]
    seat_totals: tuple[int, ...]
    bettor_totals: tuple[int, ...]
    draw: tuple[DrawSeat, ...] | None
    next_dealer: int | None
    finished: bool

    @property
    def verified(self) -> bool:
        """Whether every winner and every player at the draw was shown by his tiles (False
        when anything was declared, RULES §6)."""
        return all(w.verified for w in self.wins) and all(d.verified for d in self.draw or ())

    def summary(self) -> SettlementSummary:
        """The settlement at a glance (what :meth:`SettlementSummary.from_dict` reads from its
        stored form)."""
        return SettlementSummary(
            self.seat_totals,
            self.bettor_totals,
            tuple(b.name for b in self.record.bettors),
            tuple(
                WinSummary(
                    w.seat,
                    w.from_,
                    w.valuation.pattern,
                    w.valuation.roots,
                    w.amount,
                    w.verified,
                    w.event,
                )
                for w in self.wins
            ),
            tuple(ev for ev in self.record.events if isinstance(ev, FalseWin)),
            self.draw is not None,
            self.verified,
        )

    def as_dict(self) -> dict[str, Any]:
        rec = self.record
        r = rec.ruleset
        return {
            "format": SETTLEMENT_FORMAT,
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
            "verified": self.verified,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], record: HandRecord) -> Settlement:
        """The settlement a stored form describes (:meth:`as_dict`, any ``format`` so far),
        read with the hand's record (``HandRecord.from_dict``: the form names the record's
        rules and stake, not its events). Nothing is settled again: the amounts are the
        stored ones. ``ValueError`` for a form newer than this code."""
        version = d.get("format", 1)
        if version > SETTLEMENT_FORMAT:
            raise ValueError(f"settlement format {version} is newer than {SETTLEMENT_FORMAT}")
        r = record.ruleset
        payment = Payment.from_dict
        payments = tuple([payment(p) for p in d["payments"]])
        if version == 1:
            payments = tuple(relabelled_payment(p, record) for p in payments)
        draw = d["draw"]
        totals = d["totals"]
        return cls(
            record,
            tuple([WinResult.from_dict(w, r) for w in d["wins"]]),
            payments,
            tuple(totals["seats"]),
            tuple(totals["bettors"]),
            None if draw is None else tuple([DrawSeat.from_dict(x) for x in draw]),
            d["next_dealer"],
            d["finished"],
        )


def upgraded_form(d: Any, record: HandRecord) -> Any:
    """A stored settlement's form as format 2 (:data:`SETTLEMENT_FORMAT`) writes it, for a
    reader that compares forms (an imported file's with the engine's): a format-1 form gets
    its ``format`` and its 杠钱归胡家 payments their own reason. Anything else, a form of
    format 2 or not a form at all, is returned as it is: never raises."""
    if not isinstance(d, dict) or "format" in d:
        return d
    out = {"format": SETTLEMENT_FORMAT, **d}
    payments = d.get("payments")
    if isinstance(payments, list):
        events = {ev.index: ev for ev in record.events}
        out["payments"] = [
            {**p, "reason": "kong_to_winner"}
            if isinstance(p, dict)
            and p.get("reason") == "kong_transfer"
            and type(p.get("event")) is int
            and robbed_kong_win(events.get(p["event"]))
            else p
            for p in payments
        ]
    return out


def robbed_kong_win(event: Any) -> bool:
    """Whether a record's event is a win robbing a kong (抢杠, RULES §3.4): a ``kong_transfer``
    payment of format 1 made at it was 杠钱归胡家, since 抢杠 and 杠上炮 exclude each other."""
    return isinstance(event, Win) and "robbing_kong" in event.situation


def relabelled_payment(p: Payment, record: HandRecord) -> Payment:
    """A payment of format 1 with the reason format 2 gives it (``kong_to_winner``)."""
    if p.reason != "kong_transfer" or p.event is None:
        return p
    event = next((ev for ev in record.events if ev.index == p.event), None)
    return p._replace(reason="kong_to_winner") if robbed_kong_win(event) else p
