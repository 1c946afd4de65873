"""Celery tasks of the clubs app, thin: the work is in selectors and services."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import connection
from django.utils import timezone

from clubs import signals
from clubs.models import TableSession
from clubs.selectors import session_totals
from core import live
from core.outbox import OutboxClauses, enqueue, enqueue_clauses
from core.workers import SAFE_TO_REPEAT


@shared_task(name="clubs.session_changed", ignore_result=True, **SAFE_TO_REPEAT)
def session_changed(session_id: int) -> dict[str, int]:
    """A session's hands or results changed: recompute its totals and tell the apps built on
    sessions (``clubs.signals.session_changed``: tournament standings). Returns the totals by
    player id (not stored: nothing reads them back)."""
    totals = session_totals(session_id=session_id)
    signals.session_changed.send(sender=TableSession, session_id=session_id)
    return {str(pid): total for pid, total in totals.players.items()}


def follow_session(session_id: int) -> None:
    """Count a write to a session (its ``data_version``) and queue :func:`session_changed`
    in the caller's transaction (the outbox): every write to a session calls this. Writes
    within ``FOLLOW_UP_COALESCE_SECONDS`` of each other share one task
    (``core.outbox.enqueue``'s ``coalesce``).

    The version is the second net under the outbox: what is computed from the session
    records the version it read (``derived_version``, a tournament's standings snapshot),
    and a periodic check (``ratings.reconcile``, ``tournaments.reconcile``) follows up any
    session whose derived data stayed behind."""
    # one statement: the version counted, and what the live pages need to hear of it
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {TableSession._meta.db_table} "
            "SET data_version = data_version + 1, changed_at = %s WHERE id = %s "
            "RETURNING club_id, kind, data_version",
            [connection.ops.adapt_datetimefield_value(timezone.now()), session_id],
        )
        written = cursor.fetchone()
    enqueue(session_changed.name, session_id, coalesce=settings.FOLLOW_UP_COALESCE_SECONDS)
    if written is None:
        return
    session_written(session_id, *written)


#: :func:`follow_session`'s count of the write, as a clause of a writer's own statement (the
#: hand-recording path folds it into its one write): ``session_written`` returns what
#: :func:`session_written` needs; params ``follow_session`` and ``follow_now``
FOLLOW_CLAUSE = (
    f"session_written AS (UPDATE {TableSession._meta.db_table} "
    "SET data_version = data_version + 1, changed_at = %(follow_now)s "
    "WHERE id = %(follow_session)s RETURNING club_id, kind, data_version)"
)


def follow_up_clauses(session_id: int) -> OutboxClauses | None:
    """:func:`follow_session`'s follow-up task as clauses of a writer's own statement (see
    ``core.outbox.enqueue_clauses``); None: call :func:`follow_session` instead."""
    return enqueue_clauses(
        session_changed.name, session_id, coalesce=settings.FOLLOW_UP_COALESCE_SECONDS
    )


def session_written(session_id: int, club_id: int, kind: str, version: int) -> None:
    """What follows a counted write to a session, in its transaction: the live pages are told
    (on commit) and ``clubs.signals.session_written`` is sent."""
    live.announce(live.table_channel(session_id), kind="table", table=session_id, version=version)
    if kind == TableSession.Kind.CLUB:
        live.announce(live.club_channel(club_id), kind="table", table=session_id, version=version)
    signals.session_written.send(
        sender=TableSession, session_id=session_id, kind=kind, version=version
    )
