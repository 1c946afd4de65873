"""The stateless engine endpoints: /engine/evaluate, /engine/waits, /rulesets/."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle

from scoring.engine import resolve_ruleset
from scoring.serializers import (
    EvaluateOutputSerializer,
    PresetListSerializer,
    PresetSerializer,
    ResolvedRulesetSerializer,
    SettlementSerializer,
    WaitsOutputSerializer,
)
from tests.helpers import assert_shape
from tests.scoring.engine.records import DRAWN, XUEZHAN

pytestmark = pytest.mark.django_db

EVALUATE = "/api/v1/engine/evaluate"
WAITS = "/api/v1/engine/waits"


def test_evaluate_the_issue_example_exactly(api_client):
    """8888s 123s 567s 234s 77s: 清一色 3番 + one 根 (the kong) = 4番 -> 2^3 = 8 (qq)."""
    body = {
        "ruleset": "qq",
        "concealed": "123567234s7s",
        "melds": [{"kind": "kong", "tile": "8s", "concealed": False}],
        "winning_tile": "7s",
        "self_draw": False,
        "situation": [],
        "declared_void": "m",
    }
    response = api_client.post(EVALUATE, body, format="json")
    assert response.status_code == 200
    data = response.json()
    assert data["win"] is True
    assert data["pattern"] == "qingyise"
    assert data["patterns"] == ["qingyise", "pinghu"]
    assert (data["roots"], data["fan"], data["value"], data["capped"]) == (1, 4, 8, False)
    assert data["lines"] == [
        {"code": "qingyise", "zh": "清一色", "en": "Pure one suit", "fan": 3},
        {"code": "gen", "zh": "根", "en": "Root (four of a kind)", "fan": 1},
    ]
    assert data["ruleset"] == resolve_ruleset("qq").fingerprint


def test_fan_is_null_outside_fan_presets(api_client):
    """Chengdu counts multiples: 清一色 4倍 × 2 for the kong's 根 = 8, at the cap of 8."""
    body = {
        "ruleset": "chengdu",
        "concealed": "123567234s7s",
        "melds": [{"kind": "kong", "tile": "8s"}],
        "winning_tile": "7s",
    }
    data = api_client.post(EVALUATE, body, format="json").json()
    assert data["fan"] is None
    assert data["unit"] == "multiple"
    assert data["value"] == 8
    assert data["capped"] is False


def test_not_a_win_is_a_200_with_the_reason(api_client):
    body = {"concealed": "123m456p789s1122m", "winning_tile": "2m"}
    response = api_client.post(EVALUATE, body, format="json")
    assert response.status_code == 200
    assert response.json()["win"] is False
    assert response.json()["reason"] == "three_suits"


def test_declared_void_suit_is_not_a_win(api_client):
    body = {"concealed": "2344567p345789s", "winning_tile": "7p", "declared_void": "s"}
    data = api_client.post(EVALUATE, body, format="json").json()
    assert data == {"win": False, "reason": "declared_void_suit", "roots": 0}


def test_bad_input_lists_every_error_with_its_path(api_client, json_errors):
    body = {
        "ruleset": {"preset": "chengdu", "options": {"cap": "high", "colour": True}},
        "concealed": "12305m",
        "winning_tile": "7x",
        "melds": [{"kind": "chow", "tile": "1m"}],
    }
    response = api_client.post(EVALUATE, body, format="json")
    assert response.status_code == 400
    errors = {e["path"]: e["code"] for e in json_errors(response)}
    # the ruleset is checked first; its two problems come together
    assert errors == {
        "ruleset.options.cap": "invalid_option",
        "ruleset.options.colour": "unknown_option",
    }
    body["ruleset"] = "chengdu"
    errors = {
        e["path"]: e["code"] for e in json_errors(api_client.post(EVALUATE, body, format="json"))
    }
    assert errors == {
        "concealed": "notation_rank",
        "winning_tile": "notation_character",
        "melds[0].kind": "invalid_meld_kind",
    }


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"ruleset": "mahjong", "concealed": "1m", "winning_tile": "1m"}, "ruleset",
         "unknown_preset"),
        ({"concealed": "123m", "winning_tile": "1m"}, "concealed", "wrong_tile_count"),
        ({"concealed": "1111m234567m999p", "winning_tile": "1m"}, "concealed", "too_many_copies"),
        (
            {"concealed": "2344567p345789s", "winning_tile": "7p", "situation": ["kong_flower"],
             "self_draw": True},
            "situation",
            "kong_flower_without_kong",
        ),
        (
            {"concealed": "2344567p345789s", "winning_tile": "7p", "situation": ["dragon"]},
            "situation[0]",
            "unknown_situation",
        ),
    ],
)  # fmt: skip
def test_refusals(api_client, json_errors, body, path, code):
    response = api_client.post(EVALUATE, body, format="json")
    assert response.status_code == 400
    assert [(e["path"], e["code"]) for e in json_errors(response)] == [(path, code)]


def test_body_must_be_an_object(api_client, json_errors):
    response = api_client.post(EVALUATE, [1, 2], format="json")
    assert response.status_code == 400
    assert json_errors(response)[0]["code"] == "invalid_body"


def test_waits_of_the_nine_gates(api_client):
    """1112345678999m waits on every 1m–9m (九莲宝灯 shape), qq: 清一色 3番 = 4, and with
    1m or 9m the hand holds four of a kind: +1 根 = 4番 = 8. 查大叫 takes the largest: 8."""
    response = api_client.post(WAITS, {"concealed": "1112345678999m"}, format="json")
    assert response.status_code == 200
    data = response.json()
    assert data["ready"] is True and data["huazhu"] is False
    values = {w["tile"]: w["value"] for w in data["waits"]}
    assert values == {f"{r}m": 8 if r in (1, 9) else 4 for r in range(1, 10)}
    assert data["chajiao_value"] == 8


def test_waits_dead_wait_with_visible_tiles(api_client):
    """111m 46m 123s 66s 789s waits only on 5m (卡张). With all four 5m visible it is a
    死叫: still ready by default (死叫算叫), not ready when dead_wait_counts is off."""
    body = {"concealed": "111m46m123s66s789s", "visible": "5555m"}
    data = api_client.post(WAITS, body, format="json").json()
    assert [(w["tile"], w["dead"], w["remaining"]) for w in data["waits"]] == [("5m", True, 0)]
    assert data["ready"] is True and data["chajiao_value"] == 1
    body["ruleset"] = {"preset": "qq", "options": {"dead_wait_counts": False}}
    data = api_client.post(WAITS, body, format="json").json()
    assert data["ready"] is False and data["chajiao_value"] is None


def test_waits_of_a_huazhu(api_client):
    data = api_client.post(WAITS, {"concealed": "123m456p789s1122m"}, format="json").json()
    assert data == {
        "ready": False,
        "huazhu": True,
        "waits": [],
        "chajiao_value": None,
        "ruleset": resolve_ruleset("qq").fingerprint,
    }


def test_rulesets_list_every_preset_with_tables_and_toggles(api_client):
    response = api_client.get("/api/v1/rulesets/")
    assert response.status_code == 200
    data = response.json()
    assert data["count"] == 6
    names = [p["name"] for p in data["results"]]
    assert names == ["qq", "chengdu", "additive", "xuezhan9", "tfmj2024", "sbr"]
    chengdu = data["results"][1]
    table = {p["code"]: p["value"] for p in chengdu["patterns"]}
    assert table["qingqidui"] == 16 and table["tianhu"] == 8  # 满格 = the cap
    assert chengdu["options"]["cap"] == 8
    assert {o["key"] for o in data["options"]} >= {"cap", "huazhu", "chajiao", "horse_eats_horse"}


def test_ruleset_detail_and_unknown_preset(api_client, json_errors):
    assert api_client.get("/api/v1/rulesets/xuezhan9/").json()["options"]["cap"] == 9
    response = api_client.get("/api/v1/rulesets/hongkong/")
    assert response.status_code == 404
    assert json_errors(response)[0]["code"] == "unknown_preset"


def test_resolve_gives_the_fingerprint_of_the_options(api_client):
    spec = {"preset": "chengdu", "options": {"cap": 16}}
    data = api_client.post("/api/v1/rulesets/resolve", {"ruleset": spec}, format="json").json()
    assert data["spec"] == spec
    assert data["fingerprint"] == resolve_ruleset(spec).fingerprint
    assert data["fingerprint"] != resolve_ruleset("chengdu").fingerprint


def test_engine_endpoints_are_throttled(api_client, monkeypatch, json_errors):
    rates = dict(SimpleRateThrottle.THROTTLE_RATES, engine="2/min")
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    cache.clear()
    body = {"concealed": "2344567p345789s", "winning_tile": "7p"}
    codes = [api_client.post(EVALUATE, body, format="json").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    response = api_client.post(EVALUATE, body, format="json")
    assert json_errors(response)[0]["code"] == "throttled"


def test_engine_endpoints_are_in_the_api_root(api_client):
    endpoints = api_client.get("/api/v1/").json()["endpoints"]
    assert endpoints["engine-evaluate"].endswith("/api/v1/engine/evaluate")
    assert endpoints["engine-waits"].endswith("/api/v1/engine/waits")
    assert endpoints["rulesets"].endswith("/api/v1/rulesets/")


SETTLE = "/api/v1/engine/settle"


def test_settle_a_record(api_client):
    """S1 平胡 on S2's discard (single mode): S2 pays S1 1; 老王 (6s: 6th from dealer S0 is
    S1) mirrors S1, so S2 also pays 老王 1. The discarder S2 deals next."""
    record = {
        "ruleset": "qq",
        "mode": "single",
        "dealer": 0,
        "events": [
            {"type": "win", "from": 2, "tile": "4p", "situation": [],
             "winners": [{"seat": 1, "concealed": "123m456m789m11p23p", "melds": []}]}
        ],
        "bettors": [{"name": "老王", "tile": "6s"}],
    }  # fmt: skip
    response = api_client.post(SETTLE, record, format="json")
    assert response.status_code == 200
    data = response.json()
    assert data["totals"] == {"seats": [0, 1, -2, 0], "bettors": [1]}
    assert data["payments"] == [
        {"payer": "S2", "payee": "S1", "amount": 1, "reason": "win", "event": 0},
        {"payer": "S2", "payee": "B0", "amount": 1, "reason": "bettor", "event": 0, "mirrors": 0},
    ]
    assert data["next_dealer"] == 2
    assert data["bettors"] == [{"name": "老王", "tile": "6s", "seat": 1}]


def test_settle_reports_every_error_with_its_path(api_client, json_errors):
    record = {
        "ruleset": "qq",
        "dealer": 7,
        "events": [
            {"type": "kong", "seat": 1, "kind": "direct", "tile": "5m"},
            {"type": "win", "from": 1, "tile": "3p",
             "winners": [{"seat": 2, "concealed": "12p456p789p11s78s"}]},
        ],
    }  # fmt: skip
    response = api_client.post(SETTLE, record, format="json")
    assert response.status_code == 400
    errors = {(e["path"], e["code"]) for e in json_errors(response)}
    assert errors == {
        ("dealer", "invalid_seat"),
        ("events[0].from", "direct_kong_without_discarder"),
    }


# --- every answer is what the schema declares ------------------------------------------------

#: RULES §6: a declared winner and declared players at the draw
DECLARED_DRAW = {
    "ruleset": "qq",
    "events": [{"type": "win", "from": 2, "tile": "5p", "situation": [],
                "winners": [{"seat": 1, "declared": {"pattern": "duiduihu"}}]}],
    "draw": {"hands": {"0": {"declared": "huazhu"}, "2": {"declared": "not_ready"},
                       "3": {"declared": "ready", "wait": {"pattern": "qidui"}}}},
}  # fmt: skip

DRAWN_WITH_BETTOR = {"ruleset": "qq", **DRAWN, "bettors": [{"name": "老王", "tile": "1m"}]}


@pytest.mark.parametrize(
    ("method", "url", "body", "serializer"),
    [
        ("post", EVALUATE, {"concealed": "123567234s7s", "winning_tile": "7s",
                            "melds": [{"kind": "kong", "tile": "8s"}]}, EvaluateOutputSerializer),
        ("post", EVALUATE, {"concealed": "1357m2468m13799p", "winning_tile": "9p"},
         EvaluateOutputSerializer),
        ("post", WAITS, {"concealed": "1112345678999m"}, WaitsOutputSerializer),
        ("post", "/api/v1/engine/settle", DRAWN_WITH_BETTOR, SettlementSerializer),
        ("post", "/api/v1/engine/settle", {"ruleset": "xuezhan9", **XUEZHAN},
         SettlementSerializer),
        ("post", "/api/v1/engine/settle", DECLARED_DRAW, SettlementSerializer),
        ("get", "/api/v1/rulesets/", None, PresetListSerializer),
        ("get", "/api/v1/rulesets/chengdu/", None, PresetSerializer),
        ("post", "/api/v1/rulesets/resolve", {"ruleset": {"preset": "qq", "options": {"cap": 6}}},
         ResolvedRulesetSerializer),
    ],
    ids=["win", "not-a-win", "waits", "settle-draw", "settle-xuezhan", "settle-declared",
         "rulesets", "preset",
         "resolve"],
)  # fmt: skip
def test_answers_have_the_declared_fields(api_client, method, url, body, serializer):
    response = getattr(api_client, method)(url, body, format="json")
    assert response.status_code == 200, response.json()
    assert_shape(response.json(), serializer())


@pytest.mark.parametrize(
    ("url", "body", "path"),
    [
        # a misspelt self_draw: evaluated as a discard win, the value would be silently wrong
        ("/api/v1/engine/evaluate",
         {"concealed": "1112345678999m", "winning_tile": "5m", "selfdraw": True}, "selfdraw"),
        ("/api/v1/engine/evaluate",
         {"concealed": "11123456789m", "winning_tile": "9m",
          "melds": [{"kind": "pung", "tile": "5p", "concealled": True}]}, "melds[0].concealled"),
        ("/api/v1/engine/waits", {"concealed": "1112345678999m", "visable": "9m"}, "visable"),
        ("/api/v1/rulesets/resolve", {"ruleset": "qq", "base": 2}, "base"),
    ],
)  # fmt: skip
def test_a_field_the_engine_does_not_read_is_refused(api_client, url, body, path):
    response = api_client.post(url, body, format="json")
    assert response.status_code == 400
    assert [(e["path"], e["code"]) for e in response.json()["errors"]] == [(path, "unknown_field")]


def test_each_preset_carries_its_declaration_menu(api_client):
    data = api_client.get("/api/v1/rulesets/xuezhan9/").json()
    menu = data["declarations"]
    assert menu["ruleset"] == data["fingerprint"]
    # xuezhan9: 清一色 3 fan pays 2^3 = 8; 金钩钓 is an extra of one fan
    qys = next(p for p in menu["patterns"] if p["code"] == "qingyise")
    assert (qys["value"], qys["paid"], qys["name"]["zh"]) == (3, 8, "清一色")
    assert [e["code"] for e in menu["extras"]] == ["jingoudiao"]
    resolved = api_client.post(
        "/api/v1/rulesets/resolve",
        {"ruleset": {"preset": "qq", "options": {"cap": 3}}},
        format="json",
    ).json()
    qd = next(p for p in resolved["declarations"]["patterns"] if p["code"] == "qingdui")
    assert qd["paid"] == 4  # 清对 4 fan at a cap of 3 fan: 2^(3−1)


def test_settle_a_declared_hand(api_client):
    """qq: S1 对对胡 on S2's discard, 2 fan → 2. Draw: S0 花猪 pays 16 to S2 and to S3; S2,
    not ready, pays S3's 七对 wait 3 fan → 4. S0 −32; S1 +2; S2 −2 +16 −4 = 10; S3 +20."""
    response = api_client.post("/api/v1/engine/settle", DECLARED_DRAW, format="json")
    assert response.status_code == 200, response.json()
    data = response.json()
    assert data["totals"]["seats"] == [-32, 2, 10, 20]
    assert data["verified"] is False
    bad = {**DECLARED_DRAW, "draw": {"hands": {**DECLARED_DRAW["draw"]["hands"],
                                               "3": {"declared": "ready"}}}}  # fmt: skip
    response = api_client.post("/api/v1/engine/settle", bad, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "wait_missing"


@pytest.mark.parametrize(
    ("ruleset", "value", "extras"),
    [
        # sbr (RULES §3.7, §3.8 haidi_over_kong_discard: true): 平胡 0 fan; off the last tile,
        # 海底 replaces 杠上炮: 1 fan, 2^1 = 2 (both would be 2 fan, 2^2 = 4)
        ("sbr", 2, ["haidi"]),
        # tfmj2024 (haidi_over_kong_discard: false): both extras stack, 2 fan, 2^2 = 4
        ("tfmj2024", 4, ["gangshangpao", "haidi"]),
    ],
)
def test_evaluate_lets_haidi_replace_the_kong_discard_where_the_preset_says(
    api_client, ruleset, value, extras
):
    """123456m 234678p 9p won on 9p's discard, the last tile, just after the discarder's kong:
    the evaluate endpoint valued it 4 under sbr, as settling did not."""
    body = {
        "ruleset": ruleset,
        "concealed": "123456m234678p9p",
        "winning_tile": "9p",
        "self_draw": False,
        "situation": ["kong_discard", "last_tile"],
    }
    answer = api_client.post(EVALUATE, body, format="json")
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert data["value"] == value
    assert sorted(line["code"] for line in data["lines"] if line["code"] != "pinghu") == extras
