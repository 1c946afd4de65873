import pytest
from rest_framework.test import APIClient

from clubs.api.auth import MeSerializer
from tests.helpers import assert_shape, client_for, login

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
