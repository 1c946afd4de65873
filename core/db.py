"""A PostgreSQL connection that stops answering fails its request instead of holding it.

Connecting is bounded by libpq's ``connect_timeout`` and each statement by the server's
``statement_timeout`` (``config/settings.py``), but a connection that was open when the
database stopped answering (the network between them dropped, the server froze) would wait
for its answer as long as the silence lasts: the server's timer cannot help when the server
never hears the statement, or its answer never arrives. So every wait for an answer on a
PostgreSQL connection is bounded here by ``DB_ANSWER_TIMEOUT`` seconds (the statement's own
bound plus a connection's, by default): past it the connection is closed and the caller gets an
``OperationalError``, which the API answers 503 ``database_unavailable``
(``tests/faults/test_database_stalls.py``). Inside a transaction the answer comes a connection
attempt later: leaving the transaction, Django connects again to restore autocommit, and that
attempt is bounded by ``connect_timeout``.

Nothing is asked of the server between connecting and this hook (``connection_created``): the
connection's options start it in UTC, so Django has no time zone to set.

psycopg waits for every answer (a statement's, a commit's, a fetch's) through its
connection's ``wait(gen, interval, timeout)``, which raises its ``errors._WaitTimeout`` (an
``OperationalError``) when the timeout passes; each new connection's ``wait`` gets this timeout
when its caller gave none. That is psycopg's inside (3.3, pinned in ``requirements.lock``): the
fault tests say so if an upgrade moves it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import psycopg
from django.conf import settings
from django.db import connection


def bound_answers(sender, connection, **kwargs) -> None:
    """``connection_created`` receiver: bound the new connection's waits for an answer."""
    limit = settings.DB_ANSWER_TIMEOUT
    if connection.vendor != "postgresql" or not limit:
        return
    raw = connection.connection
    wait = raw.wait

    def bounded(gen, *args: Any, **kwargs: Any) -> Any:
        if len(args) > 1 or kwargs.get("timeout") is not None:  # the caller's own bound
            return wait(gen, *args, **kwargs)
        try:
            return wait(gen, *args, **{**kwargs, "timeout": limit})
        except psycopg.errors._WaitTimeout:
            # the answer may still come: nothing may read it as the answer to the next
            # statement, so the connection goes; the server rolls its transaction back,
            # unless the commit had reached it already (a retry with the same
            # Idempotency-Key is answered what it stored)
            raw.close()
            message = f"the database did not answer within {limit:g} s; connection closed"
            raise psycopg.OperationalError(message) from None

    raw.wait = bounded


# --- hot paths: a prepared statement, and model instances from its row ------------------------


def prepared_row(sql: str, params: dict[str, Any]) -> tuple | None:
    """Run a hot path's statement as a prepared statement of the connection (PostgreSQL plans
    it once per connection: planning such statements costs it more than running them), in the
    transaction of Django's connection, its errors Django's (an ``IntegrityError``), logged as
    Django logs a query; its first row. PostgreSQL only."""
    connection.ensure_connection()
    connection.validate_no_broken_transaction()
    start = time.monotonic()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params, prepare=True)
        row = cursor.fetchone()
    if connection.queries_logged:
        took = time.monotonic() - start
        connection.queries_log.append({"sql": sql, "time": f"{took:.3f}"})
    return row


def model_from_row(model, attnames: list[str], values: Sequence) -> Any:
    """A model instance from raw column values, converted as the ORM converts them (JSON
    columns come as text)."""
    values = list(values)
    for i, converters in _converters(model, tuple(attnames)):
        for converter in converters:
            values[i] = converter(values[i], None, connection)
    return model.from_db(connection.alias, attnames, values)


_CONVERTERS: dict[tuple, list] = {}


def _converters(model, attnames: tuple[str, ...]) -> list[tuple[int, list]]:
    """The converters of each column that has some (worked out once per model)."""
    key = (model, attnames, connection.vendor)
    found = _CONVERTERS.get(key)
    if found is None:
        fields = {f.attname: f for f in model._meta.concrete_fields}
        found = []
        for i, attname in enumerate(attnames):
            field = fields[attname]
            converters = field.get_db_converters(connection)
            converters += connection.ops.get_db_converters(field)
            if converters:
                found.append((i, converters))
        _CONVERTERS[key] = found
    return found
