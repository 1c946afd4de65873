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


def test_the_health_check_phase_before_the_load_is_ten_seconds_unless_told():
    """The write rate is printed as a ratio to ``GET /healthz?check=database`` measured in the
    same run (issue 25); ``--health-seconds 0`` leaves it out."""
    assert parse([]).health_seconds == 10
    assert parse(["--health-seconds", "3"]).health_seconds == 3
    assert parse(["--health-seconds", "0"]).health_seconds == 0


def test_the_write_rate_is_printed_as_a_ratio_to_the_health_checks():
    from tests.load.clients import READ, WRITE, HealthRate, Results, Sample
    from tests.load.figures import health_line

    results = Results(started=0.0, finished=10.0)
    results.samples += [Sample(WRITE, "hand", 201, 20.0, True)] * 40
    results.samples += [Sample(WRITE, "close", 200, 20.0, True)] * 10
    results.samples += [Sample(READ, "ranking page", 200, 30.0, True)] * 70
    health = HealthRate(clients=60, seconds=10.0, answered=2000, failed=0, ms=[5.0] * 2000)
    line = health_line(health, results)
    assert "5.0/s ÷ 200.0/s = 0.03×" in line
    assert "hands alone 4.0/s = 0.02×" in line
    assert "same 60 clients" in line
    assert "not measured" in health_line(None, results)
