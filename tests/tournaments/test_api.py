"""The tournaments API: creation, registration, rounds seated by the task, table results,
standings snapshots, task status, CSV export, permissions."""

from __future__ import annotations

import csv
import io
import itertools
from datetime import timedelta
from fractions import Fraction

import pytest
from django.utils import timezone
from rest_framework import serializers

from clubs.models import Club, Role
from clubs.serializers import SessionOutSerializer
from core.jobs_api import TaskOutSerializer
from core.models import TaskRecord
from tests.clubs.factories import ClubFactory
from tests.helpers import assert_shape, client_for, login, member_login
from tests.scoring.engine.records import PINGHU
from tournaments import selectors, services
from tournaments.models import Registration, Round, StandingsSnapshot, Tournament
from tournaments.readmodels import ROW_FIELDS, StandingRow, snapshot_rows
from tournaments.serializers import (
    RoundDetailSerializer,
    RoundOutSerializer,
    StandingsOutSerializer,
)
from tournaments.standings import DEFAULT_TIEBREAKS

pytestmark = pytest.mark.django_db


def pairs_of(round_: Round) -> set[frozenset[int]]:
    out = set()
    for table in round_.tables.all():
        players = list(table.session.seats.values_list("player_id", flat=True))
        out |= {frozenset(p) for p in itertools.combinations(players, 2)}
    return out


# --- creating and changing a tournament --------------------------------------------------------


def test_create_hosted_tournament_with_defaults(director_client, host):
    r = director_client.post(
        "/api/v1/tournaments/", {"name": "Spring", "slug": "spring", "club": "host", "rounds": 4},
        format="json",
    )  # fmt: skip
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["club"] == "host" and body["hosted"] is True
    assert body["placement_points"] == [4, 2, 1, 0]
    assert body["tiebreaks"] == ["placement_points", "table_score", "first_places",
                                 "best_table_score", "head_to_head"]  # fmt: skip
    assert body["status"] == "registration" and body["seating"] == "balanced"
    # the bye scores the mean placement points by default: (4 + 2 + 1 + 0) / 4 = 1.75
    assert body["bye_points"] == "1.75"
    assert body["ruleset_fingerprint"] == host.ruleset.fingerprint


def test_a_tournament_without_host_club_gets_its_own(api_client):
    user = login("organiser-less")
    r = client_for(user).post(
        "/api/v1/tournaments/", {"name": "Solo", "slug": "solo", "rounds": 3, "ruleset": "chengdu"},
        format="json",
    )  # fmt: skip
    assert r.status_code == 201, r.json()
    club = Club.objects.get(slug=r.json()["club"])
    assert r.json()["hosted"] is False
    # its creator directs it: he owns the club its tables live in
    assert club.memberships.get(player__user=user).role == Role.OWNER


def test_hosting_needs_the_organiser_role(host, json_errors):
    scorer = member_login(host, Role.SCORER)
    r = client_for(scorer).post(
        "/api/v1/tournaments/", {"name": "X", "slug": "x", "club": "host", "rounds": 2},
        format="json",
    )  # fmt: skip
    assert r.status_code == 403
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("slug", ["no-such-club", "members-only"])
def test_a_host_club_one_may_not_see_is_a_400_at_its_field(director_client, json_errors, slug):
    """A club named in the body that does not exist, or that the caller may not see, is an
    input problem at ``club`` (it was a 404, which the schema does not list for a POST to the
    collection: tests/core/test_api_fuzz.py)."""
    ClubFactory(slug="members-only", visibility=Club.Visibility.MEMBERS)
    r = director_client.post(
        "/api/v1/tournaments/", {"name": "X", "slug": "x", "club": slug, "rounds": 2},
        format="json",
    )  # fmt: skip
    assert r.status_code == 400
    assert [(e["path"], e["code"]) for e in json_errors(r)] == [("club", "does_not_exist")]
    assert not Tournament.objects.exists()


def test_anonymous_cannot_create(api_client):
    r = api_client.post("/api/v1/tournaments/", {"name": "X", "slug": "x", "rounds": 2})
    assert r.status_code == 401


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("placement_points", [4, 2, 1], "invalid_points"),
        ("placement_points", [0, 1, 2, 4], "invalid_points"),
        ("tiebreaks", ["table_score", "coin_toss"], "unknown_tiebreak"),
    ],
)
def test_bad_rules_are_refused_and_nothing_is_stored(
    director_client, json_errors, field, value, code
):
    r = director_client.post(
        "/api/v1/tournaments/",
        {"name": "X", "slug": "x", "club": "host", "rounds": 2, field: value},
        format="json",
    )
    assert r.status_code == 400
    assert code in {e["code"] for e in json_errors(r)}
    assert not Tournament.objects.exists()


def test_rules_are_fixed_once_seated(director_client, make_tournament, seat, json_errors):
    t = make_tournament(players=8)
    seat(t)
    r = director_client.patch(f"/api/v1/tournaments/{t.slug}/", {"hands_per_table": 4})
    assert r.status_code == 400
    assert json_errors(r)[0]["code"] == "tournament_started"
    # the name and the placement points may still change
    r = director_client.patch(
        f"/api/v1/tournaments/{t.slug}/", {"name": "Renamed", "placement_points": [3, 1, 0, 0]},
        format="json",
    )  # fmt: skip
    assert r.status_code == 200 and r.json()["name"] == "Renamed"


# --- registration ------------------------------------------------------------------------------


def test_register_existing_and_new_players(director_client, make_tournament, host):
    t = make_tournament(players=0)
    existing = member_login(host, Role.MEMBER, "member1").player
    r = director_client.post(f"/api/v1/tournaments/{t.slug}/players/", {"player": existing.pk})
    assert r.status_code == 201 and r.json()["name"] == "member1"
    r = director_client.post(
        f"/api/v1/tournaments/{t.slug}/players/", {"name": "新人", "seed_rating": 1500}
    )
    assert r.status_code == 201 and r.json()["seed_rating"] == 1500
    again = director_client.post(f"/api/v1/tournaments/{t.slug}/players/", {"player": existing.pk})
    assert again.status_code == 409
    listing = director_client.get(f"/api/v1/tournaments/{t.slug}/players/").json()
    assert [p["name"] for p in listing["results"]] == ["member1", "新人"]


def test_players_cannot_be_entered_by_a_scorer(scorer_client, make_tournament):
    t = make_tournament(players=0)
    r = scorer_client.post(f"/api/v1/tournaments/{t.slug}/players/", {"name": "Z"})
    assert r.status_code == 403


# --- rounds ------------------------------------------------------------------------------------


def test_post_round_answers_202_with_a_task_that_seats_it(
    director_client, make_tournament, in_process_tasks, django_capture_on_commit_callbacks
):
    t = make_tournament(players=16)
    with django_capture_on_commit_callbacks(execute=True):
        r = director_client.post(f"/api/v1/tournaments/{t.slug}/rounds/")
    assert r.status_code == 202, r.json()
    assert r.json()["round"] == 1
    task = director_client.get(r.json()["task"])
    assert task.status_code == 200
    assert task.json()["state"] == "SUCCESS" and task.json()["progress"] == 1
    assert task.json()["result"]["tables"] == 4
    detail = director_client.get(f"/api/v1/tournaments/{t.slug}/rounds/1/").json()
    assert detail["status"] == "seated" and len(detail["tables"]) == 4
    seated = [s["player"] for table in detail["tables"] for s in table["seats"]]
    assert sorted(seated) == sorted(t.registrations.values_list("player_id", flat=True))
    assert all([s["seat"] for s in table["seats"]] == [0, 1, 2, 3] for table in detail["tables"])
    assert detail["quality"]["repeated_pairs"] == 0
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


def test_next_round_waits_for_every_table(
    director_client, make_tournament, seat, enter, json_errors
):
    t = make_tournament(players=8)
    one = seat(t)
    tables = list(one.tables.order_by("number"))
    enter(tables[0], [10, 0, 0, -10])
    r = director_client.post(f"/api/v1/tournaments/{t.slug}/rounds/")
    assert r.status_code == 409
    assert json_errors(r)[0]["code"] == "round_not_complete"
    enter(tables[1], [5, 5, -5, -5])
    assert seat(t).number == 2


def test_balanced_16_players_five_rounds_never_meet_twice(make_tournament, seat, enter):
    t = make_tournament(players=16, rounds=5)
    met: set[frozenset[int]] = set()
    for _ in range(5):
        round_ = seat(t)
        pairs = pairs_of(round_)
        assert not pairs & met, f"round {round_.number} repeats {pairs & met}"
        met |= pairs
        assert round_.quality["repeated_pairs"] == 0
        for table in round_.tables.all():
            enter(table, [3, 1, -1, -3])
    # 16 players, each meeting 3 new per round for 5 rounds: all 120 pairs exactly once
    assert len(met) == 120
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED


def test_byes_go_to_different_players_and_score_the_bye_points(make_tournament, seat, enter):
    t = make_tournament(players=18, rounds=3)
    byes = []
    for _ in range(3):
        round_ = seat(t)
        assert len(round_.byes) == 2 and round_.tables.count() == 4
        byes += round_.byes
        for table in round_.tables.all():
            enter(table, [0, 0, 0, 0])
    assert len(set(byes)) == 6  # six byes, six different players
    snapshot = StandingsSnapshot.objects.filter(tournament=t).first()
    stored = next(r for r in snapshot.rows if r[ROW_FIELDS.index("player")] == byes[0])
    bye_row = StandingRow.from_array(stored, snapshot.points_scale)
    assert bye_row.byes == 1
    # a bye: 1.75 placement points; three four-way ties: (4+2+1+0)/4 = 1.75 each; 5.25 in all.
    # Every value is a quarter or a whole here, so the snapshot counts in quarters: 21 of 1/4.
    assert (snapshot.points_scale, stored[ROW_FIELDS.index("placement_points")]) == (4, 21)
    assert bye_row.placement_points == Fraction(21, 4)
    assert bye_row.rounds[0].placement_points == Fraction(7, 4)  # stored as 7 of 1/4


def test_withdrawn_players_are_not_seated_and_late_entries_are(
    director_client, make_tournament, seat, enter, django_capture_on_commit_callbacks
):
    t = make_tournament(players=16, rounds=3)
    one = seat(t)
    for table in one.tables.all():
        enter(table, [4, 0, 0, -4])
    gone = t.registrations.order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=True):
        r = director_client.patch(
            f"/api/v1/tournaments/{t.slug}/players/{gone.player_id}/", {"status": "withdrawn"}
        )
    assert r.status_code == 200 and r.json()["withdrawn_after"] == 1
    late = director_client.post(f"/api/v1/tournaments/{t.slug}/players/", {"name": "Late"})
    assert late.json()["first_round"] == 2
    two = seat(t)
    seated = set(two.tables.values_list("session__seats__player_id", flat=True))
    assert gone.player_id not in seated and late.json()["player"] in seated
    snapshot = StandingsSnapshot.objects.filter(tournament=t).first()
    rows = snapshot_rows(snapshot.rows, snapshot.points_scale)
    assert next(r for r in rows if r.player == gone.player_id).withdrawn is True


def test_a_pinned_player_always_sits_at_his_table(make_tournament, seat, enter):
    t = make_tournament(players=16, rounds=3)
    pinned = t.registrations.order_by("pk")[5]
    pinned.pinned_table = 3
    pinned.save()
    for _ in range(3):
        round_ = seat(t)
        table = round_.tables.get(session__seats__player_id=pinned.player_id)
        assert table.number == 3
        for table in round_.tables.all():
            enter(table, [1, 0, 0, -1])


def test_reseat_is_refused_once_the_round_has_results(
    director_client, make_tournament, seat, enter, in_process_tasks,
    django_capture_on_commit_callbacks, json_errors,
):  # fmt: skip
    t = make_tournament(players=8)
    one = seat(t)
    before = {tb.number: tb.session_id for tb in one.tables.all()}
    with django_capture_on_commit_callbacks(execute=True):
        r = director_client.post(
            f"/api/v1/tournaments/{t.slug}/rounds/1/reseat/", {"reason": "a late withdrawal"}
        )
    assert r.status_code == 202
    one.refresh_from_db()
    assert one.status == Round.Status.SEATED
    # seated again: new table sessions
    assert {tb.session_id for tb in one.tables.all()}.isdisjoint(before.values())
    one.refresh_from_db()
    assert [r["reason"] for r in one.reseats] == ["a late withdrawal"]
    enter(one.tables.first(), [1, 1, -1, -1])
    r = director_client.post(f"/api/v1/tournaments/{t.slug}/rounds/1/reseat/", {"reason": "again"})
    assert r.status_code == 409 and json_errors(r)[0]["code"] == "round_has_results"


def test_seating_is_idempotent(make_tournament, seat):
    t = make_tournament(players=8)
    one = seat(t)
    tables = sorted(one.tables.values_list("pk", "session_id"))
    again = services.round_seat(round_id=one.pk)
    assert again["round"] == 1 and sorted(one.tables.values_list("pk", "session_id")) == tables


# --- results and standings --------------------------------------------------------------------


def test_table_result_must_sum_to_zero_and_changes_nothing(
    scorer_client, make_tournament, seat, json_errors
):
    t = make_tournament(players=4)
    table = seat(t).tables.get()
    players = list(table.session.seats.order_by("number").values_list("player_id", flat=True))
    bad = {
        "scores": [{"player": p, "score": s} for p, s in zip(players, [5, 0, 0, 0], strict=True)]
    }
    r = scorer_client.post(f"/api/v1/tables/{table.pk}/result/", bad, format="json")
    assert r.status_code == 400
    assert json_errors(r)[0] == {
        "path": "scores",
        "code": "not_zero_sum",
        "message": "the totals sum to 5, not 0",
    }
    assert not table.session.results.exists()


def test_results_by_totals_give_placement_points_with_shared_places(
    scorer_client, make_tournament, seat, in_process_tasks, django_capture_on_commit_callbacks
):
    t = make_tournament(players=4)
    table = seat(t).tables.get()
    players = list(table.session.seats.order_by("number").values_list("player_id", flat=True))
    # seats 0 and 1 tie for first: (4 + 2) / 2 = 3 each; seat 2 third: 1; seat 3 last: 0
    scores = [{"player": p, "score": s} for p, s in zip(players, [20, 20, -10, -30], strict=True)]
    with django_capture_on_commit_callbacks(execute=True):
        r = scorer_client.post(f"/api/v1/tables/{table.pk}/result/", {"scores": scores},
                               format="json")  # fmt: skip
    assert r.status_code == 200, r.json()
    body = scorer_client.get(f"/api/v1/tournaments/{t.slug}/standings/").json()
    assert body["version"] >= 1 and body["rounds_complete"] == 1
    points = {row["player"]: row["placement_points"] for row in body["standings"]}
    assert points == {players[0]: "3", players[1]: "3", players[2]: "1", players[3]: "0"}
    ranks = [(row["rank"], row["shared"]) for row in body["standings"]]
    # equal on points, score, first places and best score; they met: head to head 0 each
    assert ranks == [(1, True), (1, True), (3, False), (4, False)]
    # the chain that ordered them, each tiebreak named for people
    assert [t["code"] for t in body["tiebreaks"]] == list(DEFAULT_TIEBREAKS)
    assert body["tiebreaks"][0] == {"code": "placement_points", "zh": "名次分",
                                    "en": "Placement points"}  # fmt: skip


def test_a_table_played_hand_by_hand_counts_when_its_hands_are_in(
    scorer_client, make_tournament, seat, in_process_tasks, django_capture_on_commit_callbacks
):
    t = make_tournament(players=4, hands_per_table=2, mode="single")  # PINGHU is a whole hand
    table = seat(t).tables.get()
    seats = list(table.session.seats.order_by("number").values_list("player_id", flat=True))
    url = f"/api/v1/sessions/{table.session_id}/hands/"
    with django_capture_on_commit_callbacks(execute=True):
        assert scorer_client.post(url, PINGHU, format="json").status_code == 201
    # one hand of two: the table has no result yet
    assert sum(row.placement_points for row in selectors.latest_standings(t).rows) == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert scorer_client.post(url, PINGHU, format="json").status_code == 201
    body = scorer_client.get(f"/api/v1/tournaments/{t.slug}/standings/").json()
    # PINGHU twice: S1 wins 平胡 on S2's discard; under qq 平胡 is 0 fan, worth 1 at base 1,
    # paid by the discarder alone: S1 +2, S2 -2
    scores = {row["player"]: row["table_score"] for row in body["standings"]}
    assert scores == {seats[0]: 0, seats[1]: 2, seats[2]: -2, seats[3]: 0}
    assert body["standings"][0]["player"] == seats[1]
    # the hand table refuses entered totals
    r = scorer_client.post(
        f"/api/v1/tables/{table.pk}/result/",
        {"scores": [{"player": p, "score": 0} for p in seats]}, format="json",
    )  # fmt: skip
    assert r.status_code == 409


def test_standings_are_coalesced_and_versioned(
    make_tournament, seat, django_capture_on_commit_callbacks
):
    t = make_tournament(players=4)
    seat(t)
    before = TaskRecord.objects.filter(name="tournaments.compute_standings").count()
    # a burst inside one request: ten asks, one recompute queued
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        for _ in range(10):
            services.standings_request(tournament_id=t.pk)
    assert TaskRecord.objects.filter(name="tournaments.compute_standings").count() == before + 1
    assert len(callbacks) == 1
    # a request still waiting after the TTL was lost (say the broker restarted): queue again
    stale = timezone.now() - services.STANDINGS_REQUEST_TTL - timedelta(seconds=1)
    Tournament.objects.filter(pk=t.pk).update(standings_requested_at=stale)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert services.standings_request(tournament_id=t.pk) is not None
        assert services.standings_request(tournament_id=t.pk) is None
    assert len(callbacks) == 1
    services.standings_compute(tournament_id=t.pk)
    services.standings_compute(tournament_id=t.pk)
    versions = list(t.standings_snapshots.values_list("version", flat=True))
    assert versions[:2] == sorted(versions, reverse=True)[:2] and len(set(versions)) == len(
        versions
    )


def test_the_standings_read_are_always_the_latest_snapshot_with_its_own_chain(
    director_client, make_tournament, seat, enter, django_capture_on_commit_callbacks
):
    """A snapshot is read once per process and never changes; a recompute is the next version,
    read at once. The chain shown is the one that ordered the rows: after the organiser puts
    table score first, the old snapshot still says placement points until the recompute."""
    t = make_tournament(players=4)
    table = seat(t).tables.get()
    enter(table, [20, 20, -10, -30])
    url = f"/api/v1/tournaments/{t.slug}/standings/"
    first = director_client.get(url).json()
    assert first == director_client.get(url).json()  # read again: the same table
    chain = ["table_score", "placement_points"]
    with django_capture_on_commit_callbacks(execute=False):  # the recompute waits in the queue
        r = director_client.patch(f"/api/v1/tournaments/{t.slug}/", {"tiebreaks": chain},
                                  format="json")  # fmt: skip
    assert r.status_code == 200, r.json()
    waiting = director_client.get(url).json()
    assert waiting["version"] == first["version"]
    assert waiting["tiebreaks"][0]["code"] == "placement_points"
    services.standings_compute(tournament_id=t.pk)
    latest = director_client.get(url).json()
    assert latest["version"] == first["version"] + 1
    assert [c["code"] for c in latest["tiebreaks"]] == chain


def test_standings_and_seating_as_csv(director_client, make_tournament, seat, enter):
    t = make_tournament(players=4)
    table = seat(t).tables.get()
    enter(table, [9, 3, -4, -8])
    r = director_client.get(f"/api/v1/tournaments/{t.slug}/standings/?format=csv")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.content.decode("utf-8-sig"))))
    assert [int(row["table_score"]) for row in rows] == [9, 3, -4, -8]
    assert rows[0]["R1"] == "9" and rows[0]["rank"] == "1"
    r = director_client.get(f"/api/v1/tournaments/{t.slug}/rounds/1/?format=csv")
    rows = list(csv.DictReader(io.StringIO(r.content.decode("utf-8-sig"))))
    assert [row["seat"] for row in rows] == ["0", "1", "2", "3"]
    assert rows[0]["first_dealer"] == "True"


# --- visibility and tasks ----------------------------------------------------------------------


def test_a_private_tournament_is_hidden_from_outsiders(make_tournament, seat, api_client):
    t = make_tournament(players=4, is_public=False)
    seat(t)
    Club.objects.filter(pk=t.club_id).update(visibility=Club.Visibility.MEMBERS)
    task = t.round_set.get().task_id
    for url in (f"/api/v1/tournaments/{t.slug}/", f"/api/v1/tournaments/{t.slug}/standings/",
                f"/api/v1/tasks/{task}"):  # fmt: skip
        assert api_client.get(url).status_code == 404, url
    assert api_client.get("/api/v1/tournaments/").json()["count"] == 0
    outsider = member_login(ClubFactory(), Role.ORGANISER)
    assert client_for(outsider).get(f"/api/v1/tournaments/{t.slug}/").status_code == 404
    member = member_login(t.club, Role.MEMBER)
    assert client_for(member).get(f"/api/v1/tournaments/{t.slug}/").status_code == 200


def test_unknown_task_is_404(api_client, json_errors):
    r = api_client.get("/api/v1/tasks/00000000-0000-0000-0000-000000000000")
    assert r.status_code == 404
    json_errors(r)


def test_a_failed_seating_is_reported_by_its_task(
    director_client, make_tournament, in_process_tasks, django_capture_on_commit_callbacks
):
    t = make_tournament(players=8)
    # two tables, five players pinned to table 1: the seating cannot honour it
    Registration.objects.filter(pk__in=t.registrations.order_by("pk")[:5].values("pk")).update(
        pinned_table=1
    )
    with django_capture_on_commit_callbacks(execute=True):
        r = director_client.post(f"/api/v1/tournaments/{t.slug}/rounds/")
    task = director_client.get(r.json()["task"]).json()
    assert task["state"] == "FAILURE"
    assert task["error"]["errors"][0]["code"] == "pin_conflict"
    assert t.round_set.get().status == Round.Status.FAILED


def test_a_corrected_or_deleted_hand_moves_the_standings(
    scorer_client, make_tournament, seat, in_process_tasks, django_capture_on_commit_callbacks
):
    t = make_tournament(players=4, hands_per_table=1, mode="single")  # PINGHU is a whole hand
    table = seat(t).tables.get()
    seats = list(table.session.seats.order_by("number").values_list("player_id", flat=True))
    url = f"/api/v1/sessions/{table.session_id}/hands/"
    with django_capture_on_commit_callbacks(execute=True):
        assert scorer_client.post(url, PINGHU, format="json").status_code == 201

    def table_scores() -> dict[int, int]:
        body = scorer_client.get(f"/api/v1/tournaments/{t.slug}/standings/").json()
        return {row["player"]: row["table_score"] for row in body["standings"]}

    # PINGHU: S1 wins 平胡 (worth 1 under qq) on S2's discard
    assert table_scores() == {seats[0]: 0, seats[1]: 1, seats[2]: -1, seats[3]: 0}
    # corrected: the discard was S3's
    corrected = {**PINGHU, "events": [{**PINGHU["events"][0], "from": 3}], "reason": "wrong seat"}
    with django_capture_on_commit_callbacks(execute=True):
        assert scorer_client.put(f"{url}1/", corrected, format="json").status_code == 200
    assert table_scores() == {seats[0]: 0, seats[1]: 1, seats[2]: 0, seats[3]: -1}
    # deleted: the table has no hand left, so no result; nobody has a table score
    with django_capture_on_commit_callbacks(execute=True):
        assert scorer_client.delete(f"{url}1/?reason=void").status_code == 200
    assert set(table_scores().values()) == {0}
    body = scorer_client.get(f"/api/v1/tournaments/{t.slug}/standings/").json()
    assert body["tables_counted"] == 0 and body["rounds_complete"] == 0


def test_more_rounds_after_the_start_replans_the_rest(
    director_client, make_tournament, seat, enter
):
    t = make_tournament(players=16, rounds=3)
    one = seat(t)
    t.refresh_from_db()
    assert len(t.seating_plan) == 2  # rounds 2 and 3, planned with round 1
    r = director_client.patch(f"/api/v1/tournaments/{t.slug}/", {"rounds": 5})
    assert r.status_code == 200 and r.json()["rounds"] == 5
    for table in one.tables.all():
        enter(table, [2, 1, -1, -2])
    met = pairs_of(one)
    for _ in range(4):
        round_ = seat(t)
        assert not pairs_of(round_) & met  # 16 players, 5 rounds: still nobody meets twice
        met |= pairs_of(round_)
        for table in round_.tables.all():
            enter(table, [2, 1, -1, -2])
    assert len(met) == 120


def test_answers_have_the_declared_fields(director_client, make_tournament, seat, enter):
    """Round list and detail, standings, a table's result and a task: each answer has exactly
    the fields its output serializer declares (what the schema documents)."""
    t = make_tournament(players=18, rounds=2)
    round_ = seat(t)
    for table in round_.tables.all():
        enter(table, [5, 0, 0, -5])
    base = f"/api/v1/tournaments/{t.slug}"
    checks = [
        (f"{base}/rounds/", RoundOutSerializer(many=True)),
        (f"{base}/rounds/1/", RoundDetailSerializer()),
        (f"{base}/standings/", StandingsOutSerializer()),
        (f"/api/v1/tables/{round_.tables.first().pk}/result/", SessionOutSerializer()),
        (f"/api/v1/tasks/{round_.task_id}", TaskOutSerializer()),
    ]
    for url, serializer in checks:
        response = director_client.get(url)
        assert response.status_code == 200, (url, response.json())
        assert_shape(response.json(), serializer, url)
    task = director_client.get(f"/api/v1/tasks/{round_.task_id}").json()
    assert task["tournament"] == t.slug and task["state"] == "SUCCESS"


def test_the_written_out_standings_are_the_declared_fields(make_tournament, seat, enter):
    """StandingsOutSerializer writes its rows out directly (for speed): the same keys, order
    and values as its declared fields give, with shared places, byes and a player who has not
    played yet (no best table score), in any time zone."""
    t = make_tournament(players=18, rounds=2)
    one = seat(t)
    for table in one.tables.all():
        enter(table, [20, 20, -10, -30])
    services.registration_create(tournament=t, name="late")
    services.standings_compute(tournament_id=t.pk)
    table = selectors.latest_standings(t)
    assert any(r.shared for r in table.rows) and any(r.byes for r in table.rows)
    assert any(r.best_table_score is None for r in table.rows)
    for zone in ("UTC", "Asia/Shanghai", "America/New_York"):
        with timezone.override(zone):
            fast = StandingsOutSerializer(table).data
            declared = serializers.Serializer.to_representation(
                StandingsOutSerializer(table), table
            )
            assert list(fast.items()) == list(declared.items())
