"""Values a club's data cannot hold are refused where they are entered, not stored to break
every later read (issue "Integrity", item 18); a player is named by id only by someone who may
see him (item 23)."""

from __future__ import annotations

import pytest

from clubs.models import Club, Hand, Membership, Role, TableSession
from clubs.services.hands import hand_record
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, TableSessionFactory
from tests.clubs.records import PINGHU
from tests.helpers import client_for, db_state, member_login

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return ClubFactory(slug="home")


@pytest.fixture
def organiser(club):
    return client_for(member_login(club, Role.ORGANISER, "organiser"))


@pytest.fixture
def members(club):
    return [MembershipFactory(club=club).player for _ in range(4)]


def refused(response, path: str, code: str) -> None:
    assert response.status_code == 400, response.content
    assert (path, code) in {(e["path"], e["code"]) for e in response.json()["errors"]}


# --- item 18: numbers, time zones, dates, reasons ------------------------------------------


def test_a_stake_of_two_thousand_million_is_refused_not_stored(club, organiser, members):
    """Base 2,000,000,000 was accepted, then every hand of the session failed: a payment
    (base × 2^fan) overflows what a database integer holds. RULES §5 bounds base at 10,000."""
    before = db_state()
    body = {"players": [p.pk for p in members], "base": 2_000_000_000}
    refused(organiser.post("/api/v1/clubs/home/sessions/", body, format="json"), "base",
            "max_value")  # fmt: skip
    refused(organiser.patch("/api/v1/clubs/home/", {"base": 10_001}, format="json"), "base",
            "max_value")  # fmt: skip
    assert db_state() == before
    # the bound itself is a stake a club may play
    body["base"] = 10_000
    assert organiser.post("/api/v1/clubs/home/sessions/", body, format="json").status_code == 201


def test_an_unknown_time_zone_is_refused_and_the_club_keeps_its_own(club, organiser):
    """An invalid time zone was stored, and then the club's session list was a 500 for
    everyone."""
    refused(organiser.patch("/api/v1/clubs/home/", {"time_zone": "Mars/Olympus"}, format="json"),
            "time_zone", "invalid_time_zone")  # fmt: skip
    assert Club.objects.get(pk=club.pk).time_zone == club.time_zone
    assert organiser.get("/api/v1/clubs/home/sessions/").status_code == 200
    ok = organiser.patch("/api/v1/clubs/home/", {"time_zone": "Asia/Chongqing"}, format="json")
    assert ok.status_code == 200 and ok.json()["time_zone"] == "Asia/Chongqing"


@pytest.mark.parametrize("when", ["0296-03-01T20:00:00+08:00", "9999-12-31T23:00:00+08:00"])
def test_a_start_time_centuries_away_is_refused(club, organiser, members, when):
    """Year 296 was stored and shown with the offset Shanghai had before time zones
    (+08:05:43)."""
    body = {"players": [p.pk for p in members], "started_at": when}
    refused(organiser.post("/api/v1/clubs/home/sessions/", body, format="json"), "started_at",
            "out_of_range")  # fmt: skip
    assert not TableSession.objects.exists()


def test_a_hand_number_or_a_total_beyond_any_table_is_refused(club, organiser, members):
    session = TableSessionFactory(club=club, seated=members)
    before = db_state()
    hand = {**PINGHU, "number": 10**12}
    refused(organiser.post(f"/api/v1/sessions/{session.pk}/hands/", hand, format="json"),
            "number", "invalid_number")  # fmt: skip
    totals = [
        {"player": p.pk, "total": t}
        for p, t in zip(members, [10**15, 0, 0, -(10**15)], strict=True)
    ]
    refused(organiser.post(f"/api/v1/sessions/{session.pk}/result/", {"totals": totals},
                           format="json"), "totals[0].total", "max_value")  # fmt: skip
    assert db_state() == before


@pytest.mark.parametrize(
    ("reason", "code"),
    [(5, "reason_required"), (["wrong"], "reason_required"), ("x" * 201, "too_long")],
    ids=["number", "list", "201-characters"],
)
def test_a_hand_is_deleted_only_for_a_reason_in_words(club, organiser, members, reason, code):
    """A non-string reason was a 500; one over the 200 characters a revision keeps failed in
    PostgreSQL."""
    session = TableSessionFactory(club=club, seated=members)
    hand_record(session=session, data=PINGHU, user=None)
    url = f"/api/v1/sessions/{session.pk}/hands/1/"
    refused(organiser.delete(url, {"reason": reason}, format="json"), "reason", code)
    refused(organiser.patch(url, {**PINGHU, "reason": reason}, format="json"), "reason", code)
    assert Hand.objects.get(session=session).revision == 1
    assert not Hand.objects.get(session=session).is_deleted


# --- item 23: a player is named only by someone who may see him ----------------------------


@pytest.fixture
def hidden():
    """A player of a members-only club the organiser is not in."""
    private = ClubFactory(visibility=Club.Visibility.MEMBERS, slug="private")
    return MembershipFactory(club=private, player=PlayerFactory(name="Hidden Name")).player


def answers(response) -> tuple[int, list[tuple[str, str]]]:
    """What a caller learns from an answer: its status, and where and what the problems are
    (the message says the id, which the caller gave)."""
    errors = response.json()["errors"]
    return response.status_code, [(e["path"], e["code"]) for e in errors]


def test_a_members_only_player_answers_as_one_that_does_not_exist(organiser, members, hidden):
    """Adding a hidden player to one's own club returned his name; and an unknown id answered
    otherwise than a known one, so ids could be enumerated."""
    missing = hidden.pk + 1000
    before = db_state()
    for body in ({"player": hidden.pk}, {"player": missing}):
        response = organiser.post("/api/v1/clubs/home/members/", body, format="json")
        assert answers(response) == (400, [("player", "does_not_exist")])
        assert "Hidden Name" not in response.content.decode()
    for who in (hidden.pk, missing):
        seats = {"players": [members[0].pk, members[1].pk, members[2].pk, who]}
        assert answers(organiser.post("/api/v1/clubs/home/sessions/", seats, format="json")) == (
            400, [("players", "does_not_exist")]
        )  # fmt: skip
        bettor = {"players": [p.pk for p in members], "bettors": [{"player": who}]}
        assert answers(organiser.post("/api/v1/clubs/home/sessions/", bettor, format="json")) == (
            400, [("bettors[0].player", "does_not_exist")]
        )  # fmt: skip
    assert db_state() == before


def test_players_one_may_see_can_be_named(club, organiser, hidden):
    """A player of a public club is seen by all, so may be added; a member of the private club
    sees its players and may add them to his own club."""
    public = MembershipFactory(club=ClubFactory()).player
    assert organiser.post("/api/v1/clubs/home/members/", {"player": public.pk},
                          format="json").status_code == 201  # fmt: skip
    insider = member_login(Club.objects.get(slug="private"), Role.MEMBER, "insider")
    MembershipFactory(club=club, player=insider.player, role=Role.ORGANISER)
    add = client_for(insider).post("/api/v1/clubs/home/members/", {"player": hidden.pk},
                                   format="json")  # fmt: skip
    assert add.status_code == 201, add.json()
    assert Membership.objects.filter(club=club, player=hidden).exists()


def test_an_answer_lists_at_most_a_hundred_problems(club, organiser, members):
    """300 bettors each with a misspelt field are 300 problems: the answer lists 99 and says how
    many more (RULES §5, as the engine's own answers), instead of growing with the input."""
    body = {"players": [p.pk for p in members], "bettors": [{"nmae": "x"}] * 300}
    response = organiser.post("/api/v1/clubs/home/sessions/", body, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert len(errors) == 100
    assert errors[0] == {"path": "bettors[0].nmae", "code": "unknown_field",
                         "message": "unknown field 'nmae'"}  # fmt: skip
    assert errors[-1]["code"] == "too_many_errors"
    assert errors[-1]["message"].startswith("201 more problems")  # 300 − 99 listed
    session = TableSessionFactory(club=club, seated=members)
    hand = {**PINGHU, "bettors": [{"name": f"B{i}", "on": 0} for i in range(300)]}
    errors = organiser.post(f"/api/v1/sessions/{session.pk}/hands/", hand,
                            format="json").json()["errors"]  # fmt: skip
    assert len(errors) == 100 and errors[-1]["code"] == "too_many_errors"


# --- issue 22, item 8: control characters in what a person types ---------------------------

CONTROL = ["\x00", "\x0b", "\x1b", "\x7f"]


@pytest.mark.parametrize("character", CONTROL, ids=repr)
def test_a_control_character_in_a_reason_is_refused_by_the_api(club, organiser, members, character):
    """A NUL in a correction or deletion reason was a 500 (PostgreSQL stores no NUL)."""
    session = TableSessionFactory(club=club, seated=members)
    hand_record(session=session, data=PINGHU, user=None)
    url = f"/api/v1/sessions/{session.pk}/hands/1/"
    before = db_state()
    reason = f"entered{character}twice"
    refused(organiser.delete(url, {"reason": reason}, format="json"), "reason",
            "control_character")  # fmt: skip
    refused(organiser.patch(url, {**PINGHU, "reason": reason}, format="json"), "reason",
            "control_character")  # fmt: skip
    refused(organiser.delete(f"{url}?reason=entered{character}twice"), "reason",
            "control_character")  # fmt: skip
    assert db_state() == before


@pytest.mark.parametrize("character", CONTROL, ids=repr)
def test_a_control_character_in_a_name_is_refused_by_the_api(club, organiser, character):
    """``\\x0b`` or ``\\x1b`` in a player's name made his share card invalid XML."""
    before = db_state()
    name = f"老{character}王"
    refused(organiser.post("/api/v1/clubs/home/players/", {"name": name}, format="json"),
            "name", "control_character")  # fmt: skip
    refused(organiser.patch("/api/v1/clubs/home/", {"name": name}, format="json"), "name",
            "control_character")  # fmt: skip
    assert db_state() == before


def test_free_text_keeps_its_line_breaks_but_a_name_is_one_line(club, organiser, members):
    from clubs.services.clubs import player_create
    from core.errors import Invalid

    session = TableSessionFactory(club=club, seated=members)
    hand_record(session=session, data=PINGHU, user=None)
    url = f"/api/v1/sessions/{session.pk}/hands/1/"
    gone = organiser.delete(url, {"reason": "entered twice:\n\tonce by each scorer"},
                            format="json")  # fmt: skip
    assert gone.status_code == 200, gone.content
    with pytest.raises(Invalid) as e:
        player_create(club=club, name="老\n王")
    assert e.value.code == "control_character"


@pytest.mark.parametrize("character", ["\x00", "\x1b"], ids=repr)
def test_a_control_character_on_a_page_is_a_readable_400(club, members, character):
    from django.test import Client

    user = member_login(club, Role.ORGANISER, "page-organiser")
    session = TableSessionFactory(club=club, seated=members)
    hand_record(session=session, data=PINGHU, user=None)
    browser = Client()
    browser.force_login(user)
    before = db_state()
    deleted = browser.post(
        f"/sessions/{session.pk}/hands/1/delete/", {"reason": f"twice{character}"}
    )
    assert deleted.status_code == 400
    page = deleted.content.decode()
    assert "invisible control character" in page and "reason" in page
    added = browser.post("/clubs/home/players/", {"name": f"老{character}王"})
    assert added.status_code == 400
    assert db_state() == before
    assert not Hand.objects.get(session=session).is_deleted


def test_the_import_confirmation_with_content_it_cannot_take_is_a_400_not_a_500(club):
    from django.test import Client

    browser = Client()
    browser.force_login(member_login(club, Role.ORGANISER, "importer"))
    before = db_state()
    # longer than the file the page accepts (200 KiB): the confirmation form is invalid
    answer = browser.post("/clubs/home/import/", {"content": "x" * (200 * 1024 + 1)})
    assert answer.status_code == 400
    assert "Choose the file again." in answer.content.decode()
    assert db_state() == before


# --- issue 22, item 7: one bound on a total, page and API ---------------------------------


@pytest.mark.parametrize(
    "total", [1_000_000_001, 2_147_483_647, 10**20, -1_000_000_001, -(10**20)], ids=str
)
def test_a_total_past_a_thousand_million_is_refused_on_the_page_and_the_api(
    club, organiser, members, total
):
    """The final-result page stored ±2,147,483,647 (the API refused past ±10^9) and 10^20 was a
    500; the club's export then failed its own import. One bound, in the service."""
    from django.test import Client

    session = TableSessionFactory(club=club, seated=members)
    browser = Client()
    browser.force_login(member_login(club, Role.SCORER, "page-scorer"))
    before = db_state()
    totals = [total, -total, 0, 0]
    body = {"totals": [{"player": p.pk, "total": t} for p, t in zip(members, totals, strict=True)]}
    answer = organiser.post(f"/api/v1/sessions/{session.pk}/result/", body, format="json")
    assert answer.status_code == 400, answer.content
    form = {f"p{p.pk}": str(t) for p, t in zip(members, totals, strict=True)}
    page = browser.post(f"/sessions/{session.pk}/result/", form)
    assert page.status_code == 400
    assert "at most a thousand million" in page.content.decode()
    assert db_state() == before


def test_a_total_of_a_thousand_million_is_stored_exported_and_imported(club, members):
    from clubs.services.sessions import session_result_enter
    from exchange.club_export import club_export
    from exchange.schema import schema_problems

    session = TableSessionFactory(club=club, seated=members)
    totals = [1_000_000_000, -1_000_000_000, 0, 0]
    session_result_enter(
        session=session,
        totals=[{"player": p.pk, "total": t} for p, t in zip(members, totals, strict=True)],
        user=None,
    )
    import json

    assert schema_problems(json.loads(json.dumps(club_export(club)))) == []
