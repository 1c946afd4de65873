"""The peers' own test vectors, restated as hand records and checked against RULES.

The competition presets were written from RULES §3.6–§3.8; these tests take the test cases of
the public implementations those rules were read from (or agree with) and run them through our
engine:

- ``tfmj2024`` (RULES §3.6): EllanServer/MahjongEngine, the implementation RULES names. Its
  Sichuan tests live in ``src/test/kotlin/top/ellan/mahjong/table/core/round/``:
  ``SichuanRulesEngineTest.kt``, ``SichuanRealWorldFanCoverageTest.kt``,
  ``SichuanRuleInvariantTest.kt`` and ``GbTableRoundControllerTest.kt`` (its classes
  ``SichuanTableRoundControllerRulesTest``, ``…ReactionTest``, ``…ProgressionTest``).
- ``sbr`` (RULES §3.7): dcmshi/sichuan-mahjong, a TypeScript implementation whose rules reference
  is Novikov's rulebook ("PDF Table 9" encoded in ``packages/engine/src/scoring.ts``). Its tests:
  ``packages/engine/tests/scoring-cases.test.ts``, ``payments.test.ts``, ``phase4.test.ts``.

Each test restates one peer vector (its hand and numbers are facts; no peer code is used). The
expected values are worked out by hand from RULES (the working is in each test) and the peer's
own expectation is noted beside them with where it comes from. Where a peer's hand breaks tile
conservation (a fifth copy — the peers build hands directly in memory) or sets a situation our
record cannot have (a 杠上花 flag without a kong), the test says what was adapted and why.

Base 1, dealer S0, seats S0–S3 in play order (the peers' EAST, SOUTH, WEST, NORTH).
"""

from __future__ import annotations

import pytest

from scoring.engine import EngineError, evaluate
from scoring.engine.settle import settle

from ..builders import check_win, hand, kong, meld, record, win, winner
from .competition import false_win, flows, paid_by, pays, refusal, spec, wh

T = "tfmj2024"
S = "sbr"
ELLAN = "EllanServer/MahjongEngine src/test/kotlin/top/ellan/mahjong/table/core/round/"
DCM = "dcmshi/sichuan-mahjong packages/engine/tests/"

# Hands the draws below share: 13 tiles, none ready (checked by hand in each test that uses
# them). NR_A: 5689m + 1..9s (2468s 1357s 9s): the m tiles 5 6 8 9 hold no pair and no set
# with a fourth tile. NR_B: 24578m + 13456789s: no pair, and 2 4 5 7 8m need two more tiles.
NR_A = "5689m2468s1357s9s"
NR_B = "24578m13456789s"


def events_flows(d: dict, event: int) -> list[tuple[str, str, int]]:
    """The seat payments of one event of a settlement, as sorted (payer, payee, amount)."""
    return sorted(
        (p["payer"], p["payee"], p["amount"])
        for p in d["payments"]
        if p["event"] == event and p["reason"] != "bettor"
    )


# ================================================================================================
# tfmj2024 — EllanServer/MahjongEngine
# ================================================================================================

ELLAN_FANS = [
    # SichuanRulesEngineTest "evaluates standard fan list" (totalFan 0, PING_HU 0) and
    # SichuanRealWorldFanCoverageTest "base ping hu" (totalFan 0): 111m 234m 567m 234p + 99p
    # won on 9p: no row but 平胡, no 根 → 0 fan → 1.
    pytest.param(wh("111234567m2349p", "9p"), "pinghu", 0, 0, 1, False, id="pinghu"),
    # SichuanRulesEngineTest "seven pairs remains a two fan basic hand…" (plain: QI_DUI, no
    # GEN, totalFan 2): 11 22 33 44m 66 77 99p: 七对 2 → 4.
    pytest.param(wh("11223344m6677p9p", "9p"), "qidui", 0, 2, 4, False, id="qidui"),
    # same test, "dragon" (GEN ×1, totalFan 3): 1111 33 44m 66 77 99p: 七对 2 + 1 根 → 8.
    pytest.param(wh("11113344m6677p9p", "9p"), "qidui", 1, 3, 8, False, id="qidui-1-root"),
    # same test, "doubleDragon" (GEN ×2, totalFan 3 after the cap): 1111 3333m 66 77 99p:
    # 七对 2 + 2 根 = 4 fan, cap 3 → 8.
    pytest.param(wh("11113333m6677p9p", "9p"), "qidui", 2, 4, 8, True, id="qidui-2-roots"),
    # same test, "deluxe" (GEN ×3, totalFan 3): 1111 3333 5555m 99p: 2 + 3 = 5 fan → 8.
    pytest.param(wh("111133335555m9p", "9p"), "qidui", 3, 5, 8, True, id="qidui-3-roots"),
    # SichuanRulesEngineTest "seven pairs of all 2-5-8 tiles stays a seven pairs hand" (QI_DUI
    # and GEN, no JIANG_DUI): 22 55 88m 22 55p 8888p: 七对 2 + 1 根 (four 8p) = 3 fan → 8;
    # 将对 is no row of its own (RULES §3.6).
    pytest.param(wh("225588m2255888p", "8p"), "qidui", 1, 3, 8, False, id="qidui-258"),
    # SichuanRulesEngineTest "all 2-5-8 triplets score only as all pungs" (totalFan 1,
    # DUI_DUI_HU, no JIANG_DUI) and SichuanRealWorldFanCoverageTest "all 2-5-8 pungs"
    # (totalFan 1): 222m 555m 222p 555p 88m: 对对胡 1 → 2 (将对 is just 对对胡, RULES §3.6).
    pytest.param(wh("222555m222555p8m", "8m"), "duiduihu", 0, 1, 2, False, id="jiangdui"),
    # SichuanRulesEngineTest "full flush seven pairs uses the highest basic fan then roots
    # before cap" (totalFan 3, QI_DUI, QING_YI_SE, GEN ×3): 1111 2222 3333 44m: 清一色 and
    # 七对 are both 2 and do not add → 2, + 3 根 = 5 fan, cap 3 → 8; a tie of 清一色 and 七对
    # reports 七对 (listed later, RULES §3.6).
    pytest.param(wh("1111222233334m", "4m"), "qidui", 3, 5, 8, True, id="qingqidui-3-roots"),
    # SichuanRealWorldFanCoverageTest "root" (GEN): 1111m 23m 234p 567p 9m + 9m:
    # 111m 123m 234p 567p 99m, 平胡 0 + 1 根 (four 1m) = 1 fan → 2.
    pytest.param(wh("111123m234567p9m", "9m"), "pinghu", 1, 1, 2, False, id="pinghu-root"),
    # SichuanRealWorldFanCoverageTest "all pungs" (DUI_DUI_HU): 222m 555m 333p 555p 99p:
    # 对对胡 1 → 2.
    pytest.param(wh("222555m333555p9p", "9p"), "duiduihu", 0, 1, 2, False, id="duiduihu"),
    # SichuanRealWorldFanCoverageTest "full flush" (QING_YI_SE): 111 234 567 789 99m:
    # 清一色 2 → 4 (three 9m, no 根).
    pytest.param(wh("1112345677899m", "9m"), "qingyise", 0, 2, 4, False, id="qingyise"),
    # SichuanRealWorldFanCoverageTest "seven pairs" (QI_DUI): 11 22 33 66m 44 55 66p; it also
    # reads 123m 123m 66m 456p 456p (平胡 0), the best reading counts: 七对 2 → 4.
    pytest.param(wh("11223366m44556p", "6p"), "qidui", 0, 2, 4, False, id="qidui-or-pinghu"),
    # SichuanRealWorldFanCoverageTest "golden single wait" (JIN_GOU_DIAO and DUI_DUI_HU): pungs
    # 2m 5m 3p 8p and 2p, won on 2p: 对对胡 1 + 金钩钓 1 = 2 fan → 4.
    pytest.param(
        wh("2p", "2p", [meld("pung", t) for t in ("2m", "5m", "3p", "8p")]),
        "duiduihu", 0, 2, 4, False, id="jingoudiao",
    ),
    # SichuanRealWorldFanCoverageTest "robbing kong" (QIANG_GANG_HU), adapted: the peer robs
    # 9p from a hand already holding one 9p, which with the robbed player's pung is five 9p;
    # here 123m 456m 789m 11p 23p robs 4p: 平胡 0 + 抢杠胡 1 = 1 fan → 2.
    pytest.param(wh("123m456m789m11p23p", "4p", situation=["robbing_kong"]), "pinghu", 0, 1, 2,
                 False, id="qiangganghu"),
    # SichuanRealWorldFanCoverageTest "under the sea" (HAI_DI on a self-draw with LAST_TILE):
    # the 平胡 above self-drawn on the last tile: 0 + 海底 1 = 1 fan → 2, +1 after the cap → 3.
    pytest.param(wh("111234567m2349p", "9p", self_draw=True, situation=["last_tile"]),
                 "pinghu", 0, 1, 3, False, id="haidi-self-drawn"),
    # SichuanRealWorldFanCoverageTest "last discard" (HAI_DI on a discard): 1 fan → 2.
    pytest.param(wh("111234567m2349p", "9p", situation=["last_tile"]), "pinghu", 0, 1, 2, False,
                 id="haidi-discard"),
    # SichuanRealWorldFanCoverageTest "nonstandard dragon seven pairs…" (QI_DUI + GEN, no
    # LONG_QI_DUI, totalFan 3): 1111 22 33m 44 55 66p; it also reads 123m 123m 11m 456p 456p
    # (平胡 + 根 = 1); best: 七对 2 + 1 根 = 3 fan → 8.
    pytest.param(wh("11112233m44556p", "6p"), "qidui", 1, 3, 8, False, id="rooted-qidui"),
]  # fmt: skip


@pytest.mark.parametrize(("hand_", "pattern", "roots", "total", "value", "capped"), ELLAN_FANS)
def test_ellan_fan_vectors(hand_, pattern, roots, total, value, capped):
    """RULES §3.6: 平胡 0, 对对胡 1, 清一色 2 (raises the base, does not add), 七对 2; +1 fan each
    根, 金钩钓, 海底, 杠上花, 杠上炮, 抢杠胡; cap 3; self-draw +1 after the cap. Each row: the
    hand, its working, and the EllanServer/MahjongEngine test it restates (peer value =
    ours on every row)."""
    check_win(hand_, T, pattern, roots, total, value, capped)


WAIT_ANYWHERE_PINGHU = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p"]


@pytest.mark.parametrize("tile", WAIT_ANYWHERE_PINGHU)
def test_ellan_standard_win_whichever_tile_is_the_winning_one(tile):
    """SichuanRuleInvariantTest "standard and seven pairs wins are invariant to tile order and
    winning tile position" (first hand: valid for every winning tile). 123m 456m 789m 111p 22p
    with each of its tiles as the winning tile: always 平胡, no 根 (three 1p), 0 fan → 1."""
    full = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "1p", "2p", "2p"]
    full.remove(tile)
    check_win(wh("".join(full), tile), T, "pinghu", 0, 0, 1)


@pytest.mark.parametrize("tile", ["1m", "2m", "3m", "4m", "5p", "6p", "7p"])
def test_ellan_seven_pairs_whichever_tile_is_the_winning_one(tile):
    """SichuanRuleInvariantTest, second hand: 11 22 33 44m 55 66 77p valid for every winning
    tile. It also reads 123m 123m 44m 567p 567p (平胡 0); the best reading counts: 七对 2 → 4."""
    full = ["1m", "1m", "2m", "2m", "3m", "3m", "4m", "4m", "5p", "5p", "6p", "6p", "7p", "7p"]
    full.remove(tile)
    check_win(wh("".join(full), tile), T, "qidui", 0, 2, 4)


def test_ellan_three_suits_cannot_win():
    """SichuanRulesEngineTest "missing one suit is required for Sichuan hands" (isMissingOneSuit
    false for m, p and s): RULES §2 缺一门. 123m 123p 123s 456m 77p is four sets and a pair in
    three suits: not a win (``three_suits``)."""
    d = evaluate(wh("123m123p123s456m7p", "7p"), T).as_dict()
    assert (d["win"], d["reason"]) == (False, "three_suits")


@pytest.mark.parametrize(
    ("concealed", "tile", "melds"),
    [
        # SichuanRulesEngineTest "fan evaluation rejects a fifth copy split across a pung and
        # concealed tiles": pung 3p + 3p 123456m 789p, won on 3p = five 3p
        ("3p123456m789p", "3p", [meld("pung", "3p")]),
        # SichuanRuleInvariantTest "impossible fifth copy is rejected…": 1111m 23456m 111p 2p
        # won on 1m = five 1m
        ("111123456m1112p", "1m", []),
    ],
    ids=["across-a-pung", "in-hand"],
)
def test_ellan_a_fifth_copy_is_refused(concealed, tile, melds):
    """RULES §5: a tile kind appearing more than four times in one hand record is refused (the
    peer: ``valid`` false). E0 S1 wins on S2's discard with five copies of one tile."""
    rec = record(T, [win(tile, winner(1, concealed, melds), frm=2)])
    found = refusal(lambda: settle(rec))
    assert ("too_many_copies", "events[0].winners[0].concealed") in found, found


def test_ellan_self_draw_and_discard_deltas():
    """SichuanRulesEngineTest "winning deltas handle self draw and discard win": unit 2 (a 1 fan
    hand), self-drawn with two opponents still in → each pays 3, the winner +6; on a discard
    the discarder alone pays 2.
    Record: E0 S3 wins 平胡 on S1's 4p (0 fan → 1: S1 → S3 1) and leaves the hand; E1 S0
    self-draws 5p, 111s 222s 444s 555p 66p: 对对胡 1 fan → 2, +1 after the cap → 3 from each of
    S1, S2 (S3 has won). Then the discard case alone: S0 wins the same hand on S1's 5p → 2."""
    rec = record(
        T,
        [
            win("4p", winner(3, "123m456m789m11p23p"), frm=1),
            win("5p", winner(0, "111s222s444s55p66p")),
        ],
    )
    d = settle(rec).as_dict()
    assert events_flows(d, 1) == sorted(paid_by(0, (1, 2), 3))
    assert d["totals"]["seats"] == [6, -4, -3, 1]
    discard = settle(record(T, [win("5p", winner(0, "111s222s444s55p66p"), frm=1)])).as_dict()
    assert flows(discard) == [("S1", "S0", 2)]


@pytest.mark.parametrize(
    ("kind", "each"),
    [("concealed", 2), ("added", 1)],
    ids=["concealed-6", "added-3"],
)
def test_ellan_kong_deltas(kind, each):
    """SichuanRulesEngineTest "kan deltas support concealed direct and added kong payouts"
    (+6 at 2 each, +3 at 1 each) and GbTableRoundControllerTest "sichuan concealed kan collects
    rain points from active opponents" (+6): RULES §3.6 暗杠 2 / 弯杠 1 from each player still
    in. E0 S0 kongs 1m: S1, S2, S3 → S0 ``each``."""
    d = settle(record(T, [kong(0, kind, "1m")])).as_dict()
    assert flows(d) == sorted(paid_by(0, (1, 2, 3), each))
    assert d["totals"]["seats"] == [3 * each, -each, -each, -each]


def test_ellan_natural_flower_pig_and_chajiao_at_the_cap():
    """SichuanRulesEngineTest "natural flower pig is treated as not ready without a fixed
    penalty": four players in, SOUTH alone ready with unit 8 (a 3 fan wait) → EAST, WEST, NORTH
    −8 each, SOUTH +24.
    流局 (RULES §4.6, ``huazhu: not_ready``):
      S0 2579m 13579p 46p 1s 9s: three suits, 花猪 — no fixed penalty, pays 查叫 as not ready;
      S1 1111m 33 99m 22 88p 7p: ready on 7p, 七对 2 + 1 根 = 3 fan → 8;
      S2 23456789m 2468p 1p and S3 24578m 13456789s: not ready.
    查叫: S0, S2, S3 → S1 8 each. No kongs. S1 +24, the others −8."""
    draw = {
        "hands": {
            "0": hand("2579m13579p46p1s9s"),
            "1": hand("1111m3399m2288p7p"),
            "2": hand("23456789m2468p1p"),
            "3": hand(NR_B),
        }
    }
    d = settle(record(T, [], draw=draw)).as_dict()
    assert flows(d) == sorted(paid_by(1, (0, 2, 3), 8))
    assert d["totals"]["seats"] == [-8, 24, -8, -8]
    assert {x["seat"]: x["ready"] for x in d["draw"]} == {0: False, 1: True, 2: False, 3: False}


def test_ellan_best_ready_unit_is_capped_at_8():
    """SichuanRulesEngineTest "sichuan score units include zero fan and cap at three fan"
    (scoreUnit 5 → 8, bestReadyUnit of a 6 fan wait → 8): a wait over the cap is paid at the
    cap. 流局: S1 1111m 3333p 5555p 7p, ready on 7p: 七对 2 + 3 根 = 5 fan, cap 3 → 8.
    S0 2579m 146789p 13s 9s (three suits), S2, S3 not ready: each pays S1 8."""
    draw = {
        "hands": {
            "0": hand("2579m146789p13s9s"),
            "1": hand("1111m3333p5555p7p"),
            "2": hand("23456789m2468p1p"),
            "3": hand(NR_B),
        }
    }
    d = settle(record(T, [], draw=draw)).as_dict()
    assert {x["seat"]: x["chajiao_value"] for x in d["draw"] if x["ready"]} == {1: 8}
    assert d["totals"]["seats"] == [-8, 24, -8, -8]


def test_ellan_kong_flower_adapted():
    """SichuanRealWorldFanCoverageTest "win after kong" (GANG_SHANG_HUA), adapted: the peer sets
    the AFTER_KONG flag on 111m 234567m 234p 99p with no kong (its value: 平胡 + 杠上花 = 1 fan →
    2, self-drawn 3). A record needs the kong (RULES §5: 杠上花 without the winner's kong just
    before is refused), so the 111m set is the 暗杠 1111m — which adds a 根:
    E0 S0 暗杠 1m: S1, S2, S3 → S0 2 each. E1 S0 self-draws 9p on the replacement:
    234m 567m 234p 99p + 1111m: 平胡 0 + 根 1 + 杠上花 1 = 2 fan → 4, +1 → 5 from each.
    S0 +6 +15 = 21; the others −7."""
    rec = record(
        T,
        [
            kong(0, "concealed", "1m"),
            win(
                "9p",
                winner(0, "234567m2349p", [meld("kong", "1m", True)]),
                situation=["kong_flower"],
            ),
        ],
    )
    d = settle(rec).as_dict()
    assert d["wins"][0]["value"] == 5
    assert d["totals"]["seats"] == [21, -7, -7, -7]


def test_ellan_kong_discard_fan_with_the_transfer():
    """SichuanRealWorldFanCoverageTest "shoot after kong" (GANG_SHANG_PAO): 111m 234567m 234p
    9p won on a discard right after the discarder's kong: 平胡 0 + 杠上炮 1 = 1 fan → 2. As a
    record (the discarder S1's 暗杠 5s first, RULES §4.4 chain_split):
    E0 S1 暗杠 5s: S0, S2, S3 → S1 2 each. E1 S0 wins 9p 杠上炮: S1 → S0 2, and the chain (that
    kong, 6) moves: S1 → S0 6. S0 −2 +2 +6 = 6; S1 +6 −8 = −2; S2 −2; S3 −2."""
    rec = record(
        T,
        [
            kong(1, "concealed", "5s"),
            win("9p", winner(0, "111234567m2349p"), frm=1, situation=["kong_discard"]),
        ],
    )
    d = settle(rec).as_dict()
    assert d["wins"][0]["value"] == 2
    assert d["totals"]["seats"] == [6, -2, -2, -2]


def test_ellan_call_transfer_without_refunding_the_payers():
    """GbTableRoundControllerTest "sichuan gang shang pao transfers kong income without
    refunding original payers": EAST 暗杠 1m (25006), discards 9p, SOUTH wins → EAST 24998,
    SOUTH 25006, WEST 24998, NORTH 24998, i.e. [−2, +6, −2, −2]. Adapted hand: the peer's
    SOUTH holds 111m beside EAST's 1111m (seven 1m); here S1 holds 234m 567m 888m 234p 9p.
    E0 S0 暗杠 1m: 2 from each. E1 S1 wins 9p 杠上炮: 平胡 + 1 = 1 fan → 2 from S0, and the
    income 6 moves to S1 (RULES §4.4 chain_split; no refund to the payers).
    S0 +6 −2 −6 = −2; S1 −2 +2 +6 = 6; S2 −2; S3 −2 (the peer's figures exactly)."""
    rec = record(
        T,
        [
            kong(0, "concealed", "1m"),
            win("9p", winner(1, "234567888m2349p"), frm=0, situation=["kong_discard"]),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted([*paid_by(0, (1, 2, 3), 2), ("S0", "S1", 2), ("S0", "S1", 6)])
    assert d["totals"]["seats"] == [-2, 6, -2, -2]


def test_ellan_call_transfer_of_two_consecutive_kongs():
    """GbTableRoundControllerTest "sichuan gang shang pao transfers every consecutive kong
    income": EAST 暗杠 1m and 暗杠 2m (25012), discards 9p, SOUTH wins → 24998, 25010, 24996,
    24996, i.e. [−2, +10, −4, −4]. Adapted hand (the peer's SOUTH holds 1m and 2m beside EAST's
    kongs of them): S1 345m 678m 999m 234p 9p.
    E0 S0 暗杠 1m, E1 S0 暗杠 2m on its replacement (``on_replacement``): 2 from each, twice.
    E2 S1 wins 9p 杠上炮: 平胡 + 1 → 2; the chain (both kongs, 12) moves to S1.
    S0 +12 −2 −12 = −2; S1 −4 +2 +12 = 10; S2 −4; S3 −4 (the peer's figures)."""
    rec = record(
        T,
        [
            kong(0, "concealed", "1m"),
            kong(0, "concealed", "2m", on_replacement=True),
            win("9p", winner(1, "345678999m234p9p"), frm=0, situation=["kong_discard"]),
        ],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-2, 10, -4, -4]


def test_ellan_multi_ron_call_transfer_rounds_each_share_up():
    """GbTableRoundControllerTest "sichuan multi ron call transfer rounds each share up and
    discarder pays the difference": SOUTH 直杠 1m on EAST's discard (25002), discards 9p, EAST,
    WEST and NORTH all win → 25001, 24993, 25003, 25003, i.e. [+1, −7, +3, +3]. Adapted hands
    (the peer's three winners hold 1m each beside SOUTH's kong of 1m):
    S0 234m 567m 234p 567p 9p, S2 345m 678m 345p 678p 9p, S3 222m 345m 678m 456p 9p.
    E0 S1 直杠 1m from S0: S0 → S1 2. E1 S1 discards 9p; S0, S2, S3 win, each 平胡 + 杠上炮 =
    1 fan → 2 from S1; the transfer (income 2, three winners): ceil(2 / 3) = 1 each, S1 pays 3.
    S0 −2 +2 +1 = 1; S1 +2 −6 −3 = −7; S2 +3; S3 +3 (the peer's figures)."""
    rec = record(
        T,
        [
            kong(1, "direct", "1m", frm=0),
            win(
                "9p",
                winner(0, "234567m234567p9p"),
                winner(2, "345678m345678p9p"),
                winner(3, "222345678m456p9p"),
                frm=1,
                situation=["kong_discard"],
            ),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted([("S0", "S1", 2), *pays(1, (0, 2, 3), 2), *pays(1, (0, 2, 3), 1)])
    assert d["totals"]["seats"] == [1, -7, 3, 3]


def test_ellan_the_chain_clears_when_the_kong_discard_is_not_won():
    """GbTableRoundControllerTest "sichuan call transfer chain clears when the kong discard is
    not won" (pending transfer events 1 → 0): a later win off the konger's discard, not the one
    right after the kong, moves nothing (RULES §4.4: only a 杠上炮 transfers).
    E0 S0 暗杠 1m: 2 from each. E1 S1 wins 平胡 on a later discard of S0 (no ``kong_discard``):
    S0 → S1 1, no transfer. S0 +6 −1 = 5; S1 −2 +1 = −1; S2 −2; S3 −2."""
    rec = record(T, [kong(0, "concealed", "1m"), win("9p", winner(1, "234567888m2349p"), frm=0)])
    d = settle(rec).as_dict()
    assert [p for p in d["payments"] if p["reason"] == "kong_transfer"] == []
    assert d["totals"]["seats"] == [5, -1, -2, -2]


def test_ellan_robbing_an_added_kong():
    """GbTableRoundControllerTest "robbing an added kong consumes only the fourth tile and keeps
    the pung" (kanCount 0: the kong never forms). Adapted hand: the peer's robber holds a 3p
    beside the pung 3p and the robbed 3p (five 3p); here S0 123m 456m 789m 11p 23p robs S1's
    弯杠 4p (RULES §4.5): 平胡 0 + 抢杠胡 1 = 1 fan → 2, S1 pays as the discarder; the cancelled
    kong pays nothing. S0 +2, S1 −2."""
    rec = record(
        T,
        [
            kong(1, "added", "4p"),
            win("4p", winner(0, "123m456m789m11p23p"), frm=1, situation=["robbing_kong"]),
        ],
    )
    d = settle(rec).as_dict()
    assert flows(d) == [("S1", "S0", 2)]
    assert d["totals"]["seats"] == [2, -2, 0, 0]


def test_ellan_a_late_added_kong_pays_nothing():
    """GbTableRoundControllerTest "Sichuan added kong requires the fourth tile to be the current
    draw" (the peer refuses a later 弯杠: it earns nothing). RULES §3.6 ``added_kong_same_turn``
    records it and pays nothing: E0 S1 弯杠 7s declared later than its tile was drawn → 0."""
    d = settle(record(T, [kong(1, "added", "7s", same_turn=False)])).as_dict()
    assert flows(d) == []
    assert d["totals"]["seats"] == [0, 0, 0, 0]


def test_ellan_qingyise_and_root_self_drawn_27():
    """GbTableRoundControllerTest "sichuan qingyise and root fan score by powers of two" (EAST
    +27): EAST self-draws 1111m 234567m 777m 99m (the last 9m drawn): 111m 123m 456m 777m 99m,
    清一色 2 + 根 1 = 3 fan → 8, +1 after the cap → 9 from each of three: +27."""
    d = settle(record(T, [win("9m", winner(0, "1111234567779m"))])).as_dict()
    assert flows(d) == sorted(paid_by(0, (1, 2, 3), 9))
    assert d["totals"]["seats"] == [27, -9, -9, -9]


def test_ellan_high_fan_hand_at_the_cap_27():
    """GbTableRoundControllerTest "sichuan high fan hands score at the three fan cap" (EAST
    +27): EAST self-draws 1111 2222 3333 44m: 七对 2 (清一色 does not add) + 3 根 = 5 fan, cap 3
    → 8, +1 → 9 from each: +27."""
    d = settle(record(T, [win("4m", winner(0, "1111222233334m"))])).as_dict()
    assert d["totals"]["seats"] == [27, -9, -9, -9]


def test_ellan_blood_battle_ends_after_three_self_draws():
    """GbTableRoundControllerTest "sichuan blood battle ends after three winners" (EAST, SOUTH,
    WEST self-draw in turn; three settlements, the hand over). Adapted hands (the peer's three
    winners each hold 111m). Each 平胡 self-draw: 0 fan → 1, +1 → 2 from each player still in:
    E0 S0 (payers S1 S2 S3) +6; E1 S1 (payers S2 S3) +4; E2 S2 (payer S3) +2.
    S0 +6; S1 −2 +4 = 2; S2 −2 −2 +2 = −2; S3 −6. Three winners: finished (RULES §4.10)."""
    rec = record(
        T,
        [
            win("4p", winner(0, "123m456m789m11p23p")),
            win("6s", winner(1, "234m567m22s345s78s")),
            win("9p", winner(2, "345678p456789s9p")),
        ],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [6, 2, -2, -6]
    assert d["finished"] is True


def test_ellan_a_winner_does_not_pay_later_wins():
    """GbTableRoundControllerTest "sichuan discard win continues blood battle until third winner
    settles the hand" (SOUTH's points unchanged by WEST's later self-draw). Adapted hands.
    E0 S1 wins 平胡 on S0's 4p: S0 → S1 1. E1 S2 self-draws 平胡: 2 from S0 and S3 (not S1).
    E2 S3 self-draws 平胡: 2 from S0 alone.
    S0 −1 −2 −2 = −5; S1 +1; S2 +4; S3 −2 +2 = 0."""
    rec = record(
        T,
        [
            win("4p", winner(1, "123m456m789m11p23p"), frm=0),
            win("6s", winner(2, "234m567m22s345s78s")),
            win("9p", winner(3, "345678p456789s9p")),
        ],
    )
    d = settle(rec).as_dict()
    assert events_flows(d, 1) == sorted(paid_by(2, (0, 3), 2))
    assert d["totals"]["seats"] == [-5, 1, 4, 0]


def test_ellan_several_winners_on_one_discard():
    """GbTableRoundControllerTest "sichuan allows multiple ron winners on the same discard"
    (two settled, the hand goes on): EAST discards 7p; SOUTH and WEST (both void 万) hold
    123456p 89p 123s 44s: 123p 456p 789p 123s 44s, 平胡 0 fan → 1 each from S0. Unfinished;
    an opening 一炮多响: its discarder S0 deals next (RULES §3.6)."""
    rec = record(
        T,
        [win("7p", winner(1, "12345689p12344s"), winner(2, "12345689p12344s"), frm=0)],
        declared_void=[None, "m", "m", None],
    )
    d = settle(rec).as_dict()
    assert flows(d) == sorted(pays(0, (1, 2), 1))
    assert d["finished"] is False
    assert d["next_dealer"] == 0


def test_ellan_first_winner_deals_next():
    """GbTableRoundControllerTest "first Sichuan winner becomes dealer of the next hand": EAST
    discards 9p, SOUTH wins → SOUTH deals next (RULES §3.6: the first winner)."""
    d = settle(record(T, [win("9p", winner(1, "111234567m2349p"), frm=0)])).as_dict()
    assert d["next_dealer"] == 1


def test_ellan_draw_refunds_a_not_ready_players_kong():
    """GbTableRoundControllerTest "sichuan exhaustive draw refunds every kong payment earned by
    a not ready player" (everyone back to 25000). Adapted: the peer's EAST konged 1m of his own
    declared void suit (RULES §5 refuses that), so no void is declared here, and the others'
    hands hold no 1m.
    E0 S0 暗杠 1m: 2 from each. 流局: S0 2468m 9m 13579p + 1111m, S1 2357m 1..9p, S2 3579m
    1..9p, S3 2368m 2468s 13579s — nobody ready: no 查叫; 退税: S0 returns 2 to each.
    All 0."""
    draw = {
        "hands": {
            "0": hand("24689m13579p", [meld("kong", "1m", True)]),
            "1": hand("2357m2468p1357p9p"),
            "2": hand("3579m13579p2468p"),
            "3": hand("2368m2468s13579s"),
        }
    }
    d = settle(record(T, [kong(0, "concealed", "1m")], draw=draw)).as_dict()
    assert d["totals"]["seats"] == [0, 0, 0, 0]
    assert not any(x["ready"] for x in d["draw"])


def test_ellan_natural_flower_pig_pays_ordinary_chajiao():
    """GbTableRoundControllerTest "natural flower pig pays ordinary cha jiao without a fixed
    transfer" (24999, 25003, 24999, 24999 → [−1, +3, −1, −1]); the peer's four hands restated
    as they are (all declared 条 void):
      S0 13579m 2m 13579p 4p 1s: holds his void suit — 花猪, under ``huazhu: not_ready`` no
         fixed penalty, he pays 查叫 as a player who is not ready (RULES §4.6);
      S1 123456789m 234p 9p: ready on 9p (a dead wait — the other three 9p are in S0, S2,
         S3's hands — still ready, ``dead_wait_counts``): 平胡 0 fan → 1;
      S2, S3 13579m 13579p 2m 4p 6p: not ready.
    查叫: S0, S2, S3 → S1 1 each."""
    draw = {
        "hands": {
            "0": hand("13579m2m13579p4p1s"),
            "1": hand("123456789m234p9p"),
            "2": hand("13579m13579p2m4p6p"),
            "3": hand("13579m13579p2m4p6p"),
        }
    }
    rec = record(T, [], draw=draw, declared_void=["s", "s", "s", "s"])
    d = settle(rec).as_dict()
    assert flows(d) == sorted(paid_by(1, (0, 2, 3), 1))
    assert d["totals"]["seats"] == [-1, 3, -1, -1]


def test_ellan_a_fifth_copy_is_no_wait():
    """GbTableRoundControllerTest "Sichuan ting never offers a fifth physical copy across a
    pung" (P3 not among the waits). 流局: S0 pung 3p + 3p 123456m 789p: the only tile that
    completes it is 3p, of which he holds all four — no wait (RULES §3.5): not ready.
    S1 123456789m 567p 9p ready on 9p, 平胡 → 1; S2 2579m 1579p 468p 1s 9s (three suits) and
    S3 not ready. 查叫: S0, S2, S3 → S1 1 each."""
    draw = {
        "hands": {
            "0": hand("3p123456m789p", [meld("pung", "3p")]),
            "1": hand("123456789m567p9p"),
            "2": hand("2579m1579p468p1s9s"),
            "3": hand(NR_B),
        }
    }
    d = settle(record(T, [], draw=draw)).as_dict()
    assert {x["seat"]: x["ready"] for x in d["draw"]} == {0: False, 1: True, 2: False, 3: False}
    assert d["totals"]["seats"] == [-1, 3, -1, -1]


def test_ellan_a_win_must_miss_the_declared_suit():
    """GbTableRoundControllerTest "sichuan hand must be missing one suit to win" (void 万, hand
    111m 234567m 234p 99s: no tsumo) and "sichuan self draw requires missing the declared suit"
    (void 万: 123456m 123456p 99p refused; 123456789p 123s 44s wins). RULES §2, §5:
    - 111m 234567m 234p 99s: three suits → refused;
    - 123456m 123456p 99p with 万 declared void → ``declared_void_suit``;
    - 123p 456p 789p 123s 44s, void 万: 平胡 0 fan → 1, self-drawn +1 → 2 from each: S0 +6."""
    void_m = ["m", None, None, None]
    three = record(T, [win("9s", winner(0, "111234567m234p9s"))], declared_void=void_m)
    assert ("three_suits", "events[0].winners[0]") in refusal(lambda: settle(three))
    holding = record(T, [win("9p", winner(0, "123456m123456p9p"))], declared_void=void_m)
    assert ("declared_void_suit", "events[0].winners[0]") in refusal(lambda: settle(holding))
    fine = record(T, [win("4s", winner(0, "123456789p123s4s"))], declared_void=void_m)
    assert settle(fine).as_dict()["totals"]["seats"] == [6, -2, -2, -2]


def test_ellan_no_chow():
    """GbTableRoundControllerTest "sichuan does not allow chii reactions": RULES §2 no chow; a
    claimed sequence in a winner's melds is refused (melds are three or four identical tiles)."""
    rec = record(T, [win("9p", winner(0, "456m789m2349p", [meld("chow", "1m")]), frm=1)])
    found = refusal(lambda: settle(rec))
    assert any(path.startswith("events[0].winners[0].melds[0]") for _, path in found), found


# ================================================================================================
# sbr — dcmshi/sichuan-mahjong (Novikov's rulebook)
# ================================================================================================

DCM_FANS = [
    # scoring-cases "a plain chow hand scores nothing and pays the base point" (no fan, 1):
    # 123m 456m 234p 678p 99p won on 1m: 平胡 0 fan → 1.
    pytest.param(wh("23456m234678p99p", "1m"), "pinghu", 0, 0, 1, False, id="plain"),
    # scoring-cases "all pungs alone is 1 fan → 2 points": 111m 444m 222p 777p 99p won on 1m
    # (a pung tile, two 1m held: no 单钓): 对对胡 1 → 2.
    pytest.param(wh("11m444m222p777p99p", "1m"), "duiduihu", 0, 1, 2, False, id="all-pungs"),
    # scoring-cases "all pungs won on the pair adds Golden Wait → 2 fan, 4 points": won on 9p,
    # one 9p held: 对对胡 1 + 单钓 1 = 2 → 4.
    pytest.param(wh("111m444m222p777p9p", "9p"), "duiduihu", 0, 2, 4, False, id="golden"),
    # scoring-cases "full flush alone is 2 fan → 4 points": 123 456 789 234 99m: 清一色 2 → 4.
    pytest.param(wh("23456789m23499m", "1m"), "qingyise", 0, 2, 4, False, id="flush"),
    # scoring-cases "seven pairs alone is 2 fan → 4 points": 11 44 66 99m 22 55 88p: 七对 2 → 4.
    pytest.param(wh("11446699m22558p", "8p"), "qidui", 0, 2, 4, False, id="seven-pairs"),
    # scoring-cases "a four-of-a-kind inside seven pairs is Root, not Kong" (8): 1111 44 66
    # 99m 22 55p: 七对 2 + 根 1 = 3 → 8.
    pytest.param(wh("1111446699m225p", "5p"), "qidui", 1, 3, 8, False, id="seven-pairs-root"),
    # scoring-cases "a pung and the fourth copy in a chow is Root" (2): 111m 123m 456p 789p
    # 22p: 平胡 0 + 根 1 = 1 → 2.
    pytest.param(wh("111123m456789p2p", "2p"), "pinghu", 1, 1, 2, False, id="pung-plus-chow"),
    # scoring-cases "a melded pung and the fourth copy in a concealed chow is Root" (2): pung
    # 1m + 123m 456p 789p 22p: 1 fan → 2.
    pytest.param(wh("123m456789p2p", "2p", [meld("pung", "1m")]), "pinghu", 1, 1, 2, False,
                 id="melded-pung-plus-chow"),
    # scoring-cases "four identical tiles in one set is Kong, not Root" (Kong 1): 暗杠 1m +
    # 234m 456p 789p 22p: the kong counts once, as its root (RULES §3.7): 1 fan → 2.
    pytest.param(wh("234m456789p2p", "2p", [meld("kong", "1m", True)]), "pinghu", 1, 1, 2,
                 False, id="kong-once"),
    # scoring-cases "Root stacks to the three the table allows" (Root 3, 8): pung 1m + 1m
    # 2222m 3333m 22p = 111m 123m 222m 333m 22p, four each of 1m 2m 3m: 3 根 → 3 fan → 8.
    pytest.param(wh("12222m3333m2p", "2p", [meld("pung", "1m")]), "pinghu", 3, 3, 8, False,
                 id="three-roots"),
    # scoring-cases "a declared kong is 1 fan each, and they stack" (Kong 2 + AllPungs +
    # GoldenWait = 4, capped 3 → 8): 暗杠 1m 4m + 222p 777p 99p won on 9p: 对对胡 1 + 2 根 +
    # 单钓 1 = 4 fan, cap 3 → 8.
    pytest.param(wh("222p777p9p", "9p", [meld("kong", "1m", True), meld("kong", "4m", True)]),
                 "duiduihu", 2, 4, 8, True, id="two-kongs"),
    # scoring-cases "caps at three fan, so eight points is the ceiling" (8): 111 333 555 777
    # 99m won on 9m (one held): 清对 3 + 单钓 1 = 4 fan, cap 3 → 8.
    pytest.param(wh("111m333m555m777m9m", "9m"), "qingdui", 0, 4, 8, True, id="cap"),
    # scoring-cases "scores the best reading of a hand that parses more than one way" (FullFlush
    # + AllPungs, 8): 111 222 333 777 99m won on 7m: as pungs 清对 3 → 8 (as chows 清一色 2).
    pytest.param(wh("111m222m333m77m99m", "7m"), "qingdui", 0, 3, 8, False, id="best-reading"),
    # scoring-cases "takes the seven-pairs reading when it pays more…" (SevenPairs + FullFlush):
    # 11 22 33 44 55 66 77m: 清七对 4 fan, cap 3 → 8 (as 123 123 567 567 44m only 清一色 2).
    pytest.param(wh("1122334455667m", "7m"), "qingqidui", 0, 4, 8, True, id="qingqidui"),
    # scoring-cases "adds the situational fan only when the structure allows it" (Under the
    # Sea with seven pairs: SevenPairs + UnderTheSea): 七对 2 + 海底 1 = 3 → 8.
    pytest.param(wh("11446699m22558p", "8p", situation=["last_tile"]), "qidui", 0, 3, 8, False,
                 id="seven-pairs-haidi"),
    # phase4 "AllPungs + FullFlush: all-pung one-suit hand" (totalFan 3 capped, 8): 11 222 333
    # 444 555m won on 1m (one held): 清对 3 + 单钓 1 = 4 fan, cap 3 → 8.
    pytest.param(wh("1m222m333m444m555m", "1m"), "qingdui", 0, 4, 8, True, id="qingdui-golden"),
    # phase4 "AllPungs + GoldenWait: tanki on pair in all-pung hand" (≥ 4): pungs 2m 3m 4m +
    # 555m 1p won on 1p: 对对胡 1 + 单钓 1 = 2 → 4 (three melds: not 金钩钓, off in sbr anyway).
    pytest.param(wh("555m1p", "1p", [meld("pung", t) for t in ("2m", "3m", "4m")]),
                 "duiduihu", 0, 2, 4, False, id="golden-three-melds"),
    # phase4 "SevenPairs: 7 distinct pairs" (≥ 4): 11 22 33 44m 11 22 33p (also 123m 123m 44m
    # 123p 123p, 平胡 0): 七对 2 → 4.
    pytest.param(wh("11223344m11223p", "3p"), "qidui", 0, 2, 4, False, id="seven-pairs-2"),
    # phase4 "SevenPairs + Root" (totalFan 3 capped): 1111 22 33 44 55 66m: 清七对 4 + 根 1 =
    # 5 fan, cap 3 → 8.
    pytest.param(wh("1112233445566m", "1m"), "qingqidui", 1, 5, 8, True, id="qingqidui-root"),
]  # fmt: skip


@pytest.mark.parametrize(("hand_", "pattern", "roots", "total", "value", "capped"), DCM_FANS)
def test_dcm_fan_vectors(hand_, pattern, roots, total, value, capped):
    """RULES §3.7: fans add — 对对胡 1, 清一色 2, 七对 2, 清对 3, 清七对 4; +1 each 根 (a kong
    once), 杠上花, 杠上炮, 抢杠, 海底, 单钓; cap 3. Each row: the hand, its working, and the
    dcmshi/sichuan-mahjong test it restates (peer value = ours on every row)."""
    check_win(hand_, S, pattern, roots, total, value, capped)


@pytest.mark.parametrize(
    ("ruleset", "pattern"),
    [(S, "tianhu"), (spec("sbr", tianhu_dihu=False), "qingdui")],
    ids=["heavenly", "heavenly-off"],
)
def test_dcm_heavenly_hand(ruleset, pattern):
    """phase4 "Heavenly Hand: auto-caps to fanCap value" (8) and "Heavenly disabled: scores
    structurally" (≥ 1). The dealer S0 self-draws 11 222 333 444 555m on his first 14 tiles:
    天胡 = the cap → 8 (RULES §3.7); off, the structure: 清对 3 + 单钓 1 = 4 fan, cap 3 → 8.
    Either way +1 after the cap → 9 from each: S0 +27."""
    rec = record(ruleset, [win("1m", winner(0, "1m222m333m444m555m"), situation=["heavenly"])])
    d = settle(rec).as_dict()
    assert d["wins"][0]["pattern"] == pattern
    assert d["totals"]["seats"] == [27, -9, -9, -9]


def test_dcm_win_after_kong_on_all_pungs():
    """phase4 "WinAfterKong contextual fan" (WinAfterKong present; the peer scores 11 222 333
    444 555m with the flag and no kong). A record needs the kong: 555m is the 暗杠 5555m.
    E0 S0 暗杠 5m: 2 from each. E1 S0 self-draws 1m on the replacement: 清对 3 + 根 1 + 单钓 1
    + 杠上花 1 = 6 fan, cap 3 → 8, +1 → 9 from each. S0 +6 +27 = 33; the others −11."""
    rec = record(
        S,
        [
            kong(0, "concealed", "5m"),
            win(
                "1m",
                winner(0, "1m222m333m444m", [meld("kong", "5m", True)]),
                situation=["kong_flower"],
            ),
        ],
    )
    d = settle(rec).as_dict()
    codes = [line["code"] for line in d["wins"][0]["lines"]]
    assert codes[:3] == ["qingdui", "gen", "gangshanghua"]
    assert d["totals"]["seats"] == [33, -11, -11, -11]


def test_dcm_seven_pairs_cannot_be_won_after_a_kong():
    """scoring-cases "adds the situational fan only when the structure allows it" (Win After
    Kong on seven pairs: dropped, {SevenPairs: 1}) and phase4 "compatibility: SevenPairs +
    WinAfterKong cannot coexist". The peer drops the flag; our record cannot have it at all:
    七对 holds no meld, so it cannot follow the winner's own kong (RULES §5,
    ``kong_flower_without_kong``)."""
    with pytest.raises(EngineError) as info:
        evaluate(wh("11446699m22558p", "8p", self_draw=True, situation=["kong_flower"]), S)
    assert "kong_flower_without_kong" in [p.code for p in info.value.problems]


def test_dcm_the_void_suit_never_wins():
    """scoring-cases "never lets the voided suit into a winning hand": 123m 456m 234p 678s 99p
    with 条 declared void: not a win (three suits, and the void suit held)."""
    d = evaluate(wh("123m456m234p678s9p", "9p", void="s"), S).as_dict()
    assert d["win"] is False


@pytest.mark.parametrize(
    ("concealed", "tile", "each", "value"),
    [
        # scoring-cases "all pungs in one suit, self-drawn: 3 fan, 8 points, 27 chips" and
        # payments "collects handValue + 1 from each of the other three" ([27, −9, −9, −9]):
        # 111 333 555 777 99m: 清对 3 + 单钓 1 = 4, cap 3 → 8, +1 → 9 each
        ("111m333m555m777m9m", "9m", 9, 9),
        # scoring-cases "a fan-less hand still moves chips…" and payments "a fan-less hand still
        # collects two from each" ([6, −2, −2, −2]): 123m 456m 234p 678p 99p: 0 → 1, +1 → 2
        ("123456m234678p9p", "9p", 2, 2),
    ],
    ids=["qingdui-27", "pinghu-6"],
)
def test_dcm_self_draw_pays_value_plus_one(concealed, tile, each, value):
    """RULES §3.7: self-draw +1 after the cap, from each player still in. E0 S0 self-draws."""
    d = settle(record(S, [win(tile, winner(0, concealed))])).as_dict()
    assert d["wins"][0]["value"] == value
    assert d["totals"]["seats"] == [3 * each, -each, -each, -each]


def test_dcm_kong_flower_and_haidi_stack():
    """scoring-cases "scores a win on that replacement as both Win after Kong and Under the
    Sea" (Kong + WinAfterKong + UnderTheSea = 3 fan, handValue 8): S0 暗杠 1m with one tile left
    and wins on the replacement, the wall's last tile. RULES §3.7 lets 杠上花 and 海底 stack
    (only a discard off the last tile drops 杠上炮).
    E0 S0 暗杠 1m: 2 from each. E1 S0 self-draws 9p: 456m 123p 567p 99p + 1111m: 平胡 0 + 根 1
    + 杠上花 1 + 海底 1 = 3 fan → 8, +1 → 9 from each. S0 +6 +27 = 33; the others −11."""
    rec = record(
        S,
        [
            kong(0, "concealed", "1m"),
            win(
                "9p",
                winner(0, "456m123567p9p", [meld("kong", "1m", True)]),
                situation=["kong_flower", "last_tile"],
            ),
        ],
    )
    d = settle(rec).as_dict()
    assert (d["wins"][0]["total"], d["wins"][0]["value"]) == (3, 9)
    assert d["totals"]["seats"] == [33, -11, -11, -11]


def test_dcm_self_draw_after_a_winner_left():
    """payments "is worth less once someone has already won, because they stop paying"
    ([18, 0, −9, −9]): the peer marks S1 as won with no payment; a record needs S1's win:
    E0 S1 wins 234p 567p 22s 345s 678s on S2's 6s: 平胡 → S2 → S1 1.
    E1 S0 self-draws 111 333 555 777 99m: 8, +1 → 9 from S2 and S3 only: the peer's 18, 0,
    −9, −9 for this win."""
    rec = record(
        S,
        [
            win("6s", winner(1, "234p567p22s345s78s"), frm=2),
            win("9m", winner(0, "111m333m555m777m9m")),
        ],
    )
    d = settle(rec).as_dict()
    assert events_flows(d, 1) == sorted(paid_by(0, (2, 3), 9))


@pytest.mark.parametrize(
    ("concealed", "tile"),
    [
        # payments "collects handValue from the discarder alone — nobody else pays" (8, −8, 0,
        # 0): 111 333 555 777m 9m won on S0's 9m: 清对 3 + 单钓 1 = 4, cap 3 → 8
        ("111m333m555m777m9m", "9m"),
        # phase4 "discard Hu: only discarder pays": 1p 222 333 444 555p won on 1p: the same 8
        ("1p222p333p444p555p", "1p"),
    ],
    ids=["payments", "phase4"],
)
def test_dcm_discard_win_paid_by_the_discarder_alone(concealed, tile):
    """RULES §4.2: the discarder pays the winner ``base × value``; nobody else pays."""
    d = settle(record(S, [win(tile, winner(1, concealed), frm=0)])).as_dict()
    assert flows(d) == [("S0", "S1", 8)]


def test_dcm_kongs_two_two_one_and_no_payment_from_a_winner():
    """payments "a concealed kong takes 2 from every seat still playing" ([6, −2, −2, −2]), "a
    concealed kong skips a seat that has already won" ([4, 0, −2, −2]), "a promoted kong takes 1
    from each, not 2" ([3, −1, −1, −1]); phase4 "concealed kong: 2 from each non-Hu player" and
    "…a player who already Hu'd does not pay". RULES §3.7 (kongs as tfmj2024), §4.1."""
    concealed = settle(record(S, [kong(0, "concealed", "1m")])).as_dict()
    assert concealed["totals"]["seats"] == [6, -2, -2, -2]
    added = settle(record(S, [kong(0, "added", "1m")])).as_dict()
    assert added["totals"]["seats"] == [3, -1, -1, -1]
    # E0 S1 wins 平胡 on S2's 6s (S2 → S1 1); E1 S0 暗杠 1m: 2 from S2 and S3 only
    after = record(
        S, [win("6s", winner(1, "234p567p22s345s78s"), frm=2), kong(0, "concealed", "1m")]
    )
    assert events_flows(settle(after).as_dict(), 1) == sorted(paid_by(0, (2, 3), 2))


def test_dcm_unrobbed_added_kong_refunded_at_the_draw():
    """payments "so a non-ready declarer gives it back when the wall runs out" ([0, 0, 0, 0]):
    E0 S0 弯杠 1m: 1 from each. 流局: S0 24689m 24689p + 1111m, S1 2357m 1..9p, S2 3579m 1..9p,
    S3 2368m 2468s 13579s — nobody ready; 退税 (RULES §4.6c): S0 returns 1 to each. All 0."""
    draw = {
        "hands": {
            "0": hand("24689m24689p", [meld("kong", "1m")]),
            "1": hand("2357m2468p1357p9p"),
            "2": hand("3579m13579p2468p"),
            "3": hand("2368m2468s13579s"),
        }
    }
    d = settle(record(S, [kong(0, "added", "1m")], draw=draw)).as_dict()
    assert d["totals"]["seats"] == [0, 0, 0, 0]


def test_dcm_shoot_after_kong_refunds_the_latest_kong_only():
    """payments "refunds the discarder's most recent kong when one seat wins" (refunded groups
    [1] of two). RULES §4.4 ``refund``: the discarder returns the income of his most recent kong
    that still has income to return.
    E0 S0 暗杠 2s, E1 S0 暗杠 4s: 2 from each, twice. E2 S0 discards 9m right after; S1 wins
    111 333 555 777m 9m: 清对 3 + 单钓 1 + 杠上炮 1 = 5 fan, cap 3 → 8: S0 → S1 8; S0 returns
    the 4s kong only: 2 to each of S1, S2, S3.
    S0 +12 −8 −6 = −2; S1 −4 +8 +2 = 6; S2 −4 +2 = −2; S3 −2."""
    rec = record(
        S,
        [
            kong(0, "concealed", "2s"),
            kong(0, "concealed", "4s"),
            win("9m", winner(1, "111m333m555m777m9m"), frm=0, situation=["kong_discard"]),
        ],
    )
    d = settle(rec).as_dict()
    assert events_flows(d, 2) == sorted([("S0", "S1", 8), *pays(0, (1, 2, 3), 2)])
    assert d["totals"]["seats"] == [-2, 6, -2, -2]


def test_dcm_shoot_after_kong_refund_once_for_two_winners():
    """payments "refunds that same one group when two seats win on the same tile" (refunded
    groups [1], not [0, 1]). Adapted: the peer's second winner holds the first one's tiles
    (six 1m); here S2 holds 222 444 666 888p 9m.
    E0, E1 as above. E2 S1 and S2 win S0's 9m: S1 8 (capped); S2 对对胡 1 + 单钓 1 + 杠上炮 1
    = 3 fan → 8. The refund once, the 4s kong: 2 to each of S1, S2, S3.
    S0 +12 −16 −6 = −10; S1 −4 +8 +2 = 6; S2 −4 +8 +2 = 6; S3 −4 +2 = −2."""
    rec = record(
        S,
        [
            kong(0, "concealed", "2s"),
            kong(0, "concealed", "4s"),
            win(
                "9m",
                winner(1, "111m333m555m777m9m"),
                winner(2, "222p444p666p888p9m"),
                frm=0,
                situation=["kong_discard"],
            ),
        ],
    )
    d = settle(rec).as_dict()
    assert events_flows(d, 2) == sorted([("S0", "S1", 8), ("S0", "S2", 8), *pays(0, (1, 2, 3), 2)])
    assert d["totals"]["seats"] == [-10, 6, 6, -2]


def test_dcm_false_win_flat_8():
    """payments "is a flat 8 to each opponent still playing, and is not scaled by the cap"
    ([−24, 8, 8, 8]), "pays only the seats still playing" ([−16, 0, 8, 8]); phase4
    "declareHuOnDraw with invalid hand applies penalty instead of failing" (−24, 8, 8, 8).
    RULES §4.9, ``false_win: 8``."""
    d = settle(record(S, [false_win(0)])).as_dict()
    assert d["totals"]["seats"] == [-24, 8, 8, 8]
    # E0 S1 wins 平胡 on S2's 6s; E1 S0's 诈胡: 8 to S2 and S3 only
    after = record(S, [win("6s", winner(1, "234p567p22s345s78s"), frm=2), false_win(0)])
    assert events_flows(settle(after).as_dict(), 1) == sorted(pays(0, (2, 3), 8))


def test_dcm_false_win_returns_kong_income():
    """phase4 "false-Hu via draw refunds offender kong payments" (S0 −24, S1 8 after S1 had paid
    S0 2 for a kong). As a record: E0 S0 直杠 1m on S1's discard: S1 → S0 2. E1 S0's 诈胡: 8 to
    each of S1, S2, S3 and his kong income back to S1 (RULES §4.9).
    S0 +2 −24 −2 = −24; S1 −2 +8 +2 = 8; S2 8; S3 8 (the peer's figures)."""
    d = settle(record(S, [kong(0, "direct", "1m", frm=1), false_win(0)])).as_dict()
    assert d["totals"]["seats"] == [-24, 8, 8, 8]


def test_dcm_false_win_beside_a_real_win():
    """phase4 "false-Hu claim in window applies penalty; valid claim still resolves" (S1 wins;
    S2's false claim pays 8 each; its comment: "P0, P3; P1 is Hu by now").
    E0 S1 wins 111 222 333 444m 5m on S0's 5m: 清对 3 + 单钓 1 = 4, cap 3 → 8: S0 → S1 8.
    E1 S2's 诈胡: 8 to each player still in — S0 and S3 (RULES §4.9: the players still in at
    that point of the record). S0 −8 +8 = 0; S1 8; S2 −16; S3 8.
    (The peer's code applies the penalty before it resolves the win of the same claim window,
    so S1 is paid as well; RULES takes the order the record gives.)"""
    rec = record(S, [win("5m", winner(1, "111m222m333m444m5m"), frm=0), false_win(2)])
    d = settle(rec).as_dict()
    assert events_flows(d, 1) == sorted(pays(2, (0, 3), 8))
    assert d["totals"]["seats"] == [0, 8, -16, 8]


def test_dcm_robbed_promoted_kong_pays_nothing():
    """phase4 "promoted kong: 1 from each non-Hu player, refunded if robbed" (seat 0 ends at
    −handValue, seats 2 and 3 at 0). Adapted hand: the peer's robber holds a 3m beside the
    pung 3m and the robbed 3m; here S1 111p 222p 333p 45m 66m robs S0's 弯杠 3m: 111p 222p
    333p 345m 66m, 平胡 0 + 抢杠 1 = 1 fan → 2 (RULES §4.5: the cancelled kong pays nothing,
    S0 pays as the discarder). S0 −2, S1 +2, S2 0, S3 0."""
    rec = record(
        S,
        [
            kong(0, "added", "3m"),
            win("3m", winner(1, "111p222p333p45m66m"), frm=0, situation=["robbing_kong"]),
        ],
    )
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-2, 2, 0, 0]


def test_dcm_wall_end_tmv():
    """phase4 "tenpai hand has non-zero TMV" and "non-ready player pays ready player their TMV
    at wall end": S0 111 222 333p 234m 1m, S1 the peer's not-ready 12356789m 45789p.
    S0 is ready on 1m (111p 222p 333p 234m 11m) and 4m (123m 44m), both 平胡 0 fan → 1.
    S1: 123m 567m 789p + 89m 45p, two tiles short: not ready; S2, S3 not ready.
    查叫: S1, S2, S3 → S0 1 each."""
    draw = {
        "hands": {
            "0": hand("111p222p333p234m1m"),
            "1": hand("12356789m45789p"),
            "2": hand(NR_A),
            "3": hand("24578m456789s13s"),
        }
    }
    d = settle(record(S, [], draw=draw)).as_dict()
    assert {x["seat"]: x["chajiao_value"] for x in d["draw"] if x["ready"]} == {0: 1}
    assert d["totals"]["seats"] == [3, -1, -1, -1]


def test_dcm_tmv_counts_a_root_in_hand():
    """phase4 "TMV picks up a Root the winning tile would complete" (2) and "non-tenpai hand has
    TMV = 0": S0 111m 23m 456p 789p 22p waits on 1m (111m 123m: the four 1m a 根, 1 fan → 2)
    and 4m (平胡 → 1); 赔大: 2 (RULES §3.8 ``chajiao_kongs: false`` — four tiles held in hand
    still count). S1 the peer's non-tenpai 1235679m 124689p: not ready; S2, S3 not ready.
    查叫: S1, S2, S3 → S0 2 each."""
    draw = {
        "hands": {
            "0": hand("111m23m456789p22p"),
            "1": hand("1235679m124689p"),
            "2": hand(NR_A),
            "3": hand("24578m456789s13s"),
        }
    }
    d = settle(record(S, [], draw=draw)).as_dict()
    assert {x["seat"]: x["ready"] for x in d["draw"]} == {0: True, 1: False, 2: False, 3: False}
    assert d["totals"]["seats"] == [6, -2, -2, -2]


def test_dcm_tmv_excludes_the_kong_root():
    """phase4 "TMV excludes Kong fan (Kong requires explicit declaration)" (the peer asserts only
    that the value is not inflated). E0 S0 暗杠 1m: 2 from each. 流局: S0 1111m + 111 222 333p
    5m waits on 5m: 对对胡 1 + 单钓 1 = 2 fan → 4, the kong's 根 not counted (RULES §3.8
    ``chajiao_kongs: false``; with it, 3 fan → 8). S0 is ready: no 退税.
    查叫: S1, S2, S3 → S0 4 each. S0 +6 +12 = 18; the others −6."""
    draw = {
        "hands": {
            "0": hand("111p222p333p5m", [meld("kong", "1m", True)]),
            "1": hand("3579m13579s2468s"),
            "2": hand(NR_A),
            "3": hand("24678m456789s13s"),
        }
    }
    d = settle(record(S, [kong(0, "concealed", "1m")], draw=draw)).as_dict()
    assert {x["seat"]: x["chajiao_value"] for x in d["draw"] if x["ready"]} == {0: 4}
    assert d["totals"]["seats"] == [18, -6, -6, -6]


def test_dcm_next_dealer():
    """phase4 "when two players Hu the same discard, the discarder becomes next dealer" (3) and
    "single first-Hu → that player deals next" (2). (RULES §3.7 names no dealer rule; the preset
    takes §3.6's, which is the peer's.)
    - E0 S1 and S2 win on S3's 5p (平胡 each, S3 → S1, S2 1), then 流局 with S0 and S3 not
      ready: the opening 一炮多响's discarder S3;
    - E0 S2 self-draws 平胡 (2 from each), then 流局 with S0, S1, S3 not ready: S2."""
    multi = record(
        S,
        [win("5p", winner(1, "123m456m789m11p34p"), winner(2, "111s222s444s678p5p"), frm=3)],
        draw={"hands": {"0": hand("2579m13579p46p1s9s"), "3": hand("2468m3579m12468p")}},
    )
    assert settle(multi).as_dict()["next_dealer"] == 3
    single = record(
        S,
        [win("4p", winner(2, "123m456m789m11p23p"))],
        draw={
            "hands": {
                "0": hand("2579m1579p46p1s9s8p"),
                "1": hand(NR_B),
                "3": hand("3469m3469s258s36p"),
            }
        },
    )
    assert settle(single).as_dict()["next_dealer"] == 2


def test_dcm_flower_pig_house_rule_pays_players_still_in():
    """phase4 "non-Hu player with all 3 suits pays each opponent 2^fanCap when enabled" (the
    peer's house rule, off by default: seat 1 pays 8 to seats 0, 2 and 3 — seat 0 had already
    won). RULES §4.6a with ``huazhu: 8``: a 花猪 pays each player *still in the hand* who is not
    花猪 — so not S0, who has won.
    E0 S0 self-draws 111 333 555 777m 9m: 9 from each. 流局: S1 2468m 2468p 2468s 9s (three
    suits, 花猪), S2 2457p 13579s 2468s and S3 1369p 13579s 2468p not ready.
    a. S1 → S2, S3 8 each (peer: and S0). b. 查叫: nobody ready. S0 +27; S1 −9 −16 = −25;
    S2 −9 +8 = −1; S3 −1."""
    rec = record(
        spec("sbr", huazhu=8),
        [win("9m", winner(0, "111m333m555m777m9m"))],
        draw={
            "hands": {
                "1": hand("2468m2468p2468s9s"),
                "2": hand("2457p13579s2468s"),
                "3": hand("1369p13579s2468p"),
            }
        },
    )
    d = settle(rec).as_dict()
    huazhu = [
        (p["payer"], p["payee"], p["amount"]) for p in d["payments"] if p["reason"] == "huazhu"
    ]
    assert sorted(huazhu) == [("S1", "S2", 8), ("S1", "S3", 8)]
    assert d["totals"]["seats"] == [27, -25, -1, -1]


def test_dcm_kong_of_the_void_suit_is_refused():
    """phase4 "concealed kong of voided suit emits voidMeldPenalty and deducts 48 pts" (the
    peer's lenient mode: the kong stands and 48 go to a pot). RULES §5 refuses the record
    instead: a kong of one's own declared void suit cannot be made. S0, 条 void, 暗杠 1s."""
    rec = record(S, [kong(0, "concealed", "1s")], declared_void=["s", None, None, None])
    found = refusal(lambda: settle(rec))
    assert any(path.startswith("events[0]") for _, path in found), found
