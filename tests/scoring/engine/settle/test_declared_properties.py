"""A declared hand is valued exactly as its tiles are (RULES §6), on random valid records.

Every shown winner and every player at the draw of a random record (``records.py``) is
replaced by the declaration of the facts his tiles show — the pattern, roots and hand-shape
extras the engine reported — and the hand settles to the same payments, unverified.
"""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import resolve_ruleset
from scoring.engine.settle import settle

from ..records import declaration_of, declared_twin, random_record
from ..strategies import PRESET_NAMES, rulesets, winning_hands


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(PRESET_NAMES))
def test_a_declared_twin_pays_the_same(seed, preset):
    record = random_record(random.Random(seed), preset)
    shown = settle(record).as_dict()
    assert shown["verified"] is True
    twin = declared_twin(record, random.Random(seed + 1))
    declared = settle(twin).as_dict()
    assert declared["payments"] == shown["payments"]
    assert declared["totals"] == shown["totals"]
    assert declared["next_dealer"] == shown["next_dealer"]
    assert declared["verified"] is False
    for a, b in zip(shown["wins"], declared["wins"], strict=True):
        assert (a["pattern"], a["roots"], a["value"], a["amount"]) == (
            b["pattern"], b["roots"], b["value"], b["amount"]
        )  # fmt: skip


@st.composite
def seven_pairs(draw):
    """Fourteen concealed tiles in seven pairs of one or two suits (a four counts as two)."""
    suits = draw(st.lists(st.integers(0, 2), min_size=1, max_size=2, unique=True))
    kinds = [s * 9 + r for s in suits for r in range(9)]
    pairs = draw(st.lists(st.sampled_from(kinds), min_size=7, max_size=7))
    from collections import Counter

    from hypothesis import assume

    assume(max(Counter(pairs).values()) <= 2)
    tiles = [t for t in pairs for _ in range(2)]
    return tiles, [], draw(st.sampled_from(tiles))


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(winning_hands(), seven_pairs()),
    rulesets,
    st.booleans(),
    st.sampled_from(((), ("last_tile",), ("last_copy",), ("last_tile", "last_copy"), ("earthly",))),
)
def test_a_declared_winner_is_valued_as_his_tiles(hand, ruleset, self_draw, situation):
    """Any winning hand (melds and kongs, 金钩钓, 七对 with fours, every option), won by a
    non-dealer on a discard or self-drawn: declared by its facts, it pays the same."""
    from hypothesis import assume

    from scoring.engine import format_tiles

    tiles, melds, winning = hand
    assume(not (melds and "earthly" in situation))
    concealed = list(tiles)
    concealed.remove(winning)
    kongs = [
        {"type": "kong", "seat": 1, "kind": "concealed", "tile": format_tiles([t])}
        for kind, t in melds
        if kind == "kong"
    ]
    assume(not (kongs and "earthly" in situation))
    shown_melds = [{"kind": kind, "tile": format_tiles([t])} for kind, t in melds]
    win = {
        "type": "win",
        "from": None if self_draw else 2,
        "tile": format_tiles([winning]),
        "situation": list(situation),
        "winners": [{"seat": 1, "concealed": format_tiles(concealed), "melds": shown_melds}],
    }
    record = {"ruleset": ruleset, "mode": "single", "dealer": 0, "events": [*kongs, win]}
    shown = settle(record)
    r = resolve_ruleset(ruleset)
    twin = copy.deepcopy(record)
    winner = twin["events"][-1]["winners"][0]
    del winner["concealed"]
    winner["declared"] = declaration_of(shown.wins[0].valuation, r)
    declared = settle(twin)
    assert [p.as_dict() for p in declared.payments] == [p.as_dict() for p in shown.payments]
    a, b = shown.wins[0].valuation, declared.wins[0].valuation
    # (``patterns``, the other patterns the tiles also make, is what only tiles can tell)
    assert (a.pattern, a.roots, a.total, a.value, a.capped, a.lines) == (
        b.pattern, b.roots, b.total, b.value, b.capped, b.lines
    )  # fmt: skip
    assert (shown.verified, declared.verified) == (True, False)
