"""Properties of the evaluator, checked on random hands (hypothesis).

The table-driven engine must agree with the recursive reference in ``reference.py`` on every
hand, under every preset and random options.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    Meld,
    MeldGroup,
    WinningHand,
    evaluate,
    evaluate_tiles,
    format_tiles,
    parse_tiles,
    readiness,
    resolve_ruleset,
)
from scoring.engine.evaluate import situation_bits

from .reference import reference_evaluate, reference_waits
from .strategies import any_hands, rulesets, situations, winning_hands


def _meld_group(melds):
    return MeldGroup.of(tuple(Meld(kind, t) for kind, t in melds))


def _fast(tiles, melds, r, self_draw=False, situation=frozenset(), void=None):
    out = evaluate_tiles(tiles, r, _meld_group(melds), self_draw, situation_bits(situation), void)
    if isinstance(out, str):
        return {"win": False, "reason": out}
    return {
        "win": True,
        "pattern": out.pattern,
        "roots": out.roots,
        "value": out.value,
        "capped": out.capped,
    }


def _without_roots(d):
    return {k: v for k, v in d.items() if not (k == "roots" and not d["win"])}


@settings(max_examples=400, deadline=None)
@given(winning_hands(), rulesets, st.booleans(), situations)
def test_built_hands_win_and_match_reference(hand, spec, self_draw, situation):
    concealed, melds, _ = hand
    r = resolve_ruleset(spec)
    if self_draw:
        situation = situation - {"kong_discard", "robbing_kong"}
    fast = _fast(concealed, melds, r, self_draw, situation)
    assert fast["win"], "a hand of four sets and a pair in at most two suits always wins"
    assert fast == reference_evaluate(concealed, melds, r, self_draw, situation)


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(winning_hands(), winning_hands(all_triplets=True)),
    st.one_of(rulesets, st.sampled_from(("sbr", "tfmj2024"))),
    st.booleans(),
)
def test_hands_with_their_winning_tile_match_reference(hand, spec, self_draw):
    """With the winning tile said, 单钓 (``golden_wait``) can count: checked on hands of four
    triplets won on their pair, as well as on any."""
    concealed, melds, winning = hand
    r = resolve_ruleset(spec)
    rest = list(concealed)
    rest.remove(winning)
    out = evaluate(
        WinningHand(tuple(rest), winning, tuple(Meld(k, t) for k, t in melds), self_draw), r
    )
    fast = {
        "win": True,
        "pattern": out.valuation.pattern,
        "roots": out.valuation.roots,
        "value": out.valuation.value,
        "capped": out.valuation.capped,
    }
    assert fast == reference_evaluate(concealed, melds, r, self_draw, winning=winning)


@settings(max_examples=400, deadline=None)
@given(any_hands(), rulesets, st.booleans(), st.sampled_from((None, 0, 1, 2)))
def test_random_hands_match_reference(tiles, spec, self_draw, void):
    r = resolve_ruleset(spec)
    fast = _fast(tiles, [], r, self_draw, void=void)
    ref = reference_evaluate(tiles, [], r, self_draw, void=void)
    assert _without_roots(fast) == _without_roots(ref)


@settings(max_examples=200, deadline=None)
@given(any_hands(), st.randoms(use_true_random=False))
def test_tile_order_never_changes_the_result(tiles, rnd: random.Random):
    r = resolve_ruleset("qq")
    shuffled = list(tiles)
    rnd.shuffle(shuffled)
    assert _fast(shuffled, [], r) == _fast(tiles, [], r)
    # the same tiles written in another order parse to the same hand
    chunks = [format_tiles([t]) for t in shuffled]
    assert parse_tiles("".join(chunks)) == tuple(tiles)


@settings(max_examples=300, deadline=None)
@given(winning_hands(), st.data())
def test_removing_a_tile_from_a_winning_hand_leaves_it_waiting_on_that_tile(hand, data):
    concealed, melds, _ = hand
    removed = data.draw(st.sampled_from(concealed))
    rest = list(concealed)
    rest.remove(removed)
    ready = readiness(rest, "qq", tuple(Meld(kind, t) for kind, t in melds))
    assert ready.ready
    assert removed in {w.tile for w in ready.waits}


@settings(max_examples=300, deadline=None)
@given(any_hands(), rulesets, st.booleans(), situations)
def test_value_before_self_draw_bonus_never_exceeds_the_cap(tiles, spec, self_draw, situation):
    r = resolve_ruleset(spec)
    if self_draw:
        situation = situation - {"kong_discard", "robbing_kong"}
    out = evaluate_tiles(tiles, r, MeldGroup.of(()), self_draw, situation_bits(situation))
    if isinstance(out, str) or r.cap is None:
        return
    bonus = 1 if self_draw and r.options.self_draw_bonus == "add_one" else 0
    assert out.value - bonus <= r.value_of(r.cap)
    assert out.capped == (out.total > r.cap)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(winning_hands(max_melds=2), winning_hands(max_melds=2, all_triplets=True)),
    st.one_of(rulesets, st.sampled_from(("sbr", "tfmj2024"))),
    st.data(),
)
def test_waits_match_reference(hand, spec, data):
    concealed, melds, _ = hand
    removed = data.draw(st.sampled_from(concealed))
    rest = list(concealed)
    rest.remove(removed)
    r = resolve_ruleset(spec)
    ready = readiness(rest, r, tuple(Meld(kind, t) for kind, t in melds))
    fast = {w.tile: w.valuation.value for w in ready.waits}
    assert fast == reference_waits(rest, melds, r)
    if r.options.chajiao == "max":
        assert ready.chajiao_value == max(fast.values())
    else:
        assert ready.chajiao_value == min(fast.values())
