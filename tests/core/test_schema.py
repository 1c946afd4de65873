import inspect
import os
import re

import pytest
import yaml
from django.urls import get_resolver
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from core.api import ApiView
from tests.clubs.factories import ClubFactory
from tests.helpers import run_python

pytestmark = pytest.mark.django_db

URL_RE = re.compile(r"""https?://[^\s"'<>)]+""")


def test_schema_is_valid_openapi_3(api_client):
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")
    assert response.status_code == 200
    spec = yaml.safe_load(response.content)
    assert spec["openapi"].startswith("3.")
    validate(spec)
    assert "/api/v1/" in spec["paths"]
    assert "/api/v1/auth/token/" in spec["paths"]


def test_schema_json(api_client):
    response = api_client.get("/api/schema/?format=json")
    assert response.status_code == 200
    validate(response.json())


def test_docs_page_uses_no_cdn(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html.lower()
    assert "/static/drf_spectacular_sidecar/" in html
    external = [u for u in URL_RE.findall(html) if not u.startswith("http://testserver")]
    assert external == []


def test_sidecar_assets_are_served(client):
    html = client.get("/api/docs/").content.decode()
    assets = re.findall(r"""(/static/drf_spectacular_sidecar/[^"']+)""", html)
    assert assets
    for asset in assets:
        response = client.get(asset)
        assert response.status_code == 200, asset
        b"".join(response.streaming_content) if response.streaming else response.content


# --- what the schema says is what the API answers: pages, and every error ----------------------

PAGED_LISTS = [
    "/api/v1/clubs/",
    "/api/v1/clubs/{slug}/members/",
    "/api/v1/clubs/{slug}/invitations/",
    "/api/v1/clubs/{slug}/players/",
    "/api/v1/clubs/{slug}/sessions/",
    "/api/v1/sessions/{id}/hands/",
    "/api/v1/sessions/{id}/hands/{number}/history/",
    "/api/v1/tournaments/",
    "/api/v1/tournaments/{slug}/players/",
]
ERRORS_REF = "#/components/schemas/Errors"


@pytest.fixture(scope="module")
def spec(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        response = APIClient().get("/api/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def schema_of(spec: dict, response: dict) -> dict:
    schema = response["content"]["application/json"]["schema"]
    if "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def operations(spec: dict):
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


@pytest.mark.parametrize("path", PAGED_LISTS)
def test_a_paged_list_is_documented_as_its_page(spec, path):
    operation = spec["paths"][path]["get"]
    page = schema_of(spec, operation["responses"]["200"])
    assert page["type"] == "object"
    assert set(page["properties"]) == {"count", "next", "previous", "results"}
    assert page["properties"]["results"]["type"] == "array"
    assert {"page", "page_size"} <= {p["name"] for p in operation["parameters"]}


def test_a_list_that_is_not_paged_stays_an_array(spec):
    rounds = spec["paths"]["/api/v1/tournaments/{slug}/rounds/"]["get"]
    assert schema_of(spec, rounds["responses"]["200"])["type"] == "array"


def test_exactly_the_paged_lists_are_documented_as_pages(spec):
    paged = {
        path
        for path, method, op in operations(spec)
        if method == "get"
        and "results" in schema_of(spec, op["responses"]["200"]).get("properties", {})
    }
    assert paged == {*PAGED_LISTS, "/api/v1/rulesets/"}  # rulesets declares its page itself


def views_of(patterns) -> set[type]:
    found = set()
    for p in patterns:
        if hasattr(p, "url_patterns"):
            found |= views_of(p.url_patterns)
        elif hasattr(p.callback, "view_class"):
            found.add(p.callback.view_class)
    return found


def test_a_view_that_pages_says_so():
    """The schema knows a page by the view's ``pages``; a view that pages without saying so
    would be documented as a bare array again."""
    lists = [v for v in views_of(get_resolver().url_patterns) if issubclass(v, ApiView)]
    assert len([v for v in lists if v.pages]) == len(PAGED_LISTS)
    for view in lists:
        pages = hasattr(view, "get") and "paginate" in inspect.getsource(view.get)
        assert view.pages == pages, view


def test_the_page_answered_is_the_page_documented(spec, db):
    ClubFactory()
    page = APIClient().get("/api/v1/clubs/").json()
    documented = schema_of(spec, spec["paths"]["/api/v1/clubs/"]["get"]["responses"]["200"])
    assert set(page) == set(documented["properties"])


def test_every_operation_documents_its_errors_in_the_one_shape(spec):
    errors = spec["components"]["schemas"]["Errors"]
    assert errors["properties"]["errors"]["items"] == {"$ref": "#/components/schemas/ErrorItem"}
    item = spec["components"]["schemas"]["ErrorItem"]
    assert set(item["properties"]) == {"path", "code", "message"}
    for path, method, operation in operations(spec):
        statuses = {int(s) for s in operation["responses"]}
        assert 401 in statuses and 429 in statuses, (method, path)
        for status in statuses - {200, 201, 202, 204}:
            response = operation["responses"][str(status)]
            assert response["description"], (method, path, status)
            assert response["content"]["application/json"]["schema"] == {"$ref": ERRORS_REF}


@pytest.mark.parametrize(
    "method, path, statuses",
    [
        ("post", "/api/v1/sessions/{id}/hands/", {400, 401, 403, 404, 409, 413, 415, 429}),
        ("get", "/api/v1/sessions/{id}/hands/", {400, 401, 403, 404, 429}),
        ("get", "/api/v1/clubs/{slug}/", {401, 403, 404, 429}),
        ("post", "/api/v1/clubs/", {400, 401, 403, 409, 413, 415, 429}),
        ("post", "/api/v1/engine/settle", {400, 401, 413, 415, 429}),
        ("post", "/api/v1/auth/token/", {400, 401, 413, 415, 429}),
        ("get", "/api/v1/auth/me/", {401, 429}),
        ("post", "/api/v1/tournaments/{slug}/rounds/", {401, 403, 404, 409, 429}),
    ],
)
def test_each_operation_lists_the_errors_it_may_answer(spec, method, path, statuses):
    responses = spec["paths"][path][method]["responses"]
    assert {int(s) for s in responses if s >= "400"} == statuses


def test_the_schema_command_validates_without_warnings():
    result = run_python(["manage.py", "spectacular", "--validate", "--fail-on-warn",
                         "--file", os.devnull], DJANGO_ENV="test")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr and "Error" not in result.stderr
