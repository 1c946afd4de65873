"""A database that fails (refuses, hangs, times out, drops the connection) answers 503
``database_unavailable`` in the JSON shape under /api/, from DRF views and plain Django views
alike, with DEBUG on or off; connecting and each statement are bounded on PostgreSQL."""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError, connection
from django.test import Client, RequestFactory

from core.http import handler500
from tests.helpers import run_python

pytestmark = pytest.mark.urls("tests.core.urls_for_tests")

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's own timeouts; run with DATABASE_URL"
)

UNAVAILABLE = [
    {
        "path": "",
        "code": "database_unavailable",
        "message": "The database is not answering; try again shortly.",
    }
]

# GET each path of the test URLconf in a fresh process (its settings from its environment),
# through the whole stack: middleware, DRF, the error handling. One JSON line per answer.
GET_IN_A_FRESH_PROCESS = """
import json, sys, time
import django
django.setup()
from django.test import Client, override_settings
with override_settings(ROOT_URLCONF="tests.core.urls_for_tests"):
    for path in sys.argv[1:]:
        start = time.monotonic()
        response = Client(raise_request_exception=False).get(path)
        print(json.dumps({
            "status": response.status_code, "seconds": time.monotonic() - start,
            "type": response["Content-Type"], "body": response.content.decode(),
            "retry_after": response.get("Retry-After"),
        }))
"""


def get_in_a_fresh_process(*paths: str, **env: str) -> list[dict]:
    result = run_python(["-c", GET_IN_A_FRESH_PROCESS, *paths], timeout=60, DJANGO_ENV="test",
                        **env)  # fmt: skip
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def assert_unavailable(answer: dict, within: float) -> None:
    assert answer["status"] == 503, answer
    assert answer["type"] == "application/json"
    assert json.loads(answer["body"]) == {"errors": UNAVAILABLE}
    assert answer["retry_after"] == "5"
    assert answer["seconds"] < within, answer


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("kind", ["db-down", "db-gone"])
@pytest.mark.parametrize("view", ["raise", "plain"])
def test_a_database_error_is_503(settings, json_errors, debug, kind, view):
    settings.DEBUG = debug
    response = Client().get(f"/api/test/{view}/{kind}/")
    assert response.status_code == 503
    assert json_errors(response) == UNAVAILABLE
    assert response["Retry-After"] == "5"


def test_a_database_error_outside_any_view_is_503(settings):
    """Raised in a middleware, say, it reaches ``handler500`` (DEBUG off)."""
    request = RequestFactory().get("/api/v1/clubs/")
    try:
        raise OperationalError("could not connect to server")
    except OperationalError:
        response = handler500(request)
    assert response.status_code == 503
    assert json.loads(response.content) == {"errors": UNAVAILABLE}


def test_a_database_that_never_answers_is_503_within_the_connect_timeout(silent_port):
    answers = get_in_a_fresh_process(
        "/api/v1/clubs/",  # a DRF view
        "/api/test/plain/query/",  # a plain Django view
        DATABASE_URL=f"postgres://postgres@127.0.0.1:{silent_port}/xuezhan",
        DB_CONNECT_TIMEOUT="2",
    )
    assert len(answers) == 2
    for answer in answers:
        assert_unavailable(answer, within=6)


@postgresql_only
@pytest.mark.django_db
def test_the_statement_timeout_reaches_the_server(settings):
    with connection.cursor() as cursor:
        cursor.execute("SELECT setting FROM pg_settings WHERE name = 'statement_timeout'")
        assert int(cursor.fetchone()[0]) == round(settings.DB_STATEMENT_TIMEOUT * 1000)


@postgresql_only
@pytest.mark.django_db
def test_a_statement_over_the_timeout_is_503():
    db = connection.settings_dict
    answers = get_in_a_fresh_process(
        "/api/test/raise/slow-query/",
        "/api/test/plain/slow-query/",
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        DB_STATEMENT_TIMEOUT="0.3",
    )
    assert len(answers) == 2
    for answer in answers:
        assert_unavailable(answer, within=1.5)  # pg_sleep(2) was cut off
