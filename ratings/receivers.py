"""Receivers: a session's hands, results or state changed → its ratings and lines follow; a
club's time zone changed → its awards' seasons follow."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from core.outbox import enqueue

REFRESH_TASK = "ratings.refresh_session"
#: a club's award holders of a season (and of all time) rewritten from its lines
AWARDS_TASK = "ratings.refresh_awards"


def ratings_follow_session(*, session_id: int, **_) -> None:
    with transaction.atomic():
        enqueue(REFRESH_TASK, session_id, coalesce=settings.FOLLOW_UP_COALESCE_SECONDS)


def awards_follow_club(*, club_id: int, fields: frozenset[str], **_) -> None:
    """A season is a year in the club's time zone: a new zone moves sessions across New
    Year, so every season's holders are rewritten (queued in the club's own transaction)."""
    if "time_zone" in fields:
        enqueue(AWARDS_TASK, club_id, None)
