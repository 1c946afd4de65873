"""The standings hidden for the last rounds, until the scorekeeper reveals them.

Four players A–D at one table, three rounds, placement points 4/2/1/0, the last round hidden:
- Round 1: A +30, B +10, C −10, D −30 → A 4, B 2, C 1, D 0.
- Round 2: B +20, A +5, D −5, C −20 → B 4, A 2, D 1, C 0. After round 2: A 6 (table score
  +35), B 6 (+30), C 1 (−30), D 1 (−35): A, B, C, D.
- Round 3 (hidden): D +40, C +20, B −30, A −30 → D 4, C 2, A and B share 3rd and 4th, 0.5
  each. Whole: A 6.5 (+5), B 6.5 (0), D 5 (+5), C 3 (−10): A, B, D, C.
While round 3 is hidden, a player sees A, B, C, D with 6, 6, 1, 1 and no round 3; a director
sees A, B, D, C; once revealed, everyone does.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.test import Client

from clubs.models import Role
from tests.helpers import client_for, member_login
from tournaments import selectors, services

pytestmark = pytest.mark.django_db

ROUNDS = (
    {"A": 30, "B": 10, "C": -10, "D": -30},
    {"B": 20, "A": 5, "D": -5, "C": -20},
    {"D": 40, "C": 20, "B": -30, "A": -30},
)


@pytest.fixture
def cup(make_tournament, seat, enter):
    t = make_tournament(players=0, rounds=3, placement_points=[4, 2, 1, 0], hide_last_rounds=1)
    for name in "ABCD":
        services.registration_create(tournament=t, name=name)
    for totals in ROUNDS:
        table = seat(t).tables.get()
        seats = table.session.seats.select_related("player").order_by("number")
        enter(table, [totals[s.player.name] for s in seats])
    t.refresh_from_db()
    return t


def names(rows) -> list[tuple[str, Fraction]]:
    return [(r.name, r.placement_points) for r in rows]


def test_the_players_see_the_standings_before_the_hidden_round_a_director_sees_them_whole(
    cup, host, director
):
    shown = selectors.latest_standings(cup)
    assert shown.hidden_after == 2
    assert names(shown.rows) == [("A", 6), ("B", 6), ("C", 1), ("D", 1)]
    assert {c.round for r in shown.rows for c in r.rounds} == {1, 2}
    whole = selectors.latest_standings(cup, full=True)
    assert names(whole.rows) == [("A", Fraction(13, 2)), ("B", Fraction(13, 2)), ("D", 5),
                                 ("C", 3)]  # fmt: skip

    # the API: a reader gets what the players see, a referee the whole, both told it is hidden
    reader = client_for().get("/api/v1/tournaments/open/standings/").json()
    assert reader["hidden_after"] == 2
    assert [r["name"] for r in reader["standings"]] == ["A", "B", "C", "D"]
    referee = (
        client_for(member_login(host, Role.REFEREE))
        .get("/api/v1/tournaments/open/standings/")
        .json()
    )
    assert [r["name"] for r in referee["standings"]] == ["A", "B", "D", "C"]
    # the pages: standings and the report hide round 3 from a reader
    page = Client(HTTP_ACCEPT_LANGUAGE="en")
    text = page.get("/tournaments/open/standings/").content.decode()
    assert "Hidden until the final." in text and ">R3<" not in text
    report = page.get("/tournaments/open/report/").content.decode()
    assert "Round 2" in report and "Round 3" not in report
    assert "Hidden until the final." in page.get("/tournaments/open/projector/").content.decode()


def test_revealing_shows_everyone_the_whole_standings(
    cup, director, django_capture_on_commit_callbacks, in_process_tasks
):
    page = Client(HTTP_ACCEPT_LANGUAGE="en")
    page.force_login(director)
    assert "Reveal the standings" in page.get("/tournaments/open/standings/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        assert page.post("/tournaments/open/standings/reveal/").status_code == 302
    shown = selectors.latest_standings(cup)
    assert shown.hidden_after is None
    assert [r.name for r in shown.rows] == ["A", "B", "D", "C"]
    text = Client(HTTP_ACCEPT_LANGUAGE="en").get("/tournaments/open/standings/").content.decode()
    assert "Hidden until the final." not in text and ">R3<" in text


def test_nothing_is_hidden_before_the_hidden_rounds_are_seated(make_tournament, seat, enter):
    t = make_tournament(players=4, rounds=3, hide_last_rounds=1)
    enter(seat(t).tables.get(), [30, 10, -10, -30])
    assert selectors.latest_standings(t).hidden_after is None


@pytest.mark.parametrize("hidden", [3, 4, -1])
def test_hiding_as_many_rounds_as_there_are_is_refused(director, host, hidden):
    answer = client_for(director).post("/api/v1/tournaments/", {
        "name": "Cup", "slug": "cup", "club": host.slug, "rounds": 3, "hide_last_rounds": hidden,
    }, format="json")  # fmt: skip
    assert answer.status_code == 400
