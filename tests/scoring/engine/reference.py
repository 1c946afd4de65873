"""A simple recursive reference evaluator, kept to check the table-driven engine.

It searches every split of the tiles, works out each pattern straight from RULES.md §2 on
that split, and values the hand from the ruleset's data with plain loops. Slow on purpose:
nothing here shares code with ``scoring/engine/shapes.py`` or ``evaluate.py``.
"""

from __future__ import annotations

from collections import Counter

from scoring.engine.rulesets import Ruleset

SITUATION_EXTRA = {
    "kong_flower": "gangshanghua",
    "kong_discard": "gangshangpao",
    "robbing_kong": "qiangganghu",
    "last_tile": "haidi",
    "last_copy": "juezhang",
}


def splits(counts: list[int], pair_done: bool = False):
    """Every way to split counts (list of 27) into sets and at most one pair."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        yield []
        return
    if not pair_done and counts[i] >= 2:
        counts[i] -= 2
        for rest in splits(counts, True):
            yield [("pair", i), *rest]
        counts[i] += 2
    if counts[i] >= 3:
        counts[i] -= 3
        for rest in splits(counts, pair_done):
            yield [("triplet", i), *rest]
        counts[i] += 3
    if i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        for rest in splits(counts, pair_done):
            yield [("run", i), *rest]
        for k in (i, i + 1, i + 2):
            counts[k] += 1


def _terminal(kind: str, t: int) -> bool:
    r = t % 9 + 1
    if kind == "run":
        return r in (1, 7)
    return r in (1, 9)


def reference_evaluate(
    tiles: list[int],
    melds: list[tuple[str, int]],
    r: Ruleset,
    self_draw: bool = False,
    situation: frozenset[str] = frozenset(),
    void: int | None = None,
    winning: int | None = None,
    kong_roots: bool = True,
) -> dict:
    """``tiles``: concealed tiles with the winning tile; ``melds``: (kind, tile) pairs;
    ``winning``: which of the tiles won (单钓 is judged only where it is given);
    ``kong_roots`` False: a kong is not a root (查叫 under ``chajiao_kongs: false``)."""
    all_tiles = list(tiles) + [t for kind, t in melds for _ in range(4 if kind == "kong" else 3)]
    suits = {t // 9 for t in all_tiles}
    total = Counter(all_tiles)
    kongs = {t for kind, t in melds if kind == "kong"}
    roots = sum(1 for t, n in total.items() if n == 4 and (kong_roots or t not in kongs))
    if len(suits) == 3:
        return {"win": False, "reason": "three_suits", "roots": roots}
    if void is not None and void in suits:
        return {"win": False, "reason": "declared_void_suit", "roots": roots}
    counts = [0] * 27
    for t in tiles:
        counts[t] += 1
    qing = len(suits) == 1
    groups: list[set[str]] = []
    for split in splits(counts):
        if sum(1 for kind, _ in split if kind == "pair") != 1:
            continue
        sets = [(k, t) for k, t in split if k != "pair"] + [("triplet", t) for _, t in melds]
        if len(sets) != 4:
            continue
        codes = {"pinghu"}
        all_triplets = all(k == "triplet" for k, _ in sets)
        yaojiu = all(_terminal(k, t) for k, t in split) and all(
            _terminal("triplet", t) for _, t in melds
        )
        if all_triplets:
            codes.add("duiduihu")
            if all(t % 9 + 1 in (2, 5, 8) for t in all_tiles):
                codes.add("jiangdui")
            if qing:
                codes.add("qingdui")
        if qing:
            codes.add("qingyise")
        if yaojiu:
            codes.add("daiyaojiu")
            if qing:
                codes.add("qingyaojiu")
        if len(melds) == 4:
            codes.add("jingoudiao")
        # 单钓 (RULES §3.8): all triplets, won on the pair, one copy of it held before the win
        pair = next(t for k, t in split if k == "pair")
        if all_triplets and winning == pair and Counter(tiles)[winning] == 2:
            codes.add("golden_wait")
        groups.append(codes)
    if not melds and len(tiles) == 14 and all(c % 2 == 0 for c in counts):
        codes = {"qidui"}
        if roots:
            codes.add("longqidui")
        if qing:
            codes |= {"qingyise", "qingqidui"}
            if roots:
                codes.add("qinglongqidui")
        groups.append(codes)
    if not groups:
        return {"win": False, "reason": "not_a_winning_shape", "roots": roots}
    extras = {e.code: e.steps for e in r.extras}
    bonus = r.options.self_draw_bonus
    best = None
    for codes in groups:
        if "heavenly" in situation:
            codes.add("tianhu")
        if "earthly" in situation:
            codes.add("dihu")
        for index, entry in enumerate(r.table):
            if entry.code not in codes:
                continue
            steps = extras["gen"] * max(roots - entry.roots_included, 0)
            steps += sum(
                extras.get(SITUATION_EXTRA[s], 0) for s in situation if s in SITUATION_EXTRA
            )
            counted = {c for c in r.pattern_extras if c in codes}
            if "jingoudiao" in counted or entry.code == "jingoudiao":
                counted.discard("golden_wait")  # they do not stack: one step
            steps += len(counted)
            if self_draw and bonus == "add_fan":
                steps += 1
            amount = entry.value
            for _ in range(steps):
                amount = amount * 2 if r.curve == "multiple" else amount + 1
            if best is None or (amount, index) > best[0]:
                best = ((amount, index), entry.code)
    (amount, _), pattern = best
    cap = r.options.cap
    capped = cap is not None and amount > cap
    paid = min(amount, cap) if capped else amount
    value = 2 ** max(paid - r.fan_offset, 0) if r.curve == "fan" else paid
    if self_draw and bonus == "add_one":
        value += 1
    return {"win": True, "pattern": pattern, "roots": roots, "value": value, "capped": capped}


def reference_waits(tiles: list[int], melds: list[tuple[str, int]], r: Ruleset, void=None):
    """Winning tiles of a 13-tile hand by trying all 27 kinds, with discard-win values."""
    held = Counter(tiles)
    for kind, t in melds:
        held[t] += 4 if kind == "kong" else 3
    out = {}
    for t in range(27):
        if held[t] >= 4:
            continue
        res = reference_evaluate(
            [*tiles, t], melds, r, void=void, winning=t, kong_roots=r.options.chajiao_kongs
        )
        if res["win"]:
            out[t] = res["value"]
    return out
