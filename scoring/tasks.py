"""Celery tasks of the scoring app, thin: the work is in selectors and services."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="scoring.session_changed")
def session_changed(session_id: int) -> dict[str, int]:
    """A session's hands or results changed: recompute its totals (ratings and standings
    hook in here as they arrive). Returns the totals by player id."""
    from clubs.models import TableSession
    from clubs.selectors import session_totals
    from scoring.signals import session_changed as changed

    totals = session_totals(session_id=session_id)
    changed.send(sender=TableSession, session_id=session_id)
    return {str(pid): total for pid, total in totals["players"].items()}
