"""The option specs (``scoring.engine.options``): every value a person can meet has its words,
every 呼叫转移 mode its rule, and each preset's defaults are RULES §3.5 and §3.8's."""

from __future__ import annotations

from scoring.engine import PRESETS, option_schema
from scoring.engine.options import DECLARED, OPTION_SPECS, same
from scoring.engine.settle.payments import KONG_TRANSFERS


def test_every_named_value_and_every_option_has_words_in_both_languages():
    for spec in DECLARED:
        assert spec.name.zh and spec.name.en and spec.meaning.zh and spec.meaning.en, spec.key
        assert spec.rules.startswith("§"), spec.key
        if spec.kind == "choice":  # a choice's every value is shown by its name
            assert all(v.name is not None for v in spec.values), spec.key
        for v in spec.values:
            for name in (v.name, v.said, v.asked):
                assert name is None or (name.zh and name.en), (spec.key, v.value)


def test_each_kong_transfer_mode_has_its_rule_and_no_more():
    assert set(KONG_TRANSFERS) == set(OPTION_SPECS["kong_transfer"].words)
    assert set(KONG_TRANSFERS) == {"copy", "chain_split", "refund"}
    # a mode pays to each winner, or once per discard: never both, never neither
    for rule in KONG_TRANSFERS.values():
        assert (rule.each_winner is None) != (rule.after_winners is None)


def test_the_presets_defaults_are_the_rule_books():
    """A few of RULES §3.5 / §3.8's per-preset columns, read from the presets."""
    table = {
        "cap": {"qq": None, "chengdu": 8, "additive": None, "xuezhan9": 9, "tfmj2024": 3, "sbr": 3},
        "kong_transfer": {"qq": "copy", "tfmj2024": "chain_split", "sbr": "refund"},
        "false_win": {"qq": "huazhu", "xuezhan9": "cap", "tfmj2024": "cap", "sbr": 8},
        "chajiao": {"qq": "max", "additive": "min"},
        "daiyaojiu": {"qq": True, "chengdu": False, "additive": True, "sbr": False},
    }
    for key, by_preset in table.items():
        for preset, value in by_preset.items():
            assert same(getattr(PRESETS[preset].defaults, key), value), (key, preset)


def test_the_schema_names_each_value():
    schema = {o["key"]: o for o in option_schema()}
    assert schema["kong_transfer"]["values"][1] == {
        "value": "chain_split", "zh": "整串杠，平分", "en": "the whole chain, split"
    }  # fmt: skip
    assert schema["kong_transfer"]["rules"] == "§3.8, §4.4"
    assert schema["cap"]["type"] == "integer" and schema["cap"]["nullable"] is True
    assert schema["huazhu"]["allowed"] == 'integer >= 0, "cap", "chajiao_plus_fan" or "not_ready"'
    assert [o["key"] for o in option_schema()] == list(OPTION_SPECS)
