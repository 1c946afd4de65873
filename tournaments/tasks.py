"""Celery tasks of the tournaments app, thin: the work is in ``services``.

Both report through their job record (``core.jobs``; the Celery task id is the record's id),
so ``GET /api/v1/tasks/{id}`` answers the same with a worker or in eager mode; Celery's own
result store is not needed.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from core.jobs import run_job
from core.workers import SAFE_TO_REPEAT
from tournaments import services


@shared_task(bind=True, name=services.SEATING_TASK, ignore_result=True, **SAFE_TO_REPEAT)
def generate_seating(self, round_id: int, reseat: bool = False) -> dict[str, Any]:
    """Seat one round (balanced, swiss or random) and write it whole."""
    return run_job(
        self.request.id,
        lambda: services.round_seat(round_id=round_id, reseat=reseat),
        lambda: services.round_seating_failed(round_id=round_id),
    )


@shared_task(bind=True, name=services.STANDINGS_TASK, ignore_result=True, **SAFE_TO_REPEAT)
def compute_standings(self, tournament_id: int) -> dict[str, Any]:
    """Recompute a tournament's standings into a new snapshot."""
    return run_job(self.request.id, lambda: services.standings_compute(tournament_id=tournament_id))


@shared_task(name=services.RECONCILE_TASK, ignore_result=True, **SAFE_TO_REPEAT)
def reconcile_standings() -> dict[str, Any]:
    """The periodic check: running tournaments whose standings lag are recomputed."""
    return {"tournaments": services.standings_reconcile()}
