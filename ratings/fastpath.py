"""The rating history's insert, in hand-written SQL where the benchmark proved it pays.

A full recompute writes four history rows per session (40,000 for a club of 10,000
sessions); building a model instance per row and compiling Django's insert costs several times
what the database does with the rows. PostgreSQL takes them by COPY, SQLite by one prepared
insert; the table name is taken from ``Model._meta``; ``make bench`` times the recompute.
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


def changes_insert(rows: Sequence[ChangeRow]) -> None:
    """Store history rows: PostgreSQL's COPY (one stream, no statement to parse: a
    40,000-row insert written as SQL costs psycopg more to split than the server to run), else
    one prepared statement run for each row (SQLite)."""
    if not rows:
        return
    table, columns = RatingChange._meta.db_table, ", ".join(CHANGE_COLUMNS)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        adapt = connection.ops.adapt_datetimefield_value
        cursor.executemany(
            f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(CHANGE_COLUMNS))})",
            [(*row[:4], adapt(row.played_at), *row[5:]) for row in rows],
        )
