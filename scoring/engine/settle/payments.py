"""Who pays whom (RULES §3, §4): one function per payment rule.

The replay (``replay.py``) decides what happened and calls these in the order of the record;
each one writes its payments into the hand's :class:`Ledger`. Amounts are whole base units,
multiplied by the hand's unit (base × the session's doubling).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..evaluate import Valuation
from ..rulesets import Options, Ruleset
from .record import Event, FalseWin, Kong, Win, seat_label
from .result import DrawSeat, Payment

KONG_REASON = {"concealed": "kong_concealed", "direct": "kong_direct", "added": "kong_added"}


@dataclass
class KongIncome:
    """What one kong collected: handed on by 呼叫转移, or returned at 退税."""

    kong: Kong
    paid: list[tuple[int, int]] = field(default_factory=list)  # (payer seat, amount)
    #: handed on to a winner by 呼叫转移, or returned already (杠上炮 ``refund``, 诈胡): never
    #: returned at 退税
    moved: bool = False

    @property
    def total(self) -> int:
        return sum(amount for _, amount in self.paid)


class Ledger:
    """The payments of one hand in the order they are made, and every kong's income."""

    def __init__(self, unit: int) -> None:
        self.unit = unit  # base × the session's doubling
        self.payments: list[Payment] = []
        self.incomes: list[KongIncome] = []

    def pay(self, payer: int, payee: int, amount: int, reason: str, event: int | None) -> None:
        if amount > 0:
            self.payments.append(
                Payment(seat_label(payer), seat_label(payee), amount, reason, event)
            )

    def income_of(self, kong: Kong) -> KongIncome | None:
        return next((inc for inc in self.incomes if inc.kong is kong), None)

    def give_back(self, income: KongIncome, reason: str, event: int | None) -> None:
        """Return one kong's income to those who paid it; it is never returned again."""
        income.moved = True
        for payer, amount in income.paid:
            self.pay(income.kong.seat, payer, amount, reason, event)


def kong_payments(ledger: Ledger, k: Kong, o: Options, others_in: Sequence[int]) -> None:
    """A kong is paid at once by the players still in (RULES §4.1, §3.5 kong options): 直杠 by
    the discarder (下毛毛雨: 1 from each other player still in as well), 暗杠 and 弯杠 by every
    other player still in; a 弯杠 declared after its turn pays nothing where
    ``added_kong_same_turn`` says so. Remembered as the konger's latest kong income."""
    income = KongIncome(k)
    ledger.incomes.append(income)
    if k.kind == "direct":
        charges = [(k.from_, o.kong_direct)]
        if o.drizzle:
            charges += [(s, 1) for s in others_in if s != k.from_]
    elif k.kind == "concealed":
        charges = [(s, o.kong_concealed) for s in others_in]
    elif o.added_kong_same_turn and not k.same_turn:
        charges = []
    else:
        charges = [(s, o.kong_added) for s in others_in]
    for payer, n in charges:
        amount = n * ledger.unit
        if amount:
            ledger.pay(payer, k.seat, amount, KONG_REASON[k.kind], k.index)
            income.paid.append((payer, amount))


def win_payments(
    ledger: Ledger,
    w: Win,
    seat: int,
    v: Valuation,
    others_in: Sequence[int],
    konged_discarder: int | None = None,
) -> int:
    """A win (RULES §4.2, §4.3): on a discard the discarder pays ``base × value``; a self-draw
    is paid by every other player still in; 引杠杠上花 valued as a discard
    (``kong_flower_after_direct: discard``, ``konged_discarder`` given) by the player whose
    discard was konged, alone. Returns what each payer pays."""
    amount = v.value * ledger.unit
    if w.from_ is not None:
        ledger.pay(w.from_, seat, amount, "win", w.index)
    elif konged_discarder is not None:
        ledger.pay(konged_discarder, seat, amount, "win", w.index)
    else:
        for payer in others_in:
            ledger.pay(payer, seat, amount, "self_draw", w.index)
    return amount


def kong_transfer(ledger: Ledger, w: Win, seat: int, kong: Kong) -> None:
    """杠上炮 / 呼叫转移 (RULES §4.4, ``kong_transfer: copy``): the discarder's kong right before
    the discard hands its income on to the winner; with several winners (一炮多响) each
    receives a full copy. Income moved on is never returned at 退税."""
    income = ledger.income_of(kong)
    if income is None:  # pragma: no cover - a kong_discard win follows a kong that was made
        return
    income.moved = True
    ledger.pay(w.from_, seat, income.total, "kong_transfer", w.index)


def kong_chain(events: Sequence[Event], kong: Kong) -> list[Kong]:
    """The discarder's chain of kongs (RULES §4.4 ``chain_split``): the kong just before the
    discard and, walking back, each kong that a flagged (``on_replacement``, 杠上杠) kong was
    declared on."""
    by_index = {ev.index: ev for ev in events}
    chain = [kong]
    while chain[-1].on_replacement:
        prev = by_index.get(chain[-1].index - 1)
        if not (isinstance(prev, Kong) and prev.seat == kong.seat):
            break  # refused already (on_replacement_without_kong)
        chain.append(prev)
    return chain


def kong_transfer_chain(
    ledger: Ledger, w: Win, winners: Sequence[int], chain: Sequence[Kong]
) -> None:
    """呼叫转移 of the whole chain (RULES §4.4 ``chain_split``, tfmj2024), once per discard:
    the income of every kong of the chain moves on; with several winners each receives
    ``ceil(total / winners)``, so the discarder pays ``winners × share`` (a share of a
    whole base unit is never split)."""
    incomes = [inc for k in chain if (inc := ledger.income_of(k)) and not inc.moved]
    total = sum(inc.total for inc in incomes)
    for inc in incomes:
        inc.moved = True
    if not winners or not total:
        return
    share = -(-total // len(winners))
    for seat in winners:
        ledger.pay(w.from_, seat, share, "kong_transfer", w.index)


def kong_refund_on_discard(ledger: Ledger, w: Win) -> None:
    """杠上炮 without 呼叫转移 (RULES §4.4 ``refund``, sbr), once per discard however many win
    on it: the discarder returns to its payers the income of his most recent kong that still
    has income to return."""
    for inc in reversed(ledger.incomes):
        if inc.kong.seat == w.from_ and not inc.moved and inc.total:
            ledger.give_back(inc, "kong_return", w.index)
            return


def _chain_transfer(ledger: Ledger, w: Win, winners: Sequence[int], kong: Kong, events) -> None:
    kong_transfer_chain(ledger, w, winners, kong_chain(events, kong))


def _refund_transfer(ledger: Ledger, w: Win, winners: Sequence[int], kong: Kong, events) -> None:
    kong_refund_on_discard(ledger, w)


class KongTransferRule(NamedTuple):
    """What 杠上炮 does with the discarder's kong money under one ``kong_transfer`` mode
    (RULES §4.4): a payment to each winner right after his win (``each_winner``: winner seat,
    the kong), or one settlement of the discard after all its winners are paid
    (``after_winners``: the winners' seats, the kong, the record's events)."""

    each_winner: Callable[[Ledger, Win, int, Kong], None] | None = None
    after_winners: Callable[[Ledger, Win, Sequence[int], Kong, Sequence[Event]], None] | None = None


#: ``kong_transfer`` mode -> its rule: the one place the replay dispatches 呼叫转移 from
KONG_TRANSFERS: dict[str, KongTransferRule] = {
    "copy": KongTransferRule(each_winner=kong_transfer),
    "chain_split": KongTransferRule(after_winners=_chain_transfer),
    "refund": KongTransferRule(after_winners=_refund_transfer),
}


def false_win_payments(ledger: Ledger, f: FalseWin, r: Ruleset, others_in: Sequence[int]) -> None:
    """诈胡 (RULES §4.9, ``false_win``): the offender pays each other player still in the
    ruleset's amount and returns the kong income he has collected in this hand (what has not
    moved on already); he stays in the hand."""
    amount = r.false_win_value() * ledger.unit
    for payee in others_in:
        ledger.pay(f.seat, payee, amount, "false_win", f.index)
    for inc in list(ledger.incomes):
        if inc.kong.seat == f.seat and not inc.moved:
            ledger.give_back(inc, "kong_return", f.index)


def robbed_kong_to_robber(
    ledger: Ledger, w: Win, seat: int, o: Options, in_when_declared: Sequence[bool]
) -> None:
    """杠钱归胡家 (RULES §3.4, where the preset's ``robbing_pays_kong`` says so): the robbed
    player also pays the robber what his added kong would have collected, ``kong_added`` from
    each other player still in when it was declared — every robber of this discard included,
    so with two robbers (一炮多响) each is paid in full. Its own reason, ``kong_to_winner``:
    no kong's income moves on, as it does under 呼叫转移 (``kong_transfer``)."""
    still_in = [s for s in range(4) if s != w.from_ and in_when_declared[s]]
    amount = o.kong_added * ledger.unit * len(still_in)
    ledger.pay(w.from_, seat, amount, "kong_to_winner", w.index)


def huazhu_payments(ledger: Ledger, shown: Iterable[DrawSeat], r: Ruleset) -> None:
    """查花猪 (RULES §4.6a, §3.5 ``huazhu``): each 花猪 pays every player still in who is not 花猪:
    a fixed amount, 满格 (the cap's value), or (``chajiao_plus_fan``) the ready player's 查叫
    wait with one more step of the curve, capped, and nothing to a player who is not ready.
    Under ``not_ready`` nothing: the 花猪 is a player who is not ready (``chajiao_payments``,
    ``kong_refunds``)."""
    if r.options.huazhu == "not_ready":
        return
    shown = list(shown)
    for pig in (d for d in shown if d.huazhu):
        for d in shown:
            if d.huazhu:
                continue
            if r.options.huazhu == "chajiao_plus_fan":
                amount = r.capped_value(r.step(d.chajiao_wait.total, 1))[0] if d.ready else 0
            elif r.options.huazhu == "cap":
                amount = r.cap_value()
            else:
                amount = r.options.huazhu
            ledger.pay(pig.seat, d.seat, amount * ledger.unit, "huazhu", None)


def chajiao_payments(ledger: Ledger, shown: Iterable[DrawSeat], r: Ruleset) -> None:
    """查叫 (RULES §4.6b): a player neither ready nor 花猪 pays each ready player the value of
    that player's 查叫 wait (waits.chajiao_pick); nothing when 查叫 is off (no value). Under
    ``huazhu: not_ready`` a 花猪 pays too: he is a player who is not ready."""
    shown = list(shown)
    pig_pays = r.options.huazhu == "not_ready"
    for d in shown:
        if d.ready or (d.huazhu and not pig_pays):
            continue
        for t in shown:
            if t.chajiao_value is not None:
                ledger.pay(d.seat, t.seat, t.chajiao_value * ledger.unit, "chajiao", None)


def kong_refunds(ledger: Ledger, shown: Iterable[DrawSeat]) -> None:
    """退税 (RULES §4.6c, ``refund_kongs``): every player still in who is not ready (花猪
    included) returns the income of his kongs to those who paid it, whether or not they have
    since won — except income 呼叫转移 already moved on."""
    for d in shown:
        if d.ready:
            continue
        for inc in ledger.incomes:
            if inc.kong.seat == d.seat and not inc.moved:
                ledger.give_back(inc, "kong_refund", None)
