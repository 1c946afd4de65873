"""Random hand records, for the settlement's property tests, its fuzzing and benchmarks.

:func:`random_record` builds a valid one the way a hand unfolds: tiles come out of one 108-tile
pool, kongs happen before their owner wins, winners leave, and whoever is still in at the end
shows 13 tiles. :func:`declared_twin` turns its winners and its players at the draw into
declarations of what their tiles showed (RULES §6), all of them or some (a mixed record).
:func:`random_ruleset` picks a preset's options from the option schema itself, and
:func:`broken_record` breaks a record the ways a scorer or a stranger does: a seat, a tile or
a kind changed to another plausible one, a field dropped, added or given a hostile value
(``HOSTILE``), an event repeated or moved. :func:`fuzz_record` is one of each kind at random.

Everything is driven by a ``random.Random``: the same seed gives the same record, in a
hypothesis test (which draws the seed) and in ``tests/bench/bench_fuzz.py`` alike.
"""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from typing import Any

from scoring.engine import (
    EXTRA_NAMES,
    PATTERN_NAMES,
    PRESETS,
    SITUATIONS,
    format_tiles,
    option_schema,
    resolve_ruleset,
    tile_name,
)
from scoring.engine.settle import settle

#: S1 平胡 on S2's discard 4p: S2 pays S1 1 (qq, base 1). A table session's hand: the session
#: supplies ruleset, base and mode.
PINGHU = {
    "dealer": 0,
    "events": [
        {"type": "win", "from": 2, "tile": "4p", "situation": [],
         "winners": [{"seat": 1, "concealed": "123m456m789m11p23p", "melds": []}]},
    ],
    "draw": None,
}  # fmt: skip

#: S2 弯杠 5p, S1 self-draws; then 流局 with three players showing: 查叫 for all three
DRAWN = {
    "dealer": 0,
    "events": [
        {"type": "kong", "seat": 2, "kind": "added", "tile": "5p"},
        {"type": "win", "from": None, "tile": "4s", "situation": [],
         "winners": [{"seat": 1, "concealed": "123m456m789m99m23s"}]},
    ],
    "draw": {"hands": {
        "0": {"concealed": "234m567m22p678p34p"},
        "2": {"concealed": "111s234s678s9s", "melds": [{"kind": "kong", "tile": "5p"}]},
        "3": {"concealed": "1357m2468m13799p"},
    }},
}  # fmt: skip

#: 血战: S3 暗杠 9s, S1 直杠 5m on S0's discard, S2 平胡 on S1's 3p, S0 对对胡 self-drawn on
#: 6s, S3 平胡 + 根 self-drawn on 7s; the hand ends at three winners
XUEZHAN = {
    "dealer": 0,
    "events": [
        {"type": "kong", "seat": 3, "kind": "concealed", "tile": "9s"},
        {"type": "kong", "seat": 1, "kind": "direct", "tile": "5m", "from": 0},
        {"type": "win", "from": 1, "tile": "3p", "situation": [],
         "winners": [{"seat": 2, "concealed": "12p456p789p11m789m"}]},
        {"type": "win", "from": None, "tile": "6s", "situation": [],
         "winners": [{"seat": 0, "concealed": "33p777p222s444s66s"}]},
        {"type": "win", "from": None, "tile": "7s", "situation": [],
         "winners": [{"seat": 3, "concealed": "123s456s77s22m",
                      "melds": [{"kind": "kong", "tile": "9s", "concealed": True}]}]},
    ],
}  # fmt: skip


class Exhausted(Exception):
    """The pool ran out of a tile this record wanted; build another."""


class _Pool:
    def __init__(self) -> None:
        self.left = Counter(dict.fromkeys(range(27), 4))

    def take(self, t: int, n: int = 1) -> None:
        if self.left[t] < n:
            raise Exhausted
        self.left[t] -= n


def _sets_hand(rnd: random.Random, pool: _Pool, suits: list[int], n_sets: int) -> list[int]:
    """``n_sets`` random sets and a pair from ``suits``, taken from the pool."""
    tiles = []
    pair = rnd.choice(suits) * 9 + rnd.randrange(9)
    pool.take(pair, 2)
    tiles += [pair, pair]
    for _ in range(n_sets):
        s = rnd.choice(suits) * 9
        if rnd.random() < 0.6:
            r = rnd.randrange(7)
            for k in range(3):
                pool.take(s + r + k)
            tiles += [s + r, s + r + 1, s + r + 2]
        else:
            t = s + rnd.randrange(9)
            pool.take(t, 3)
            tiles += [t, t, t]
    return tiles


def random_record(rnd: random.Random, ruleset="qq", bettors: int | None = None) -> dict:
    """One valid 血战 record; retries until the pool allows it."""
    while True:
        try:
            return _attempt(rnd, ruleset, bettors)
        except Exhausted:
            continue


def _attempt(rnd: random.Random, ruleset, n_bettors: int | None) -> dict:
    pool = _Pool()
    dealer = rnd.randrange(4)
    order = [0, 1, 2, 3]
    rnd.shuffle(order)
    n_win_events = rnd.choice((0, 1, 2, 2, 3, 3))
    suits = {s: rnd.sample(range(3), 2) for s in range(4)}
    # kongs: (seat, tile, kind)
    kongs = []
    for seat in range(4):
        # a second kong now and then: made right after the first, it may be 杠上杠
        for chance in (0.3, 0.08):
            if rnd.random() < chance:
                t = rnd.choice(suits[seat]) * 9 + rnd.randrange(9)
                pool.take(t, 4)
                kongs.append((seat, t, rnd.choice(("concealed", "direct", "added"))))
    winners_plan = []  # list of lists of seats, one per win event
    remaining = list(order)
    for _ in range(n_win_events):
        if len(remaining) <= 1 or sum(len(w) for w in winners_plan) >= 3:
            break
        group = [remaining.pop(0)]
        if (
            len(remaining) >= 2
            and sum(len(w) for w in winners_plan) + 2 <= 3
            and rnd.random() < 0.2
        ):
            group.append(remaining.pop(0))  # 一炮多响
        winners_plan.append(group)
    events: list[dict] = []
    out_seats: set[int] = set()
    kongs_left = list(kongs)
    for group in winners_plan:
        # some of the kongs of players still in happen now
        for k in list(kongs_left):
            if k[0] in group or rnd.random() < 0.5:
                events.append(_kong_event(rnd, k, out_seats))
                kongs_left.remove(k)
        candidates = [s for s in range(4) if s not in out_seats and s not in group]
        prev = events[-1] if events else None
        self_draw = len(group) == 1 and (rnd.random() < 0.4 or not candidates)
        situation = []
        discarder = None
        if not self_draw:
            discarder = rnd.choice(candidates)
            if prev and prev["type"] == "kong" and prev["seat"] == discarder:
                situation.append("kong_discard")
        elif prev and prev["type"] == "kong" and prev["seat"] == group[0]:
            situation.append("kong_flower")
        winners = []
        tile = None
        for seat in group:
            melds = [
                {"kind": "kong", "tile": tile_name(t), "concealed": kind == "concealed"}
                for s, t, kind in kongs
                if s == seat
            ]
            concealed = _sets_hand(rnd, pool, suits[seat], 4 - len(melds))
            if tile is None:
                tile = rnd.choice(concealed)
            elif tile in concealed:
                pass
            else:
                raise Exhausted  # the second winner must hold the same winning tile
            concealed.remove(tile)
            winners.append({"seat": seat, "concealed": format_tiles(concealed), "melds": melds})
        if len(group) > 1:
            pool.left[tile] += 1  # one discard won by several is one tile
        events.append(
            {"type": "win", "from": discarder, "tile": tile_name(tile), "situation": situation,
             "winners": winners}
        )  # fmt: skip
        out_seats.update(group)
    hand_over = len(out_seats) >= 3
    for k in kongs_left:
        if hand_over:
            pool.left[k[1]] += 4  # this kong never happened: the hand ended first
        elif k[0] not in out_seats:
            events.append(_kong_event(rnd, k, out_seats))
    _flag_kong_chains(rnd, events)
    _add_false_win(rnd, events)
    record: dict = {
        "ruleset": ruleset,
        "base": rnd.choice((1, 1, 2, 5)),
        "mode": "xuezhan",
        "dealer": dealer,
        "events": events,
    }
    still_in = [s for s in range(4) if s not in out_seats]
    if len(still_in) >= 2:
        shown = {}
        for seat in still_in:
            melds = [
                {"kind": "kong", "tile": tile_name(t), "concealed": kind == "concealed"}
                for s, t, kind in kongs
                if s == seat
            ]
            if rnd.random() < 0.6:
                tiles = _sets_hand(rnd, pool, suits[seat], 4 - len(melds))
                tiles.remove(rnd.choice(tiles))  # ready, most of the time
            else:
                tiles = []
                for _ in range(13 - 3 * len(melds)):
                    s = rnd.choice(rnd.choice((suits[seat], [0, 1, 2])))
                    t = s * 9 + rnd.randrange(9)
                    pool.take(t)
                    tiles.append(t)
            shown[str(seat)] = {"concealed": format_tiles(tiles), "melds": melds}
        record["draw"] = {"hands": shown}
    n_bettors = rnd.randrange(3) if n_bettors is None else n_bettors
    bettors = []
    for i in range(n_bettors):
        t = rnd.randrange(27)
        pool.take(t)
        bettors.append({"name": f"bettor{i}", "tile": tile_name(t)})
    record["bettors"] = bettors
    return record


def _follows_a_kong(event: dict) -> bool:
    """Whether an event must come right after a kong (杠上花, 杠上炮, 抢杠, 杠上杠)."""
    if event["type"] == "kong":
        return bool(event.get("on_replacement"))
    return bool(set(event.get("situation") or ()) & {"kong_flower", "kong_discard", "robbing_kong"})


def _flag_kong_chains(rnd: random.Random, events: list[dict]) -> None:
    """Some kongs that follow the same player's kong were declared on its replacement tile
    (``on_replacement``, RULES §4.4)."""
    for prev, event in zip(events, events[1:], strict=False):
        same = prev["type"] == event["type"] == "kong" and prev["seat"] == event["seat"]
        if same and event["kind"] != "direct" and rnd.random() < 0.6:
            event["on_replacement"] = True


def _add_false_win(rnd: random.Random, events: list[dict]) -> None:
    """Now and then a 诈胡 (RULES §4.9) by a player still in, where no event needs the one
    before it to be a kong."""
    if rnd.random() >= 0.15:
        return
    places = []
    out: set[int] = set()
    for i in range(len(events) + 1):
        if len(out) >= 3:
            break  # 血战到底 is over at the third winner
        if i == len(events) or not _follows_a_kong(events[i]):
            places += [(i, s) for s in range(4) if s not in out]
        if i < len(events) and events[i]["type"] == "win":
            out.update(w["seat"] for w in events[i]["winners"])
    if places:
        i, seat = rnd.choice(places)
        events.insert(i, {"type": "false_win", "seat": seat})


def _kong_event(rnd: random.Random, kong, out_seats: set[int]) -> dict:
    seat, t, kind = kong
    event = {"type": "kong", "seat": seat, "kind": kind, "tile": tile_name(t)}
    if kind == "direct":
        others = [s for s in range(4) if s != seat and s not in out_seats]
        if not others:
            event["kind"] = "concealed"
        else:
            event["from"] = rnd.choice(others)
    return event


# --- declared records (RULES §6) ----------------------------------------------------------------


def declaration_of(valuation, ruleset, kongs: int = 0) -> dict:
    """What a scorer would declare for a hand the engine valued so; ``kongs``: the player's
    kongs, where the valuation did not count them as roots (a 查叫 wait under
    ``chajiao_kongs: false``): a declaration counts them (RULES §6)."""
    extras = [line.code for line in valuation.lines if line.code in ruleset.pattern_extras]
    return {"pattern": valuation.pattern, "roots": valuation.roots + kongs, "extras": extras}


def declared_twin(
    record: dict, rnd: random.Random, share: float = 0.7, draw_share: float = 1.0
) -> dict:
    """The record with each winner (each with probability ``share``, at least one) and each
    player at the draw (each with probability ``draw_share``) replaced by what his tiles
    showed. ``record`` must settle."""
    settled = settle(record)
    r = resolve_ruleset(record["ruleset"])
    twin = copy.deepcopy(record)
    chosen = [w for w in settled.wins if rnd.random() < share] or list(settled.wins[:1])
    for w in chosen:
        for x in twin["events"][w.event]["winners"]:
            if x["seat"] != w.seat:
                continue
            del x["concealed"]
            x["declared"] = declaration_of(w.valuation, r)
            # melds may be left out, but 金钩钓 needs its four melds listed
            if len(x.get("melds") or []) != 4 and rnd.random() < 0.5:
                x.pop("melds", None)
    for d in settled.draw or ():
        if draw_share < 1 and rnd.random() >= draw_share:
            continue  # this one stays shown (a mixed record)
        hand = twin["draw"]["hands"][str(d.seat)]
        melds = hand.get("melds") or []
        if d.huazhu:
            new = {"declared": "huazhu"}
        elif not d.ready:
            new = {"declared": "not_ready"}
        else:
            uncounted = 0 if r.options.chajiao_kongs else sum(m["kind"] == "kong" for m in melds)
            new = {"declared": "ready", "wait": declaration_of(d.chajiao_wait, r, uncounted)}
        if melds and (len(melds) == 4 or rnd.random() < 0.5):
            new["melds"] = melds
        twin["draw"]["hands"][str(d.seat)] = new
    return twin


# --- rulesets: a preset, or a preset with options from the option schema ------------------------


def random_options(rnd: random.Random, preset: str) -> dict[str, Any]:
    """Some of the options, each a value ``option_schema`` allows for ``preset``: a new option
    or preset is fuzzed as soon as the schema lists it."""
    options = {}
    for entry in option_schema():
        if rnd.random() < 0.3:
            options[entry["key"]] = _option_value(rnd, entry, preset)
    # the one pair of options that exclude each other (false_win "huazhu" needs a 花猪 price)
    if options.get("false_win") == "huazhu":
        huazhu = options.get("huazhu", PRESETS[preset].defaults.huazhu)
        if not (isinstance(huazhu, int) or huazhu == "cap"):
            del options["false_win"]
    return options


def _option_value(rnd: random.Random, entry: dict, preset: str):
    allowed = entry["allowed"]
    if isinstance(allowed, list):
        return rnd.choice(allowed)
    if allowed == "boolean":
        return rnd.random() < 0.5
    words = re.findall(r'"(\w+)"', allowed)  # huazhu: a number, "cap" or "chajiao_plus_fan"
    if "null" in allowed and rnd.random() < 0.2:
        return None
    if words and rnd.random() < 0.3:
        return rnd.choice(words)
    low, high = entry["minimum"], entry["maximum"][preset]
    return rnd.choice((low, high, rnd.randint(low, min(high, 32)), rnd.randint(low, high)))


def random_ruleset(rnd: random.Random, preset: str):
    """The preset by name, or with some of its options set."""
    if rnd.random() < 0.3:
        return preset
    return {"preset": preset, "options": random_options(rnd, preset)}


# --- broken records -------------------------------------------------------------------------------

#: values no field of a record takes: wrong types, out of range, unprintable, unencodable
HOSTILE = (
    None, True, False, 0, -1, 4, 7, 2**53, -(2**63), 10**5000, 1.5, float("inf"), float("nan"),
    "", " ", "x" * 5_000, "\ud800", "1m" * 300, "0m", "10m", "1z", "东", "１ｍ", "null", "true",
    [], {}, [[[[]]]], {"a": {"b": {"c": {}}}}, ["1m"], [None] * 70, {"preset": "qq"},
)  # fmt: skip
TILES = [tile_name(t) for t in range(27)]
#: plausible values of each field, by its name: what a scorer may mistype or misremember
PLAUSIBLE: dict[str, tuple] = {
    "seat": (0, 1, 2, 3),
    "from": (0, 1, 2, 3, None),
    "dealer": (0, 1, 2, 3),
    "type": ("kong", "win"),
    "kind": ("concealed", "direct", "added", "pung", "kong"),
    "concealed": (True, False),
    "same_turn": (True, False),
    "mode": ("xuezhan", "single"),
    "base": (1, 2, 10_000, 10_001),
    "roots": (0, 1, 2, 3, 4, 5),
    "pattern": tuple(PATTERN_NAMES),
    "declared": ("huazhu", "not_ready", "ready"),
    "preset": tuple(PRESETS),
    "draws_before": (0, 1, 16, 17),
    "dealer_streak": (0, 1, 16, 17),
}


def _random_tiles(rnd: random.Random, n: int) -> str:
    return format_tiles(sorted(rnd.randrange(27) for _ in range(n)))


def _plausible(rnd: random.Random, name: Any, value: Any):
    """Another value the field ``name`` (a key, or a list's key) plausibly takes."""
    if name == "tile":
        return rnd.choice(TILES)
    if name == "concealed" and isinstance(value, str):  # a hand's tiles, not a meld's flag
        return _random_tiles(rnd, rnd.choice((1, 4, 7, 10, 13, 14)))
    if name == "situation":
        return rnd.sample(sorted(SITUATIONS), rnd.randrange(3))
    if name == "extras":
        return rnd.sample(sorted(EXTRA_NAMES), rnd.randrange(3))
    if name == "declared_void":
        return [rnd.choice(("m", "p", "s", None)) for _ in range(4)]
    if name == "name":
        return rnd.choice(("老王", "bettor0", "x" * 81, ""))
    if name in PLAUSIBLE:
        return rnd.choice(PLAUSIBLE[name])
    return rnd.choice(HOSTILE)


#: deeper than any part of a record: a hostile value nested thousands deep that an earlier
#: mutation put in is one slot, not descended into (Python's recursion would not reach its end)
SLOT_DEPTH = 8


def _slots(value: Any, name: Any = "", depth: int = 0) -> list[tuple[Any, Any, Any]]:
    """Every (container, key, name) of a record: what a mutation may change. A list's items
    take the list's name (``events``, ``winners``…)."""
    out: list[tuple[Any, Any, Any]] = []
    if depth > SLOT_DEPTH:
        return out
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((value, k, k))
            out += _slots(v, k, depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append((value, i, name))
            out += _slots(v, name, depth + 1)
    return out


def _mutate(rnd: random.Random, record: dict) -> None:
    slots = _slots(record)
    if not slots:
        record["events"] = rnd.choice(HOSTILE)
        return
    container, key, name = rnd.choice(slots)
    roll = rnd.random()
    if roll < 0.5:
        container[key] = _plausible(rnd, name, container[key])
    elif roll < 0.65:
        container[key] = rnd.choice(HOSTILE)
    elif roll < 0.75:
        del container[key]
    elif roll < 0.85 and isinstance(container, dict):
        container[rnd.choice(("extra", "winner", "Seat", "\ud800", "tiles"))] = 1
    elif isinstance(container, list):
        if roll < 0.93 or len(container) < 2:
            container.insert(rnd.randrange(len(container) + 1), copy.deepcopy(container[key]))
        else:
            i, j = rnd.sample(range(len(container)), 2)
            container[i], container[j] = container[j], container[i]
    else:
        container[key] = _plausible(rnd, name, container[key])


def field_paths(value: Any, path: tuple = ()) -> list[tuple]:
    """The path (keys and indices) of every field and item of a record, depth first."""
    out = []
    if isinstance(value, dict | list):
        for k, v in value.items() if isinstance(value, dict) else enumerate(value):
            out.append((*path, k))
            out += field_paths(v, (*path, k))
    return out


def replaced(record: dict, path: tuple, value: Any) -> dict:
    """A copy of ``record`` with the field at ``path`` set to ``value``."""
    out = copy.deepcopy(record)
    container = out
    for k in path[:-1]:
        container = container[k]
    container[path[-1]] = value
    return out


def broken_record(rnd: random.Random, record: dict, mutations: int | None = None) -> dict:
    """A copy of ``record`` changed in one to four places (``mutations``)."""
    broken = copy.deepcopy(record)
    for _ in range(mutations or rnd.choice((1, 1, 2, 3, 4))):
        _mutate(rnd, broken)
    return broken


def padded_record(rnd: random.Random, record: dict) -> dict:
    """The record at the engine's bounds: its events repeated up to ``MAX_EVENTS``, bettors up
    to ``MAX_BETTORS`` with the longest names: as much work as one record may ask."""
    from scoring.engine.bounds import MAX_BETTORS, MAX_EVENTS, MAX_NAME

    padded = copy.deepcopy(record)
    events = padded["events"] or [{"type": "kong", "seat": 0, "kind": "concealed", "tile": "1m"}]
    padded["events"] = [copy.deepcopy(events[i % len(events)]) for i in range(MAX_EVENTS)]
    padded["bettors"] = [
        {"name": f"{i}" + "叫" * (MAX_NAME - 1), "tile": rnd.choice(TILES)}
        for i in range(MAX_BETTORS)
    ]
    return padded


#: the kinds of record :func:`fuzz_record` makes
KINDS = ("valid", "declared", "mixed", "broken", "padded")


def fuzz_record(rnd: random.Random, preset: str, kind: str | None = None) -> tuple[str, dict]:
    """One record of ``kind`` (at random if None) under ``preset``: (kind, record)."""
    kind = kind or rnd.choice(KINDS)
    record = random_record(rnd, random_ruleset(rnd, preset))
    if kind in ("declared", "mixed", "broken") and record["events"]:
        base = rnd.choice(("valid", "declared", "mixed")) if kind == "broken" else kind
        if base != "valid":
            share = 1.0 if base == "declared" else 0.5
            record = declared_twin(record, rnd, share=share, draw_share=share)
    if kind == "broken":
        record = broken_record(rnd, record)
    elif kind == "padded":
        record = padded_record(rnd, record)
    return kind, record
