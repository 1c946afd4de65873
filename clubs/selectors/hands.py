"""Hands: with their payments (``HandView``), settled (``settled_hand``: the typed settlement
read back once per process), and their tiles for a hand's page (``hand_tiles``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from django.db.models import (
    Prefetch,
    QuerySet,
)

from clubs.models import (
    Bettor,
    Hand,
    HandRevision,
    Payment,
    Player,
    Seat,
    SessionResult,
    TableSession,
)
from core.names import Name
from scoring import services as scoring_services
from scoring.engine import (
    EXTRA_NAMES,
    PATTERN_NAMES,
    Ruleset,
    tile_name,
)
from scoring.engine.declared import Declaration
from scoring.engine.melds import Meld
from scoring.engine.settle import FalseWin, Settlement, Win, WinResult, WinSummary
from scoring.models import RulesetSnapshot

from .sessions import SessionTotals, session_totals
from .table import declaration_menu

# --- hands with their payments ---------------------------------------------------------------


class Party(NamedTuple):
    """Who pays or is paid in a hand: a seated player or a 叫马 bettor (by id), and the name."""

    kind: str  # "player" or "bettor"
    id: int
    name: str


class Table(NamedTuple):
    """A session's parties: its players by seat number and its bettors by name."""

    seats: dict[int, Party]
    bettors: dict[str, Party]


class PaymentRow(NamedTuple):
    """One transfer of a settled hand, with its parties."""

    payer: Party
    payee: Party
    amount: int
    reason: str
    event: int | None


class HandView(NamedTuple):
    """A hand as it is answered: the row and its payments in order, with their parties."""

    hand: Hand
    payments: tuple[PaymentRow, ...]


def _party(player: Player | None, bettor: Bettor | None) -> Party:
    if player is not None:
        return Party("player", player.pk, player.name)
    return Party("bettor", bettor.pk, bettor.name)


def hands_of(session: TableSession, *, deleted: bool = False) -> QuerySet[Hand]:
    """A session's live (or deleted) hands in order, with their payments' parties prefetched."""
    payments = Payment.objects.select_related(
        "payer_player", "payer_bettor__player", "payee_player", "payee_bettor__player"
    )
    return (
        Hand.objects.filter(session=session, is_deleted=deleted)
        .select_related("entered_by")
        .prefetch_related(Prefetch("payments", queryset=payments))
        .order_by("number", "id")
    )


def hands_by_id(session: TableSession, ids: Iterable[int]) -> dict[int, Hand]:
    """Some of the session's live hands, by id, read as :func:`hands_of` reads them: their
    payments in one read, whatever their number."""
    return {hand.pk: hand for hand in hands_of(session).filter(pk__in=ids)}


def hand_view(hand: Hand) -> HandView:
    """A hand read by :func:`hands_of` as its read model."""
    return HandView(
        hand,
        tuple(
            PaymentRow(
                _party(p.payer_player, p.payer_bettor),
                _party(p.payee_player, p.payee_bettor),
                p.amount,
                p.reason,
                p.event,
            )
            for p in hand.payments.all()
        ),
    )


# --- a settled hand (issue 26 §1) ---------------------------------------------------------------


def settled_hand(hand: Hand, ruleset: Ruleset | RulesetSnapshot | None = None) -> Settlement:
    """A hand as the engine settled it, typed: its record's events and draw, its wins with
    their valuations, its payments with their reasons, its totals (``Settlement``). The one
    way a reader reads a stored hand: nothing is settled again, no dict is walked by hand.

    ``ruleset``: the rules that settled it (its session's snapshot, or those rules); by
    default the ones its ``ruleset_fingerprint`` pinned (no query once they are kept in the
    process)."""
    if ruleset is None:
        ruleset = scoring_services.pinned_by_fingerprint(hand.ruleset_fingerprint)
    elif isinstance(ruleset, RulesetSnapshot):
        ruleset = scoring_services.pinned_ruleset(ruleset)
    return scoring_services.stored_settlement(
        record=hand.record, settlement=hand.settlement, ruleset=ruleset,
        version=hand_version(hand.pk, hand.revision, hand.updated_at),
    )  # fmt: skip


def hand_version(pk: int | None, revision: int, updated_at: datetime | None) -> tuple | None:
    """What names one state of a stored hand (a correction is a new revision, and every write
    moves ``updated_at``); None for a hand not stored."""
    return None if pk is None or updated_at is None else (pk, revision, updated_at)


#: One win of a hand as the sheet names it: who, from whom (None: 自摸), the pattern's code
#: and roots, the value per payer, whether the tiles were shown (verified), and its event (the
#: order of the hand's wins and false wins) — the engine's own summary of it, as it is.
WinLine = WinSummary


class SheetRow(NamedTuple):
    """A hand on the 流水 sheet: its net per seat and per bettor (in the session's order), the
    running totals after it (None for a deleted hand, which no longer counts, and for one the
    table's confirmation rule holds, which does not count yet), its wins and false wins (诈胡),
    and whether all of it was shown (an unverified hand was declared, RULES §6). These are
    read from the hand's settlement at a glance (``SettlementSummary``); the whole settlement
    is :attr:`settlement`, read when asked (a false win's words need its payments)."""

    hand: Hand
    nets: tuple[int, ...]
    bettor_nets: tuple[int, ...]
    running: tuple[int, ...] | None
    bettor_running: tuple[int, ...] | None
    wins: tuple[WinLine, ...]
    false_wins: tuple[FalseWin, ...]
    drawn: bool
    verified: bool
    rules: RulesetSnapshot | None  # the rules its settlement is read with (None: its own)

    @property
    def settlement(self) -> Settlement:
        """The hand as settled (:func:`settled_hand`, kept by the hand's state once read): a
        sheet drawn from nothing reads 400 hands' figures and needs few whole settlements."""
        return settled_hand(self.hand, self.rules)


@dataclass
class TableSheet:
    """The table page's read model: the session, its seats and bettors, the 流水 sheet, the
    totals (as the API answers them), the next hand's number and dealer."""

    session: TableSession
    seats: list[Seat]
    bettors: list[Bettor]
    rows: list[SheetRow]
    totals: SessionTotals
    results: list[SessionResult]
    next_number: int
    next_dealer: int | None

    @property
    def seat_totals(self) -> list[int]:
        return [self.totals.of_player(s.player_id) for s in self.seats]

    @property
    def bettor_totals(self) -> list[int]:
        return [self.totals.of_bettor(b.pk) for b in self.bettors]

    @property
    def live_rows(self) -> list[SheetRow]:
        return [r for r in self.rows if not r.hand.is_deleted]

    @property
    def held_rows(self) -> list[SheetRow]:
        """Live hands the table's confirmation rule holds out of the totals (for now)."""
        return [r for r in self.rows if not r.hand.is_deleted and not r.hand.counts]


def _sheet_row(
    hand: Hand, bettor_index: dict[str, int], n_bettors: int, rules: RulesetSnapshot | None
) -> SheetRow:
    settled = scoring_services.stored_summary(record=hand.record, settlement=hand.settlement)
    bettor_nets = [0] * n_bettors
    for name, net in zip(settled.bettors, settled.bettor_totals, strict=False):
        index = bettor_index.get(name)
        if index is not None:
            bettor_nets[index] += net
    return SheetRow(
        hand, settled.seat_totals, tuple(bettor_nets), None, None, settled.wins, settled.false_wins,
        settled.drawn, settled.verified, rules,
    )  # fmt: skip


def table_sheet(session: TableSession) -> TableSheet:
    """The 流水 sheet of a session read by :func:`session_page`: every hand in order (deleted
    ones too, marked), each hand's net from its stored settlement, running totals over the
    live hands, and the totals from the payments (what ``GET /api/v1/sessions/<id>/`` says)."""
    seats = list(session.seats.all())
    bettors = list(session.bettors.all())
    bettor_index = {b.name: i for i, b in enumerate(bettors)}
    hands = Hand.objects.filter(session=session).order_by("number", "id")
    rows, running, bettor_running = [], [0] * 4, [0] * len(bettors)
    top, next_dealer = 0, None
    # the session's rules when they were read with it (no query for them), else each hand's
    rules = session.ruleset if TableSession.ruleset.is_cached(session) else None
    for hand in hands:
        row = _sheet_row(hand, bettor_index, len(bettors), rules)
        top = max(top, hand.number)
        if not hand.is_deleted:
            next_dealer = hand.next_dealer
        if not hand.is_deleted and hand.counts:  # a held hand is not in the totals yet
            running = [a + b for a, b in zip(running, row.nets, strict=False)]
            bettor_running = [a + b for a, b in zip(bettor_running, row.bettor_nets, strict=True)]
            row = row._replace(running=tuple(running), bettor_running=tuple(bettor_running))
        rows.append(row)
    results = list(SessionResult.objects.filter(session=session))
    totals = session_totals(session_id=session.pk)
    return TableSheet(session, seats, bettors, rows, totals, results, top + 1, next_dealer)


def hand_in_session(session: TableSession, number: int) -> Hand | None:
    """Hand ``number`` of a session (live or deleted) with its payments' parties."""
    hand = hands_of(session).filter(number=number).first()
    return hand or hands_of(session, deleted=True).filter(number=number).first()


def hand_revisions(hand: Hand) -> QuerySet[HandRevision]:
    return hand.revisions.select_related("changed_by").order_by("revision")


# --- a hand's tiles, for its page ----------------------------------------------------------------


class MeldTiles(NamedTuple):
    """A meld laid down: a pung (碰) or a kong (杠), 暗杠 when concealed; its tile in compact
    notation (``"9s"``)."""

    kind: str
    tile: str
    concealed: bool

    @property
    def size(self) -> int:
        return 4 if self.kind == "kong" else 3

    @property
    def tiles(self) -> tuple[str, ...]:
        return (self.tile,) * self.size


class DeclaredHand(NamedTuple):
    """What a declared hand was (RULES §6): the pattern with its name under the session's rules,
    its roots, the names of its extras."""

    pattern: str
    name: Name
    roots: int
    extras: tuple[Name, ...]


class WinnerTiles(NamedTuple):
    """One win as its page draws it: the winner's concealed tiles (sorted, the winning tile
    apart), his melds, the winning tile, or what he was declared with; and the settlement's
    win (pattern, roots, explanation lines, amount per payer)."""

    event: int
    seat: int
    from_: int | None  # the discarder; None: self-drawn (自摸)
    concealed: tuple[str, ...]
    melds: tuple[MeldTiles, ...]
    tile: str | None  # the winning tile (None when a declared win did not write it down)
    declared: DeclaredHand | None  # None: shown by his tiles
    pattern: str
    pattern_name: Name
    roots: int
    amount: int
    verified: bool
    win: WinResult  # the settlement's win: its valuation (explanation lines, value, unit) …


class WaitTile(NamedTuple):
    tile: str
    dead: bool  # every copy is already in sight: it counts for 查叫 only where the rules say


class DrawHandTiles(NamedTuple):
    """A player still in at the draw (流局): his shown tiles and melds, or his declaration
    (花猪, not ready, ready with the wait), and what the settlement found: 花猪, ready, the
    tiles he waits on, the 查叫 value."""

    seat: int
    concealed: tuple[str, ...]
    melds: tuple[MeldTiles, ...]
    declared: str | None  # "huazhu", "not_ready", "ready"; None: shown by his tiles
    declared_name: Name | None
    wait: DeclaredHand | None  # a declared ready player's wait
    huazhu: bool
    ready: bool
    waits: tuple[WaitTile, ...]
    chajiao_value: int | None
    verified: bool


class HandTiles(NamedTuple):
    """What a hand's page draws: each win, and each player still in at the draw."""

    winners: tuple[WinnerTiles, ...]
    draw: tuple[DrawHandTiles, ...]
    drawn: bool  # the wall ran out (流局)
    verified: bool  # everything was shown by tiles


def _meld_tiles(melds: tuple[Meld, ...]) -> tuple[MeldTiles, ...]:
    return tuple(MeldTiles(m.kind, tile_name(m.tile), m.concealed) for m in melds)


def _declared(
    declared: Declaration | None, patterns: dict[str, Name], extras: dict[str, Name]
) -> DeclaredHand | None:
    if declared is None:
        return None
    code = declared.pattern
    return DeclaredHand(
        code,
        patterns.get(code) or PATTERN_NAMES.get(code) or Name(code, code),
        declared.roots,
        tuple(extras.get(e) or EXTRA_NAMES.get(e) or Name(e, e) for e in declared.extras),
    )


def hand_tiles(hand: Hand, ruleset) -> HandTiles:
    """What to draw for a hand: its record's tiles (each winner's concealed tiles and melds,
    the win's tile; the draw's hands) beside its settlement's wins and draw, read as the one
    typed settlement (:func:`settled_hand`). ``ruleset`` is the session's snapshot (or a
    ruleset, or a spec): the names of patterns and declarations are the ones it pinned (大对子
    in chengdu). No query once its rules are kept; nothing is re-settled."""
    if not isinstance(ruleset, Ruleset | RulesetSnapshot):
        ruleset = scoring_services.ruleset_resolve(ruleset)
    settled = settled_hand(hand, ruleset)
    menu = declaration_menu(settled.record.ruleset)
    patterns = {p.code: p.name for p in menu.patterns}
    extras = {e.code: e.name for e in menu.extras}
    states = {d.code: d.name for d in menu.draw}
    events = {ev.index: ev for ev in settled.record.events}
    winners = []
    for w in settled.wins:
        event = events.get(w.event)
        shown = None
        if isinstance(event, Win):
            shown = next((x for x in event.winners if x.seat == w.seat), None)
        v = w.valuation
        base = v.lines[0] if v.lines and v.lines[0].code == v.pattern else None
        name = Name(base.zh, base.en) if base else patterns.get(v.pattern)
        declared = _declared(shown.declared, patterns, extras) if shown else None
        winners.append(
            WinnerTiles(
                event=w.event, seat=w.seat, from_=w.from_,
                concealed=tuple(tile_name(t) for t in shown.concealed) if shown else (),
                melds=_meld_tiles(shown.melds) if shown else (),
                tile=None if w.tile is None else tile_name(w.tile),
                declared=declared, pattern=v.pattern,
                pattern_name=name or PATTERN_NAMES.get(v.pattern, Name("", "")),
                roots=v.roots, amount=w.amount, verified=w.verified, win=w,
            )
        )  # fmt: skip
    hands = {h.seat: h for h in settled.record.draw or ()}
    draw = []
    for d in settled.draw or ():
        shown = hands.get(d.seat)
        state = shown.declared if shown else None
        draw.append(
            DrawHandTiles(
                seat=d.seat,
                concealed=tuple(tile_name(t) for t in shown.concealed) if shown else (),
                melds=_meld_tiles(shown.melds) if shown else (),
                declared=state, declared_name=states.get(state) if state else None,
                wait=_declared(shown.wait, patterns, extras) if shown else None,
                huazhu=d.huazhu, ready=d.ready,
                waits=tuple(WaitTile(tile_name(x.tile), x.dead) for x in d.waits),
                chajiao_value=d.chajiao_value, verified=d.verified,
            )
        )  # fmt: skip
    return HandTiles(tuple(winners), tuple(draw), settled.draw is not None, settled.verified)


def session_by_guest_key(key: str) -> TableSession | None:
    """The open table a players' link names (None: no such link, or its table closed)."""
    if not key or len(key) > 64:
        return None
    return TableSession.objects.filter(guest_key=key, status=TableSession.Status.OPEN).first()
