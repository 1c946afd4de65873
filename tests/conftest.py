"""Shared fixtures for the whole suite.

* ``api_client``: anonymous ``rest_framework.test.APIClient``.
* ``user`` / ``auth_client``: a plain user, and an APIClient authenticated with its token.
* ``admin_user`` (pytest-django) / ``admin_api_client``: a superuser and a client logged in as it.
* ``json_errors``: helper that asserts the error shape and returns the ``errors`` list.

Throttle history is cleared before every test and the rates are raised, so tests never get
throttled by accident; a test that checks throttling sets its own rate on its own view.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

RELAXED_RATE = "1000000/min"


@pytest.fixture(autouse=True)
def _no_accidental_throttling(monkeypatch):
    scopes = {*SimpleRateThrottle.THROTTLE_RATES, "anon", "user", "engine"}
    rates = dict.fromkeys(scopes, RELAXED_RATE)
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def user(db, django_user_model):
    return django_user_model.objects.create_user(
        username="player", email="player@example.com", password="pl4yer-pass-word"
    )


@pytest.fixture
def auth_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def admin_api_client(admin_user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user=admin_user)
    return client


def assert_error_shape(body) -> list[dict]:
    assert isinstance(body, dict) and set(body) == {"errors"}, body
    errors = body["errors"]
    assert isinstance(errors, list) and errors, body
    for item in errors:
        assert set(item) == {"path", "code", "message"}, item
        assert all(isinstance(item[k], str) for k in item), item
    return errors


@pytest.fixture
def json_errors():
    """``json_errors(response)`` -> list of error items (asserts the shape)."""

    def check(response) -> list[dict]:
        assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
        return assert_error_shape(response.json())

    return check
