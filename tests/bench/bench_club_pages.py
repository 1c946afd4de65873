"""The club ranking and a player's page beside the health check, in-process (issue 25).

Run by ``make bench`` (never part of ``make test``). Targets (issue 25), each read as kept
under its data's version in the shared cache (Redis, as in production), an anonymous visitor
of a public club, Chinese, through Django's test client (middleware, language, templates):

* ``GET /clubs/{slug}/ranking/`` (its first page) and ``GET /players/{id}/`` at 500 players /
  20,000 hands: ≥ 0.3× ``GET /healthz?check=database`` of the same run (the ratio of their
  medians: requests a second, one process), ≤ 30 ms median; their queries beside them.
* Beside them, what a read costs when its version has just moved (a follow-up finished, a
  hand recorded at one of his tables): the page computed and kept again.

Then the scale table (README): the same pages over three clubs ten times apart
(:data:`SIZES`: players and hands), each read kept and computed, with its queries.

The data: clubs of ``tests/ratings/generate.py`` (sessions of 16 hands settled by the engine,
a regular who sits at one table in ten, written in bulk), their lines, ratings and award
holders built by ``ratings.services.club_recompute``. On a PostgreSQL database of its own
(``BENCH_PG``, default host=127.0.0.1 port=5432 user=postgres; ``BENCH_DB_CLUB_PAGES``,
default xuezhan_bench_club_pages), dropped and created afresh; the cache at
``BENCH_CACHE_URL`` (default redis://127.0.0.1:6379/1, its keys under a prefix of this run's
own). ``BENCH_CLUB_PAGES_N`` runs per figure (default 40); ``BENCH_CLUB_PAGES_SIZES``: the
scale table's sizes as players:sessions pairs (default 50:125,500:1250,5000:12500 — 2,000,
20,000 and 200,000 hands; the last takes several minutes to build; ``0`` leaves the table out).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import timing  # noqa: E402
from tests.bench.postgres import analyze, bench_django  # noqa: E402
from tests.bench.targets import at_least, at_most  # noqa: E402

N = int(os.environ.get("BENCH_CLUB_PAGES_N", "40"))
PG = os.environ.get("BENCH_PG", "host=127.0.0.1 port=5432 user=postgres")
DB = os.environ.get("BENCH_DB_CLUB_PAGES", "xuezhan_bench_club_pages")
CACHE = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/1")
SIZES = os.environ.get("BENCH_CLUB_PAGES_SIZES", "50:125,500:1250,5000:12500")
HANDS_PER_SESSION = 16
#: issue 25's targets
RATIO, MEDIAN_MS = 0.3, 30


def queries_of(client, path: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as q:
        assert client.get(path).status_code == 200, path
    return len(q)


def getter(client, path: str):
    def get() -> None:
        r = client.get(path)
        assert r.status_code == 200, (path, r.status_code)

    return get


def computed(client, path: str, club_id: int):
    """The page read just after its version moved (as after a follow-up): computed, kept."""
    from ratings.read_versions import club_read_bump

    def get() -> None:
        club_read_bump([club_id])
        r = client.get(path)
        assert r.status_code == 200, (path, r.status_code)

    return get


def build(players: int, sessions: int, slug: str):
    from ratings.services import club_recompute
    from tests.ratings.generate import generated_club

    started = time.perf_counter()
    g = generated_club(
        players=players, sessions=sessions, hands_per_session=HANDS_PER_SESSION, slug=slug
    )
    club_recompute(club_id=g.club.pk)
    return g, time.perf_counter() - started


def main() -> None:
    os.environ["CACHE_URL"] = f"{CACHE}?key_prefix=bench-read-{os.getpid()}-{time.time():.0f}"
    # 200,000 hands written in bulk take longer than a request's bound on the database; the
    # bound only stops what runs too long, it speeds nothing up
    os.environ.setdefault("DB_STATEMENT_TIMEOUT", "0")
    with tempfile.TemporaryDirectory() as folder:
        where = setup(folder)
        from django.core.cache import cache
        from django.test import Client

        from clubs.models import Seat

        print(f"club ranking and player page, in-process, {where}, cache "
              f"{cache.__class__.__name__}, N = {N}")  # fmt: skip
        g, built = build(500, 1250, "bench-read")
        main_club, main_built = g, built
        hands = 1250 * HANDS_PER_SESSION
        regular = Seat.objects.filter(player=g.regular).count() * HANDS_PER_SESSION
        print(f"  club: 500 players, 1,250 sessions, {hands:,} hands, lines, ratings and awards"
              f" built ({built:.1f} s); the regular: {regular:,} hands")  # fmt: skip
        analyze()
        client = Client(HTTP_ACCEPT_LANGUAGE="zh-Hans")
        health = "/healthz?check=database"
        ranking, player = f"/clubs/{g.club.slug}/ranking/", f"/players/{g.regular.pk}/"
        api = f"/api/v1/clubs/{g.club.slug}/ranking/"
        # alternating passes, so that a slower moment of the shared machine falls on all
        passes: dict[str, list[float]] = {k: [] for k in ("health", "ranking", "player", "api")}
        for _ in range(2):
            passes["health"] += timing.timed(getter(client, health), N // 2)
            passes["ranking"] += timing.timed(getter(client, ranking), N // 2)
            passes["player"] += timing.timed(getter(client, player), N // 2)
            passes["api"] += timing.timed(getter(client, api), N // 2)
        base = statistics.median(passes["health"])
        print(timing.line("GET /healthz?check=database (the ceiling)", passes["health"], 62)
              + f"   {queries_of(client, health)} queries")  # fmt: skip
        for key, label, path in (
            ("ranking", "GET /clubs/{slug}/ranking/ (first page of 100)", ranking),
            ("player", f"GET /players/{{id}}/ (the regular, {regular:,} hands)", player),
            ("api", "GET /api/v1/clubs/{slug}/ranking/ (all 500 rows, JSON)", api),
        ):
            ms = passes[key]
            median = statistics.median(ms)
            ratio = base / median
            print(timing.line(label, ms, 62) + f"   {queries_of(client, path)} queries")
            print(f"    ÷ healthz {ratio:5.2f}×   {at_least(ratio, RATIO)}   "
                  f"median {at_most(median, MEDIAN_MS)}")  # fmt: skip
        for label, path in (("ranking", ranking), ("player", player)):
            ms = timing.timed(computed(client, path, g.club.pk), max(5, N // 4))
            print(timing.line(f"  just after a follow-up: {label} computed and kept", ms, 62))

        if SIZES.strip() in ("", "0"):
            return
        print("\nscale table: kept (a read at the same version) and computed (the version just"
              " moved), median ms, queries")  # fmt: skip
        print(f"  {'players':>8} {'hands':>9} {'build s':>8} | {'ranking kept':>12} "
              f"{'computed':>9} {'q':>3} | {'player kept':>11} {'computed':>9} {'q':>3} "
              f"{'his hands':>9}")  # fmt: skip
        for i, pair in enumerate(SIZES.split(",")):
            players, sessions = (int(x) for x in pair.split(":"))
            if (players, sessions) == (500, 1250):  # the club measured above
                g, built = main_club, main_built
            else:
                g, built = build(players, sessions, f"bench-scale-{i}")
                analyze()
            r, p = f"/clubs/{g.club.slug}/ranking/", f"/players/{g.regular.pk}/"
            n = max(5, N // 4)
            figures = [
                statistics.median(timing.timed(getter(client, r), N // 2)),
                statistics.median(timing.timed(computed(client, r, g.club.pk), n)),
                queries_of(client, r),
                statistics.median(timing.timed(getter(client, p), N // 2)),
                statistics.median(timing.timed(computed(client, p, g.club.pk), n)),
                queries_of(client, p),
            ]
            his = Seat.objects.filter(player=g.regular).count() * HANDS_PER_SESSION
            print(f"  {players:>8,} {sessions * HANDS_PER_SESSION:>9,} {built:>8.1f} | "
                  f"{figures[0]:>12.2f} {figures[1]:>9.2f} {figures[2]:>3} | "
                  f"{figures[3]:>11.2f} {figures[4]:>9.2f} {figures[5]:>3} {his:>9,}")  # fmt: skip


def setup(folder: str) -> str:
    return bench_django(PG, DB, folder)


if __name__ == "__main__":
    main()
