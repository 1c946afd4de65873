"""The hand-recording hot path, in hand-written SQL where the benchmark proved it pays.

Recording a hand is the service's hottest path, and its queries are tiny: building and
compiling an ORM query costs several times what running it does. The few below take table
names from ``Model._meta`` and return typed results. On PostgreSQL a hand is two statements
(issue 25): :data:`LOCK_STATE_SQL` locks the session and reads all a new hand depends on, and
:data:`HAND_WRITE_SQL` stores the hand, its payments and revision, counts the session's write
and asks for its follow-up (and, for a hand sent with an ``Idempotency-Key``, stores the answer
``core.idempotency`` replays for it: with the key read along with the token, a hand with a key
costs the 5 queries of one without: token, BEGIN, these two, COMMIT); both are prepared once per
connection (``core.db.prepared_row``), since PostgreSQL took longer to plan them than to run
them. Elsewhere (SQLite) the portable statements of :func:`lock_session`,
:func:`session_state` and :func:`payments_insert` do it, and the answer is stored with the ORM.
``tests/clubs/test_query_count.py`` counts them; ``make bench`` times them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import NamedTuple

from django.db import connection
from django.db.models import CharField
from django.db.models.expressions import RawSQL
from django.http import Http404
from django.shortcuts import get_object_or_404

from clubs.models import (
    Bettor,
    Club,
    Hand,
    HandRevision,
    Membership,
    Payment,
    Player,
    Seat,
    SessionResult,
    TableSession,
)
from clubs.selectors import Party, PaymentRow, Table
from core.db import model_from_row, prepared_row
from core.idempotency import ANSWER_CLAUSE, AnswerInWrite
from core.outbox import OutboxClauses
from scoring.models import RulesetSnapshot

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
    #: its live (not deleted) hands, where it plays a fixed number of them and they were
    #: counted with the state (None: not counted)
    live: int | None = None

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


# --- PostgreSQL: the lock and the state in one statement, the write in one more ----------------

_CLUB = Club._meta.db_table
_RULESET = RulesetSnapshot._meta.db_table
_SESSION_FIELDS = [f.attname for f in TableSession._meta.concrete_fields]
_CLUB_FIELDS = [f.attname for f in Club._meta.concrete_fields]
#: the ruleset without its description (large JSON): the pinned rules are rebuilt from it once
#: per process (``scoring.services.pinned_ruleset``), which loads it then
_RULESET_FIELDS = [
    f.attname for f in RulesetSnapshot._meta.concrete_fields if f.attname != "description"
]
#: the session's row locked, with its club, ruleset and the viewer's role, and what a new hand
#: depends on. The subqueries see the data as it was when the statement started, even when it
#: waited for the lock: ``fresh`` says whether the row locked is the one that snapshot saw
#: (same ``xmin``). Every write to a session's seats, bettors, hands or results updates its row
#: (``follow_session``), so when fresh is true the rest is current; when false the caller reads
#: the state again (``session_state``), now that it holds the lock.
LOCK_STATE_SQL = f"""
    SELECT {", ".join(f"s.{c}" for c in _SESSION_FIELDS)},
           {", ".join(f"c.{c}" for c in _CLUB_FIELDS)},
           {", ".join(f"r.{c}" for c in _RULESET_FIELDS)},
           {VIEWER_ROLE_SQL.replace(_SESSION + ".", "s.").replace("%s", "%(viewer)s")},
           s.xmin = (SELECT x.xmin FROM {_SESSION} x WHERE x.id = s.id),
           (SELECT json_agg(json_build_array(st.number, st.player_id, p.name, p.user_id)
                            ORDER BY st.number)
              FROM {Seat._meta.db_table} st
              JOIN {Player._meta.db_table} p ON p.id = st.player_id
             WHERE st.session_id = s.id),
           (SELECT json_agg(json_build_array(b.id, COALESCE(p.name, b.guest_name))
                            ORDER BY b.id)
              FROM {Bettor._meta.db_table} b
              LEFT OUTER JOIN {Player._meta.db_table} p ON p.id = b.player_id
             WHERE b.session_id = s.id),
           (SELECT MAX(h.number) FROM {_HAND} h WHERE h.session_id = s.id),
           EXISTS (SELECT 1 FROM {SessionResult._meta.db_table} x WHERE x.session_id = s.id),
           (SELECT json_build_array(h.number, h.next_dealer) FROM {_HAND} h
             WHERE h.session_id = s.id AND NOT h.is_deleted ORDER BY h.number DESC LIMIT 1),
           CASE WHEN s.hand_limit IS NULL THEN NULL ELSE
                (SELECT COUNT(*) FROM {_HAND} h WHERE h.session_id = s.id AND NOT h.is_deleted)
           END
      FROM {_SESSION} s
      JOIN {_CLUB} c ON c.id = s.club_id
      JOIN {_RULESET} r ON r.id = s.ruleset_id
     WHERE s.id = %(session)s
       FOR UPDATE OF s
"""


def lock_session_state(session_pk: int, *, viewer=None) -> tuple[LockedSession, SessionState]:
    """:func:`lock_session` and then :func:`session_state`, in one statement on PostgreSQL
    (two elsewhere, or when another writer held the lock: see :data:`LOCK_STATE_SQL`); Http404
    when there is no such session. ``SessionState.live`` is set for a table that plays a fixed
    number of hands."""
    if connection.vendor != "postgresql":
        locked = lock_session(session_pk, viewer=viewer)
        return locked, session_state(session_pk)
    row = prepared_row(
        LOCK_STATE_SQL, {"session": session_pk, "viewer": getattr(viewer, "pk", None)}
    )
    if row is None:
        raise Http404("no such session")
    n_session, n_club = len(_SESSION_FIELDS), len(_CLUB_FIELDS)
    end = n_session + n_club + len(_RULESET_FIELDS)
    session = model_from_row(TableSession, _SESSION_FIELDS, row[:n_session])
    session.club = model_from_row(Club, _CLUB_FIELDS, row[n_session : n_session + n_club])
    session.ruleset = model_from_row(
        RulesetSnapshot, _RULESET_FIELDS, row[n_session + n_club : end]
    )
    role, fresh, seats, bettors, top, has_results, latest, live = row[end:]
    locked = LockedSession(session, role if viewer is not None else None)
    if not fresh:  # another writer committed while this one waited for the lock
        return locked, session_state(session_pk)
    table = Table(
        {n: Party("player", player, name) for n, player, name, _ in seats or ()},
        {name: Party("bettor", pk, name) for pk, name in bettors or ()},
    )
    users = {n: user for n, _, _, user in seats or ()}
    latest, next_dealer = latest if latest is not None else (None, None)
    return locked, SessionState(table, top, has_results, latest, next_dealer, users, live)


_PAYMENT_TYPES = ("int", "bigint", "bigint", "bigint", "bigint", "bigint", "text", "int")
#: a hand, its payments, its first revision, the session's write counted and its follow-up
#: asked for (``clubs.tasks``' and ``core.outbox``'s clauses, which close the WITH), and for a
#: POST with an ``Idempotency-Key`` its answer (``core.idempotency.ANSWER_CLAUSE``): one
#: statement. The payments travel as one JSON array, so the statement's text is the same for
#: any number of them (psycopg parses it once per process).
HAND_WRITE_SQL = f"""
    WITH hand AS (
        INSERT INTO {_HAND} (session_id, number, record, settlement, ruleset_fingerprint,
                             dealer, next_dealer, revision, entered_by_id, entered_at,
                             updated_at, is_deleted, deleted_reason, entry_seat, counts)
        VALUES (%(follow_session)s, %(number)s, %(record)s::jsonb, %(settlement)s::jsonb,
                %(fingerprint)s, %(dealer)s, %(next_dealer)s, 1, %(user)s, %(follow_now)s,
                %(follow_now)s, false, '', %(entry_seat)s, %(counts)s)
        RETURNING id, record, settlement
    ), payments AS (
        INSERT INTO {Payment._meta.db_table} ({", ".join(PAYMENT_COLUMNS)})
        SELECT hand.id, {", ".join(f"x.{c}" for c in PAYMENT_COLUMNS[1:])}
          FROM hand, jsonb_to_recordset(%(payments)s::jsonb) AS x({
    ", ".join(f"{c} {t}" for c, t in zip(PAYMENT_COLUMNS[1:], _PAYMENT_TYPES, strict=True))
})
    ), revision AS (
        INSERT INTO {HandRevision._meta.db_table} (hand_id, revision, action, record,
                                                   settlement, changes, reason,
                                                   changed_by_id, changed_at)
        SELECT hand.id, 1, %(action)s, hand.record, hand.settlement, %(changes)s::jsonb, '',
               %(user)s, %(follow_now)s
          FROM hand
    ), {{follow}}, {{outbox}}{{answer}}
    SELECT hand.id, session_written.club_id, session_written.kind,
           session_written.data_version, (SELECT id FROM outbox)
      FROM hand, session_written
"""


class HandWritten(NamedTuple):
    hand_id: int
    club_id: int
    kind: str
    version: int
    message_id: int | None


def hand_write(
    hand: Hand,
    payments: Sequence[PaymentRow],
    *,
    follow: str,
    outbox: OutboxClauses,
    answer: AnswerInWrite | None = None,
) -> HandWritten:
    """Store a new hand (its fields but ``id``; ``entered_at`` is the write's time), its
    payments and its first revision, count the session's write and ask for its follow-up, in
    one statement (PostgreSQL). ``follow``: ``clubs.tasks.FOLLOW_CLAUSE``; ``outbox``: the
    follow-up task's clauses; ``answer``: an idempotent POST's answer, given already, stored
    with them. IntegrityError when the hand's number is taken, or the answer's key has one."""

    def ids(p: Party) -> tuple[int | None, int | None]:
        return (p.id, None) if p.kind == "player" else (None, p.id)

    rows = []
    for position, p in enumerate(payments):
        payer, payee = ids(p.payer), ids(p.payee)
        rows.append({
            "position": position, "payer_player_id": payer[0], "payer_bettor_id": payer[1],
            "payee_player_id": payee[0], "payee_bettor_id": payee[1], "amount": p.amount,
            "reason": p.reason, "event": p.event,
        })  # fmt: skip
    params = {
        "follow_session": hand.session_id, "follow_now": hand.entered_at,
        "number": hand.number, "record": json.dumps(hand.record),
        "settlement": json.dumps(hand.settlement), "fingerprint": hand.ruleset_fingerprint,
        "dealer": hand.dealer, "next_dealer": hand.next_dealer, "user": hand.entered_by_id,
        "entry_seat": hand.entry_seat, "counts": hand.counts, "payments": json.dumps(rows),
        "action": HandRevision.Action.CREATED, "changes": json.dumps(sorted(hand.record)),
        **outbox.params,
    }  # fmt: skip
    if answer is not None:
        params |= answer.params()
    sql = _write_sql(follow, outbox.sql, answer is not None)
    written = HandWritten(*prepared_row(sql, params))
    outbox.written(written.message_id)
    if answer is not None:
        answer.stored()
    return written


_WRITE_SQL: dict[tuple[str, str, bool], str] = {}


def _write_sql(follow: str, outbox: str, with_answer: bool) -> str:
    """The statement's text, built once for each form of the follow-up's clauses, with and
    without an idempotent answer."""
    sql = _WRITE_SQL.get((follow, outbox, with_answer))
    if sql is None:
        answer = f", {ANSWER_CLAUSE}" if with_answer else ""
        sql = (
            HAND_WRITE_SQL.replace("{follow}", follow)
            .replace("{outbox}", outbox)
            .replace("{answer}", answer)
        )
        _WRITE_SQL[(follow, outbox, with_answer)] = sql
    return sql
