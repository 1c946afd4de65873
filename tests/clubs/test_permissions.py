"""The permission matrix: every clubs/hands endpoint and method × every kind of actor, for a
public club and for a members-only club.

The rules (issue 5): the public reads only public clubs; a members-only club's data does not
exist for a non-member (404); writing needs a login (401) and at least the role an action
names (403), owner > organiser > scorer > member; a superuser may do anything. A write that
is allowed really happens; a refused request changes nothing in the database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import URLPattern, get_resolver

from clubs.models import Club, Hand, Membership, Player, Role, SessionResult, TableSession
from clubs.services.hands import hand_record
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, TableSessionFactory
from tests.clubs.records import PINGHU, SELFDRAW
from tests.helpers import client_for, db_state, login, member_login

pytestmark = pytest.mark.django_db

ACTORS = ("anon", "outsider", "member", "scorer", "organiser", "owner", "admin")

# outsider = an organiser of ANOTHER club; admin = a superuser who belongs to no club.
# "session" has a hand (it cannot be deleted: 409); "empty-session" has none.
# "member" rows act on a plain member; "owner-member" rows act on one of the club's two owners;
# "members+owner" adds a member with the owner role. 2xx = the write happened.
PUBLIC_CLUB = """
endpoint       method  anon outsider member scorer organiser owner admin
clubs          GET     200  200      200    200    200       200   200
clubs          POST    401  201      201    201    201       201   201
club           GET     200  200      200    200    200       200   200
club           PATCH   401  403      403    403    200       200   200
club           DELETE  401  403      403    403    403       204   204
members        GET     401  403      200    200    200       200   200
members        POST    401  403      403    403    201       201   201
members+owner  POST    401  403      403    403    403       201   201
member         GET     401  403      200    200    200       200   200
member         PATCH   401  403      403    403    200       200   200
member         DELETE  401  403      403    403    204       204   204
owner-member   PATCH   401  403      403    403    403       200   200
owner-member   DELETE  401  403      403    403    403       204   204
players        GET     200  200      200    200    200       200   200
players        POST    401  403      403    403    201       201   201
sessions       GET     200  200      200    200    200       200   200
sessions       POST    401  403      403    201    201       201   201
session        GET     200  200      200    200    200       200   200
session        PATCH   401  403      403    403    200       200   200
session        DELETE  401  403      403    403    409       409   409
empty-session  DELETE  401  403      403    403    204       204   204
close          POST    401  403      403    200    200       200   200
reopen         POST    401  403      403    403    200       200   200
result         GET     200  200      200    200    200       200   200
result         POST    401  403      403    200    200       200   200
result         PUT     401  403      403    200    200       200   200
hands          GET     200  200      200    200    200       200   200
hands          POST    401  403      403    201    201       201   201
hand           GET     200  200      200    200    200       200   200
hand           PUT     401  403      403    200    200       200   200
hand           PATCH   401  403      403    200    200       200   200
hand           DELETE  401  403      403    200    200       200   200
history        GET     200  200      200    200    200       200   200
player         GET     200  200      200    200    200       200   200
"""

# The same club, members only: to the anonymous and to the outsider it does not exist (404),
# except that writing anonymously is always 401 (log in first); the club list answers everyone
# but shows the club to its members only.
MEMBERS_ONLY_CLUB = """
endpoint       method  anon outsider member scorer organiser owner admin
clubs          GET     200  200      200    200    200       200   200
clubs          POST    401  201      201    201    201       201   201
club           GET     404  404      200    200    200       200   200
club           PATCH   401  404      403    403    200       200   200
club           DELETE  401  404      403    403    403       204   204
members        GET     404  404      200    200    200       200   200
members        POST    401  404      403    403    201       201   201
members+owner  POST    401  404      403    403    403       201   201
member         GET     404  404      200    200    200       200   200
member         PATCH   401  404      403    403    200       200   200
member         DELETE  401  404      403    403    204       204   204
owner-member   PATCH   401  404      403    403    403       200   200
owner-member   DELETE  401  404      403    403    403       204   204
players        GET     404  404      200    200    200       200   200
players        POST    401  404      403    403    201       201   201
sessions       GET     404  404      200    200    200       200   200
sessions       POST    401  404      403    201    201       201   201
session        GET     404  404      200    200    200       200   200
session        PATCH   401  404      403    403    200       200   200
session        DELETE  401  404      403    403    409       409   409
empty-session  DELETE  401  404      403    403    204       204   204
close          POST    401  404      403    200    200       200   200
reopen         POST    401  404      403    403    200       200   200
result         GET     404  404      200    200    200       200   200
result         POST    401  404      403    200    200       200   200
result         PUT     401  404      403    200    200       200   200
hands          GET     404  404      200    200    200       200   200
hands          POST    401  404      403    201    201       201   201
hand           GET     404  404      200    200    200       200   200
hand           PUT     401  404      403    200    200       200   200
hand           PATCH   401  404      403    200    200       200   200
hand           DELETE  401  404      403    200    200       200   200
history        GET     404  404      200    200    200       200   200
player         GET     404  404      200    200    200       200   200
"""


def parse(table: str) -> dict[tuple[str, str, str], int]:
    header, *rows = [line.split() for line in table.strip().splitlines()]
    assert tuple(header[2:]) == ACTORS
    return {
        (endpoint, method, actor): int(code)
        for endpoint, method, *codes in rows
        for actor, code in zip(ACTORS, codes, strict=True)
    }


EXPECTED = {
    Club.Visibility.PUBLIC: parse(PUBLIC_CLUB),
    Club.Visibility.MEMBERS: parse(MEMBERS_ONLY_CLUB),
}


# --- the world every request runs in -------------------------------------------------------


@dataclass
class World:
    club: Club
    users: dict[str, Any]
    session: TableSession  # open, hand 1 recorded
    empty: TableSession  # open, no hands: for final results
    closed: TableSession  # closed: for reopen
    target: Membership  # a plain member
    owner2: Membership  # the club's second owner
    stranger: Player  # a player of no club
    extra: dict[str, Any] = field(default_factory=dict)


def build_world(visibility: str) -> World:
    club = ClubFactory(visibility=visibility, slug="the-club", name="The Club")
    other = ClubFactory(slug="other-club")
    users = {
        "anon": None,
        "outsider": member_login(other, Role.ORGANISER, "outsider"),
        "admin": login("admin", superuser=True),
    }
    for role in (Role.MEMBER, Role.SCORER, Role.ORGANISER, Role.OWNER):
        users[str(role)] = member_login(club, role, str(role))
    session = TableSessionFactory(club=club)
    hand_record(session=session, data=PINGHU, user=users["scorer"])
    seated = [s.player for s in session.seats.all()]
    empty = TableSessionFactory(club=club, seated=seated)
    closed = TableSessionFactory(club=club, seated=seated, status=TableSession.Status.CLOSED)
    return World(
        club=club,
        users=users,
        session=session,
        empty=empty,
        closed=closed,
        target=MembershipFactory(club=club, player=PlayerFactory(name="Target")),
        owner2=MembershipFactory(club=club, player=PlayerFactory(name="Owner2"), role=Role.OWNER),
        stranger=MembershipFactory(club=other, player=PlayerFactory(name="Stranger")).player,
    )


# --- what each endpoint does, and how to see that it did it ------------------------------


def readers(w: World) -> set[str]:
    """Who may read the club's data."""
    if w.club.is_public:
        return set(ACTORS)
    return {"member", "scorer", "organiser", "owner", "admin"}


def listed(w: World, r, actor: str) -> None:
    slugs = [c["slug"] for c in r.json()["results"]]
    assert ("the-club" in slugs) == (actor in readers(w)), slugs
    assert "other-club" in slugs


def club_created(w: World, r, actor: str) -> None:
    club = Club.objects.get(slug="brand-new")
    owner = club.memberships.get()
    assert owner.role == Role.OWNER and owner.player.user == w.users[actor]


def club_renamed(w, r, actor):
    assert Club.objects.get(pk=w.club.pk).name == "Renamed"


def club_deleted(w, r, actor):
    assert not Club.objects.filter(pk=w.club.pk).exists()
    assert not TableSession.objects.filter(club_id=w.club.pk).exists()


def same_club(w, r, actor):
    assert r.json()["slug"] == "the-club"


def members_listed(w, r, actor):
    ids = {m["player"]["id"] for m in r.json()["results"]}
    assert w.target.player_id in ids and w.owner2.player_id in ids


def joined(role: str):
    def check(w, r, actor):
        assert Membership.objects.get(club=w.club, player=w.stranger).role == role

    return check


def target_is(role: str):
    def check(w, r, actor):
        assert Membership.objects.get(pk=w.target.pk).role == role

    return check


def session_gone(w, r, actor):
    assert not TableSession.objects.filter(pk=w.empty.pk).exists()


def gone(attr: str):
    def check(w, r, actor):
        assert not Membership.objects.filter(pk=getattr(w, attr).pk).exists()

    return check


def owner2_demoted(w, r, actor):
    assert Membership.objects.get(pk=w.owner2.pk).role == Role.MEMBER


def players_listed(w, r, actor):
    assert w.target.player_id in {p["id"] for p in r.json()["results"]}


def player_added(w, r, actor):
    player = Player.objects.get(name="Newcomer")
    assert Membership.objects.get(player=player).club == w.club


def sessions_listed(w, r, actor):
    assert {s["id"] for s in r.json()["results"]} == {w.session.pk, w.empty.pk, w.closed.pk}


def session_opened(w, r, actor):
    session = TableSession.objects.get(pk=r.json()["id"])
    assert session.club == w.club and session.is_open
    assert session.created_by == w.users[actor]
    assert [s.player_id for s in session.seats.all()] == players_of(w)
    assert [b.name for b in session.bettors.all()] == ["老王"]


def session_noted(w, r, actor):
    assert TableSession.objects.get(pk=w.session.pk).notes == "changed"


def status_is(attr: str, status: str):
    def check(w, r, actor):
        assert TableSession.objects.get(pk=getattr(w, attr).pk).status == status

    return check


def results_entered(w, r, actor):
    totals = dict(SessionResult.objects.filter(session=w.empty).values_list("player", "total"))
    assert totals == dict(zip(players_of(w), [3, -1, -1, -1], strict=True))


def hand_2_recorded(w, r, actor):
    hand = Hand.objects.get(session=w.session, number=2)
    assert hand.entered_by == w.users[actor] and hand.payments.count() == 1


def hand_1_corrected(w, r, actor):
    hand = Hand.objects.get(session=w.session, number=1)
    assert hand.revision == 2 and hand.payments.count() == 3
    assert hand.revisions.get(revision=2).changed_by == w.users[actor]


def hand_1_deleted(w, r, actor):
    hand = Hand.objects.get(session=w.session, number=1)
    assert hand.is_deleted and hand.deleted_reason == "entered twice"


def players_of(w: World) -> list[int]:
    return [s.player_id for s in w.session.seats.all()]


def results_body(w: World) -> dict:
    return {
        "totals": [
            {"player": p, "total": t} for p, t in zip(players_of(w), [3, -1, -1, -1], strict=True)
        ]
    }


@dataclass(frozen=True)
class Endpoint:
    url: Callable[[World], str]
    body: Callable[[World], Any] | None = None
    effect: Callable[[World, Any, str], None] | None = None


def club_url(suffix: str = "") -> Callable[[World], str]:
    return lambda w: f"/api/v1/clubs/{w.club.slug}/{suffix}"


def session_url(suffix: str = "", attr: str = "session") -> Callable[[World], str]:
    return lambda w: f"/api/v1/sessions/{getattr(w, attr).pk}/{suffix}"


ENDPOINTS: dict[tuple[str, str], Endpoint] = {
    ("clubs", "GET"): Endpoint(lambda w: "/api/v1/clubs/", effect=listed),
    ("clubs", "POST"): Endpoint(
        lambda w: "/api/v1/clubs/",
        lambda w: {"name": "Brand new", "slug": "brand-new"},
        club_created,
    ),
    ("club", "GET"): Endpoint(club_url(), effect=same_club),
    ("club", "PATCH"): Endpoint(club_url(), lambda w: {"name": "Renamed"}, club_renamed),
    ("club", "DELETE"): Endpoint(club_url(), effect=club_deleted),
    ("members", "GET"): Endpoint(club_url("members/"), effect=members_listed),
    ("members", "POST"): Endpoint(
        club_url("members/"),
        lambda w: {"player": w.stranger.pk, "role": "scorer"},
        joined(Role.SCORER),
    ),
    ("members+owner", "POST"): Endpoint(
        club_url("members/"),
        lambda w: {"player": w.stranger.pk, "role": "owner"},
        joined(Role.OWNER),
    ),
    ("member", "GET"): Endpoint(lambda w: f"/api/v1/clubs/the-club/members/{w.target.pk}/"),
    ("member", "PATCH"): Endpoint(
        lambda w: f"/api/v1/clubs/the-club/members/{w.target.pk}/",
        lambda w: {"role": "scorer"},
        target_is(Role.SCORER),
    ),
    ("member", "DELETE"): Endpoint(
        lambda w: f"/api/v1/clubs/the-club/members/{w.target.pk}/", effect=gone("target")
    ),
    ("owner-member", "PATCH"): Endpoint(
        lambda w: f"/api/v1/clubs/the-club/members/{w.owner2.pk}/",
        lambda w: {"role": "member"},
        owner2_demoted,
    ),
    ("owner-member", "DELETE"): Endpoint(
        lambda w: f"/api/v1/clubs/the-club/members/{w.owner2.pk}/", effect=gone("owner2")
    ),
    ("players", "GET"): Endpoint(club_url("players/"), effect=players_listed),
    ("players", "POST"): Endpoint(
        club_url("players/"), lambda w: {"name": "Newcomer"}, player_added
    ),  # fmt: skip
    ("sessions", "GET"): Endpoint(club_url("sessions/"), effect=sessions_listed),
    ("sessions", "POST"): Endpoint(
        club_url("sessions/"),
        lambda w: {"players": players_of(w), "bettors": [{"guest_name": "老王"}]},
        session_opened,
    ),
    ("session", "GET"): Endpoint(session_url()),
    ("session", "PATCH"): Endpoint(session_url(), lambda w: {"notes": "changed"}, session_noted),
    ("session", "DELETE"): Endpoint(session_url()),
    ("empty-session", "DELETE"): Endpoint(session_url(attr="empty"), effect=session_gone),
    ("close", "POST"): Endpoint(session_url("close/"), effect=status_is("session", "closed")),
    ("reopen", "POST"): Endpoint(
        session_url("reopen/", "closed"), effect=status_is("closed", "open")
    ),
    ("result", "GET"): Endpoint(session_url("result/", "empty")),
    ("result", "POST"): Endpoint(session_url("result/", "empty"), results_body, results_entered),
    ("result", "PUT"): Endpoint(session_url("result/", "empty"), results_body, results_entered),
    ("hands", "GET"): Endpoint(session_url("hands/")),
    ("hands", "POST"): Endpoint(session_url("hands/"), lambda w: PINGHU, hand_2_recorded),
    ("hand", "GET"): Endpoint(session_url("hands/1/")),
    ("hand", "PUT"): Endpoint(
        session_url("hands/1/"), lambda w: {**SELFDRAW, "reason": "自摸"}, hand_1_corrected
    ),
    ("hand", "PATCH"): Endpoint(
        session_url("hands/1/"), lambda w: {"events": SELFDRAW["events"]}, hand_1_corrected
    ),
    ("hand", "DELETE"): Endpoint(
        session_url("hands/1/?reason=entered twice"), effect=hand_1_deleted
    ),  # fmt: skip
    ("history", "GET"): Endpoint(session_url("hands/1/history/")),
    ("player", "GET"): Endpoint(lambda w: f"/api/v1/players/{players_of(w)[0]}/"),
}

CASES = [
    pytest.param(
        visibility,
        endpoint,
        method,
        actor,
        code,
        id=f"{visibility}-{endpoint}-{method}-{actor}-{code}",
    )  # fmt: skip
    for visibility, table in EXPECTED.items()
    for (endpoint, method, actor), code in table.items()
]


@pytest.mark.parametrize(("visibility", "endpoint", "method", "actor", "expected"), CASES)
def test_permission_matrix(visibility, endpoint, method, actor, expected, json_errors):
    w = build_world(visibility)
    spec = ENDPOINTS[endpoint, method]
    client = client_for(w.users[actor])
    body = spec.body(w) if spec.body else None
    before = db_state()
    response = getattr(client, method.lower())(spec.url(w), body, format="json")
    assert response.status_code == expected, response.content.decode()
    if expected >= 400:
        json_errors(response)
        assert db_state() == before, "a refused request changed the database"
    elif spec.effect is not None:
        spec.effect(w, response, actor)
    elif method == "GET":
        assert response.json()


# --- the tables cover every route and method ------------------------------------------------

ROUTES = {
    "clubs": {"clubs"},
    "club-detail": {"club"},
    "club-members": {"members", "members+owner"},
    "club-member-detail": {"member", "owner-member"},
    "club-players": {"players"},
    "club-sessions": {"sessions"},
    "session-detail": {"session", "empty-session"},
    "session-close": {"close"},
    "session-reopen": {"reopen"},
    "session-result": {"result"},
    "session-hands": {"hands"},
    "hand-detail": {"hand"},
    "hand-history": {"history"},
    "player-detail": {"player"},
}


def test_the_tables_cover_every_route_and_method():
    patterns = {
        p.name: p
        for p in get_resolver().url_patterns[1].url_patterns  # api/v1/
        for p in getattr(p, "url_patterns", [p])
        if isinstance(p, URLPattern) and p.name in ROUTES
    }
    assert set(patterns) == set(ROUTES)
    for name, pattern in patterns.items():
        view = pattern.callback.view_class
        methods = {m.upper() for m in view.http_method_names if hasattr(view, m)}
        methods -= {"OPTIONS", "HEAD"}
        for endpoint in ROUTES[name]:
            for table in EXPECTED.values():
                covered = {m for (e, m, _a) in table if e == endpoint}
                if endpoint in ("members+owner", "owner-member", "empty-session"):
                    assert covered <= methods
                else:
                    assert covered == methods, (name, endpoint)
    assert set(EXPECTED[Club.Visibility.PUBLIC]) == set(EXPECTED[Club.Visibility.MEMBERS])
    assert {(e, m) for (e, m, _a) in EXPECTED[Club.Visibility.PUBLIC]} == set(ENDPOINTS)


def test_an_unknown_slug_or_session_is_404_for_everyone_who_may_write(json_errors):
    organiser = client_for(member_login(ClubFactory(), Role.ORGANISER))
    for url in ("/api/v1/clubs/nope/", "/api/v1/sessions/999999/", "/api/v1/players/999999/"):
        assert organiser.get(url).status_code == 404
        json_errors(organiser.get(url))
    assert organiser.patch("/api/v1/clubs/nope/", {"name": "x"}, format="json").status_code == 404


def test_anonymous_writes_are_401_even_where_nothing_exists(api_client, json_errors):
    response = api_client.post("/api/v1/sessions/999999/hands/", PINGHU, format="json")
    assert response.status_code == 401
    json_errors(response)


def test_a_player_of_a_members_only_club_is_hidden_from_outsiders(json_errors):
    hidden = ClubFactory(visibility=Club.Visibility.MEMBERS)
    public = ClubFactory()
    session = TableSessionFactory(club=hidden)
    player = session.seats.first().player
    MembershipFactory(club=public, player=player)
    # a member of the public club sees him with his public club only, no hidden session
    reader = client_for(login())
    data = reader.get(f"/api/v1/players/{player.pk}/").json()
    assert [c["slug"] for c in data["clubs"]] == [public.slug]
    assert data["sessions"] == []
    insider = client_for(member_login(hidden))
    data = insider.get(f"/api/v1/players/{player.pk}/").json()
    assert {c["slug"] for c in data["clubs"]} == {public.slug, hidden.slug}
    assert [s["id"] for s in data["sessions"]] == [session.pk]


# --- roles: the rules the matrix cannot show -------------------------------------------------


@pytest.fixture
def club():
    return ClubFactory()


def test_the_creator_of_a_club_is_its_owner():
    user = login()
    response = client_for(user).post("/api/v1/clubs/", {"name": "N", "slug": "n"}, format="json")
    assert response.status_code == 201
    assert response.json()["my_role"] == "owner"
    assert Membership.objects.get(club__slug="n").player.user == user


def test_only_an_owner_makes_an_owner(club, json_errors):
    organiser = client_for(member_login(club, Role.ORGANISER))
    target = MembershipFactory(club=club)
    url = f"/api/v1/clubs/{club.slug}/members/{target.pk}/"
    before = db_state()
    response = organiser.patch(url, {"role": "owner"}, format="json")
    assert response.status_code == 403
    json_errors(response)
    assert db_state() == before
    owner = client_for(member_login(club, Role.OWNER))
    assert owner.patch(url, {"role": "owner"}, format="json").status_code == 200
    assert Membership.objects.get(pk=target.pk).role == Role.OWNER


def test_a_club_keeps_its_last_owner(club, json_errors):
    user = member_login(club, Role.OWNER)
    me = Membership.objects.get(player__user=user)
    owner = client_for(user)
    url = f"/api/v1/clubs/{club.slug}/members/{me.pk}/"
    before = db_state()
    for response in (owner.patch(url, {"role": "organiser"}, format="json"), owner.delete(url)):
        assert response.status_code == 409
        assert [e["code"] for e in json_errors(response)] == ["last_owner"]
    assert db_state() == before


def test_a_player_joins_a_club_once(club, json_errors):
    organiser = client_for(member_login(club, Role.ORGANISER))
    player = MembershipFactory(club=club).player
    before = db_state()
    response = organiser.post(f"/api/v1/clubs/{club.slug}/members/", {"player": player.pk},
                              format="json")  # fmt: skip
    assert response.status_code == 409
    assert json_errors(response)[0]["code"] == "already_member"
    assert db_state() == before


def test_a_new_role_takes_effect_at_once(club):
    user = member_login(club, Role.MEMBER)
    client = client_for(user)
    session = TableSessionFactory(club=club)
    url = f"/api/v1/sessions/{session.pk}/hands/"
    assert client.post(url, PINGHU, format="json").status_code == 403
    Membership.objects.filter(player__user=user).update(role=Role.SCORER)
    assert client.post(url, PINGHU, format="json").status_code == 201
    Membership.objects.filter(player__user=user).delete()
    assert client.post(url, PINGHU, format="json").status_code == 403
