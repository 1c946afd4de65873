"""Standings throughput: 1,000 players x 10 rounds, side by side with a naive reference.

Run by ``make bench`` (never part of ``make test``), or alone:
``PYTHONPATH=. .venv/bin/python tests/bench/bench_standings.py``. One core, CPython, median of 5.
Target (issue 6): standings for 1,000 players x 10 rounds recomputed in <= 1 s; aim < 0.2 s.

The reference is what a first version would do: ``placement_points()`` per table, Fraction
sums per player, then one sort by (placement points, table score). It has no byes, no
validation, no further tiebreaks and no per-round detail, so it is a floor for the work, not an
equivalent; the two orders are compared on those two keys to show they agree.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tournaments.standings import (  # noqa: E402
    StandingsRules,
    TableResult,
    compute_standings,
    placement_points,
)

RUNS = 5
PLAYERS = 1_000
ROUNDS = 10
TARGET_S = 1.0
AIM_S = 0.2


def build(seed: int, players: int, rounds: int, spread: int):
    """Random zero-sum tables; players beyond a multiple of four get byes in turn."""
    rnd = random.Random(seed)
    ids = list(range(1, players + 1))
    results: list[TableResult] = []
    byes: list[tuple[int, int]] = []
    for r in range(1, rounds + 1):
        rnd.shuffle(ids)
        tables = players // 4
        for t in range(tables):
            three = [rnd.randint(-spread, spread) for _ in range(3)]
            seats = ids[4 * t : 4 * t + 4]
            results.append(
                TableResult(r, t + 1, tuple(zip(seats, [*three, -sum(three)], strict=True)))
            )
        byes.extend((r, p) for p in ids[4 * tables :])
    return list(range(1, players + 1)), results, byes


def naive(players, results):
    points: dict[int, Fraction] = defaultdict(Fraction)
    scores: dict[int, int] = defaultdict(int)
    for result in results:
        for player, share in placement_points(result.scores).items():
            points[player] += share
        for player, score in result.scores:
            scores[player] += score
    return sorted(players, key=lambda p: (points[p], scores[p], -p), reverse=True)


def median_s(fn) -> float:
    # Inputs are long-lived in the Celery task too: keep the collector off them, on for the rest.
    gc.collect()
    gc.freeze()
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    gc.unfreeze()
    return statistics.median(times)


def main() -> None:
    print(
        f"Standings benchmark — CPython {sys.version.split()[0]}, {PLAYERS:,} players x "
        f"{ROUNDS} rounds, median of {RUNS} runs\n"
    )
    header = (
        f"{'case':<34}{'tables':>7}{'shared':>7}{'h2h≠0':>7}"
        f"{'standings':>11}{'naive':>9}{'ratio':>7}  verdict"
    )
    print(header)
    print("-" * len(header))
    default = StandingsRules()
    # Head-to-head alone: the whole field is one tied group, the worst case for that criterion.
    h2h_only = StandingsRules(tiebreaks=("head_to_head",))
    cases = [
        ("wide scores (-40..40)", PLAYERS, 40, default),
        ("narrow scores (-2..2), many ties", PLAYERS, 2, default),
        ("1,002 players (2 byes a round)", PLAYERS + 2, 40, default),
        ("head-to-head over all 1,000", PLAYERS, 40, h2h_only),
    ]
    worst = 0.0
    for label, players, spread, rules in cases:
        ids, results, byes = build(2026, players, ROUNDS, spread)
        out = compute_standings(players=ids, results=results, byes=byes, rules=rules)
        fast = median_s(
            lambda ids=ids, results=results, byes=byes, rules=rules: compute_standings(
                players=ids, results=results, byes=byes, rules=rules
            )
        )
        ref = median_s(lambda ids=ids, results=results: naive(ids, results))
        worst = max(worst, fast)
        if not byes and rules == default:
            # Same two leading keys, so the orders must agree wherever those keys differ.
            keys = {s.player: (s.placement_points, s.table_score) for s in out}
            ref_keys = [keys[p] for p in naive(ids, results)]
            assert ref_keys == [(s.placement_points, s.table_score) for s in out]
        shared = sum(s.shared for s in out)
        by_h2h = sum(s.head_to_head != 0 for s in out)
        verdict = "ok" if fast <= AIM_S else ("ok (> aim)" if fast <= TARGET_S else "MISSED")
        print(
            f"{label:<34}{len(results):>7,}{shared:>7,}{by_h2h:>7,}"
            f"{fast * 1e3:>9.1f}ms{ref * 1e3:>7.1f}ms{fast / ref:>6.1f}x  {verdict}"
        )
    print(
        f"\nworst case {worst * 1e3:.1f} ms; target ≤ {TARGET_S * 1e3:.0f} ms (issue 6), "
        f"aim < {AIM_S * 1e3:.0f} ms"
    )
    if worst > TARGET_S:
        sys.exit(1)


if __name__ == "__main__":
    main()
