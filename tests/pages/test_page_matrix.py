"""Who may open every page, and who may write through it: one matrix for the whole site.

Every route of ``pages.urls`` is listed here, so a new page cannot land without saying who sees
it. The rules the matrix spells out:

- a members-only club and everything in it (players, members, tables, hands, the evening) is
  404 to an anonymous visitor and to an outsider: for them it does not exist;
- a public club's pages are open to everyone, its forms to the role that may use them; an
  anonymous visitor is sent to sign in (302), a login without the role is refused (403);
- opening a table, entering a final result, correcting a hand: scorer and up; a tournament's
  penalties: referee and up; changing the club's rules, importing a spreadsheet, directing a
  tournament: organiser and up;
- an invitation link is the capability itself: anyone holding it may open it;
- the hand calculator and the rules pages are everyone's: they show the engine, no club;
- account pages: sign-in and sign-up send a signed-in visitor on (302), the password page
  wants a login (302 to sign in);
- actions are POST only (a GET is 405); refused writes change nothing;
- a tournament follows ``tournaments.selectors.can_read_tournament``: a private one is its
  club's (404 to outsiders of a members-only club), a public one is open to everyone, even in
  a members-only club (whose own pages stay 404 to outsiders).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLResolver, reverse

import pages.urls
from clubs.models import Club, Role
from clubs.services.hands import hand_record
from clubs.services.invitations import invitation_create
from clubs.services.sessions import session_guest_link
from tests.clubs.factories import ClubFactory, TableSessionFactory
from tests.helpers import db_state, login, member_login
from tests.scoring.engine.records import PINGHU
from tournaments import services as tournament_services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "outsider",
    Role.MEMBER,
    Role.SCORER,
    Role.REFEREE,
    Role.ORGANISER,
    Role.OWNER,
)

# GET status per role: anonymous, outsider, member, scorer, referee, organiser, owner
EVERYONE = (200,) * 7
SIGNED_IN = (302, 200, 200, 200, 200, 200, 200)
SIGNED_OUT = (200, 302, 302, 302, 302, 302, 302)
POST_ONLY = (405,) * 7
MEMBERS_CLUB = {
    "home": EVERYONE,
    "login": SIGNED_OUT,
    "signup": SIGNED_OUT,
    "password-change": SIGNED_IN,
    "api-token": SIGNED_IN,
    "logout": POST_ONLY,
    "set-language": (302,) * 7,  # no POST: back where it came from
    "page-tiles": EVERYONE,
    "app-manifest": EVERYONE,
    "app-icon": EVERYONE,
    "app-service-worker": EVERYONE,
    # names no channel: who may follow which is tests/pages/live/test_live_channels.py
    "live-events": (400,) * 7,
    "page-rules": EVERYONE,
    "page-rules-preset": EVERYONE,  # public: the rules are the engine's, no club's
    "page-club-new": SIGNED_IN,
    "page-club": (404, 404, 200, 200, 200, 200, 200),
    "page-club-players": (404, 404, 200, 200, 200, 200, 200),
    "page-club-members": (404, 404, 200, 200, 200, 200, 200),
    "page-club-evening": (404, 404, 200, 200, 200, 200, 200),
    "page-club-evening-card": (404, 404, 200, 200, 200, 200, 200),
    "page-player-card": (404, 404, 200, 200, 200, 200, 200),
    "page-player-card-png": (404, 404, 200, 200, 200, 200, 200),
    "page-club-evening-card-png": (404, 404, 200, 200, 200, 200, 200),
    "page-hand-card": (404, 404, 200, 200, 200, 200, 200),
    "page-hand-card-png": (404, 404, 200, 200, 200, 200, 200),
    "page-tournament-card": (404, 404, 200, 200, 200, 200, 200),
    "page-tournament-card-png": (404, 404, 200, 200, 200, 200, 200),
    "page-table-new": (404, 404, 403, 200, 200, 200, 200),
    "page-club-import": (404, 404, 403, 403, 403, 200, 200),
    "page-club-rules": (404, 404, 403, 403, 403, 200, 200),
    "page-session": (404, 404, 200, 200, 200, 200, 200),
    "page-session-result": (404, 404, 403, 200, 200, 200, 200),
    "page-hand": (404, 404, 200, 200, 200, 200, 200),
    "page-hand-edit": (404, 404, 403, 200, 200, 200, 200),
    "page-session-seats": (404, 404, 403, 403, 403, 200, 200),
    # the disputed hands and the confirmation rule: a referee's, and up
    "page-club-confirmations": (404, 404, 403, 403, 200, 200, 200),
    "page-invitation": EVERYONE,
    "page-me": EVERYONE,  # a player's private link is the capability itself
    "page-table-card": (302,) * 7,  # so is a table card's: to the table it opens
    "page-players-link": (302,) * 7,  # and a table's players' link
    # a private tournament (a public one: TOURNAMENT_PAGES, open to all)
    "page-tournament": (404, 404, 200, 200, 200, 200, 200),
    "page-tournament-standings": (404, 404, 200, 200, 200, 200, 200),
    "page-tournament-projector": (404, 404, 200, 200, 200, 200, 200),
    "page-tournament-live": (404, 404, 200, 200, 200, 200, 200),
    "page-tournament-print": (404, 404, 200, 200, 200, 200, 200),
    "page-tournament-round": (404, 404, 200, 200, 200, 200, 200),  # whom the print page is
    "page-tournament-report": (404, 404, 200, 200, 200, 200, 200),
    # the scorekeeper's: a new tournament and its entries are the organisers', the round desk
    # (a table's totals) the scorers'
    "page-tournament-new": (404, 404, 403, 403, 403, 200, 200),
    "page-tournament-entries": (404, 404, 403, 403, 403, 200, 200),
    "page-tournament-desk": (404, 404, 403, 200, 200, 200, 200),
    "page-tournament-check-in": (404, 404, 403, 200, 200, 200, 200),
    "page-tournament-penalties": (404, 404, 403, 403, 200, 200, 200),  # a referee's, and up
    "page-tournament-slips": (404, 404, 403, 403, 403, 200, 200),
    "page-tournament-entries-import": (404, 404, 403, 403, 403, 200, 200),
    "page-tournament-substitute": (404, 404, 403, 403, 403, 200, 200),
    "page-tournament-cards": (404, 404, 403, 403, 403, 200, 200),
    "page-club-ranking": (404, 404, 200, 200, 200, 200, 200),
    "page-player": (404, 404, 200, 200, 200, 200, 200),  # a player of the members-only club
}
TOURNAMENT_PAGES = [
    "page-tournament",
    "page-tournament-card",
    "page-tournament-card-png",
    "page-tournament-standings",
    "page-tournament-projector",
    "page-tournament-live",
    "page-tournament-print",
    "page-tournament-round",
    "page-tournament-report",
]
DIRECTOR_PAGES = [
    "page-tournament-entries",
    "page-tournament-desk",
    "page-tournament-check-in",
    "page-tournament-penalties",
    "page-tournament-slips",
    "page-tournament-entries-import",
]
PUBLIC_CLUB = {
    **MEMBERS_CLUB,
    "page-club": EVERYONE,
    "page-club-players": EVERYONE,
    "page-club-members": EVERYONE,
    "page-club-evening": EVERYONE,
    "page-club-evening-card": EVERYONE,
    "page-club-evening-card-png": EVERYONE,
    "page-player-card": EVERYONE,
    "page-player-card-png": EVERYONE,
    "page-hand-card": EVERYONE,
    "page-hand-card-png": EVERYONE,
    "page-table-new": (302, 403, 403, 200, 200, 200, 200),
    "page-club-import": (302, 403, 403, 403, 403, 200, 200),
    "page-club-rules": (302, 403, 403, 403, 403, 200, 200),
    "page-session": EVERYONE,
    "page-session-result": (302, 403, 403, 200, 200, 200, 200),
    "page-hand": EVERYONE,
    "page-hand-edit": (302, 403, 403, 200, 200, 200, 200),
    "page-session-seats": (302, 403, 403, 403, 403, 200, 200),
    "page-club-confirmations": (302, 403, 403, 403, 200, 200, 200),
    **dict.fromkeys(TOURNAMENT_PAGES, EVERYONE),
    "page-tournament-new": (302, 403, 403, 403, 403, 200, 200),
    "page-tournament-entries": (302, 403, 403, 403, 403, 200, 200),
    "page-tournament-desk": (302, 403, 403, 200, 200, 200, 200),
    "page-tournament-check-in": (302, 403, 403, 200, 200, 200, 200),
    "page-tournament-penalties": (302, 403, 403, 403, 200, 200, 200),
    "page-tournament-slips": (302, 403, 403, 403, 403, 200, 200),
    "page-tournament-entries-import": (302, 403, 403, 403, 403, 200, 200),
    "page-tournament-substitute": (302, 403, 403, 403, 403, 200, 200),
    "page-tournament-cards": (302, 403, 403, 403, 403, 200, 200),
    "page-club-ranking": EVERYONE,
    "page-player": EVERYONE,
}
ACTIONS = (
    "logout",
    "page-hand-send",
    "page-session-close",
    "page-session-link",
    "page-session-reopen",
    "page-hand-delete",
    "page-hand-confirm",  # a player seated at the table (or its players' link)
    "page-hand-resolve",  # a referee, and up
    "page-member-role",
    "page-member-remove",
    "page-member-reset",
    "page-invitation-create",
    "page-invitation-revoke",
    "page-tournament-entry",
    "page-tournament-seat",
    "page-tournament-penalty-revoke",
    "page-tournament-clock",
    "page-tournament-reveal",
    "page-tournament-approve",
    "page-tournament-round-lock",
    "page-tournament-reseat",
    "page-tournament-substitute-undo",
    "page-tournament-dispute",
)
# a write refused to those below its role: anonymous, outsider, member (POST status)
WRITES_BELOW_THE_ROLE = {
    "members": (404, 404, 403),
    "public": (302, 403, 403),
}


def route_names(patterns=pages.urls.urlpatterns):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from route_names(p.url_patterns)
        else:
            yield p.name


def test_every_page_is_in_the_matrix():
    assert set(route_names()) == set(MEMBERS_CLUB) | set(ACTIONS)


@pytest.fixture(params=["members", "public"])
def world(request):
    club = ClubFactory(visibility=request.param)
    session = TableSessionFactory(club=club)
    owner = member_login(club, Role.OWNER)
    hand_record(session=session, data=PINGHU, user=owner)
    member = session.seats.get(number=0).player
    players_key = session_guest_link(session=session)
    invitation = invitation_create(club=club, by=owner, role=Role.SCORER)
    for slug, public in (("private-cup", False), ("open-cup", True)):
        cup = tournament_services.tournament_create(
            name=slug, slug=slug, user=owner, club=club, rounds=2, is_public=public
        )
        for i in range(4):
            tournament_services.registration_create(tournament=cup, name=f"{slug} {i}")
        tournament_services.round_seat(round_id=tournament_services.round_start(tournament=cup).pk)
    entered = Registration.objects.filter(tournament__slug="private-cup").first().player_id
    tournament_services.private_keys(tournament=Tournament.objects.get(slug="private-cup"))
    key = Registration.objects.filter(tournament__slug="private-cup").first().private_key
    private_round = Tournament.objects.get(slug="private-cup").round_set.get()
    card = tournament_services.table_cards(round_=private_round)[0].scorer_key
    args = {
        "page-club": [club.slug],
        "page-club-players": [club.slug],
        "page-club-members": [club.slug],
        "page-table-new": [club.slug],
        "page-club-import": [club.slug],
        "page-club-rules": [club.slug],
        "page-club-evening": [club.slug, session.started_at.date().isoformat()],
        "page-club-evening-card": [club.slug, session.started_at.date().isoformat()],
        "page-player-card": [member.pk],
        "page-player-card-png": [member.pk],
        "page-club-evening-card-png": [club.slug, session.started_at.date().isoformat()],
        "page-hand-card": [session.pk, 1],
        "page-hand-card-png": [session.pk, 1],
        "page-session": [session.pk],
        "page-session-close": [session.pk],
        "page-session-link": [session.pk],
        "page-hand-send": [session.pk],
        "page-players-link": [players_key],
        "page-session-reopen": [session.pk],
        "page-session-result": [session.pk],
        "page-session-seats": [session.pk],
        "page-hand": [session.pk, 1],
        "page-hand-edit": [session.pk, 1],
        "page-hand-delete": [session.pk, 1],
        "page-hand-confirm": [session.pk, 1],
        "page-hand-resolve": [session.pk, 1],
        "page-club-confirmations": [club.slug],
        "page-invitation": [invitation.token],
        "page-me": [key],
        "page-member-role": [club.slug, member.memberships.get().pk],
        "page-member-remove": [club.slug, member.memberships.get().pk],
        "page-member-reset": [club.slug, member.memberships.get().pk],
        "page-invitation-create": [club.slug],
        "page-invitation-revoke": [club.slug, invitation.pk],
        **dict.fromkeys(TOURNAMENT_PAGES + DIRECTOR_PAGES, ["private-cup"]),
        "page-tournament-print": ["private-cup", 1],
        "page-tournament-round": ["private-cup", 1],
        "page-tournament-new": [club.slug],
        "page-tournament-entry": ["private-cup", entered],
        "page-tournament-seat": ["private-cup"],
        "page-tournament-penalty-revoke": ["private-cup", 1],
        "page-tournament-clock": ["private-cup"],
        "page-tournament-reveal": ["private-cup"],
        "page-tournament-approve": ["private-cup"],
        "page-tournament-round-lock": ["private-cup", 1],
        "page-tournament-reseat": ["private-cup"],
        "page-tournament-substitute": ["private-cup", 1, 1],
        "page-tournament-substitute-undo": ["private-cup", 1],
        "page-tournament-dispute": ["private-cup"],
        "page-tournament-cards": ["private-cup", 1],
        "page-table-card": [card],
        "page-club-ranking": [club.slug],
        "page-player": [member.pk],
        "page-rules-preset": ["qq"],
        "app-icon": [192],
    }
    return club, args


def client_as(role: str, club: Club) -> Client:
    client = Client()
    if role == "outsider":
        client.force_login(login())
    elif role != "anonymous":
        client.force_login(member_login(club, role))
    return client


@pytest.mark.parametrize("name", sorted(MEMBERS_CLUB) + list(ACTIONS))
def test_who_may_open_each_page(world, name):
    club, args = world
    matrix = MEMBERS_CLUB if club.visibility == Club.Visibility.MEMBERS else PUBLIC_CLUB
    expected = matrix.get(name, POST_ONLY)
    got = tuple(
        client_as(role, club).get(reverse(name, args=args.get(name, []))).status_code
        for role in ROLES
    )
    assert got == expected


@pytest.mark.parametrize("name", TOURNAMENT_PAGES)
def test_a_public_tournament_is_open_to_everyone_even_in_a_members_only_club(world, name):
    club, args = world
    cup = ["open-cup", *args[name][1:]]
    got = tuple(client_as(role, club).get(reverse(name, args=cup)).status_code for role in ROLES)
    assert got == EVERYONE
    club_page = client_as("outsider", club).get(reverse("page-club", args=[club.slug]))
    assert club_page.status_code == (404 if club.visibility == Club.Visibility.MEMBERS else 200)


@pytest.mark.parametrize("name", [a for a in ACTIONS if a != "logout"])
def test_a_write_below_its_role_is_refused_and_changes_nothing(world, name):
    club, args = world
    url = reverse(name, args=args[name])
    clients = [client_as(role, club) for role in ("anonymous", "outsider", Role.MEMBER)]
    before = db_state()
    answers = [c.post(url, {"role": "scorer", "reason": "x"}) for c in clients]
    assert tuple(a.status_code for a in answers) == WRITES_BELOW_THE_ROLE[club.visibility]
    if answers[0].status_code == 302:  # a signed-out visitor is asked to sign in
        assert answers[0]["Location"].startswith("/login/?next=")
    assert db_state() == before
