"""The rules engine's work in instructions, not seconds: a figure a noisy machine cannot move.

Run by ``make bench`` (never part of ``make test``), or alone:
``.venv/bin/python tests/bench/bench_engine_instructions.py``. Issue 26: a change that declares
things once (option specs, the typed settled hand, split modules) must leave the engine's
speed within noise — counted here with callgrind, beside the same count at an earlier revision
(``BENCH_INSTRUCTIONS_BASE``, a git revision: measured in a temporary worktree of it).

The workload (:func:`workload`) goes through the engine's public API only, so that it runs
alike on older code: for each preset of ``PRESETS``, five hands evaluated, three waits read,
three records settled and written as JSON; and one explained evaluation. It is run under
``valgrind --tool=callgrind`` at ``ROUNDS`` and twice as many rounds with
``PYTHONHASHSEED=0``; the difference is the workload's own (the interpreter's start-up and
the imports cancel), printed per ``ROUNDS`` rounds, with the imports' count beside it. Without
valgrind it says "skipped" and exits 0 (``apt-get install valgrind``: ``docker/`` has no need of
it). About a minute and a half a revision.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 10
#: a change of the workload's count within this is "unchanged" (hash seeds fixed, the same
#: code counts the same to 0–0.2 % run after run; a second of the engine's time is some
#: 2,000 M instructions, and the timed benches move by several per cent run to run)
NOISE = 0.01


def workload(rounds: int) -> None:
    from scoring.engine import (
        PRESETS,
        evaluate,
        evaluate_tiles,
        parse_winning_hand,
        readiness,
        resolve_ruleset,
    )
    from scoring.engine.settle import parse_record, settle
    from scoring.engine.tiles import parse_tiles
    from tests.scoring.engine.records import DRAWN, PINGHU, XUEZHAN

    names = sorted(PRESETS)
    rulesets = [resolve_ruleset(name) for name in names]
    hands = [
        parse_tiles(h)
        for h in ("123m456m789m11p234p", "11m22m33m44m55m66m77m", "111m222m333m444m55m",
                  "123m123m456m456m77m", "111m999m123p789p55p")
    ]  # fmt: skip
    waits = [
        parse_tiles(h) for h in ("123m456m789m11p23p", "11m22m33m44m55m66m7m", "1112345678999m")
    ]
    records = (XUEZHAN, DRAWN, PINGHU)
    win = {"concealed": "123m456m789m11p23p", "winning_tile": "4p", "melds": []}
    for _ in range(rounds):
        for name, r in zip(names, rulesets, strict=True):
            for h in hands:
                evaluate_tiles(h, r)
            for w in waits:
                readiness(w, r)
            for record in records:
                settle(parse_record({**record, "ruleset": name})).as_dict()
        evaluate(parse_winning_hand(win), "chengdu").as_dict()


def instructions(root: Path, rounds: int) -> int:
    """Instructions callgrind counts for this script's workload of ``rounds`` on the code at
    ``root`` (start-up and imports included)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(root)}
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
             str(Path(__file__).resolve()), "--workload", str(rounds), str(root)],
            env=env, check=True, capture_output=True, cwd=root,
        )  # fmt: skip
        found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.M)
        if not found:
            raise SystemExit(f"no count in callgrind's output for {root}")
        return int(found.group(1))


def measure(root: Path) -> tuple[int, int]:
    """(the workload's instructions per ``ROUNDS`` rounds, start-up and imports)."""
    once, twice = instructions(root, ROUNDS), instructions(root, 2 * ROUNDS)
    return twice - once, 2 * once - twice


def main() -> None:
    if shutil.which("valgrind") is None:
        print("engine instructions (callgrind): skipped (valgrind is not installed)")
        return
    now, start = measure(ROOT)
    print(f"engine instructions (callgrind, PYTHONHASHSEED=0), {ROUNDS} rounds of the workload")
    print(f"  this code:   {now / 1e6:9.2f} M   start-up and imports {start / 1e6:8.1f} M")
    base = os.environ.get("BENCH_INSTRUCTIONS_BASE")
    if not base:
        print("  (BENCH_INSTRUCTIONS_BASE=<git revision> counts an earlier revision beside it)")
        return
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), base],
                       cwd=ROOT, check=True)  # fmt: skip
        try:
            then, then_start = measure(tree)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                           check=False)  # fmt: skip
    change = now / then - 1
    verdict = "unchanged" if abs(change) <= NOISE else ("slower" if change > 0 else "faster")
    print(f"  at {base}: {then / 1e6:9.2f} M   start-up and imports {then_start / 1e6:8.1f} M")
    print(f"  this code ÷ {base}: {change:+.2%} ({verdict} within ±{NOISE:.0%});"
          f" imports {start / then_start - 1:+.1%}")  # fmt: skip


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "--workload":
        sys.path.insert(0, sys.argv[3])
        workload(int(sys.argv[2]))
    else:
        main()
