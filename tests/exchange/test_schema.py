"""The export file's JSON Schema (``exchange/schema/club-export-v1.json``): a valid schema of
draft 2020-12, which every export meets, and which names where a file breaks it."""

from __future__ import annotations

import copy
import json

import pytest
from jsonschema import Draft202012Validator

from exchange.club_export import club_export
from exchange.schema import SCHEMA_PATH, schema, schema_problems

pytestmark = pytest.mark.django_db


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    assert schema()["properties"]["version"] == {"const": 1}


@pytest.mark.parametrize("public_only", [False, True])
def test_an_export_meets_the_schema(demo_club, public_only):
    data = json.loads(json.dumps(club_export(demo_club, public_only=public_only)))
    Draft202012Validator(schema()).validate(data)
    assert schema_problems(data) == []
    # the demo has everything the schema describes: bettors, results, revisions, a tournament
    sessions = data["sessions"]
    assert any(s["bettors"] for s in sessions) and any(s["results"] for s in sessions)
    assert any(r for s in sessions for h in s["hands"] for r in h["revisions"] if "record" in r)
    assert data["tournaments"][0]["rounds_played"][0]["tables"]


def test_a_broken_file_is_told_where(demo_club):
    data = json.loads(json.dumps(club_export(demo_club)))
    broken = copy.deepcopy(data)
    sessions = broken["sessions"]
    # the sessions are chosen by what they hold, never by where the day put them
    with_hands = next(i for i, s in enumerate(sessions) if s["hands"])
    seated = next(i for i, s in enumerate(sessions) if i != with_hands and len(s["seats"]) == 4)
    dated = next(i for i in range(len(sessions) - 1, -1, -1) if i not in (with_hands, seated))
    del sessions[with_hands]["hands"][0]["settlement"]
    sessions[seated]["seats"][1] = "s1"  # a session where a player belongs
    sessions[dated]["started_at"] = "yesterday"
    broken["players"][0]["colour"] = "red"
    problems = {(p["path"], p["code"]) for p in schema_problems(broken)}
    assert problems == {
        (f"sessions[{with_hands}].hands[0]", "schema_required"),
        (f"sessions[{seated}].seats[1]", "schema_pattern"),
        (f"sessions[{dated}].started_at", "schema_pattern"),
        ("players[0]", "schema_additionalProperties"),
    }
