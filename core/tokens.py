"""A login's API token (DRF's authtoken: one per login): read, replaced, revoked.

A password change (the page) and a reset (a reset link) revoke it: whoever knew the old password
may have made one, and it must not outlive that password.
"""

from __future__ import annotations

import functools

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from core.db import model_from_row, prepared_row


def api_token_of(user) -> Token | None:
    """The login's API token (``POST /api/v1/auth/token/`` makes it), if it has one."""
    return Token.objects.filter(user=user).first()


def api_token_create(user) -> Token:
    """A new API token for the login, replacing the one it had (which stops working)."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def api_tokens_revoke(user) -> int:
    """End the login's API tokens; how many there were. A password change or reset calls this:
    whoever knew the old password may have made one, and it must not outlive it."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (``Authorization: Token …``), its lookup of the token and its
    login one prepared statement on PostgreSQL: every API write pays it, and Django building
    the ``select_related`` query cost a hand more than PostgreSQL running it (issue 25). Same
    answers, same refusals."""

    def authenticate_credentials(self, key):
        if connection.vendor != "postgresql":
            return super().authenticate_credentials(key)
        user_model = get_user_model()
        row = prepared_row(_token_sql(), {"key": key})
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token_fields, user_fields = _token_fields(), _user_fields()
        token = model_from_row(Token, token_fields, row[: len(token_fields)])
        user = model_from_row(user_model, user_fields, row[len(token_fields) :])
        token.user = user
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, token


@functools.cache
def _token_fields() -> list[str]:
    return [f.attname for f in Token._meta.concrete_fields]


@functools.cache
def _user_fields() -> list[str]:
    return [f.attname for f in get_user_model()._meta.concrete_fields]


@functools.cache
def _token_sql() -> str:
    user_model = get_user_model()
    columns = [f"t.{f.column}" for f in Token._meta.concrete_fields]
    columns += [f"u.{f.column}" for f in user_model._meta.concrete_fields]
    return (
        f"SELECT {', '.join(columns)} FROM {Token._meta.db_table} t "
        f"JOIN {user_model._meta.db_table} u "
        f"ON u.{user_model._meta.pk.column} = t.{Token._meta.get_field('user').column} "
        "WHERE t.key = %(key)s"
    )
