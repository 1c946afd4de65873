"""Reads of the clubs app: who may see what, sessions with their totals, hands with payments.

Totals are never stored: a session's total for a player is what he received minus what he
paid in the payments of its live hands, or his final-result entry. Reads answer plain read
models (``SessionTotals``, ``HandView``, ``PlayerSession``) that JSON and pages render alike.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

from django.db import connection
from django.db.models import (
    Count,
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Sum,
    prefetch_related_objects,
)
from django.utils import timezone

from clubs.confirming import HandStanding, Word, standing
from clubs.models import (
    ROLE_RANK,
    Bettor,
    Club,
    Hand,
    HandConfirmation,
    HandRevision,
    Invitation,
    Membership,
    Payment,
    Player,
    Role,
    Seat,
    SessionResult,
    TableSession,
)
from clubs.pinyin import pinyin_keys
from clubs.transfers import EXACT_LIMIT as TRANSFERS_EXACT_LIMIT
from clubs.transfers import settle as settle_transfers
from core.db import model_from_row, prepared_row
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
from scoring.engine.settle import Settlement, Win, WinResult
from scoring.models import RulesetSnapshot

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


def player_by_id(pk: int) -> Player | None:
    """A player by id, whoever may see him (``players_visible_to`` and the statistics say
    that)."""
    return Player.objects.filter(pk=pk).first()


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


# --- the pages' reads: home, a club's tables, its players, an evening ------------------------


class HomeClubs(NamedTuple):
    """The home page's clubs: the user's own, each with his role, then the public others."""

    mine: list[tuple[Club, str]]
    public: list[Club]


def home_clubs(user) -> HomeClubs:
    """Two queries, however many clubs."""
    mine: list[tuple[Club, str]] = []
    if user and user.is_authenticated:
        rows = (
            Membership.objects.filter(player__user=user)
            .select_related("club")
            .order_by("club__name", "club_id")
        )
        mine = [(m.club, m.role) for m in rows]
    mine_ids = [c.pk for c, _ in mine]
    public = list(
        Club.objects.filter(visibility=Club.Visibility.PUBLIC)
        .exclude(pk__in=mine_ids)
        .order_by("name", "id")[:PUBLIC_CLUBS_SHOWN]
    )
    return HomeClubs(mine, public)


#: the most public clubs the home page lists
PUBLIC_CLUBS_SHOWN = 50


def club_today(club: Club) -> date:
    """Today in the club's own time zone."""
    return timezone.now().astimezone(ZoneInfo(club.time_zone)).date()


def session_day(session: TableSession) -> date:
    """The club's day a session started on (its evening), in the club's own time zone."""
    return session.started_at.astimezone(ZoneInfo(session.club.time_zone)).date()


def club_day_bounds(club: Club, day: date) -> tuple[datetime, datetime]:
    """The club's day ``day`` as [start, end) instants (its own midnight to midnight)."""
    zone = ZoneInfo(club.time_zone)
    start = datetime.combine(day, time.min, tzinfo=zone)
    return start, datetime.combine(day + timedelta(days=1), time.min, tzinfo=zone)


class SeatLine(NamedTuple):
    """One seat of a table as a page shows it: number (0–3), player and his total."""

    number: int
    player: Player
    total: int


class BettorLine(NamedTuple):
    """A 叫马 bettor of a table and his total."""

    bettor: Bettor
    total: int


class TableView(NamedTuple):
    """A table session with its seats, bettors, totals and number of live hands."""

    session: TableSession
    seats: tuple[SeatLine, ...]
    bettors: tuple[BettorLine, ...]
    hands: int


def club_tables(
    club: Club,
    *,
    day: date | None = None,
    status: str | None = None,
    kind: str | None = None,
    exclude: Iterable[int] = (),
    limit: int | None = None,
) -> list[TableView]:
    """A club's table sessions, newest first, with their totals: five queries however many
    sessions (sessions, seats, bettors, payments summed, final results)."""
    qs = (
        TableSession.objects.filter(club=club)
        .annotate(live_hands=Count("hands", filter=Q(hands__is_deleted=False)))
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player")),
            Prefetch("bettors", queryset=Bettor.objects.select_related("player")),
        )
        .order_by("-started_at", "-id")
    )
    if day is not None:
        start, end = club_day_bounds(club, day)
        qs = qs.filter(started_at__gte=start, started_at__lt=end)
    if status is not None:
        qs = qs.filter(status=status)
    if kind is not None:
        qs = qs.filter(kind=kind)
    exclude = list(exclude)
    if exclude:
        qs = qs.exclude(pk__in=exclude)
    sessions = list(qs[:limit] if limit is not None else qs)
    for s in sessions:
        s.club = club
    totals = sessions_totals(s.pk for s in sessions)
    out = []
    for s in sessions:
        book = totals[s.pk]
        out.append(
            TableView(
                s,
                tuple(
                    SeatLine(t.number, t.player, book.of_player(t.player_id)) for t in s.seats.all()
                ),  # fmt: skip
                tuple(BettorLine(b, book.of_bettor(b.pk)) for b in s.bettors.all()),
                s.live_hands,
            )
        )
    return out


class MembersSummary(NamedTuple):
    """How many members a club has, by role, and who holds the roles above member."""

    count: int
    by_role: dict[str, int]
    staff: list[Membership]


def members_summary(club: Club) -> MembersSummary:
    """Two queries, however many members."""
    by_role = dict(
        club.memberships.order_by()
        .values_list("role")
        .annotate(n=Count("id"))
        .values_list("role", "n")
    )
    staff = list(
        club.memberships.exclude(role=Role.MEMBER)
        .select_related("player")
        .order_by("player__name", "id")
    )
    staff.sort(key=lambda m: (-ROLE_RANK[m.role], m.name))
    return MembersSummary(sum(by_role.values()), by_role, staff)


# --- players: a club's list and its search by 汉字 and pinyin ---------------------------------

#: the most players a search answers
PLAYERS_SHOWN = 200
#: the longest search text read
QUERY_MAX = 40


def name_readings(name: str) -> tuple[str, ...]:
    """What a search finds a name by besides its own characters: its full pinyin readings
    and their initials (``clubs.pinyin.pinyin_keys``)."""
    fulls, initials = pinyin_keys(name)
    return (*fulls, *initials)


def name_matches(name: str, query: str, readings: tuple[str, ...] | None = None) -> bool:
    """Whether a search matches a name: 汉字 (张 finds 张三), full pinyin (zhangsan, zhangs,
    san) or initials (zs), case-insensitive, spaces ignored. ``readings``: the name's
    :func:`name_readings`, when the caller keeps them (a round's thousands of names: more
    than the pinyin cache holds)."""
    q = "".join(query.split()).lower()[:QUERY_MAX]
    if not q:
        return True
    if q in "".join(name.split()).lower():
        return True
    return any(q in key for key in (name_readings(name) if readings is None else readings))


class PlayerList(NamedTuple):
    """A club's players matching a search: the first ``PLAYERS_SHOWN``, and how many match."""

    members: list[Membership]
    matched: int


def club_players(club: Club, query: str = "", *, limit: int = PLAYERS_SHOWN) -> PlayerList:
    """The club's players (their memberships) matching ``query`` by 汉字 or pinyin, ordered by
    name's pinyin. One query; the matching runs over the club's names with cached pinyin."""
    rows = club.memberships.select_related("player").order_by("id")
    matched = [
        m
        for m in rows
        if name_matches(m.name, query) or (m.display_name and name_matches(m.player.name, query))
    ]
    matched.sort(key=lambda m: (pinyin_keys(m.name)[0][:1], m.name, m.pk))
    return PlayerList(matched[:limit], len(matched))


# --- the evening's 结算 ------------------------------------------------------------------------


class Person(NamedTuple):
    """Someone with a net over an evening: a player of the service (by id) or a guest bettor
    (by name; the same name at two tables is one guest)."""

    key: tuple[str, int | str]
    name: str
    player: Player | None


class EveningLine(NamedTuple):
    person: Person
    net: int
    tables: int


class EveningTransfer(NamedTuple):
    payer: Person
    payee: Person
    amount: int


class Evening(NamedTuple):
    """A club day's 结算: its club tables, each person's net over them (largest first), and the
    fewest transfers that settle the nets (最少转账, ``clubs.transfers``)."""

    day: date
    tables: list[TableView]
    lines: list[EveningLine]
    transfers: list[EveningTransfer]

    @property
    def exact(self) -> bool:
        return sum(1 for line in self.lines if line.net) <= TRANSFERS_EXACT_LIMIT


def evening(club: Club, day: date) -> Evening:
    """The 结算 of the club's own tables that started on ``day`` (the club's time zone);
    tournament tables are not money and stay out. Five queries, however many tables."""
    tables = club_tables(club, day=day, kind=TableSession.Kind.CLUB)
    people: dict[tuple, Person] = {}
    nets: dict[tuple, int] = defaultdict(int)
    seen: dict[tuple, set[int]] = defaultdict(set)

    def add(person: Person, amount: int, session_id: int) -> None:
        people.setdefault(person.key, person)
        nets[person.key] += amount
        seen[person.key].add(session_id)

    for t in reversed(tables):  # oldest first: a person is named as he first appeared
        for line in t.seats:
            p = line.player
            add(Person(("player", p.pk), p.name, p), line.total, t.session.pk)
        for line in t.bettors:
            b = line.bettor
            if b.player_id:
                person = Person(("player", b.player_id), b.player.name, b.player)
            else:
                person = Person(("guest", b.guest_name), b.guest_name, None)
            add(person, line.total, t.session.pk)
    order = sorted(people, key=lambda k: (-nets[k], people[k].name, str(k)))
    lines = [EveningLine(people[k], nets[k], len(seen[k])) for k in order]
    moves = settle_transfers({k: nets[k] for k in order})
    return Evening(
        day,
        tables,
        lines,
        [EveningTransfer(people[m.payer], people[m.payee], m.amount) for m in moves],
    )


def free_club_slug(wanted: str) -> str:
    """``wanted`` if no club has it, else ``wanted-2``, ``wanted-3`` … (one query)."""
    wanted = wanted[:56] or "club"
    taken = set(Club.objects.filter(slug__startswith=wanted).values_list("slug", flat=True))
    if wanted not in taken:
        return wanted
    n = 2
    while f"{wanted}-{n}" in taken:
        n += 1
    return f"{wanted}-{n}"


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


def open_invitations(club: Club, viewer) -> QuerySet[Invitation]:
    """The club's links that still work (neither used, revoked nor expired), newest first, that
    ``viewer`` may see: every organiser sees the invitations, but a password-reset link (which
    lets whoever holds it act as that member) only its creator, the club's owner and staff."""
    links = Invitation.objects.filter(
        club=club, used_at=None, revoked_at=None, expires_at__gt=timezone.now()
    )
    if not (viewer.is_superuser or has_role(viewer, club, Role.OWNER)):
        links = links.filter(Q(kind=Invitation.Kind.JOIN) | Q(created_by=viewer))
    return links.select_related("club", "player", "user", "created_by").order_by(
        "-created_at", "-id"
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


# --- the table page ----------------------------------------------------------------------------


def session_with_club(pk: int) -> TableSession | None:
    """A session and its club: who may read it, nothing more."""
    return TableSession.objects.select_related("club").filter(pk=pk).first()


def club_by_pk(pk: int) -> Club | None:
    return Club.objects.filter(pk=pk).first()


def session_head(pk: int) -> TableSession | None:
    """A session with its club and ruleset alone (the table page's read: its seats and
    bettors are kept with what the page computed from them)."""
    return TableSession.objects.select_related("club", "ruleset").filter(pk=pk).first()


class HeadRead(NamedTuple):
    """What :func:`session_head_read` read with the session: its :class:`SessionReadVersion`
    and the viewer's role in its club (None: not a member; ``UNREAD``: not asked)."""

    read_version: SessionReadVersion | None
    viewer_role: str | None | object


_HEAD_SESSION = list(TableSession._meta.concrete_fields)
_HEAD_CLUB = list(Club._meta.concrete_fields)
_HEAD_RULESET = list(RulesetSnapshot._meta.concrete_fields)


def _head_sql() -> str:
    words, hands, seats, players, bettors, members = (
        m._meta.db_table for m in (HandConfirmation, Hand, Seat, Player, Bettor, Membership)
    )
    columns = [f"s.{f.column}" for f in _HEAD_SESSION]
    columns += [f"c.{f.column}" for f in _HEAD_CLUB]
    columns += [f"r.{f.column}" for f in _HEAD_RULESET]
    return (
        f"SELECT {', '.join(columns)},"
        f" (SELECT COALESCE(MAX(w.id), 0) FROM {words} w JOIN {hands} h ON h.id = w.hand_id"
        "   WHERE h.session_id = s.id),"
        " (SELECT COALESCE(string_agg(st.number || ':' || p.id || ':' || p.name, '|'"
        f"   ORDER BY st.number), '') FROM {seats} st JOIN {players} p ON p.id = st.player_id"
        "   WHERE st.session_id = s.id),"
        " (SELECT COALESCE(string_agg(b.id || ':' || COALESCE(p.name, b.guest_name), '|'"
        f"   ORDER BY b.id), '') FROM {bettors} b LEFT JOIN {players} p ON p.id = b.player_id"
        "   WHERE b.session_id = s.id),"
        f" (SELECT m.role FROM {members} m WHERE m.club_id = s.club_id"
        f"   AND m.player_id = (SELECT p.id FROM {players} p WHERE p.user_id = %(viewer)s))"
        f" FROM {TableSession._meta.db_table} s"
        f" JOIN {Club._meta.db_table} c ON c.id = s.club_id"
        f" JOIN {RulesetSnapshot._meta.db_table} r ON r.id = s.ruleset_id"
        " WHERE s.id = %(session)s"
    )


_HEAD_SQL: list[str] = []


def session_head_read(pk: int, viewer=None) -> tuple[TableSession | None, HeadRead]:
    """:func:`session_head`, with the session's :class:`SessionReadVersion` and the viewer's
    role in its club (a signed-in ``viewer``): one prepared statement on PostgreSQL, where
    building the ORM's queries cost the table page more than running them (issue 25). The
    read version is read with the session's row, before anything it versions. Elsewhere the
    session alone (the rest is read when asked)."""
    if connection.vendor != "postgresql":
        return session_head(pk), HeadRead(None, UNREAD)
    if not _HEAD_SQL:
        _HEAD_SQL.append(_head_sql())
    signed_in = viewer is not None and viewer.is_authenticated
    row = prepared_row(_HEAD_SQL[0], {"session": pk, "viewer": viewer.pk if signed_in else None})
    if row is None:
        return None, HeadRead(None, UNREAD)
    n, m = len(_HEAD_SESSION), len(_HEAD_SESSION) + len(_HEAD_CLUB)
    end = m + len(_HEAD_RULESET)
    names = [[f.attname for f in fields] for fields in (_HEAD_SESSION, _HEAD_CLUB, _HEAD_RULESET)]
    session = model_from_row(TableSession, names[0], row[:n])
    session.club = model_from_row(Club, names[1], row[n:m])
    session.ruleset = model_from_row(RulesetSnapshot, names[2], row[m:end])
    said, seated, betting, role = row[end:]
    read = SessionReadVersion(said, f"{seated}/{betting}")
    return session, HeadRead(read, role if signed_in else UNREAD)


def session_seated(session: TableSession) -> TableSession:
    """The session's seats and bettors (their players) read onto it, as :func:`session_page`
    reads them (two queries; none when they are read already)."""
    prefetch_related_objects(
        [session],
        Prefetch("seats", queryset=Seat.objects.select_related("player")),
        Prefetch("bettors", queryset=Bettor.objects.select_related("player")),
    )
    return session


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
    running totals after it (None for a deleted hand, which no longer counts, and for one the
    table's confirmation rule holds, which does not count yet), its wins and
    whether all of it was shown (an unverified hand was declared, RULES §6)."""

    hand: Hand
    nets: tuple[int, ...]
    bettor_nets: tuple[int, ...]
    running: tuple[int, ...] | None
    bettor_running: tuple[int, ...] | None
    wins: tuple[WinLine, ...]
    drawn: bool
    verified: bool
    settlement: Settlement  # the hand as settled (:func:`settled_hand`)


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
    settled = settled_hand(hand, rules)
    bettor_nets = [0] * n_bettors
    for b, net in zip(settled.record.bettors, settled.bettor_totals, strict=False):
        index = bettor_index.get(b.name)
        if index is not None:
            bettor_nets[index] += net
    wins = tuple(
        WinLine(w.seat, w.from_, w.valuation.pattern, w.valuation.roots, w.amount, w.verified)
        for w in settled.wins
    )
    return SheetRow(
        hand, settled.seat_totals, tuple(bettor_nets), None, None, wins,
        settled.draw is not None, settled.verified, settled,
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


# --- confirmations (issue 24 §2) ---------------------------------------------------------------


def confirmation_rule_of(session: TableSession) -> str:
    """The confirmation rule a table plays under: its own (a tournament's), else its club's."""
    return session.confirmation_rule or session.club.confirmation_rule


def seat_of(session: TableSession, user) -> int | None:
    """The seat at this table of the player linked to the login (None: not seated here)."""
    if user is None or not user.is_authenticated:
        return None
    return next((s.number for s in session.seats.all() if s.player.user_id == user.pk), None)


def session_standings(session: TableSession) -> dict[int, HandStanding]:
    """Where each live hand of a table stands under its confirmation rule, by hand id (one
    query: the words said about the hands' current revisions)."""
    rule = confirmation_rule_of(session)
    said: dict[int, list[Word]] = defaultdict(list)
    for hand_id, seat, verdict, words in (
        HandConfirmation.objects.filter(
            hand__session=session, hand__is_deleted=False, revision=F("hand__revision")
        )
        .order_by("at", "id")
        .values_list("hand_id", "seat", "verdict", "words")
    ):
        said[hand_id].append(Word(seat, verdict, words))
    return {
        pk: standing(rule, entry_seat, said[pk])
        for pk, entry_seat in Hand.objects.filter(session=session, is_deleted=False).values_list(
            "pk", "entry_seat"
        )
    }


def hand_standing(
    session: TableSession, hand: Hand, said: Iterable[HandConfirmation]
) -> HandStanding:
    """Where one hand stands, from the words said about it (``hand_confirmations``, every
    revision's: those about its current one count)."""
    words = [Word(c.seat, c.verdict, c.words) for c in said if c.revision == hand.revision]
    return standing(confirmation_rule_of(session), hand.entry_seat, words)


class SessionReadVersion(NamedTuple):
    """What a table's page shows that its ``data_version`` does not count: the newest word
    said about its hands (its id; 0 before the first — a word that moves no total moves no
    version) and its seats' and bettors' players and names as one text (a rename moves none)."""

    words: int
    names: str


def session_read_version(session_id: int) -> SessionReadVersion:
    """:class:`SessionReadVersion` of a session: one query on PostgreSQL (three elsewhere)."""
    if connection.vendor != "postgresql":
        said = HandConfirmation.objects.filter(hand__session_id=session_id)
        seats = Seat.objects.filter(session_id=session_id).order_by("number")
        bettors = Bettor.objects.filter(session_id=session_id).order_by("pk")
        return SessionReadVersion(
            said.order_by("-id").values_list("id", flat=True).first() or 0,
            repr((list(seats.values_list("number", "player_id", "player__name")),
                  list(bettors.values_list("pk", "player__name", "guest_name")))),
        )  # fmt: skip
    words, hands, seats, players, bettors = (
        m._meta.db_table for m in (HandConfirmation, Hand, Seat, Player, Bettor)
    )
    sql = (
        f"SELECT (SELECT COALESCE(MAX(c.id), 0) FROM {words} c JOIN {hands} h ON h.id = c.hand_id"
        "  WHERE h.session_id = %s),"
        " (SELECT COALESCE(string_agg(s.number || ':' || p.id || ':' || p.name, '|'"
        f"   ORDER BY s.number), '') FROM {seats} s JOIN {players} p ON p.id = s.player_id"
        "  WHERE s.session_id = %s),"
        " (SELECT COALESCE(string_agg(b.id || ':' || COALESCE(p.name, b.guest_name), '|'"
        f"   ORDER BY b.id), '') FROM {bettors} b LEFT JOIN {players} p ON p.id = b.player_id"
        "  WHERE b.session_id = %s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [session_id] * 3)
        said, seated, betting = cursor.fetchone()
    return SessionReadVersion(said, f"{seated}/{betting}")


def hand_confirmations(hand: Hand) -> QuerySet[HandConfirmation]:
    """Every word said about a hand, each revision's, oldest first (its history)."""
    return hand.confirmations.select_related("by").order_by("at", "id")


class HeldHand(NamedTuple):
    """A hand of an open table that waits for confirmations or is disputed, for the organiser
    or referee: the hand, its table and where it stands."""

    hand: Hand
    session: TableSession
    standing: HandStanding


def club_held_hands(club: Club) -> list[HeldHand]:
    """The live hands of the club's open tables (club and tournament tables alike) that the
    confirmation rule holds or that someone disputes, disputes first, then by table and
    number (three queries and one a table with such a hand)."""
    live = Q(session__club=club, session__status=TableSession.Status.OPEN, is_deleted=False)
    disputed = HandConfirmation.objects.filter(
        hand=OuterRef("pk"), revision=OuterRef("revision"), verdict=HandConfirmation.Verdict.DISPUTE
    )
    hands = list(
        Hand.objects.filter(live)
        .filter(Q(counts=False) | Q(Exists(disputed)))
        .select_related("session__club")
        .prefetch_related(
            Prefetch("session__seats", queryset=Seat.objects.select_related("player"))
        )
        .order_by("session__started_at", "session_id", "number")
    )
    standings: dict[int, dict[int, HandStanding]] = {}
    out = []
    for hand in hands:
        if hand.session_id not in standings:
            standings[hand.session_id] = session_standings(hand.session)
        found = standings[hand.session_id].get(hand.pk)
        if found is not None and (found.held or found.is_disputed):
            out.append(HeldHand(hand, hand.session, found))
    out.sort(key=lambda h: not h.standing.is_disputed)
    return out


def declaration_menu(snapshot):
    """The declared entry's choices under the rules a snapshot pinned (RULES §6): the base
    patterns with their values, the hand-shape extras, the situation flags, the draw's
    declarations (the engine's menu, so a session's menu never changes with today's presets)."""
    return scoring_services.declaration_menu(snapshot)


# --- a player's page ---------------------------------------------------------------------------


def readable_clubs(user, slugs) -> list[Club]:
    """The clubs of these slugs that ``user`` may read, by name (one query, and the user's
    memberships once)."""
    clubs = Club.objects.filter(slug__in=list(slugs)).order_by("name", "pk")
    return [c for c in clubs if can_read(user, c)]


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
