"""The resolved-ruleset cache is bounded (ARCHITECTURE "Bounded"): distinct option sets sent to
the public engine endpoints cannot grow memory without bound. Before, 20,000 distinct ``cap``
values sent to /engine/evaluate kept 72 MB in one process."""

from __future__ import annotations

import gc
import tracemalloc

from scoring.engine import resolve_ruleset
from scoring.engine import rulesets as rulesets_module


def test_twenty_thousand_option_sets_retain_under_five_megabytes():
    """cap 1–20 × huazhu 0–49 × kong_direct 0–19: 20,000 distinct, valid option sets (cap stays
    ≤ 30, the bound a later issue puts on fan curves). Only the most recent few hundred rulesets
    are kept."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        seen = set()
        for cap in range(1, 21):
            for huazhu in range(50):
                for kong_direct in range(20):
                    options = {"cap": cap, "huazhu": huazhu, "kong_direct": kong_direct}
                    r = resolve_ruleset({"preset": "qq", "options": options})
                    seen.add((r.options.cap, r.options.huazhu, r.options.kong_direct))
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(seen) == 20_000
    assert len(rulesets_module._RESOLVED) == rulesets_module.CACHE_SIZE
    assert retained < 5 * 2**20, f"{retained / 2**20:.1f} MB retained"


def test_the_cache_keeps_the_rulesets_used_most_recently():
    """A ruleset in use stays cached (same object, warm memos); the oldest one goes first."""
    spec = {"preset": "chengdu", "options": {"cap": 16}}
    first = resolve_ruleset(spec)
    for kong_direct in range(rulesets_module.CACHE_SIZE - 1):
        resolve_ruleset({"preset": "qq", "options": {"kong_direct": kong_direct, "cap": 29}})
        assert resolve_ruleset(spec) is first  # used again: the most recent one
    for kong_direct in range(rulesets_module.CACHE_SIZE):
        resolve_ruleset({"preset": "qq", "options": {"kong_direct": kong_direct, "cap": 28}})
    assert resolve_ruleset(spec) is not first
    assert resolve_ruleset(spec) == first  # rebuilt: the same rules
