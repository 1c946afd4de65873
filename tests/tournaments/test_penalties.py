"""Penalties (罚分): a referee takes placement points off a player; the standings count them in a
column of their own, a revocation gives them back, and a recompute never loses one.

The cup: four players A, B, C, D at one table, placement points 4/2/1/0, two rounds.
- Round 1 (totals in seat order after seating, given here by name): A +30, B +10, C −10,
  D −30 → A 4, B 2, C 1, D 0.
- Round 2: B +20, A +5, D −5, C −20 → B 4, A 2, D 1, C 0.
- Totals: A 6 (table score +35), B 6 (+30), C 1 (−30), D 1 (−35). Without penalties A is
  first (tied on points with B, ahead on table score); C third, D fourth.
- A referee takes 3 points off A (诈胡 beyond the table's payment, round 2): A has 3 and is
  second behind B (6); C and D stay third and fourth (1 each).
- Revoked: A is first again.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.test import Client

from clubs.models import Membership, Role
from tests.helpers import client_for, member_login
from tournaments import selectors, services
from tournaments.models import Penalty

pytestmark = pytest.mark.django_db

R1 = {"A": 30, "B": 10, "C": -10, "D": -30}
R2 = {"B": 20, "A": 5, "D": -5, "C": -20}


@pytest.fixture
def cup(make_tournament, seat, enter):
    t = make_tournament(players=0, rounds=3, placement_points=[4, 2, 1, 0])
    for name in "ABCD":
        services.registration_create(tournament=t, name=name)
    for totals in (R1, R2):
        table = seat(t).tables.get()
        seats = table.session.seats.select_related("player").order_by("number")
        enter(table, [totals[s.player.name] for s in seats])
    return t


@pytest.fixture
def referee(host):
    return member_login(host, Role.REFEREE, "referee")


def ranks(t) -> list[tuple[str, int, Fraction, int]]:
    """(name, rank, placement points, penalty) of the latest snapshot, best first."""
    return [(r.name, r.rank, r.placement_points, r.penalty)
            for r in selectors.latest_standings(t).rows]  # fmt: skip


def player(t, name: str) -> int:
    return t.registrations.get(player__name=name).player_id


def test_a_penalty_moves_the_standings_and_its_revocation_moves_them_back(
    cup, referee, django_capture_on_commit_callbacks, in_process_tasks
):
    assert ranks(cup) == [("A", 1, 6, 0), ("B", 2, 6, 0), ("C", 3, 1, 0), ("D", 4, 1, 0)]
    api = client_for(referee)
    with django_capture_on_commit_callbacks(execute=True):
        given = api.post("/api/v1/tournaments/open/penalties/", {
            "player": player(cup, "A"), "points": 3, "reason": "false_win", "round": 2,
            "words": "诈胡: 七对 declared, one tile short",
        }, format="json")  # fmt: skip
    assert given.status_code == 201, given.json()
    assert given.json()["in_force"] is True and given.json()["given_by"] == "referee"
    assert ranks(cup) == [("B", 1, 6, 0), ("A", 2, 3, 3), ("C", 3, 1, 0), ("D", 4, 1, 0)]

    # the API's standings say the same, the penalty in its own field
    rows = api.get("/api/v1/tournaments/open/standings/").json()["standings"]
    assert [(r["name"], r["placement_points"], r["penalty"]) for r in rows][:2] == [
        ("B", "6", 0),
        ("A", "3", 3),
    ]

    # a recompute from scratch keeps it
    with django_capture_on_commit_callbacks(execute=True):
        services.standings_request(tournament_id=cup.pk, force=True)
    assert ranks(cup)[1] == ("A", 2, 3, 3)

    pk = given.json()["id"]
    refused = api.post(f"/api/v1/tournaments/open/penalties/{pk}/revoke/", {"reason": " "},
                       format="json")  # fmt: skip
    assert refused.status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        why = {"reason": "the hand was complete after all"}
        revoked = api.post(f"/api/v1/tournaments/open/penalties/{pk}/revoke/", why, format="json")
    assert revoked.status_code == 200 and revoked.json()["in_force"] is False
    assert ranks(cup)[0] == ("A", 1, 6, 0)
    again = api.post(f"/api/v1/tournaments/open/penalties/{pk}/revoke/", {"reason": "again"},
                     format="json")  # fmt: skip
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "penalty_revoked"
    # both stay in the record
    listed = api.get("/api/v1/tournaments/open/penalties/").json()
    assert [(p["points"], p["in_force"], p["revoke_reason"]) for p in listed] == [
        (3, False, "the hand was complete after all")
    ]


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"points": 0}, "points", "min_value"),
        ({"points": 1001}, "points", "max_value"),
        ({"reason": "rude"}, "reason", "invalid_choice"),
        ({"round": 3}, "round", "no_such_round"),
        ({"player": 0}, "player", "not_registered"),
        ({"words": "a\x00b"}, "words", "control_character"),
    ],
)
def test_a_penalty_that_makes_no_sense_is_refused_and_changes_nothing(
    cup, referee, body, path, code
):
    sent = {"player": player(cup, "A"), "points": 1, "reason": "late", **body}
    answer = client_for(referee).post("/api/v1/tournaments/open/penalties/", sent, format="json")
    assert answer.status_code == 400, answer.json()
    assert {(e["path"], e["code"]) for e in answer.json()["errors"]} == {(path, code)}
    assert not Penalty.objects.exists()


def test_only_a_referee_or_above_gives_a_penalty(cup, host):
    body = {"player": player(cup, "A"), "points": 1, "reason": "late"}
    for role, status in ((Role.SCORER, 403), (Role.REFEREE, 201), (Role.ORGANISER, 201)):
        api = client_for(member_login(host, role))
        assert api.post("/api/v1/tournaments/open/penalties/", body, format="json").status_code == (
            status
        )
    assert Penalty.objects.count() == 2


def test_the_referee_gives_and_revokes_on_the_page(
    cup, referee, django_capture_on_commit_callbacks, in_process_tasks
):
    page = Client(HTTP_ACCEPT_LANGUAGE="en")
    page.force_login(referee)
    form = page.get("/tournaments/open/penalties/")
    assert form.status_code == 200 and "Give a penalty" in form.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        given = page.post("/tournaments/open/penalties/", {
            "player": player(cup, "D"), "points": "2", "reason": "late", "round": "2",
            "words": "twenty minutes late",
        })  # fmt: skip
    assert given.status_code == 302
    # D: 1 − 2 = −1, last
    assert ranks(cup)[-1] == ("D", 4, -1, 2)
    standings = page.get("/tournaments/open/standings/").content.decode()
    assert "Penalty (罚分)" in standings and "−2" in standings

    penalty = Penalty.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        page.post(f"/tournaments/open/penalties/{penalty.pk}/revoke/", {"reason": "his bus"})
    penalty.refresh_from_db()
    assert not penalty.in_force and penalty.revoke_reason == "his bus"
    text = page.get("/tournaments/open/penalties/").content.decode()
    assert "twenty minutes late" in text and "his bus" in text
    assert ranks(cup)[-1] == ("D", 4, 1, 0)


def test_the_penalties_page_speaks_chinese(cup, referee):
    page = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    page.force_login(referee)
    text = page.get("/tournaments/open/penalties/").content.decode()
    assert "罚分记录" in text and "扣除的名次分" in text


def test_a_club_can_make_a_member_its_referee(host):
    member = Membership.objects.get(player__user=member_login(host, Role.MEMBER, "ref"))
    organiser = Client(HTTP_ACCEPT_LANGUAGE="en")
    organiser.force_login(member_login(host, Role.ORGANISER))
    answer = organiser.post(f"/clubs/host/members/{member.pk}/role/", {"role": "referee"})
    assert answer.status_code == 302
    member.refresh_from_db()
    assert member.role == Role.REFEREE
