"""What a session's hands say about each seat: the figures player statistics add up.

Plain Python over the hands as they are stored (the record a scorer sent and the engine's
settlement of it), so a declared hand counts exactly like a shown one: its wins carry their
pattern and roots, its draw seats their 花猪.

The counting decisions, where a club could count another way:

* 点炮 is counted per discard: a discard two players win on (一炮多响) is one 点炮.
* 被自摸 is counted per self-drawn win the seat paid for.
* A win's value is what each payer paid the winner for the win itself (its ``amount``: base,
  fan and cap included, kongs and 叫马 not), so a 自摸 and the same hand won on a discard are
  worth the same.
* The order of wins (血战: 1st, 2nd, 3rd to win) counts win events: the two winners of one
  discard share the same order.
* Kong income (杠钱) is the net of the kong payments and their refunds (退税); money handed on
  by 呼叫转移 is counted apart, paid and received.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

KONG_REASONS = frozenset(
    ("kong_concealed", "kong_direct", "kong_added", "kong_refund", "kong_return")
)
SEAT_LABELS = ("S0", "S1", "S2", "S3")


@dataclass(frozen=True)
class WinFact:
    seat: int
    hand_number: int
    preset: str
    pattern: str
    roots: int
    amount: int
    order: int
    self_draw: bool
    verified: bool


@dataclass
class SeatFacts:
    """One seat's figures over the hands of a session."""

    hands: int = 0
    shown_hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    self_drawn_against: int = 0
    win_total: int = 0
    win_max: int = 0
    first_wins: int = 0
    second_wins: int = 0
    third_wins: int = 0
    kongs_concealed: int = 0
    kongs_direct: int = 0
    kongs_added: int = 0
    kong_net: int = 0
    transfer_paid: int = 0
    transfer_received: int = 0
    chajiao_paid: int = 0
    chajiao_received: int = 0
    huazhu: int = 0
    exchanged: dict[int, int] = field(default_factory=dict)  # net from each other seat

    def as_fields(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if k != "exchanged"}


@dataclass
class SessionFacts:
    seats: list[SeatFacts]
    wins: list[WinFact]


def _seat(label: str) -> int | None:
    return SEAT_LABELS.index(label) if label in SEAT_LABELS else None


def _count_wins(facts: SessionFacts, number: int, settlement: Mapping[str, Any]) -> None:
    wins = settlement.get("wins") or []
    order_of = {e: i + 1 for i, e in enumerate(sorted({w["event"] for w in wins}))}
    discards: set[tuple[int, int]] = set()
    for w in wins:
        seat, order = w["seat"], order_of[w["event"]]
        s = facts.seats[seat]
        s.wins += 1
        s.self_draws += bool(w["self_draw"])
        s.win_total += w["amount"]
        s.win_max = max(s.win_max, w["amount"])
        if order == 1:
            s.first_wins += 1
        elif order == 2:
            s.second_wins += 1
        elif order == 3:
            s.third_wins += 1
        if w.get("from") is not None:
            discards.add((w["event"], w["from"]))
        facts.wins.append(
            WinFact(
                seat=seat,
                hand_number=number,
                preset=settlement.get("preset") or "",
                pattern=w.get("pattern") or "",
                roots=w.get("roots") or 0,
                amount=w["amount"],
                order=order,
                self_draw=bool(w["self_draw"]),
                verified=w.get("verified", True),
            )
        )
    for _, source in discards:
        facts.seats[source].deal_ins += 1


def _count_payments(facts: SessionFacts, settlement: Mapping[str, Any]) -> None:
    self_drawn: set[tuple[int, int]] = set()
    for p in settlement.get("payments") or []:
        payer, payee, amount, reason = (
            _seat(p["payer"]),
            _seat(p["payee"]),
            p["amount"],
            p["reason"],
        )
        if payer is not None and payee is not None:
            ex = facts.seats[payee].exchanged
            ex[payer] = ex.get(payer, 0) + amount
            ex = facts.seats[payer].exchanged
            ex[payee] = ex.get(payee, 0) - amount
        if reason in KONG_REASONS:
            if payee is not None:
                facts.seats[payee].kong_net += amount
            if payer is not None:
                facts.seats[payer].kong_net -= amount
        elif reason == "kong_transfer":
            if payee is not None:
                facts.seats[payee].transfer_received += amount
            if payer is not None:
                facts.seats[payer].transfer_paid += amount
        elif reason == "chajiao":
            if payee is not None:
                facts.seats[payee].chajiao_received += amount
            if payer is not None:
                facts.seats[payer].chajiao_paid += amount
        elif reason == "self_draw" and payer is not None and p.get("event") is not None:
            self_drawn.add((p["event"], payer))
    for _, seat in self_drawn:
        facts.seats[seat].self_drawn_against += 1


def _count_kongs(facts: SessionFacts, record: Mapping[str, Any]) -> None:
    for event in record.get("events") or []:
        if not isinstance(event, Mapping) or event.get("type") != "kong":
            continue
        s = facts.seats[event["seat"]]
        kind = event.get("kind")
        if kind == "concealed":
            s.kongs_concealed += 1
        elif kind == "direct":
            s.kongs_direct += 1
        elif kind == "added":
            s.kongs_added += 1


def session_facts(
    hands: Iterable[tuple[int, Mapping[str, Any], Mapping[str, Any]]],
) -> SessionFacts:
    """The four seats' figures over ``hands``: (number, record, settlement) of each live hand."""
    facts = SessionFacts(seats=[SeatFacts() for _ in SEAT_LABELS], wins=[])
    for number, record, settlement in hands:
        shown = settlement.get("verified", True)
        for s in facts.seats:
            s.hands += 1
            s.shown_hands += bool(shown)
        _count_wins(facts, number, settlement)
        _count_payments(facts, settlement)
        _count_kongs(facts, record)
        for d in settlement.get("draw") or []:
            facts.seats[d["seat"]].huazhu += bool(d.get("huazhu"))
    return facts
