"""The quick start's SQLite database serves a club evening: scorers posting at once wait for each
other (``IMMEDIATE`` transactions, a busy timeout) instead of failing; a write that still finds
the database locked answers 503 ``database_busy`` in the JSON shape, never a 500."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.helpers import run_python, show_settings

# In a fresh process on a file database (the suite's own SQLite database lives in memory, one
# connection): migrate, open one table per scorer, then the scorers post their hands at once,
# each from a thread of its own through the whole stack. One JSON list of the answers.
SCORERS_AT_ONCE = """
import json, sys, threading
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from clubs.models import Role
from tests.clubs.factories import TableSessionFactory
from tests.clubs.records import PINGHU
from tests.helpers import client_for, member_login

scorers, hands = int(sys.argv[1]), int(sys.argv[2])
sessions = [TableSessionFactory() for _ in range(scorers)]
clients = [client_for(member_login(s.club, Role.SCORER)) for s in sessions]
start = threading.Barrier(scorers)
answers = []

def score(client, session):
    client.raise_request_exception = False
    start.wait()
    for _ in range(hands):
        r = client.post(f"/api/v1/sessions/{session.pk}/hands/", PINGHU, format="json")
        answers.append([r.status_code, r["Content-Type"], r.content.decode()[:300]])

threads = [threading.Thread(target=score, args=pair) for pair in zip(clients, sessions)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps(answers))
"""


def test_scorers_posting_at_once_on_sqlite_are_all_stored(tmp_path):
    scorers, hands = 4, 10
    result = run_python(
        ["-c", SCORERS_AT_ONCE, str(scorers), str(hands)],
        DJANGO_ENV="test",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        CELERY_BROKER_URL="",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    answers = json.loads(result.stdout)
    assert len(answers) == scorers * hands
    refused = [a for a in answers if a[0] != 201]
    assert refused == []


# A hand sent twice with its Idempotency-Key on SQLite (the portable statements, the answer
# stored with the ORM): the statuses, whether the second was replayed, the answers equal, how
# many hands and answers were stored.
RETRIED_WITH_A_KEY = """
import json
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from clubs.models import Hand, Role
from core.models import IdempotentRequest
from tests.clubs.factories import TableSessionFactory
from tests.clubs.records import PINGHU
from tests.helpers import client_for, member_login

session = TableSessionFactory()
client = client_for(member_login(session.club, Role.SCORER))
url = f"/api/v1/sessions/{session.pk}/hands/"
first, again = (client.post(url, PINGHU, format="json", HTTP_IDEMPOTENCY_KEY="k") for _ in "12")
print(json.dumps([first.status_code, again.status_code, again.get("Idempotent-Replayed"),
                  first.json() == again.json() == IdempotentRequest.objects.get().response,
                  Hand.objects.count(), IdempotentRequest.objects.count()]))
"""


def test_a_hand_retried_with_its_key_on_sqlite_is_stored_once(tmp_path):
    result = run_python(
        ["-c", RETRIED_WITH_A_KEY],
        DJANGO_ENV="test",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        CELERY_BROKER_URL="",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout.splitlines()[-1]) == [201, 201, "true", True, 1, 1]


def test_sqlite_waits_for_the_lock_and_postgresql_is_untouched():
    options = "DATABASES['default']['OPTIONS']"
    sqlite = show_settings(options, DATABASE_URL="sqlite:////tmp/xuezhan.sqlite3")
    assert sqlite.returncode == 0, sqlite.stderr
    assert sqlite.stdout.strip() == repr({"transaction_mode": "IMMEDIATE", "timeout": 10})
    shorter = show_settings(options, DATABASE_URL="sqlite:////tmp/x.sqlite3", DB_BUSY_TIMEOUT="2")
    assert shorter.stdout.strip() == repr({"transaction_mode": "IMMEDIATE", "timeout": 2})
    postgresql = show_settings(options, DATABASE_URL="postgres://u@db.example:5432/x")
    assert "transaction_mode" not in postgresql.stdout


@pytest.mark.django_db
@pytest.mark.urls("tests.core.urls_for_tests")
@pytest.mark.parametrize("view", ["raise", "plain"])
def test_a_locked_database_is_503_database_busy(json_errors, view):
    response = Client().get(f"/api/test/{view}/db-locked/")
    assert response.status_code == 503
    assert response["Retry-After"] == "1"
    assert [e["code"] for e in json_errors(response)] == ["database_busy"]
