"""Rules-engine throughput, printed side by side with the recursive reference.

Run by ``make bench`` (never part of ``make test``). One core, CPython, median of 5 runs.
Targets (issue "Rules engine I"): evaluate ≥ 500,000 hands/s; waits + 查叫 ≥ 100,000 hands/s;
notation → result with explanation lines ≥ 50,000 hands/s; import + tables ≤ 0.5 s, ≤ 30 MB.
Issue 25: ``readiness`` (the checked public path: tiles in, every wait with its values, 查叫)
≥ 0.5× the table-driven waits + 查叫 of the same hands, timed run for run beside them.
Then a table per preset of ``PRESETS`` (every one, so a new preset gets its row): evaluate
hands/s and settle records/s, the same hands and records with only the ruleset swapped.
"""

from __future__ import annotations

import gc
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from scoring.engine import (  # noqa: E402
    PRESETS,
    EngineError,
    Meld,
    MeldGroup,
    chajiao_value,
    evaluate,
    evaluate_tiles,
    format_tiles,
    parse_winning_hand,
    readiness,
    resolve_ruleset,
)
from scoring.engine.melds import NO_MELDS  # noqa: E402
from scoring.engine.settle import parse_record, settle  # noqa: E402
from scoring.engine.shapes import hand_key  # noqa: E402
from tests.bench.targets import at_least, at_most, verdict  # noqa: E402
from tests.scoring.engine.records import DRAWN, XUEZHAN  # noqa: E402
from tests.scoring.engine.reference import reference_evaluate, reference_waits  # noqa: E402

#: 血战: two kongs, three wins (two self-drawn), two 叫马 bettors
TYPICAL_RECORD = {
    "ruleset": "qq",
    **XUEZHAN,
    "bettors": [{"name": "老王", "tile": "1m"}, {"name": "小李", "tile": "9p"}],
}

#: one self-drawn win, then 流局 with three players showing: 查叫 for all three
DRAWN_RECORD = {"ruleset": "qq", **DRAWN}

RUNS = 5


def random_hand(rnd: random.Random, winning: bool) -> list[int]:
    """Fourteen tiles of one or two suits; ``winning`` builds four sets and a pair."""
    while True:
        suits = rnd.sample(range(3), rnd.choice((1, 2, 2)))
        if winning:
            tiles = [rnd.choice(suits) * 9 + rnd.randrange(9)] * 2
            for _ in range(4):
                s = rnd.choice(suits) * 9
                if rnd.random() < 0.6:
                    r = rnd.randrange(7)
                    tiles += [s + r, s + r + 1, s + r + 2]
                else:
                    tiles += [s + rnd.randrange(9)] * 3
        else:
            pool = [s * 9 + r for s in suits for r in range(9) for _ in range(4)]
            tiles = rnd.sample(pool, 14)
        if max(tiles.count(t) for t in set(tiles)) <= 4:
            return sorted(tiles)


def rate(fn, items) -> float:
    """Median items/s over RUNS runs.

    The inputs built for the run are frozen out of the garbage collector first (as a server's
    long-lived data is), so the figure is the engine's own work, not the collector walking
    tens of thousands of test hands; the collector stays on for what the engine allocates.
    """
    gc.collect()
    gc.freeze()
    rates = []
    for _ in range(RUNS):
        start = time.perf_counter()
        fn(items)
        rates.append(len(items) / (time.perf_counter() - start))
    gc.unfreeze()
    return statistics.median(rates)


def paired_rates(fn, anchor, items, anchor_items=None) -> tuple[float, float, float]:
    """(items/s of ``fn``, items/s of ``anchor``, the median of their ratios), each of RUNS runs
    of ``fn`` timed right after one of ``anchor``: on a shared machine the ratio is of one
    moment, whatever else is running."""
    anchor_items = items if anchor_items is None else anchor_items
    gc.collect()
    gc.freeze()
    rates, anchor_rates, ratios = [], [], []
    for _ in range(RUNS):
        start = time.perf_counter()
        anchor(anchor_items)
        anchor_rates.append(len(anchor_items) / (time.perf_counter() - start))
        start = time.perf_counter()
        fn(items)
        rates.append(len(items) / (time.perf_counter() - start))
        ratios.append(rates[-1] / anchor_rates[-1])
    gc.unfreeze()
    return statistics.median(rates), statistics.median(anchor_rates), statistics.median(ratios)


def ratio_row(label: str, rate_: float, ratio: float, anchor: str, target: float) -> None:
    print(f"{label:<46}{rate_:>12,.0f}/s   {ratio:.2f}× {anchor}   {at_least(ratio, target)}")


def melded_waiting_hands(rnd: random.Random, n: int) -> list[tuple[list[int], tuple[Meld, ...]]]:
    """Waiting hands with one to three melds (pungs and kongs): a winning hand less a tile."""
    out = []
    while len(out) < n:
        suits = rnd.sample(range(3), rnd.choice((1, 2, 2)))
        tiles = [rnd.choice(suits) * 9 + rnd.randrange(9)] * 2
        melds = []
        n_melds = rnd.randint(1, 3)
        for i in range(4):
            s = rnd.choice(suits) * 9
            if i < n_melds:
                melds.append(Meld(rnd.choice(("pung", "kong")), s + rnd.randrange(9)))
            elif rnd.random() < 0.6:
                r = rnd.randrange(7)
                tiles += [s + r, s + r + 1, s + r + 2]
            else:
                tiles += [s + rnd.randrange(9)] * 3
        tiles.pop(rnd.randrange(len(tiles)))
        held = tiles + [m.tile for m in melds for _ in range(m.size)]
        if max(held.count(t) for t in held) <= 4:
            out.append((sorted(tiles), tuple(melds)))
    return out


def row(label: str, fast: float, ref: float | None, target: float | None) -> None:
    """A rate beside the reference's, and beside its target (items/s) with ok or MISSED."""
    ref_s = f"{ref:>12,.0f}/s" if ref else f"{'—':>14}"
    ratio = f"x{fast / ref:,.0f}" if ref else ""
    goal = f"target ≥ {target:,.0f}/s: {verdict(fast >= target)}" if target else ""
    print(f"{label:<46}{fast:>12,.0f}/s {ref_s} {ratio:>6}   {goal}")


#: records settled per run in the per-preset table (each preset settles the same two records)
PER_PRESET_RECORDS = 1000


def per_preset(hands: list[list[int]]) -> None:
    """Evaluate and settle speed of every preset of ``PRESETS`` (a preset the engine adds gets
    its row by itself): the same hands, and the same two records with the ruleset swapped."""
    print(f"\nper preset (median of {RUNS} runs; the records above, their ruleset swapped)")
    print(f"{'preset':<12}{'evaluate hands/s':>18}{'settle 血战 records/s':>20}"
          f"{'settle drawn records/s':>24}")  # fmt: skip
    for name in PRESETS:
        ruleset = resolve_ruleset(name)

        def evaluate_all(items, ruleset=ruleset):
            for tiles in items:
                evaluate_tiles(tiles, ruleset)

        cells = [f"{rate(evaluate_all, hands):>18,.0f}"]
        for record in (TYPICAL_RECORD, DRAWN_RECORD):
            try:
                parsed = parse_record({**record, "ruleset": name})
                settle(parsed)
            except EngineError as e:  # a record this preset refuses: say so, time the rest
                cells.append(f"{'refused: ' + e.problems[0].code:>22}")
                continue

            def settle_all(items):
                for rec in items:
                    settle(rec)

            cells.append(f"{rate(settle_all, [parsed] * PER_PRESET_RECORDS):>22,.0f}")
        print(f"{name:<12}" + cells[0] + cells[1] + "  " + cells[2])


def main() -> None:
    rnd = random.Random(2026)
    hands = [random_hand(rnd, winning=i % 2 == 0) for i in range(20_000)]
    rulesets = [resolve_ruleset(n) for n in PRESETS]
    qq = rulesets[0]
    print(f"Rules engine benchmark — CPython {sys.version.split()[0]}, median of {RUNS} runs\n")
    print(f"{'':<46}{'engine':>14} {'reference':>14} {'':>6}")

    def fast_eval(items):
        for tiles in items:
            evaluate_tiles(tiles, qq)

    def ref_eval(items):
        for tiles in items:
            reference_evaluate(tiles, [], qq)

    row(
        "evaluate 14 tiles (qq)",
        rate(fast_eval, hands),
        rate(ref_eval, hands[:3000]),
        500_000,
    )

    def fast_eval_all(items):
        for r in rulesets:
            for tiles in items:
                evaluate_tiles(tiles, r)

    all_rate = rate(fast_eval_all, hands) * len(rulesets)
    row(f"evaluate 14 tiles (all {len(rulesets)} presets)", all_rate, None, 500_000)

    waiting = []
    for tiles in hands[::2]:
        t = list(tiles)
        t.pop(rnd.randrange(14))
        waiting.append((hand_key(t), t))

    def fast_waits(items):
        for key, _ in items:
            chajiao_value(key, 13, qq, NO_MELDS)

    def ref_waits(items):
        for _, t in items:
            values = reference_waits(t, [], qq)
            max(values.values()) if values else None

    row("waits + 查叫 value, 13 tiles (qq)", rate(fast_waits, waiting),
        rate(ref_waits, waiting[:300]), 100_000)  # fmt: skip

    # readiness, the checked public path (the waits API, the tile picker, 查叫): the same hands
    # as tile lists, each wait with its discard and self-draw values, against the row above
    def checked_waits(items):
        for _, t in items:
            readiness(t, qq)

    checked, _, ratio = paired_rates(checked_waits, fast_waits, waiting)
    ratio_row("readiness (checked path), 13 tiles (qq)", checked, ratio, "the waits above", 0.5)

    # the same with melds, against the table-driven waits of the same hands given their meld
    # groups; 2,000 hands, whose meld groups fit MeldGroup.of's memo as a server's hands do
    melded = melded_waiting_hands(rnd, 2000)
    melded_keys = [(hand_key(t), len(t), MeldGroup.of(m)) for t, m in melded]

    def melded_anchor(items):
        for key, n, mg in items:
            chajiao_value(key, n, qq, mg)

    def melded_checked(items):
        for t, m in items:
            readiness(t, qq, m)

    checked, _, ratio = paired_rates(melded_checked, melded_anchor, melded, melded_keys)
    ratio_row("  the same with 1–3 melds", checked, ratio, "their table-driven waits", 0.5)

    requests = []
    for tiles in hands[:10_000]:
        win = tiles[rnd.randrange(14)]
        rest = list(tiles)
        rest.remove(win)
        requests.append({"concealed": format_tiles(rest), "winning_tile": format_tiles([win]),
                         "self_draw": rnd.random() < 0.3})  # fmt: skip

    def full_path(items):
        for data in items:
            evaluate(parse_winning_hand(data), "chengdu").as_dict()

    row("notation → result with lines (chengdu)", rate(full_path, requests), None, 50_000)

    # each record twice: settled from its parsed form (the replay: kongs, wins, draw, bettors),
    # and the whole path from the JSON dict to the JSON answer (parse + replay + as_dict)
    for label, record, target in (
        ("settle 血战 record: 2 kongs, 3 wins, 2 bettors", TYPICAL_RECORD, 5_000),
        ("settle drawn record: 查叫 for three players", DRAWN_RECORD, 2_000),
    ):
        parsed = [parse_record(record)] * 2000
        from_json = [record] * 2000

        def settle_parsed(items):
            for rec in items:
                settle(rec)

        def settle_json(items):
            for rec in items:
                settle(rec).as_dict()

        row(label, rate(settle_parsed, parsed), None, target)
        row("  the same from JSON to JSON", rate(settle_json, from_json), None, None)

    per_preset(hands)

    plain, peaks = [], []
    for _ in range(RUNS):
        out = subprocess.run(
            [sys.executable, "-c", "import time;t=time.perf_counter();import scoring.engine;"
             "print(time.perf_counter()-t)"],
            cwd=ROOT, capture_output=True, text=True,
        )  # fmt: skip
        plain.append(float(out.stdout))
        # memory in a separate run: tracemalloc slows the import it watches several times over
        code = (
            "import tracemalloc;tracemalloc.start();import scoring.engine;"
            "print(tracemalloc.get_traced_memory()[1])"
        )
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
        peaks.append(int(out.stdout))
    seconds, megabytes = statistics.median(plain), statistics.median(peaks) / 2**20
    print(f"\nimport + table build: {seconds:.3f} s ({at_most(seconds, 0.5, ' s')})")
    print(
        f"tables: peak {megabytes:.1f} MB allocated during import ({at_most(megabytes, 30, ' MB')})"
    )


if __name__ == "__main__":
    main()
