"""Table sessions through the API: opening one, filters and pages, totals recomputed from
payments, closing and reopening, final-result entry, corrections with history, refused hands,
and 叫马 bettors."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from clubs.models import (
    Bettor,
    Hand,
    HandRevision,
    Payment,
    Player,
    Role,
    Seat,
    SessionResult,
    TableSession,
)
from clubs.serializers import HandOutSerializer, PlayerOutSerializer, SessionOutSerializer
from clubs.services.hands import hand_record
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, TableSessionFactory
from tests.clubs.records import PINGHU, SELFDRAW, XUEZHAN
from tests.helpers import assert_shape, client_for, db_state, login, member_login

pytestmark = pytest.mark.django_db

SHANGHAI = ZoneInfo("Asia/Shanghai")


def at(day: int, hour: int = 20) -> datetime:
    return datetime(2025, 3, day, hour, tzinfo=SHANGHAI)


@pytest.fixture
def club():
    return ClubFactory(base=2)


@pytest.fixture
def organiser(club):
    return client_for(member_login(club, Role.ORGANISER, "organiser"))


@pytest.fixture
def scorer(club):
    return client_for(member_login(club, Role.SCORER, "scorer"))


@pytest.fixture
def members(club):
    return [MembershipFactory(club=club).player for _ in range(5)]


@pytest.fixture
def session(club, members):
    return TableSessionFactory(club=club, seated=members[:4])


def hands_url(session, suffix=""):
    return f"/api/v1/sessions/{session.pk}/hands/{suffix}"


def totals_of(client, session) -> dict[int, int]:
    data = client.get(f"/api/v1/sessions/{session.pk}/").json()["totals"]
    return {t["id"]: t["total"] for t in data["players"]}


def codes(json_errors, response) -> set[tuple[str, str]]:
    return {(e["path"], e["code"]) for e in json_errors(response)}


# --- opening a session ----------------------------------------------------------------------


def test_open_a_session_with_four_members_and_bettors(club, organiser, members):
    # a bettor may be a player of another (public) club
    guest_player = MembershipFactory(club=ClubFactory(), player=PlayerFactory(name="Backer")).player
    body = {
        "players": [p.pk for p in members[:4]],
        "started_at": "2025-03-01T20:00:00+08:00",
        "bettors": [{"player": guest_player.pk}, {"guest_name": "老王"}],
        "notes": "Friday table",
    }
    response = organiser.post(f"/api/v1/clubs/{club.slug}/sessions/", body, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert [(s["seat"], s["player"]["id"]) for s in data["seats"]] == [
        (n, p.pk) for n, p in enumerate(members[:4])
    ]
    assert [(b["name"], b["player"]) for b in data["bettors"]] == [
        ("Backer", guest_player.pk),
        ("老王", None),
    ]
    assert data["status"] == "open" and data["base"] == 2  # the club's base
    assert data["ruleset"]["fingerprint"] == club.ruleset.fingerprint
    assert [t["total"] for t in data["totals"]["players"]] == [0, 0, 0, 0]
    session = TableSession.objects.get(pk=data["id"])
    assert session.created_by.username == "organiser"
    assert session.started_at == at(1)


def test_a_session_can_play_its_own_rules_and_base(club, organiser, members):
    body = {"players": [p.pk for p in members[:4]], "ruleset": "xuezhan9", "base": 5,
            "mode": "single"}  # fmt: skip
    response = organiser.post(f"/api/v1/clubs/{club.slug}/sessions/", body, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert (data["ruleset"]["preset"], data["base"], data["mode"]) == ("xuezhan9", 5, "single")


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (lambda m, o: [m[0], m[1], m[2]], {("players", "four_players")}),
        (lambda m, o: [m[0], m[1], m[2], m[3], m[4]], {("players", "four_players")}),
        (lambda m, o: [m[0], m[1], m[2], m[2]], {("players", "four_players")}),
        (lambda m, o: [m[0], m[1], o, m[3]], {("players[2]", "not_a_member")}),
    ],
    ids=["three", "five", "one-twice", "not-a-member"],
)
def test_a_table_seats_four_different_members(club, organiser, members, players, expected,
                                              json_errors):  # fmt: skip
    outsider = MembershipFactory(club=ClubFactory()).player  # a player of another public club
    ids = [p.pk for p in players(members, outsider)]
    before = db_state()
    response = organiser.post(f"/api/v1/clubs/{club.slug}/sessions/", {"players": ids},
                              format="json")  # fmt: skip
    assert response.status_code == 400
    assert codes(json_errors, response) == expected
    assert db_state() == before


@pytest.mark.parametrize(
    "bettors",
    [[{"guest_name": "老王"}, {"guest_name": "老王"}], [{}], [{"player": 999999}]],
    ids=["same-name-twice", "nameless", "no-such-player"],
)
def test_bad_bettors_open_nothing(club, organiser, members, bettors, json_errors):
    before = db_state()
    body = {"players": [p.pk for p in members[:4]], "bettors": bettors}
    response = organiser.post(f"/api/v1/clubs/{club.slug}/sessions/", body, format="json")
    assert response.status_code == 400
    assert json_errors(response)[0]["path"].startswith("bettors")
    assert db_state() == before


def test_a_bad_ruleset_opens_nothing(club, organiser, members, json_errors):
    before = db_state()
    body = {"players": [p.pk for p in members[:4]], "ruleset": "no-such-rules"}
    response = organiser.post(f"/api/v1/clubs/{club.slug}/sessions/", body, format="json")
    assert response.status_code == 400
    assert json_errors(response)[0]["path"].startswith("ruleset")
    assert db_state() == before


# --- filters and pages ----------------------------------------------------------------------


@pytest.fixture
def calendar(club, members):
    """Four sessions on 1, 2, 3 and 5 March; the one on the 3rd is closed; ``members[4]`` sits
    at the 2nd and the 5th only."""
    a, b, c, d, e = members
    return {
        1: TableSessionFactory(club=club, started_at=at(1), seated=[a, b, c, d]),
        2: TableSessionFactory(club=club, started_at=at(2), seated=[e, b, c, d]),
        3: TableSessionFactory(
            club=club, started_at=at(3, 23), seated=[a, b, c, d], status=TableSession.Status.CLOSED
        ),  # fmt: skip
        5: TableSessionFactory(club=club, started_at=at(5, 1), seated=[a, b, c, e]),
    }


@pytest.mark.parametrize(
    ("query", "days"),
    [
        ("", [5, 3, 2, 1]),
        ("date_from=2025-03-02", [5, 3, 2]),
        ("date_to=2025-03-03", [3, 2, 1]),
        ("date_from=2025-03-02&date_to=2025-03-03", [3, 2]),
        ("date_from=2025-03-04&date_to=2025-03-04", []),
        ("started_after=2025-03-03T22:00:00%2B08:00", [5, 3]),
        ("started_before=2025-03-02T20:00:00%2B08:00", [2, 1]),
        ("status=closed", [3]),
        ("status=open", [5, 2, 1]),
        ("player={e}", [5, 2]),
        ("player={e}&status=open&date_to=2025-03-04", [2]),
    ],
)
def test_filter_sessions(club, calendar, members, query, days):
    client = client_for(None)  # a public club: anyone may read
    url = f"/api/v1/clubs/{club.slug}/sessions/?" + query.format(e=members[4].pk)
    response = client.get(url)
    assert response.status_code == 200, response.json()
    assert [s["id"] for s in response.json()["results"]] == [calendar[d].pk for d in days]


@pytest.mark.parametrize(
    "query", ["date_from=yesterday", "status=finished", "player=abc", "started_after=3pm"]
)
def test_a_bad_filter_is_a_400(club, calendar, query, json_errors):
    response = client_for(None).get(f"/api/v1/clubs/{club.slug}/sessions/?{query}")
    assert response.status_code == 400
    assert json_errors(response)[0]["path"] == query.split("=")[0]


@pytest.mark.parametrize(
    "query",
    [
        "date_to=9999-12-31",
        "date_from=0001-01-01",
        # no UTC for these: the filter made the database adapter overflow (a 500)
        "started_before=9999-12-31T23:59:59-14:00",
        "started_after=0001-01-01T00:00:00%2B14:00",
    ],
)
def test_a_filter_date_beyond_1900_to_2200_is_a_400(club, calendar, query, json_errors):
    response = client_for(None).get(f"/api/v1/clubs/{club.slug}/sessions/?{query}")
    assert response.status_code == 400
    [error] = json_errors(response)
    assert (error["path"], error["code"]) == (query.split("=")[0], "out_of_range")


def test_sessions_come_in_pages(club, calendar):
    client = client_for(None)
    first = client.get(f"/api/v1/clubs/{club.slug}/sessions/?page_size=3").json()
    assert first["count"] == 4 and len(first["results"]) == 3 and first["next"]
    second = client.get(first["next"]).json()
    assert [s["id"] for s in second["results"]] == [calendar[1].pk]
    assert second["next"] is None


@pytest.mark.parametrize(
    "url",
    ["/api/v1/clubs/{slug}/members/", "/api/v1/clubs/{slug}/players/", "/api/v1/clubs/",
     "/api/v1/sessions/{session}/hands/", "/api/v1/sessions/{session}/hands/1/history/"],
)  # fmt: skip
def test_every_list_is_paginated(club, session, organiser, url):
    hand_record(session=session, data=PINGHU, user=None)
    url = url.format(slug=club.slug, session=session.pk)
    data = organiser.get(url + "?page_size=1").json()
    assert set(data) >= {"count", "next", "previous", "results"}
    assert len(data["results"]) == 1


# --- totals ---------------------------------------------------------------------------------


def test_totals_are_recomputed_from_live_payments(session, scorer, members):
    a, b, c, d = members[:4]
    assert scorer.post(hands_url(session), PINGHU, format="json").status_code == 201
    assert scorer.post(hands_url(session), SELFDRAW, format="json").status_code == 201
    assert totals_of(scorer, session) == {a.pk: -1, b.pk: 4, c.pk: -2, d.pk: -1}
    scorer.put(hands_url(session, "1/"), SELFDRAW, format="json")  # now two self-draws
    assert totals_of(scorer, session) == {a.pk: -2, b.pk: 6, c.pk: -2, d.pk: -2}
    scorer.delete(hands_url(session, "2/?reason=entered twice"))
    assert totals_of(scorer, session) == {a.pk: -1, b.pk: 3, c.pk: -1, d.pk: -1}
    listed = scorer.get(f"/api/v1/clubs/{session.club.slug}/sessions/").json()["results"]
    assert {t["id"]: t["total"] for t in listed[0]["totals"]["players"]} == totals_of(
        scorer, session
    )


def test_a_players_page_has_his_sessions_and_running_totals(club, members, scorer):
    a, b, c, d, e = members
    first = TableSessionFactory(club=club, started_at=at(1), seated=[a, b, c, d])
    second = TableSessionFactory(club=club, started_at=at(2), seated=[d, b, a, e])
    third = TableSessionFactory(club=club, started_at=at(3), seated=[b, a, d, e])
    hand_record(session=first, data=SELFDRAW, user=None)  # b +3
    hand_record(session=second, data=PINGHU, user=None)  # b +1, a -1
    results = {"totals": [{"player": b.pk, "total": -10}, {"player": a.pk, "total": 4},
                          {"player": d.pk, "total": 3}, {"player": e.pk, "total": 3}]}  # fmt: skip
    assert scorer.post(f"/api/v1/sessions/{third.pk}/result/", results,
                       format="json").status_code == 200  # fmt: skip
    page = client_for(None).get(f"/api/v1/players/{b.pk}/").json()
    assert [(s["id"], s["total"], s["running_total"]) for s in page["sessions"]] == [
        (first.pk, 3, 3),
        (second.pk, 1, 4),
        (third.pk, -10, -6),
    ]
    assert page["total"] == -6
    assert page["clubs"] == [
        {"slug": club.slug, "name": club.name, "display_name": "", "role": "member"}
    ]
    assert_shape(page, PlayerOutSerializer())
    session_page = client_for(None).get(f"/api/v1/sessions/{first.pk}/").json()
    assert_shape(session_page, SessionOutSerializer())
    hands = client_for(None).get(f"/api/v1/sessions/{first.pk}/hands/").json()["results"]
    assert_shape(hands, HandOutSerializer(many=True))


def test_a_bettors_winnings_count_in_his_running_total(club, members, scorer):
    """e stands behind the first table as a 叫马 bettor with 6s: counting from the dealer S0,
    6 is S1 (b), so when a (S2) pays b 1 for 平胡, a also pays e 1. On the second table e sits
    at S1 and wins the same hand himself: +1. His page adds both: 1, then 2."""
    a, b, c, d, e = members
    first = TableSessionFactory(club=club, started_at=at(1), seated=[d, b, a, c])
    Bettor.objects.create(session=first, player=e)
    second = TableSessionFactory(club=club, started_at=at(2), seated=[a, e, b, c])
    hand_record(session=first, data={**PINGHU, "bettors": [{"name": e.name, "tile": "6s"}]},
                user=None)  # fmt: skip
    hand_record(session=second, data=PINGHU, user=None)
    page = client_for(None).get(f"/api/v1/players/{e.pk}/").json()
    assert [(s["id"], s["total"], s["running_total"]) for s in page["sessions"]] == [
        (first.pk, 1, 1),
        (second.pk, 1, 2),
    ]


# --- closing and reopening ------------------------------------------------------------------


def test_a_closed_session_refuses_changes_until_an_organiser_reopens_it(
    session, scorer, organiser, json_errors
):
    empty = TableSessionFactory(club=session.club, seated=[s.player for s in session.seats.all()])
    scorer.post(hands_url(session), PINGHU, format="json")
    for s in (session, empty):
        closed = scorer.post(f"/api/v1/sessions/{s.pk}/close/")
        assert closed.status_code == 200 and closed.json()["status"] == "closed"
        assert closed.json()["closed_at"]
    results = {"totals": [{"player": s.player_id, "total": 0} for s in empty.seats.all()]}
    before = db_state()
    refused = [
        scorer.post(hands_url(session), PINGHU, format="json"),
        scorer.put(hands_url(session, "1/"), SELFDRAW, format="json"),
        scorer.patch(hands_url(session, "1/"), {"dealer": 1}, format="json"),
        scorer.delete(hands_url(session, "1/?reason=oops")),
        scorer.post(f"/api/v1/sessions/{empty.pk}/result/", results, format="json"),
        scorer.put(f"/api/v1/sessions/{empty.pk}/result/", results, format="json"),
        organiser.patch(f"/api/v1/sessions/{session.pk}/", {"notes": "late"}, format="json"),
    ]
    for response in refused:
        assert response.status_code == 409, response.json()
        assert [e["code"] for e in json_errors(response)] == ["session_closed"]
    assert scorer.post(f"/api/v1/sessions/{session.pk}/reopen/").status_code == 403
    assert db_state() == before
    reopened = organiser.post(f"/api/v1/sessions/{session.pk}/reopen/")
    assert reopened.status_code == 200
    assert reopened.json()["status"] == "open" and reopened.json()["closed_at"] is None
    assert scorer.post(hands_url(session), PINGHU, format="json").status_code == 201
    assert scorer.delete(hands_url(session, "1/?reason=oops")).status_code == 200


def test_a_seated_player_cannot_also_bet_on_his_table(club, organiser, members, json_errors):
    """叫马 is for people beyond the four: a seated player already wins what his seat wins."""
    before = db_state()
    body = {"players": [m.pk for m in members[:4]], "bettors": [{"player": members[0].pk}]}
    response = organiser.post(f"/api/v1/clubs/{club.slug}/sessions/", body, format="json")
    assert response.status_code == 400
    assert codes(json_errors, response) == {("bettors[0].player", "bettor_is_seated")}
    assert db_state() == before


def test_date_filters_use_the_clubs_time_zone(members, organiser, club):
    """A session started at 01:00 on 5 March in Shanghai is on the 4th in UTC; a club in
    Shanghai finds it on the 5th, a club keeping UTC on the 4th."""
    started = at(5, 1)
    TableSessionFactory(club=club, started_at=started, seated=members[:4])
    url = f"/api/v1/clubs/{club.slug}/sessions/?date_from=2025-03-05&date_to=2025-03-05"
    assert organiser.get(url).json()["count"] == 1
    club.time_zone = "UTC"
    club.save()
    assert organiser.get(url).json()["count"] == 0
    url = url.replace("2025-03-05", "2025-03-04")
    assert organiser.get(url).json()["count"] == 1


# --- final-result entry ---------------------------------------------------------------------


@pytest.fixture
def betting_session(club, members):
    session = TableSessionFactory(club=club, seated=members[:4])
    Bettor.objects.create(session=session, guest_name="老王")
    Bettor.objects.create(session=session, player=members[4])
    return session


def result_body(session, player_totals, bettor_totals=()):
    seats = [s.player_id for s in session.seats.all()]
    bettors = [b.pk for b in session.bettors.all()]
    return {
        "totals": [{"player": p, "total": t} for p, t in zip(seats, player_totals, strict=True)]
        + [{"bettor": b, "total": t} for b, t in zip(bettors, bettor_totals, strict=False)]
    }


def test_final_results_with_bettors(betting_session, scorer):
    body = result_body(betting_session, [10, -4, -3, -5], [4, -2])
    response = scorer.post(f"/api/v1/sessions/{betting_session.pk}/result/", body, format="json")
    assert response.status_code == 200, response.json()
    totals = response.json()["totals"]
    assert [t["total"] for t in totals["players"]] == [10, -4, -3, -5]
    assert [(t["name"], t["total"]) for t in totals["bettors"]] == [
        ("老王", 4),
        (betting_session.bettors.last().name, -2),
    ]
    assert scorer.get(f"/api/v1/sessions/{betting_session.pk}/result/").json() == response.json()
    # entering them again replaces them, it does not add to them
    body = result_body(betting_session, [1, 1, -1, -1])
    again = scorer.put(f"/api/v1/sessions/{betting_session.pk}/result/", body, format="json")
    assert again.status_code == 200
    assert [t["total"] for t in again.json()["totals"]["players"]] == [1, 1, -1, -1]
    assert [t["total"] for t in again.json()["totals"]["bettors"]] == [0, 0]
    assert SessionResult.objects.filter(session=betting_session).count() == 4


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda t, o: t.__setitem__(0, {**t[0], "total": 11}), {("totals", "not_zero_sum")}),
        (lambda t, o: t.__setitem__(4, {**t[4], "total": 4}), {("totals", "not_zero_sum")}),
        (lambda t, o: t.pop(3), {("totals", "missing_players")}),
        (lambda t, o: t.append({**t[0], "total": 0}), {("totals[6].player", "duplicate")}),
        (lambda t, o: t.append({"bettor": o["bettor"], "total": 0}),
         {("totals[6].bettor", "duplicate")}),
        (lambda t, o: t.append({"player": o["stranger"], "total": 0}),
         {("totals[6].player", "not_seated")}),
        (lambda t, o: t.append({"bettor": 999999, "total": 0}),
         {("totals[6].bettor", "unknown_bettor")}),
        (lambda t, o: t.append({"total": 0}), {("totals[6]", "player_or_bettor")}),
        (lambda t, o: t.append({"player": o["player"], "bettor": o["bettor"], "total": 0}),
         {("totals[6]", "player_or_bettor")}),
        (lambda t, o: t.__setitem__(0, {"player": t[0]["player"]}), {("totals[0].total",
                                                                      "required")}),
    ],
    ids=["not-zero", "bettor-breaks-zero", "player-missing", "player-twice", "bettor-twice",
         "not-seated", "no-such-bettor", "nobody", "both", "no-total"],
)  # fmt: skip
def test_refused_final_results_store_nothing(betting_session, scorer, members, change, expected,
                                             json_errors):  # fmt: skip
    body = result_body(betting_session, [10, -4, -3, -5], [3, -1])
    others = {
        "bettor": body["totals"][4]["bettor"],
        "player": body["totals"][0]["player"],
        "stranger": PlayerFactory().pk,
    }
    change(body["totals"], others)
    before = db_state()
    response = scorer.post(f"/api/v1/sessions/{betting_session.pk}/result/", body, format="json")
    assert response.status_code == 400
    assert codes(json_errors, response) == expected
    assert db_state() == before


def test_results_and_hands_exclude_each_other(session, scorer, json_errors):
    other = TableSessionFactory(club=session.club, seated=[s.player for s in session.seats.all()])
    scorer.post(hands_url(session), PINGHU, format="json")
    before = db_state()
    response = scorer.post(f"/api/v1/sessions/{session.pk}/result/",
                           result_body(session, [1, -1, 0, 0]), format="json")  # fmt: skip
    assert response.status_code == 409
    assert [e["code"] for e in json_errors(response)] == ["session_has_hands"]
    assert db_state() == before

    scorer.post(f"/api/v1/sessions/{other.pk}/result/", result_body(other, [1, -1, 0, 0]),
                format="json")  # fmt: skip
    before = db_state()
    response = scorer.post(hands_url(other), PINGHU, format="json")
    assert response.status_code == 409
    assert [e["code"] for e in json_errors(response)] == ["session_has_results"]
    assert db_state() == before


def test_a_session_whose_hands_were_all_deleted_may_take_results(session, scorer):
    scorer.post(hands_url(session), PINGHU, format="json")
    scorer.delete(hands_url(session, "1/?reason=wrong table"))
    response = scorer.post(f"/api/v1/sessions/{session.pk}/result/",
                           result_body(session, [1, -1, 0, 0]), format="json")  # fmt: skip
    assert response.status_code == 200


# --- hands: numbers, corrections, refusals, bettors -----------------------------------------


def test_a_hand_number_is_taken_once(session, scorer, json_errors):
    first = scorer.post(hands_url(session), {**PINGHU, "number": 3}, format="json")
    assert first.status_code == 201 and first.json()["number"] == 3
    assert first.json()["next_dealer"] == first.json()["settlement"]["next_dealer"]
    before = db_state()
    again = scorer.post(hands_url(session), {**PINGHU, "number": 3}, format="json")
    assert again.status_code == 409
    assert [e["code"] for e in json_errors(again)] == ["hand_exists"]
    assert db_state() == before
    assert scorer.post(hands_url(session), PINGHU, format="json").json()["number"] == 4


def test_a_deleted_hands_number_is_never_used_again(session, scorer, json_errors):
    """Hand 2 is deleted: its number stays its own. Posting number 2 again is refused, the
    next hand is 3 (not 2), and hand 2's history — created, then deleted — stays reachable."""
    for _ in range(2):
        assert scorer.post(hands_url(session), PINGHU, format="json").status_code == 201
    assert scorer.delete(hands_url(session, "2/?reason=entered twice")).status_code == 200
    again = scorer.post(hands_url(session), {**PINGHU, "number": 2}, format="json")
    assert again.status_code == 409
    assert [e["code"] for e in json_errors(again)] == ["hand_exists"]
    assert scorer.post(hands_url(session), PINGHU, format="json").json()["number"] == 3
    history = scorer.get(hands_url(session, "2/history/")).json()["results"]
    assert [h["action"] for h in history] == ["created", "deleted"]


def test_corrections_keep_every_revision(session, club):
    first_scorer, second_scorer = (login("first"), login("second"))
    for user in (first_scorer, second_scorer):
        MembershipFactory(club=club, player=PlayerFactory(user=user), role=Role.SCORER)
    one, two = client_for(first_scorer), client_for(second_scorer)
    one.post(hands_url(session), PINGHU, format="json")
    response = two.patch(hands_url(session, "1/"), {"dealer": 3, "reason": "庄 was S3"},
                         format="json")  # fmt: skip
    assert response.status_code == 200, response.json()
    assert response.json()["revision"] == 2 and response.json()["dealer"] == 3
    assert response.json()["entered_by"] == "first"  # who entered it does not change
    one.put(hands_url(session, "1/"), {**SELFDRAW, "reason": "自摸, not 点炮"}, format="json")
    two.delete(hands_url(session, "1/?reason=wrong table"))

    history = one.get(hands_url(session, "1/history/")).json()["results"]
    assert [
        (h["revision"], h["action"], h["changed_by"], h["changes"], h["reason"]) for h in history
    ] == [
        (1, "created", "first", ["base", "dealer", "draw", "events", "mode", "ruleset"], ""),
        (2, "corrected", "second", ["dealer"], "庄 was S3"),
        (3, "corrected", "first", ["dealer", "events"], "自摸, not 点炮"),
        (4, "deleted", "second", [], "wrong table"),
    ]
    assert all(h["changed_at"] for h in history)
    assert history[0]["changed_at"] <= history[3]["changed_at"]
    assert history[0]["record"]["events"] == PINGHU["events"]
    assert history[2]["record"]["events"] == SELFDRAW["events"]
    assert [len(h["settlement"]["payments"]) for h in history] == [1, 1, 3, 3]
    assert HandRevision.objects.count() == 4


def test_a_correction_keeps_the_hand_number(session, scorer, json_errors):
    scorer.post(hands_url(session), PINGHU, format="json")
    before = db_state()
    response = scorer.put(hands_url(session, "1/"), {**PINGHU, "number": 2}, format="json")
    assert response.status_code == 400
    assert codes(json_errors, response) == {("number", "number_is_fixed")}
    assert db_state() == before


def test_a_refused_hand_lists_every_error_and_stores_nothing(session, scorer, json_errors):
    bad = {
        **PINGHU,
        "base": 7,
        "colour": "red",
        "events": [{**PINGHU["events"][0], "from": 1}],
        "bettors": [{"name": "nobody", "tile": "2p"}],
    }
    before = db_state()
    response = scorer.post(hands_url(session), bad, format="json")
    assert response.status_code == 400
    assert codes(json_errors, response) == {
        ("base", "differs_from_session"),
        ("colour", "unknown_field"),
        ("bettors[0].name", "unknown_bettor"),
        ("events[0].from", "discarder_is_winner"),
    }
    assert db_state() == before
    assert not Hand.objects.exists() and not Payment.objects.exists()


def test_a_refused_correction_changes_nothing(session, scorer, json_errors):
    scorer.post(hands_url(session), PINGHU, format="json")
    before = db_state()
    bad = {**PINGHU, "events": [{**PINGHU["events"][0], "from": 1}]}
    response = scorer.put(hands_url(session, "1/"), bad, format="json")
    assert response.status_code == 400
    assert ("events[0].from", "discarder_is_winner") in codes(json_errors, response)
    assert db_state() == before


def test_a_hand_with_a_bettor_stores_bettor_payments(betting_session, scorer, members):
    # 老王 drew a 2: counting from the dealer (S0), he bets on S1, the winner
    body = {**PINGHU, "bettors": [{"name": "老王", "tile": "2p"}]}
    response = scorer.post(hands_url(betting_session), body, format="json")
    assert response.status_code == 201, response.json()
    wang = betting_session.bettors.get(guest_name="老王")
    s1, s2 = members[1], members[2]
    assert [(p["payer"], p["payee"], p["amount"], p["reason"])
            for p in response.json()["payments"]] == [
        ({"kind": "player", "id": s2.pk, "name": s2.name},
         {"kind": "player", "id": s1.pk, "name": s1.name}, 1, "win"),
        ({"kind": "player", "id": s2.pk, "name": s2.name},
         {"kind": "bettor", "id": wang.pk, "name": "老王"}, 1, "bettor"),
    ]  # fmt: skip
    assert Payment.objects.filter(payee_bettor=wang).count() == 1
    detail = scorer.get(f"/api/v1/sessions/{betting_session.pk}/").json()
    assert {b["name"]: b["total"] for b in detail["totals"]["bettors"]} == {
        "老王": 1,
        members[4].name: 0,
    }
    assert {t["id"]: t["total"] for t in detail["totals"]["players"]}[s2.pk] == -2


def test_a_bettor_who_is_a_player_bets_by_his_name(betting_session, scorer, members):
    backer = members[4]
    body = {**PINGHU, "bettors": [{"name": backer.name, "tile": "3s"}]}  # 3: bets on S2
    response = scorer.post(hands_url(betting_session), body, format="json")
    assert response.status_code == 201, response.json()
    bettor = betting_session.bettors.get(player=backer)
    assert Payment.objects.filter(payer_bettor=bettor).count() == 1
    # his bets are a bettor's, not a seat's
    assert not Seat.objects.filter(player=backer, session=betting_session).exists()


def test_a_bettor_must_be_one_of_the_sessions(session, scorer, json_errors):
    body = {**PINGHU, "bettors": [{"name": "老王", "tile": "2p"}]}
    response = scorer.post(hands_url(session), body, format="json")
    assert response.status_code == 400
    assert codes(json_errors, response) == {("bettors[0].name", "unknown_bettor")}
    assert not Hand.objects.exists()


def test_deleting_a_club_takes_its_sessions_hands_and_bettor_payments(betting_session, members):
    owner = client_for(member_login(betting_session.club, Role.OWNER))
    body = {**PINGHU, "bettors": [{"name": "老王", "tile": "2p"}]}
    hand_record(session=betting_session, data=body, user=None)
    assert Payment.objects.filter(payee_bettor__isnull=False).exists()
    response = owner.delete(f"/api/v1/clubs/{betting_session.club.slug}/")
    assert response.status_code == 204
    assert not TableSession.objects.exists() and not Hand.objects.exists()
    assert not Payment.objects.exists() and not Bettor.objects.exists()
    assert Player.objects.filter(pk__in=[p.pk for p in members]).count() == 5  # players stay


# --- what a request may not say, and what may be corrected ---------------------------------


def test_a_field_a_session_does_not_have_is_refused(club, organiser, members, json_errors):
    """A misspelt ``rulset`` used to open the table under the club's default rules (and every
    hand was scored under them); misspelt fields are refused, at any depth, nothing opened."""
    players = [p.pk for p in members[:4]]
    url = f"/api/v1/clubs/{club.slug}/sessions/"
    before = db_state()
    r = organiser.post(url, {"players": players, "rulset": "xuezhan9"}, format="json")
    assert r.status_code == 400 and codes(json_errors, r) == {("rulset", "unknown_field")}
    r = organiser.post(url, {"players": players, "bettors": [{"gust_name": "老王"}]},
                       format="json")  # fmt: skip
    assert codes(json_errors, r) == {("bettors[0].gust_name", "unknown_field")}
    assert db_state() == before


def test_a_patch_names_the_field_it_cannot_change(session, organiser, json_errors):
    """PATCH answered 200 and changed nothing for a field it does not know."""
    r = organiser.patch(f"/api/v1/sessions/{session.pk}/", {"colour": "red"}, format="json")
    assert r.status_code == 400 and codes(json_errors, r) == {("colour", "unknown_field")}


def test_the_table_is_corrected_while_nothing_was_played(session, organiser, members, scorer,
                                                         json_errors):  # fmt: skip
    """Before the first hand the organiser may reseat the table, stand a bettor behind it and
    fix its base and mode; once a hand is recorded those are what it was settled with."""
    url = f"/api/v1/sessions/{session.pk}/"
    reseated = [members[4].pk, members[0].pk, members[1].pk, members[2].pk]
    r = organiser.patch(url, {"players": reseated, "bettors": [{"guest_name": "老王"}],
                              "base": 5, "mode": "xuezhan"}, format="json")  # fmt: skip
    assert r.status_code == 200, r.json()
    body = r.json()
    assert [s["player"]["id"] for s in body["seats"]] == reseated
    assert [b["name"] for b in body["bettors"]] == ["老王"]
    assert (body["base"], body["mode"]) == (5, "xuezhan")
    assert scorer.post(hands_url(session), XUEZHAN, format="json").status_code == 201
    r = organiser.patch(url, {"base": 1}, format="json")
    assert r.status_code == 409 and codes(json_errors, r) == {("", "session_has_hands")}
    assert organiser.patch(url, {"notes": "晚场"}, format="json").status_code == 200


def test_the_player_filter_finds_the_tables_he_bet_on(club, members, organiser):
    """``?player=`` lists the sessions a player sat in and those he stood behind (叫马)."""
    sat = TableSessionFactory(club=club, seated=members[:4])
    bet = TableSessionFactory(club=club, seated=members[1:5])
    Bettor.objects.create(session=bet, player=members[0])
    TableSessionFactory(club=club, seated=members[1:5])  # neither
    r = organiser.get(f"/api/v1/clubs/{club.slug}/sessions/?player={members[0].pk}")
    assert sorted(s["id"] for s in r.json()["results"]) == sorted([sat.pk, bet.pk])
