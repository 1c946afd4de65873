"""A file is refused whole, with every problem listed with its path, and nothing is written:
a club (or tournament, or login) this server already has, a settlement the engine does not
reach again under the session's pinned rules, a record the engine refuses, a ruleset that is
not what its fingerprint says, references to nothing, results that do not add up."""

from __future__ import annotations

import copy
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Club
from core.errors import Invalid
from exchange.club_export import club_export
from exchange.club_import import club_import
from tests.helpers import db_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def exported(demo_club) -> dict:
    return json.loads(json.dumps(club_export(demo_club)))


def elsewhere(data: dict) -> dict:
    """The file as if from another server: its club, tournament and login are new here."""
    data = copy.deepcopy(data)
    data["club"]["slug"] = "moved-club"
    for t in data["tournaments"]:
        t["slug"] = f"moved-{t['slug']}"
    for login in data["logins"]:
        login["username"] = f"moved-{login['username']}"
    return data


def refused(data) -> list[tuple[str, str]]:
    before = db_state()
    with pytest.raises(Invalid) as e:
        club_import(data)
    assert db_state() == before, "a refused file wrote something"
    return [(p["path"], p["code"]) for p in e.value.problems]


def hand_paths(data: dict, kept=lambda h: True) -> list[tuple[int, int]]:
    return [
        (i, j)
        for i, s in enumerate(data["sessions"])
        for j, h in enumerate(s["hands"])
        if not h["is_deleted"] and kept(h)
    ]


def test_a_club_this_server_has_is_refused_with_its_tournament_and_login(exported):
    problems = refused(exported)
    assert ("club.slug", "slug_taken") in problems
    assert ("tournaments[0].slug", "slug_taken") in problems
    assert ("logins[0].username", "login_taken") in problems


def test_the_same_file_from_elsewhere_is_taken(exported):
    report = club_import(elsewhere(exported))
    assert report.club.slug == "moved-club"
    assert Club.objects.filter(slug__in=["chengdu-teahouse", "moved-club"]).count() == 2


def test_a_settlement_that_differs_is_refused_at_its_path(exported):
    data = elsewhere(exported)
    (i, j), (k, m) = hand_paths(data)[5], hand_paths(data)[40]
    data["sessions"][i]["hands"][j]["settlement"]["payments"][0]["amount"] += 1
    data["sessions"][k]["hands"][m]["settlement"]["next_dealer"] = 7
    problems = refused(data)
    assert problems == [
        (f"sessions[{i}].hands[{j}].settlement.payments[0].amount", "settlement_differs"),
        (f"sessions[{k}].hands[{m}].settlement.next_dealer", "settlement_differs"),
    ]


def test_a_stored_settlement_is_compared_as_json_true_is_not_1(exported):
    data = elsewhere(exported)
    i, j = hand_paths(data)[2]
    data["sessions"][i]["hands"][j]["settlement"]["finished"] = 1
    assert refused(data) == [
        (f"sessions[{i}].hands[{j}].settlement.finished", "settlement_differs")
    ]


def test_a_record_the_engine_refuses_is_refused_with_the_engines_path(exported):
    data = elsewhere(exported)
    shown = hand_paths(data, lambda h: "concealed" in json.dumps(h["record"]))
    i, j = shown[0]
    record = data["sessions"][i]["hands"][j]["record"]
    event = next(n for n, e in enumerate(record["events"]) if e["type"] == "win")
    record["events"][event]["winners"][0]["concealed"] = "123x"
    problems = refused(data)
    assert problems[0][0].startswith(
        f"sessions[{i}].hands[{j}].record.events[{event}].winners[0].concealed"
    )


def test_a_ruleset_unlike_its_fingerprint_is_refused(exported):
    data = elsewhere(exported)
    data["rulesets"][0]["fingerprint"] = "0" * 64
    problems = refused(data)
    assert ("rulesets[0].fingerprint", "fingerprint_differs") in problems


def test_a_username_no_login_could_have_and_a_ruleset_twice_are_refused(exported):
    data = elsewhere(exported)
    data["logins"][0]["username"] = "two words"
    data["rulesets"].append({**data["rulesets"][0], "id": "r9"})
    problems = refused(data)
    assert ("logins[0].username", "invalid_username") in problems
    assert (f"rulesets[{len(data['rulesets']) - 1}].fingerprint", "duplicate") in problems


def test_every_problem_is_listed_at_once(exported):
    data = elsewhere(exported)
    data["sessions"][0]["seats"][2] = "p999"
    data["sessions"][1]["seats"][3] = data["sessions"][1]["seats"][0]
    results = next(i for i, s in enumerate(data["sessions"]) if s["results"])
    data["sessions"][results]["results"][0]["total"] += 5
    data["memberships"].append(dict(data["memberships"][0]))
    data["players"][1]["login"] = "u7"
    data["tournaments"][0]["rounds_played"][0]["tables"][0]["session"] = data["sessions"][0]["id"]
    problems = refused(data)
    expected = {
        ("players[1].login", "unknown_reference"),
        (f"memberships[{len(data['memberships']) - 1}].player", "already_member"),
        ("sessions[0].seats[2]", "unknown_reference"),
        ("sessions[1].seats", "four_players"),
        (f"sessions[{results}].results", "not_zero_sum"),
        ("tournaments[0].rounds_played[0].tables[0].session", "not_a_tournament_table"),
    }
    assert expected <= set(problems)


def test_another_format_or_version_is_refused(exported):
    assert refused({**exported, "version": 2}) == [("version", "unsupported_version")]
    assert refused({"format": "csv"}) == [("format", "not_a_club_export")]
    assert refused([1, 2]) == [("", "schema_type")]


def test_the_command_lists_every_problem_and_imports_nothing(exported, tmp_path):
    path = tmp_path / "club.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    err = StringIO()
    with pytest.raises(CommandError, match="refused: 3 problem"):
        call_command("import_club", str(path), stderr=err)
    assert "club.slug: slug_taken:" in err.getvalue()
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("import_club", str(path))


def test_the_commands_export_and_import(demo_club, tmp_path):
    path = tmp_path / "club.json"
    err = StringIO()
    call_command("export_club", demo_club.slug, "--output", str(path), stderr=err)
    assert "sessions" in err.getvalue()
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(elsewhere(data)), encoding="utf-8")
    out = StringIO()
    call_command("import_club", str(path), stdout=out)
    assert out.getvalue().startswith("imported moved-club:")
    with pytest.raises(CommandError, match="no club"):
        call_command("export_club", "no-such-club")
