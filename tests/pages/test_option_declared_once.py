"""An option is declared once (issue 26 §2): one ``OptionSpec``, here in this module alone,
and its rule reading ``ruleset.options``, are all it takes for the engine to check it, the
presets to carry it, the forms to ask for it, the words to say it, ``GET /api/v1/rulesets/``
to serve it and the rules pages to show it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.utils import translation

from core.names import Name
from pages.clubs.options import option_fields
from pages.clubs.rulesets import option_words, ruleset_words
from scoring.engine import PRESETS, EngineError, Ruleset, resolve_ruleset
from scoring.engine.options import Asked, OptionSpec, Value
from scoring.engine.rulesets import option_declared
from tests.helpers import login

pytestmark = pytest.mark.django_db

#: 幺鸡: a house rule some teahouses play, off unless a preset says so (sbr here)
BIRD = OptionSpec(
    "bamboo_bird",
    "flag",
    Name("幺鸡加番", "Bamboo bird (幺鸡)"),
    Name("胡牌时手里有一条，加一番", "One more step for a win holding the one of bamboos"),
    "§3.5",
    False,
    {"sbr": True},
    values=(Value(True, said=Name("幺鸡：加一番", "Bamboo bird (幺鸡): one more step")),),
    asked=Asked(Name("幺鸡加一番", "Bamboo bird (幺鸡): one more step")),
    earlier=False,  # rules stored before it keep their fingerprints
)


def bird_steps(ruleset: Ruleset, concealed: str) -> int:
    """The option's rule: one more step where the hand holds 1s."""
    return int(ruleset.options.bamboo_bird and "1s" in concealed)


@pytest.fixture
def bird() -> Iterator[OptionSpec]:
    before = {name: resolve_ruleset(name) for name in PRESETS}
    fingerprints = {name: r.fingerprint for name, r in before.items()}
    with option_declared(BIRD):
        # declared after the first descriptions: a preset where it has its earlier value keeps
        # its fingerprint; sbr, where it is on, plays other rules now
        now = {name: resolve_ruleset(name).fingerprint for name in PRESETS}
        assert {name for name in PRESETS if now[name] != fingerprints[name]} == {"sbr"}
        yield BIRD
    # and afterwards every preset's ruleset is the very one it was
    assert all(resolve_ruleset(name) is r for name, r in before.items())


def test_the_engine_checks_it_and_each_preset_has_its_default(bird):
    assert resolve_ruleset("sbr").options.bamboo_bird is True
    assert resolve_ruleset("qq").options.bamboo_bird is False
    turned_on = resolve_ruleset({"preset": "qq", "options": {"bamboo_bird": True}})
    assert bird_steps(turned_on, "1s2s3s") == 1 and bird_steps(resolve_ruleset("qq"), "1s") == 0
    assert turned_on.to_spec() == {"preset": "qq", "options": {"bamboo_bird": True}}
    with pytest.raises(EngineError) as e:
        resolve_ruleset({"preset": "qq", "options": {"bamboo_bird": "yes"}})
    assert e.value.as_dicts() == [
        {
            "code": "invalid_option",
            "message": "option 'bamboo_bird' must be true or false, got 'yes'",
            "path": "ruleset.options.bamboo_bird",
        }
    ]


def test_afterwards_it_is_unknown():
    with option_declared(BIRD):
        pass
    with pytest.raises(EngineError) as e:
        resolve_ruleset({"preset": "qq", "options": {"bamboo_bird": True}})
    assert [p["code"] for p in e.value.as_dicts()] == ["unknown_option"]


def test_the_forms_ask_for_it(bird):
    with translation.override("zh-hans"):
        assert option_fields()["opt_bamboo_bird"].label == "幺鸡加一番"
    body = Client(HTTP_ACCEPT_LANGUAGE="en")
    body.force_login(login())
    html = body.get("/clubs/new/").content.decode()
    assert 'type="checkbox" name="opt_bamboo_bird"' in html
    assert "Bamboo bird (幺鸡): one more step" in html


def test_the_words_say_it(bird):
    d = resolve_ruleset("sbr").as_dict()
    with translation.override("en"):
        assert "Bamboo bird (幺鸡): one more step" in ruleset_words(d)
        assert "Bamboo bird (幺鸡): one more step" not in ruleset_words(
            resolve_ruleset("qq").as_dict()
        )
        row = next(o for o in option_words(d) if o.key == "bamboo_bird")
        assert (row.label, row.value) == ("Bamboo bird (幺鸡)", "yes")
    with translation.override("zh-hans"):
        assert "幺鸡：加一番" in ruleset_words(d)


def test_the_api_serves_it(bird, api_client):
    listing = api_client.get("/api/v1/rulesets/").json()
    schema = {o["key"]: o for o in listing["options"]}["bamboo_bird"]
    assert schema["type"] == "boolean" and schema["allowed"] == "boolean"
    assert schema["name"] == {"zh": "幺鸡加番", "en": "Bamboo bird (幺鸡)"}
    assert schema["rules"] == "§3.5"
    assert schema["defaults"] == {name: name == "sbr" for name in PRESETS}
    sbr = next(p for p in listing["results"] if p["name"] == "sbr")
    assert sbr["options"]["bamboo_bird"] is True


def test_the_rules_pages_show_it(bird, client):
    index = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r"Bamboo bird \(幺鸡\)", index)
    page = client.get("/rules/sbr/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'id="option-bamboo_bird"' in page and "幺鸡加番" in page
    assert "胡牌时手里有一条，加一番" in page
