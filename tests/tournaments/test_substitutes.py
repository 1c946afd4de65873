"""Substitutes (替补): a reserve plays a table for an absent registered player; the tournament
decides whose result the table is, and standings, ratings and statistics all follow it.

The cup: A, B, C, D entered, one table, placement points 4/2/1/0. D does not come; S plays
his seat in round 1. Totals, by who sits there: A +30, B +10, S −10, C −30, so the table's
placings are A 1st (4), B 2nd (2), S's seat 3rd (1), C 4th (0).
- "registered": D is credited the seat: D 1 point, table score −10; S is not ranked.
- "substitute": S is ranked with 1 point and −10; D played no table (0 points).
- "nobody": the seat counts for no one: A 4, B 2, C 0 as played, D 0, S not ranked.
"""

from __future__ import annotations

import pytest

from clubs.models import Player
from ratings.models import SessionLine
from ratings.services import session_refresh
from tests.helpers import client_for
from tournaments import selectors, services
from tournaments.models import Substitution

pytestmark = pytest.mark.django_db

R1 = {"A": 30, "B": 10, "S": -10, "C": -30}


@pytest.fixture
def cup(make_tournament):
    def make(counts: str):
        t = make_tournament(players=0, rounds=2, placement_points=[4, 2, 1, 0],
                            substitute_counts=counts)  # fmt: skip
        for name in "ABCD":
            services.registration_create(tournament=t, name=name)
        return t

    return make


def _play_round_one(t, seat, enter, director, django_capture_on_commit_callbacks):
    table = seat(t).tables.get()
    absent = t.registrations.get(player__name="D").player_id
    with django_capture_on_commit_callbacks(execute=True):
        made = services.substitute_seat(table=table, absent_id=absent, name="S", user=director,
                                        reason="D's train is late")  # fmt: skip
    seats = table.session.seats.select_related("player").order_by("number")
    assert "D" not in [s.player.name for s in seats]  # S sits in D's seat
    enter(table, [R1[s.player.name] for s in seats])
    return table, made


def standings(t) -> dict[str, tuple[int, int, int]]:
    """name → (placement points, table score, tables played), from the latest snapshot."""
    return {r.name: (r.placement_points, r.table_score, r.rounds_played)
            for r in selectors.latest_standings(t).rows}  # fmt: skip


def lines(table) -> dict[str, int]:
    session_refresh(session_id=table.session_id)
    return dict(
        SessionLine.objects.filter(session_id=table.session_id).values_list("player__name", "place")
    )


@pytest.mark.parametrize(
    ("counts", "expected", "rated"),
    [
        ("registered", {"A": (4, 30, 1), "B": (2, 10, 1), "D": (1, -10, 1), "C": (0, -30, 1)},
         {"A": 1, "B": 2, "D": 3, "C": 4}),
        ("substitute", {"A": (4, 30, 1), "B": (2, 10, 1), "S": (1, -10, 1), "C": (0, -30, 1),
                        "D": (0, 0, 0)},
         {"A": 1, "B": 2, "S": 3, "C": 4}),
        ("nobody", {"A": (4, 30, 1), "B": (2, 10, 1), "C": (0, -30, 1), "D": (0, 0, 0)},
         {"A": 1, "B": 2, "C": 4}),
    ],
)  # fmt: skip
def test_the_setting_decides_whose_result_the_table_is(
    cup, seat, enter, director, django_capture_on_commit_callbacks, counts, expected, rated
):
    t = cup(counts)
    table, _ = _play_round_one(t, seat, enter, director, django_capture_on_commit_callbacks)
    assert standings(t) == expected
    # ratings and statistics follow the same decision (nobody: the three others are rated)
    assert lines(table) == rated
    assert len(selectors.latest_standings(t).rows) == len(expected)  # nobody counted twice


def test_changing_the_setting_later_moves_the_result(
    cup, seat, enter, director, django_capture_on_commit_callbacks, in_process_tasks
):
    t = cup("registered")
    table, _ = _play_round_one(t, seat, enter, director, django_capture_on_commit_callbacks)
    assert standings(t)["D"] == (1, -10, 1)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_update(tournament=t, substitute_counts="substitute")
    assert standings(t)["S"] == (1, -10, 1) and standings(t)["D"] == (0, 0, 0)
    assert lines(table) == {"A": 1, "B": 2, "S": 3, "C": 4}


def test_undoing_a_substitution_gives_the_seat_and_its_result_back(
    cup, seat, enter, director, django_capture_on_commit_callbacks
):
    t = cup("substitute")
    table, made = _play_round_one(t, seat, enter, director, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.substitute_remove(substitution=made)
    assert not Substitution.objects.exists()
    # D is back in the seat and the entered total of −10 is his
    assert standings(t)["D"] == (1, -10, 1) and "S" not in standings(t)


def test_a_player_of_the_round_cannot_substitute(
    make_tournament, seat, director_client, json_errors
):
    t = make_tournament(players=8, rounds=2)
    one = seat(t)
    first, second = one.tables.order_by("number")
    absent = first.session.seats.first().player_id
    elsewhere = second.session.seats.first().player_id
    url = f"/api/v1/tournaments/{t.slug}/rounds/1/tables/1/substitutes/"
    r = director_client.post(url, {"absent": absent, "substitute": elsewhere}, format="json")
    assert r.status_code == 409, r.json()
    assert json_errors(r)[0]["code"] == "substitute_plays_this_round"
    # a player not at that table cannot be the one replaced
    r = director_client.post(url, {"absent": elsewhere, "name": "Reserve"}, format="json")
    assert r.status_code == 400 and json_errors(r)[0]["code"] == "not_seated_here"
    assert not Player.objects.filter(name="Reserve").exists()  # a refusal changes nothing
    r = director_client.post(url, {"absent": absent, "name": "Reserve"}, format="json")
    assert r.status_code == 201, r.json()
    listed = client_for(None).get(f"/api/v1/tournaments/{t.slug}/substitutes/").json()
    assert [(s["table"], s["absent"], s["substitute_name"]) for s in listed] == [
        (1, absent, "Reserve")
    ]


def test_an_absent_entry_withdrawn_keeps_the_table_played_for_him(
    cup, seat, enter, director, django_capture_on_commit_callbacks, json_errors
):
    """D never comes: S plays round 1 for him (it counts for D), then D is withdrawn. He took
    part through S's table: he is ranked (flagged withdrawn) with its point, and cannot be
    removed as if he had never played."""
    t = cup("registered")
    _play_round_one(t, seat, enter, director, django_capture_on_commit_callbacks)
    entry = t.registrations.get(player__name="D")
    with django_capture_on_commit_callbacks(execute=True):
        services.registration_update(registration=entry, status="withdrawn")
    assert standings(t)["D"] == (1, -10, 1)
    with pytest.raises(Exception) as refused:
        services.registration_delete(registration=entry)
    assert refused.value.code == "registration_has_played"
