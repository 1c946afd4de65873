"""Pinned rules: a stored ruleset description rebuilds the exact ruleset, whatever the preset
tables say today (ARCHITECTURE "Stored results never move"; RULES §3 "every recorded hand stores
the exact rules it was settled under, so old results never change when a preset is edited").
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace

import pytest

from scoring.engine import (
    PRESETS,
    EngineError,
    evaluate,
    evaluate_tiles,
    resolve_ruleset,
    ruleset_from_description,
)
from scoring.engine import rulesets as rulesets_module
from scoring.engine.settle import settle

from .builders import record, win, winner
from .builders import winning_hand as _hand
from .strategies import PRESET_NAMES

# 111s 234s 55s 666s 789s won on 8s (卡张): one suit, no four, not all triplets -> 清一色.
# qq (RULES §3.1): 清一色 3 fan -> 2^(3-1) = 4.
QINGYISE = "11123455666789s"
QINGYISE_BEFORE_8S = "1112345566679s"  # the same hand without its winning 8s


@pytest.fixture(autouse=True)
def _rebuild_every_time():
    """Each test rebuilds from descriptions, never from a ruleset an earlier test left behind."""
    rulesets_module._DESCRIBED.clear()
    yield
    rulesets_module._DESCRIBED.clear()


SPECS = [
    *PRESET_NAMES,
    {"preset": "chengdu", "options": {"cap": None, "jiangdui": True, "daiyaojiu": True}},
    {"preset": "qq", "options": {"jingoudiao": True, "haidi": True, "chajiao": "off"}},
    {"preset": "xuezhan9", "options": {"cap": 12, "juezhang": True, "huazhu": 8}},
    {"preset": "additive", "options": {"huazhu": "cap", "mode": "single"}},
]


@pytest.mark.parametrize("spec", SPECS, ids=[json.dumps(s) for s in SPECS])
def test_a_description_rebuilds_the_same_ruleset(spec):
    """The round trip gives a new object with the same fingerprint, description and options,
    and every hand is valued the same (2,000 random 14-tile hands, winning or not)."""
    r = resolve_ruleset(spec)
    again = ruleset_from_description(r.as_dict())
    assert again is not r
    assert again == r
    assert again.fingerprint == r.fingerprint
    assert again.as_dict() == r.as_dict()
    assert again.to_spec() == r.to_spec()
    rnd = random.Random(7)
    for _ in range(2000):
        suits = rnd.sample(range(3), 2)
        tiles = sorted(rnd.sample([s * 9 + k for s in suits for k in range(9)] * 4, 14))
        for self_draw in (False, True):
            a = evaluate_tiles(tiles, r, self_draw=self_draw)
            b = evaluate_tiles(tiles, again, self_draw=self_draw)
            assert a == b if isinstance(a, str) else (a.value, a.lines) == (b.value, b.lines)


def test_every_preset_starts_at_version_one_and_the_description_says_so():
    for name in PRESET_NAMES:
        assert PRESETS[name].version == 1
        assert resolve_ruleset(name).as_dict()["version"] == 1


def test_a_changed_preset_table_does_not_move_a_stored_hand(monkeypatch):
    """qq's table gets a version 2 in which 清一色 is worth 4 fan instead of 3.

    Resolving "qq" now gives version 2: the 清一色 hand is 4 fan -> 2^3 = 8, and the fingerprint
    is new. The description stored with version 1 still values it 3 fan -> 4, keeps its old
    fingerprint, and settles a discard win on it the old way: S2 -> S1 4 (not 8).
    """
    old = resolve_ruleset("qq")
    stored = copy.deepcopy(old.as_dict())
    qq = PRESETS["qq"]
    table = tuple(replace(e, value=4) if e.code == "qingyise" else e for e in qq.table)
    monkeypatch.setitem(PRESETS, "qq", replace(qq, version=2, table=table))

    hand = _hand(QINGYISE, "8s")
    new = resolve_ruleset("qq")
    assert (new.version, new.fingerprint != old.fingerprint) == (2, True)
    assert evaluate(hand, "qq").as_dict()["fan"] == 4
    assert evaluate(hand, "qq").value == 8

    pinned = ruleset_from_description(stored)
    assert pinned.version == 1 and pinned.fingerprint == old.fingerprint
    assert evaluate(hand, pinned).as_dict()["fan"] == 3
    assert evaluate(hand, pinned).value == 4

    events = [win("8s", winner(1, QINGYISE_BEFORE_8S), frm=2)]
    then = settle(record(pinned, events)).as_dict()
    now = settle(record("qq", events)).as_dict()
    assert then["ruleset"] == old.fingerprint and now["ruleset"] == new.fingerprint
    assert then["totals"]["seats"] == [0, 4, -4, 0]
    assert now["totals"]["seats"] == [0, 8, -8, 0]


def test_a_pinned_ruleset_is_passed_through_as_is():
    """resolve_ruleset takes a Ruleset as it is (a hand record's ``ruleset`` may be one)."""
    pinned = ruleset_from_description(resolve_ruleset("chengdu").as_dict())
    assert resolve_ruleset(pinned) is pinned


def test_descriptions_are_cached_by_fingerprint():
    d = resolve_ruleset("xuezhan9").as_dict()
    first = ruleset_from_description(d)
    assert ruleset_from_description(copy.deepcopy(d)) is first
    assert len(rulesets_module._DESCRIBED) == 1
    assert rulesets_module._DESCRIBED.size == rulesets_module.CACHE_SIZE


def test_a_changed_description_is_another_ruleset():
    """A description whose 清一色 row says 9 fan is a valid ruleset of its own, with its own
    fingerprint: the fingerprint is recomputed, never taken on trust."""
    d = resolve_ruleset("qq").as_dict()
    for row in d["patterns"]:
        if row["code"] == "qingyise":
            row["value"] = 9
    other = ruleset_from_description(d)
    assert other.fingerprint != resolve_ruleset("qq").fingerprint
    assert evaluate(_hand(QINGYISE, "8s"), other).value == 2**8


def _broken(change):
    d = resolve_ruleset("qq").as_dict()
    change(d)
    with pytest.raises(EngineError) as info:
        ruleset_from_description(d, "ruleset")
    return [(p.code, p.path) for p in info.value.problems]


def _set(path, value):
    def change(d):
        *outer, last = path
        for key in outer:
            d = d[key]
        d[last] = value

    return change


@pytest.mark.parametrize(
    ("change", "problems"),
    [
        (lambda d: d.pop("version"), [("missing_field", "ruleset.version")]),
        (_set(["colour"], "red"), [("unknown_field", "ruleset.colour")]),
        (_set(["version"], 0), [("invalid_description", "ruleset.version")]),
        (_set(["curve"], "log"), [("invalid_description", "ruleset.curve")]),
        (_set(["patterns", 2, "value"], "3"),
         [("invalid_description", "ruleset.patterns[2].value")]),
        (_set(["patterns", 2, "code"], "riichi"),
         [("invalid_description", "ruleset.patterns[2].code")]),
        (lambda d: d["patterns"][0].pop("zh"), [("missing_field", "ruleset.patterns[0].zh")]),
        (_set(["extras", 0, "steps"], -1), [("invalid_description", "ruleset.extras[0].steps")]),
        (_set(["options", "cap"], 0), [("invalid_option", "ruleset.options.cap")]),
        (lambda d: d["defaults"].pop("cap"), [("missing_option", "ruleset.defaults.cap")]),
        (_set(["next_dealer"], "dice"), [("invalid_description", "ruleset.next_dealer")]),
        (
            _set(["session_multipliers"], "yes"),
            [("invalid_description", "ruleset.session_multipliers")],
        ),
        # every problem at once
        (lambda d: d.update(version=0, source=""),
         [("invalid_description", "ruleset.version"), ("invalid_description", "ruleset.source")]),
        # well formed, but not what it says it is: the unit follows the curve
        (_set(["unit"], "points"), [("inconsistent_description", "ruleset.unit")]),
        # a table without 平胡 cannot value a plain win
        (lambda d: d.update(patterns=d["patterns"][1:]),
         [("incomplete_table", "ruleset.patterns")]),
    ],
)  # fmt: skip
def test_a_broken_description_is_refused_with_path_and_code(change, problems):
    assert _broken(change) == problems


def test_a_description_is_plain_json():
    with pytest.raises(EngineError) as info:
        ruleset_from_description("qq")
    assert info.value.code == "invalid_description"
    d = resolve_ruleset("qq").as_dict()
    d["source"] = {1, 2}
    with pytest.raises(EngineError) as info:
        ruleset_from_description(d)
    assert info.value.code == "invalid_description"


# The fingerprints of the first four presets before the competition options (RULES §3.8) were
# added: sessions stored them with their snapshots, and ``scoring.services`` refuses a snapshot
# whose description no longer hashes to its fingerprint. Adding an option must not move them.
FIRST_FINGERPRINTS = {
    "qq": "3ca94073aff9d142f41e83cc5a7e646c3e139f5d1388fca5645655fcf51ddca4",
    "chengdu": "054774f137df5265f9a61d63edddb7e6d28e1fb6ac53c02c49aaf37a444a0be9",
    "additive": "767c85fa26b3e607dc06321521c69ad379d6774e3be4a57b1d9b19045367be1e",
    "xuezhan9": "c07f5f9923b01cb5127826070d0b8c090b46ebdfd9629ac084cbeedd28b7594b",
}


@pytest.mark.parametrize("name", list(FIRST_FINGERPRINTS))
def test_options_added_later_leave_stored_descriptions_as_they_were(name):
    """A description written before ``LATER_OPTIONS`` existed has none of them: it still
    rebuilds, to the same fingerprint, and its rules have each later option at the value that
    reproduces what the engine did then (呼叫转移 copy, kongs as roots at 查叫, no 单钓, 天胡 and
    地胡 scored, a 诈胡 priced as the preset's own)."""
    r = resolve_ruleset(name)
    assert r.fingerprint == FIRST_FINGERPRINTS[name]
    stored = r.as_dict()
    for key in rulesets_module.LATER_OPTIONS:  # as it was written then
        del stored["options"][key], stored["defaults"][key]
    again = ruleset_from_description(stored)
    assert again.fingerprint == FIRST_FINGERPRINTS[name]
    o = again.options
    assert (o.kong_transfer, o.chajiao_kongs, o.golden_wait) == ("copy", True, False)
    assert (o.haidi_over_kong_discard, o.tianhu_dihu) == (False, True)
    assert o.false_win == ("cap" if name == "xuezhan9" else "huazhu")


def test_a_later_option_set_is_written_and_changes_the_fingerprint():
    qq = resolve_ruleset("qq")
    chain = resolve_ruleset({"preset": "qq", "options": {"kong_transfer": "chain_split"}})
    assert chain.as_dict()["options"]["kong_transfer"] == "chain_split"
    assert qq.as_dict()["options"]["kong_transfer"] == "copy"  # every option is described
    assert chain.fingerprint != qq.fingerprint
    assert ruleset_from_description(chain.as_dict()).options.kong_transfer == "chain_split"
