"""Reads of the tournaments app: who may see what, seatings, table results, standings."""

from __future__ import annotations

import zlib
from collections import Counter, OrderedDict, defaultdict
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from functools import lru_cache
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple, TypeVar

from django.core.exceptions import ObjectDoesNotExist
from django.db import connection, transaction
from django.db.models import (
    BigIntegerField,
    Count,
    F,
    Func,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    TextField,
    Value,
)
from django.db.models.functions import Cast, Coalesce, Concat, Now

from clubs.models import (
    Club,
    Hand,
    HandRevision,
    Membership,
    Payment,
    Player,
    Seat,
    SeatRepair,
    SessionResult,
    TableSession,
)
from clubs.pinyin import name_sort_key
from clubs.selectors import can_read
from clubs.selectors import players_visible_to as club_players_visible_to
from core.db import model_from_row, prepared_row
from core.errors import Invalid
from core.slugs import free_slug
from scoring.engine.lru import LRU
from scoring.models import RulesetSnapshot
from tournaments.models import (
    Penalty,
    Registration,
    Round,
    RoundUnlock,
    StandingsSnapshot,
    SubstituteCounts,
    Substitution,
    Table,
    Tournament,
)
from tournaments.readmodels import (
    LiveSeat,
    LiveTable,
    RankChanges,
    ReportLine,
    RoundCell,
    RoundClock,
    RoundDetail,
    RoundLive,
    RoundProgress,
    SeatRow,
    StandingsTable,
    TableSeats,
    TournamentOverview,
    TournamentReport,
    snapshot_rows,
)
from tournaments.seating import RoundSeating, TableSeating
from tournaments.standings import (
    DEFAULT_PLACEMENT_POINTS,
    DEFAULT_TIEBREAKS,
    Standing,
    StandingsError,
    StandingsRules,
    TableResult,
    compute_standings,
    order_finals,
)


def can_read_tournament(user, tournament: Tournament) -> bool:
    """Public tournaments are open to all; others to the members of their club."""
    return tournament.is_public or can_read(user, tournament.club)


def tournaments_visible_to(user) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related("club", "ruleset")
    if not user.is_authenticated:
        return qs.filter(is_public=True)
    if user.is_superuser:
        return qs
    clubs = Membership.objects.filter(player__user=user).values("club_id")
    return qs.filter(Q(is_public=True) | Q(club_id__in=clubs))


#: the most tournaments a list on a page shows
TOURNAMENTS_LISTED = 20


def tournaments_listed(user, club=None) -> list[Tournament]:
    """The tournaments a user may read, newest first (those of one club, when given): one
    query."""
    qs = tournaments_visible_to(user)
    if club is not None:
        qs = qs.filter(club=club)
    return list(qs.order_by("-created_at", "-pk")[:TOURNAMENTS_LISTED])


def players_visible_to(user) -> QuerySet[Player]:
    """The players a user may name by id: those he sees in clubs
    (``clubs.selectors.players_visible_to``) and those entered in tournaments he sees."""
    entered = Registration.objects.filter(
        tournament__in=tournaments_visible_to(user).values("pk")
    ).values("player_id")
    clubs_seen = club_players_visible_to(user).values("pk")
    return Player.objects.filter(Q(pk__in=clubs_seen) | Q(pk__in=entered))


def players_named(tournament: Tournament, name: str) -> list[Player]:
    """Players of the host club (by name or the name the club knows them by) and of the
    tournament whose name is ``name`` (letter case aside)."""
    return list(
        Player.objects.filter(
            Q(memberships__club=tournament.club_id)
            & (Q(name__iexact=name) | Q(memberships__display_name__iexact=name))
            | Q(entries__tournament=tournament, name__iexact=name)
        )
        .distinct()
        .order_by("pk")
    )


def has_played(tournament: Tournament, player_id: int) -> bool:
    """Seated at a table of the tournament, given a bye, or replaced by a substitute, in any
    round."""
    seated = Seat.objects.filter(
        player_id=player_id, session__tournament_table__round__tournament=tournament
    ).exists()
    replaced = Substitution.objects.filter(
        absent_id=player_id, table__round__tournament=tournament
    ).exists()
    return seated or replaced or any(player_id in r.byes for r in tournament.round_set.all())


def rules_of(tournament: Tournament) -> StandingsRules:
    return StandingsRules(
        placement_points=tuple(tournament.placement_points or DEFAULT_PLACEMENT_POINTS),
        tiebreaks=tuple(tournament.tiebreaks or DEFAULT_TIEBREAKS),
        bye_points=tournament.bye_fraction,
        bye_table_score=tournament.bye_table_score,
    )


def seated_rounds(tournament: Tournament, *, before: int | None = None) -> list[Round]:
    qs = tournament.round_set.filter(status=Round.Status.SEATED)
    if before is not None:
        qs = qs.filter(number__lt=before)
    return list(qs.order_by("number"))


def seatings(rounds: list[Round]) -> dict[int, RoundSeating]:
    """Each seated round as the seating engine sees it: tables of player ids, and byes."""
    seats = (
        Seat.objects.filter(session__tournament_table__round__in=rounds)
        .order_by("session__tournament_table__number", "number")
        .values_list("session__tournament_table__round_id", "session__tournament_table__number",
                     "player_id")
    )  # fmt: skip
    tables: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for round_id, number, player_id in seats:
        tables[round_id][number].append(player_id)
    out = {}
    for r in rounds:
        out[r.number] = RoundSeating(
            tables=tuple(
                TableSeating(number=n, players=tuple(ps)) for n, ps in sorted(tables[r.pk].items())
            ),
            byes=tuple(r.byes),
        )
    return out


class TablesRead(NamedTuple):
    """A tournament's (or a round's) tables as their results need them, read once: one row a
    table (id, round id, round number, table number, session, live hands, entered totals,
    approved as it is, has a substitute, the session's data version) and each session's
    seats in seat order, as (player, his total at the table) (0 before anything counts); a
    session without seats has none there."""

    tables: list[tuple[int, int, int, int, int, int, int, bool, bool, int]]
    seats: dict[int, tuple[tuple[int, int], ...]]
    where: dict[str, Any]

    @property
    def data_version(self) -> int:
        """The sum of these tables' data versions (:func:`tables_data_version`), as read with
        them: the seats and totals read after them are as new or newer."""
        return sum(t[9] for t in self.tables)


class SessionRead(NamedTuple):
    """A table's session as its result is read, at one of its data versions: its hands that
    count, its entered totals, and its seats in seat order as (player, his total there)."""

    version: int
    hands: int
    entered: int
    seats: tuple[tuple[int, int], ...]


#: The sessions read (:class:`SessionRead`), by id, the ones used last kept in the process.
#: Every write to a session's hands, seats or results moves its ``data_version``
#: (``clubs.tasks.follow_session``), and its read is used only at the version it was read at:
#: a recomputation of the standings after a table's result reads that one table's session
#: again, not the 2,500 of 1,000 players (issue 25). A read is some 700 bytes: 40,000 of them
#: (a tournament of 10,000 players, 12 rounds) are some 28 MB.
SESSIONS_KEPT = 40_000
_SESSIONS: LRU[int, SessionRead] = LRU(SESSIONS_KEPT)
#: above this many sessions to read again, all of the tables' sessions are read (one statement
#: with no list of ids; a database bounds how many parameters a statement takes)
_READ_BY_ID = 500


def sessions_read_forget() -> None:
    """Forget every session read in this process (a test's database, emptied with its ids
    started again, holds other sessions under the same ids)."""
    _SESSIONS.clear()


#: The tables' sessions (of a tournament, or of a round; ``{only}``: those of a list) with their
#: data version, hands that count and entered totals, and each of their seats in seat order with
#: its player's entered totals there (a row each: a seat with two has two rows) and his payments
#: in the hands that count, received less paid, summed in the database (a session has one or
#: the other); a session without seats is one row with no seat. One statement, so the version
#: is the one the totals were read at. Plain rows, no model or converter between them and the
#: results: at 10,000 players a hundred thousand of them (issue 25).
_SESSIONS_SQL = """
WITH here AS (
    SELECT t.session_id, x.data_version FROM {table} t JOIN {round} r ON r.id = t.round_id
    JOIN {session} x ON x.id = t.session_id WHERE {where}{only}
), hands AS (
    SELECT h.session_id, COUNT(*) AS n FROM {hand} h JOIN here ON here.session_id = h.session_id
    WHERE h.counts AND NOT h.is_deleted GROUP BY h.session_id
), entered AS (
    SELECT e.session_id, COUNT(*) AS n FROM {result} e
    JOIN here ON here.session_id = e.session_id GROUP BY e.session_id
), paid AS (
    SELECT m.session_id, m.player_id, SUM(m.amount) AS total FROM (
        SELECT h.session_id, p.payee_player_id AS player_id, p.amount AS amount
        FROM {payment} p JOIN {hand} h ON h.id = p.hand_id
        JOIN here ON here.session_id = h.session_id
        WHERE h.counts AND NOT h.is_deleted AND p.payee_player_id IS NOT NULL
        UNION ALL
        SELECT h.session_id, p.payer_player_id, -p.amount
        FROM {payment} p JOIN {hand} h ON h.id = p.hand_id
        JOIN here ON here.session_id = h.session_id
        WHERE h.counts AND NOT h.is_deleted AND p.payer_player_id IS NOT NULL
    ) m GROUP BY m.session_id, m.player_id
)
SELECT here.session_id, here.data_version, COALESCE(hands.n, 0), COALESCE(entered.n, 0),
       s.number, s.player_id, COALESCE(e.total, 0) + COALESCE(paid.total, 0), COALESCE(e.total, 0)
FROM here
LEFT JOIN hands ON hands.session_id = here.session_id
LEFT JOIN entered ON entered.session_id = here.session_id
LEFT JOIN {seat} s ON s.session_id = here.session_id
LEFT JOIN {result} e ON e.session_id = s.session_id AND e.player_id = s.player_id
LEFT JOIN paid ON paid.session_id = s.session_id AND paid.player_id = s.player_id
ORDER BY here.session_id, s.number
"""


def _tables_where(where: dict[str, Any]) -> tuple[str, int]:
    """The condition on ``t`` (a table) and ``r`` (its round) that picks the tables of
    ``where`` (a tournament's, or a round's), and its parameter."""
    ((key, value),) = where.items()
    column = {"round__tournament": "r.tournament_id", "round": "t.round_id"}[key]
    return f"{column} = %s", value.pk


def _sessions_read(where: dict[str, Any], only: list[int] | None, cursor) -> dict[int, SessionRead]:
    """The tables' sessions (all of them, or those of ``only``) read (:data:`_SESSIONS_SQL`)."""
    condition, param = _tables_where(where)
    q = connection.ops.quote_name
    sql = _SESSIONS_SQL.format(
        table=q(Table._meta.db_table), round=q(Round._meta.db_table),
        session=q(TableSession._meta.db_table), payment=q(Payment._meta.db_table),
        hand=q(Hand._meta.db_table), result=q(SessionResult._meta.db_table),
        seat=q(Seat._meta.db_table), where=condition,
        only="" if only is None else f" AND t.session_id IN ({', '.join(['%s'] * len(only))})",
    )  # fmt: skip
    out: dict[int, SessionRead] = {}
    head: tuple[int, int, int, int] | None = None
    here: list[tuple[int, int]] = []
    last_number = None
    cursor.execute(sql, [param, *(only or ())])
    # the rows come session by session, each session's seats kept as one tuple: the table's
    # result takes it as it is (no list kept a session: at 10,000 players, 25,000 fewer objects
    # for the garbage collector's full passes to walk, issue 25)
    for session_id, version, hands, entered, number, player_id, total, entry in cursor.fetchall():
        if head is None or session_id != head[0]:
            if head is not None:
                out[head[0]] = SessionRead(*head[1:], tuple(here))
                here.clear()
            head, last_number = (session_id, version, hands, entered), None
        if number is None:  # a session without seats
            continue
        if number == last_number:
            # a second entered total of the same seat: added (its payments came once)
            here[-1] = (player_id, here[-1][1] + entry)
            continue
        last_number = number
        here.append((player_id, total))
    if head is not None:
        out[head[0]] = SessionRead(*head[1:], tuple(here))
    return out


#: The two reads' settings, for their transaction alone (PostgreSQL): no JIT compiling (the
#: planner costs the tables' statement of 10,000 players above ``jit_above_cost``, and its
#: compiling took 15–20 ms of a statement that runs in about 100), and room to sort a hundred
#: thousand seats in memory (with the default 4 MB they were sorted on disk). Issue 25.
_READ_SETTINGS = "SELECT set_config('jit', 'off', true), set_config('work_mem', '32MB', true)"

_NOT_READ = SessionRead(0, 0, 0, ())

#: The tables (of a tournament, or of a round) in table order: id, round id, round number,
#: table number, session, approved as it is, has a substitute (the few such tables looked up in
#: one hashed list), and the session's data version — on PostgreSQL looked up table by table
#: by its key (``{session}``: a lateral lookup the planner cannot turn into a join; joined, it
#: hashed every table session of the database, whatever the tournament's size: 27,750 for
#: 2,500 tables in the bench's database, twice the time). The list of substitutes' tables
#: names its own ``t`` and ``r``, so that one condition picks the tables in both.
_TABLES_SQL = """
SELECT t.id, t.round_id, r.number, t.number, t.session_id, t.approved_version = s.data_version,
       t.id IN (SELECT u.table_id FROM {substitution} u JOIN {table} t ON t.id = u.table_id
                JOIN {round} r ON r.id = t.round_id WHERE {where}),
       s.data_version
FROM {table} t JOIN {round} r ON r.id = t.round_id {session}
WHERE {where}
ORDER BY t.round_id, t.number
"""


def _tables_sql(where: dict[str, Any]) -> tuple[str, list[int]]:
    """:data:`_TABLES_SQL` for these tables, with its parameters."""
    condition, param = _tables_where(where)
    q = connection.ops.quote_name
    session = q(TableSession._meta.db_table)
    if connection.vendor == "postgresql":
        session = (f"CROSS JOIN LATERAL (SELECT x.data_version FROM {session} x"
                   " WHERE x.id = t.session_id OFFSET 0) s")  # fmt: skip
    else:
        session = f"JOIN {session} s ON s.id = t.session_id"
    sql = _TABLES_SQL.format(
        table=q(Table._meta.db_table), round=q(Round._meta.db_table),
        substitution=q(Substitution._meta.db_table), session=session, where=condition,
    )  # fmt: skip
    return sql, [param, param]


def tables_read(where: dict[str, Any]) -> TablesRead:
    """The tables (one lean query), and their sessions' hands, totals and seats: those kept in
    the process at the version the tables have now as they are, the others read (a second
    query, when any)."""
    # plain rows as the driver gives them: numbers and booleans that need no converter (at
    # 10,000 players, 25,000 rows through the ORM's iterator, issue 25)
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(_READ_SETTINGS)
        cursor.execute(*_tables_sql(where))
        lean = cursor.fetchall()
        sessions: dict[int, SessionRead] = {}
        stale = []
        for t, kept in zip(lean, _SESSIONS.get_many([t[4] for t in lean]), strict=True):
            if kept is not None and kept.version == t[7]:
                sessions[t[4]] = kept
            else:
                stale.append(t[4])
        if stale:
            fresh = _sessions_read(where, stale if len(stale) <= _READ_BY_ID else None, cursor)
            for session_id, read in fresh.items():
                # kept at the version it was read at: newer than the table's row, if a write
                # came between the two statements (the next read finds it current)
                _SESSIONS.put(session_id, read)
            sessions.update(fresh)
    tables = []
    seats = {}
    for pk, round_id, round_number, number, session_id, approved, substituted, version in lean:
        read = sessions.get(session_id, _NOT_READ)
        tables.append((pk, round_id, round_number, number, session_id, read.hands, read.entered,
                       approved, substituted, version))  # fmt: skip
        if read.seats:
            seats[session_id] = read.seats
    return TablesRead(tables, seats, where)


def tournament_tables(tournament: Tournament) -> TablesRead:
    """Every table of the tournament as standings read them (:func:`standings_now`)."""
    return tables_read({"round__tournament": tournament})


def _counted(tournament: Tournament, read: TablesRead, gate: bool = True) -> list[tuple]:
    """The rows of the tables that have a result and count (see :func:`table_results`)."""
    return [
        t
        for t in read.tables
        if table_counts(tournament, table_done(tournament, t[5], t[6]), t[7] or not gate)
    ]


def _results_of(
    tournament: Tournament, read: TablesRead, gate: bool = True
) -> dict[int, TableResult]:
    """The counted tables' results from the tables read (each seat's score credited as the
    tournament says where a substitute played)."""
    done = _counted(tournament, read, gate)
    if not done:
        return {}
    credits = credited_players(tournament, [t[0] for t in done if t[8]])
    seats = read.seats
    out = {}
    # (each row read by its index, no list unpacked from it: 25,000 tables at 10,000 players)
    for t in done:
        here = seats.get(t[4], ())
        credit = credits.get(t[0])
        if credit is not None:
            here = tuple((credit.get(p, p), score) for p, score in here)
        out[t[0]] = TableResult(round=t[2], table=t[3], scores=here)
    return out


def table_results(
    tournament: Tournament, round_: Round | None = None, *, gate: bool = True
) -> dict[int, TableResult]:
    """The tables (of the tournament, or of one round) that have a result, by table id: totals
    entered, or at least the tournament's number of hands recorded (totals from the payments).
    ``gate`` False: done tables that wait for an approval too (the desk shows them). A few
    queries however many tables: the tables, their seats, their totals summed in the
    database."""
    where = {"round": round_} if round_ is not None else {"round__tournament": tournament}
    return _results_of(tournament, tables_read(where), gate)


def credited_players(tournament: Tournament, table_ids) -> dict[int, dict[int, int | None]]:
    """By table, for each substitute seated there, whose result his seat is (the
    tournament's ``substitute_counts``): the absent registered player's, his own, or nobody's
    (None). Tables without a substitute are left out."""
    rows = Substitution.objects.filter(table_id__in=table_ids).values_list(
        "table_id", "substitute_id", "absent_id"
    )
    return _credits(tournament.substitute_counts, rows)


def _credits(counts: str, rows) -> dict[int, dict[int, int | None]]:
    out: dict[int, dict[int, int | None]] = defaultdict(dict)
    for key, substitute, absent in rows:
        out[key][substitute] = {
            SubstituteCounts.REGISTERED: absent,
            SubstituteCounts.SUBSTITUTE: substitute,
        }.get(counts)
    return out


def session_credits(session_id: int) -> dict[int, int | None]:
    """For a tournament table's session, whose result each substitute's seat is (see
    :func:`credited_players`); empty for any other session. Ratings and statistics read it,
    so they follow the tournament's decision as its standings do."""
    return sessions_credits([session_id]).get(session_id, {})


def sessions_credits(session_ids: Iterable[int]) -> dict[int, dict[int, int | None]]:
    """:func:`session_credits` of many sessions in one query, by session id (sessions
    without a substitute are left out): a full ratings recompute reads them a chunk at a
    time."""
    by_rule: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for session_id, substitute, absent, counts in Substitution.objects.filter(
        table__session_id__in=list(session_ids)
    ).values_list(
        "table__session_id", "substitute_id", "absent_id",
        "table__round__tournament__substitute_counts",
    ):  # fmt: skip
        by_rule[counts].append((session_id, substitute, absent))
    out: dict[int, dict[int, int | None]] = {}
    for counts, rows in by_rule.items():  # a session is one tournament's: keys never collide
        out.update(_credits(counts, rows))
    return out


def substitutes_listed(tournament: Tournament, *, table: Table | None = None) -> list[Substitution]:
    """Every substitution of the tournament (or of one table), by round and table, with the
    players."""
    where = {"table": table} if table is not None else {"table__round__tournament": tournament}
    return list(
        Substitution.objects.filter(**where)
        .select_related("table__round", "absent", "substitute", "made_by")
        .order_by("table__round__number", "table__number", "pk")
    )


def _count_of(rows: QuerySet) -> Coalesce:
    """How many ``rows`` of the table's session, counted apart for each table (an index
    lookup a table: joined and grouped, the hands and the four entered totals of every table
    of 10,000 players were sorted in one pile, issue 25)."""
    counted = rows.filter(session_id=OuterRef("session_id")).order_by().values("session_id")
    return Coalesce(
        Subquery(counted.annotate(n=Count("pk")).values("n")), 0, output_field=IntegerField()
    )


def _tables_counted(**filters) -> QuerySet[Table]:
    """Tables with their live hand count, their number of entered totals (a session has
    one or the other, never both) and whether the approval they have is of their data as it
    is (``approved``)."""
    return Table.objects.filter(**filters).annotate(
        # the hands that count: one held by the confirmation rule keeps the table from done
        hands=_count_of(Hand.objects.filter(is_deleted=False, counts=True)),
        entered=_count_of(SessionResult.objects.all()),
        approved=Q(approved_version=F("session__data_version")),
    )


def table_done(tournament: Tournament, hands: int, entered: int) -> bool:
    """A table has its result: totals entered, or the tournament's number of hands played."""
    return bool(entered) or hands >= tournament.hands_per_table


def table_has_result(table: Table) -> bool:
    """Whether one table has its result, approved or not (one query)."""
    hands, entered = _tables_counted(pk=table.pk).values_list("hands", "entered").get()
    return table_done(table.round.tournament, hands, entered)


def table_counts(tournament: Tournament, done: bool, approved: bool) -> bool:
    """A done table counts in the standings (and completes its round) — where the tournament
    has an approve gate, once the scorekeeper approved it as it is now."""
    return done and (approved or not tournament.approve_gate)


def rounds_progress(tournament: Tournament, rounds: list[Round]) -> list[RoundProgress]:
    """Each round with how many tables it has and how many of them have a result (one query)."""
    tables: dict[int, int] = defaultdict(int)
    done: dict[int, int] = defaultdict(int)
    for round_id, hands, entered, approved in _tables_counted(round__in=rounds).values_list(
        "round_id", "hands", "entered", "approved"
    ):
        tables[round_id] += 1
        done[round_id] += table_counts(tournament, table_done(tournament, hands, entered), approved)
    return [RoundProgress(r, tables[r.pk], done[r.pk]) for r in rounds]


def round_has_results(round_: Round) -> bool:
    """Anything recorded at a table of the round: a hand (even one) or entered totals."""
    return (
        Hand.objects.filter(session__tournament_table__round=round_, is_deleted=False).exists()
        or Table.objects.filter(round=round_, session__results__isnull=False).exists()
    )


def standings_now(
    tournament: Tournament, *, before_round: int | None = None, tables: TablesRead | None = None
) -> tuple[tuple[Standing, ...], int, int]:
    """Standings from the results as they are: (standings, complete rounds, tables counted).

    ``before_round`` limits them to the rounds before it (swiss seating reads them so, and
    the standings the players see while the last rounds are hidden), and the penalties to
    those for those rounds or for the tournament as a whole. The tables are read once, in a
    few lean queries however many players (``tables``: as the caller read them, to compute
    the standings twice from one reading).
    """
    read = tables if tables is not None else tournament_tables(tournament)
    results = list(_results_of(tournament, read).values())
    rounds = seated_rounds(tournament)
    if before_round is not None:
        results = [r for r in results if r.round < before_round]
        rounds = [r for r in rounds if r.number < before_round]
    # a round is complete when every table of it counts (as ``rounds_progress`` says)
    in_round = Counter(map(itemgetter(1), read.tables))
    per_round = Counter(map(attrgetter("round"), results))
    complete = {r.number for r in rounds if per_round[r.number] == in_round[r.pk]}
    byes = [(r.number, p) for r in rounds for p in r.byes]
    # every player a counted table's seat is credited to (a hundred thousand seats at 10,000
    # players: gathered without a Python loop)
    credited = set(map(itemgetter(0), chain.from_iterable(map(attrgetter("scores"), results))))
    credited.discard(None)
    registrations: list[tuple[int, str]] = list(
        tournament.registrations.values_list("player_id", "status")
    )
    if any(status == Registration.Status.WITHDRAWN for _, status in registrations):
        # a withdrawn entry that was never seated nor sat out a round took no part: not ranked
        seated_in = {r.pk for r in rounds}
        took_part = {
            p for t in read.tables if t[1] in seated_in for p, _ in read.seats.get(t[4], ())
        }
        took_part |= {p for _, p in byes}
        # (and one a substitute played for, where the table counts for him)
        took_part |= credited
        registrations = [
            (p, status)
            for p, status in registrations
            if status != Registration.Status.WITHDRAWN or p in took_part
        ]
    ranked = {p for p, _ in registrations}
    # a substitute whose tables count for himself is ranked with the entries
    substitutes = credited - ranked
    ranked |= substitutes
    in_force = tournament.penalties.filter(revoked_at=None)
    if before_round is not None:
        in_force = in_force.filter(Q(round__lt=before_round) | Q(round=None))
    penalties = [
        (p, points, rnd)
        for p, points, rnd in in_force.values_list("player_id", "points", "round")
        if p in ranked  # a withdrawn entry who never played is not ranked, nor penalised
    ]
    try:
        standings = compute_standings(
            players=[p for p, _ in registrations] + sorted(substitutes),
            results=results,
            byes=byes,
            rules=rules_of(tournament),
            withdrawn=[p for p, s in registrations if s == Registration.Status.WITHDRAWN],
            penalties=[(p, points) for p, points, _ in penalties],
        )
    except StandingsError as e:  # results that do not add up: a refusal with its code
        raise Invalid.single("", e.code, e.message) from e
    first_final = tournament.first_final_round
    final_rounds = {r.number for r in rounds if first_final and r.number >= first_final}
    if final_rounds:
        qualifying, _, _ = standings_now(tournament, before_round=first_final, tables=read)
        standings = order_finals(
            standings,
            finalists=finalists(tournament),
            final_rounds=final_rounds,
            carry=tournament.finals_carry,
            qualifying_order=[s.player for s in qualifying],
            final_penalties=_sum_by_player(
                (p, points) for p, points, rnd in penalties if rnd in final_rounds
            ),
        )
    return standings, len(complete), len(results)


def _sum_by_player(pairs) -> dict[int, int]:
    out: dict[int, int] = defaultdict(int)
    for player, points in pairs:
        out[player] += points
    return out


def finals_tables(tournament: Tournament) -> int:
    """How many tables of a final round are the finals (the rest: the consolation group)."""
    return tournament.finals_players // 4


def finalists(tournament: Tournament) -> set[int]:
    """The players seated at the finals' tables of the first final round (for one replaced by
    a substitute, the registered player): empty until it is seated."""
    first = tournament.first_final_round
    if first is None:
        return set()
    tables = Table.objects.filter(
        round__tournament=tournament, round__number=first, number__lte=finals_tables(tournament)
    )
    seated = set(Seat.objects.filter(session__tournament_table__in=tables).values_list(
        "player_id", flat=True
    ))  # fmt: skip
    for substitute, absent in Substitution.objects.filter(table__in=tables).values_list(
        "substitute_id", "absent_id"
    ):
        seated.discard(substitute)
        seated.add(absent)
    return seated


def seated_players(rounds: list[Round]) -> set[int]:
    """Everyone seated at a table of these rounds (results or not)."""
    return set(
        Seat.objects.filter(session__tournament_table__round__in=rounds).values_list(
            "player_id", flat=True
        )
    )


def hidden_after(tournament: Tournament, seated: int | None = None) -> int | None:
    """The last round whose results the players may see while the last rounds are hidden
    (``hide_last_rounds``, until the scorekeeper reveals them); None: nothing is hidden.
    ``seated``: how many rounds are seated, when the caller knows."""
    if not tournament.hide_last_rounds or tournament.standings_revealed:
        return None
    through = max(0, tournament.rounds - tournament.hide_last_rounds)
    if seated is None:
        seated = tournament.round_set.filter(status=Round.Status.SEATED).count()
    return through if seated > through else None


def latest_standings(tournament: Tournament, *, full: bool = False) -> StandingsTable:
    """The latest snapshot's standings; while the last rounds are hidden, those the players
    see (through the last round shown, ``hidden_after`` set) unless ``full`` (a director).
    Version 0 and no rows before the first snapshot."""
    latest = latest_snapshot(tournament)
    if latest is None:
        return StandingsTable(0, None, 0, 0, (), tuple(tournament.tiebreaks or DEFAULT_TIEBREAKS))
    return _snapshot_table(*latest, full=full)


def latest_snapshot(tournament: Tournament) -> tuple[int, int, datetime] | None:
    """The latest standings snapshot's id, version and time (None before the first): a
    snapshot never changes, so what is computed from it may be kept under these."""
    return (
        tournament.standings_snapshots.order_by("-version")
        .values_list("pk", "version", "computed_at")
        .first()
    )


def latest_snapshot_as_read(tournament: Tournament) -> tuple[int, int, datetime] | None:
    """:func:`latest_snapshot` as it stood when :func:`tournament_visible` read the tournament
    (the same statement, on PostgreSQL), else read now. For a page that reads: one that writes
    a snapshot and shows it in the same request asks :func:`latest_snapshot`."""
    read = tournament.__dict__.get("_latest_snapshot", _UNREAD)
    return latest_snapshot(tournament) if read is _UNREAD else read


_UNREAD = object()


@lru_cache(maxsize=32)
def _snapshot_table(pk: int, version: int, computed_at: datetime, *, full: bool) -> StandingsTable:
    """A snapshot's standings table, read once per process: a snapshot never changes (a
    recompute writes the next version, a new key), so an entry is never stale. The key holds
    the version and time too, so a number a database gives again after a deletion is another
    key. Bounded: a projector and a hundred players reading one tournament read it once, and
    many tournaments cannot grow it."""
    s = StandingsSnapshot.objects.get(pk=pk)
    if s.visible is not None and not full:
        shown = s.visible
        return StandingsTable(
            version=s.version,
            computed_at=s.computed_at,
            rounds_complete=shown["rounds_complete"],
            tables_counted=shown["tables_counted"],
            rows=snapshot_rows(shown["rows"], shown["points_scale"]),
            tiebreaks=tuple(s.tiebreaks),
            hidden_after=shown["through"],
        )
    return StandingsTable(
        version=s.version,
        computed_at=s.computed_at,
        rounds_complete=s.rounds_complete,
        tables_counted=s.tables_counted,
        rows=snapshot_rows(s.rows, s.points_scale),
        tiebreaks=tuple(s.tiebreaks),
        hidden_after=None if s.visible is None else s.visible["through"],
    )


def seat_rows(
    round_: Round, results: dict[int, TableResult] | None = None, *, gate: bool = True,
    tables: tuple[int, int] | None = None, byes: bool = True,
) -> list[SeatRow]:  # fmt: skip
    """One row per seat of a seated round, in table order, then one per bye. ``results``:
    the tournament's table results when the caller read them all at once (a report);
    ``gate``: see :func:`table_results`; ``tables``: the tables numbered from … to alone (a
    page of the round); ``byes``: whether the byes' rows are read too."""
    if round_.status != Round.Status.SEATED:
        return []
    # (plain rows, not model instances: a report reads every round's seats)
    at = round_.tables if tables is None else round_.tables.filter(number__range=tables)
    found = list(at.values_list("session_id", "pk", "number"))
    tables = {session: pk for session, pk, _ in found}
    numbers = {pk: number for _, pk, number in found}
    seats = Seat.objects.filter(session_id__in=tables).values_list(
        "session_id", "number", "player_id", "player__name"
    )
    if results is None:
        results = table_results(round_.tournament, round_, gate=gate)
    # by seat (a result's scores are in seat order; its players are whom each seat counts
    # for, a substitute's seat possibly another's)
    scores = {pk: [score for _, score in r.scores] for pk, r in results.items() if pk in numbers}
    rows = []
    for session, number, player, name in sorted(seats, key=lambda s: (numbers[tables[s[0]]], s[1])):
        table = tables[session]
        table_scores = scores.get(table)
        rows.append(
            SeatRow(
                round=round_.number, table=numbers[table], table_id=table, session=session,
                seat=number, player=player, name=name, first_dealer=number == 0,
                score=None if table_scores is None else table_scores[number],
            )
        )  # fmt: skip
    if not byes:
        return rows
    names = dict(
        Registration.objects.filter(
            tournament_id=round_.tournament_id, player_id__in=round_.byes
        ).values_list("player_id", "player__name")
    )
    for p in round_.byes:
        rows.append(
            SeatRow(
                round=round_.number, table=None, table_id=None, session=None, seat=None,
                player=p, name=names.get(p, ""), first_dealer=False,
                score=round_.tournament.bye_table_score,
            )
        )  # fmt: skip
    return rows


def round_detail(
    round_: Round, results: dict[int, TableResult] | None = None, *, gate: bool = True
) -> RoundDetail:
    """A round with its progress, and its seat rows grouped into tables (``results``,
    ``gate``: see :func:`seat_rows`)."""
    [progress] = rounds_progress(round_.tournament, [round_])
    rows = seat_rows(round_, results, gate=gate)
    tables: dict[int, list[SeatRow]] = defaultdict(list)
    for row in rows:
        if row.table is not None:
            tables[row.table].append(row)
    return RoundDetail(
        round=round_,
        tables=progress.tables,
        tables_with_result=progress.tables_with_result,
        table_rows=tuple(
            TableSeats(
                number=number,
                id=seats[0].table_id,
                session=seats[0].session,
                has_result=seats[0].score is not None,
                seats=tuple(seats),
            )
            for number, seats in tables.items()
        ),  # fmt: skip
        bye_rows=tuple(row for row in rows if row.table is None),
    )


def tables_data_version(tournament_id: int) -> int:
    """The sum of the tournament's tables' data versions: it grows with every write to any
    of them (a standings snapshot records it)."""
    versions = TableSession.objects.filter(tournament_table__round__tournament_id=tournament_id)
    return versions.aggregate(v=Sum("data_version"))["v"] or 0


def _hashed(rows: QuerySet, *fields: str) -> tuple[int, int]:
    """How many ``rows`` and a hash of each row's ``fields``, summed: it moves when any of them
    changes (one query on PostgreSQL)."""
    if connection.vendor == "postgresql":
        parts = [p for f in fields for p in (Cast(f, TextField()), Value("\x1f"))][:-1]
        text = Concat(*parts, output_field=TextField()) if len(parts) > 1 else parts[0]
        hashed = Func(text, function="hashtext", output_field=BigIntegerField())
        found = rows.aggregate(n=Count("pk"), v=Sum(hashed))
        return found["n"], found["v"] or 0
    values = [repr(v).encode() for v in rows.values_list(*fields)]
    return len(values), sum(zlib.crc32(v) for v in values)


#: :func:`_hashed` of the seats of some sessions (each seat's session, number, player and
#: name, as ``round_seating_version`` hashes them), each name read by its key: joined, every
#: player of the service would be hashed to find a page's few hundred
_SEATS_HASHED = (
    "SELECT count(*), sum(hashtext(s.session_id::text || %(sep)s || s.number::text || %(sep)s "
    "|| s.player_id::text || %(sep)s || "
    f"(SELECT p.name FROM {Player._meta.db_table} p WHERE p.id = s.player_id))) "
    f"FROM {Seat._meta.db_table} s WHERE s.session_id = ANY(%(sessions)s::bigint[])"
)


def round_seating_version(
    round_: Round, sessions: list[int] | None = None, *, byes: bool = True
) -> tuple[int, ...]:
    """Numbers that move with anything a round's printed seating shows, and only with that
    (a hand recorded at a table moves none): each seat's table, wind, player and the player's
    name, and the byes' names (a hash of each, summed — a rename moves no ``data_version``).
    One query, two with byes. ``sessions``: the seats of these tables' sessions alone (a page
    of the round, from :func:`round_tables`: what it shows of them moves the same numbers,
    for a fraction of the rows); ``byes``: whether the byes' names count."""
    if sessions is not None and connection.vendor == "postgresql":
        # written out and prepared: read on every request of a page (planning it cost
        # PostgreSQL half as much again as running it)
        # (the ids as an array's text: psycopg dumps a list of a hundred ints element by element)
        ids = "{" + ",".join(str(int(i)) for i in sessions) + "}"
        n, hashed = prepared_row(_SEATS_HASHED, {"sep": "\x1f", "sessions": ids})
        found = (n, hashed or 0)
    else:
        # by the sessions' ids: not joined through every table session of the service
        at = round_.tables.values("session_id") if sessions is None else sessions
        seats = Seat.objects.filter(session_id__in=at)
        found = _hashed(seats, "session_id", "number", "player_id", "player__name")
    if not (byes and round_.byes):
        return found
    return (*found, *_hashed(Player.objects.filter(pk__in=round_.byes), "pk", "name"))


def round_tables(round_: Round) -> tuple[tuple[int, int, int], ...]:
    """Each table of a round, in table order: its number, its session and how many seats it
    has (one query). A round's tables are written with its seating alone
    (``services.round_seat``, which moves its ``seated_at``): who sits at them (a substitute,
    a repair, a rename) moves none of these."""
    return tuple(
        round_.tables.order_by("number")
        .annotate(seats=Count("session__seats"))
        .values_list("number", "session_id", "seats")
    )


def standings_behind(*, older_than: timedelta, limit: int) -> list[int]:
    """Running tournaments whose newest standings were computed from older table data than
    there is now, none of their tables changed for ``older_than`` (database time)."""
    newest = StandingsSnapshot.objects.filter(tournament=OuterRef("pk")).order_by("-version")
    behind = (
        Tournament.objects.filter(status=Tournament.Status.RUNNING)
        .annotate(
            tables_version=Sum("round_set__tables__session__data_version"),
            changed_at=Max("round_set__tables__session__changed_at"),
            computed=Coalesce(
                Subquery(newest.values("sessions_version")[:1]), 0, output_field=IntegerField()
            ),
        )
        .filter(tables_version__gt=F("computed"), changed_at__lte=Now() - older_than)
    )
    return list(behind.order_by("pk").values_list("pk", flat=True)[:limit])


def entry_names(tournament: Tournament, players: list[int]) -> dict[int, str]:
    """The names of these players (the entries, and any substitute whose tables count for
    himself), by id: the entries' through their registrations (no list of thousands of ids
    sent), the few others by id."""
    names = dict(tournament.registrations.values_list("player_id", "player__name"))
    others = [p for p in players if p not in names]
    if others:
        names.update(Player.objects.filter(pk__in=others).values_list("pk", "name"))
    return names


def tournament_of_session(session_id: int) -> int | None:
    """The id of the tournament whose table the session is (None for a club's own table)."""
    return (
        Table.objects.filter(session_id=session_id).values_list("round__tournament_id", flat=True)
    ).first()


def tournaments_of_sessions(session_ids: Iterable[int]) -> dict[int, int]:
    """:func:`tournament_of_session` of many sessions in one query: the tournament of each
    that is a tournament's table (a club's own tables are left out)."""
    return dict(
        Table.objects.filter(session_id__any_of=list(session_ids)).values_list(
            "session_id", "round__tournament_id"
        )
    )


def tournament_ids_of(club_id: int) -> list[int]:
    return list(
        Tournament.objects.filter(club_id=club_id).order_by("pk").values_list("pk", flat=True)
    )


# --- reads of the tournament pages (pages/tournaments) ---------------------------------------


def tournament_by_pk(pk: int) -> Tournament | None:
    return Tournament.objects.select_related("club").filter(pk=pk).first()


def tournament_visible(user, slug: str) -> Tournament | None:
    """The tournament with this slug if ``user`` may read it (``can_read_tournament``): a
    private tournament does not exist for an outsider. With its club and ruleset: one prepared
    statement on PostgreSQL (every tournament page reads it; building the ORM's query cost a
    page more than running it, issue 25)."""
    if connection.vendor == "postgresql":
        tournament = _tournament_by_slug(slug)
    else:
        tournament = Tournament.objects.select_related("club", "ruleset").filter(slug=slug).first()
    if tournament is None or not can_read_tournament(user, tournament):
        return None
    return tournament


_TOURNAMENT_PARTS = (Tournament, Club, RulesetSnapshot)


@lru_cache(maxsize=1)
def _tournament_sql() -> tuple[str, list[list[str]]]:
    fields = [list(m._meta.concrete_fields) for m in _TOURNAMENT_PARTS]
    columns = [f"{alias}.{f.column}" for alias, fs in zip("tcr", fields, strict=True) for f in fs]
    # and its latest standings snapshot (latest_snapshot's row), by the (tournament, version)
    # index: the standings page needs no query of its own for it
    sql = (
        f"SELECT {', '.join(columns)}, ls.id, ls.version, ls.computed_at"
        f" FROM {Tournament._meta.db_table} t"
        f" JOIN {Club._meta.db_table} c ON c.id = t.club_id"
        f" JOIN {RulesetSnapshot._meta.db_table} r ON r.id = t.ruleset_id"
        f" LEFT JOIN LATERAL (SELECT s.id, s.version, s.computed_at"
        f" FROM {StandingsSnapshot._meta.db_table} s WHERE s.tournament_id = t.id"
        " ORDER BY s.version DESC LIMIT 1) ls ON true"
        " WHERE t.slug = %(slug)s"
    )
    return sql, [[f.attname for f in fs] for fs in fields]


def _tournament_by_slug(slug: str) -> Tournament | None:
    """The tournament with its club and ruleset, as ``select_related`` reads them."""
    sql, names = _tournament_sql()
    row = prepared_row(sql, {"slug": slug})
    if row is None:
        return None
    t, c = len(names[0]), len(names[0]) + len(names[1])
    r = c + len(names[2])
    tournament = model_from_row(Tournament, names[0], row[:t])
    tournament.club = model_from_row(Club, names[1], row[t:c])
    tournament.ruleset = model_from_row(RulesetSnapshot, names[2], row[c:r])
    tournament._latest_snapshot = None if row[r] is None else tuple(row[r:])
    return tournament


def tournament_overview(tournament: Tournament) -> TournamentOverview:
    """Its entries (active and withdrawn), every round with its progress, the round in play."""
    counts = dict(
        tournament.registrations.order_by()
        .values_list("status")
        .annotate(n=Count("pk"))
        .values_list("status", "n")
    )
    rounds = list(tournament.round_set.order_by("number"))
    for r in rounds:
        r.tournament = tournament
    seated = [r for r in rounds if r.status == Round.Status.SEATED]
    return TournamentOverview(
        players=counts.get(Registration.Status.ACTIVE, 0),
        withdrawn=counts.get(Registration.Status.WITHDRAWN, 0),
        rounds=tuple(rounds_progress(tournament, rounds)),
        current=seated[-1] if seated else None,
    )


def current_round(tournament: Tournament) -> Round | None:
    """The round in play: the latest seated one (None before the first is seated)."""
    round_ = tournament.round_set.filter(status=Round.Status.SEATED).order_by("-number").first()
    if round_ is not None:
        round_.tournament = tournament
    return round_


def latest_round(tournament: Tournament) -> Round | None:
    """The latest round, seated or not (being seated, failed), with its seating job."""
    round_ = tournament.round_set.select_related("task").order_by("-number").first()
    if round_ is not None:
        round_.tournament = tournament
    return round_


def entries_listed(tournament: Tournament) -> list[Registration]:
    """The tournament's entries with their players, active first, then by name's pinyin; each
    says whether its player has played (or sat out) a round: then he can be withdrawn, not
    removed."""
    rounds = seated_rounds(tournament)
    played = seated_players(rounds) | {p for r in rounds for p in r.byes}
    rows = list(tournament.registrations.select_related("player"))
    for row in rows:
        row.has_played = row.player_id in played
    active = Registration.Status.ACTIVE
    rows.sort(key=lambda r: (r.status != active, name_sort_key(r.player.name), r.pk))
    return rows


def round_clock(round_: Round | None) -> RoundClock | None:
    """The round's clock (None: no round, or its clock not started); one query for the tables
    given time of their own."""
    if round_ is None or round_.clock_started_at is None:
        return None
    extra = dict(
        round_.tables.filter(clock_extra_minutes__gt=0).values_list("number", "clock_extra_minutes")
    )
    return RoundClock(
        round=round_.number, started_at=round_.clock_started_at,
        minutes=round_.clock_minutes or 0, extra=round_.clock_extra_minutes, table_extra=extra,
    )  # fmt: skip


def table_clock(session_id: int) -> tuple[RoundClock, int] | None:
    """A tournament table's round clock and its table number (None: not a tournament table,
    or no clock running)."""
    table = Table.objects.filter(session_id=session_id).select_related("round").first()
    clock = round_clock(table.round) if table is not None else None
    return None if clock is None else (clock, table.number)


def tournament_report(tournament: Tournament, *, scores: bool = True) -> TournamentReport:
    """The report's lists (``TournamentReport``): a few queries per round, then one each.
    ``scores`` False: the seat rows without their table scores (a caller that has them from
    the standings' rounds), which spares working out every table's result again."""
    rounds = []
    results = table_results(tournament) if scores else {}  # every round's at once
    for round_ in seated_rounds(tournament):
        round_.tournament = tournament
        rounds.append(round_detail(round_, results))
    sessions = {t.session for r in rounds for t in r.table_rows}
    by: dict[int, set[str]] = defaultdict(set)
    results = SessionResult.objects.filter(session_id__in=sessions, entered_by__isnull=False)
    hands = HandRevision.objects.filter(hand__session_id__in=sessions, changed_by__isnull=False)
    for session, name in [
        *results.values_list("session_id", "entered_by__username").distinct(),
        *hands.values_list("hand__session_id", "changed_by__username").distinct(),
    ]:
        by[session].add(name)
    unlocks = RoundUnlock.objects.filter(round__tournament=tournament).select_related(
        "round", "unlocked_by"
    )
    withdrawn = tournament.registrations.filter(
        status=Registration.Status.WITHDRAWN
    ).select_related("player")
    where = {t.session: (r.round.number, t.number) for r in rounds for t in r.table_rows}
    repairs = SeatRepair.objects.filter(session_id__in=sessions).select_related("repaired_by")
    return TournamentReport(
        repairs=tuple(
            (*where[repair.session_id], repair) for repair in repairs.order_by("repaired_at", "pk")
        ),
        rounds=tuple(rounds),
        entered_by={s: tuple(sorted(names)) for s, names in by.items()},
        penalties=tuple(penalties_listed(tournament)),
        unlocks=tuple(unlocks.order_by("unlocked_at", "pk")),
        withdrawn=tuple(withdrawn.order_by("withdrawn_after", "pk")),
        substitutes=tuple(substitutes_listed(tournament)),
    )


def report_lines(
    report: TournamentReport, standings: StandingsTable
) -> tuple[tuple[ReportLine, ...], ...]:
    """The report's line of every player in every round of ``report.rounds`` (a tuple a
    round, in its order): each table's seats in seat order, then the byes, each with the cell
    ``standings`` count for it. A substitute's seat shows the cell of whom the table counts
    for (the absent entry's, when the tournament credits the registered player)."""
    cells: dict[tuple[int, int], RoundCell] = {
        (row.player, c.round): c for row in standings.rows for c in row.rounds
    }
    stood_in: dict[tuple[int, int], str] = {}
    for sub in report.substitutes:
        number = sub.table.round.number
        stood_in[(sub.substitute_id, number)] = sub.absent.name
        if (sub.absent_id, number) in cells:
            cells.setdefault((sub.substitute_id, number), cells[(sub.absent_id, number)])
    lines = []
    for detail in report.rounds:
        number = detail.round.number
        rows = [*(s for t in detail.table_rows for s in t.seats), *detail.bye_rows]
        lines.append(tuple(
            ReportLine(
                round=number, table=row.table, session=row.session, seat=row.seat,
                player=row.player, name=row.name, cell=cells.get((row.player, number)),
                substitute_for=stood_in.get((row.player, number), ""),
            )
            for row in rows
        ))  # fmt: skip
    return tuple(lines)


def rounds_locked(tournament: Tournament, *, before: int) -> list[tuple[Round, bool]]:
    """The seated rounds before ``before``, each with whether its tables are locked (one
    query): a director unlocks one to correct it, and locks it again."""
    rounds = list(
        tournament.round_set.filter(status=Round.Status.SEATED, number__lt=before)
        .annotate(open_tables=Count("tables", filter=Q(tables__session__lock_code="")))
        .order_by("number")
    )
    return [(r, r.open_tables == 0) for r in rounds]


def entry_by_key(key: str) -> Registration | None:
    """The entry a private link names (its tournament and player read with it)."""
    if not key or len(key) > 64:
        return None
    return (
        Registration.objects.select_related("tournament__club", "player")
        .filter(private_key=key)
        .first()
    )


def my_seat(registration: Registration) -> tuple[Round, SeatRow | None, list[SeatRow]] | None:
    """The entry's place in the latest seated round: (round, his seat row — a bye's has no
    table — or None: not seated in it, and the rows of his table); None before any round is
    seated."""
    round_ = current_round(registration.tournament)
    if round_ is None:
        return None
    rows = seat_rows(round_)
    mine = next((r for r in rows if r.player == registration.player_id), None)
    mates = [r for r in rows if mine is not None and mine.table and r.table == mine.table]
    return round_, mine, mates


def check_in_list(tournament: Tournament) -> list[Registration]:
    """The active entries with their players, by name's pinyin."""
    rows = list(
        tournament.registrations.filter(status=Registration.Status.ACTIVE).select_related("player")
    )
    rows.sort(key=lambda r: (name_sort_key(r.player.name), r.pk))
    return rows


def penalties_listed(tournament: Tournament) -> list[Penalty]:
    """Every penalty of the tournament, revoked ones too, newest first, with the player and
    who gave and revoked it."""
    return list(
        tournament.penalties.select_related("player", "given_by", "revoked_by").order_by(
            "-given_at", "-id"
        )
    )


def checked_in_count(tournament: Tournament) -> tuple[int, int]:
    """(checked in, active entries)."""
    counts = tournament.registrations.filter(status=Registration.Status.ACTIVE).aggregate(
        here=Count("pk", filter=Q(checked_in=True)), all=Count("pk")
    )
    return counts["here"], counts["all"]


def free_tournament_slug(wanted: str) -> str:
    """``wanted`` if no tournament has it, else ``wanted-2``, ``wanted-3`` … (one query)."""
    return free_slug(Tournament.objects.all(), wanted, "tournament")


def round_numbered(tournament: Tournament, number: int) -> Round | None:
    """The tournament's round of this number (None: no such round). One prepared statement on
    PostgreSQL: the round page, its printed seating and its cards read it on every request,
    and building the ORM's query cost them more than running it (issue 25)."""
    if connection.vendor == "postgresql":
        row = prepared_row(_round_sql(), {"tournament": tournament.pk, "number": number})
        round_ = None if row is None else model_from_row(Round, _round_fields(), row)
    else:
        round_ = tournament.round_set.filter(number=number).first()
    if round_ is not None:
        round_.tournament = tournament
    return round_


@lru_cache(maxsize=1)
def _round_fields() -> list[str]:
    return [f.attname for f in Round._meta.concrete_fields]


@lru_cache(maxsize=1)
def _round_sql() -> str:
    columns = ", ".join(f.column for f in Round._meta.concrete_fields)
    return (
        f"SELECT {columns} FROM {Round._meta.db_table}"
        " WHERE tournament_id = %(tournament)s AND number = %(number)s"
    )


def live_tables(round_: Round) -> RoundLive:
    """Each table of the round with its players and the hands recorded so far (two queries)."""
    tournament = round_.tournament
    per_table = tournament.hands_per_table
    seats: dict[int, list[LiveSeat]] = defaultdict(list)
    for session_id, number, player_id, name in (
        Seat.objects.filter(session__tournament_table__round=round_)
        .order_by("session_id", "number")
        .values_list("session_id", "number", "player_id", "player__name")
    ):
        seats[session_id].append(LiveSeat(number, player_id, name))
    tables = []
    for pk, number, session_id, hands, entered, approved in (
        _tables_counted(round=round_)
        .order_by("number")
        .values_list("pk", "number", "session_id", "hands", "entered", "approved")
    ):
        done = table_done(tournament, hands, entered)
        tables.append(
            LiveTable(
                number=number, id=pk, session=session_id, seats=tuple(seats[session_id]),
                hands=min(hands, per_table), hands_per_table=per_table, entered=bool(entered),
                done=done, to_approve=done and not table_counts(tournament, done, approved),
            )
        )  # fmt: skip
    done = sum(t.done for t in tables)
    playing = sum(t.started and not t.done for t in tables)
    return RoundLive(round_, tuple(tables), done, playing, len(tables) - done - playing)


def seats_by_name(rows: list[SeatRow]) -> list[SeatRow]:
    """A round's seat rows (byes included) by the player's name in pinyin order, as a printed
    "where do I sit" list reads: 陈 (chen) before 李 (li) before Tom before 曾 (zeng, read as a
    surname: ``clubs.pinyin.name_sort_key``) before 张 (zhang)."""
    return sorted(rows, key=lambda r: (*name_sort_key(r.name), r.player))


#: rank changes computed, by snapshot and rules (a snapshot never changes: never stale)
_CHANGES: OrderedDict[tuple, RankChanges] = OrderedDict()
CHANGES_CACHE_SIZE = 16


def rank_changes(tournament: Tournament, table: StandingsTable) -> RankChanges:
    """Each player's rank at the end of the round before the latest one in ``table`` (the
    highest round any player has a table or a bye in), by the same rules and tiebreak chain:
    the standings computed again from the snapshot's own rounds, without a query. Before the
    second round there is nothing to compare (``since`` None)."""
    last = max((c.round for row in table.rows for c in row.rounds), default=0)
    if last <= 1:
        return RankChanges(None, {})
    rules = replace(rules_of(tournament), tiebreaks=table.tiebreaks)
    key = (tournament.pk, table.version, table.computed_at, rules)
    if (hit := _CHANGES.get(key)) is not None:
        _CHANGES.move_to_end(key)
        return hit
    players: list[int] = []
    tables: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    byes: list[tuple[int, int]] = []
    for row in table.rows:
        earlier = [c for c in row.rounds if c.round < last]
        if not earlier:
            continue
        players.append(row.player)
        for c in earlier:
            if c.bye:
                byes.append((c.round, row.player))
            else:
                tables[(c.round, c.table)].append((row.player, c.table_score))
    results = [TableResult(r, t, tuple(scores)) for (r, t), scores in tables.items()]
    try:
        before = compute_standings(players=players, results=results, byes=byes, rules=rules)
    except StandingsError:  # a snapshot that does not add up shows no trend, never an error
        return RankChanges(None, {})
    changes = RankChanges(last - 1, {s.player: s.rank for s in before})
    _CHANGES[key] = changes
    if len(_CHANGES) > CHANGES_CACHE_SIZE:
        _CHANGES.popitem(last=False)
    return changes


def table_by_key(key: str) -> Table | None:
    """The table a table card's link names, while its link works (its round not locked, the
    tournament not finished); None otherwise."""
    if not key or len(key) > 64:
        return None
    return (
        Table.objects.select_related("round__tournament", "session")
        .filter(scorer_key=key, session__lock_code="")
        .exclude(round__tournament__status=Tournament.Status.FINISHED)
        .first()
    )


def table_key_valid(session_id: int, key: str) -> bool:
    """Whether a table card's key still opens this table session."""
    table = table_by_key(key)
    return table is not None and table.session_id == session_id


def disputes_of(round_: Round) -> dict[int, Table]:
    """The round's tables that are disputed or had a dispute resolved, by number."""
    tables = round_.tables.filter(Q(disputed_at__isnull=False) | ~Q(dispute=""))
    return {t.number: t for t in tables.only("number", "disputed_at", "dispute",
                                              "dispute_resolution")}  # fmt: skip


# --- the scorekeeper's pages: one row by what the page was sent --------------------------------

_Row = TypeVar("_Row")


def _found(rows: QuerySet[_Row], **where: Any) -> _Row | None:
    """The one row of ``rows`` that matches (``get``: one query), or None where none does (the
    page answers 404)."""
    try:
        return rows.get(**where)
    except ObjectDoesNotExist:
        return None


def entry_of(tournament: Tournament, player_id: int) -> Registration | None:
    """The tournament's entry of this player, with the player (None: he is not entered)."""
    return _found(
        Registration.objects.select_related("player"), tournament=tournament, player_id=player_id
    )


def round_of(tournament: Tournament, number: int) -> Round | None:
    """The tournament's round of this number, seated or not (None: no such round)."""
    return _found(tournament.round_set, number=number)


def seated_round(tournament: Tournament, number: int) -> Round | None:
    """The tournament's round of this number once it is seated (None: no such round, or it is
    being seated, or its seating failed)."""
    return _found(tournament.round_set, number=number, status=Round.Status.SEATED)


def seated_round_count(tournament: Tournament) -> int:
    """How many of the tournament's rounds are seated (one query)."""
    return tournament.round_set.filter(status=Round.Status.SEATED).count()


def round_table(round_: Round, number: int) -> Table | None:
    """The round's table of this number, with its session (None: no such table)."""
    return _found(round_.tables.select_related("session"), number=number)


def substitution_of(tournament: Tournament, pk: int) -> Substitution | None:
    """A substitution made in the tournament, with the absent player (None: no such one)."""
    return _found(
        Substitution.objects.select_related("absent"), table__round__tournament=tournament, pk=pk
    )


def penalty_of(tournament: Tournament, pk: int) -> Penalty | None:
    """A penalty given in the tournament, with its player (None: no such one)."""
    return _found(Penalty.objects.select_related("player"), tournament=tournament, pk=pk)
