"""换座: a table's seats put right after hands were recorded, in one step, with a reason.

The table: A, B, C, D at seats 0–3 (东南西北). One hand: PINGHU, S1 wins on S2's discard, so
seat 2 pays seat 1 (the amount x is the engine's; it does not change). As entered, B (seat 1)
won x from C (seat 2). But C sat at seat 1 and B at seat 2: swapping seats 1 and 2 leaves the
hand with its seats, and now C has won x from B. Moving everyone on one wind instead (seat n
takes the player of seat n − 1: D, A, B, C) gives seat 1's win to A and seat 2's payment to B.
"""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Role, SeatRepair
from clubs.selectors import session_totals
from clubs.services.hands import hand_record
from clubs.services.sessions import seats_repair
from core.errors import Conflict, Invalid
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, TableSessionFactory
from tests.helpers import client_for, member_login
from tests.scoring.engine.records import PINGHU

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    club = ClubFactory(slug="repair-club")
    players = [MembershipFactory(club=club, player=PlayerFactory(name=n)).player for n in "ABCD"]
    session = TableSessionFactory(club=club, seated=players, mode="single")
    organiser = member_login(club, Role.ORGANISER, "organiser")
    hand_record(session=session, data=PINGHU, user=organiser)
    return session, {p.name: p.pk for p in players}, organiser


def by_name(session, ids) -> dict[str, int]:
    totals = session_totals(session_id=session.pk).players
    return {name: totals.get(pk, 0) for name, pk in ids.items()}


def seated(session) -> list[str]:
    return [s.player.name for s in session.seats.order_by("number")]


def test_swapping_two_seats_gives_the_hand_to_whoever_sat_there(table):
    session, ids, organiser = table
    before = by_name(session, ids)
    x = before["B"]
    assert x > 0 and before == {"A": 0, "B": x, "C": -x, "D": 0}
    repair = seats_repair(session=session, order=[0, 2, 1, 3], reason="B and C sat the other way",
                          user=organiser)  # fmt: skip
    assert seated(session) == ["A", "C", "B", "D"]
    assert by_name(session, ids) == {"A": 0, "B": -x, "C": x, "D": 0}
    # the hand itself is as it was recorded: seat 2 pays seat 1
    assert session.hands.get().record["events"][0]["from"] == PINGHU["events"][0]["from"] == 2
    assert (repair.before, repair.after) == (
        [ids["A"], ids["B"], ids["C"], ids["D"]],
        [ids["A"], ids["C"], ids["B"], ids["D"]],
    )


def test_moving_everyone_on_one_wind(table):
    session, ids, organiser = table
    x = by_name(session, ids)["B"]
    seats_repair(session=session, order=[3, 0, 1, 2], reason="winds read from the wrong seat",
                 user=organiser)  # fmt: skip
    assert seated(session) == ["D", "A", "B", "C"]
    assert by_name(session, ids) == {"A": x, "B": -x, "C": 0, "D": 0}


@pytest.mark.parametrize(
    ("order", "reason", "code"),
    [([0, 1, 2, 3], "x", "invalid_order"), ([0, 0, 1, 2], "x", "invalid_order"),
     ([1, 0, 2, 3], " ", "reason_required")],
)  # fmt: skip
def test_a_repair_that_changes_nothing_or_says_no_why_is_refused(table, order, reason, code):
    session, ids, organiser = table
    with pytest.raises(Invalid) as refused:
        seats_repair(session=session, order=order, reason=reason, user=organiser)
    assert refused.value.code == code
    assert seated(session) == ["A", "B", "C", "D"] and not SeatRepair.objects.exists()


def test_a_locked_table_is_not_repaired(table):
    session, _ids, organiser = table
    session.lock_code, session.lock_message = "round_locked", "round 2 is seated"
    session.save()
    with pytest.raises(Conflict):
        seats_repair(session=session, order=[1, 0, 2, 3], reason="x", user=organiser)
    assert seated(session) == ["A", "B", "C", "D"]


def test_the_api_and_the_page_repair_for_an_organiser_only(table):
    session, ids, organiser = table
    scorer = client_for(member_login(session.club, Role.SCORER))
    url = f"/api/v1/sessions/{session.pk}/seats/repair/"
    body = {"order": [0, 2, 1, 3], "reason": "B and C sat the other way"}
    assert scorer.post(url, body, format="json").status_code == 403
    answer = client_for(organiser).post(url, body, format="json")
    assert answer.status_code == 201 and answer.json()["repaired_by"] == "organiser"
    assert seated(session) == ["A", "C", "B", "D"]

    page = Client(HTTP_ACCEPT_LANGUAGE="en")
    page.force_login(organiser)
    form = page.get(f"/sessions/{session.pk}/seats/").content.decode()
    assert "Swap" in form and "B and C sat the other way" in form  # the repair made, listed
    back = page.post(f"/sessions/{session.pk}/seats/", {"how": "swap-12", "reason": "undo"})
    assert back.status_code == 302
    assert seated(session) == ["A", "B", "C", "D"]
    assert SeatRepair.objects.count() == 2
