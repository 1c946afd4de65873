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
