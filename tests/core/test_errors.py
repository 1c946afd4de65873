"""One JSON error shape everywhere: {"errors": [{"path", "code", "message"}]}."""

import copy
import pickle

import pytest
from django.test import Client
from rest_framework.exceptions import ErrorDetail

from core.errors import Conflict, Invalid, NotFound, ServiceError
from core.http import flatten_detail, path_from_parts

pytestmark = [pytest.mark.urls("tests.core.urls_for_tests"), pytest.mark.django_db]


def by_path(errors):
    return {e["path"]: e for e in errors}


def test_flatten_nested_detail_tree():
    detail = {
        "name": [ErrorDetail("This field is required.", code="required")],
        "events": [
            {},
            {},
            {"winners": [{}, {"concealed": {0: [ErrorDetail("Too long.", code="max_length")]}}]},
        ],
        "non_field_errors": [ErrorDetail("Bad game.", code="invalid")],
    }
    errors = flatten_detail(detail)
    assert errors == [
        {"path": "name", "code": "required", "message": "This field is required."},
        {"path": "events[2].winners[1].concealed[0]", "code": "max_length", "message": "Too long."},
        {"path": "", "code": "invalid", "message": "Bad game."},
    ]


def test_path_from_parts():
    assert path_from_parts(["events", 2, "winners", 1, "concealed"]) == (
        "events[2].winners[1].concealed"
    )
    assert path_from_parts([]) == ""
    assert path_from_parts([0, "x"]) == "[0].x"


def test_validation_error_paths(api_client, json_errors):
    payload = {
        "name": "game",
        "events": [
            {"kind": "hu", "winners": [{"seat": 0, "concealed": ["1m"]}]},
            {"kind": "nope", "winners": [{"seat": 1, "concealed": ["1m"]}]},
            {
                "kind": "hu",
                "winners": [
                    {"seat": 0, "concealed": ["1m"]},
                    {"seat": 9, "concealed": ["toolong"]},
                ],
            },
        ],
        "options": {"fan_cap": "x"},
    }
    response = api_client.post("/api/test/validate/", payload, format="json")
    assert response.status_code == 400
    errors = by_path(json_errors(response))
    assert errors["events[1].kind"]["code"] == "invalid_choice"
    assert errors["events[2].winners[1].seat"]["code"] == "max_value"
    assert errors["events[2].winners[1].concealed[0]"]["code"] == "max_length"
    assert errors["options.fan_cap"]["code"] == "invalid"


def test_missing_fields_and_top_level_error(api_client, json_errors):
    response = api_client.post("/api/test/validate/", {}, format="json")
    assert response.status_code == 400
    assert {(e["path"], e["code"]) for e in json_errors(response)} == {
        ("name", "required"),
        ("events", "required"),
    }
    response = api_client.post("/api/test/validate/", {"name": "clash", "events": []})
    assert response.status_code == 400
    assert json_errors(response) == [
        {"path": "", "code": "invalid", "message": "top-level problem"}
    ]


def test_malformed_json_is_400(api_client, json_errors):
    response = api_client.post(
        "/api/test/validate/", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert json_errors(response)[0]["code"] == "parse_error"


def test_unauthenticated_is_401(api_client, json_errors):
    response = api_client.get("/api/v1/auth/me/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert json_errors(response)[0]["code"] == "not_authenticated"


def test_bad_token_is_401(api_client, json_errors):
    api_client.credentials(HTTP_AUTHORIZATION="Token nope")
    response = api_client.get("/api/v1/auth/me/")
    assert response.status_code == 401
    assert json_errors(response)[0]["code"] == "authentication_failed"


def test_forbidden_is_403(auth_client, json_errors):
    response = auth_client.get("/api/test/admin-only/")
    assert response.status_code == 403
    assert json_errors(response)[0]["code"] == "permission_denied"


def test_django_permission_denied_in_view_is_403(api_client, json_errors):
    response = api_client.get("/api/test/raise/django-denied/")
    assert response.status_code == 403
    assert json_errors(response)[0]["code"] == "permission_denied"


def test_http404_in_view(api_client, json_errors):
    response = api_client.get("/api/test/raise/http404/")
    assert response.status_code == 404
    assert json_errors(response) == [{"path": "", "code": "not_found", "message": "Not found."}]


def test_unknown_api_url_is_json_404(api_client, json_errors):
    response = api_client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert json_errors(response)[0]["code"] == "not_found"


def test_non_api_404_stays_html(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


def test_method_not_allowed_is_405(api_client, json_errors):
    response = api_client.delete("/api/v1/")
    assert response.status_code == 405
    assert json_errors(response)[0]["code"] == "method_not_allowed"


def test_conflict_is_409(api_client, json_errors):
    response = api_client.get("/api/test/raise/conflict/")
    assert response.status_code == 409
    assert json_errors(response) == [
        {"path": "", "code": "conflict", "message": "Game already finished."}
    ]


def test_invalid_lists_every_problem_with_its_path(api_client, json_errors):
    response = api_client.get("/api/test/raise/invalid/")
    assert response.status_code == 400
    assert json_errors(response) == [
        {"path": "hand.tiles[3]", "code": "bad_tile", "message": "Unknown tile 0z."},
        {"path": "hand", "code": "too_many", "message": "15 tiles."},
    ]
    response = api_client.get("/api/test/raise/not-found/")
    assert response.status_code == 404
    assert json_errors(response) == [
        {"path": "ruleset", "code": "unknown_ruleset", "message": "No such ruleset."}
    ]


def test_a_missing_login_raised_by_a_service_asks_for_the_token(api_client, json_errors):
    response = api_client.get("/api/test/needs-login/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert json_errors(response)[0]["code"] == "not_authenticated"


def test_service_error_defaults():
    exc = Invalid([])
    assert exc.status == 400
    assert exc.problems == [{"path": "", "code": "invalid", "message": "invalid request"}]
    assert (Conflict.status, NotFound.status) == (409, 404)


@pytest.mark.parametrize(
    "error",
    [
        Invalid([{"path": "a[0]", "code": "x", "message": "m"}, {"path": "b", "code": "y"}]),
        Conflict("hand_exists", "hand 3 is already recorded"),
        NotFound("no such club"),
        Invalid.single("number", "invalid_number", "a hand number is ≥ 1"),
    ],
)
def test_service_errors_survive_pickle_and_copy(error):
    """Celery carries errors between processes: class, problems and message all survive."""
    for again in (pickle.loads(pickle.dumps(error)), copy.deepcopy(error)):
        assert type(again) is type(error) and isinstance(again, ServiceError)
        assert again.problems == error.problems
        assert str(again) == str(error) and again.status == error.status


def test_throttled_is_429(api_client, json_errors):
    assert api_client.get("/api/test/throttled/").status_code == 200
    assert api_client.get("/api/test/throttled/").status_code == 200
    response = api_client.get("/api/test/throttled/")
    assert response.status_code == 429
    assert "Retry-After" in response
    assert json_errors(response)[0]["code"] == "throttled"


def test_unhandled_exception_is_json_500(json_errors):
    from rest_framework.test import APIClient

    client = APIClient(raise_request_exception=False)
    response = client.get("/api/test/raise/crash/")
    assert response.status_code == 500
    assert json_errors(response) == [
        {"path": "", "code": "server_error", "message": "A server error occurred."}
    ]


# --- DEBUG on: Django's debug pages never answer under /api/ ------------------------------------


@pytest.fixture
def debug(settings):
    settings.DEBUG = True


@pytest.mark.parametrize(
    "path", ["/api/v1/no-such-thing/", "/api/nothing", "/api/test/plain/http404/"]
)
def test_unknown_api_url_is_json_404_with_debug_on(debug, client, json_errors, path):
    response = client.get(path)
    assert response.status_code == 404
    assert json_errors(response) == [{"path": "", "code": "not_found", "message": "Not found."}]


def test_non_api_404_is_the_debug_page_with_debug_on(debug, client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("path", ["/api/test/raise/crash/", "/api/test/plain/crash/"])
def test_a_crash_under_api_is_json_500(settings, json_errors, debug, path):
    settings.DEBUG = debug
    response = Client(raise_request_exception=False).get(path)
    assert response.status_code == 500
    assert json_errors(response) == [
        {"path": "", "code": "server_error", "message": "A server error occurred."}
    ]


def test_a_crash_is_still_reported(debug, client):
    """The JSON answer does not swallow the exception: it is logged, and signalled (the test
    client re-raises it)."""
    with pytest.raises(RuntimeError, match="boom"):
        client.get("/api/test/plain/crash/")


def test_method_not_allowed_outside_drf_is_json(client, json_errors):
    response = client.post("/healthz")
    assert response.status_code == 405
    assert response["Allow"] == "GET"
    assert json_errors(response)[0]["code"] == "method_not_allowed"


def test_the_browsable_api_keeps_its_html_errors(debug, admin_client):
    response = admin_client.get("/api/v1/clubs/no-such-club/", HTTP_ACCEPT="text/html")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
