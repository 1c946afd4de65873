"""Timing shared by the benchmarks: run a thing N times after a warm-up, print median and p90."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def timed(fn: Callable[[], object], n: int) -> list[float]:
    """Milliseconds of ``n`` runs of ``fn``, after one run that is not counted (templates
    compiled, rules pinned, caches of the database warm)."""
    fn()
    out = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def line(label: str, ms: list[float], width: int = 58) -> str:
    ms = sorted(ms)
    p90 = ms[max(0, int(len(ms) * 0.9) - 1)]
    return f"  {label:<{width}} median {statistics.median(ms):8.2f} ms   p90 {p90:8.2f} ms"
