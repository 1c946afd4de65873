"""Celery tasks of the ratings app, thin: the work is in ``services``."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from core.workers import SAFE_TO_REPEAT
from ratings import services
from ratings.models import ALL_TIME
from ratings.receivers import AWARDS_TASK, RECONCILE_TASK, REFRESH_TASK


@shared_task(name=REFRESH_TASK, ignore_result=True, **SAFE_TO_REPEAT)
def refresh_session(session_id: int) -> dict[str, Any]:
    """A session changed: rewrite its statistics' lines, re-rate its pool from it on if its
    places changed. Safe to repeat: it writes what the session says now."""
    return services.session_refresh(session_id=session_id)


@shared_task(name=AWARDS_TASK, ignore_result=True, **SAFE_TO_REPEAT)
def refresh_awards(club_id: int, season: int | None) -> dict[str, Any]:
    """A club table's lines changed: rewrite the club's award holders of the table's season
    and of all time (``season`` None: of every season). Safe to repeat: it writes what the
    lines say now."""
    seasons = None if season is None else [season, ALL_TIME]
    return services.club_awards_refresh(club_id=club_id, seasons=seasons)


@shared_task(name=RECONCILE_TASK, ignore_result=True, **SAFE_TO_REPEAT)
def reconcile() -> dict[str, Any]:
    """The periodic check: sessions whose derived data lag are refreshed again."""
    return services.reconcile()
