"""What a stranger sends is bounded before it costs anything: API bodies beyond
``DATA_UPLOAD_MAX_MEMORY_SIZE`` are a 413, JSON nested beyond ``JSON_MAX_DEPTH`` and integers
longer than Python converts are a 400, each in the JSON shape, never a 500."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from core.parsers import nesting_exceeds
from tests.helpers import client_for, login

pytestmark = pytest.mark.django_db

ENGINE = ["/api/v1/engine/waits", "/api/v1/engine/settle", "/api/v1/engine/evaluate"]


@pytest.fixture
def writer():
    return client_for(login())


def post(client, url: str, body: str, content_type: str = "application/json"):
    return client.generic("POST", url, body, content_type=content_type)


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_the_body_limit_is_256_kb_by_default(settings):
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 256 * 1024


@pytest.mark.parametrize("url", [*ENGINE, "/api/v1/clubs/"])
def test_a_body_over_the_limit_is_413(writer, json_errors, url):
    body = json.dumps({"concealed": "1112345678999m", "padding": "x" * 300_000})
    response = post(writer, url, body)
    assert response.status_code == 413
    assert json_errors(response) == [
        {"path": "", "code": "body_too_large",
         "message": "the request body is larger than 262144 bytes"}
    ]  # fmt: skip
    assert len(response.content) < 200


def test_the_limit_is_the_setting_and_counts_every_content_type(settings, writer, json_errors):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    at_limit = json.dumps({"name": "x" * 60, "slug": "at-limit"}).ljust(100)
    assert post(writer, "/api/v1/clubs/", at_limit).status_code == 201
    over = post(writer, "/api/v1/clubs/", at_limit + " ")
    assert over.status_code == 413 and json_errors(over)[0]["code"] == "body_too_large"
    form = post(writer, "/api/v1/clubs/", "name=" + "x" * 200, "application/x-www-form-urlencoded")
    assert form.status_code == 413


def test_pages_outside_the_api_keep_django_s_own_limit(settings, admin_client):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    response = admin_client.post("/admin/login/", {"username": "x" * 200, "password": "y"})
    assert response.status_code == 400  # Django's RequestDataTooBig, not the API's 413


@pytest.mark.parametrize("depth", [33, 1_000, 100_000])
@pytest.mark.parametrize("url", [*ENGINE, "/api/v1/clubs/"])
def test_json_nested_too_deep_is_400(writer, json_errors, url, depth):
    response = post(writer, url, '{"concealed": ' + nested(depth - 1) + "}")
    assert response.status_code == 400
    assert json_errors(response) == [
        {"path": "", "code": "too_deep", "message": "JSON nested more than 32 levels deep"}
    ]


def test_json_32_levels_deep_is_parsed(writer, json_errors):
    response = post(writer, "/api/v1/engine/waits", '{"concealed": ' + nested(31) + "}")
    assert response.status_code == 400
    assert json_errors(response)[0]["code"] != "too_deep"


@pytest.mark.parametrize("url", [*ENGINE, "/api/v1/clubs/"])
def test_an_integer_longer_than_python_converts_is_400(writer, json_errors, url):
    response = post(writer, url, '{"concealed": "1112345678999m", "base": -' + "9" * 5000 + "}")
    assert response.status_code == 400
    assert json_errors(response) == [
        {"path": "", "code": "number_too_long", "message": "a number has more than 4300 digits"}
    ]


def test_an_integer_python_converts_is_parsed(writer, json_errors):
    response = post(writer, "/api/v1/engine/waits", '{"concealed": ' + "9" * 4300 + "}")
    assert json_errors(response)[0]["code"] == "notation_type"  # the engine's own refusal


@pytest.mark.parametrize(
    ("body", "path"),
    [
        (r'{"concealed": "1m\ud800"}', "concealed"),
        (r'{"melds": [{"kind": "pung", "tile": "\udfff"}]}', "melds[0].tile"),
        (r'{"melds": [{"\ud800": 1}]}', "melds[0]"),  # a key: its object is named
        # a key that str.isdigit calls a digit ("²", "٣") is no list index (found by
        # tests/core/test_api_fuzz.py: int("²") failed, a 500)
        (r'{"\u00b2": {"x": "\ud800"}}', "².x"),
        (r'{"\u0663": ["\ud800"]}', "٣[0]"),
    ],
)
@pytest.mark.parametrize("url", [*ENGINE, "/api/v1/clubs/"])
def test_a_lone_surrogate_is_refused_where_it_is(writer, json_errors, url, body, path):
    """JSON may escape half a character (\\ud800); echoed in an error message or path, it
    made the answer itself fail to encode (a 500)."""
    response = post(writer, url, body)
    assert response.status_code == 400
    assert [(e["path"], e["code"]) for e in json_errors(response)] == [(path, "invalid_text")]


def test_a_character_written_as_two_surrogates_is_text(writer, json_errors):
    """😀 escaped as its UTF-16 pair is one character, and reaches the engine."""
    response = post(writer, "/api/v1/engine/waits", r'{"concealed": "\ud83d\ude00"}')
    assert json_errors(response)[0]["code"] not in {"invalid_text", "parse_error"}


@pytest.mark.parametrize("url", [*ENGINE, "/api/v1/clubs/"])
@pytest.mark.parametrize("content_type", ["", "text/plain", "application/xml"])
def test_a_body_in_a_media_type_the_api_does_not_read_is_415(writer, json_errors, url,
                                                             content_type):  # fmt: skip
    """(documented for every operation that takes a body: ``core/schema.py``)"""
    response = post(writer, url, '{"concealed": "1m"}', content_type=content_type)
    assert response.status_code == 415
    assert json_errors(response)[0]["code"] == "unsupported_media_type"


def test_malformed_json_is_still_a_parse_error(json_errors):
    response = post(Client(), "/api/v1/engine/waits", '{"concealed": NaN}')
    assert response.status_code == 400
    assert json_errors(response)[0]["code"] == "parse_error"


@pytest.mark.parametrize(
    "data, deepest",
    [(1, 0), ([], 1), ({"a": [1, {"b": []}]}, 4), ([[[]], []], 3), ({"a": {"b": {"c": 1}}}, 3)],
)
def test_nesting_is_counted_in_containers(data, deepest):
    assert not nesting_exceeds(data, deepest)
    assert nesting_exceeds(data, deepest - 1) is (deepest > 0)


def test_every_page_sends_its_content_security_policy(client, db):
    """Pages load scripts and styles from the site only and run nothing inline; the admin and
    the API's own pages (rendered by their libraries) allow inline, still from the site only;
    JSON has none; a share card keeps its own."""
    page = client.get("/")
    policy = page["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "style-src 'self';" in policy
    assert "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" in client.get("/admin/login/")["Content-Security-Policy"]
    assert "Content-Security-Policy" not in client.get("/api/v1/rulesets/")
