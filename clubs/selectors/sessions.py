"""Sessions with their totals, and a player's sessions: totals are never stored (what a player
received minus what he paid in the live hands' payments, or his final-result entry)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db.models import (
    Exists,
    OuterRef,
    Q,
    QuerySet,
    Sum,
)

from clubs.models import (
    Bettor,
    Club,
    Membership,
    Payment,
    Player,
    Seat,
    SessionResult,
    TableSession,
)

from .access import can_read

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
    return _totals(Q(hand__session_id__any_of=ids), Q(session_id__any_of=ids))


def sessions_totals_where(**lookup) -> dict[int, SessionTotals]:
    """Totals of every session matching a lookup on its row (``tournament_table__round=r``),
    by session id: joined in the database, so a tournament's thousands of tables are read
    without sending their ids."""
    return _totals(
        Q(**{f"hand__session__{k}": v for k, v in lookup.items()}),
        Q(**{f"session__{k}": v for k, v in lookup.items()}),
    )


def _totals(payment_filter: Q, result_filter: Q) -> dict[int, SessionTotals]:
    out: dict[int, SessionTotals] = defaultdict(SessionTotals)
    # summed by payer and payee in the database: a few rows a session, however many hands
    parties = ("hand__session_id", "payer_player_id", "payer_bettor_id", "payee_player_id",
               "payee_bettor_id")  # fmt: skip
    payments = (
        # a hand the table's confirmation rule holds (waiting, disputed) does not count yet
        Payment.objects.filter(payment_filter, hand__is_deleted=False, hand__counts=True)
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
    # plain rows, no model instances: a standings or a recompute reads tens of thousands
    for session_id, player_id, bettor_id, total in SessionResult.objects.filter(
        result_filter
    ).values_list("session_id", "player_id", "bettor_id", "total"):
        if player_id:
            out[session_id].players[player_id] += total
        else:
            out[session_id].bettors[bettor_id] += total
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


class RecentSession(NamedTuple):
    """One of a player's latest sessions: whether he sat at the table or bet on it (叫马), and
    his total there."""

    session: TableSession
    role: str  # "seat" or "bettor"
    total: int


class PlayerRecent(NamedTuple):
    """What a player's page lists of his sessions: the clubs the user may read of his
    memberships and tables, by name, and his latest club sessions and tournament tables there
    (the latest first)."""

    clubs: list[Club]
    sessions: list[RecentSession]
    tournament_tables: list[RecentSession]


def player_recent(*, player: Player, user, club: Club | None = None, limit: int) -> PlayerRecent:
    """His latest ``limit`` club sessions (of ``club`` alone when one is given: the caller
    checked the user may read it) and tournament tables that the user may see, with his totals
    in those sessions only, however long his history: what ``player_history`` lists last, in
    three to six queries (his clubs; his sessions; the payments of those played hand by hand,
    the results of those entered; his 叫马 bets among them; his tournament tables).
    ``clubs``: those of his memberships and of his club sessions."""
    his = Q(pk__in=Seat.objects.filter(player=player).values("session_id")) | Q(
        pk__in=Bettor.objects.filter(player=player).values("session_id")
    )
    played = TableSession.objects.filter(his)
    member = Membership.objects.filter(player=player)
    here = played.filter(club=OuterRef("pk"))
    found = (
        Club.objects.filter(Q(pk__in=played.values("club_id")) | Q(pk__in=member.values("club_id")))
        .annotate(
            member=Exists(member.filter(club=OuterRef("pk"))),
            club_tables=Exists(here.filter(kind=TableSession.Kind.CLUB)),
            tournament_tables=Exists(here.filter(kind=TableSession.Kind.TOURNAMENT)),
        )
        .order_by("name", "pk")
    )
    readable = [c for c in found if can_read(user, c)]
    asked = {
        TableSession.Kind.CLUB: [
            c.pk for c in readable if c.club_tables and (club is None or c.pk == club.pk)
        ],
        TableSession.Kind.TOURNAMENT: [c.pk for c in readable if c.tournament_tables],
    }

    latest = {
        kind: list(
            played.filter(kind=kind, club_id__in=ids)
            .select_related("club")
            .annotate(
                bet=Exists(Bettor.objects.filter(session=OuterRef("pk"), player=player)),
                entered=Exists(SessionResult.objects.filter(session=OuterRef("pk"))),
            )
            .order_by("-started_at", "-id")[:limit]
        )
        if ids
        else []
        for kind, ids in asked.items()
    }
    sessions = [s for found in latest.values() for s in found]
    # a session's totals are its hands' payments or its entered results (an empty list asks
    # the database nothing)
    totals = _totals(
        Q(hand__session_id__in=[s.pk for s in sessions if not s.entered]),
        Q(session_id__in=[s.pk for s in sessions if s.entered]),
    )
    bets: dict[int, list[int]] = defaultdict(list)
    if any(s.bet for s in sessions):  # his 叫马 bets' totals are his too
        for session_id, bettor_id in Bettor.objects.filter(
            player=player, session_id__in=[s.pk for s in sessions if s.bet]
        ).values_list("session_id", "id"):
            bets[session_id].append(bettor_id)

    def recent(kind: str) -> list[RecentSession]:
        out = []
        for s in latest[kind]:
            book = totals[s.pk]
            total = book.of_player(player.pk) + sum(book.of_bettor(b) for b in bets[s.pk])
            out.append(RecentSession(s, "bettor" if s.bet else "seat", total))
        return out

    return PlayerRecent(
        [c for c in readable if c.member or c.club_tables],
        recent(TableSession.Kind.CLUB),
        recent(TableSession.Kind.TOURNAMENT),
    )
