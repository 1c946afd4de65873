"""Receivers: a session's hands, results or state changed → its ratings and lines follow."""

from __future__ import annotations

from django.db import transaction

from core.outbox import enqueue

REFRESH_TASK = "ratings.refresh_session"


def ratings_follow_session(*, session_id: int, **_) -> None:
    with transaction.atomic():
        enqueue(REFRESH_TASK, session_id)
