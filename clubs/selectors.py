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
from django.utils import timezone

from clubs.models import (
    ROLE_RANK,
    Bettor,
    Club,
    Hand,
    Invitation,
    Membership,
    Payment,
    Player,
    Role,
    SessionResult,
    TableSession,
)

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


# --- members, invitations and logins ---------------------------------------------------------


def members_of(club: Club) -> QuerySet[Membership]:
    """The club's members with their players and logins (``player.user``), by name."""
    return (
        Membership.objects.filter(club=club)
        .select_related("player__user", "club")
        .order_by("player__name", "id")
    )


def member_of(club: Club, pk: int) -> Membership | None:
    """One membership of the club, with its player and login."""
    return members_of(club).filter(pk=pk).first()


def players_without_login(club: Club) -> QuerySet[Membership]:
    """The club's members whose player has no login yet (whom an invitation may name)."""
    return members_of(club).filter(player__user__isnull=True)


def open_invitations(club: Club) -> QuerySet[Invitation]:
    """The club's links that still work (neither used, revoked nor expired), newest first."""
    return (
        Invitation.objects.filter(
            club=club, used_at=None, revoked_at=None, expires_at__gt=timezone.now()
        )
        .select_related("club", "player", "user", "created_by")
        .order_by("-created_at", "-id")
    )


def invitation_of(club: Club, pk: int) -> Invitation | None:
    """One link of the club, whatever its state."""
    return Invitation.objects.filter(club=club, pk=pk).select_related("club").first()


def invitation_by_token(token: str) -> Invitation | None:
    """The link with this token, whatever its state (its page says when it no longer works)."""
    if not token or len(token) > 64:
        return None
    return Invitation.objects.filter(token=token).select_related("club", "player", "user").first()


class UserClubs(NamedTuple):
    """A login's players (at most one: one person, one player) and his clubs with roles."""

    players: list[Player]
    memberships: list[Membership]


def user_clubs(user) -> UserClubs:
    """The players linked to a login and the memberships they hold, by club name."""
    players = list(Player.objects.filter(user=user).order_by("id"))
    memberships = list(
        Membership.objects.filter(player__user=user)
        .select_related("club")
        .order_by("club__name", "id")
    )
    return UserClubs(players, memberships)
