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
from core.idempotency import remember_prior, request_key
from core.models import IdempotentRequest


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
    answers, same refusals.

    A POST with an ``Idempotency-Key`` (every hand a phone sends) reads the login's answer for
    that key in the same statement, and leaves it for ``core.idempotency``
    (``remember_prior``): the key's lookup costs no query of its own."""

    def authenticate(self, request):
        # DRF makes an instance per request: the request is kept for authenticate_credentials
        self._request = request
        return super().authenticate(request)

    def authenticate_credentials(self, key):
        if connection.vendor != "postgresql":
            return super().authenticate_credentials(key)
        user_model = get_user_model()
        request = getattr(self, "_request", None)
        answer_key = request_key(request) if request is not None else None
        if answer_key is None:
            row = prepared_row(_token_sql(False), {"key": key})
        else:
            row = prepared_row(_token_sql(True), {"key": key, "answer_key": answer_key})
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token_fields, user_fields = _token_fields(), _user_fields()
        n_token, n_user = len(token_fields), len(user_fields)
        token = model_from_row(Token, token_fields, row[:n_token])
        user = model_from_row(user_model, user_fields, row[n_token : n_token + n_user])
        token.user = user
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        if answer_key is not None:
            answer = row[n_token + n_user :]
            prior = None
            if answer[0] is not None:  # its id: the LEFT JOIN found an answer
                prior = model_from_row(IdempotentRequest, _answer_fields(), answer)
            remember_prior(request, prior)
        return user, token


@functools.cache
def _token_fields() -> list[str]:
    return [f.attname for f in Token._meta.concrete_fields]


@functools.cache
def _user_fields() -> list[str]:
    return [f.attname for f in get_user_model()._meta.concrete_fields]


@functools.cache
def _answer_fields() -> list[str]:
    return [f.attname for f in IdempotentRequest._meta.concrete_fields]


@functools.cache
def _token_sql(with_answer: bool) -> str:
    """The token and its login; ``with_answer``: and the login's answer stored for the key
    ``answer_key`` (NULLs when it has none)."""
    user_model = get_user_model()
    columns = [f"t.{f.column}" for f in Token._meta.concrete_fields]
    columns += [f"u.{f.column}" for f in user_model._meta.concrete_fields]
    answer = ""
    if with_answer:
        answers = IdempotentRequest._meta
        columns += [f"i.{f.column}" for f in answers.concrete_fields]
        answer = (
            f" LEFT OUTER JOIN {answers.db_table} i ON i.{answers.get_field('user').column}"
            f" = u.{user_model._meta.pk.column} AND i.key = %(answer_key)s"
        )
    return (
        f"SELECT {', '.join(columns)} FROM {Token._meta.db_table} t "
        f"JOIN {user_model._meta.db_table} u "
        f"ON u.{user_model._meta.pk.column} = t.{Token._meta.get_field('user').column}"
        f"{answer} WHERE t.key = %(key)s"
    )
