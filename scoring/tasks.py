"""Celery tasks of the scoring app, thin: the work is in selectors and services."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="scoring.session_changed", ignore_result=True)
def session_changed(session_id: int) -> dict[str, int]:
    """A session's hands or results changed: recompute its totals and tell the apps built on
    sessions (``scoring.signals.session_changed``: tournament standings). Returns the totals by
    player id (not stored: nothing reads them back)."""
    from clubs.models import TableSession
    from clubs.selectors import session_totals
    from scoring.signals import session_changed as changed

    totals = session_totals(session_id=session_id)
    changed.send(sender=TableSession, session_id=session_id)
    return {str(pid): total for pid, total in totals["players"].items()}
