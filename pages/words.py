"""A settled hand in plain words: each payment as a sentence, and who paid whom.

Pure formatting. Nothing here computes a rule: every number is one the engine's settlement
already holds (its payments with their reasons, its wins with their explanation lines, the base
and the session multiplier), and every domain word is the engine's own ``Name(zh, en)`` — the
explanation lines carry the names the ruleset pinned, the payment reasons are the engine's
``REASON_NAMES``. UI words (付 / pays, 番 / fan …) are gettext. The settlement is the typed one
(``Settlement``, its record within: the tiles of the kongs, the bettors), read from a stored hand
by ``clubs.selectors.settled_hand``; the engine's types come through ``scoring.services``.

    words = hand_words(settled_hand(hand), seats={0: "老张", 1: "老李", …})
    words.sentences[0].text   # "S2 老王 付 S1 老李 8：清一色 3番 + 1根 = 4番 → 8"
    words.table               # who paid whom, each party's net, and the sum (0)

``words_of_view(view, seats=…)`` does the same for a ``clubs.selectors.HandView``: the names come
from its payment rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, gettext, ngettext

from clubs.selectors import settled_hand
from core.names import Name
from scoring.services import (
    BETTOR_LABELS,
    REASON_NAMES,
    Event,
    FalseWin,
    Kong,
    Line,
    Payment,
    Settlement,
    Valuation,
    Win,
    WinResult,
    session_multiplier,
    tile_name,
)

SUIT_ZH = {"m": "万", "p": "筒", "s": "条"}
KONG_REASONS = ("kong_concealed", "kong_direct", "kong_added")
#: a kong declared on the replacement tile of the same player's kong right before it (RULES
#: §4.4): a domain word of the record (``on_replacement``), the same in every ruleset
ON_REPLACEMENT = Name("杠上杠", "Kong on a kong's replacement tile")
#: what made a 退杠钱 (``kong_return``) payment, by the type of its event (RULES §4.4, §4.9)
RETURNED_ON = {
    FalseWin: REASON_NAMES["false_win"],
    Win: Name("杠上炮", "Win on the discard after a kong"),
}


def chinese() -> bool:
    """Whether the page is in Chinese (the domain words then stand alone)."""
    return (get_language() or "zh-hans").lower().startswith("zh")


def name_text(name: Name | Line | Mapping[str, str]) -> str:
    """A domain name in the page's language: 清一色, or 清一色 (Pure one suit) in English."""
    zh, en = (name["zh"], name["en"]) if isinstance(name, Mapping) else (name.zh, name.en)
    return zh if chinese() else f"{zh} ({en})"


def tile_text(tile: str) -> str:
    """A tile in words: 5万 in Chinese, 5m in English."""
    if not tile or len(tile) != 2:
        return tile or ""
    return f"{tile[0]}{SUIT_ZH.get(tile[1], tile[1])}" if chinese() else tile


def reason_text(code: str) -> str:
    name = REASON_NAMES.get(code)
    return name_text(name) if name is not None else code


def unit_amount(n: int, unit: str) -> str:
    """3番 / 3 fan, 4倍 / ×4, 2分 / 2 points."""
    if unit == "fan":  # 番 is the same for one and for many: 1 fan, 3 fan
        return gettext("%(n)s fan") % {"n": n}
    if unit == "multiple":
        return gettext("×%(n)s") % {"n": n}
    return ngettext("%(n)s point", "%(n)s points", n) % {"n": n}


def roots_text(count: int) -> str:
    return ngettext("%(n)s root", "%(n)s roots", count) % {"n": count}


def explanation(v: Valuation) -> str:
    """A win's explanation lines as one expression, up to its value at base 1:
    ``清一色 3番 + 1根 = 4番 → 8``. Roots are counted together; the self-draw bonus that a
    preset adds after the cap comes after the arrow."""
    unit = v.unit
    terms: list[str | None] = []
    roots: list[Line] = []
    roots_at = cap_line = None
    bonus = 0
    for i, line in enumerate(v.lines):
        if line.op == "cap":
            cap_line = line
        elif line.op == "bonus":  # the after-cap bonus (自摸加底)
            bonus += line.amount
        elif i > 0 and line.code == "gen":
            if roots_at is None:
                roots_at = len(terms)
                terms.append(None)
            roots.append(line)
        else:
            terms.append(f"{name_text(line)} {unit_amount(line.amount, unit)}")
    if roots_at is not None:
        steps = [r.amount for r in roots]
        amount = _product(steps) if unit == "multiple" else sum(steps)
        term = roots_text(len(roots))
        if unit == "multiple" or amount != len(roots):
            term += f" {unit_amount(amount, unit)}"
        terms[roots_at] = term
    joiner = " × " if unit == "multiple" else " + "
    text = joiner.join(t for t in terms if t)
    if len(terms) > 1:
        text += " = " + unit_amount(v.total, unit)
    if cap_line is not None:
        text += gettext(", capped at %(cap)s") % {"cap": unit_amount(cap_line.amount, unit)}
    text += f" → {v.value - bonus}"
    if bonus:
        name = Name("自摸加底", "Self-draw bonus")
        text += f" + {name_text(name)} {bonus} = {v.value}"
    return text


def _product(numbers) -> int:
    out = 1
    for n in numbers:
        out *= n
    return out


@dataclass(frozen=True)
class Sentence:
    """One payment in words."""

    payer: str  # the party's code: "S2", "B0"
    payee: str
    amount: int
    reason: str  # the engine's reason code
    detail: str  # what the payment is for: "清一色 3番 + 1根 = 4番 → 8"
    text: str  # the whole sentence: "S2 老王 付 S1 老李 8：清一色 …"


@dataclass(frozen=True)
class Row:
    """One party of the who-paid-whom table: what he paid each party, and his net."""

    party: str
    label: str
    paid: tuple[int, ...]  # to each party of ``Table.parties``, in order
    net: int
    short: str = ""  # the label that fits a phone's column: the name alone (``label`` in full)


@dataclass(frozen=True)
class Table:
    """Who paid whom: a row per payer, a column per payee, each party's net and their sum."""

    parties: tuple[str, ...]
    labels: tuple[str, ...]
    rows: tuple[Row, ...]
    total: int  # the sum of the nets: 0 for every settled hand
    short: tuple[str, ...] = ()  # each party's short label (``Row.short``), for the columns

    @property
    def columns(self) -> list[tuple[str, str]]:
        """(short label, full label) of each column."""
        return list(zip(self.short or self.labels, self.labels, strict=True))


@dataclass(frozen=True)
class HandWords:
    sentences: tuple[Sentence, ...]
    table: Table
    labels: dict[str, str]


def party_labels(settlement: Settlement, seats: Mapping[int, Any] | None = None) -> dict[str, str]:
    """Every party's label: ``S1 老李`` for a seat (just ``S1`` without a name), and
    ``老王（叫马）`` / ``老王 (bettor)`` for a bettor, named by the settlement itself."""
    labels = {}
    for seat in range(4):
        name = _name_of((seats or {}).get(seat))
        labels[f"S{seat}"] = f"S{seat} {name}" if name else f"S{seat}"
    for code, bettor in zip(BETTOR_LABELS, settlement.record.bettors, strict=False):
        labels[code] = gettext("%(name)s (bettor)") % {"name": bettor.name}
    return labels


def short_labels(settlement: Settlement, seats: Mapping[int, Any] | None = None) -> dict[str, str]:
    """Every party's label for a narrow column: a seat's player's name alone (``S1`` without
    a name), a bettor's name alone."""
    labels = {}
    for seat in range(4):
        labels[f"S{seat}"] = _name_of((seats or {}).get(seat)) or f"S{seat}"
    for code, bettor in zip(BETTOR_LABELS, settlement.record.bettors, strict=False):
        labels[code] = bettor.name
    return labels


def _name_of(value: Any) -> str:
    if value is None:
        return ""
    return str(getattr(value, "name", value))


def _win_of(settlement: Settlement, payment: Payment) -> WinResult | None:
    """The win a win payment pays: its event, and the payee's seat (一炮多响 has several)."""
    for win in settlement.wins:
        if win.event == payment.event and f"S{win.seat}" == payment.payee:
            return win
    return None


def _scaled(settlement: Settlement, value: int, amount: int) -> str:
    """`` × 底 2 = 16`` when the payment is the value times the base (and the session's
    multiplier); nothing when they are 1."""
    base = settlement.record.base
    multiplier = session_multiplier(settlement.record)
    text = ""
    if base != 1:
        text += " " + gettext("× base %(base)s") % {"base": base}
    if multiplier != 1:
        text += f" × {multiplier}"
    if text and value * base * multiplier == amount:
        text += f" = {amount}"
    return text


def detail_of(
    settlement: Settlement,
    payment: Payment,
    labels: Mapping[str, str],
    payments: Sequence[Payment],
) -> str:
    """What one payment is for, in words."""
    reason = payment.reason
    event = _event(settlement, payment.event)
    if reason in ("win", "self_draw"):
        win = _win_of(settlement, payment)
        if win is None or not win.valuation.lines:
            return reason_text(reason)
        text = explanation(win.valuation) + _scaled(settlement, win.valuation.value, payment.amount)
        return text if reason == "win" else f"{reason_text(reason)}{_comma()}{text}"
    if reason in KONG_REASONS:
        if not isinstance(event, Kong):
            return reason_text(reason)
        text = f"{reason_text(reason)} {tile_text(tile_name(event.tile))}"
        if event.on_replacement:
            text += _comma() + name_text(ON_REPLACEMENT)
        return text
    if reason == "kong_return" and type(event) in RETURNED_ON:
        return reason_text(reason) + _comma() + name_text(RETURNED_ON[type(event)])
    if reason == "bettor":
        index = payment.mirrors
        followed = ""
        if index is not None and 0 <= index < len(payments):
            followed = _comma() + reason_text(payments[index].reason)
        seat = _bound_seat(settlement, payment)
        if seat is None:
            return reason_text(reason) + followed
        follows = gettext("follows %(seat)s") % {"seat": labels.get(seat, seat)}
        return f"{reason_text(reason)}{_comma()}{follows}{followed}"
    return reason_text(reason)


def _bound_seat(settlement: Settlement, payment: Payment) -> str | None:
    """The seat a bettor's payment follows, as the settlement binds him (RULES §4.7)."""
    bettors = settlement.record.bettors
    for party in (payment.payer, payment.payee):
        if party in BETTOR_LABELS and BETTOR_LABELS.index(party) < len(bettors):
            return f"S{bettors[BETTOR_LABELS.index(party)].seat}"
    return None


def _comma() -> str:
    return "，" if chinese() else ", "


def _event(settlement: Settlement, index: int | None) -> Event | None:
    if index is None:
        return None
    return next((ev for ev in settlement.record.events if ev.index == index), None)


def false_win_line(settlement: Settlement, index: int, seat: int, label: str) -> str:
    """A false win (诈胡, RULES §4.9) in words, with what it cost as the settlement paid it:
    ``王姐：诈胡，付给每位未胡的玩家 8，退杠钱 6`` / ``王姐: 诈胡 (False win), pays 8 to each
    player still in, gives back 6 of kong money``."""
    payer = f"S{seat}"
    paid = [p for p in settlement.payments if p.event == index and p.payer == payer]
    each = sorted({p.amount for p in paid if p.reason == "false_win"})
    what = name_text(REASON_NAMES["false_win"])
    if len(each) == 1:
        text = gettext("%(who)s: %(what)s, pays %(amount)s to each player still in") % {
            "who": label, "what": what, "amount": each[0],
        }  # fmt: skip
    else:  # nobody else was still in (or amounts the pages cannot say as one)
        text = gettext("%(who)s: %(what)s") % {"who": label, "what": what}
    returned = sum(p.amount for p in paid if p.reason == "kong_return")
    if returned:
        text += gettext(", gives back %(amount)s of kong money") % {"amount": returned}
    return text


def false_win_lines(settlement: Settlement, labels: Mapping[int, str]) -> list[tuple[int, str]]:
    """Each false win of a hand as (its event's index, :func:`false_win_line`)."""
    return [
        (
            ev.index,
            false_win_line(settlement, ev.index, ev.seat, labels.get(ev.seat, f"S{ev.seat}")),
        )
        for ev in settlement.record.events
        if isinstance(ev, FalseWin)
    ]


def sentence(payer: str, payee: str, amount: int, detail: str) -> str:
    return gettext("%(payer)s pays %(payee)s %(amount)s: %(detail)s") % {
        "payer": payer,
        "payee": payee,
        "amount": amount,
        "detail": detail,
    }


def hand_words(
    settlement: Settlement,
    *,
    seats: Mapping[int, Any] | None = None,
    labels: Mapping[str, str] | None = None,
) -> HandWords:
    """A settled hand in words. ``settlement`` is the engine's settlement (``settle``'s, or a
    stored hand's: ``clubs.selectors.settled_hand``), its record naming the tiles of the
    kongs; ``seats`` maps a seat number to its player's name (or to anything with a
    ``name``: a ``clubs.selectors.Party``)."""
    labels = {**party_labels(settlement, seats), **(labels or {})}
    payments = settlement.payments
    sentences = []
    for p in payments:
        detail = detail_of(settlement, p, labels, payments)
        text = sentence(labels.get(p.payer, p.payer), labels.get(p.payee, p.payee), p.amount,
                        detail)  # fmt: skip
        sentences.append(Sentence(p.payer, p.payee, p.amount, p.reason, detail, text))
    short = short_labels(settlement, seats)
    return HandWords(tuple(sentences), who_paid_whom(settlement, labels, short), labels)


def who_paid_whom(
    settlement: Settlement,
    labels: Mapping[str, str],
    short: Mapping[str, str] | None = None,
) -> Table:
    """The settlement's payments summed per payer and payee, with each party's net."""
    n_bettors = len(settlement.record.bettors)
    parties = tuple([f"S{i}" for i in range(4)] + list(BETTOR_LABELS[:n_bettors]))
    where = {p: i for i, p in enumerate(parties)}
    paid = [[0] * len(parties) for _ in parties]
    net = [0] * len(parties)
    for p in settlement.payments:
        a, b = where.get(p.payer), where.get(p.payee)
        if a is None or b is None:
            continue
        paid[a][b] += p.amount
        net[a] -= p.amount
        net[b] += p.amount
    short = short or {}
    rows = tuple(
        Row(party, labels.get(party, party), tuple(paid[i]), net[i], short.get(party, ""))
        for i, party in enumerate(parties)
    )
    return Table(
        parties,
        tuple(labels.get(p, p) for p in parties),
        rows,
        sum(net),
        tuple(short.get(p) or labels.get(p, p) for p in parties),
    )


def words_of_view(view: Any, *, seats: Mapping[int, Any] | None = None) -> HandWords:
    """:func:`hand_words` of a ``clubs.selectors.HandView``: its hand as settled
    (``clubs.selectors.settled_hand``), the names from its payment rows (stored in the
    settlement's order) unless ``seats`` is given."""
    settlement = settled_hand(view.hand)
    names: dict[int, Any] = {}
    for row, p in zip(view.payments, settlement.payments, strict=False):
        for party, code in ((row.payer, p.payer), (row.payee, p.payee)):
            if code.startswith("S"):
                names.setdefault(int(code[1:]), party.name)
    return hand_words(settlement, seats=seats or names)
