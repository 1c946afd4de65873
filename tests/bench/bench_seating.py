"""Seating quality and speed, printed side by side with the greedy swiss reference.

Run by ``make bench`` (never part of ``make test``), or by hand:
    PYTHONPATH=. .venv/bin/python tests/bench/bench_seating.py
(no Django needed; DJANGO_SETTINGS_MODULE is harmless).

Each event is played round by round through ``seat_round`` the way the Celery task does (the
balanced plan handed back each time). The reference is a whole greedy swiss event on the same
random standings each round (balanced ignores them; the reference is what a greedy swiss
event on those standings would give, as in shared/SEATING.md).
Targets (issue "Tournaments"): 0 repeated pairs for 16x5, 64x10, 32x8 and 48x10 balanced; any
size up to 1,024 players seated in <= 5 s a round and never more repeats than greedy swiss.
Only the repeat targets fail the run: times are figures to read, never pass/fail (the unit
suite asserts no time either). A round may take up to TIME_LIMIT_S before seating answers
``seating_timeout``; the last lines show how far below it the largest round stays.

Columns: repeats ours / greedy (event totals); "worse" = rounds in which ours created more
repeats than greedy swiss would have on our own history; max meetings of a pair; seat spread
(first-dealer seat counts, worst player); table spread; round 1 time (includes planning the
whole event for balanced), worst round and total.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.tournaments.seating.helpers import random_round  # noqa: E402
from tournaments.seating import (  # noqa: E402
    METHODS,
    TIME_LIMIT_S,
    RoundSeating,
    greedy_swiss,
    quality,
    seat_round,
)
from tournaments.seating.quality import meetings  # noqa: E402

Change = Callable[[list[int]], list[int]]


def repeats(history: list[RoundSeating]) -> int:
    return sum(m - 1 for m in meetings(history).values() if m > 1)


def run(
    label: str,
    players: int,
    rounds: int,
    method: str,
    *,
    changes: dict[int, Change] | None = None,
) -> tuple[str, int]:
    standings = random.Random(players * 1000 + rounds)
    ids = list(range(1, players + 1))
    ours: list[RoundSeating] = []
    greedy: list[RoundSeating] = []
    plan: tuple[RoundSeating, ...] = ()
    times: list[float] = []
    worse = 0
    result = None
    for r in range(rounds):
        if changes and r in changes:
            ids = changes[r](ids)
        # Random standings each round: swiss seats by them, balanced ignores them, and the
        # greedy reference is the swiss event those standings would give.
        standings.shuffle(ids)
        start = time.perf_counter()
        result = seat_round(
            method=method, players=ids, history=ours, total_rounds=rounds, seed=2026, plan=plan
        )
        times.append(time.perf_counter() - start)
        same_input = quality(ours, greedy_swiss(ids, ours))
        worse += result.quality.repeated_pairs_round > same_input.repeated_pairs_round
        ours.append(result.round)
        plan = result.plan
        greedy.append(greedy_swiss(ids, greedy))
    assert result is not None
    q = result.quality
    line = (
        f"{label:<22} {method:<9} {q.repeated_pairs:>5} / {repeats(greedy):<6} {worse:>5} "
        f"{q.max_meetings:>4} {q.seat_spread:>5} {q.table_spread:>5} "
        f"{times[0]:>8.3f} {max(times):>8.3f} {sum(times):>8.3f}"
    )
    return line, q.repeated_pairs


def large_round(method: str) -> tuple[float, int]:
    """Seconds and new repeats of the large round of tests/tournaments/seating/test_seat.py."""
    rng = random.Random(3)
    ids = list(range(1, 1024))
    history = [random_round(ids, rng) for _ in range(3)]
    start = time.perf_counter()
    result = seat_round(method=method, players=ids, history=history, total_rounds=10, seed=1)
    return time.perf_counter() - start, result.quality.repeated_pairs_round


def main() -> None:
    cases: list[tuple[str, int, int, str, dict[int, Change] | None, int | None]] = [
        ("16 x 5", 16, 5, "balanced", None, 0),
        ("64 x 10", 64, 10, "balanced", None, 0),
        ("32 x 8", 32, 8, "balanced", None, 0),
        ("48 x 10", 48, 10, "balanced", None, 0),
        ("32 x 10 (hard)", 32, 10, "balanced", None, None),
        ("128 x 8", 128, 8, "balanced", None, 0),
        ("256 x 10", 256, 10, "balanced", None, 0),
        ("1024 x 10", 1024, 10, "balanced", None, 0),
        ("17 x 5 (1 bye)", 17, 5, "balanced", None, None),
        ("16 x 5, 1 drops at r3", 16, 5, "balanced", {2: lambda ps: ps[1:]}, 0),
        ("1024 x 10", 1024, 10, "swiss", None, None),
        ("100 x 8", 100, 8, "swiss", None, None),
    ]
    print(__doc__.split("\n\n")[0].splitlines()[0])
    print(
        f"{'players x rounds':<22} {'method':<9} {'repeats ours/greedy':<19} {'worse':>5}"
        f" {'max':>4} {'seat':>5} {'table':>5} {'round 1 s':>8} {'worst s':>8} {'total s':>8}"
    )
    started = time.perf_counter()
    failed = []
    for label, players, rounds, method, changes, target in cases:
        line, got = run(label, players, rounds, method, changes=changes)
        print(line, flush=True)
        if target is not None and got != target:
            failed.append(label)
    print(f"all cases in {time.perf_counter() - started:.1f} s")
    print()
    print("one round of 1,023 players (no design fits, three byes) after three random rounds,")
    print(f"the unit suite's large round; target <= 5 s, time limit {TIME_LIMIT_S:g} s")
    for method in METHODS:
        seconds, new_repeats = large_round(method)
        print(f"  {method:<9} {seconds:>6.3f} s   new repeats {new_repeats}", flush=True)
    if failed:
        print("MISSED the 0-repeat target:", ", ".join(failed))
        sys.exit(1)


if __name__ == "__main__":
    main()
