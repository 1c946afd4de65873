"""Results that must not change behind people's backs, entries that took no part, lost seating
requests, the organiser's recompute, tables addressed within their round (issue "Integrity")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs.models import Bettor, Role, TableSession
from clubs.tasks import session_changed
from core.models import TaskRecord
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.helpers import client_for, member_login
from tests.scoring.engine.records import PINGHU
from tournaments import selectors, services
from tournaments.models import Round, RoundUnlock
from tournaments.tasks import compute_standings, generate_seating

pytestmark = pytest.mark.django_db


def hands_url(table) -> str:
    return f"/api/v1/sessions/{table.session_id}/hands/"


def result_url(t, round_, table) -> str:
    return f"/api/v1/tournaments/{t.slug}/rounds/{round_.number}/tables/{table.number}/result/"


def scores(table, values) -> dict:
    seats = table.session.seats.order_by("number").values_list("player_id", flat=True)
    return {"scores": [{"player": p, "score": v} for p, v in zip(seats, values, strict=True)]}


def codes(response) -> list[str]:
    return [e["code"] for e in response.json()["errors"]]


# --- item 9: a table plays its hands; a round locks when the next is seated -----------------


def test_a_table_takes_no_more_hands_than_the_tournament_plays(
    make_tournament, seat, scorer_client
):
    """hands_per_table is a cap: a 5th hand at a 4-hand table was accepted and rewrote the
    round's scores. 普通 mode, so PINGHU (one win) is a whole hand."""
    t = make_tournament(players=4, hands_per_table=2, mode="single")
    table = seat(t).tables.get()
    for _ in range(2):
        assert scorer_client.post(hands_url(table), PINGHU, format="json").status_code == 201
    third = scorer_client.post(hands_url(table), PINGHU, format="json")
    assert third.status_code == 409 and codes(third) == ["table_complete"]
    beyond = scorer_client.post(hands_url(table), {**PINGHU, "number": 9}, format="json")
    assert beyond.status_code == 409 and codes(beyond) == ["table_complete"]
    assert table.session.hands.count() == 2


def test_a_round_locks_when_the_next_is_seated_and_unlocks_with_a_reason(
    make_tournament, seat, enter, scorer_client, director_client, django_capture_on_commit_callbacks
):
    t = make_tournament(players=4, rounds=3)
    one = seat(t)
    table = one.tables.get()
    enter(table, [3, 1, -1, -3])
    seat(t)  # round 2: round 1 is over
    table.session.refresh_from_db()
    again = scorer_client.post(result_url(t, one, table), scores(table, [4, 0, 0, -4]),
                               format="json")  # fmt: skip
    assert again.status_code == 409 and codes(again) == ["round_locked"]
    # the clubs' reopen does not lift a tournament's lock
    reopen = director_client.post(f"/api/v1/sessions/{table.session_id}/reopen/")
    assert reopen.status_code == 409 and codes(reopen) == ["round_locked"]
    base = f"/api/v1/tournaments/{t.slug}/rounds/1"
    assert director_client.post(f"{base}/unlock/", {}, format="json").status_code == 400
    unlock = director_client.post(f"{base}/unlock/", {"reason": "S3 miscounted"},
                                  format="json")  # fmt: skip
    assert unlock.status_code == 201 and unlock.json()["reason"] == "S3 miscounted"
    with django_capture_on_commit_callbacks(execute=True):
        fixed = scorer_client.post(result_url(t, one, table), scores(table, [4, 0, 0, -4]),
                                   format="json")  # fmt: skip
    assert fixed.status_code == 200, fixed.json()
    assert director_client.post(f"{base}/lock/").status_code == 200
    locked = scorer_client.post(result_url(t, one, table), scores(table, [3, 1, -1, -3]),
                                format="json")  # fmt: skip
    assert codes(locked) == ["round_locked"]
    assert list(RoundUnlock.objects.values_list("reason", flat=True)) == ["S3 miscounted"]
    # the round being played stays open
    assert codes(director_client.post(f"/api/v1/tournaments/{t.slug}/rounds/2/lock/")) == [
        "round_in_play"
    ]


def test_a_finished_tournament_is_frozen(make_tournament, seat, enter, scorer_client):
    """A hand posted after the tournament finished changed the final standings."""
    t = make_tournament(players=4, rounds=1, hands_per_table=2, mode="single")
    table = seat(t).tables.get()
    enter(table, [3, 1, -1, -3])
    services.standings_compute(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.status == "finished"
    late = scorer_client.post(result_url(t, t.round_set.get(), table),
                              scores(table, [9, 0, 0, -9]), format="json")  # fmt: skip
    assert late.status_code == 409 and codes(late) == ["tournament_finished"]
    assert selectors.latest_standings(t).rows[0].table_score == 3


# --- item 10: entries that took no part; names that are a player already --------------------


def test_an_entry_withdrawn_before_playing_is_not_ranked(make_tournament, seat, enter):
    t = make_tournament(players=5, rounds=2)
    gone = t.registrations.order_by("pk").last()
    services.registration_update(registration=gone, status="withdrawn")
    one = seat(t)  # four players, one table
    enter(one.tables.get(), [3, 1, -1, -3])
    services.standings_compute(tournament_id=t.pk)
    ranked = {row.player for row in selectors.latest_standings(t).rows}
    assert gone.player_id not in ranked and len(ranked) == 4


def test_an_entry_is_removed_before_it_plays_only(make_tournament, seat, director_client):
    t = make_tournament(players=4, rounds=2)
    extra = services.registration_create(tournament=t, name="Mistake")
    url = f"/api/v1/tournaments/{t.slug}/players/"
    assert director_client.delete(f"{url}{extra.player_id}/").status_code == 204
    seat(t)
    played = t.registrations.first()
    r = director_client.delete(f"{url}{played.player_id}/")
    assert r.status_code == 409 and codes(r) == ["registration_has_played"]


def test_a_name_that_is_a_club_player_asks_which_one(make_tournament, host, director_client):
    """Registering by a name silently made a second player of that name."""
    zhang = MembershipFactory(club=host, player=PlayerFactory(name="张伟")).player
    t = make_tournament(players=4)
    url = f"/api/v1/tournaments/{t.slug}/players/"
    r = director_client.post(url, {"name": "张伟"}, format="json")
    assert r.status_code == 409 and codes(r) == ["name_matches_player"]
    assert f"player {zhang.pk}" in r.json()["errors"][0]["message"]
    assert director_client.post(url, {"player": zhang.pk}, format="json").status_code == 201
    other = director_client.post(url, {"name": "张伟", "new_player": True}, format="json")
    assert other.status_code == 201 and other.json()["player"] != zhang.pk


# --- item 11: a player's club money and his tournament points stay apart ---------------------


def test_a_players_page_keeps_tournament_tables_apart(make_tournament, seat, enter, host):
    t = make_tournament(players=4, rounds=1)
    table = seat(t).tables.get()
    enter(table, [30, 10, -10, -30])
    player = table.session.seats.get(number=0).player
    club_table = TableSession.objects.create(club=host, started_at=timezone.now(),
                                             ruleset=host.ruleset)  # fmt: skip
    for n, p in enumerate(PlayerFactory() for _ in range(4)):
        club_table.seats.create(number=n, player=p)
    Bettor.objects.create(session=club_table, player=player)
    page = client_for(None).get(f"/api/v1/players/{player.pk}/").json()
    assert [(s["id"], s["role"]) for s in page["sessions"]] == [(club_table.pk, "bettor")]
    assert [(s["id"], s["role"], s["total"]) for s in page["tournament_tables"]] == [
        (table.session_id, "seat", 30)
    ]
    assert (page["total"], page["tournament_total"]) == (0, 30)


# --- item 15: tables within their round -------------------------------------------------------


def test_a_table_is_addressed_within_its_round(make_tournament, seat, scorer_client):
    t = make_tournament(players=4)
    one = seat(t)
    table = one.tables.get()
    r = scorer_client.post(result_url(t, one, table), scores(table, [2, 0, 0, -2]), format="json")
    assert r.status_code == 200, r.json()
    assert scorer_client.get(f"/api/v1/tournaments/{t.slug}/rounds/1/tables/9/result/"
                             ).status_code == 404  # fmt: skip
    # the address by id checks the club as well: another club's scorer may not write there
    stranger = client_for(member_login(ClubFactory(), Role.SCORER))
    by_id = stranger.post(f"/api/v1/tables/{table.pk}/result/", scores(table, [2, 0, 0, -2]),
                          format="json")  # fmt: skip
    assert by_id.status_code == 403


# --- items 5 and 6: lost seatings are asked for again; the organiser's recompute runs ------


def test_a_lost_seating_request_may_be_asked_again(
    make_tournament, director_client, django_capture_on_commit_callbacks
):
    t = make_tournament(players=4)
    url = f"/api/v1/tournaments/{t.slug}/rounds/"
    with django_capture_on_commit_callbacks(execute=False):  # the task never runs: lost
        assert director_client.post(url).status_code == 202
    busy = director_client.post(url)
    assert busy.status_code == 409 and codes(busy) == ["seating_in_progress"]
    round_ = Round.objects.get(tournament=t)
    TaskRecord.objects.filter(pk=round_.task_id).update(
        updated_at=timezone.now() - services.SEATING_REQUEST_TTL - timedelta(seconds=1)
    )
    lost = round_.task_id
    with django_capture_on_commit_callbacks(execute=False):
        again = director_client.post(url)
    assert again.status_code == 202 and again.json()["round"] == 1
    assert TaskRecord.objects.get(pk=lost).error["errors"][0]["code"] == "seating_request_expired"
    round_.refresh_from_db()
    assert round_.task_id != lost and round_.status == "seating"


def test_the_organisers_recompute_always_runs(
    make_tournament, seat, director_client, django_capture_on_commit_callbacks
):
    """A recompute waiting in the queue (maybe lost with a killed worker) swallowed the
    organiser's: it answered 202 and nothing happened. Now his always queues its own."""
    t = make_tournament(players=4)
    seat(t)
    url = f"/api/v1/tournaments/{t.slug}/standings/"
    with django_capture_on_commit_callbacks(execute=False):
        services.standings_request(tournament_id=t.pk)  # waiting
        first = director_client.post(url)
        second = director_client.post(url)
    tasks = {first.json()["task_id"], second.json()["task_id"]}
    assert len(tasks) == 2
    assert TaskRecord.objects.filter(name="tournaments.compute_standings").count() >= 3


def test_tasks_that_are_safe_to_repeat_are_acknowledged_late():
    """A worker SIGKILLed in the middle leaves them in the queue for another worker."""
    for task in (generate_seating, compute_standings, session_changed):
        assert task.acks_late and task.reject_on_worker_lost, task.name


# --- item 18: values a tournament cannot hold; a host club is not deleted under it ----------


def test_a_club_hosting_a_tournament_is_not_deleted(host, make_tournament):
    t = make_tournament(players=4)
    owner = client_for(member_login(host, Role.OWNER, "owner"))
    response = owner.delete("/api/v1/clubs/host/")
    assert response.status_code == 409 and codes(response) == ["club_in_use"]
    assert "tournaments" in response.json()["errors"][0]["message"]
    assert t.__class__.objects.filter(pk=t.pk, club=host).exists()


def test_a_form_patch_changes_what_it_names_only(make_tournament, director_client):
    """A form-encoded PATCH without is_public made the tournament private (a form's missing
    checkbox reads as false unless the update is partial)."""
    t = make_tournament(players=4)
    response = director_client.patch(f"/api/v1/tournaments/{t.slug}/", {"name": "Spring Open"})
    assert response.status_code == 200, response.json()
    t.refresh_from_db()
    assert (t.name, t.is_public) == ("Spring Open", True)


@pytest.mark.parametrize("field", ["tiebreaks", "placement_points"])
def test_a_null_rule_is_refused_not_a_500(make_tournament, director_client, field):
    t = make_tournament(players=4)
    response = director_client.patch(f"/api/v1/tournaments/{t.slug}/", {field: None},
                                     format="json")  # fmt: skip
    assert response.status_code == 400 and codes(response) == ["null"]
    t.refresh_from_db()
    assert getattr(t, field)


@pytest.mark.parametrize(
    ("url", "body", "path"),
    [
        ("", {"base": 2_000_000_000}, "base"),
        ("", {"bye_table_score": 10**12}, "bye_table_score"),
        ("players/", {"name": "New", "seed_rating": 10**12}, "seed_rating"),
        ("players/", {"name": "New", "pinned_table": 10**6}, "pinned_table"),
    ],
)
def test_numbers_beyond_any_tournament_are_refused(make_tournament, director_client, url, body,
                                                   path):  # fmt: skip
    t = make_tournament(players=4)
    send = director_client.post if url else director_client.patch
    response = send(f"/api/v1/tournaments/{t.slug}/{url}", body, format="json")
    assert response.status_code == 400
    assert [(e["path"], e["code"]) for e in response.json()["errors"]] == [(path, "max_value")]
    assert t.registrations.count() == 4


# --- item 23: an entrant named by id is one the organiser may see --------------------------


def test_a_hidden_player_is_entered_as_one_that_does_not_exist(make_tournament, director_client):
    t = make_tournament(players=4)
    private = ClubFactory(visibility="members", slug="private")
    hidden = MembershipFactory(club=private, player=PlayerFactory(name="Hidden Name")).player
    for who in (hidden.pk, hidden.pk + 1000):
        response = director_client.post(f"/api/v1/tournaments/{t.slug}/players/",
                                        {"player": who}, format="json")  # fmt: skip
        assert response.status_code == 400
        assert [(e["path"], e["code"]) for e in response.json()["errors"]] == [
            ("player", "does_not_exist")
        ]
    assert t.registrations.count() == 4


def test_a_player_of_a_tournament_one_sees_may_be_entered(make_tournament, director_client):
    """Players entered by name belong to no club; they are seen through the tournament, and
    may be entered in the next one by id."""
    first = make_tournament(players=4)
    second = make_tournament(players=0, slug="second")
    entrant = first.registrations.order_by("pk").first().player
    response = director_client.post(f"/api/v1/tournaments/{second.slug}/players/",
                                    {"player": entrant.pk}, format="json")  # fmt: skip
    assert response.status_code == 201, response.json()
    assert second.registrations.get().player == entrant
