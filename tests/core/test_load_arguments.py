"""``make load``'s command line: any database name is taken, but never one the run must not
drop (PostgreSQL's own, the application's); one in use is refused when the run starts."""

from __future__ import annotations

import pytest

from tests.load.config import database_refusal, parse


@pytest.mark.parametrize("name", ["xuezhan_load", "xuezhan_load_2", "bench_evening", "loadtest"])
def test_any_other_name_is_taken(name, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/xuezhan")
    assert database_refusal(name, "postgres://postgres@127.0.0.1:5432/xuezhan") is None
    assert parse(["--database", name]).database == name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("xuezhan", "the application's database"),
        ("postgres", "PostgreSQL's own"),
        ("template1", "PostgreSQL's own"),
        ("", "1 to 63 characters"),
        ("x" * 64, "1 to 63 characters"),
    ],
)
def test_a_database_the_run_must_not_drop_is_refused(name, why, monkeypatch, capsys):
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/xuezhan")
    assert why in database_refusal(name, "postgres://postgres@127.0.0.1:5432/xuezhan")
    with pytest.raises(SystemExit):
        parse(["--database", name])
    assert why in capsys.readouterr().err
