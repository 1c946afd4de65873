"""Tournaments through Django and PostgreSQL: seating a round and recomputing standings.

Run by ``make bench`` (never part of ``make test``). Targets (issue "Tournaments"): one round
seated in ≤ 5 s for any size up to 1,024 players; standings for 1,000 players × 10 rounds
recomputed in ≤ 1 s and served in ≤ 50 ms.

What it does: drop and recreate the database ``xuezhan_bench_tournaments`` on 127.0.0.1:5432
(a "skipped: …" line and exit 0 when PostgreSQL does not answer), migrate it, then:

* seat rounds of a 1,024-player tournament through the service the Celery task runs
  (``round_seat``: reads the history, seats, writes 256 table sessions, 1,024 seats, 256
  tables in one transaction), balanced and swiss, and print each round's time beside the
  pure greedy swiss seating of the same players (the reference);
* build a 1,000-player × 10-round tournament (2,500 tables with entered totals), time
  ``standings_compute`` (load the results, compute, write the snapshot; median of 5), and
  serve ``GET /tournaments/{slug}/standings/`` in-process (median of 20), with ``/healthz``
  as the reference.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.postgres import recreate_database  # noqa: E402
from tests.bench.targets import at_most  # noqa: E402

HOST = "127.0.0.1"
PG = os.environ.get("BENCH_PG", f"host={HOST} port=5432 user=postgres")
DB = os.environ.get("BENCH_DB_TOURNAMENTS", "xuezhan_bench_tournaments")


def setup_django() -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"postgres://postgres@{HOST}:5432/{DB}",
        DEBUG="false",
        LOG_LEVEL="WARNING",
        THROTTLE_ANON="100000000/min",
        THROTTLE_USER="100000000/min",
    )
    os.environ.pop("CELERY_BROKER_URL", None)  # tasks queued on commit run in-process
    import logging
    import warnings

    import django

    # the bench serves no static files, and its in-memory broker has no host: say nothing
    warnings.filterwarnings("ignore", message="No directory at")
    logging.getLogger("kombu.connection").setLevel(logging.ERROR)
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from config.celery import app

    # tasks queued on commit go to the in-memory broker, unconsumed: the bench runs and times
    # their bodies itself
    app.conf.task_always_eager = False


def make_tournament(slug: str, players: int, rounds: int, seating: str):
    from tests.clubs.factories import ClubFactory, UserFactory
    from tournaments import services
    from tournaments.models import Registration

    user = UserFactory()
    club = ClubFactory(slug=f"club-{slug}")
    t = services.tournament_create(
        name=slug, slug=slug, user=user, club=club, rounds=rounds, seating=seating, seed=7
    )
    from clubs.models import Player

    made = Player.objects.bulk_create(Player(name=f"{slug}-{i}") for i in range(players))
    Registration.objects.bulk_create(
        Registration(tournament=t, player=p, seed_rating=3000 - i) for i, p in enumerate(made)
    )
    return t


def enter_totals(round_, rnd: random.Random) -> None:
    """Zero-sum totals for every table of a round, written in bulk (the setup, not timed)."""
    from clubs.models import Seat, SessionResult

    seats = Seat.objects.filter(session__tournament_table__round=round_).order_by(
        "session_id", "number"
    )
    by_session: dict[int, list[int]] = {}
    for s in seats.values_list("session_id", "player_id"):
        by_session.setdefault(s[0], []).append(s[1])
    rows = []
    for session_id, players in by_session.items():
        a, b, c = rnd.randint(-40, 40), rnd.randint(-40, 40), rnd.randint(-40, 40)
        for p, total in zip(players, (a, b, c, -a - b - c), strict=True):
            rows.append(SessionResult(session_id=session_id, player_id=p, total=total))
    SessionResult.objects.bulk_create(rows)


def seat_next(t) -> tuple[float, object]:
    from tournaments import services
    from tournaments.models import Round

    round_ = services.round_start(tournament=t)  # queued task: run here, timed
    start = time.perf_counter()
    services.round_seat(round_id=round_.pk)
    seconds = time.perf_counter() - start
    return seconds, Round.objects.get(pk=round_.pk)


def bench_seating(rnd: random.Random) -> None:
    from tournaments import selectors
    from tournaments.seating import greedy_swiss, quality

    print("Seating one round through round_seat (read history, seat, write), 1,024 players")
    print(f"{'method':<10}{'round':>6}{'seconds':>9}{'repeats':>9}  "
          f"{'greedy swiss: seconds':>22}{'repeats':>9}")  # fmt: skip
    for method, rounds in (("balanced", 4), ("swiss", 10)):
        t = make_tournament(f"seat-{method}", 1024, rounds, method)
        for n in range(1, rounds + 1):
            seconds, round_ = seat_next(t)
            history_rounds = selectors.seated_rounds(t, before=n)
            seats = selectors.seatings(history_rounds)
            history = [seats[r.number] for r in history_rounds]
            # the reference seats the same players in the order ours got them
            order = [
                p for (p,) in t.registrations.order_by("-seed_rating").values_list("player_id")
            ]
            if method == "swiss" and n > 1:
                standings, _, _ = selectors.standings_now(t, before_round=n)
                order = [s.player for s in standings]
            start = time.perf_counter()
            ref = greedy_swiss(order, history)
            ref_seconds = time.perf_counter() - start
            print(f"{method:<10}{n:>6}{seconds:>9.2f}{round_.quality['repeated_pairs']:>9}  "
                  f"{ref_seconds:>22.2f}{quality(history, ref).repeated_pairs:>9}   "
                  f"{at_most(seconds, 5, ' s')}")  # fmt: skip
            enter_totals(round_, rnd)


def bench_standings(rnd: random.Random) -> None:
    from django.test import Client

    from tournaments import selectors, services
    from tournaments.models import Round
    from tournaments.standings import compute_standings

    t = make_tournament("standings", 1000, 10, "random")
    for _ in range(10):
        round_ = services.round_start(tournament=t)
        services.round_seat(round_id=round_.pk)
        enter_totals(Round.objects.get(pk=round_.pk), rnd)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        result = services.standings_compute(tournament_id=t.pk)
        times.append(time.perf_counter() - start)
    # the pure computation of the same standings, its inputs in memory (issue 25: ≤ 2×)
    results = list(selectors.table_results(t).values())
    rounds = selectors.seated_rounds(t)
    byes = [(r.number, p) for r in rounds for p in r.byes]
    ids = [p for (p,) in t.registrations.values_list("player_id")]
    pure = []
    for _ in range(5):
        start = time.perf_counter()
        compute_standings(players=ids, results=results, byes=byes, rules=selectors.rules_of(t))
        pure.append(time.perf_counter() - start)
    recompute_s, pure_s = statistics.median(times), statistics.median(pure)
    print(f"\nStandings, 1,000 players × 10 rounds (2,500 tables), version {result['version']}")
    print(f"  recompute (load + compute + snapshot): {recompute_s * 1000:8.0f} ms"
          f"   (reading results + computing: {result['seconds'] * 1000:.0f} ms)"
          f"   target ≤ 1,000 ms")  # fmt: skip
    print(f"    ÷ the pure computation ({pure_s * 1000:.0f} ms): {recompute_s / pure_s:.2f}×"
          f"   {at_most(recompute_s / pure_s, 2, '×')} (issue 25)")  # fmt: skip
    client = Client()
    url = f"/api/v1/tournaments/{t.slug}/standings/"
    assert client.get(url).status_code == 200

    def served(path: str, cold: bool = False) -> float:
        samples = []
        for _ in range(20):
            if cold:  # as the first reader of a new snapshot finds it
                selectors._snapshot_table.cache_clear()
            start = time.perf_counter()
            response = client.get(path)
            samples.append(time.perf_counter() - start)
            assert response.status_code == 200
        return statistics.median(samples) * 1000

    print(f"  served (GET standings, 1,000 rows):    {served(url):8.1f} ms   target ≤ 50 ms")
    print(f"    the first read of a new snapshot:     {served(url, cold=True):8.1f} ms")
    print(f"  reference: GET /healthz                {served('/healthz'):8.1f} ms")


def main() -> None:
    reason = recreate_database(PG, DB)
    if reason:
        print(f"skipped: {reason}")
        return
    setup_django()
    rnd = random.Random(2026)
    bench_seating(rnd)
    bench_standings(rnd)


if __name__ == "__main__":
    main()
