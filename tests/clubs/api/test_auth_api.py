import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.api.auth import MeSerializer
from clubs.models import Membership, Role
from clubs.services import invitations
from tests.clubs.factories import ClubFactory
from tests.helpers import assert_shape, client_for, login, member_login

pytestmark = pytest.mark.django_db


def test_obtain_token_and_use_it(api_client, user):
    response = api_client.post(
        "/api/v1/auth/token/", {"username": "player", "password": "pl4yer-pass-word"}
    )
    assert response.status_code == 200
    token = response.json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = api_client.get("/api/v1/auth/me/")
    assert me.status_code == 200
    assert me.json()["username"] == "player"


def test_wrong_password_is_400_in_error_shape(api_client, user, json_errors):
    response = api_client.post("/api/v1/auth/token/", {"username": "player", "password": "x"})
    assert response.status_code == 400
    assert json_errors(response)[0]["path"] == ""


def test_session_auth_for_browsable_api(client, user):
    assert client.login(username="player", password="pl4yer-pass-word")
    response = client.get("/api/v1/auth/me/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert b"player" in response.content


def test_token_fixture(auth_client):
    assert auth_client.get("/api/v1/auth/me/").json()["username"] == "player"


def test_admin_site(admin_client):
    assert admin_client.get("/admin/").status_code == 200


def test_me_of_a_login_without_an_e_mail_is_what_the_schema_says():
    """A login made at sign-up has no e-mail: ``""``, which the schema declared an e-mail
    address (``format: email``) until tests/core/test_api_fuzz.py found it did not conform."""
    response = client_for(login("no-mail")).get("/api/v1/auth/me/")
    assert response.json()["email"] == ""
    assert_shape(response.json(), MeSerializer())
    spec = APIClient().get("/api/schema/?format=json").json()
    assert "format" not in spec["components"]["schemas"]["Me"]["properties"]["email"]


# --- a password change or reset ends the old password's tokens and sessions ------------------


def token_of(username: str, password: str) -> str:
    """A token made at the API's login with this password."""
    body = {"username": username, "password": password}
    return APIClient().post("/api/v1/auth/token/", body).json()["token"]


def test_changing_the_password_on_the_page_revokes_the_token_and_other_sessions(client):
    user = login("changer")
    user.set_password("old-pass-word-1")
    user.save()
    key = token_of("changer", "old-pass-word-1")
    elsewhere = Client()
    elsewhere.force_login(user)
    assert elsewhere.get("/account/token/").status_code == 200
    client.force_login(user)
    changed = client.post(
        "/password/",
        {
            "old_password": "old-pass-word-1",
            "new_password1": "new-pass-word-2",
            "new_password2": "new-pass-word-2",
        },
    )
    assert changed.status_code == 302
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/auth/me/").status_code == 401
    # the other browser is signed out; this one stays in
    assert elsewhere.get("/account/token/").status_code == 302
    assert client.get("/account/token/").status_code == 200


def test_a_reset_link_revokes_the_token(client):
    club = ClubFactory()
    organiser = member_login(club, Role.ORGANISER, "org")
    member = member_login(club, Role.MEMBER, "forgetful")
    member.set_password("old-pass-word-1")
    member.save()
    key = token_of("forgetful", "old-pass-word-1")
    inv = invitations.reset_link_create(
        membership=Membership.objects.get(player__user=member), by=organiser
    )
    invitations.password_reset(token=inv.token, password="new-pass-word-2")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/auth/me/").status_code == 401


def test_the_token_page_shows_revokes_and_replaces_the_token(client):
    user = login("scripter")
    client.force_login(user)
    assert "You have no API token." in client.get("/account/token/").content.decode()
    made = client.post("/account/token/", {"action": "create"})
    key = Token.objects.get(user=user).key
    assert made.status_code == 200 and key in made.content.decode()
    page = client.get("/account/token/").content.decode()
    assert key not in page and f"…{key[-4:]}" in page
    client.post("/account/token/", {"action": "revoke"})
    assert not Token.objects.filter(user=user).exists()


def test_the_api_revokes_its_own_token(auth_client, api_client):
    assert auth_client.delete("/api/v1/auth/token/").status_code == 204
    assert auth_client.get("/api/v1/auth/me/").status_code == 401
    assert api_client.delete("/api/v1/auth/token/").status_code == 401
