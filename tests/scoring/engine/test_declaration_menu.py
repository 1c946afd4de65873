"""The declaration menu (RULES §6): what a scorer may declare under each ruleset, with the
values worked out from the preset tables of RULES §3."""

from __future__ import annotations

import dataclasses

import pytest

from core.names import Name
from scoring.engine import DeclarationMenu, declaration_menu, get_ruleset, resolve_ruleset
from scoring.engine.rulesets import PRESETS


def patterns(menu: DeclarationMenu) -> dict[str, tuple[int, int, int, int]]:
    """code -> (value in the unit, paid at base 1, min roots, max roots)."""
    return {p.code: (p.value, p.paid, p.min_roots, p.max_roots) for p in menu.patterns}


def test_qq_lists_its_table_with_fan_and_payments():
    # RULES §3.1: value = 2^(fan − 1); 龙七对 5 fan counts one root itself, so it needs one
    m = declaration_menu("qq")
    assert m.unit == "fan" and m.root_steps == 1
    assert patterns(m) == {
        "pinghu": (1, 1, 0, 4),
        "duiduihu": (2, 2, 0, 4),
        "qingyise": (3, 4, 0, 4),
        "daiyaojiu": (3, 4, 0, 4),
        "qidui": (3, 4, 0, 0),  # a 七对 with a four is 龙七对 here: qidui takes no roots
        "qingdui": (4, 8, 0, 4),
        "jiangdui": (4, 8, 0, 4),
        "longqidui": (5, 16, 1, 3),  # 5 fan includes its root: 2^4 = 16
        "qingqidui": (5, 16, 0, 0),
        "qingyaojiu": (5, 16, 0, 4),
        "tianhu": (6, 32, 0, 3),
        "dihu": (6, 32, 0, 3),
        "qinglongqidui": (6, 32, 1, 3),
    }
    assert m.extras == ()  # 金钩钓 is not counted by qq
    tianhu = next(p for p in m.patterns if p.code == "tianhu")
    assert (tianhu.situation, tianhu.wait) == ("heavenly", False)
    assert tianhu.name == Name("天胡", "Heavenly hand")
    # 杠上花 +1, 杠上炮 +1; 抢杠 adds nothing in qq but cancels the kong
    assert {s.code: s.steps for s in m.situations} == {
        "kong_flower": 1,
        "kong_discard": 1,
        "robbing_kong": 0,
        "heavenly": 0,
        "earthly": 0,
    }
    assert [(d.code, d.needs_wait) for d in m.draw] == [
        ("huazhu", False),
        ("not_ready", False),
        ("ready", True),
    ]


def test_chengdu_multiples_are_capped_at_8_and_named_as_the_preset_names_them():
    m = declaration_menu("chengdu")
    p = patterns(m)
    assert m.unit == "multiple"
    # 清七对 16 and 清龙七对 32 are multiples beyond 满格 8: each payer pays 8
    assert p["qingqidui"] == (16, 8, 0, 0)
    assert p["qinglongqidui"] == (32, 8, 1, 3)
    assert p["tianhu"] == (8, 8, 0, 3)  # 满格, the cap
    assert p["duiduihu"] == (2, 2, 0, 4)
    names = {x.code: x.name.zh for x in m.patterns}
    assert (names["duiduihu"], names["qidui"], names["qingdui"]) == ("大对子", "暗七对", "清大对")
    assert "jingoudiao" not in p  # optional, off by default
    with_hook = declaration_menu({"preset": "chengdu", "options": {"jingoudiao": True}})
    hook = next(x for x in with_hook.patterns if x.code == "jingoudiao")
    assert (hook.value, hook.paid, hook.melds) == (4, 4, 4)  # optional 金钩钓 ×4
    assert with_hook.ruleset != m.ruleset


def test_additive_counts_points_and_takes_roots_on_longqidui():
    m = declaration_menu("additive")
    p = patterns(m)
    assert m.unit == "points"
    # 龙七对 = 七对 3 + its roots, at least one: 4 points at one root
    assert p["longqidui"] == (4, 4, 1, 3)
    assert p["tianhu"] == (8, 8, 0, 3)
    assert p["qingqidui"] == (3, 3, 0, 0)  # no entry of its own: the highest listed one, 3
    # 杠上花 +2, 抢杠 +1, no bonus for 杠上炮
    assert {s.code: s.steps for s in m.situations}["kong_flower"] == 2
    assert {s.code: s.steps for s in m.situations}["kong_discard"] == 0


def test_xuezhan9_has_jingoudiao_as_an_extra_and_haidi():
    m = declaration_menu("xuezhan9")
    p = patterns(m)
    # value = 2^fan: 平胡 0 fan pays 1; 清七对 7 fan pays 128; 龙七对 4 + 1 root = 5 → 32
    assert p["pinghu"] == (0, 1, 0, 4)
    assert p["qingqidui"] == (7, 128, 0, 0)
    assert p["longqidui"] == (5, 32, 1, 3)
    assert p["tianhu"] == (9, 512, 0, 3)
    assert [(x.code, x.steps, x.melds) for x in m.extras] == [("jingoudiao", 1, 4)]
    assert m.extras[0].name.zh == "金钩钓"
    assert {s.code for s in m.situations} >= {"last_tile", "robbing_kong"}


def test_options_change_the_menu():
    # daiyaojiu off in qq: neither 带幺九 nor 清幺九 may be declared
    off = declaration_menu({"preset": "qq", "options": {"daiyaojiu": False}})
    assert not {"daiyaojiu", "qingyaojiu"} & set(patterns(off))
    # 海底 switched on in qq: a flag worth one fan
    haidi = declaration_menu({"preset": "qq", "options": {"haidi": True}})
    assert {s.code: s.steps for s in haidi.situations}["last_tile"] == 1
    # a cap of 3 fan in qq: 清一色 3 fan still pays 4, 清对 4 fan pays the cap's 4
    capped = declaration_menu({"preset": "qq", "options": {"cap": 3}})
    assert patterns(capped)["qingdui"] == (4, 4, 0, 4)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_menu_is_frozen_json_and_follows_the_table(preset):
    m = declaration_menu(preset)
    r = resolve_ruleset(preset)
    assert [p.code for p in m.patterns] == [e.code for e in r.table]
    assert m.ruleset == r.fingerprint
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.preset = "x"  # type: ignore[misc]
    d = m.as_dict()
    assert d["patterns"][0]["name"] == {"zh": "平胡", "en": "Basic win"}
    assert declaration_menu(r) is m  # kept per ruleset


def test_a_pinned_ruleset_has_its_menu():
    from scoring.engine import ruleset_from_description

    r = get_ruleset("chengdu", cap=16)
    pinned = ruleset_from_description(r.as_dict())
    assert patterns(declaration_menu(pinned))["qingqidui"] == (16, 16, 0, 0)


def test_the_service_gives_the_menu_and_refuses_a_bad_spec():
    from core.errors import Invalid
    from scoring import services

    assert services.declaration_menu("qq") is declaration_menu("qq")
    with pytest.raises(Invalid):
        services.declaration_menu("no-such-rules")
