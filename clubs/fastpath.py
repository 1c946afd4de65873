"""The hand-recording hot path, in hand-written SQL where the benchmark proved it pays.

Recording a hand is the service's hottest path, and its queries are tiny: building and
compiling an ORM query costs several times what running it does. The few below are written in
portable SQL (PostgreSQL and SQLite), with every table name taken from ``Model._meta``, and
return typed results. ``tests/clubs/test_query_count.py`` counts them; ``make bench`` times them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from django.db import connection
from django.db.models import CharField
from django.db.models.expressions import RawSQL
from django.shortcuts import get_object_or_404

from clubs.models import (
    Bettor,
    Hand,
    Membership,
    Payment,
    Player,
    Seat,
    SessionResult,
    TableSession,
)
from clubs.selectors import Party, PaymentRow, Table

_SESSION = TableSession._meta.db_table


class LockedSession(NamedTuple):
    """A session whose row is locked (until the transaction ends), with its club and ruleset
    and, when asked for, a user's role in its club (None: not a member)."""

    session: TableSession
    viewer_role: str | None


class SessionState(NamedTuple):
    """What a new hand depends on, read after the lock: the session's parties, the highest
    hand number it ever used (deleted hands included: a number is never used twice; None
    before its first hand), whether final results were entered, and its latest live hand's
    number and next dealer (None: no live hand, or the next dealer was left to the dice)."""

    table: Table
    top: int | None
    has_results: bool
    latest: int | None
    next_dealer: int | None
    #: the login of each seat's player, by seat (None: a player without one)
    seat_users: dict[int, int | None] | None = None

    def seat_of_user(self, user) -> int | None:
        """The seat of the player linked to ``user`` (None: he does not sit at this table)."""
        if user is None or not user.is_authenticated or not self.seat_users:
            return None
        return next((s for s, u in self.seat_users.items() if u == user.pk), None)


#: with the session row: the role in its club of the user whose id is the parameter (NULL: not a
#: member), through his player (unique by user) and its membership (unique by club and player)
VIEWER_ROLE_SQL = (
    f"(SELECT m.role FROM {Membership._meta.db_table} m WHERE m.club_id = {_SESSION}.club_id"
    f" AND m.player_id = (SELECT p.id FROM {Player._meta.db_table} p WHERE p.user_id = %s))"
)
_HAND = Hand._meta.db_table
#: a session's seats (S, number, player id, name, the player's login), bettors (B, id, id,
#: name as Bettor.name),
#: its top hand number and final results (T, top number, results), and its latest live hand
#: (L, number, next dealer); one statement, run once the session's row is locked, so that it
#: sees what the writer before it committed
STATE_SQL = f"""
    SELECT 'S', s.number, s.player_id, p.name, p.user_id
      FROM {Seat._meta.db_table} s INNER JOIN {Player._meta.db_table} p ON p.id = s.player_id
     WHERE s.session_id = %(session)s
    UNION ALL
    SELECT 'B', b.id, b.id, COALESCE(p.name, b.guest_name), NULL
      FROM {Bettor._meta.db_table} b LEFT OUTER JOIN {Player._meta.db_table} p
        ON p.id = b.player_id
     WHERE b.session_id = %(session)s
    UNION ALL
    SELECT 'T', (SELECT MAX(h.number) FROM {_HAND} h WHERE h.session_id = %(session)s),
           (SELECT COUNT(*) FROM {SessionResult._meta.db_table} r
             WHERE r.session_id = %(session)s), NULL, NULL
    UNION ALL
    SELECT 'L', h.number, h.next_dealer, NULL, NULL FROM {_HAND} h
     WHERE h.session_id = %(session)s AND NOT h.is_deleted
       AND h.number = (SELECT MAX(x.number) FROM {_HAND} x
                        WHERE x.session_id = %(session)s AND NOT x.is_deleted)
    ORDER BY 1, 2
"""
#: a hand's payments, one row each
PAYMENT_COLUMNS = ("hand_id", "position", "payer_player_id", "payer_bettor_id", "payee_player_id",
                   "payee_bettor_id", "amount", "reason", "event")  # fmt: skip


def lock_session(session_pk: int, *, viewer=None) -> LockedSession:
    """Lock a session's row and read it with its club and ruleset and ``viewer``'s role in the
    club (one query); Http404 when there is no such session. What changes from hand to hand is
    read afterwards, by :func:`session_state`: a statement that waits for a lock still sees
    the data as it was when it started."""
    sessions = TableSession.objects.select_for_update(of=("self",)).select_related(
        "club", "ruleset"
    )
    if viewer is not None:
        sessions = sessions.annotate(
            viewer_role=RawSQL(VIEWER_ROLE_SQL, (viewer.pk,), output_field=CharField())
        )
    row = get_object_or_404(sessions, pk=session_pk)
    return LockedSession(row, row.viewer_role if viewer is not None else None)


def session_state(session_pk: int) -> SessionState:
    """A locked session's parties and hand numbers (one query; see :data:`STATE_SQL`)."""
    with connection.cursor() as cursor:
        cursor.execute(STATE_SQL, {"session": session_pk})
        rows = cursor.fetchall()
    seats, bettors, users = {}, {}, {}
    top = latest = next_dealer = None
    has_results = False
    for kind, key, value, name, user in rows:
        if kind == "S":
            seats[key] = Party("player", value, name)
            users[key] = user
        elif kind == "B":  # in order of id: a later bettor of the same name wins
            bettors[name] = Party("bettor", value, name)
        elif kind == "T":
            top, has_results = key, bool(value)
        else:
            latest, next_dealer = key, value
    return SessionState(Table(seats, bettors), top, has_results, latest, next_dealer, users)


def table_of(session_pk: int) -> Table:
    """A session's seated players and its bettors, with their names (one query)."""
    return session_state(session_pk).table


def payments_insert(hand_pk: int, payments: Sequence[PaymentRow]) -> None:
    """Store a hand's payments, in order, with one statement."""
    if not payments:
        return

    def ids(p: Party) -> tuple[int | None, int | None]:
        return (p.id, None) if p.kind == "player" else (None, p.id)

    params: list = []
    for position, p in enumerate(payments):
        params += (hand_pk, position, *ids(p.payer), *ids(p.payee), p.amount, p.reason, p.event)
    row = f"({', '.join(['%s'] * len(PAYMENT_COLUMNS))})"
    sql = (
        f"INSERT INTO {Payment._meta.db_table} ({', '.join(PAYMENT_COLUMNS)}) "
        f"VALUES {', '.join([row] * len(payments))}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
