import pytest

from core import index as api

pytestmark = pytest.mark.django_db


def test_api_root_lists_endpoints_and_links(api_client):
    response = api_client.get("/api/v1/")
    assert response.status_code == 200
    body = response.json()
    assert body["version"] == "v1"
    endpoints = body["endpoints"]
    assert endpoints["auth-token"] == "http://testserver/api/v1/auth/token/"
    assert endpoints["auth-me"] == "http://testserver/api/v1/auth/me/"
    assert "api-root" not in endpoints
    links = body["links"]
    assert links["schema"] == "http://testserver/api/schema/"
    assert links["docs"] == "http://testserver/api/docs/"
    assert links["health"] == "http://testserver/healthz"
    assert links["admin"] == "http://testserver/admin/"


@pytest.mark.urls("tests.core.urls_api_root")
def test_new_named_route_appears_automatically(api_client):
    endpoints = api_client.get("/api/v1/").json()["endpoints"]
    assert endpoints["engine-evaluate"] == "http://testserver/api/v1/engine/evaluate"
    assert endpoints["engine-waits"] == "http://testserver/api/v1/engine/waits"
    assert endpoints["ruleset-list"] == "http://testserver/api/v1/rulesets/"
    assert "ruleset-detail" not in endpoints  # needs an argument
    assert "auth-token" in endpoints


def test_hidden_names_are_not_listed(api_client, monkeypatch):
    monkeypatch.setattr(api, "API_ROOT_HIDDEN", {"api-root", "auth-me"})
    assert "auth-me" not in api_client.get("/api/v1/").json()["endpoints"]
