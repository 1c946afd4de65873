"""Celery tasks of the tournaments app, thin: the work is in ``services``.

Both report through their :class:`~tournaments.models.TaskRecord` (the Celery task id is the
record's id), so ``GET /api/v1/tasks/{id}`` answers the same with a worker or in eager mode;
Celery's own result store is not needed.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from rest_framework.exceptions import APIException

from config.errors import error, errors_for_exception
from tournaments import services


def _run(task_id: str, work, on_failure=None) -> dict[str, Any]:
    services.task_started(task_id)
    try:
        result = work()
    except APIException as e:
        # a refusal (round has results, a pin that cannot be honoured): reported, not retried
        if on_failure:
            on_failure()
        errors = errors_for_exception(e)
        services.task_failed(task_id, errors)
        return {"errors": errors}
    except Exception as e:
        if on_failure:
            on_failure()
        services.task_failed(task_id, [error("", "internal_error", f"{type(e).__name__}: {e}")])
        raise
    services.task_succeeded(task_id, result)
    return result


@shared_task(bind=True, name="tournaments.generate_seating", ignore_result=True)
def generate_seating(self, round_id: int, reseat: bool = False) -> dict[str, Any]:
    """Seat one round (balanced, swiss or random) and write it whole."""
    return _run(
        self.request.id,
        lambda: services.round_seat(round_id=round_id, reseat=reseat),
        lambda: services.round_seating_failed(round_id=round_id),
    )


@shared_task(bind=True, name="tournaments.compute_standings", ignore_result=True)
def compute_standings(self, tournament_id: int) -> dict[str, Any]:
    """Recompute a tournament's standings into a new snapshot."""
    return _run(self.request.id, lambda: services.standings_compute(tournament_id=tournament_id))
