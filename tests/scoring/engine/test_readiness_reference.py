"""readiness (the checked public path, 查叫 and the tile picker's waits) against straightforward
references over many random hands.

readiness finds its waits in one pass over the suit tables and checks copies on packed counts;
here every one of the 27 tiles is tried as a win on its own (:func:`evaluate_key` as a discard
win and as a self-draw), copies are counted tile by tile, and 查叫 picks by RULES §4.6b written
out, so any answer the fast path gives differently shows up. A smaller sample is also checked
against the recursive reference (``reference.py``), which shares no code with the engine.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scoring.engine import PRESETS, EngineError, Meld, MeldGroup, readiness, resolve_ruleset
from scoring.engine.evaluate import evaluate_key, single_wait
from scoring.engine.shapes import SUIT_JOINS_KEPT, TILE_BIT, suit_joins
from scoring.engine.tiles import tile_name

from .reference import reference_evaluate

#: every preset, and the options that change what readiness answers
RULESETS = [
    *PRESETS,
    {"preset": "qq", "options": {"chajiao": "min"}},
    {"preset": "qq", "options": {"chajiao": "off"}},
    {"preset": "qq", "options": {"dead_wait_counts": False}},
    {"preset": "chengdu", "options": {"chajiao": "min", "dead_wait_counts": False}},
    {"preset": "qq", "options": {"chajiao_kongs": False}},
    {"preset": "qq", "options": {"golden_wait": True}},
    {"preset": "sbr", "options": {"golden_wait": False}},
]


def straightforward_readiness(concealed, r, melds=(), void=None, visible=()):
    """What readiness answers, as a plain dict, worked out the long way; or the problems it
    raises (as dicts) for too many copies."""
    held = Counter(concealed)
    for m in melds:
        held[m.tile] += m.size
    seen = Counter(visible)
    problems = [
        {"code": "too_many_copies", "path": "concealed", "tile": t}
        for t in sorted(held)
        if held[t] > 4
    ] + [
        {"code": "too_many_copies", "path": "visible", "tile": t}
        for t in sorted(seen)
        if held[t] + seen[t] > 4
    ]
    if problems:
        return {"problems": problems}
    mg = MeldGroup.of(tuple(melds))
    suits = {t // 9 for t in concealed} | {m.tile // 9 for m in melds}
    if len(suits) == 3 or void in suits:
        return {"ready": False, "huazhu": True, "waits": [], "chajiao_value": None}
    chajiao_melds = mg if r.options.chajiao_kongs else mg.kongs_not_roots()
    key = sum(TILE_BIT[t] for t in concealed)
    n = len(concealed) + 1
    waits = []
    for t in range(27):
        if held[t] >= 4:
            continue
        single = single_wait(r, key, t)
        discard = evaluate_key(key + TILE_BIT[t], n, r, chajiao_melds, False, single, void)
        if isinstance(discard, str):
            continue
        drawn = evaluate_key(key + TILE_BIT[t], n, r, mg, True, single, void)
        remaining = 4 - held[t] - seen[t] if visible else None
        waits.append(
            {
                "tile": t,
                "valuation": discard,
                "self_draw_value": drawn.value,
                "remaining": remaining,
                "dead": visible != () and remaining <= 0,
            }
        )
    counting = [w for w in waits if r.options.dead_wait_counts or not w["dead"]]
    values = [w["valuation"].value for w in counting]
    if not values:
        pick = None
    elif r.options.chajiao == "min":
        pick = min(values)
    else:
        pick = max(values)
    return {
        "ready": pick is not None,
        "huazhu": False,
        "waits": waits,
        "chajiao_value": None if r.options.chajiao == "off" else pick,
    }


def answered(concealed, r, melds=(), void=None, visible=()):
    """readiness's answer in the shape of :func:`straightforward_readiness`."""
    try:
        res = readiness(concealed, r, melds, void, visible)
    except EngineError as e:
        return {
            "problems": [
                {"code": p.code, "path": p.path, "tile": _tile_of(p.message)} for p in e.problems
            ]
        }
    return {
        "ready": res.ready,
        "huazhu": res.huazhu,
        "waits": [
            {
                "tile": w.tile,
                "valuation": w.valuation,
                "self_draw_value": w.self_draw_value,
                "remaining": w.remaining,
                "dead": w.dead,
            }
            for w in res.waits
        ],
        "chajiao_value": res.chajiao_value,
    }


_TILE_BY_NAME = {tile_name(t): t for t in range(27)}


def _tile_of(message: str) -> int:
    return _TILE_BY_NAME[message.split()[0]]


def random_waiting_hand(rnd: random.Random):
    """13 effective tiles: a winning hand less one tile (with melds), random tiles of one to
    three suits, near-seven-pairs, or a hand holding too many copies; a declared void and
    visible tiles now and then."""
    kind = rnd.random()
    melds: list[Meld] = []
    suits = rnd.sample(range(3), rnd.choice((1, 2, 2, 2, 3)))
    if kind < 0.45:
        tiles = [rnd.choice(suits) * 9 + rnd.randrange(9)] * 2
        n_melds = rnd.choice((0, 0, 0, 1, 2, 3, 4))
        for i in range(4):
            s = rnd.choice(suits) * 9
            if i >= n_melds and rnd.random() < 0.6:
                r = rnd.randrange(7)
                tiles += [s + r, s + r + 1, s + r + 2]
            elif i < n_melds:
                melds.append(Meld(rnd.choice(("pung", "kong", "kong")), s + rnd.randrange(9)))
            else:
                tiles += [s + rnd.randrange(9)] * 3
        tiles.pop(rnd.randrange(len(tiles)))
    elif kind < 0.6:
        pairs = [rnd.choice(suits) * 9 + rnd.randrange(9) for _ in range(6)]
        tiles = [t for t in pairs for _ in range(2)] + [rnd.choice(suits) * 9 + rnd.randrange(9)]
    elif kind < 0.95:
        n_melds = rnd.choice((0, 0, 0, 1, 2))
        melds = [Meld("pung", rnd.choice(suits) * 9 + rnd.randrange(9)) for _ in range(n_melds)]
        pool = [s * 9 + r for s in suits for r in range(9) for _ in range(4)]
        tiles = rnd.sample(pool, 13 - 3 * n_melds)
    else:  # too many copies: in hand, two kongs of one tile, or with those seen elsewhere
        t = rnd.randrange(27)
        tiles = [t] * rnd.randint(5, 13)
        tiles += [rnd.randrange(27) for _ in range(13 - len(tiles))]
        if rnd.random() < 0.3:
            tiles = tiles[:7]
            melds = [Meld("kong", t), Meld("kong", t)]
    void = rnd.choice((None, None, None, 0, 1, 2))
    visible: tuple[int, ...] = ()
    if rnd.random() < 0.4:
        visible = tuple(rnd.randrange(27) for _ in range(rnd.randint(0, 12)))
        if rnd.random() < 0.3 and tiles:  # every other copy of a tile the hand may wait on
            t = rnd.choice(tiles)
            visible += (t,) * max(0, 4 - Counter(tiles)[t])
    return tuple(sorted(tiles)), tuple(melds), void, visible


@pytest.mark.parametrize("spec", RULESETS, ids=str)
def test_readiness_matches_trying_every_tile(spec):
    r = resolve_ruleset(spec)
    rnd = random.Random(f"readiness {spec}")
    ready = 0
    for _ in range(1500):
        concealed, melds, void, visible = random_waiting_hand(rnd)
        expected = straightforward_readiness(concealed, r, melds, void, visible)
        assert answered(concealed, r, melds, void, visible) == expected, (
            concealed,
            melds,
            void,
            visible,
        )
        ready += expected.get("ready", False)
    assert ready > 300  # the sample holds ready hands, not only refusals and 花猪


@pytest.mark.parametrize("spec", ["qq", "chengdu", "sbr", "tfmj2024"])
def test_readiness_matches_the_recursive_reference(spec):
    """Each wait's discard-win (查叫) and self-draw values as the recursive reference finds them
    by trying all 27 tiles on every split."""
    r = resolve_ruleset(spec)
    rnd = random.Random(f"recursive {spec}")
    checked = 0
    while checked < 150:
        concealed, melds, void, _ = random_waiting_hand(rnd)
        try:
            res = readiness(concealed, r, melds, void)
        except EngineError:
            continue
        if res.huazhu:
            continue
        checked += 1
        pairs = [(m.kind, m.tile) for m in melds]
        held = Counter(concealed) + Counter({m.tile: m.size for m in melds})
        expected = {}
        for t in range(27):
            if held[t] >= 4:
                continue
            tiles = [*concealed, t]
            kong_roots = r.options.chajiao_kongs
            discard = reference_evaluate(
                tiles, pairs, r, void=void, winning=t, kong_roots=kong_roots
            )
            if discard["win"]:
                drawn = reference_evaluate(tiles, pairs, r, self_draw=True, void=void, winning=t)
                expected[t] = (discard["value"], drawn["value"])
        assert {w.tile: (w.valuation.value, w.self_draw_value) for w in res.waits} == expected


def test_the_suit_tables_readiness_memoises_stay_bounded():
    """Strangers choose the hands: however many distinct suits readiness meets, it keeps the
    joins of at most SUIT_JOINS_KEPT of them (ARCHITECTURE "Bounded")."""
    rnd = random.Random("bounded")
    for _ in range(SUIT_JOINS_KEPT + 5000):
        suit_joins(sum(rnd.randrange(5) << 3 * r for r in range(9)))
    assert suit_joins.cache_info().currsize <= SUIT_JOINS_KEPT
