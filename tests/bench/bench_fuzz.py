"""Fuzzed hand records, timed: the slowest answer and the 99th percentile, per preset and kind
of record, beside the target of issue 15 ("each answered in under 50 ms").

Run by ``make bench`` (never part of ``make test``: the unit suite fuzzes the same records,
``tests/scoring/engine/settle/test_fuzz.py``, and asserts no time). The records come from
``tests/scoring/engine/records.fuzz_record`` with seeds 0…N-1 (``BENCH_FUZZ_N`` per preset,
default 1,000), the kinds in turn: valid, declared, mixed (some declared, some shown), broken
(fields changed, dropped, added, repeated), padded to the engine's bounds (64 events, 8
bettors). Every preset of ``PRESETS`` is run, a new one included.

Two measures, each record answered once (what a client waits), after one warm-up per preset:

* the engine: ``settle(record)``, to a settlement or an ``EngineError``;
* the API: ``POST /api/v1/engine/settle`` in process through Django's test client (parsing
  the JSON, the bounds, the engine, the answer rendered), for every fourth record, on the
  benchmark's own database (``tests/bench/postgres.py``; the endpoint reads none).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from scoring.engine import PRESETS, EngineError  # noqa: E402
from scoring.engine.settle import settle  # noqa: E402
from tests.bench.postgres import bench_django  # noqa: E402
from tests.scoring.engine.records import KINDS, fuzz_record  # noqa: E402

N = int(os.environ.get("BENCH_FUZZ_N", "1000"))
TARGET_MS = 50
PG = os.environ.get("BENCH_PG", "host=127.0.0.1 port=5432 user=postgres")
DB = os.environ.get("BENCH_DB_FUZZ", "xuezhan_bench_fuzz")


def records(preset: str) -> list[tuple[str, dict]]:
    return [fuzz_record(random.Random(i), preset, KINDS[i % len(KINDS)]) for i in range(N)]


def engine_ms(record: dict) -> float:
    start = time.perf_counter()
    with contextlib.suppress(EngineError):
        settle(record)
    return (time.perf_counter() - start) * 1000


def api_ms(client, body: bytes) -> float:
    start = time.perf_counter()
    response = client.post("/api/v1/engine/settle", body, content_type="application/json")
    elapsed = (time.perf_counter() - start) * 1000
    assert response.status_code in (200, 400, 413), response.status_code
    return elapsed


def as_json(record: dict) -> bytes | None:
    """The record as a client sends it (a lone surrogate as its escape); None for one JSON
    cannot carry (an integer Python will not print)."""
    try:
        return json.dumps(record).encode()
    except ValueError:
        return None


def p99(ms: list[float]) -> float:
    ms = sorted(ms)
    return ms[max(0, int(len(ms) * 0.99) - 1)]


def line(label: str, ms: list[float]) -> str:
    worst = max(ms)
    verdict = "ok" if worst < TARGET_MS else "MISSED"
    return (
        f"  {label:<26} {len(ms):>5} records  median {statistics.median(ms):6.2f} ms  "
        f"p99 {p99(ms):6.2f} ms  max {worst:6.2f} ms   target < {TARGET_MS} ms each: {verdict}"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        where = bench_django(PG, DB, folder)
        from django.test import Client

        client = Client()
        print(f"settle on fuzzed records ({N} per preset; API on {where}, every fourth record)")
        every_engine, every_api, slowest = [], [], []
        for preset in PRESETS:
            batch = records(preset)
            # the batch frozen out of the collector (as a server's long-lived data is): the
            # figures are the engine's own work, not the collector walking the records
            gc.collect()
            gc.freeze()
            engine_ms(batch[0][1])  # warm-up: the preset's tables built, its caches filled
            api_ms(client, as_json(batch[0][1]) or b"{}")
            by_kind: dict[str, list[float]] = {kind: [] for kind in KINDS}
            api: list[float] = []
            for i, (kind, record) in enumerate(batch):
                ms = engine_ms(record)
                by_kind[kind].append(ms)
                slowest.append((ms, preset, kind, i, record))
                if i % 4 == 0 and (body := as_json(record)) is not None:
                    api.append(api_ms(client, body))
            for kind, ms in by_kind.items():
                print(line(f"{preset} {kind}", ms))
            print(line(f"{preset} through the API", api))
            every_engine += [t for ms in by_kind.values() for t in ms]
            every_api += api
            gc.unfreeze()
            slowest = sorted(slowest, key=lambda x: -x[0])[:5]
        print(line("every preset, engine", every_engine))
        print(line("every preset, API", every_api))
        # a slow answer is the record's work or the machine's (another process, the collector):
        # the five slowest again, best of three
        print("  the five slowest records again, best of 3 runs:")
        for ms, preset, kind, i, record in slowest:
            best = min(engine_ms(record) for _ in range(3))
            print(f"    {preset} {kind} seed {i}: {ms:6.2f} ms, then {best:6.2f} ms")


if __name__ == "__main__":
    main()
