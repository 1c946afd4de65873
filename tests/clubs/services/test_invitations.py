"""Invitations and password-reset links: the services' rules and the API.

An organiser invites a scorer or a member (optionally as a player of the club without a login);
the link works once, expires (``INVITATION_TTL``) and can be revoked; accepting links the login
to the player and gives at least the invited role. A reset link sets a member's password once.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection, connections
from django.utils import timezone

from clubs.api.auth import MeSerializer
from clubs.models import Club, Invitation, Membership, Player, Role
from clubs.serializers import AcceptedOutSerializer, InvitationOutSerializer
from clubs.services import invitations as services
from core.errors import Conflict, Invalid, NotFound, PermissionDenied
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.helpers import assert_shape, client_for, login, member_login

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return ClubFactory(slug="teahouse", name="Teahouse")


@pytest.fixture
def organiser(club):
    return member_login(club, Role.ORGANISER, "organiser")


def invite(club, by, role=Role.SCORER, player=None, **kw) -> Invitation:
    return services.invitation_create(club=club, by=by, role=role, player=player, **kw)


# --- services -------------------------------------------------------------------------------


def test_an_invitation_has_an_unguessable_token_and_expires_after_the_ttl(
    club, organiser, settings
):
    settings.INVITATION_TTL = 3600
    before = timezone.now()
    a, b = invite(club, organiser), invite(club, organiser)
    assert a.token != b.token
    assert len(a.token) >= 43  # 32 random bytes, URL-safe base64
    assert before + timedelta(seconds=3600) <= a.expires_at <= timezone.now() + timedelta(hours=1)
    assert a.state == Invitation.State.OPEN


def test_the_default_ttl_is_seven_days(club, organiser):
    inv = invite(club, organiser)
    assert timedelta(days=7) - timedelta(minutes=1) < inv.expires_at - inv.created_at
    assert inv.expires_at - inv.created_at <= timedelta(days=7)


@pytest.mark.parametrize("role", [Role.OWNER, Role.ORGANISER, "boss"])
def test_an_invitation_gives_only_scorer_or_member(club, organiser, role):
    with pytest.raises(Invalid) as e:
        invite(club, organiser, role=role)
    assert e.value.code == "invalid_role"


def test_an_invitation_names_only_a_player_of_the_club_without_a_login(club, organiser):
    stranger = PlayerFactory()
    with pytest.raises(Invalid) as e:
        invite(club, organiser, player=stranger)
    assert e.value.code == "not_a_member"
    with_login = Membership.objects.get(player__user=organiser).player
    with pytest.raises(Conflict) as e:
        invite(club, organiser, player=with_login)
    assert e.value.code == "player_has_login"


def test_accepting_gives_a_new_player_named_after_the_login_the_role(club, organiser):
    inv = invite(club, organiser, role=Role.SCORER)
    newcomer = login("xiaoli")
    m = services.invitation_accept(token=inv.token, user=newcomer)
    assert (m.club, m.role, m.player.user, m.player.name) == (club, Role.SCORER, newcomer, "xiaoli")
    inv.refresh_from_db()
    assert inv.state == Invitation.State.USED and inv.used_by == newcomer


def test_accepting_links_the_login_to_the_invited_player_and_raises_his_role(club, organiser):
    wang = MembershipFactory(club=club, player=PlayerFactory(name="老王"), role=Role.MEMBER)
    inv = invite(club, organiser, role=Role.SCORER, player=wang.player)
    user = login("laowang")
    m = services.invitation_accept(token=inv.token, user=user)
    assert m.pk == wang.pk  # his membership, not a new one
    assert m.role == Role.SCORER
    assert Player.objects.get(pk=wang.player.pk).user == user
    assert Player.objects.filter(user=user).count() == 1


def test_accepting_never_lowers_a_higher_role(club, organiser):
    other = member_login(club, Role.ORGANISER)
    inv = invite(club, organiser, role=Role.MEMBER)
    m = services.invitation_accept(token=inv.token, user=other)
    assert m.role == Role.ORGANISER


def test_a_login_with_its_own_player_cannot_take_another_player(club, organiser):
    wang = MembershipFactory(club=club, player=PlayerFactory(name="老王"))
    inv = invite(club, organiser, player=wang.player)
    someone = member_login(ClubFactory(), Role.MEMBER)
    with pytest.raises(Conflict) as e:
        services.invitation_accept(token=inv.token, user=someone)
    assert e.value.code == "login_has_player"
    assert Invitation.objects.get(pk=inv.pk).state == Invitation.State.OPEN
    assert Player.objects.get(pk=wang.player.pk).user is None


@pytest.mark.parametrize(
    ("close", "code"),
    [
        ({"used_at": timezone.now()}, "invitation_used"),
        ({"revoked_at": timezone.now()}, "invitation_revoked"),
        ({"expires_at": timezone.now() - timedelta(seconds=1)}, "invitation_expired"),
    ],
)
def test_a_closed_link_gives_nothing(club, organiser, close, code):
    inv = invite(club, organiser)
    Invitation.objects.filter(pk=inv.pk).update(**close)
    newcomer = login()
    with pytest.raises(Conflict) as e:
        services.invitation_accept(token=inv.token, user=newcomer)
    assert e.value.code == code
    assert not Membership.objects.filter(player__user=newcomer).exists()
    with pytest.raises(Conflict):
        services.invitation_accept_new_login(token=inv.token, username="nobody", password="x")
    assert not get_user_model().objects.filter(username="nobody").exists()


def test_a_link_works_once(club, organiser):
    inv = invite(club, organiser)
    services.invitation_accept(token=inv.token, user=login())
    with pytest.raises(Conflict) as e:
        services.invitation_accept(token=inv.token, user=login())
    assert e.value.code == "invitation_used"


def test_an_unknown_token_is_not_found():
    with pytest.raises(NotFound):
        services.invitation_accept(token="no-such-token", user=login())


def test_creating_a_login_at_the_link_accepts_it_in_one_go(club, organiser):
    inv = invite(club, organiser, role=Role.MEMBER)
    m = services.invitation_accept_new_login(
        token=inv.token, username="xiaozhang", password="pass-word-2026"
    )
    user = get_user_model().objects.get(username="xiaozhang")
    assert user.check_password("pass-word-2026")
    assert (m.player.user, m.role) == (user, Role.MEMBER)


def test_a_taken_username_creates_nothing_and_leaves_the_link_open(club, organiser):
    inv = invite(club, organiser)
    with pytest.raises(Conflict) as e:
        services.invitation_accept_new_login(token=inv.token, username="organiser", password="x")
    assert e.value.code == "username_taken"
    assert Invitation.objects.get(pk=inv.pk).state == Invitation.State.OPEN


def test_revoking_closes_the_link_but_not_a_used_one(club, organiser):
    inv = invite(club, organiser)
    services.invitation_revoke(invitation=inv)
    assert Invitation.objects.get(pk=inv.pk).state == Invitation.State.REVOKED
    services.invitation_revoke(invitation=inv)  # again: nothing changes
    used = invite(club, organiser)
    services.invitation_accept(token=used.token, user=login())
    with pytest.raises(Conflict) as e:
        services.invitation_revoke(invitation=used)
    assert e.value.code == "invitation_used"


@pytest.mark.django_db(transaction=True)
def test_two_accepts_of_one_link_at_once_one_wins():
    """Two people accept one link at the same moment, each on his own connection: one gets the
    role, the other is told the link was used (the row is locked, then read)."""
    club = ClubFactory()
    organiser = member_login(club, Role.ORGANISER)
    inv = invite(club, organiser)
    users = [login(), login()]
    barrier = threading.Barrier(2)
    results: list = []

    def accept(user):
        try:
            barrier.wait(10)
            results.append(services.invitation_accept(token=inv.token, user=user))
        except Exception as e:  # noqa: BLE001 - the test reads it
            results.append(e)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=accept, args=(u,)) for u in users]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    won = [r for r in results if isinstance(r, Membership)]
    lost = [r for r in results if not isinstance(r, Membership)]
    assert len(won) == 1, results
    assert len(lost) == 1, results
    if connection.vendor == "sqlite" and isinstance(lost[0], OperationalError):
        # the suite's in-memory SQLite (shared cache) refuses a second writer at once instead
        # of waiting for the first: refused all the same
        assert "locked" in str(lost[0])
    else:  # PostgreSQL: the second waits on the row lock, then reads the link used
        assert isinstance(lost[0], Conflict) and lost[0].code == "invitation_used", results
    assert Membership.objects.filter(club=club, role=Role.SCORER).count() == 1
    assert Invitation.objects.get(pk=inv.pk).used_by == won[0].player.user


# --- password-reset links ----------------------------------------------------------------------


def test_a_reset_link_sets_the_password_once(club, organiser):
    scorer = member_login(club, Role.SCORER, "scorer")
    m = Membership.objects.get(player__user=scorer)
    inv = services.reset_link_create(membership=m, by=organiser)
    assert (inv.kind, inv.user, inv.role) == (Invitation.Kind.RESET, scorer, "")
    services.password_reset(token=inv.token, password="new-pass-word-1")
    scorer.refresh_from_db()
    assert scorer.check_password("new-pass-word-1")
    with pytest.raises(Conflict) as e:
        services.password_reset(token=inv.token, password="again-pass-word-2")
    assert e.value.code == "invitation_used"
    # a reset link is no invitation
    with pytest.raises(NotFound):
        services.invitation_accept(token=inv.token, user=login())


def test_a_new_reset_link_revokes_the_previous_one(club, organiser):
    m = Membership.objects.get(player__user=member_login(club, Role.MEMBER))
    first = services.reset_link_create(membership=m, by=organiser)
    services.reset_link_create(membership=m, by=organiser)
    assert Invitation.objects.get(pk=first.pk).state == Invitation.State.REVOKED


def test_a_reset_link_needs_a_login(club, organiser):
    m = MembershipFactory(club=club)
    with pytest.raises(Conflict) as e:
        services.reset_link_create(membership=m, by=organiser)
    assert e.value.code == "no_login"


def test_a_reset_link_only_for_someone_below_you_in_every_club(club, organiser):
    """Whoever sets a login's password acts as him everywhere: an organiser resets scorers and
    members of his club, not another organiser, an owner, himself, nor a member of his club who
    is an organiser of another club."""
    other_club = ClubFactory()
    peer = Membership.objects.get(player__user=member_login(club, Role.ORGANISER))
    owner = Membership.objects.get(player__user=member_login(club, Role.OWNER))
    me = Membership.objects.get(player__user=organiser)
    elsewhere = member_login(club, Role.MEMBER)
    MembershipFactory(club=other_club, player=elsewhere.player, role=Role.ORGANISER)
    for m in (peer, owner, me, Membership.objects.get(club=club, player__user=elsewhere)):
        with pytest.raises(PermissionDenied) as e:
            services.reset_link_create(membership=m, by=organiser)
        assert e.value.code == "reset_not_allowed"
    # the owner outranks the organiser
    assert (
        services.reset_link_create(membership=peer, by=owner.player.user).user == peer.player.user
    )


# --- API ---------------------------------------------------------------------------------------


def user_for(club, who: str):
    if who == "anonymous":
        return None
    if who == "outsider":
        return login()
    return member_login(club, who)


LIST = "/api/v1/clubs/teahouse/invitations/"


def test_an_organiser_creates_lists_and_revokes_invitations(club, organiser):
    api = client_for(organiser)
    made = api.post(LIST, {"role": "scorer"}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert_shape(body, InvitationOutSerializer())
    assert (body["kind"], body["role"], body["player"], body["state"]) == (
        "join",
        "scorer",
        None,
        "open",
    )
    inv = Invitation.objects.get(pk=body["id"])
    assert body["url"] == f"http://testserver/invite/{inv.token}/"
    listed = api.get(LIST).json()
    assert [i["id"] for i in listed["results"]] == [inv.pk]
    assert api.delete(f"{LIST}{inv.pk}/").status_code == 204
    assert api.get(LIST).json()["count"] == 0


def test_an_invitation_for_a_player_and_a_reset_link_by_api(club, organiser):
    api = client_for(organiser)
    wang = MembershipFactory(club=club, player=PlayerFactory(name="老王"))
    made = api.post(LIST, {"role": "member", "player": wang.player.pk}, format="json").json()
    assert made["player"] == {"id": wang.player.pk, "name": "老王"}
    scorer = member_login(club, Role.SCORER, "scorer")
    reset = api.post(LIST, {"kind": "reset", "player": scorer.player.pk}, format="json")
    assert reset.status_code == 201, reset.content
    assert (reset.json()["kind"], reset.json()["role"]) == ("reset", None)


@pytest.mark.parametrize(
    ("data", "status", "path", "code"),
    [
        ({}, 400, "role", "invalid"),
        ({"role": "owner"}, 400, "role", "invalid_choice"),
        ({"role": "scorer", "player": 999999}, 404, "player", "not_found"),
        ({"kind": "reset"}, 400, "player", "invalid"),
        ({"kind": "reset", "role": "scorer", "player": 1}, 400, "role", "invalid"),
        ({"role": "scorer", "colour": "red"}, 400, "colour", "unknown_field"),
    ],
)
def test_bad_invitations_are_refused_in_the_error_shape(
    club, organiser, json_errors, data, status, path, code
):
    answer = client_for(organiser).post(LIST, data, format="json")
    assert answer.status_code == status, answer.content
    errors = json_errors(answer)
    assert (errors[0]["path"], errors[0]["code"]) == (path, code)


def test_a_player_with_a_login_is_a_conflict(club, organiser, json_errors):
    scorer = member_login(club, Role.SCORER)
    answer = client_for(organiser).post(
        LIST, {"role": "member", "player": scorer.player.pk}, format="json"
    )
    assert answer.status_code == 409
    assert json_errors(answer)[0]["code"] == "player_has_login"


@pytest.mark.parametrize(
    ("who", "get", "post"),
    [("anonymous", 200, 401), ("outsider", 403, 403), ("member", 403, 403), ("scorer", 403, 403)],
)
def test_only_organisers_see_and_make_invitations(club, who, get, post):
    """Public club: anyone reads the club, but its links are the organisers' (403); anonymous
    writers are asked to log in; an anonymous GET needs a role too."""
    user = user_for(club, who)
    api = client_for(user)
    expected_get = 401 if who == "anonymous" else get
    assert api.get(LIST).status_code == expected_get
    assert api.post(LIST, {"role": "scorer"}, format="json").status_code == post
    inv = invite(club, member_login(club, Role.OWNER))
    assert api.delete(f"{LIST}{inv.pk}/").status_code == post
    assert Invitation.objects.get(pk=inv.pk).state == Invitation.State.OPEN


def test_a_members_only_club_hides_its_invitations_from_outsiders(json_errors):
    ClubFactory(slug="secret", visibility=Club.Visibility.MEMBERS)
    answer = client_for(login()).get("/api/v1/clubs/secret/invitations/")
    assert answer.status_code == 404


def test_revoking_another_clubs_invitation_is_not_found(club, organiser):
    other = ClubFactory()
    inv = invite(other, member_login(other, Role.OWNER))
    assert client_for(organiser).delete(f"{LIST}{inv.pk}/").status_code == 404
    assert Invitation.objects.get(pk=inv.pk).state == Invitation.State.OPEN


def test_accept_by_api(club, organiser, json_errors):
    inv = invite(club, organiser, role=Role.SCORER)
    user = login("xiaoli")
    url = f"/api/v1/invitations/{inv.token}/accept/"
    assert client_for(None).post(url).status_code == 401
    answer = client_for(user).post(url)
    assert answer.status_code == 200, answer.content
    assert_shape(answer.json(), AcceptedOutSerializer())
    assert answer.json()["club"] == {"slug": "teahouse", "name": "Teahouse"}
    assert answer.json()["role"] == "scorer"
    again = client_for(login()).post(url)
    assert again.status_code == 409
    assert json_errors(again)[0]["code"] == "invitation_used"
    assert client_for(user).post("/api/v1/invitations/nope/accept/").status_code == 404


def test_me_shows_the_linked_player_and_the_clubs_with_roles(club):
    user = member_login(club, Role.SCORER, "xiaoli")
    MembershipFactory(
        club=ClubFactory(name="Another", slug="another"), player=user.player, role=Role.OWNER
    )
    me = client_for(user).get("/api/v1/auth/me/").json()
    assert_shape(me, MeSerializer())
    assert {k: me[k] for k in ("id", "username", "is_staff")} == {
        "id": user.pk,
        "username": "xiaoli",
        "is_staff": False,
    }
    assert me["players"] == [{"id": user.player.pk, "name": "xiaoli"}]
    assert me["clubs"] == [
        {"slug": "another", "name": "Another", "role": "owner"},
        {"slug": "teahouse", "name": "Teahouse", "role": "scorer"},
    ]
    bare = client_for(login()).get("/api/v1/auth/me/").json()
    assert (bare["players"], bare["clubs"]) == ([], [])


def test_me_and_token_login_after_accepting(club, organiser):
    """A login created at an invitation logs in by token for scripts and sees its club."""
    inv = invite(club, organiser, role=Role.SCORER)
    services.invitation_accept_new_login(token=inv.token, username="xiaoli", password="pw-2026-x")
    api = client_for(None)
    token = api.post(
        "/api/v1/auth/token/", {"username": "xiaoli", "password": "pw-2026-x"}, format="json"
    )
    assert token.status_code == 200
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    assert api.get("/api/v1/auth/me/").json()["clubs"] == [
        {"slug": "teahouse", "name": "Teahouse", "role": "scorer"}
    ]


def test_me_reads_a_fixed_number_of_queries(club, django_assert_max_num_queries):
    user = member_login(club, Role.SCORER)
    for _ in range(5):
        MembershipFactory(club=ClubFactory(), player=user.player)
    api = client_for(user)
    with django_assert_max_num_queries(4):  # token + user, players, memberships with clubs
        assert len(api.get("/api/v1/auth/me/").json()["clubs"]) == 6


# --- a reset link cannot take over an account (issue: the takeover through a second organiser)


def test_a_reset_link_is_refused_once_its_member_owns_a_club_of_his_own(client, club):
    """The takeover, step by step: the owner makes a reset link for the member M; M then opens
    his own members-only club; a second organiser of the first club does not see the link, and
    when the link is used anyway the member's password does not change and the page says why."""
    from clubs.services.clubs import club_create

    owner = member_login(club, Role.OWNER, "owner")
    second = member_login(club, Role.ORGANISER, "second")
    m_user = member_login(club, Role.MEMBER, "m")
    m_user.set_password("m-own-pass-word")
    m_user.save()
    membership = Membership.objects.get(club=club, player__user=m_user)
    inv = services.reset_link_create(membership=membership, by=owner)
    club_create(name="M's own", slug="ms-own", user=m_user, visibility=Club.Visibility.MEMBERS)

    # the second organiser never reads the link: not on the members page, not in the API
    client.force_login(second)
    page = client.get("/clubs/teahouse/members/")
    assert page.status_code == 200 and inv.token not in page.content.decode()
    listed = client_for(second).get(LIST).json()
    assert inv.pk not in [i["id"] for i in listed["results"]]

    # used anyway (read over a shoulder): refused, said so, nothing changed
    client.logout()
    shown = client.get(f"/invite/{inv.token}/")
    assert shown.status_code == 410
    assert "may no longer reset this login" in shown.content.decode()
    posted = client.post(
        f"/invite/{inv.token}/",
        {"new_password1": "takeover-pass-9", "new_password2": "takeover-pass-9"},
    )
    assert posted.status_code == 410
    with pytest.raises(Conflict) as e:
        services.password_reset(token=inv.token, password="takeover-pass-9")
    assert e.value.code == "reset_no_longer_allowed"
    m_user.refresh_from_db()
    assert m_user.check_password("m-own-pass-word")
    assert not m_user.check_password("takeover-pass-9")
    assert Invitation.objects.get(pk=inv.pk).used_at is None


def test_a_reset_link_is_listed_to_its_creator_and_the_owner_only(club):
    owner = member_login(club, Role.OWNER, "owner")
    first = member_login(club, Role.ORGANISER, "first")
    second = member_login(club, Role.ORGANISER, "second")
    scorer = Membership.objects.get(player__user=member_login(club, Role.SCORER, "scorer"))
    reset = services.reset_link_create(membership=scorer, by=first)
    join = invite(club, second)
    seen = {
        who.username: {i["id"] for i in client_for(who).get(LIST).json()["results"]}
        for who in (owner, first, second)
    }
    assert seen == {
        "owner": {reset.pk, join.pk},
        "first": {reset.pk, join.pk},
        "second": {join.pk},
    }


def test_a_reset_link_is_refused_when_its_creator_is_no_longer_above_the_member(club):
    first = member_login(club, Role.ORGANISER, "first")
    member = Membership.objects.get(player__user=member_login(club, Role.MEMBER, "m"))
    inv = services.reset_link_create(membership=member, by=first)
    Membership.objects.filter(club=club, player__user=first).update(role=Role.MEMBER)
    with pytest.raises(Conflict) as e:
        services.password_reset(token=inv.token, password="new-pass-word-1")
    assert e.value.code == "reset_no_longer_allowed"
