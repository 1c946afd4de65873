"""The rating history's insert, in hand-written SQL where the benchmark proved it pays.

A full recompute writes four history rows per session (40,000 for a club of 10,000
sessions); building a model instance per row and compiling Django's insert costs several times
what the database does with the rows. Portable SQL (PostgreSQL and SQLite), the table name
taken from ``Model._meta``; ``make bench`` times the recompute.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from django.db import connection

from ratings.models import RatingChange


class ChangeRow(NamedTuple):
    """One history row, in :data:`CHANGE_COLUMNS` order."""

    pool_id: int
    player_id: int
    session_id: int
    system_id: int
    played_at: datetime
    number: int
    score: int
    place: int
    expected_place: int
    expected_probability: float
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    rating_before: float
    rating_after: float


CHANGE_COLUMNS = ChangeRow._fields
#: rows per statement: SQLite allows 32,766 parameters in one, PostgreSQL 65,535
ROWS_PER_STATEMENT = 2000


def changes_insert(rows: Sequence[ChangeRow]) -> None:
    """Store history rows, a few thousand per statement."""
    adapt = connection.ops.adapt_datetimefield_value
    template = f"({', '.join(['%s'] * len(CHANGE_COLUMNS))})"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), ROWS_PER_STATEMENT):
            chunk = rows[start : start + ROWS_PER_STATEMENT]
            params: list = []
            for row in chunk:
                params += (*row[:4], adapt(row.played_at), *row[5:])
            cursor.execute(
                f"INSERT INTO {RatingChange._meta.db_table} ({', '.join(CHANGE_COLUMNS)}) "
                f"VALUES {', '.join([template] * len(chunk))}",
                params,
            )
