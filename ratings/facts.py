"""What a session's hands say about each seat: the figures player statistics add up.

Plain Python over the hands as the engine settled them (typed ``Settlement``, its record
within), so a declared hand counts exactly like a shown one: its wins carry their pattern
and roots, its draw seats their 花猪.

The counting decisions, where a club could count another way:

* 点炮 is counted per discard: a discard two players win on (一炮多响) is one 点炮.
* 被自摸 is counted per self-drawn win the seat paid for.
* A win's value is what each payer paid the winner for the win itself (its ``amount``: base,
  fan and cap included, kongs and 叫马 not), so a 自摸 and the same hand won on a discard are
  worth the same.
* The order of wins (血战: 1st, 2nd, 3rd to win) counts win events: the two winners of one
  discard share the same order.
* Kong income (杠钱) is the net of the kong payments and their refunds (退税); money handed on
  by 呼叫转移 (``kong_transfer``) is counted apart, paid and received. What a robbed player
  pays the robber under 杠钱归胡家 (``kong_to_winner``) is neither: it is the price of the
  抢杠, no kong's income moving on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from scoring.engine.settle import HandRecord, Kong, Settlement

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


def _count_wins(facts: SessionFacts, number: int, settlement: Settlement) -> None:
    wins = settlement.wins
    order_of = {e: i + 1 for i, e in enumerate(sorted({w.event for w in wins}))}
    discards: set[tuple[int, int]] = set()
    preset = settlement.record.ruleset.preset
    for w in wins:
        seat, order = w.seat, order_of[w.event]
        s = facts.seats[seat]
        s.wins += 1
        s.self_draws += w.self_draw
        s.win_total += w.amount
        s.win_max = max(s.win_max, w.amount)
        if order == 1:
            s.first_wins += 1
        elif order == 2:
            s.second_wins += 1
        elif order == 3:
            s.third_wins += 1
        if w.from_ is not None:
            discards.add((w.event, w.from_))
        facts.wins.append(
            WinFact(
                seat=seat,
                hand_number=number,
                preset=preset,
                pattern=w.valuation.pattern,
                roots=w.valuation.roots,
                amount=w.amount,
                order=order,
                self_draw=w.self_draw,
                verified=w.verified,
            )
        )
    for _, source in discards:
        facts.seats[source].deal_ins += 1


def _count_payments(facts: SessionFacts, settlement: Settlement) -> None:
    self_drawn: set[tuple[int, int]] = set()
    for p in settlement.payments:
        payer, payee, amount, reason = _seat(p.payer), _seat(p.payee), p.amount, p.reason
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
        elif reason == "kong_transfer":  # 呼叫转移 only: 杠钱归胡家 is kong_to_winner
            if payee is not None:
                facts.seats[payee].transfer_received += amount
            if payer is not None:
                facts.seats[payer].transfer_paid += amount
        elif reason == "chajiao":
            if payee is not None:
                facts.seats[payee].chajiao_received += amount
            if payer is not None:
                facts.seats[payer].chajiao_paid += amount
        elif reason == "self_draw" and payer is not None and p.event is not None:
            self_drawn.add((p.event, payer))
    for _, seat in self_drawn:
        facts.seats[seat].self_drawn_against += 1


def _count_kongs(facts: SessionFacts, record: HandRecord) -> None:
    for event in record.events:
        if not isinstance(event, Kong):
            continue
        s = facts.seats[event.seat]
        if event.kind == "concealed":
            s.kongs_concealed += 1
        elif event.kind == "direct":
            s.kongs_direct += 1
        elif event.kind == "added":
            s.kongs_added += 1


def session_facts(hands: Iterable[tuple[int, Settlement]]) -> SessionFacts:
    """The four seats' figures over ``hands``: (number, settlement) of each live hand, the
    settlement as the engine settled it (its record within: ``Settlement.from_dict``)."""
    facts = SessionFacts(seats=[SeatFacts() for _ in SEAT_LABELS], wins=[])
    for number, settlement in hands:
        shown = settlement.verified
        for s in facts.seats:
            s.hands += 1
            s.shown_hands += shown
        _count_wins(facts, number, settlement)
        _count_payments(facts, settlement)
        _count_kongs(facts, settlement.record)
        for d in settlement.draw or ():
            facts.seats[d.seat].huazhu += d.huazhu
    return facts
