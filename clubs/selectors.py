"""Reads of the clubs app: who may see what, sessions with their totals, hands with payments.

Totals are never stored: a session's total for a player is what he received minus what he
paid in the payments of its live hands, or his final-result entry. Reads answer plain read
models (``SessionTotals``, ``HandView``, ``PlayerSession``) that JSON and pages render alike.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db.models import Prefetch, Q, QuerySet, Sum

from clubs.models import (
    ROLE_RANK,
    Bettor,
    Club,
    Hand,
    HandRevision,
    Membership,
    Payment,
    Player,
    Role,
    Seat,
    SessionResult,
    TableSession,
)
from scoring import services as scoring_services

# --- who may see what ------------------------------------------------------------------------


def membership_of(user, club: Club) -> Membership | None:
    if not user or not user.is_authenticated:
        return None
    cache = getattr(user, "_memberships", None)
    if cache is None:
        cache = user._memberships = {
            m.club_id: m for m in Membership.objects.filter(player__user=user).order_by()
        }
    return cache.get(club.pk)


#: ``held`` when the user's role in the club was not read along with the club: look it up
UNREAD = object()


def has_role(user, club: Club, role: str, *, held: str | None | object = UNREAD) -> bool:
    """At least ``role`` in the club (owner > organiser > scorer > member); staff may all.

    ``held``: the user's role in the club (None: not a member) when the caller read it along
    with the club (see ``clubs.fastpath.lock_session``), instead of looking it up.
    """
    if user and user.is_authenticated and user.is_superuser:
        return True
    if held is UNREAD:
        m = membership_of(user, club)
        held = None if m is None else m.role
    return held is not None and ROLE_RANK[held] >= ROLE_RANK[role]


def can_read(user, club: Club, *, held: str | None | object = UNREAD) -> bool:
    return club.is_public or has_role(user, club, Role.MEMBER, held=held)


def clubs_visible_to(user) -> QuerySet[Club]:
    qs = Club.objects.select_related("ruleset")
    if user and user.is_authenticated and user.is_superuser:
        return qs
    if user and user.is_authenticated:
        return qs.filter(
            Q(visibility=Club.Visibility.PUBLIC) | Q(memberships__player__user=user)
        ).distinct()
    return qs.filter(visibility=Club.Visibility.PUBLIC)


def club_visible(user, slug: str) -> Club | None:
    """The club with this slug if ``user`` may read it (members-only clubs hide from others)."""
    club = Club.objects.select_related("ruleset").filter(slug=slug).first()
    if club is None or not can_read(user, club):
        return None
    return club


def players_visible_to(user) -> QuerySet[Player]:
    """The players a user may see, and so name by id: those of public clubs and of his own
    clubs, and himself. Anyone else is, to him, a player that does not exist."""
    qs = Player.objects.all()
    if user and user.is_authenticated and user.is_superuser:
        return qs
    seen = Q(memberships__club__visibility=Club.Visibility.PUBLIC)
    if user and user.is_authenticated:
        mine = Membership.objects.filter(player__user=user).values("club_id")
        seen |= Q(memberships__club__in=mine) | Q(user=user)
    return qs.filter(seen).distinct()


# --- sessions and their totals ---------------------------------------------------------------


def sessions_of(club: Club) -> QuerySet[TableSession]:
    return (
        TableSession.objects.filter(club=club)
        .select_related("ruleset", "club")
        .prefetch_related("seats__player", "bettors__player")
    )


@dataclass
class SessionTotals:
    """A session's totals: by player id and by 叫马 bettor id (0 for anyone not listed)."""

    players: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    bettors: dict[int, int] = field(default_factory=lambda: defaultdict(int))

    def of_player(self, player_id: int) -> int:
        return self.players.get(player_id, 0)

    def of_bettor(self, bettor_id: int) -> int:
        return self.bettors.get(bettor_id, 0)


def session_totals(*, session_id: int) -> SessionTotals:
    """Totals of one session."""
    return _totals(Q(hand__session_id=session_id), Q(session_id=session_id))[session_id]


def sessions_totals(session_ids: Iterable[int]) -> dict[int, SessionTotals]:
    """Totals of many sessions, by session id (every id given has an entry)."""
    ids = list(session_ids)
    return _totals(Q(hand__session_id__in=ids), Q(session_id__in=ids))


def _totals(payment_filter: Q, result_filter: Q) -> dict[int, SessionTotals]:
    out: dict[int, SessionTotals] = defaultdict(SessionTotals)
    # summed by payer and payee in the database: a few rows a session, however many hands
    parties = ("hand__session_id", "payer_player_id", "payer_bettor_id", "payee_player_id",
               "payee_bettor_id")  # fmt: skip
    payments = (
        Payment.objects.filter(payment_filter, hand__is_deleted=False)
        .order_by()
        .values(*parties)
        .annotate(sum=Sum("amount"))
        .values_list(*parties, "sum")
    )
    for session_id, payer_p, payer_b, payee_p, payee_b, amount in payments:
        book = out[session_id]
        if payer_p:
            book.players[payer_p] -= amount
        else:
            book.bettors[payer_b] -= amount
        if payee_p:
            book.players[payee_p] += amount
        else:
            book.bettors[payee_b] += amount
    for r in SessionResult.objects.filter(result_filter):
        if r.player_id:
            out[r.session_id].players[r.player_id] += r.total
        else:
            out[r.session_id].bettors[r.bettor_id] += r.total
    return out


class PlayerSession(NamedTuple):
    """One session of a player's history: whether he sat at the table or bet on it (叫马),
    his total there and his running total (累计) up to it."""

    session: TableSession
    role: str  # "seat" or "bettor"
    total: int
    running_total: int


def player_sessions(*, player: Player, user, kind: str = TableSession.Kind.CLUB):
    """The sessions of one kind (a club's own, or tournament tables: their scores are points of
    a ranking, not money, and never add up with the club's) a player sat in or bet on that the
    user may see, oldest first."""
    sessions = [
        s
        for s in TableSession.objects.filter(Q(seats__player=player) | Q(bettors__player=player))
        .filter(kind=kind)
        .distinct()
        .select_related("club")
        .order_by("started_at", "id")
        if can_read(user, s.club)
    ]
    totals = sessions_totals(s.pk for s in sessions)
    bets: dict[int, list[int]] = defaultdict(list)
    for session_id, bettor_id in Bettor.objects.filter(
        player=player, session__in=sessions
    ).values_list("session_id", "id"):
        bets[session_id].append(bettor_id)
    running = 0
    out = []
    for s in sessions:
        book = totals[s.pk]
        role = "bettor" if bets[s.pk] else "seat"
        total = book.of_player(player.pk) + sum(book.of_bettor(b) for b in bets[s.pk])
        running += total
        out.append(PlayerSession(s, role, total, running))
    return out


class PlayerHistory(NamedTuple):
    """What a user may see of a player: his memberships in the clubs the user may read, his
    club sessions and his tournament tables, each list with its own running total."""

    player: Player
    memberships: list[Membership]
    sessions: list[PlayerSession]
    tournament_tables: list[PlayerSession]

    @property
    def total(self) -> int:
        return self.sessions[-1].running_total if self.sessions else 0

    @property
    def tournament_total(self) -> int:
        return self.tournament_tables[-1].running_total if self.tournament_tables else 0


def player_history(*, player: Player, user) -> PlayerHistory | None:
    """None when the user may see nothing of the player (unless it is himself)."""
    memberships = [
        m
        for m in player.memberships.select_related("club").order_by("club_id", "id")
        if can_read(user, m.club)
    ]
    sessions = player_sessions(player=player, user=user)
    tables = player_sessions(player=player, user=user, kind=TableSession.Kind.TOURNAMENT)
    himself = user.is_authenticated and player.user_id == user.pk
    if not memberships and not sessions and not tables and not himself:
        return None
    return PlayerHistory(player, memberships, sessions, tables)


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


# --- the table page ----------------------------------------------------------------------------


def session_page(pk: int) -> TableSession | None:
    """A session with its club, ruleset, seats and bettors (their players), for its page."""
    return (
        TableSession.objects.select_related("club", "ruleset")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player")),
            Prefetch("bettors", queryset=Bettor.objects.select_related("player")),
        )
        .filter(pk=pk)
        .first()
    )


class WinLine(NamedTuple):
    """One win of a hand as the sheet names it: who, from whom (None: 自摸), the pattern's
    code, the value per payer, and whether the tiles were shown (verified)."""

    seat: int
    from_: int | None
    pattern: str
    roots: int
    amount: int
    verified: bool


class SheetRow(NamedTuple):
    """A hand on the 流水 sheet: its net per seat and per bettor (in the session's order), the
    running totals after it (None for a deleted hand, which no longer counts), its wins and
    whether all of it was shown (an unverified hand was declared, RULES §6)."""

    hand: Hand
    nets: tuple[int, ...]
    bettor_nets: tuple[int, ...]
    running: tuple[int, ...] | None
    bettor_running: tuple[int, ...] | None
    wins: tuple[WinLine, ...]
    drawn: bool
    verified: bool


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


def _sheet_row(hand: Hand, bettor_index: dict[str, int], n_bettors: int) -> SheetRow:
    settlement = hand.settlement or {}
    totals = settlement.get("totals") or {}
    nets = tuple(totals.get("seats") or (0, 0, 0, 0))
    bettor_nets = [0] * n_bettors
    for b, net in zip(hand.record.get("bettors") or (), totals.get("bettors") or (), strict=False):
        index = bettor_index.get(b.get("name"))
        if index is not None:
            bettor_nets[index] += net
    wins = tuple(
        WinLine(
            w["seat"], w.get("from"), w.get("pattern", ""), w.get("roots", 0),
            w.get("amount", 0), w.get("verified", True),
        )
        for w in settlement.get("wins") or ()
    )  # fmt: skip
    return SheetRow(
        hand, nets, tuple(bettor_nets), None, None, wins,
        settlement.get("draw") is not None, settlement.get("verified", True),
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
    for hand in hands:
        row = _sheet_row(hand, bettor_index, len(bettors))
        top = max(top, hand.number)
        if not hand.is_deleted:
            running = [a + b for a, b in zip(running, row.nets, strict=False)]
            bettor_running = [a + b for a, b in zip(bettor_running, row.bettor_nets, strict=True)]
            row = row._replace(running=tuple(running), bettor_running=tuple(bettor_running))
            next_dealer = hand.next_dealer
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


def declaration_menu(snapshot):
    """The declared entry's choices under the rules a snapshot pinned (RULES §6): the base
    patterns with their values, the hand-shape extras, the situation flags, the draw's
    declarations (the engine's menu, so a session's menu never changes with today's presets)."""
    return scoring_services.declaration_menu(snapshot)
