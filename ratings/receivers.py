"""Receivers: a session's hands, results or state changed → its ratings and lines follow; a
club's time zone changed → its awards' seasons follow."""

from __future__ import annotations

from core.outbox import enqueue

REFRESH_TASK = "ratings.refresh_session"
#: a club's award holders of a season (and of all time) rewritten from its lines
AWARDS_TASK = "ratings.refresh_awards"
#: the periodic check of the sessions whose derived data lag
RECONCILE_TASK = "ratings.reconcile"


def ratings_follow_session(*, session_id: int, **_) -> None:
    from ratings.services import session_follow  # the services name the tasks above

    session_follow(session_id=session_id)


def awards_follow_club(*, club_id: int, fields: frozenset[str], **_) -> None:
    """A season is a year in the club's time zone: a new zone moves sessions across New
    Year, so every season's holders are rewritten (queued in the club's own transaction)."""
    if "time_zone" in fields:
        enqueue(AWARDS_TASK, club_id, None)
