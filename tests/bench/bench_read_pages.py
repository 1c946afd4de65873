"""The table page, the tournament standings (first page) and a round's printed seating, each
beside ``GET /healthz?check=database`` measured in the same run, at three sizes ×10 apart.

Run by ``make bench`` (never part of ``make test``). Targets (issue 25): each page ≥ 0.3× the
health check's rate (here: the health check's median time ÷ the page's, in-process — the
gunicorn figure is ``bench_server``'s) and ≤ 30 ms median, its queries not growing with the
size. The pages keep what every visitor sees alike in the cache under their data's version
(``core.readcache``), so a read is the figure of a page read again with nothing written in
between; the first read after a write (the parts computed) is printed beside it.

What it does: a PostgreSQL database of its own (``BENCH_PG``, default host=127.0.0.1 port=5432
user=postgres; ``BENCH_DB_READ_PAGES``, default xuezhan_bench_read_pages), dropped and created
afresh, production-like settings (DEBUG off) with the cache in Redis (``BENCH_CACHE_URL``,
default redis://127.0.0.1:6379/1; keys under a prefix of this run's own, so nothing another
run kept is read). In-process through Django's test client (the whole request: middleware,
session, template), ``BENCH_READ_PAGES_N`` runs a figure (default 30), median and p90:

* ``GET /sessions/<id>/`` of a public club's table of 4, 40 and 400 hands (and 12, the issue's
  figure), as a visitor and as its scorer (the hand form too);
* ``GET /tournaments/<slug>/standings/`` (its first page) at 100, 1,000 and 10,000 players,
  two rounds seated (random) with zero-sum totals, standings computed;
* ``GET /tournaments/<slug>/rounds/2/print/``, the round's printed seating, same tournaments.

At the end, the scale table (size, median, queries) the README shows.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import timing  # noqa: E402
from tests.bench.postgres import analyze, bench_django  # noqa: E402
from tests.bench.targets import at_least, at_most  # noqa: E402

N = int(os.environ.get("BENCH_READ_PAGES_N", "30"))
PG = os.environ.get("BENCH_PG", "host=127.0.0.1 port=5432 user=postgres")
DB = os.environ.get("BENCH_DB_READ_PAGES", "xuezhan_bench_read_pages")
CACHE_URL = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/1")
#: the sizes (a quicker run: fewer, smaller)
HANDS = tuple(int(h) for h in os.environ.get("BENCH_READ_PAGES_HANDS", "4,40,400").split(","))
PLAYERS = tuple(
    int(p) for p in os.environ.get("BENCH_READ_PAGES_PLAYERS", "100,1000,10000").split(",")
)
RATIO, MEDIAN_MS = 0.3, 30.0
WIDTH = 60


def median(ms: list[float]) -> float:
    return statistics.median(ms)


def setup(folder: str) -> str:
    os.environ["CACHE_URL"] = CACHE_URL
    where = bench_django(PG, DB, folder)
    from django.conf import settings

    # this run's own keys (the database is new: its ids start again at 1)
    settings.CACHES["default"]["KEY_PREFIX"] = f"bench-read-pages-{uuid.uuid4().hex[:8]}"
    from django.core.cache import cache

    cache.set("bench-read-pages-probe", 1)
    kept = cache.get("bench-read-pages-probe") == 1
    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    return f"{where}, cache {backend} at {CACHE_URL} ({'answering' if kept else 'NOT answering'})"


class Bench:
    """Each figure beside the health check's of the same run, and the scale table's rows."""

    def __init__(self, healthz_ms: float) -> None:
        self.healthz_ms = healthz_ms
        self.scale: list[tuple[str, str, float, int, float]] = []

    def page(self, label: str, client, path: str, *, size: str = "", scale: str = "") -> None:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        def get() -> None:
            r = client.get(path)
            assert r.status_code == 200, (path, r.status_code)

        started = time.perf_counter()
        get()  # the first read: what every visitor sees alike is computed and kept
        first_ms = (time.perf_counter() - started) * 1000
        with CaptureQueriesContext(connection) as read:
            get()
        queries = len(read)  # (now: the next request empties the log it reads)
        ms = timing.timed(get, N)
        ratio = self.healthz_ms / median(ms)
        print(timing.line(label, ms, WIDTH))
        print(f"  {'':<{WIDTH}} ÷ healthz {ratio:5.2f}×  {at_least(ratio, RATIO)}   "
              f"{at_most(median(ms), MEDIAN_MS)}   queries {queries}   "
              f"first read {first_ms:7.1f} ms")  # fmt: skip
        if scale:
            self.scale.append((scale, size, median(ms), queries, ratio))


def table_of(hands: int, club, scorer, players):
    from clubs.services.hands import hand_record
    from clubs.services.sessions import session_create
    from tests.bench.bench_pages import PINGHU

    session = session_create(club=club, players=players, user=scorer, mode="single")
    for _ in range(hands):
        hand_record(session=session, data=PINGHU, user=scorer)
    return session


def tournament_of(players: int, rnd: random.Random):
    from tests.bench.bench_tournaments import enter_totals, make_tournament
    from tournaments import services
    from tournaments.models import Round

    t = make_tournament(f"read-{players}", players, 2, "random")
    for _ in range(2):
        round_ = services.round_start(tournament=t)
        services.round_seat(round_id=round_.pk)
        enter_totals(Round.objects.get(pk=round_.pk), rnd)
    services.standings_compute(tournament_id=t.pk)
    return t


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        where = setup(folder)
        from django.test import Client

        from clubs.models import Club, Role
        from tests.clubs.factories import (
            ClubFactory,
            MembershipFactory,
            PlayerFactory,
            UserFactory,
        )

        print(f"table page, standings, round page — in-process, {where}, N = {N}")
        club = ClubFactory(slug="bench-read", visibility=Club.Visibility.PUBLIC)
        user = UserFactory(username="bench-read-scorer")
        MembershipFactory(club=club, player=PlayerFactory(user=user), role=Role.SCORER)
        players = [MembershipFactory(club=club).player for _ in range(4)]
        started = time.perf_counter()
        tables = {n: table_of(n, club, user, players) for n in (*HANDS, 12)}
        print(f"  tables of {', '.join(str(n) for n in sorted(tables))} hands recorded"
              f" ({time.perf_counter() - started:.1f} s)")  # fmt: skip
        started = time.perf_counter()
        rnd = random.Random(2026)
        tournaments = {p: tournament_of(p, rnd) for p in PLAYERS}
        sizes = ", ".join(f"{p:,}" for p in PLAYERS)
        seconds = time.perf_counter() - started
        print(f"  tournaments of {sizes} players, 2 rounds seated and entered, standings"
              f" computed ({seconds:.1f} s)")  # fmt: skip
        analyze()

        visitor = Client(HTTP_ACCEPT_LANGUAGE="zh-Hans")
        scorer = Client(HTTP_ACCEPT_LANGUAGE="zh-Hans")
        scorer.force_login(user)
        health = Client()

        def healthz() -> None:
            assert health.get("/healthz?check=database").status_code == 200

        healthz_ms = timing.timed(healthz, N)
        print(timing.line("reference: GET /healthz?check=database", healthz_ms, WIDTH))
        bench = Bench(median(healthz_ms))
        for n in (12, *HANDS):
            path = f"/sessions/{tables[n].pk}/"
            bench.page(
                f"GET /sessions/<id>/ ({n} hands), a visitor",
                visitor,
                path,
                size=f"{n} hands",
                scale="table page (visitor)" if n in HANDS else "",
            )
            bench.page(f"GET /sessions/<id>/ ({n} hands), its scorer", scorer, path,
                       size=f"{n} hands",
                       scale="table page (scorer)" if n in HANDS else "")  # fmt: skip
        for p, t in tournaments.items():
            bench.page(f"GET /tournaments/<slug>/standings/ ({p:,} players)", visitor,
                       f"/tournaments/{t.slug}/standings/", size=f"{p:,} players",
                       scale="standings, first page")  # fmt: skip
        big = tournaments[PLAYERS[-1]]
        bench.page(f"GET /tournaments/<slug>/standings/?page=50 ({PLAYERS[-1]:,} players)",
                   visitor, f"/tournaments/{big.slug}/standings/?page=50")  # fmt: skip
        bench.page(f"GET /tournaments/<slug>/standings/?page=all ({PLAYERS[-1]:,} players)",
                   visitor, f"/tournaments/{big.slug}/standings/?page=all")  # fmt: skip
        for p, t in tournaments.items():
            bench.page(f"GET /tournaments/<slug>/rounds/2/print/ ({p:,} players)", visitor,
                       f"/tournaments/{t.slug}/rounds/2/print/", size=f"{p:,} players",
                       scale="round page (printed seating)")  # fmt: skip

        print("\nscale (in-process, read again; README):")
        print(f"  {'page':<32}{'size':>16}{'median ms':>11}{'queries':>9}{'÷ healthz':>11}")
        for page, size, ms, queries, ratio in bench.scale:
            print(f"  {page:<32}{size:>16}{ms:>11.2f}{queries:>9}{ratio:>10.2f}×")


if __name__ == "__main__":
    main()
