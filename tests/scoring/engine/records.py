"""Random but valid hand records, for the settlement's property tests and benchmark.

A record is built the way a hand unfolds: tiles come out of one 108-tile pool, kongs happen
before their owner wins, winners leave, and whoever is still in at the end shows 13 tiles.
"""

from __future__ import annotations

import random
from collections import Counter

from scoring.engine import format_tiles, tile_name

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
        if rnd.random() < 0.3:
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
