"""The ranking's columns are declared once (``ratings.ranking.RANKING``): a column declared
here, in the test's own module, is on the page (heading and cells), in the API's rows, in the
CSV, in the schema and among the sort keys, with nothing else written for it."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from core.columns import Column
from core.names import Name
from ratings.ranking import RANKING, RankingRow
from tests.pages.html_read import table_text
from tests.ratings.ranking_club import ranking_club

pytestmark = pytest.mark.django_db

MARCH_QUERY = "from=2024-03-01&to=2024-03-31&sort=total"


def hands_per_session(r: RankingRow) -> float | None:
    return r.hands / r.sessions if r.sessions else None


#: the one declaration
PACE = Column(
    "hands_per_session", Name("每场手数", "Hands a session"), value=hands_per_session,
    kind="float", places=2, null=True, format="one_place", sort=True,
    about="Hands played per session",
    help="hands per session, 2 places",
)  # fmt: skip
#: by hand from ranking_club's March (sessions, hands): Annie 2, 4; Dan 2, 6; Bob 3, 6;
#: Eve 2, 2; Cai 3, 6 — in the order of the total
BY_TOTAL = [("Annie", 2.0), ("Dan", 3.0), ("Bob", 2.0), ("Eve", 1.0), ("Cai", 2.0)]


@pytest.fixture
def rc(django_capture_on_commit_callbacks, in_process_tasks, monkeypatch):
    monkeypatch.setattr(RANKING, "columns", (*RANKING.columns, PACE))
    return ranking_club(django_capture_on_commit_callbacks)


def test_a_column_declared_once_is_on_the_page(rc):
    response = Client(HTTP_ACCEPT_LANGUAGE="en").get(
        f"/clubs/{rc.club.slug}/ranking/?{MARCH_QUERY}"
    )
    assert response.status_code == 200
    body = response.content.decode()
    table = table_text(body, "ranking-table")
    assert [(row[1], row[-1]) for row in table] == [(n, f"{v:.1f}") for n, v in BY_TOTAL]
    assert 'title="Hands played per session"' in body
    assert "每场手数 (Hands a session)" in body  # its Name, in the page's language
    assert "sort=hands_per_session" in body  # its heading sorts the ranking


def test_a_column_declared_once_is_in_the_api_csv_and_schema(rc):
    client = Client()
    api = f"/api/v1/clubs/{rc.club.slug}/ranking/?{MARCH_QUERY}"
    rows = client.get(api).json()["rows"]
    assert [(r["name"], r["hands_per_session"]) for r in rows] == BY_TOTAL
    assert list(rows[0])[-1] == "hands_per_session"

    text = client.get(api + "&format=csv").content.decode("utf-8-sig")
    lines = list(csv.DictReader(io.StringIO(text)))
    assert [(r["name"], float(r["hands_per_session"])) for r in lines] == BY_TOTAL

    by_pace = client.get(api.replace("sort=total", "sort=hands_per_session")).json()["rows"]
    assert [r["name"] for r in by_pace][0] == "Dan"

    schema = client.get("/api/schema/?format=json").json()
    row = schema["components"]["schemas"]["RankingRow"]["properties"]["hands_per_session"]
    assert row["type"] == "number" and row["description"] == "hands per session, 2 places"
    assert row.get("nullable") is True


def test_the_rows_fields_are_the_columns():
    """The schema's row is the API's columns, in order (places as a list, not place_1 …)."""
    fields = list(RANKING.serializer().fields)
    assert fields == [c.key for c in RANKING.columns if c.api]
    assert "places" in fields and "place_1" not in fields
    assert [c.key for c in RANKING.columns if c.csv][11:15] == [f"place_{k}" for k in range(1, 5)]
