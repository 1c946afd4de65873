"""Celery tasks of the clubs app, thin: the work is in selectors and services."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db.models import F
from django.db.models.functions import Now

from clubs import signals
from clubs.models import TableSession
from clubs.selectors import session_totals
from core.outbox import enqueue
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
    TableSession.objects.filter(pk=session_id).update(
        data_version=F("data_version") + 1, changed_at=Now()
    )
    enqueue(session_changed.name, session_id, coalesce=settings.FOLLOW_UP_COALESCE_SECONDS)
