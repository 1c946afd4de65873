"""The approve gate: a done table counts in the standings only once the scorekeeper approved it
as it is; a change after the approval needs approving again.

Four players at one table, placement points 4/2/1/0. Round 1 totals +30, +10, −10, −30 in seat
order: before the approval no table counts (every player 0 points, round 2 cannot be seated);
approved, the seats have 4, 2, 1, 0. The totals corrected to −30, −10, +10, +30: the approval
was of the old ones, so the table stops counting (0 each) until approved again (0, 1, 2, 4).
"""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Role
from core.errors import Conflict
from tests.helpers import client_for, member_login
from tournaments import selectors, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(make_tournament):
    return make_tournament(players=4, rounds=2, placement_points=[4, 2, 1, 0], approve_gate=True)


def points_by_seat(t, table) -> list:
    standings = {r.player: r.placement_points for r in selectors.latest_standings(t).rows}
    return [standings[s.player_id] for s in table.session.seats.order_by("number")]


def test_a_table_counts_once_approved_and_again_after_a_change(
    cup, seat, enter, director, django_capture_on_commit_callbacks
):
    table = seat(cup).tables.get()
    enter(table, [30, 10, -10, -30])
    assert points_by_seat(cup, table) == [0, 0, 0, 0]
    assert selectors.latest_standings(cup).tables_counted == 0
    with pytest.raises(Conflict) as refused:
        services.round_start(tournament=cup)
    assert refused.value.code == "round_not_complete"
    live = selectors.live_tables(table.round)
    assert live.tables[0].to_approve

    with django_capture_on_commit_callbacks(execute=True):
        services.table_approve(table=table, user=director)
    assert points_by_seat(cup, table) == [4, 2, 1, 0]

    enter(table, [-30, -10, 10, 30])  # corrected after the approval
    assert points_by_seat(cup, table) == [0, 0, 0, 0]
    with django_capture_on_commit_callbacks(execute=True):
        services.table_approve(table=table, user=director)
    assert points_by_seat(cup, table) == [0, 1, 2, 4]


def test_a_table_not_done_is_not_approved(cup, seat, director):
    table = seat(cup).tables.get()
    with pytest.raises(Conflict) as refused:
        services.table_approve(table=table, user=director)
    assert refused.value.code == "table_not_done"


def test_the_desk_approves_for_a_referee_and_the_api_refuses_a_scorer(
    cup, seat, enter, host, django_capture_on_commit_callbacks
):
    table = seat(cup).tables.get()
    enter(table, [30, 10, -10, -30])
    url = "/api/v1/tournaments/open/rounds/1/tables/1/approve/"
    assert client_for(member_login(host, Role.SCORER)).post(url).status_code == 403
    referee = Client(HTTP_ACCEPT_LANGUAGE="en")
    referee.force_login(member_login(host, Role.REFEREE))
    desk = referee.get("/tournaments/open/desk/").content.decode()
    assert "Done: to approve" in desk and "Approve: it counts" in desk
    with django_capture_on_commit_callbacks(execute=True):
        assert referee.post("/tournaments/open/desk/approve/", {"table": "1"}).status_code == 302
    assert points_by_seat(cup, table) == [4, 2, 1, 0]
    assert "Done: to approve" not in referee.get("/tournaments/open/desk/").content.decode()
