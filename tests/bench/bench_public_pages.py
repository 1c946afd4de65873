"""The pages players look at: the club ranking, a player's profile, tournament standings.

Run by ``make bench`` (never part of ``make test``). Targets (issue "Pages players look at"),
server time, median, the whole request in-process through Django's test client (middleware,
language, template rendering), an anonymous visitor of a public club, Chinese:

* ``GET /clubs/{slug}/ranking/`` over 500 players and 20,000 hands: ≤ 80 ms;
* ``GET /players/{id}/`` of a player with about 2,000 hands: ≤ 80 ms;
* ``GET /tournaments/{slug}/standings/`` of 1,000 players: ≤ 80 ms.
* ``GET /tournaments/{slug}/report/``, a round's printed seating and the round desk (an
  organiser's), 256 players: ≤ 80 ms.

Each printed beside its reference measured in the same run: the JSON API of the same data
(``/api/v1/clubs/{slug}/ranking/``, ``/api/v1/players/{id}/stats/``,
``/api/v1/tournaments/{slug}/standings/``), so what a page adds to its read is in view. A page
that is not there yet says ``page not built: <path> answered 404`` and the rest goes on.

The data: the club of ``tests/ratings/generate.py`` (500 players, 1,250 closed sessions of 16
hands settled by the engine, a regular who sits at one table in ten), its statistics' lines,
ratings and award holders built by ``ratings.services.club_recompute``; and a tournament of
1,000 registered players, :data:`ROUNDS` rounds seated by ``round_seat`` with zero-sum totals
written in bulk (as ``bench_tournaments.py`` builds its big one), its standings computed. On a
PostgreSQL database of its own (``BENCH_PG``, default host=127.0.0.1 port=5432 user=postgres;
``BENCH_DB_PUBLIC_PAGES``, default xuezhan_bench_public_pages), dropped and created afresh;
SQLite in a temporary file when PostgreSQL cannot be used. No cache: every request reads the
database. The data built, its tables are analysed (``ANALYZE``, as autovacuum would on a live
server: this one may run without it, and a never-analysed database is planned blind).
``BENCH_PUBLIC_PAGES_N`` runs per figure (default 30).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import timing  # noqa: E402
from tests.bench.postgres import analyze, bench_django  # noqa: E402

N = int(os.environ.get("BENCH_PUBLIC_PAGES_N", "30"))
HOST = "127.0.0.1"
PG = os.environ.get("BENCH_PG", f"host={HOST} port=5432 user=postgres")
DB = os.environ.get("BENCH_DB_PUBLIC_PAGES", "xuezhan_bench_public_pages")
TARGET_MS = 80
PLAYERS, ROUNDS = 1000, 6
#: the tournament day's report and round pages are measured at this size
DAY_PLAYERS = 256


def setup_django(folder: str) -> str:
    return bench_django(PG, DB, folder)


def line(label: str, ms: list[float], target: bool = False) -> str:
    out = timing.line(label, ms, 62)
    if target:
        verdict = "ok" if statistics.median(ms) <= TARGET_MS else "MISSED"
        out += f"   target ≤ {TARGET_MS} ms: {verdict}"
    return out


def big_tournament(rnd: random.Random, players: int = PLAYERS, slug: str = "bench-public-open"):
    """``players`` registered players, ROUNDS rounds seated with their totals in, standings
    computed (the way ``bench_tournaments.py`` builds its 1,000-player one)."""
    from tests.bench.bench_tournaments import enter_totals, make_tournament
    from tournaments import services
    from tournaments.models import Round

    t = make_tournament(slug, players, ROUNDS, "random")
    for _ in range(ROUNDS):
        round_ = services.round_start(tournament=t)
        services.round_seat(round_id=round_.pk)
        enter_totals(Round.objects.get(pk=round_.pk), rnd)
    services.standings_compute(tournament_id=t.pk)
    return t


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        where = setup_django(folder)
        from django.test import Client

        from clubs.models import Hand, Seat
        from ratings.services import club_recompute
        from tests.ratings.generate import generated_club

        print(f"pages players look at, in-process, {where}, N = {N}")
        started = time.perf_counter()
        big = generated_club(players=500, sessions=1250, hands_per_session=16, slug="bench-public")
        club_recompute(club_id=big.club.pk)
        hands = Hand.objects.filter(session__club=big.club).count()
        regular_hands = Seat.objects.filter(player=big.regular).count() * 16
        built = time.perf_counter() - started
        print(f"  club: 500 players, 1,250 sessions, {hands:,} hands, lines and ratings built"
              f" ({built:.1f} s); the regular: {regular_hands:,} hands")  # fmt: skip
        started = time.perf_counter()
        tournament = big_tournament(random.Random(2026))
        day = big_tournament(random.Random(2027), players=DAY_PLAYERS, slug="bench-public-day")
        print(f"  tournaments: {PLAYERS:,} and {DAY_PLAYERS} players, {ROUNDS} rounds seated and"
              f" entered, standings computed ({time.perf_counter() - started:.1f} s)")  # fmt: skip
        analyze()  # the planner's statistics, as a live server's autovacuum gathers them

        client = Client(HTTP_ACCEPT_LANGUAGE="zh-Hans")
        director = Client(HTTP_ACCEPT_LANGUAGE="zh-Hans")
        from clubs.models import Role
        from tests.helpers import member_login

        director.force_login(member_login(day.club, Role.ORGANISER, "bench-director"))
        club, player, t = big.club.slug, big.regular.pk, tournament.slug
        figures = (
            (f"/clubs/{club}/ranking/", "GET /clubs/{slug}/ranking/ (500 players, 20,000 hands)",
             f"/api/v1/clubs/{club}/ranking/", "  reference: GET /api/v1/clubs/{slug}/ranking/"),
            (f"/players/{player}/", f"GET /players/{{id}}/ (the regular, {regular_hands:,} hands)",
             f"/api/v1/players/{player}/stats/", "  reference: GET /api/v1/players/{id}/stats/"),
            (f"/tournaments/{t}/standings/", "GET /tournaments/{slug}/standings/ (1,000 players)",
             f"/api/v1/tournaments/{t}/standings/",
             "  reference: GET /api/v1/tournaments/{slug}/standings/"),
            # the tournament day's pages (issue 23): its report and a round's seating
            (f"/tournaments/{day.slug}/report/", f"GET /tournaments/{{slug}}/report/ ({DAY_PLAYERS}"
             f" players, {ROUNDS} rounds)", f"/api/v1/tournaments/{day.slug}/standings/",
             "  reference: GET /api/v1/tournaments/{slug}/standings/"),
            (f"/tournaments/{day.slug}/rounds/{ROUNDS}/print/", f"GET /tournaments/{{slug}}/rounds/"
             f"{{n}}/print/ ({DAY_PLAYERS} players)", f"/api/v1/tournaments/{day.slug}/rounds/"
             f"{ROUNDS}/", "  reference: GET /api/v1/tournaments/{slug}/rounds/{n}/"),
            (f"/tournaments/{day.slug}/desk/", f"GET /tournaments/{{slug}}/desk/ (the round desk, "
             f"{DAY_PLAYERS} players, {DAY_PLAYERS // 4} tables)", f"/api/v1/tournaments/"
             f"{day.slug}/rounds/{ROUNDS}/",
             "  reference: GET /api/v1/tournaments/{slug}/rounds/{n}/", director),
        )  # fmt: skip
        for page, page_label, api, api_label, *who in figures:
            reader = who[0] if who else client
            first = reader.get(page)
            if first.status_code == 404:
                print(f"  page not built: {page} answered 404")
            else:
                assert first.status_code == 200, (page, first.status_code)

                def get_page(path=page, reader=reader):
                    r = reader.get(path)
                    assert r.status_code == 200, (path, r.status_code)

                print(line(page_label, timing.timed(get_page, N), target=True))

            def get_api(path=api):
                r = client.get(path)
                assert r.status_code == 200, (path, r.status_code, r.content[:300])

            print(line(api_label, timing.timed(get_api, N)))

        # a share card as PNG: drawn once per content (a new card each time here), then cached
        from pages.cards.png import png_of

        svg = client.get(f"/players/{player}/card.svg").content.decode()
        fresh = iter(range(10**6))

        def draw() -> bytes:
            return png_of(svg.replace("</svg>", f"<!--{next(fresh)}--></svg>"))

        print(line("player card.png, drawn (a new card each time)", timing.timed(draw, N),
                   target=True))  # fmt: skip
        print(line("player card.png, served from the cache",
                   timing.timed(lambda: client.get(f"/players/{player}/card.png"), N)))  # fmt: skip
        print(line("  reference: the same card as SVG",
                   timing.timed(lambda: client.get(f"/players/{player}/card.svg"), N)))  # fmt: skip


if __name__ == "__main__":
    main()
