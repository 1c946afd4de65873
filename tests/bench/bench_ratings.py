"""Ratings and statistics: the club ranking, a player's statistics, a full ratings recompute.

Run by ``make bench`` (never part of ``make test``). Targets (issue "Ratings, statistics and
awards"), server time, median:

* ``GET /api/v1/clubs/{slug}/ranking/`` over 500 players and 20,000 hands: ≤ 80 ms;
* ``GET /api/v1/players/{id}/stats/?club=…`` of a player with about 2,000 hands: ≤ 50 ms;
* ``manage.py ratings_recompute --ratings-only`` of 10,000 sessions: ≤ 3 s;
* (issue 25) the ratings-only recompute ≤ 2× openskill alone on the same tables (also when it
  rewrites every history row, after a change of model), the full recompute (lines + ratings)
  ≤ 3× the ratings-only one, at 10,000 sessions; 50,000 sessions measured, in a scale table
  of 500, 5,000 and 50,000 sessions.

Each printed beside a naive reference measured in the same run: the ranking and the statistics
computed by reading every hand's stored settlement in Python (what the read model saves), and
the recompute beside openskill's own rating of the same 10,000 tables in memory (the floor:
what is left is reading the lines and the stored history, and writing what moved — nothing
when the recompute finds what it left; the ratings-only recompute that rewrites all 40,000
rows, as after a change of model, is held to the same ≤ 2× openskill alone).

The data: ``tests/ratings/generate.py`` (bulk rows as a club's history would stand: closed
sessions of friends' tables, hands settled by the engine with their payments; a regular who
sits at one table in ten), then the statistics' lines and the ratings built by
``ratings_recompute`` (its time printed too). On a PostgreSQL database of its own
(``BENCH_PG``, default host=127.0.0.1 port=5432 user=postgres; ``BENCH_DB`` xuezhan_bench_ratings),
dropped and created afresh; SQLite in a temporary file when PostgreSQL cannot be used.
No cache: every request reads the database.
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
from tests.bench.targets import at_most  # noqa: E402

N = int(os.environ.get("BENCH_RATINGS_N", "30"))
HOST = "127.0.0.1"
PG = os.environ.get("BENCH_PG", f"host={HOST} port=5432 user=postgres")
DB = os.environ.get("BENCH_DB", "xuezhan_bench_ratings")
RECOMPUTE_RUNS = 3
SCALE_SIZES = (500, 5_000, 50_000)


def setup_django(folder: str) -> str:
    return bench_django(PG, DB, folder)


def timed(fn, n: int = N) -> list[float]:
    return timing.timed(fn, n)


def line(label: str, ms: list[float]) -> str:
    return timing.line(label, ms, 62)


def typed(record: dict, settlement: dict, fingerprint: str):
    """A stored hand's settlement, typed (as ``clubs.outcomes`` reads it)."""
    from scoring.services import pinned_by_fingerprint, stored_settlement

    rules = pinned_by_fingerprint(fingerprint)
    return stored_settlement(record=record, settlement=settlement, ruleset=rules)


def naive_ranking(club) -> int:
    """The ranking's figures from every hand's settlement, read and counted in Python."""
    from clubs.models import Hand, Seat
    from ratings.facts import session_facts

    seats: dict[int, list[int]] = {}
    for sid, pid in Seat.objects.filter(session__club=club).order_by("session_id", "number") \
            .values_list("session_id", "player_id"):  # fmt: skip
        seats.setdefault(sid, []).append(pid)
    by_session: dict[int, list] = {}
    for sid, number, record, settlement, fingerprint in (
        Hand.objects.filter(session__club=club, is_deleted=False)
        .order_by("session_id", "number")
        .values_list("session_id", "number", "record", "settlement", "ruleset_fingerprint")
    ):
        by_session.setdefault(sid, []).append((number, typed(record, settlement, fingerprint)))
    wins: dict[int, int] = {}
    for sid, hands in by_session.items():
        facts = session_facts(hands)
        for pid, f in zip(seats[sid], facts.seats, strict=True):
            wins[pid] = wins.get(pid, 0) + f.wins
    return len(wins)


def naive_stats(player) -> int:
    from clubs.models import Hand, Seat
    from ratings.facts import session_facts

    mine = dict(Seat.objects.filter(player=player).values_list("session_id", "number"))
    by_session: dict[int, list] = {}
    for sid, number, record, settlement, fingerprint in (
        Hand.objects.filter(session_id__in=list(mine), is_deleted=False)
        .order_by("session_id", "number")
        .values_list("session_id", "number", "record", "settlement", "ruleset_fingerprint")
    ):
        by_session.setdefault(sid, []).append((number, typed(record, settlement, fingerprint)))
    hands = 0
    for sid, rows in by_session.items():
        hands += session_facts(rows).seats[mine[sid]].hands
    return hands


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        where = setup_django(folder)
        from django.test import Client

        from clubs.models import Hand, Seat
        from ratings.services import club_recompute
        from tests.ratings.generate import generated_club

        print(f"ratings and statistics, in-process, {where}, N = {N}")
        started = time.perf_counter()
        big = generated_club(players=500, sessions=1250, hands_per_session=16, slug="bench-big")
        made = time.perf_counter() - started
        hands = Hand.objects.filter(session__club=big.club).count()
        started = time.perf_counter()
        club_recompute(club_id=big.club.pk)
        built = time.perf_counter() - started
        regular_hands = Seat.objects.filter(player=big.regular).count() * 16
        print(f"  data: 500 players, 1,250 sessions, {hands:,} hands ({made:.1f} s to write);"
              f" the regular: {regular_hands:,} hands")  # fmt: skip
        print(f"  statistics' lines and ratings built from the hands: {built:.2f} s")

        client = Client()
        ranking_url = f"/api/v1/clubs/{big.club.slug}/ranking/"
        stats_url = f"/api/v1/players/{big.regular.pk}/stats/?club={big.club.slug}"

        def ranking():
            r = client.get(ranking_url)
            assert r.status_code == 200, r.content[:300]

        def stats():
            r = client.get(stats_url)
            assert r.status_code == 200, r.content[:300]

        print(line("GET /api/v1/clubs/{slug}/ranking/ (500 players, 20,000 hands)",
                   timed(ranking)))  # fmt: skip
        print(line("  naive: every hand's settlement read and counted", timed(
            lambda: naive_ranking(big.club), n=3)))  # fmt: skip
        print(line("GET /api/v1/players/{id}/stats/ (the regular)", timed(stats)))
        print(line("  naive: his hands' settlements read and counted", timed(
            lambda: naive_stats(big.regular), n=5)))  # fmt: skip

        recompute_vs_floor()
        scale_table()


def openskill_floor(club):
    """openskill's own rating of the club's tables, in memory (the floor of a recompute:
    what is left is reading the lines and writing the history)."""
    from ratings import system
    from ratings.models import SessionLine

    lines = list(
        SessionLine.objects.filter(club=club)
        .order_by("started_at", "session_id", "seat")
        .values_list("session_id", "player_id", "place")
    )
    tables = [lines[i : i + 4] for i in range(0, len(lines), 4)]

    def openskill_only():
        skills: dict[int, system.Skill] = {}
        for table in tables:
            rated_seats = system.rate_table(
                [skills.get(p, system.Skill()) for _, p, _ in table], [pl for _, _, pl in table]
            )
            for (_, p, _), r in zip(table, rated_seats, strict=True):
                skills[p] = r.after

    return openskill_only


def plain_floor(club):
    """The same tables rated by ``system.rate_seats``, the plain-float arithmetic the
    recompute itself runs (openskill's results to the last bit, without its objects)."""
    from ratings import system
    from ratings.models import SessionLine

    lines = list(
        SessionLine.objects.filter(club=club)
        .order_by("started_at", "session_id", "seat")
        .values_list("session_id", "player_id", "place")
    )
    tables = [lines[i : i + 4] for i in range(0, len(lines), 4)]
    new = (system.MU, system.SIGMA)

    def plain_only():
        skills: dict[int, tuple[float, float]] = {}
        for table in tables:
            rated = system.rate_seats(
                [skills.get(p, new) for _, p, _ in table], [pl for _, _, pl in table]
            )
            for (_, p, _), r in zip(table, rated, strict=True):
                skills[p] = (r.mu, r.sigma)

    return plain_only


def every_row_rewritten(club):
    """A ratings-only recompute after a change of model: every history row and rating names
    another rating system (set before the clock starts), so each is written again."""
    from ratings.models import Rating, RatingChange, RatingPool
    from ratings.services import club_recompute

    pool = RatingPool.objects.get(club=club, tournament__isnull=True)
    other = pool.system
    other.pk, other.key = None, "the bench's older model"
    other.save()

    def rewrite():
        RatingChange.objects.filter(pool=pool).update(system=other)
        Rating.objects.filter(pool=pool).update(system=other)
        started = time.perf_counter()
        club_recompute(club_id=club.pk, lines=False)
        return time.perf_counter() - started

    return rewrite


def club_of(sessions: int, slug: str):
    """A club of ``sessions`` closed sessions of entered totals, a player for 25 sessions,
    its lines and ratings built once."""
    from ratings.services import club_recompute
    from tests.ratings.generate import generated_club

    gen = generated_club(players=max(20, sessions // 25), sessions=sessions, slug=slug)
    club_recompute(club_id=gen.club.pk)
    analyze()
    return gen.club


def recompute_vs_floor() -> None:
    """Issue 25's ratios at 10,000 sessions: the ratings-only recompute beside openskill
    alone, the full recompute (lines + ratings) beside the ratings-only one; the three
    alternate, so each sees the same machine."""
    from ratings.services import club_recompute

    club = club_of(10_000, "bench-many")
    floor = openskill_floor(club)
    full, ratings_only, alone = [], [], []
    floor()
    for _ in range(RECOMPUTE_RUNS):
        for fn, out in (
            (lambda: club_recompute(club_id=club.pk), full),
            (lambda: club_recompute(club_id=club.pk, lines=False), ratings_only),
            (floor, alone),
        ):
            started = time.perf_counter()
            fn()
            out.append(time.perf_counter() - started)
    full_s, ratings_s, alone_s = (statistics.median(x) for x in (full, ratings_only, alone))
    print(f"  recompute of 10,000 sessions (400 players), median of {RECOMPUTE_RUNS}:")
    print(f"    full (lines + ratings, ratings_recompute):        {full_s:6.2f} s")
    print(f"    ratings only (ratings_recompute --ratings-only):  {ratings_s:6.2f} s   "
          f"{at_most(ratings_s, 3, ' s')} (issue 'Ratings')")  # fmt: skip
    print(f"    openskill alone on the same tables, in memory:    {alone_s:6.2f} s")
    print(f"    ratings only ÷ openskill alone: {ratings_s / alone_s:5.2f}×   "
          f"{at_most(ratings_s / alone_s, 2, '×')}")  # fmt: skip
    print(f"    full ÷ ratings only:            {full_s / ratings_s:5.2f}×   "
          f"{at_most(full_s / ratings_s, 3, '×')}")  # fmt: skip
    plain = statistics.median(seconds(plain_floor(club), RECOMPUTE_RUNS))
    rewrite = every_row_rewritten(club)
    rewritten = statistics.median(rewrite() for _ in range(RECOMPUTE_RUNS))
    print("    (what a recompute that finds its rows as it left them skips, and the rating's")
    print("     own arithmetic:)")
    print(f"    ratings only, every history row rewritten (a new model): {rewritten:6.2f} s")
    print(f"      ÷ openskill alone: {rewritten / alone_s:5.2f}×   "
          f"{at_most(rewritten / alone_s, 2, '×')}")  # fmt: skip
    print(f"    the same tables in plain floats (system.rate_seats):     {plain:6.2f} s")


def scale_table() -> None:
    """The recompute at three sizes, ×10 each (one run each at the largest): time per
    session stays flat when the work grows linearly."""
    from ratings.services import club_recompute

    print(f"  scale: the recompute at ×10 sizes ({SCALE_SIZES[-1]:,} sessions measured once)")
    print(f"    {'sessions':>9} {'players':>8} {'full':>9} {'ratings only':>13} "
          f"{'openskill':>10} {'full µs/session':>16}")  # fmt: skip
    for sessions in SCALE_SIZES:
        club = club_of(sessions, f"bench-scale-{sessions}")
        runs = 1 if sessions == SCALE_SIZES[-1] else 3
        full = statistics.median(seconds(lambda c=club: club_recompute(club_id=c.pk), runs))
        ratings = statistics.median(
            seconds(lambda c=club: club_recompute(club_id=c.pk, lines=False), runs)
        )
        alone = statistics.median(seconds(openskill_floor(club), runs))
        print(f"    {sessions:>9,} {max(20, sessions // 25):>8,} {full:>8.2f}s {ratings:>12.2f}s "
              f"{alone:>9.2f}s {full / sessions * 1e6:>16,.0f}")  # fmt: skip
    print(f"    {SCALE_SIZES[-1]:,} sessions measured: see the last row (issue 25)")


def seconds(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        out.append(time.perf_counter() - started)
    return out


if __name__ == "__main__":
    main()
