"""Shared pieces of the tests: logins, API clients, the error shape, a snapshot of the database.

Records of hands live beside the engine tests (``tests/scoring/engine/records.py``); factories
per app (``tests/clubs/factories.py``).
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys

from django.contrib.auth import get_user_model
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.models import (
    Bettor,
    Club,
    Hand,
    HandRevision,
    Membership,
    Payment,
    Player,
    Role,
    Seat,
    SessionResult,
    TableSession,
)
from core.models import IdempotentRequest
from tests.clubs.factories import MembershipFactory, PlayerFactory
from tests.processes import MODE_VARIABLES, ROOT

_names = itertools.count(1)

#: Chinese text followed by an ASCII colon (a tag between them allowed; not a URL's "://"):
#: a page in Chinese takes the full-width "：" (原因：, 叫马：)
_ASCII_COLON = re.compile(r"[\u4e00-\u9fff]\s*(</\w+>)?\s*:(?!//)")


def ascii_colons(html: str) -> list[str]:
    """Where a page in Chinese puts ":" after Chinese text (a little of the text before each)."""
    return [html[max(0, m.start() - 20) : m.end()] for m in _ASCII_COLON.finditer(html)]


def login(username: str | None = None, *, superuser: bool = False):
    """A user without a password (these tests never log in by one)."""
    username = username or f"login{next(_names)}"
    return get_user_model().objects.create(
        username=username, is_superuser=superuser, is_staff=superuser
    )


def member_login(club: Club, role: str = Role.MEMBER, username: str | None = None):
    """A login with a player holding ``role`` in ``club``."""
    user = login(username)
    player = PlayerFactory(user=user, name=user.username)
    MembershipFactory(club=club, player=player, role=role)
    return user


def client_for(user=None) -> APIClient:
    """An APIClient authenticated by token, like a real client: each request loads the user
    afresh (``force_authenticate`` would share one user object, and its cached roles)."""
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def two_reads(path: str, client=None) -> tuple[int, int, str]:
    """The queries of a first read of the page at ``path`` (which computes and keeps what it
    shows) and of the next (which finds it), and the page the second read answered; each read
    answers 200. ``client``: an anonymous visitor reading in English by default."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = client or Client(HTTP_ACCEPT_LANGUAGE="en")
    with CaptureQueriesContext(connection) as first:
        assert client.get(path).status_code == 200
    with CaptureQueriesContext(connection) as again:
        response = client.get(path)
        assert response.status_code == 200
    return len(first), len(again), response.content.decode()


def assert_error_shape(body) -> list[dict]:
    """The project's one error shape: ``{"errors": [{"path", "code", "message"}, …]}``."""
    assert isinstance(body, dict) and set(body) == {"errors"}, body
    errors = body["errors"]
    assert isinstance(errors, list) and errors, body
    for item in errors:
        assert set(item) == {"path", "code", "message"}, item
        assert all(isinstance(item[k], str) for k in item), item
    return errors


STATE_MODELS = (Club, Player, Membership, TableSession, Seat, Bettor, SessionResult, Hand,
                HandRevision, Payment, IdempotentRequest)  # fmt: skip


def db_state() -> dict[str, list[tuple]]:
    """Every row of the clubs' tables: equal before and after = nothing changed."""
    return {
        model.__name__: sorted(
            (tuple(sorted(row.items())) for row in model.objects.values()), key=repr
        )
        for model in STATE_MODELS
    }


def assert_shape(data, field, path: str = "") -> None:
    """``data`` has exactly the fields the output serializer ``field`` declares, recursively
    (optional ones may be absent, nullable ones null): what the schema says is what the API
    answers."""
    where = path or "the answer"
    if data is None:
        assert field.allow_null, f"{where} is null"
        return
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        assert isinstance(data, list), f"{where} is not a list"
        for i, item in enumerate(data):
            assert_shape(item, field.child, f"{path}[{i}]")
    elif isinstance(field, serializers.Serializer):
        assert isinstance(data, dict), f"{where} is not an object"
        fields = field.fields
        assert not set(data) - set(fields), f"{where} has undeclared {set(data) - set(fields)}"
        missing = {n for n, f in fields.items() if f.required and n not in data}
        assert not missing, f"{where} lacks {missing}"
        for name, value in data.items():
            assert_shape(value, fields[name], f"{path}.{name}" if path else name)


def run_python(args, timeout: float = 120, **env_overrides) -> subprocess.CompletedProcess:
    """``python <args>`` in the project, with the suite's environment minus its mode."""
    env = {k: v for k, v in os.environ.items() if k not in MODE_VARIABLES}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=timeout,
    )  # fmt: skip


def show_settings(*names, **env) -> subprocess.CompletedProcess:
    """Print ``repr(settings.<name>)`` for each name, one a line, in a fresh process."""
    code = "import django; django.setup(); from django.conf import settings as s; " + "; ".join(
        f"print(repr(s.{n}))" for n in names
    )
    return run_python(["-c", code], **env)
