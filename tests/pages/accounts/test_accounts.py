"""The account pages: the members page and its actions per role, the link page (join, reset,
closed links), CSRF on every write, the login throttle, and the queries a page reads."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from clubs.models import Club, Invitation, Membership, Role
from clubs.services import invitations as services
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory
from tests.helpers import login, member_login

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "outsider", Role.MEMBER, Role.SCORER, Role.ORGANISER, Role.OWNER]


def visitor(club: Club, who: str) -> Client:
    client = Client()
    if who == "outsider":
        client.force_login(login())
    elif who != "anonymous":
        client.force_login(member_login(club, who, f"{who}-{club.slug}"))
    return client


@pytest.fixture
def club():
    c = ClubFactory(slug="teahouse", name="Teahouse")
    MembershipFactory(club=c, player=PlayerFactory(name="老王"), role=Role.MEMBER)
    return c


@pytest.fixture
def organiser(club):
    return member_login(club, Role.ORGANISER, "organiser")


MEMBERS = "/clubs/teahouse/members/"


# --- the members page: who sees what -------------------------------------------------------

VIEW = {  # role → (status, sees login badges, sees the organiser's forms)
    "anonymous": (200, False, False),
    "outsider": (200, False, False),
    Role.MEMBER: (200, True, False),
    Role.SCORER: (200, True, False),
    Role.ORGANISER: (200, True, True),
    Role.OWNER: (200, True, True),
}


@pytest.mark.parametrize("who", ROLES)
def test_the_members_page_of_a_public_club(club, who):
    status, badges, manages = VIEW[who]
    answer = visitor(club, who).get(MEMBERS)
    assert answer.status_code == status
    html = answer.content.decode()
    assert "老王" in html
    assert ('class="badge no-login"' in html) is badges
    assert ('action="/clubs/teahouse/invitations/"' in html) is manages
    assert ("/members/" in html and "/role/" in html) is manages


@pytest.mark.parametrize("who", ROLES)
def test_a_members_only_club_is_404_to_outsiders(who):
    club = ClubFactory(slug="secret", visibility=Club.Visibility.MEMBERS)
    answer = visitor(club, who).get("/clubs/secret/members/")
    assert answer.status_code == (404 if who in ("anonymous", "outsider") else 200)


def test_an_unknown_club_is_404():
    assert Client().get("/clubs/nowhere/members/").status_code == 404


# --- the organiser's actions, per role ------------------------------------------------------

# role → what an organiser's action answers: done (302 back to the page), sign in first (302 to
# the login page), or 403 for those who see the club without the role
DONE, SIGN_IN = "done", "sign in"
ACTION = {"anonymous": SIGN_IN, "outsider": 403, Role.MEMBER: 403, Role.SCORER: 403,
          Role.ORGANISER: DONE, Role.OWNER: DONE}  # fmt: skip


def status(expected) -> int:
    return 302 if expected in (DONE, SIGN_IN) else expected


@pytest.mark.parametrize("who", ROLES)
def test_creating_an_invitation(club, who):
    answer = visitor(club, who).post("/clubs/teahouse/invitations/", {"role": "scorer"})
    assert answer.status_code == status(ACTION[who])
    made = Invitation.objects.filter(club=club).count()
    assert made == (1 if ACTION[who] == DONE else 0)
    if made:
        inv = Invitation.objects.get(club=club)
        assert answer["Location"] == f"{MEMBERS}#link-{inv.pk}"
        assert (inv.kind, inv.role, inv.player) == ("join", "scorer", None)


@pytest.mark.parametrize("who", ROLES)
def test_a_members_only_clubs_actions_are_404_to_outsiders(who):
    club = ClubFactory(slug="secret", visibility=Club.Visibility.MEMBERS)
    answer = visitor(club, who).post("/clubs/secret/invitations/", {"role": "scorer"})
    expected = 404 if who in ("anonymous", "outsider") else status(ACTION[who])
    assert answer.status_code == expected


@pytest.mark.parametrize("who", ROLES)
def test_changing_a_role(club, who):
    wang = Membership.objects.get(club=club, player__name="老王")
    answer = visitor(club, who).post(f"{MEMBERS}{wang.pk}/role/", {"role": "scorer"})
    assert answer.status_code == status(ACTION[who])
    wang.refresh_from_db()
    assert wang.role == (Role.SCORER if ACTION[who] == DONE else Role.MEMBER)


@pytest.mark.parametrize("who", ROLES)
def test_removing_a_member(club, who):
    wang = Membership.objects.get(club=club, player__name="老王")
    answer = visitor(club, who).post(f"{MEMBERS}{wang.pk}/remove/")
    assert answer.status_code == status(ACTION[who])
    assert Membership.objects.filter(pk=wang.pk).exists() is (ACTION[who] != DONE)


@pytest.mark.parametrize("who", ROLES)
def test_revoking_a_link(club, organiser, who):
    inv = services.invitation_create(club=club, by=organiser, role=Role.MEMBER)
    answer = visitor(club, who).post(f"/clubs/teahouse/invitations/{inv.pk}/revoke/")
    assert answer.status_code == status(ACTION[who])
    inv.refresh_from_db()
    assert (inv.revoked_at is not None) is (ACTION[who] == DONE)


@pytest.mark.parametrize("who", ROLES)
def test_issuing_a_reset_link(club, who):
    scorer = Membership.objects.get(player__user=member_login(club, Role.SCORER, "zhang"))
    answer = visitor(club, who).post(f"{MEMBERS}{scorer.pk}/reset/")
    assert answer.status_code == status(ACTION[who])
    links = Invitation.objects.filter(kind="reset", user=scorer.player.user)
    assert links.count() == (1 if ACTION[who] == DONE else 0)


def test_an_invitation_for_a_player_without_a_login(club, organiser):
    c = Client()
    c.force_login(organiser)
    wang = Membership.objects.get(club=club, player__name="老王")
    page = c.get(MEMBERS).content.decode()
    assert f'<option value="{wang.player_id}">老王</option>' in page
    # a player with a login is not offered
    assert f'<option value="{organiser.player.pk}">' not in page
    c.post("/clubs/teahouse/invitations/", {"role": "member", "player": wang.player_id})
    assert Invitation.objects.get(club=club).player == wang.player
    # one with a login, posted all the same, is refused and makes nothing
    answer = c.post(
        "/clubs/teahouse/invitations/", {"role": "member", "player": organiser.player.pk}
    )
    assert answer.status_code == 302
    assert Invitation.objects.filter(club=club).count() == 1


def test_an_invitation_for_an_organiser_is_refused(club, organiser):
    c = Client()
    c.force_login(organiser)
    c.post("/clubs/teahouse/invitations/", {"role": "organiser"})
    assert not Invitation.objects.exists()


def test_the_open_links_are_shown_with_their_qr_code_and_revoke_button(club, organiser):
    inv = services.invitation_create(club=club, by=organiser, role=Role.SCORER)
    c = Client()
    c.force_login(organiser)
    html = c.get(MEMBERS).content.decode()
    assert f"http://testserver/invite/{inv.token}/" in html
    assert '<svg viewBox="' in html and "qr-code" in html  # inline, drawn by the server
    assert f'action="/clubs/teahouse/invitations/{inv.pk}/revoke/"' in html
    services.invitation_revoke(invitation=inv)
    assert inv.token not in c.get(MEMBERS).content.decode()


def test_an_organiser_cannot_make_change_or_remove_an_owner(club, organiser):
    owner = Membership.objects.get(player__user=member_login(club, Role.OWNER, "boss"))
    wang = Membership.objects.get(club=club, player__name="老王")
    c = Client()
    c.force_login(organiser)
    assert c.post(f"{MEMBERS}{wang.pk}/role/", {"role": "owner"}).status_code == 403
    assert c.post(f"{MEMBERS}{owner.pk}/role/", {"role": "member"}).status_code == 403
    assert c.post(f"{MEMBERS}{owner.pk}/remove/").status_code == 403
    wang.refresh_from_db()
    owner.refresh_from_db()
    assert (wang.role, owner.role) == (Role.MEMBER, Role.OWNER)
    # nor does the page offer it
    html = c.get(MEMBERS).content.decode()
    assert 'value="owner"' not in html
    assert f"/members/{owner.pk}/role/" not in html


def test_an_owner_makes_an_owner_but_the_last_owner_stays(club):
    boss = member_login(club, Role.OWNER, "boss")
    me = Membership.objects.get(player__user=boss)
    wang = Membership.objects.get(club=club, player__name="老王")
    c = Client()
    c.force_login(boss)
    answer = c.post(f"{MEMBERS}{me.pk}/role/", {"role": "member"}, follow=True)
    assert "A club keeps at least one owner." in answer.content.decode()
    answer = c.post(f"{MEMBERS}{me.pk}/remove/", follow=True)
    assert "A club keeps at least one owner." in answer.content.decode()
    me.refresh_from_db()
    assert me.role == Role.OWNER
    c.post(f"{MEMBERS}{wang.pk}/role/", {"role": "owner"})
    wang.refresh_from_db()
    assert wang.role == Role.OWNER
    c.post(f"{MEMBERS}{me.pk}/role/", {"role": "organiser"})  # two owners: he may step down
    me.refresh_from_db()
    assert me.role == Role.ORGANISER


def test_a_reset_link_for_a_peer_is_refused_in_words(club, organiser):
    peer = Membership.objects.get(player__user=member_login(club, Role.ORGANISER, "peer"))
    c = Client()
    c.force_login(organiser)
    answer = c.post(f"{MEMBERS}{peer.pk}/reset/", follow=True)
    assert "whose role is below yours" in answer.content.decode()
    assert not Invitation.objects.exists()


def test_a_member_of_another_club_is_404(club, organiser):
    stranger = MembershipFactory(club=ClubFactory())
    c = Client()
    c.force_login(organiser)
    assert c.post(f"{MEMBERS}{stranger.pk}/role/", {"role": "scorer"}).status_code == 404
    assert c.post(f"{MEMBERS}{stranger.pk}/remove/").status_code == 404
    other = services.invitation_create(
        club=stranger.club, by=member_login(stranger.club, Role.OWNER), role=Role.MEMBER
    )
    assert c.post(f"/clubs/teahouse/invitations/{other.pk}/revoke/").status_code == 404


def test_a_get_on_an_action_is_not_allowed(club, organiser):
    c = Client()
    c.force_login(organiser)
    assert c.get("/clubs/teahouse/invitations/").status_code == 405


# --- the link page -----------------------------------------------------------------------------


def link(inv: Invitation) -> str:
    return f"/invite/{inv.token}/"


def test_a_visitor_creates_his_login_at_the_invitation(club, organiser):
    inv = services.invitation_create(club=club, by=organiser, role=Role.SCORER)
    c = Client()
    page = c.get(link(inv)).content.decode()
    assert "Teahouse" in page and "Scorer" in page
    assert f"/login/?next=/invite/{inv.token}/" in page  # or sign in first and come back
    answer = c.post(
        link(inv),
        {"username": "xiaoli", "password1": "mahjong-2026-li", "password2": "mahjong-2026-li"},
    )
    assert answer.status_code == 302 and answer["Location"] == "/clubs/teahouse/"
    user = get_user_model().objects.get(username="xiaoli")
    assert Membership.objects.get(club=club, player__user=user).role == Role.SCORER
    html = c.get(MEMBERS).content.decode()  # signed in as him
    assert "Your role in this club: <strong>Scorer</strong>." in html


def test_a_bad_sign_up_at_the_invitation_shows_the_form_again(club, organiser):
    inv = services.invitation_create(club=club, by=organiser, role=Role.SCORER)
    answer = Client().post(link(inv), {"username": "organiser", "password1": "a", "password2": "b"})
    assert answer.status_code == 200
    assert 'class="field has-error"' in answer.content.decode()
    assert Invitation.objects.get(pk=inv.pk).state == "open"


def test_a_signed_in_person_accepts_with_his_login_and_keeps_a_higher_role(club, organiser):
    inv = services.invitation_create(club=club, by=organiser, role=Role.MEMBER)
    c = Client()
    c.force_login(organiser)
    page = c.get(link(inv)).content.decode()
    assert "Accept as organiser" in page and "you keep that role" in page
    assert c.post(link(inv)).status_code == 302
    assert Membership.objects.get(player__user=organiser).role == Role.ORGANISER


def test_the_invited_player_gets_the_login(club, organiser):
    wang = Membership.objects.get(club=club, player__name="老王")
    inv = services.invitation_create(club=club, by=organiser, role=Role.SCORER, player=wang.player)
    c = Client()
    assert "老王" in c.get(link(inv)).content.decode()
    c.post(
        link(inv),
        {"username": "laowang", "password1": "tea-and-tiles-9", "password2": "tea-and-tiles-9"},
    )
    wang = Membership.objects.select_related("player__user").get(pk=wang.pk)
    assert wang.player.user.username == "laowang" and wang.role == Role.SCORER


@pytest.mark.parametrize(
    ("close", "words"),
    [
        ({"used_at": timezone.now()}, "This link was already used."),
        ({"revoked_at": timezone.now()}, "This link was revoked."),
        ({"expires_at": timezone.now() - timedelta(seconds=1)}, "This link has expired."),
    ],
)
def test_a_closed_link_says_why_with_410(club, organiser, close, words):
    inv = services.invitation_create(club=club, by=organiser, role=Role.SCORER)
    Invitation.objects.filter(pk=inv.pk).update(**close)
    for answer in (
        Client().get(link(inv)),
        Client().post(
            link(inv), {"username": "x1", "password1": "pw-x1-2026!", "password2": "pw-x1-2026!"}
        ),
    ):
        assert answer.status_code == 410
        html = answer.content.decode()
        assert words in html and "Ask an organiser of Teahouse for a new link." in html
    assert not get_user_model().objects.filter(username="x1").exists()


def test_an_unknown_link_is_404():
    assert Client().get("/invite/no-such-token/").status_code == 404


def test_a_reset_link_sets_a_new_password_once(club, organiser):
    zhang = member_login(club, Role.SCORER, "zhang")
    m = Membership.objects.get(player__user=zhang)
    inv = services.reset_link_create(membership=m, by=organiser)
    c = Client()
    assert "zhang" in c.get(link(inv)).content.decode()
    new = {"new_password1": "new-pass-zhang-1", "new_password2": "new-pass-zhang-1"}
    answer = c.post(link(inv), new)
    assert answer.status_code == 302 and answer["Location"] == "/login/"
    zhang.refresh_from_db()
    assert zhang.check_password("new-pass-zhang-1")
    assert c.get(link(inv)).status_code == 410
    assert c.post(link(inv), new).status_code == 410


def test_a_reset_form_with_mismatched_passwords_changes_nothing(club, organiser):
    zhang = member_login(club, Role.SCORER, "zhang")
    inv = services.reset_link_create(
        membership=Membership.objects.get(player__user=zhang), by=organiser
    )
    answer = Client().post(link(inv), {"new_password1": "aaa-bbb-ccc-1", "new_password2": "x"})
    assert answer.status_code == 200
    assert Invitation.objects.get(pk=inv.pk).state == "open"


# --- CSRF and the login throttle ---------------------------------------------------------------


def test_every_page_write_needs_the_csrf_token(club, organiser):
    c = Client(enforce_csrf_checks=True)
    c.force_login(organiser)
    wang = Membership.objects.get(club=club, player__name="老王")
    inv = services.invitation_create(club=club, by=organiser, role=Role.SCORER)
    for url, data in [
        ("/clubs/teahouse/invitations/", {"role": "scorer"}),
        (f"{MEMBERS}{wang.pk}/role/", {"role": "scorer"}),
        (f"{MEMBERS}{wang.pk}/remove/", {}),
        (f"/clubs/teahouse/invitations/{inv.pk}/revoke/", {}),
        (link(inv), {}),
        ("/password/", {}),
        ("/logout/", {}),
    ]:
        assert c.post(url, data).status_code == 403, url
    anonymous = Client(enforce_csrf_checks=True)
    for url in (link(inv), "/login/", "/signup/"):
        assert anonymous.post(url, {"username": "a", "password": "b"}).status_code == 403, url
    # nothing happened
    wang.refresh_from_db()
    assert wang.role == Role.MEMBER
    assert Invitation.objects.get(pk=inv.pk).state == "open"
    # with the token it works
    page = c.get(MEMBERS)
    token = page.cookies["csrftoken"].value
    answer = c.post(
        "/clubs/teahouse/invitations/",
        {"role": "scorer", "csrfmiddlewaretoken": token},
    )
    assert answer.status_code == 302


def test_the_eleventh_failed_login_on_the_page_is_429_with_a_message(settings):
    settings.THROTTLE_LOGIN = "10/min"
    settings.THROTTLE_LOGIN_ADDRESS = "30/min"
    get_user_model().objects.create_user(username="laozhang", password="right-pass-word-1")
    c = Client()
    wrong = {"username": "laozhang", "password": "wrong"}
    assert [c.post("/login/", wrong).status_code for _ in range(10)] == [200] * 10
    refused = c.post("/login/", wrong)
    assert refused.status_code == 429
    assert "Too many failed logins; try again in" in refused.content.decode()
    # while throttled even the right password is refused
    right = {"username": "laozhang", "password": "right-pass-word-1"}
    assert c.post("/login/", right).status_code == 429


def test_a_login_lands_back_on_the_invitation(club, organiser):
    inv = services.invitation_create(club=club, by=organiser, role=Role.SCORER)
    get_user_model().objects.create_user(username="laozhang", password="right-pass-word-1")
    answer = Client().post(
        f"/login/?next={link(inv)}",
        {"username": "laozhang", "password": "right-pass-word-1", "next": link(inv)},
    )
    assert answer.status_code == 302 and answer["Location"] == link(inv)


# --- Chinese -----------------------------------------------------------------------------------


def test_the_pages_speak_chinese(club, organiser):
    inv = services.invitation_create(club=club, by=organiser, role=Role.SCORER)
    c = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "记分员" in c.get(link(inv)).content.decode()
    c.force_login(organiser)
    html = c.get(MEMBERS).content.decode()
    assert "会员" in html and "邀请" in html and "撤销" in html


# --- queries -----------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["anonymous", Role.MEMBER, Role.ORGANISER])
def test_the_members_page_reads_a_fixed_number_of_queries(club, who, django_assert_max_num_queries):
    """Five or fifty members and links: the same queries (club, the visitor's roles, the members
    with their logins, the open links; the session and its user)."""
    c = visitor(club, who)
    by = member_login(club, Role.OWNER, "boss")
    for n in range(50):
        m = MembershipFactory(club=club, player=PlayerFactory(user=login() if n % 2 else None))
        if n % 5 == 0:
            services.invitation_create(club=club, by=by, role=Role.MEMBER)
        if n % 10 == 1:
            services.reset_link_create(membership=m, by=by)
    with django_assert_max_num_queries(7):
        answer = c.get(MEMBERS)
    assert answer.status_code == 200
    assert (
        answer.content.decode().count('class="member"')
        == Membership.objects.filter(club=club).count()
    )


def test_the_link_page_reads_a_fixed_number_of_queries(
    club, organiser, django_assert_max_num_queries
):
    inv = services.invitation_create(club=club, by=organiser, role=Role.SCORER)
    with django_assert_max_num_queries(2):
        assert Client().get(link(inv)).status_code == 200
