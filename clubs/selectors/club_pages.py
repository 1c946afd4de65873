"""The club pages' reads: home, a club's tables and members, its players searched by 汉字 and
pinyin, an evening's 结算."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date, datetime, time, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

from django.db.models import (
    Count,
    Prefetch,
    Q,
)
from django.utils import timezone

from clubs.models import (
    ROLE_RANK,
    Bettor,
    Club,
    Membership,
    Player,
    Role,
    Seat,
    TableSession,
)
from clubs.pinyin import pinyin_keys
from clubs.transfers import EXACT_LIMIT as TRANSFERS_EXACT_LIMIT
from clubs.transfers import settle as settle_transfers
from core.slugs import free_slug

from .sessions import sessions_totals

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
    return free_slug(Club.objects.all(), wanted, "club")
