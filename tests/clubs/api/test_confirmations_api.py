"""Confirmations through the API (issue 24 §2): ``…/hands/{n}/confirmations/`` (GET where the
hand stands, POST a seated player's word) and ``…/hands/{n}/resolution/`` (the organiser's or
referee's ruling); the rule in the club's and the tournament's answers. Errors in the one
shape; a refused write changes nothing.

PINGHU (``tests/clubs/records.py``): S2 pays S1 1.
"""

from __future__ import annotations

import pytest

from clubs.models import Club, ConfirmationRule, Hand, HandConfirmation, Role
from clubs.services.hands import hand_record
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, TableSessionFactory
from tests.clubs.records import PINGHU
from tests.helpers import assert_error_shape, client_for, db_state, login, member_login

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    club = ClubFactory(visibility=Club.Visibility.MEMBERS, confirmation_rule=ConfirmationRule.TWO)
    users = [login(f"api{n}") for n in range(4)]
    players = [PlayerFactory(user=u, name=u.username) for u in users]
    for p in players:
        MembershipFactory(club=club, player=p)
    session = TableSessionFactory(club=club, seated=players)
    hand_record(session=session, data=PINGHU, user=users[0])
    url = f"/api/v1/sessions/{session.pk}/hands/1/"
    return club, session, users, url


def test_confirm_and_read(table):
    club, session, users, url = table
    got = client_for(users[1]).get(f"{url}confirmations/")
    assert got.status_code == 200
    assert got.json() | {"words": []} == {
        "number": 1, "revision": 1, "rule": "two", "counts": False, "entry_seat": 0,
        "needed": 2, "confirmed": [], "disputed": [], "waiting": 2, "ruling": None, "words": [],
    }  # fmt: skip
    answer = client_for(users[1]).post(f"{url}confirmations/", {"verdict": "confirm"})
    assert answer.status_code == 201, answer.json()
    answer = client_for(users[3]).post(
        f"{url}confirmations/", {"verdict": "dispute", "words": "我没有点炮"}, format="json"
    )
    data = answer.json()
    assert data["confirmed"] == [1] and data["disputed"] == [{"seat": 3, "words": "我没有点炮"}]
    assert data["counts"] is False and [w["verdict"] for w in data["words"]] == [
        "confirm",
        "dispute",
    ]
    answer = client_for(users[2]).post(f"{url}confirmations/", {"verdict": "confirm"})
    assert answer.json()["counts"] is False  # S3's dispute still holds it
    answer = client_for(users[3]).post(f"{url}confirmations/", {"verdict": "confirm"})
    assert answer.json()["counts"] is True and answer.json()["waiting"] == 0
    totals = client_for(users[1]).get(f"/api/v1/sessions/{session.pk}/").json()["totals"]
    assert totals  # the session answers its totals with the hand now in them
    assert Hand.objects.get().counts


@pytest.mark.parametrize(
    ("who", "body", "status", "code"),
    [
        ("outsider", {"verdict": "confirm"}, 404, "not_found"),
        ("member", {"verdict": "confirm"}, 403, "permission_denied"),
        ("seat0", {"verdict": "confirm"}, 409, "entered_it"),
        ("seat1", {"verdict": "confirm", "seat": 2}, 403, "permission_denied"),
        ("seat1", {"verdict": "maybe"}, 400, "invalid_choice"),
        ("seat1", {"verdict": "dispute"}, 400, "words_required"),
        ("seat1", {"verdict": "confirm", "sear": 1}, 400, "unknown_field"),
        ("seat1", {"verdict": "dispute", "words": "a\x00b"}, 400, "control_character"),
        ("seat1", {"verdict": "confirm", "seat": 9}, 400, "max_value"),
        ("anonymous", {"verdict": "confirm"}, 401, "not_authenticated"),
    ],
)
def test_refused_words_change_nothing(table, who, body, status, code):
    club, session, users, url = table
    user = {
        "outsider": login("outsider"),
        "member": member_login(club, Role.ORGANISER),
        "seat0": users[0],
        "seat1": users[1],
        "anonymous": None,
    }[who]
    before = db_state()
    answer = client_for(user).post(f"{url}confirmations/", body, format="json")
    assert answer.status_code == status
    assert code in [e["code"] for e in assert_error_shape(answer.json())]
    assert db_state() == before and not HandConfirmation.objects.exists()


def test_the_referee_rules(table):
    club, session, users, url = table
    client_for(users[2]).post(f"{url}confirmations/", {"verdict": "dispute", "words": "no"})
    member = client_for(users[1]).post(f"{url}resolution/", {"reason": "x"})
    assert member.status_code == 403 and assert_error_shape(member.json())
    referee = client_for(member_login(club, Role.REFEREE))
    assert referee.post(f"{url}resolution/", {}).status_code == 400
    answer = referee.post(f"{url}resolution/", {"reason": "the tiles were seen"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["counts"] is True and answer.json()["ruling"] == "the tiles were seen"
    again = referee.post(f"{url}resolution/", {"reason": "again"})
    assert again.status_code == 409
    assert assert_error_shape(again.json())[0]["code"] == "nothing_to_resolve"


def test_the_rule_in_the_club_and_tournament_answers(table):
    club, session, users, url = table
    owner = client_for(member_login(club, Role.OWNER))
    answer = owner.patch(f"/api/v1/clubs/{club.slug}/", {"confirmation_rule": "shown"})
    assert answer.status_code == 200 and answer.json()["confirmation_rule"] == "shown"
    assert Hand.objects.get().counts  # the open table follows
    bad = owner.patch(f"/api/v1/clubs/{club.slug}/", {"confirmation_rule": "four"})
    assert bad.status_code == 400 and assert_error_shape(bad.json())
    made = owner.post(
        "/api/v1/tournaments/",
        {"name": "Cup", "slug": "cup", "club": club.slug, "rounds": 2,
         "confirmation_rule": "three"},
        format="json",
    )  # fmt: skip
    assert made.status_code == 201, made.json()
    assert made.json()["confirmation_rule"] == "three"
    changed = owner.patch("/api/v1/tournaments/cup/", {"confirmation_rule": ""}, format="json")
    assert changed.status_code == 200 and changed.json()["confirmation_rule"] == ""


def test_the_schema_names_them():
    schema = client_for(None).get("/api/schema/?format=json").json()
    paths = schema["paths"]
    confirm = paths["/api/v1/sessions/{id}/hands/{number}/confirmations/"]
    assert {"get", "post"} <= set(confirm)
    assert "409" in confirm["post"]["responses"] or "400" in confirm["post"]["responses"]
    assert "/api/v1/sessions/{id}/hands/{number}/resolution/" in paths
    club = schema["components"]["schemas"]["ClubOut"]["properties"]
    assert "confirmation_rule" in club
