"""The bulk inserts of a full recompute, in hand-written SQL where the benchmark proved it pays.

A full recompute writes four history rows and four statistics' lines per session (40,000 of
each for a club of 10,000 sessions); building a model instance per row and compiling Django's
insert costs several times what the database does with the rows. PostgreSQL takes them by
COPY, SQLite by one prepared insert; table and column names are taken from ``Model._meta``
(and checked against the row shapes here when the module loads); ``make bench`` times the
recompute. A COPY is logged where Django logs its queries, so a query count sees it.

A recompute mostly finds what it left (a check, the lines rewritten from the same hands):
:func:`lines_replace` compares the new lines with the stored ones in the database and rewrites
only the sessions that differ, and the rating replay writes only the history rows that moved.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import fields
from datetime import datetime
from typing import Any, NamedTuple

from django.db import connection, models

from ratings.facts import SeatFacts
from ratings.models import RatingChange, SessionLine, WinLine


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


#: rows one COPY statement stores at most
COPY_BLOCK = 10_000
#: a seat's figures as :class:`SessionLine` stores them, in :class:`SeatFacts`' order
FACT_COLUMNS = tuple(f.name for f in fields(SeatFacts) if f.name != "exchanged")
#: a statistics' line: where (the session's), whose, his result, then his figures
LINE_COLUMNS = (
    "session_id", "player_id", "club_id", "tournament_id", "kind", "started_at", "seat",
    "score", "place", "tied", "entered", "exchanged", *FACT_COLUMNS,
)  # fmt: skip
#: a win's line: where (the session's), whose, then the win
WIN_COLUMNS = (
    "session_id", "player_id", "club_id", "tournament_id", "kind", "started_at", "hand_number",
    "preset", "pattern", "roots", "amount", "order", "self_draw", "verified",
)  # fmt: skip


def _stored_columns(model: type[models.Model]) -> set[str]:
    return {f.column for f in model._meta.concrete_fields if not f.primary_key}


# a column added to a model and not here would be left to a default the database lacks
assert set(LINE_COLUMNS) == _stored_columns(SessionLine), "SessionLine's columns changed"
assert set(WIN_COLUMNS) == _stored_columns(WinLine), "WinLine's columns changed"
assert set(CHANGE_COLUMNS) == _stored_columns(RatingChange), "RatingChange's columns changed"


@contextmanager
def _logged(sql: str) -> Iterator[None]:
    """Log a statement run past Django's cursor wrapper as Django logs its own (``DEBUG``,
    or a test's query count)."""
    started = time.monotonic()
    try:
        yield
    finally:
        if connection.queries_logged:
            connection.queries_log.append({"sql": sql, "time": f"{time.monotonic() - started:.3f}"})


def _copy(
    model: type[models.Model],
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    table: str | None = None,
) -> None:
    """Store ``rows`` (values in ``columns``' order) in ``model``'s table (or ``table``, of
    its columns' types): PostgreSQL's binary COPY, each column's type named so psycopg's
    compiled dumpers write the values (its text format, or text made here in Python, costs
    several times as much), else one prepared statement run for each row (SQLite)."""
    if not rows:
        return
    table = table or connection.ops.quote_name(model._meta.db_table)
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    by_column = {f.column: f for f in model._meta.concrete_fields}
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # "varchar(12)" → "varchar": the type, as psycopg knows it, without its length
            types = [by_column[c].db_type(connection).split("(")[0] for c in columns]
            sql = f"COPY {table} ({names}) FROM STDIN (FORMAT BINARY)"
            # a block at a time: each statement stays well inside the statement timeout
            # (``DB_STATEMENT_TIMEOUT``) however large the club — the rows are fed while it runs
            for at in range(0, len(rows), COPY_BLOCK):
                with _logged(sql), cursor.cursor.copy(sql) as copy:
                    copy.set_types(types)
                    for row in rows[at : at + COPY_BLOCK]:
                        copy.write_row(row)
            return
        json_at = {i for i, c in enumerate(columns) if isinstance(by_column[c], models.JSONField)}
        adapt = connection.ops.adapt_datetimefield_value

        def stored(value: Any, i: int) -> Any:
            if i in json_at:
                return json.dumps(value)
            return adapt(value) if isinstance(value, datetime) else value

        cursor.executemany(
            f"INSERT INTO {table} ({names}) VALUES ({', '.join(['%s'] * len(columns))})",
            [[stored(v, i) for i, v in enumerate(row)] for row in rows],
        )


def lines_replace(
    session_ids: Sequence[int], lines: Sequence[Sequence[Any]], wins: Sequence[Sequence[Any]]
) -> int:
    """Make the stored statistics' lines and win lines of these sessions ``lines`` (values in
    :data:`LINE_COLUMNS` order) and ``wins`` (:data:`WIN_COLUMNS`), rewriting only the
    sessions whose rows differ from what is stored: a recompute that finds them as it left
    them writes nothing (each rewritten row is a delete, an insert, its indexes and its
    foreign keys' checks). Answers how many lines were written."""
    written = _replace(SessionLine, LINE_COLUMNS, session_ids, lines)
    _replace(WinLine, WIN_COLUMNS, session_ids, wins)
    return written


def _replace(
    model: type[models.Model],
    columns: Sequence[str],
    session_ids: Sequence[int],
    rows: Sequence[Sequence[Any]],
) -> int:
    """:func:`lines_replace` of one table (``columns`` begin with the session). PostgreSQL
    compares in the database: the new rows are copied into a temporary table of the same
    columns, and the sessions whose rows differ either way (``EXCEPT ALL``) are rewritten from
    it — reading the stored rows back into Python would cost more than writing them. SQLite
    compares in Python."""
    table = connection.ops.quote_name(model._meta.db_table)
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    if connection.vendor != "postgresql":
        stored: dict[int, set[tuple]] = defaultdict(set)
        for row in model.objects.filter(session_id__in=session_ids).values_list(*columns):
            stored[row[0]].add(_hashable(row))
        new: dict[int, set[tuple]] = defaultdict(set)
        for row in rows:
            new[row[0]].add(_hashable(row))
        stale = {sid for sid in session_ids if stored.get(sid) != new.get(sid)}
        if not stale:
            return 0
        model.objects.filter(session_id__in=stale).delete()
        rewritten = [row for row in rows if row[0] in stale]
        _copy(model, columns, rewritten)
        return len(rewritten)
    stage = connection.ops.quote_name(f"{model._meta.db_table}_stage")
    ids = list(session_ids)
    with connection.cursor() as cursor:
        # dropped at the commit; dropped here too should a test's transaction outlive a call
        cursor.execute(
            f"DROP TABLE IF EXISTS pg_temp.{stage}; CREATE TEMPORARY TABLE {stage} ON COMMIT DROP"
            f" AS SELECT {names} FROM {table} WITH NO DATA"
        )
        _copy(model, columns, rows, table=stage)
        stored = f"SELECT {names} FROM {table} WHERE session_id = ANY(%s)"
        cursor.execute(
            f"SELECT DISTINCT session_id FROM (({stored} EXCEPT ALL SELECT {names} FROM {stage})"
            f" UNION ALL (SELECT {names} FROM {stage} EXCEPT ALL {stored})) AS differing",
            [ids, ids],
        )
        stale = [sid for (sid,) in cursor.fetchall()]
        if not stale:
            return 0
        cursor.execute(f"DELETE FROM {table} WHERE session_id = ANY(%s)", [stale])
        cursor.execute(
            f"INSERT INTO {table} ({names}) SELECT {names} FROM {stage} WHERE session_id = ANY(%s)",
            [stale],
        )
        return cursor.rowcount


def _hashable(row: Sequence[Any]) -> tuple:
    """A row as a set holds it: its JSON (a dict) as sorted pairs."""
    return tuple(tuple(sorted(v.items())) if isinstance(v, dict) else v for v in row)


def changes_insert(rows: Sequence[ChangeRow]) -> None:
    """Store history rows (:class:`ChangeRow`)."""
    _copy(RatingChange, CHANGE_COLUMNS, rows)


#: what a history row of the same pool, player and session may change: all but those three
CHANGE_UPDATED = tuple(c for c in CHANGE_COLUMNS if c not in ("pool_id", "player_id", "session_id"))


def changes_update(rows: Sequence[tuple[int, ChangeRow]]) -> None:
    """Give stored history rows (by id) new numbers (:class:`ChangeRow`s of the same pool,
    player and session), in place. Cheaper than deleting them and storing new ones, which
    checks each new row's four foreign keys (most of a rewrite's time, the benchmark found):
    an update leaves the pool, player and session as they are, so only a changed rating
    system is checked — and, the rating system's column not indexed, a row whose time of play
    stays is rewritten on its page without touching an index. PostgreSQL: the new numbers are
    copied into a temporary table and set by one ``UPDATE … FROM``; elsewhere one prepared
    update a row."""
    if not rows:
        return
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    quote = connection.ops.quote_name
    at = [CHANGE_COLUMNS.index(c) for c in CHANGE_UPDATED]
    values = [(row_id, *(row[i] for i in at)) for row_id, row in rows]
    if connection.vendor != "postgresql":
        adapt = connection.ops.adapt_datetimefield_value
        sets = ", ".join(f"{quote(c)} = %s" for c in CHANGE_UPDATED)
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {table} SET {sets} WHERE id = %s",
                [
                    [adapt(v) if isinstance(v, datetime) else v for v in (*rest, row_id)]
                    for row_id, *rest in values
                ],
            )
        return
    stage = quote(f"{RatingChange._meta.db_table}_update")
    names = ", ".join(quote(c) for c in ("id", *CHANGE_UPDATED))
    sets = ", ".join(f"{quote(c)} = s.{quote(c)}" for c in CHANGE_UPDATED)
    with connection.cursor() as cursor:
        # dropped at the commit; dropped here too should a transaction rate several pools
        cursor.execute(
            f"DROP TABLE IF EXISTS pg_temp.{stage}; CREATE TEMPORARY TABLE {stage} ON COMMIT DROP"
            f" AS SELECT {names} FROM {table} WITH NO DATA"
        )
        _copy(RatingChange, ("id", *CHANGE_UPDATED), values, table=stage)
        cursor.execute(f"UPDATE {table} AS t SET {sets} FROM {stage} AS s WHERE t.id = s.id")


def batch_transaction() -> None:
    """Set the current transaction up for a recompute, which writes tens of thousands of rows
    and is written again the same from the same data (PostgreSQL; nothing elsewhere):

    * when the recompute owns the transaction (not a part of a larger one, as an import's),
      its commit returns before the server has flushed it to disk (``synchronous_commit``
      off, for this transaction only): a crash in the instant after it may lose it — the
      database stays consistent, holding the rows from before — and the next synchronous
      commit (the sessions marked current at the end of a recompute) flushes it with its own;
    * its foreign keys are checked at the end of each statement rather than all at the
      commit, so the checks of a club's 200,000 history rows are spread over its COPY blocks
      instead of one wait longer than the bound on an answer (``DB_ANSWER_TIMEOUT``)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            if not connection.savepoint_ids:  # the outermost block: the transaction is ours
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
