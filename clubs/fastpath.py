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
from django.db.models import BooleanField, CharField, IntegerField
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
    """A session read under its row lock (held until the transaction ends), with what a new
    hand depends on: whether final results were entered, its top live hand number (None before
    its first hand) and, when asked for, a user's role in its club (None: not a member)."""

    session: TableSession
    has_results: bool
    top: int | None
    viewer_role: str | None


#: with the session row: does it have final results?
HAS_RESULTS_SQL = (
    f"EXISTS (SELECT 1 FROM {SessionResult._meta.db_table} r WHERE r.session_id = {_SESSION}.id)"
)
#: with the session row: its top live hand number (NULL before its first hand)
TOP_HAND_SQL = (
    f"(SELECT MAX(h.number) FROM {Hand._meta.db_table} h"
    f" WHERE h.session_id = {_SESSION}.id AND NOT h.is_deleted)"
)
#: with the session row: the role in its club of the user whose id is the parameter (NULL: not a
#: member), through his player (unique by user) and its membership (unique by club and player)
VIEWER_ROLE_SQL = (
    f"(SELECT m.role FROM {Membership._meta.db_table} m WHERE m.club_id = {_SESSION}.club_id"
    f" AND m.player_id = (SELECT p.id FROM {Player._meta.db_table} p WHERE p.user_id = %s))"
)
#: a session's seats (S, number, player id, name) and bettors (B, id, id, name as Bettor.name)
TABLE_SQL = f"""
    SELECT 'S', s.number, s.player_id, p.name
      FROM {Seat._meta.db_table} s INNER JOIN {Player._meta.db_table} p ON p.id = s.player_id
     WHERE s.session_id = %s
    UNION ALL
    SELECT 'B', b.id, b.id, COALESCE(p.name, b.guest_name)
      FROM {Bettor._meta.db_table} b LEFT OUTER JOIN {Player._meta.db_table} p
        ON p.id = b.player_id
     WHERE b.session_id = %s
    ORDER BY 1, 2
"""
#: a hand's payments, one row each
PAYMENT_COLUMNS = ("hand_id", "position", "payer_player_id", "payer_bettor_id", "payee_player_id",
                   "payee_bettor_id", "amount", "reason", "event")  # fmt: skip


def lock_session(session_pk: int, *, viewer=None, with_club: bool = True) -> LockedSession:
    """Lock a session's row and read it with what a new hand depends on, in one query (with
    its club and ruleset when ``with_club``, and ``viewer``'s role in the club when given);
    Http404 when there is no such session."""
    sessions = TableSession.objects.select_for_update(of=("self",)).annotate(
        has_results=RawSQL(HAS_RESULTS_SQL, (), output_field=BooleanField()),
        top=RawSQL(TOP_HAND_SQL, (), output_field=IntegerField()),
    )
    if with_club:
        sessions = sessions.select_related("club", "ruleset")
    if viewer is not None:
        sessions = sessions.annotate(
            viewer_role=RawSQL(VIEWER_ROLE_SQL, (viewer.pk,), output_field=CharField())
        )
    row = get_object_or_404(sessions, pk=session_pk)
    role = row.viewer_role if viewer is not None else None
    return LockedSession(row, bool(row.has_results), row.top, role)


def table_of(session_pk: int) -> Table:
    """A session's seated players and its bettors, with their names (one query)."""
    with connection.cursor() as cursor:
        cursor.execute(TABLE_SQL, [session_pk, session_pk])
        rows = cursor.fetchall()
    seats, bettors = {}, {}
    for kind, key, pk, name in rows:
        if kind == "S":
            seats[key] = Party("player", pk, name)
        else:  # in order of id: a later bettor of the same name wins, as in a dict of them
            bettors[name] = Party("bettor", pk, name)
    return Table(seats=seats, bettors=bettors)


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
