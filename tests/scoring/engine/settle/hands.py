"""Hands and records shared by the settlement tests.

Values used throughout (RULES §3):

- qq: value = 2^(fan−1); 平胡 1 fan, 对对胡 2, 清对 4; +1 fan per 根, 杠上花, 杠上炮; no 抢杠
  bonus; kongs 暗 2 each / 直 1 from the discarder / 弯 1 each; 花猪 16; 查叫 赔大.
- chengdu: multiples 平胡 1, 大对子 2, 清大对 8; ×2 per 根, 杠上花, 杠上炮, 抢杠; cap 8; 自摸 +1
  after the cap; kongs 暗 2 each / 直 2 from the discarder / 弯 1 each; 花猪 = 满格 8.
- additive: 平胡 1, 对对胡 2, 清对 4; +1 per 根, 杠上花 +2, 抢杠 +1; kongs and 花猪 as qq; 赔小.
- xuezhan9: value = 2^fan, 平胡 0 fan; 大对子 2, 清一色 3; +1 per 根, 自摸, 杠上花, 杠上炮, 抢杠;
  kongs 暗 2 each / 直 2 / 弯 1 each; 花猪 pays each ready player his 查叫 value with one more fan.

Seats are 0–3 in play order; the dealer is seat 0 unless a test says otherwise.
"""

from __future__ import annotations

from ..builders import hand, kong, meld, win, winner

# Hands used again and again (13 tiles before the winning tile, two suits, no four of a kind).
PINGHU = "123m456m789m11p23p"  # + 4p (or 1p): 123m 456m 789m 11p 234p — 平胡
PINGHU_5P = "123m456m789m11p34p"  # + 5p: 123m 456m 789m 11p 345p — 平胡
DUIDUI_5P = "111s222s444s55p66p"  # + 5p or 6p: 111s 222s 444s 555p 66p — 对对胡
PINGHU_6S = "234m567m22s345s78s"  # + 6s (or 9s): 234m 567m 22s 345s 678s — 平胡
TANKI_5P = "111s222s444s678p5p"  # + 5p: 111s 222s 444s 678p 55p — 平胡 (单钓)

# E0 S1 暗杠 9s; E1 S2 wins 平胡 on S0's discard 6s (the session and base tests).
SESSION_EVENTS = [
    kong(1, "concealed", "9s"),
    win("6s", winner(2, PINGHU_6S), frm=0),
]

# chengdu with 下毛毛雨: a 直杠 also takes 1 from each other player still in.
CHENGDU_DRIZZLE = {"preset": "chengdu", "options": {"drizzle": True}}

# Nobody has won; all four show their tiles.
#  S0 99m 3m 1p 6p 88p 99p 55s 66s: m, p and s → 花猪.
#  S1 123m 456m 789m 55p 67p: ready on 5p (55+567) and 8p (55+678), both 平胡.
#  S2 111s 222s 333p 45p 77p: ready on 3p (333p 345p 77p — four 3p: one 根), 6p (333p 456p 77p)
#     and 7p (33p 345p 777p); 6p and 7p are plain 平胡 without a 根.
#  S3 124578m 3467899s: two suits, not ready (12, 45, 78 m all need a tile).
FOUR_HANDS = {
    "0": hand("99m88p99p55s66s3m6p1p"),
    "1": hand("123m456m789m55p67p"),
    "2": hand("111s222s333p45p77p"),
    "3": hand("124578m3467899s"),
}

# S2 暗杠 9s, then 弯杠 7s on the replacement, then discards 4p: S1 wins 杠上炮.
# At the draw S2 (1358m 135s + kongs, two suits) is not ready; S0 (234m 567m 22p 345p 78p) and
# S3 (123s 456s 888s 99p 78p) are both ready on 6p/9p, 平胡 only.
LATEST_KONG = [
    kong(2, "concealed", "9s"),
    kong(2, "added", "7s"),
    win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard"]),
]
LATEST_KONG_DRAW = {
    "hands": {
        "0": hand("234m567m22p345p78p"),
        "2": hand("1358m135s", [meld("kong", "9s", True), meld("kong", "7s")]),
        "3": hand("123s456s888s99p78p"),
    }
}
