"""Rulesets as data (RULES §3): presets, options, fingerprints."""

from __future__ import annotations

import json

import pytest

from scoring.engine import PRESETS, EngineError, resolve_ruleset


def test_six_presets_qq_is_the_default():
    assert list(PRESETS) == ["qq", "chengdu", "additive", "xuezhan9", "tfmj2024", "sbr"]
    assert resolve_ruleset(None) is resolve_ruleset("qq")


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        # RULES §3.5, column by column
        ("qq", {"cap": None, "self_draw_bonus": "none", "kong_direct": 1, "huazhu": 16,
                "chajiao": "max", "kong_flower_after_direct": "self_draw", "daiyaojiu": True,
                "jiangdui": True, "jingoudiao": False, "haidi": False}),
        ("chengdu", {"cap": 8, "self_draw_bonus": "add_one", "kong_direct": 2, "huazhu": "cap",
                     "chajiao": "max", "daiyaojiu": False, "jiangdui": False}),
        ("additive", {"cap": None, "self_draw_bonus": "none", "kong_direct": 1, "huazhu": 16,
                      "chajiao": "min", "kong_flower_after_direct": "discard"}),
        ("xuezhan9", {"cap": 9, "self_draw_bonus": "add_fan", "kong_direct": 2,
                      "huazhu": "chajiao_plus_fan", "jingoudiao": True, "haidi": True,
                      "daiyaojiu": False, "jiangdui": False}),
        # RULES §3.8 and the paragraph under it
        ("tfmj2024", {"cap": 3, "self_draw_bonus": "add_one", "kong_direct": 2,
                      "added_kong_same_turn": True, "huazhu": "not_ready", "chajiao": "max",
                      "kong_transfer": "chain_split", "chajiao_kongs": True,
                      "golden_wait": False, "haidi_over_kong_discard": False,
                      "tianhu_dihu": False, "false_win": "cap", "jingoudiao": True,
                      "haidi": True, "daiyaojiu": False, "jiangdui": False}),
        ("sbr", {"cap": 3, "self_draw_bonus": "add_one", "kong_direct": 2,
                 "added_kong_same_turn": True, "huazhu": "not_ready", "chajiao": "max",
                 "kong_transfer": "refund", "chajiao_kongs": False, "golden_wait": True,
                 "haidi_over_kong_discard": True, "tianhu_dihu": True, "false_win": 8,
                 "jingoudiao": False, "haidi": True, "daiyaojiu": False, "jiangdui": False}),
    ],
)  # fmt: skip
def test_preset_defaults(preset, expected):
    options = resolve_ruleset(preset).options
    for key, value in expected.items():
        assert getattr(options, key) == value, key
    options = resolve_ruleset(preset).as_dict()["options"]
    # shared by all six
    assert options["kong_concealed"] == 2 and options["kong_added"] == 1
    assert options["mode"] == "xuezhan" and options["juezhang"] is False
    assert options["dead_wait_counts"] is True and options["refund_kongs"] is True


def test_description_is_complete_and_json_serialisable():
    for name in PRESETS:
        d = resolve_ruleset(name).as_dict()
        assert set(d) >= {"preset", "curve", "unit", "patterns", "extras", "options", "next_dealer"}
        json.dumps(d, ensure_ascii=False)
    qq = resolve_ruleset("qq").as_dict()
    rows = {p["code"]: (p["value"], p["roots_included"]) for p in qq["patterns"]}
    assert rows["longqidui"] == (5, 1) and rows["qinglongqidui"] == (6, 1)
    assert resolve_ruleset("qq").next_dealer == "discarder_or_dice"
    assert resolve_ruleset("chengdu").next_dealer == "first_winner"
    # complete: the version, the per-preset rules and the preset's own defaults are in it
    for name in PRESETS:
        d = resolve_ruleset(name).as_dict()
        assert d["version"] == 1
        assert d["session_multipliers"] is (name == "xuezhan9")
        assert d["robbing_pays_kong"] is (name == "xuezhan9")
        assert d["defaults"] == d["options"]  # resolved by name: the preset's own values


def test_options_override_and_disabled_patterns_leave_the_table():
    r = resolve_ruleset({"preset": "chengdu", "options": {"cap": 16, "jiangdui": True}})
    assert r.cap == 16
    codes = [e.code for e in r.table]
    assert "jiangdui" in codes and "daiyaojiu" not in codes
    # 天胡 is worth the cap (满格), 32 when uncapped
    assert {e.code: e.value for e in r.table}["tianhu"] == 16
    uncapped = resolve_ruleset({"preset": "chengdu", "options": {"cap": None}})
    assert {e.code: e.value for e in uncapped.table}["tianhu"] == 32


def test_fingerprint_is_stable_and_tracks_options():
    a = resolve_ruleset({"preset": "chengdu", "options": {"cap": 16}})
    b = resolve_ruleset({"options": {"cap": 16}, "preset": "chengdu"})
    assert a.fingerprint == b.fingerprint and len(a.fingerprint) == 64
    assert a.fingerprint != resolve_ruleset("chengdu").fingerprint
    # naming an option at its default value is the same ruleset
    assert resolve_ruleset({"preset": "chengdu", "options": {"cap": 8}}).fingerprint == (
        resolve_ruleset("chengdu").fingerprint
    )
    assert len({resolve_ruleset(n).fingerprint for n in PRESETS}) == len(PRESETS)


def test_to_spec_round_trips():
    spec = {"preset": "xuezhan9", "options": {"cap": 12, "juezhang": True}}
    r = resolve_ruleset(spec)
    assert r.to_spec() == spec
    assert resolve_ruleset(r.to_spec()) == r


@pytest.mark.parametrize(
    ("spec", "path", "code"),
    [
        ("riichi", "ruleset", "unknown_preset"),
        ({"preset": "riichi"}, "ruleset.preset", "unknown_preset"),
        ({"preset": "qq", "options": {"flowers": True}}, "ruleset.options.flowers",
         "unknown_option"),
        ({"preset": "qq", "options": {"cap": 0}}, "ruleset.options.cap", "invalid_option"),
        ({"preset": "qq", "options": {"cap": True}}, "ruleset.options.cap", "invalid_option"),
        ({"preset": "qq", "options": {"haidi": "yes"}}, "ruleset.options.haidi", "invalid_option"),
        ({"preset": "qq", "options": {"kong_direct": 1}, "x": 1}, "ruleset.x", "unknown_field"),
        ({"preset": "qq", "options": {"chajiao": "big"}}, "ruleset.options.chajiao",
         "invalid_option"),
        ({"preset": "qq", "options": {"huazhu": "lots"}}, "ruleset.options.huazhu",
         "invalid_option"),
        ({"preset": "qq", "options": []}, "ruleset.options", "invalid_options"),
        (42, "ruleset", "invalid_ruleset"),
    ],
)  # fmt: skip
def test_bad_specs_are_errors_not_ignored(spec, path, code):
    with pytest.raises(EngineError) as info:
        resolve_ruleset(spec)
    assert (info.value.path, info.value.code) == (path, code)


def test_huazhu_accepts_number_cap_or_chajiao_plus_fan():
    for value in (8, "cap", "chajiao_plus_fan"):
        assert (
            resolve_ruleset({"preset": "qq", "options": {"huazhu": value}}).options.huazhu == value
        )


def test_cap_value_is_in_value_units():
    """满格 for 花猪: chengdu cap 8 multiples -> 8; xuezhan9 cap 9 fan -> 2^9 = 512; none -> 32."""
    assert resolve_ruleset("chengdu").cap_value() == 8
    assert resolve_ruleset("xuezhan9").cap_value() == 512
    assert resolve_ruleset("qq").cap_value() == 32
