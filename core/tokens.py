"""A login's API token (DRF's authtoken: one per login): read, replaced, revoked.

A password change (the page) and a reset (a reset link) revoke it: whoever knew the old password
may have made one, and it must not outlive that password.
"""

from __future__ import annotations

from rest_framework.authtoken.models import Token


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
