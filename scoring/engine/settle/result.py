"""A settled hand (RULES §4): every payment with its reason, the wins, the draw, the totals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from core.names import Name

from ..evaluate import Valuation
from ..rulesets import Ruleset
from ..tiles import tile_name
from .dealer import session_multiplier
from .record import HandRecord

#: every payment reason with its name, for pages to show (the codes are stable)
REASON_NAMES: dict[str, Name] = {
    "kong_concealed": Name("暗杠", "Concealed kong"),
    "kong_direct": Name("直杠", "Kong on a discard"),
    "kong_added": Name("弯杠", "Added kong"),
    "win": Name("点炮", "Win on a discard"),
    "self_draw": Name("自摸", "Self-drawn win"),
    "kong_transfer": Name("呼叫转移", "Kong money handed to the winner"),
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


@dataclass(frozen=True)
class DrawSeat:
    """One player still in the hand at 流局: 花猪, ready (下叫) with which waits, 查叫 value."""

    seat: int
    huazhu: bool
    ready: bool
    waits: tuple[tuple[int, Valuation, bool], ...]  # (tile, valuation, dead)
    chajiao_value: int | None  # what each not-ready player pays him; None: not ready, 查叫 off
    chajiao_wait: Valuation | None = None  # the wait 查叫 values him by (waits.chajiao_pick)
    verified: bool = True  # shown by his tiles; False: declared (RULES §6)

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
            "verified": self.verified,
        }


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
            "verified": self.verified,
        }
