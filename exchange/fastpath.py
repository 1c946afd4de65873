"""Writing an imported club's rows as they were: hand-written SQL where the benchmark proved it.

A club's history keeps its moments (when a hand was entered, a revision made, a member joined),
but ``auto_now_add`` fields take the moment a row is created, and putting them back afterwards
with ``bulk_update`` cost more than creating the rows (7 s of a 20 s write for 10,000 hands on
PostgreSQL, ``tests/bench/bench_exchange.py``). :func:`rows_insert` writes the rows with the
values they carry, moments included: portable SQL (PostgreSQL and SQLite 3.35+), the table and
column names from ``Model._meta``, every value prepared by its own field for the connection
(JSON, moments), the primary keys read back in order (``RETURNING``), as ``bulk_create`` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection
from django.db.models import Model

#: rows per statement (SQLite takes 32,766 parameters in one)
BATCH = 500


def rows_insert(model: type[Model], objects: Sequence[Model], batch: int = BATCH) -> None:
    """Insert ``objects`` of ``model`` as they are (no field's ``pre_save`` runs: an
    ``auto_now_add`` moment keeps the value given) and set their primary keys."""
    if not objects:
        return
    meta = model._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    pk = connection.ops.quote_name(meta.pk.column)
    row = f"({', '.join(['%s'] * len(fields))})"
    with connection.cursor() as cursor:
        for start in range(0, len(objects), batch):
            chunk = objects[start : start + batch]
            params = [
                f.get_db_prep_save(getattr(obj, f.attname), connection)
                for obj in chunk
                for f in fields
            ]
            sql = (
                f"INSERT INTO {connection.ops.quote_name(meta.db_table)} ({columns}) "
                f"VALUES {', '.join([row] * len(chunk))} RETURNING {pk}"
            )
            cursor.execute(sql, params)
            for obj, (key,) in zip(chunk, cursor.fetchall(), strict=True):
                setattr(obj, meta.pk.attname, key)
                obj._state.adding = False
                obj._state.db = connection.alias


def values_insert(
    model: type[Model], columns: Sequence[str], rows: Sequence[tuple], batch: int = BATCH
) -> None:
    """Insert plain rows (numbers and text, in ``columns``' order) into ``model``'s table: a
    club's payments, tens of thousands of them, without a model instance each."""
    if not rows:
        return
    table = connection.ops.quote_name(model._meta.db_table)
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    row = f"({', '.join(['%s'] * len(columns))})"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            params = [value for r in chunk for value in r]
            sql = f"INSERT INTO {table} ({names}) VALUES {', '.join([row] * len(chunk))}"
            cursor.execute(sql, params)
