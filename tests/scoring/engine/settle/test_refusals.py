"""What settlement refuses (RULES §5): every refusal code with its path into the record, all
problems reported at once, and nothing half-settled.

Each record below is otherwise valid; the comment says what makes it impossible.
"""

from __future__ import annotations

import pytest

from scoring.engine import EngineError
from scoring.engine.settle import settle

from ..builders import hand, kong, meld, win, winner

PINGHU = "123m456m789m11p23p"  # + 4p: 123m 456m 789m 11p 234p — 平胡
PINGHU_6S = "234m567m22s345s78s"  # + 6s: 234m 567m 22s 345s 678s — 平胡
PINGHU_5P = "123m456m789m34p55p"  # + 5p: 123m 456m 789m 345p 55p — 平胡
TANKI_5P = "111s222s444s678p5p"  # + 5p: 111s 222s 444s 678p 55p — 平胡 (单钓)


def record(events=(), **kw):
    rec = {"ruleset": "qq", "base": 1, "dealer": 0, "events": list(events)}
    rec.update(kw)
    return rec


def problems_of(rec):
    with pytest.raises(EngineError) as info:
        settle(rec)
    return [(p.code, p.path) for p in info.value.problems]


# A valid discard win to build on: S1 wins 平胡 on S2's discard 4p.
OK_WIN = win("4p", winner(1, PINGHU), frm=2)

# Ready/not-ready hands for draws (13 tiles, no conflicts with PINGHU).
DRAW_READY = "234m567m22s345s78s"  # waits 6s/9s
DRAW_OTHER = "678p678p123s45s99s"  # waits 3s/6s

CASES = [
    # --- notation (RULES §1) -------------------------------------------------------------
    ("notation_rank", "events[0].winners[0].concealed",
     record([win("4p", winner(1, "023m456m789m11p23p"), frm=2)])),
    ("notation_character", "events[0].winners[0].concealed",
     record([win("4p", winner(1, "123m456m789m11p23x"), frm=2)])),
    ("notation_missing_suit", "events[0].winners[0].concealed",
     record([win("4p", winner(1, "123m456m789m11p23"), frm=2)])),
    ("notation_suit_without_rank", "events[0].winners[0].concealed",
     record([win("4p", winner(1, "m123m456m789m11p23p"), frm=2)])),
    ("notation_type", "events[0].winners[0].concealed",
     record([win("4p", winner(1, 123), frm=2)])),
    ("notation_rank", "events[0].tile", record([win("0p", winner(1, PINGHU), frm=2)])),
    ("notation_character", "events[0].tile", record([kong(1, "concealed", "9x")])),
    ("notation_character", "bettors[0].tile",
     record([OK_WIN], bettors=[{"name": "老王", "tile": "6z"}])),
    ("notation_rank", "draw.hands.3.concealed",
     record([OK_WIN], draw={"hands": {"0": hand(DRAW_READY), "2": hand("13579m13579p666s"),
                                      "3": hand("078p678p123s45s99s")}})),
    # --- four copies (RULES §5) ----------------------------------------------------------
    # S3's unshown 暗杠 1p is four 1p; S1 holds two more: the fifth is in S1's hand.
    ("too_many_copies", "events[1].winners[0].concealed",
     record([kong(3, "concealed", "1p"), OK_WIN])),
    # two winners in different events: S1 holds one 9m, S0 holds 789m 999m (9m × 5)
    ("too_many_copies", "events[1].winners[0].concealed",
     record([OK_WIN, win("8p", winner(0, "789m999m234p567p8p"), frm=3)])),
    # 叫马 tiles count: S1 holds 11p; three bettors drawing 1p make five
    ("too_many_copies", "bettors[2].tile",
     record([OK_WIN], bettors=[{"name": n, "tile": "1p"} for n in ("甲", "乙", "丙")])),
    # one 一炮多响 discard counts once: 5p = S1 two + S3 one + the discard = 4 (accepted, see
    # test_shared_discard_counts_once); a bettor drawing 5p is the fifth
    ("too_many_copies", "bettors[0].tile",
     record([win("5p", winner(1, PINGHU_5P), winner(3, TANKI_5P), frm=0)],
            bettors=[{"name": "老王", "tile": "5p"}])),
    # shown draw hands: S1 holds one 1m, S2 three; S3's 11m holds the fifth
    ("too_many_copies", "draw.hands.3.concealed",
     record([OK_WIN], draw={"hands": {"0": hand(DRAW_READY), "2": hand("111m3579m135799p"),
                                      "3": hand("11m78p678p123s45s9s")}})),
    # --- the winning hand (RULES §5) -----------------------------------------------------
    ("wrong_tile_count", "events[0].winners[0].concealed",
     record([win("4p", winner(1, "123m456m789m1p23p"), frm=2)])),
    ("wrong_tile_count", "draw.hands.2.concealed",
     record([OK_WIN], draw={"hands": {"0": hand(DRAW_READY), "2": hand("13579m1357p"),
                                      "3": hand(DRAW_OTHER)}})),
    ("not_a_winning_shape", "events[0].winners[0]",
     record([win("4p", winner(1, "123m456m789m11p25p"), frm=2)])),
    ("three_suits", "events[0].winners[0]",
     record([win("4p", winner(1, "123m456p789s11p23p"), frm=2)])),
    ("declared_void_suit", "events[0].winners[0]",
     record([OK_WIN], declared_void=[None, "m", None, None])),
    # --- who may act (RULES §5) ----------------------------------------------------------
    ("player_already_won", "events[1].seat", record([OK_WIN, kong(1, "concealed", "9s")])),
    ("player_already_won", "events[1].winners[0].seat",
     record([OK_WIN, win("6s", winner(1, PINGHU_6S), frm=3)])),
    ("discarder_already_won", "events[1].from",
     record([OK_WIN, win("6s", winner(3, PINGHU_6S), frm=1)])),
    ("discarder_already_won", "events[1].from",
     record([OK_WIN, kong(3, "direct", "9s", frm=1)])),
    ("discarder_is_winner", "events[0].from", record([win("4p", winner(1, PINGHU), frm=1)])),
    ("direct_kong_without_discarder", "events[0].from", record([kong(1, "direct", "9s")])),
    ("kong_with_discarder", "events[0].from", record([kong(1, "concealed", "9s", frm=0)])),
    ("kong_with_discarder", "events[0].from", record([kong(1, "added", "9s", frm=0)])),
    # --- melds against kong events -------------------------------------------------------
    ("kong_not_in_melds", "events[1].winners[0].melds",
     record([kong(1, "concealed", "9s"), OK_WIN])),
    ("kong_not_in_melds", "draw.hands.2.melds",
     record([OK_WIN, kong(2, "concealed", "9s")],
            draw={"hands": {"0": hand(DRAW_READY), "2": hand("13579m13579p666s"),
                            "3": hand(DRAW_OTHER)}})),
    ("meld_kong_without_event", "events[0].winners[0].melds",
     record([win("4p", winner(1, "123m456m11p23p", [meld("kong", "9m")]), frm=2)])),
    # --- situations (RULES §5) -----------------------------------------------------------
    # 杠上花 with the winner's kong earlier, but another event in between
    ("kong_flower_without_kong", "events[2].situation",
     record([kong(1, "concealed", "9m"), kong(3, "added", "7s"),
             win("4p", winner(1, "123m456m11p23p", [meld("kong", "9m", True)]),
                 situation=["kong_flower"])])),
    # 杠上花 right after someone else's kong
    ("kong_flower_without_kong", "events[2].situation",
     record([kong(1, "concealed", "9m"), kong(3, "concealed", "7s"),
             win("4p", winner(1, "123m456m11p23p", [meld("kong", "9m", True)]),
                 situation=["kong_flower"])])),
    ("kong_discard_without_kong", "events[0].situation",
     record([win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard"])])),
    # the kong right before is not the discarder's
    ("kong_discard_without_kong", "events[1].situation",
     record([kong(3, "concealed", "9s"),
             win("4p", winner(1, PINGHU), frm=2, situation=["kong_discard"])])),
    # 抢杠 of the winning tile right after the robbed player's concealed kong of that tile
    # (an earlier kong of another tile stands: test_robbing_kong.py)
    ("robbing_kong_mismatch", "events[1].situation",
     record([kong(2, "concealed", "4p"),
             win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"])])),
    # 天胡 by a non-dealer; not self-drawn; with an earlier event
    ("heavenly_impossible", "events[0].situation",
     record([win("4p", winner(1, PINGHU), situation=["heavenly"])])),
    ("heavenly_impossible", "events[0].situation",
     record([win("4p", winner(0, PINGHU), frm=2, situation=["heavenly"])])),
    ("heavenly_impossible", "events[1].situation",
     record([kong(3, "concealed", "9s"), win("4p", winner(0, PINGHU), situation=["heavenly"])])),
    # 地胡 by the dealer; with an earlier event
    ("earthly_impossible", "events[0].situation",
     record([win("4p", winner(0, PINGHU), frm=2, situation=["earthly"])])),
    ("earthly_impossible", "events[1].situation",
     record([kong(3, "concealed", "9s"),
             win("4p", winner(1, PINGHU), frm=2, situation=["earthly"])])),
    ("earthly_with_melds", "events[0].situation",
     record([win("4p", winner(1, "123m456m11p23p", [meld("pung", "9m")]), frm=2,
                 situation=["earthly"])])),
    # --- the draw (RULES §5) -------------------------------------------------------------
    ("draw_hand_missing", "draw.hands.3",
     record([OK_WIN], draw={"hands": {"0": hand(DRAW_READY), "2": hand("13579m13579p666s")}})),
    ("draw_hand_of_winner", "draw.hands.1",
     record([OK_WIN], draw={"hands": {"0": hand(DRAW_READY), "1": hand("13579m13579p666s"),
                                      "2": hand("2468m2468p777s99m"),
                                      "3": hand(DRAW_OTHER)}})),
    # 普通 mode: the hand ended at the first win
    ("draw_after_end", "draw",
     record([OK_WIN], mode="single",
            draw={"hands": {"0": hand(DRAW_READY), "2": hand("13579m13579p666s"),
                            "3": hand(DRAW_OTHER)}})),
    # --- the end of the hand (RULES §5) --------------------------------------------------
    # a fourth winner: S1 then S2, S3 and (again) S1 on one discard
    ("too_many_wins", "events[1]",
     record([win("4p", winner(1, PINGHU), frm=0),
             win("6s", winner(2, PINGHU_6S), winner(3, "222p999p345s55s78s"),
                 winner(1, "78s999m111s567m88m"), frm=0)])),
    ("hand_already_over", "events[1]",
     record([OK_WIN, kong(3, "concealed", "9s")], mode="single")),
    ("hand_already_over", "events[3]",
     record([win("4p", winner(1, PINGHU)), win("6s", winner(2, PINGHU_6S), frm=3),
             win("9s", winner(0, "666p777p888p99s11s")), kong(3, "concealed", "9p")])),
    # 血战: the hand ended with the third winner; there is no draw after it
    ("draw_after_end", "draw",
     record([win("4p", winner(1, PINGHU)), win("6s", winner(2, PINGHU_6S), frm=3),
             win("9s", winner(0, "666p777p888p99s11s"))],
            draw={"hands": {"3": hand("13579m13579p666s")}})),
    # --- the record's own fields ---------------------------------------------------------
    ("invalid_seat", "events[0].seat", record([kong(4, "concealed", "9s")])),
    ("invalid_seat", "dealer", record([OK_WIN], dealer=5)),
    ("invalid_seat", "events[0].winners[0].seat", record([win("4p", winner(-1, PINGHU), frm=2)])),
    ("invalid_seat", "events[0].from", record([win("4p", winner(1, PINGHU), frm=7)])),
    ("invalid_seat", "draw.hands.4",
     record(draw={"hands": {"0": hand(DRAW_READY), "1": hand("13579m13579p666s"),
                            "2": hand("2468m2468p777s99m"), "3": hand(DRAW_OTHER),
                            "4": hand(DRAW_OTHER)}})),
    ("unknown_field", "colour", record([OK_WIN], colour="red")),
    ("unknown_field", "events[0].colour",
     record([{**kong(1, "concealed", "9s"), "colour": "red"}])),
    ("unknown_field", "events[0].winners[0].colour",
     record([win("4p", {**winner(1, PINGHU), "colour": "red"}, frm=2)])),
    ("unknown_field", "session.colour", record([OK_WIN], session={"colour": 1})),
    ("invalid_base", "base", record([OK_WIN], base=0)),
    ("invalid_base", "base", record([OK_WIN], base=-2)),
    ("invalid_base", "base", record([OK_WIN], base="2")),
    ("invalid_base", "base", record([OK_WIN], base=1.5)),
    ("invalid_base", "base", record([OK_WIN], base=True)),
    ("invalid_mode", "mode", record([OK_WIN], mode="bloody")),
    ("unknown_preset", "ruleset", record([OK_WIN], ruleset="sichuan")),
    ("unknown_preset", "ruleset.preset", record([OK_WIN], ruleset={"preset": "sichuan"})),
    ("unknown_option", "ruleset.options.colour",
     record([OK_WIN], ruleset={"preset": "qq", "options": {"colour": 1}})),
    ("several_self_draw_winners", "events[0].winners",
     record([win("5p", winner(1, PINGHU_5P), winner(3, TANKI_5P))])),
    ("duplicate_winner", "events[0].winners",
     record([win("4p", winner(1, PINGHU), winner(1, PINGHU), frm=2)])),
]  # fmt: skip


@pytest.mark.parametrize(
    ("code", "path", "rec"),
    CASES,
    ids=[f"{i:02d}-{code}" for i, (code, _, _) in enumerate(CASES)],
)
def test_refusal_code_and_path(code, path, rec):
    """The record is refused with this code at this path (RULES §5: where, what, why)."""
    found = problems_of(rec)
    assert (code, path) in found
    with pytest.raises(EngineError) as info:
        settle(rec)
    for p in info.value.problems:
        assert p.message.strip(), f"{p.code} has no message"


def test_every_refusal_code_of_the_contract_is_exercised():
    codes = {code for code, _, _ in CASES}
    contract = {
        "too_many_copies", "wrong_tile_count", "not_a_winning_shape", "three_suits",
        "declared_void_suit", "player_already_won", "discarder_already_won",
        "discarder_is_winner", "direct_kong_without_discarder", "kong_with_discarder",
        "kong_flower_without_kong", "kong_discard_without_kong", "heavenly_impossible",
        "earthly_impossible", "earthly_with_melds", "draw_hand_missing", "draw_hand_of_winner",
        "draw_after_end", "too_many_wins", "hand_already_over", "invalid_seat", "unknown_field",
        "invalid_base", "invalid_mode", "unknown_preset", "unknown_option",
        "several_self_draw_winners", "duplicate_winner", "kong_not_in_melds",
        "meld_kong_without_event", "robbing_kong_mismatch",
    }  # fmt: skip
    assert contract <= codes
    assert any(code.startswith("notation_") for code in codes)


def test_shared_discard_counts_once():
    """一炮多响: S0 discards 5p, S1 (123m 456m 789m 345p 55p) and S3 (111s 222s 444s 678p 55p)
    both win on it. 5p: S1 holds two, S3 one, and the one discard = 4 copies, accepted (it would
    be five if the discard were counted per winner). qq: both 平胡 → S0 pays each 1.
    """
    rec = record([win("5p", winner(1, PINGHU_5P), winner(3, TANKI_5P), frm=0)])
    d = settle(rec).as_dict()
    assert d["totals"]["seats"] == [-2, 1, 0, 1]


def test_kong_of_a_player_who_never_shows_counts_four():
    """S3's 暗杠 1p (never shown) is four 1p; the same record without S1 holding 1p is fine,
    and with S1 holding 11p (6 in all) it is refused (see CASES)."""
    rec = record(
        [kong(3, "concealed", "1p"), win("6s", winner(1, PINGHU_6S), frm=2)],
    )
    assert settle(rec).as_dict()["totals"]["seats"] == [-2, 1 - 2, -2 - 1, 6]


def test_all_problems_are_reported_together():
    """Several independent mistakes in the events are all listed, not only the first:
    E0 S1 wins on his own discard (discarder_is_winner); E1 S3 wins 杠上炮 on S2's discard with
    no kong before (kong_discard_without_kong); E2 S1, who has won, makes a kong
    (player_already_won)."""
    rec = record(
        [
            win("4p", winner(1, PINGHU), frm=1),
            win("6s", winner(3, PINGHU_6S), frm=2, situation=["kong_discard"]),
            kong(1, "concealed", "9p"),
        ]
    )
    found = problems_of(rec)
    assert ("discarder_is_winner", "events[0].from") in found
    assert ("kong_discard_without_kong", "events[1].situation") in found
    assert ("player_already_won", "events[2].seat") in found


def test_all_field_problems_are_reported_together():
    """Mistakes in the record's own fields are all listed together."""
    rec = record(
        [kong(1, "direct", "9s"), kong(5, "concealed", "9p")],
        base=0,
        mode="bloody",
        dealer=7,
        colour="red",
        ruleset={"preset": "qq", "options": {"colour": 1}},
    )
    found = problems_of(rec)
    for expected in [
        ("invalid_base", "base"),
        ("invalid_mode", "mode"),
        ("invalid_seat", "dealer"),
        ("unknown_field", "colour"),
        ("unknown_option", "ruleset.options.colour"),
        ("direct_kong_without_discarder", "events[0].from"),
        ("invalid_seat", "events[1].seat"),
    ]:
        assert expected in found


def test_field_and_event_problems_are_reported_together():
    """A bad base does not hide an impossible event: the scorer is told of both at once
    (issue: a 400 "with every error found (not only the first)")."""
    rec = record([win("4p", winner(1, PINGHU), frm=1)], base=0)
    found = problems_of(rec)
    assert ("invalid_base", "base") in found
    assert ("discarder_is_winner", "events[0].from") in found


def test_nothing_is_half_settled():
    """A record whose first events are fine and whose last is impossible is refused as a whole:
    settle raises and returns nothing, and the error names only the impossible event. Settling
    the valid part on its own afterwards is unaffected: E0 S3 暗杠 9s (S0, S1, S2 → S3 2 each),
    E1 S1 wins 平胡 on S2's discard (S2 → S1 1) → [−2, −1, −3, 6]."""
    good = [kong(3, "concealed", "9s"), OK_WIN]
    bad = record([*good, win("6s", winner(1, PINGHU_6S), frm=0)])
    result = None
    with pytest.raises(EngineError) as info:
        result = settle(bad)
    assert result is None
    assert [(p.code, p.path) for p in info.value.problems] == [
        ("player_already_won", "events[2].winners[0].seat")
    ]
    d = settle(record(good)).as_dict()
    assert d["totals"]["seats"] == [-2, -1, -3, 6]
    assert d["payments"] and all(p["event"] in (0, 1) for p in d["payments"])


@pytest.mark.parametrize(
    ("code", "path", "events"),
    [
        # 杠上花 on a discard
        ("kong_flower_not_self_draw", "events[1].situation",
         [kong(1, "concealed", "9m"),
          win("4p", winner(1, "123m456m11p23p", [meld("kong", "9m", True)]), frm=2,
              situation=["kong_flower"])]),
        # 抢杠 and 杠上炮 are wins on another player's tile, never self-drawn
        ("robbing_kong_self_draw", "events[0].situation",
         [win("4p", winner(1, PINGHU), situation=["robbing_kong"])]),
        ("kong_discard_self_draw", "events[1].situation",
         [kong(1, "concealed", "9m"),
          win("4p", winner(1, "123m456m11p23p", [meld("kong", "9m", True)]),
              situation=["kong_discard"])]),
        # a direct kong on one's own discard
        ("discarder_is_konger", "events[0].from", [kong(1, "direct", "9s", frm=1)]),
        # a win on the discard of a player who has already won (抢杠: the robbed player)
        ("discarder_already_won", "events[2].from",
         [win("6s", winner(2, PINGHU_6S), frm=0), kong(1, "concealed", "9p"),
          win("4p", winner(1, PINGHU), frm=2, situation=["robbing_kong"])]),
    ],
)  # fmt: skip
def test_more_refusals_with_code_and_path(code, path, events):
    with pytest.raises(EngineError) as info:
        settle(record(events))
    assert (code, path) in [(p.code, p.path) for p in info.value.problems]


# Every level of a record, each with a misspelt key (RULES §5: a misspelt key is an error,
# never ignored). The scorer meant the field on the right.
MISSPELT = [
    (record([OK_WIN], rulset="chengdu"), ["rulset"]),  # ruleset
    (record([OK_WIN], ruleset={"preset": "chengdu", "option": {"cap": 16}}), ["ruleset.option"]),
    (record([OK_WIN], ruleset={"presets": "chengdu", "opts": {}}),  # both keys misspelt
     ["ruleset.opts", "ruleset.presets"]),
    (record([{**kong(1, "concealed", "9s"), "sametrun": False}]), ["events[0].sametrun"]),
    (record([{**OK_WIN, "situations": ["kong_discard"]}]), ["events[0].situations"]),
    # an event whose "type" is misspelt: named, besides the missing type
    (record([{"typ": "kong", "seat": 1, "kind": "concealed", "tile": "9s"}]), ["events[0].typ"]),
    (record([win("4p", {**winner(1, PINGHU), "meld": []}, frm=2)]),
     ["events[0].winners[0].meld"]),
    (record([win("4p", winner(1, "123m456m11p23p", [{**meld("pung", "9m"), "concealled": False,
                                                     "tiles": "9m"}]), frm=2)]),
     ["events[0].winners[0].melds[0].concealled", "events[0].winners[0].melds[0].tiles"]),
    # the draw's own "hands" misspelt: named, besides the draw having no hands
    (record([OK_WIN], draw={"hand": {"0": hand(DRAW_READY)}}), ["draw.hand"]),
    (record([OK_WIN], draw={"hands": {"0": {"concealed": DRAW_READY, "meld": []}}}),
     ["draw.hands.0.meld"]),
    (record([OK_WIN], bettors=[{"nmae": "老王", "tile": "6s"}]), ["bettors[0].nmae"]),
    (record([OK_WIN], session={"draws_befor": 2}), ["session.draws_befor"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rec", "paths"),
    MISSPELT,
    ids=["record", "ruleset", "ruleset-both", "kong", "win", "event-type", "winner", "meld",
         "draw", "draw-hand", "bettor", "session"],
)  # fmt: skip
def test_a_misspelt_key_is_refused_at_every_level_of_a_record(rec, paths):
    """Each unknown key is an ``unknown_field`` at its own path; all of them, not the first.
    (Before: the draw's misspelt ``hands`` and an event's misspelt ``type`` were only missed,
    never named, and a meld or a ruleset spec reported its first unknown key alone.)"""
    found = problems_of(rec)
    assert sorted(path for code, path in found if code == "unknown_field") == paths


def test_a_session_that_is_not_an_object_is_refused():
    """``session: []`` or ``false`` was read as no session at all: an ill-typed field is an
    error, never ignored. (``null`` still means none.)"""
    assert ("invalid_session", "session") in problems_of(record([OK_WIN], session=[]))
    assert ("invalid_session", "session") in problems_of(record([OK_WIN], session=False))
    assert settle(record([OK_WIN], session=None)).as_dict()["multiplier"] == 1
