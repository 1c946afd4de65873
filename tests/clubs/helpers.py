"""Shared pieces of the clubs API tests: hand records, logins and a snapshot of the database."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.models import (
    Bettor,
    Club,
    IdempotentRequest,
    Membership,
    Player,
    Role,
    Seat,
    SessionResult,
    TableSession,
)
from scoring.models import Hand, HandRevision, Payment
from tests.engine.records import PINGHU
from tests.factories import MembershipFactory, PlayerFactory

#: the same hand self-drawn: every other seat pays S1 1
SELFDRAW = {**PINGHU, "events": [{**PINGHU["events"][0], "from": None}]}

_names = itertools.count(1)


def login(username: str | None = None, *, superuser: bool = False):
    """A user without a password hash (hashing is slow and these tests never log in by it)."""
    username = username or f"login{next(_names)}"
    return get_user_model().objects.create(
        username=username, is_superuser=superuser, is_staff=superuser
    )


def member_login(club: Club, role: str = Role.MEMBER, username: str | None = None):
    """A login with a player holding ``role`` in ``club`` (fast ``tests.factories.member``)."""
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


STATE_MODELS = (Club, Player, Membership, TableSession, Seat, Bettor, SessionResult, Hand,
                HandRevision, Payment, IdempotentRequest)  # fmt: skip


def db_state() -> dict[str, list[tuple]]:
    """Every row of the clubs and scoring tables: equal before and after = nothing changed."""
    return {
        model.__name__: sorted(
            (tuple(sorted(row.items())) for row in model.objects.values()), key=repr
        )
        for model in STATE_MODELS
    }
