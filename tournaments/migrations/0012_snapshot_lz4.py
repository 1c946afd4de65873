"""A standings snapshot's rows compressed with lz4 rather than pglz (PostgreSQL).

A snapshot is written whole on every recompute, and compressing its jsonb with pglz was most
of the time the write took (issue 25: ~25 ms of ~35 at 1,000 players, several times that at
10,000); lz4 compresses it in a fraction of that, and reads it back faster too. Only the
column's setting changes: rows stored before stay as they are (PostgreSQL reads both), and the
values are the same. Nothing to do elsewhere (SQLite), nor on a server built without lz4.
"""

from django.db import migrations

COLUMNS = ("rows", "visible")


def _set(apps, schema_editor, method: str) -> None:
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT %s = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'",
            [method],
        )
        found = cursor.fetchone()
        if not found or not found[0]:
            return
        table = schema_editor.quote_name(
            apps.get_model("tournaments", "StandingsSnapshot")._meta.db_table
        )
        columns = ", ".join(
            f"ALTER COLUMN {schema_editor.quote_name(c)} SET COMPRESSION {method}" for c in COLUMNS
        )
        cursor.execute(f"ALTER TABLE {table} {columns}")


def lz4(apps, schema_editor) -> None:
    _set(apps, schema_editor, "lz4")


def pglz(apps, schema_editor) -> None:
    _set(apps, schema_editor, "pglz")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_hand_confirmations"),
    ]

    operations = [migrations.RunPython(lz4, pglz)]
