"""Celery tasks of the ratings app, thin: the work is in ``services``."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from core.workers import SAFE_TO_REPEAT
from ratings import services
from ratings.receivers import REFRESH_TASK


@shared_task(name=REFRESH_TASK, ignore_result=True, **SAFE_TO_REPEAT)
def refresh_session(session_id: int) -> dict[str, Any]:
    """A session changed: rewrite its statistics' lines, re-rate its pool from it on if its
    places changed. Safe to repeat: it writes what the session says now."""
    return services.session_refresh(session_id=session_id)
