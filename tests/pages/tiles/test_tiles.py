"""The hand calculator /tiles/ and the tile picker include, rendered by the server."""

from __future__ import annotations

import json
import re

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db


def picker_words(body: str) -> dict:
    """The tile picker's words: the one JSON block a page writes for all its pickers."""
    block = r'<script type="application/json" id="tile-picker-words">(.*?)</script>'
    blocks = re.findall(block, body)
    assert len(blocks) == 1
    return json.loads(blocks[0])


def get(client, lang: str, **params):
    return client.get(reverse("page-tiles"), params, HTTP_ACCEPT_LANGUAGE=lang)


def test_the_calculator_renders_in_chinese(client):
    response = get(client, "zh-hans")
    assert response.status_code == 200
    body = response.content.decode()
    assert "<h1>算番器</h1>" in body
    assert 'name="hand"' in body and 'name="win"' in body
    assert "QQ游戏 四川麻将 / 血战场" in body  # the preset's own Name
    assert picker_words(body)["t"]["m"] == "{rank}万"
    assert picker_words(body)["names"]["qingyise"] == "清一色"
    assert body.count("pages/tilepicker.js") == 1
    assert body.count('class="tile-sprite"') == 1 and body.count("<symbol ") == 27


def test_the_calculator_renders_in_english(client):
    body = get(client, "en").content.decode()
    assert "<h1>Hand calculator</h1>" in body
    assert "QQ游戏 四川麻将 / 血战场 (QQ Game Sichuan mahjong (blood battle))" in body
    assert picker_words(body)["t"]["m"] == "{rank} characters"


def test_without_javascript_the_form_answers_with_the_engine_value(client):
    # qq: 1112345678999m + 9m is 清一色 3 fan + 1 root (the four 9万) = 4 fan → 2^3 = 8
    body = get(client, "zh-hans", hand="1112345678999m", win="9m").content.decode()
    assert "清一色 3番 + 1根 = 4番 → 8" in body
    # chengdu: 清一色 ×4, the root ×2 = 8 (the cap, 8, is not passed); 自摸 adds 1 after the cap
    body = get(client, "en", preset="chengdu", hand="1112345678999m", win="9m", self_draw="1")
    assert "清一色 (Pure one suit) ×4 × 1 root ×2 = ×8 → 8 + 自摸加底 (Self-draw bonus) 1 = 9" in (
        body.content.decode()
    )


def test_without_javascript_thirteen_tiles_list_the_waits(client):
    # 123m456m789m11p23p waits on 1p and 4p (平胡 1 fan → 1 in qq)
    body = get(client, "zh-hans", hand="123m456m789m11p23p").content.decode()
    assert "听" in body
    assert body.count('class="tp-wait-tile"') == 2


def test_the_engine_refusal_is_shown_in_its_own_words(client):
    body = get(client, "en", hand="123m45x").content.decode()
    assert "unexpected character &#x27;x&#x27; at position 6" in body


def test_an_unknown_preset_falls_back_to_the_default(client):
    response = get(client, "en", preset="nope")
    assert response.status_code == 200
    assert 'value="qq" selected' in response.content.decode()


def render_picker(**params) -> str:
    request = RequestFactory().get("/")
    with translation.override("zh-hans"):
        return render_to_string("pages/includes/tile_picker.html", params, request=request)


def test_the_include_without_a_value_is_an_empty_text_input():
    html = render_picker(name="winner_1_tiles", ruleset="chengdu")
    assert 'name="winner_1_tiles" id="id_winner_1_tiles" value=""' in html
    assert 'data-ruleset="&quot;chengdu&quot;"' in html
    assert "tp-winning" not in html  # no second input unless asked for
    assert 'data-evaluate-url="/api/v1/engine/evaluate"' in html
    assert 'data-waits-url="/api/v1/engine/waits"' in html
    assert 'data-csrf="' in html and 'data-csrf=""' not in html


def test_the_include_with_a_value_a_spec_melds_and_a_winning_tile():
    spec = {"preset": "qq", "options": {"cap": 5}}
    melds = [{"kind": "kong", "tile": "9s", "concealed": True}]
    html = render_picker(
        name="w", value="123s456s77s22m", ruleset=spec, melds=melds,
        winning_name="w_tile", winning_value="7s", self_draw=True,
    )  # fmt: skip
    assert 'value="123s456s77s22m"' in html
    assert 'name="w_tile" id="id_w_win" value="7s"' in html
    assert (
        'data-ruleset="{&quot;preset&quot;:&quot;qq&quot;,&quot;options&quot;:{&quot;cap&quot;:5}}"'
        in html
    )
    assert "&quot;kind&quot;:&quot;kong&quot;" in html
    assert 'data-self-draw="true"' in html
