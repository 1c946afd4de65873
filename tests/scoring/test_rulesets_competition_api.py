"""``GET /api/v1/rulesets/`` lists the competition presets and the options of RULES §3.8 with
their per-preset defaults exactly as the §3.8 table gives them (and the rest of §3.5 for the
new presets, as the paragraph under that table says)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

PRESET_ORDER = ("qq", "chengdu", "additive", "xuezhan9", "tfmj2024", "sbr")


def by_preset(*values) -> dict:
    return dict(zip(PRESET_ORDER, values, strict=True))


#: RULES §3.8, one row per key; a "—" cell of the table is "as §3.5" (the §3.5 default)
NEW_OPTIONS = {
    "kong_transfer": by_preset("copy", "copy", "copy", "copy", "chain_split", "refund"),
    "huazhu": by_preset(16, "cap", 16, "chajiao_plus_fan", "not_ready", "not_ready"),
    "chajiao_kongs": by_preset(True, True, True, True, True, False),
    "golden_wait": by_preset(False, False, False, False, False, True),
    "haidi_over_kong_discard": by_preset(False, False, False, False, False, True),
    "tianhu_dihu": by_preset(True, True, True, True, False, True),
    "false_win": by_preset("huazhu", "huazhu", "huazhu", "cap", "cap", 8),
    "jingoudiao": by_preset(False, False, False, True, True, False),
    "haidi": by_preset(False, False, False, True, True, True),
    "added_kong_same_turn": by_preset(False, False, False, False, True, True),
}
#: RULES §3.5's table for the four presets, and the paragraph under §3.8's for the new two
OTHER_OPTIONS = {
    "mode": by_preset(*["xuezhan"] * 6),
    "cap": by_preset(None, 8, None, 9, 3, 3),
    "self_draw_bonus": by_preset("none", "add_one", "none", "add_fan", "add_one", "add_one"),
    "kong_concealed": by_preset(*[2] * 6),
    "kong_added": by_preset(*[1] * 6),
    "kong_direct": by_preset(1, 2, 1, 2, 2, 2),
    "drizzle": by_preset(*[False] * 6),
    "chajiao": by_preset("max", "max", "min", "max", "max", "max"),
    "dead_wait_counts": by_preset(*[True] * 6),
    "refund_kongs": by_preset(*[True] * 6),
    "kong_flower_after_direct": by_preset(
        "self_draw", "self_draw", "discard", "self_draw", "self_draw", "self_draw"
    ),
    "daiyaojiu": by_preset(True, False, True, False, False, False),
    "jiangdui": by_preset(True, False, True, False, False, False),
    "juezhang": by_preset(*[False] * 6),
    "horse_eats_horse": by_preset(*[False] * 6),
}


@pytest.fixture
def listing(api_client) -> dict:
    response = api_client.get("/api/v1/rulesets/")
    assert response.status_code == 200
    return response.json()


def test_the_competition_presets_are_listed(listing):
    names = [p["name"] for p in listing["results"]]
    assert set(PRESET_ORDER) <= set(names)
    assert listing["count"] == len(names)


@pytest.mark.parametrize("key", [*NEW_OPTIONS, *OTHER_OPTIONS])
def test_every_option_lists_its_default_per_preset(listing, key):
    """RULES §3.8 (and §3.5): the option schema's ``defaults`` for each preset."""
    schema = {o["key"]: o for o in listing["options"]}
    assert key in schema, sorted(schema)
    expected = {**NEW_OPTIONS, **OTHER_OPTIONS}[key]
    assert {name: schema[key]["defaults"].get(name) for name in PRESET_ORDER} == expected


def test_kong_transfer_lists_its_three_modes(listing):
    schema = {o["key"]: o for o in listing["options"]}
    assert set(schema["kong_transfer"]["allowed"]) == {"copy", "chain_split", "refund"}


@pytest.mark.parametrize("name", ["tfmj2024", "sbr"])
def test_each_new_preset_describes_its_own_options(listing, name):
    """Each preset's description carries its options: the §3.8 / §3.5 values."""
    preset = next(p for p in listing["results"] if p["name"] == name)
    for key, per_preset in {**NEW_OPTIONS, **OTHER_OPTIONS}.items():
        assert preset["options"][key] == per_preset[name], key


def test_tfmj2024_names_its_source(listing):
    """RULES §3.6: the standard's own text was not available, so the preset says so in its
    ``source``: the rows are what the open-source EllanServer/MahjongEngine does (reading: the
    source names that implementation)."""
    preset = next(p for p in listing["results"] if p["name"] == "tfmj2024")
    assert "MahjongEngine" in preset["source"] or "EllanServer" in preset["source"]
