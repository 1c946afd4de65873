"""The benchmarks' own PostgreSQL database, dropped and created afresh for each run."""

from __future__ import annotations


def recreate_database(pg: str, db: str) -> str | None:
    """Drop and create ``db`` on the server ``pg`` (a libpq connection string); the reason it
    cannot be done, or None."""
    try:
        import psycopg
    except ImportError as e:
        return f"psycopg is not installed ({e})"
    try:
        with psycopg.connect(f"{pg} dbname=postgres", connect_timeout=3, autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
            c.execute(f'CREATE DATABASE "{db}"')
    except psycopg.Error as e:
        return f"PostgreSQL at {pg!r} is not usable: {str(e).strip().splitlines()[0]}"
    return None


def bench_django(pg: str, db: str, folder: str) -> str:
    """Set Django up on a PostgreSQL database of the benchmark's own (``db`` on the server
    ``pg``, dropped and created afresh), or on SQLite in ``folder`` when PostgreSQL cannot be
    used; migrated, Celery eager, throttles out of the way. Answers where the data lives."""
    import os

    reason = recreate_database(pg, db)
    if reason is None:
        host = dict(part.split("=", 1) for part in pg.split()).get("host", "127.0.0.1")
        url, where = f"postgres://postgres@{host}:5432/{db}", f"PostgreSQL ({db})"
    else:
        url, where = f"sqlite:///{folder}/{db}.sqlite3", f"SQLite ({reason})"
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=url, DEBUG="false",
        LOG_LEVEL="WARNING", THROTTLE_ANON="100000000/min", THROTTLE_USER="100000000/min",
        ALLOWED_HOSTS="testserver,localhost",
    )  # fmt: skip
    os.environ.pop("CELERY_BROKER_URL", None)
    import logging
    import warnings

    import django

    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    # after the settings' logging: an in-memory broker without a host, a page answering 404
    logging.getLogger("kombu.connection").setLevel(logging.ERROR)
    logging.getLogger("django.request").setLevel(logging.ERROR)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return where


def analyze() -> None:
    """Gather the planner's statistics of the data just built, as autovacuum does on a live
    server soon after a bulk load. A server run with ``autovacuum = off`` (as a benchmark
    machine may be) never does: every query is then planned blind (no row counts, no value
    frequencies), and a page is timed with plans no live database would choose."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
