"""Finals (决赛): the top four of the qualifying rounds play the last round at table 1, seeded,
and rank first — by all their points (carry-over) or by the final's points alone (from zero).

Eight players, pinned for the two qualifying rounds so the tables are known: table 1 A B C D,
table 2 E F G H; placement points 4/2/1/0; the default chain (points, table score, first
places, …). Both qualifying rounds end alike at both tables: +30, +10, −10, −30 in that order.
After them A and E have 8 points (+60), B and F 4 (+20), C and G 2 (−20), D and H 0 (−60).
A and E tie in everything (and never met): the lower id ranks first, A; so B before F.

The final (round 3), table 1 seated A E B F (seeds 1–4): F +30, B +10, E −10, A −30, so
F 4, B 2, E 1, A 0. The consolation table C D G H: D +40, H +10, C −10, G −40, so D 4, H 2,
C 1, G 0.

- Carry-over: E 8+1 = 9 (+50); F 4+4 = 8 (+50); A 8+0 = 8 (+30); B 4+2 = 6 (+30). E first,
  F before A on table score, then B.
- From zero: F 4, B 2, E 1, A 0.
- Below the finalists either way: D 0+4 = 4, C 2+1 = 3, H 0+2 = 2 (−50), G 2+0 = 2 (−60).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments import selectors, services
from tournaments.models import Round

pytestmark = pytest.mark.django_db

QUALIFYING = {"A": 30, "B": 10, "C": -10, "D": -30, "E": 30, "F": 10, "G": -10, "H": -30}
FINAL = {"F": 30, "B": 10, "E": -10, "A": -30, "D": 40, "H": 10, "C": -10, "G": -40}
BELOW = [("D", 5, None), ("C", 6, None), ("H", 7, None), ("G", 8, None)]


@pytest.fixture
def cup(make_tournament, seat, enter):
    def make(carry: bool, consolation: bool = True):
        t = make_tournament(
            players=0, rounds=3, placement_points=[4, 2, 1, 0], seating="random",
            finals_players=4, finals_rounds=1, finals_carry=carry, consolation=consolation,
        )  # fmt: skip
        for name in "ABCDEFGH":
            services.registration_create(
                tournament=t, name=name, pinned_table=1 if name in "ABCD" else 2
            )
        for _ in range(2):
            play(seat(t), QUALIFYING, enter)
        return t

    return make


def play(round_: Round, totals: dict[str, int], enter) -> None:
    for table in round_.tables.all():
        seats = table.session.seats.select_related("player").order_by("number")
        enter(table, [totals[s.player.name] for s in seats])


def seated(round_: Round) -> dict[int, list[str]]:
    return {
        table.number: [s.player.name for s in
                       table.session.seats.select_related("player").order_by("number")]
        for table in round_.tables.all()
    }  # fmt: skip


def ranked(t) -> list[tuple[str, int, Fraction | None]]:
    return [(r.name, r.rank, r.final_points) for r in selectors.latest_standings(t).rows]


def test_the_finals_are_seeded_and_carry_their_points(cup, seat, enter):
    t = cup(carry=True)
    final = seat(t)
    assert seated(final)[1] == ["A", "E", "B", "F"]  # seeds 1–4 in seat order
    assert sorted(seated(final)[2]) == ["C", "D", "G", "H"]  # the consolation table
    play(final, FINAL, enter)
    assert ranked(t) == [("E", 1, 1), ("F", 2, 4), ("A", 3, 0), ("B", 4, 2), *BELOW]


def test_the_finals_from_zero_rank_by_the_final_alone(cup, seat, enter, director_client):
    t = cup(carry=False)
    play(seat(t), FINAL, enter)
    assert ranked(t) == [("F", 1, 4), ("B", 2, 2), ("E", 3, 1), ("A", 4, 0), *BELOW]
    # the API says the same, the finals' points in their own field
    rows = director_client.get(f"/api/v1/tournaments/{t.slug}/standings/").json()["standings"]
    assert [(r["name"], r["rank"], r["final_points"]) for r in rows][:5] == [
        ("F", 1, "4"), ("B", 2, "2"), ("E", 3, "1"), ("A", 4, "0"), ("D", 5, None),
    ]  # fmt: skip


def test_without_consolation_the_others_stop(cup, seat):
    t = cup(carry=True, consolation=False)
    final = seat(t)
    assert seated(final) == {1: ["A", "E", "B", "F"]} and final.byes == []


def test_finals_settings_are_checked_and_fixed_once_the_final_is_seated(
    make_tournament, seat, enter, json_errors, director_client
):
    r = director_client.post("/api/v1/tournaments/", {
        "name": "Cup", "slug": "cup", "club": "host", "rounds": 2, "finals_players": 4,
        "finals_rounds": 2,
    }, format="json")  # fmt: skip
    assert r.status_code == 400 and json_errors(r)[0]["code"] == "invalid_finals_rounds"
    t = make_tournament(players=4, rounds=2, finals_players=4)
    enter(seat(t).tables.get(), [1, 0, 0, -1])
    services.tournament_update(tournament=t, finals_carry=False)  # before the final: may change
    seat(t)
    with pytest.raises(Exception) as refused:
        services.tournament_update(tournament=t, finals_players=0)
    assert "finals_players" in str(refused.value.problems)
