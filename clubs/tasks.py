"""Celery tasks of the clubs app, thin: the work is in selectors and services."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

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
    """Queue :func:`session_changed` in the caller's transaction (the outbox): every write to
    a session calls this. Writes within ``FOLLOW_UP_COALESCE_SECONDS`` of each other share
    one task (``core.outbox.enqueue``'s ``coalesce``)."""
    enqueue(session_changed.name, session_id, coalesce=settings.FOLLOW_UP_COALESCE_SECONDS)
