"""``Idempotency-Key`` on POST: a retried request gets the first answer and stores nothing twice.

The key is scoped to the user. The first successful answer is stored in the same transaction as
the write it answers, so either both happen or neither; a second request racing with the same
key loses on the unique constraint, its write is rolled back, and it answers like a retry; so
does one whose write was refused because of the first one's (a hand number or slug taken by
it). The same key with another body or path is a 409.

A replay is answered only if the same request would be allowed now. The view's own checks
(authentication, permission classes, throttles) have run before any replay; the object-level
ones an app makes inside the handler (may this user score at this club?) note themselves while
the first request runs (:func:`note_check`), are stored with its answer, and run again before
it is replayed: a scorer removed from her club gets the normal refusal, not her hand.

Keys expire after ``IDEMPOTENCY_KEY_HOURS`` (24): an expired answer is never replayed, and its
key may be used afresh. ``manage.py purge_idempotency_keys`` (or the periodic task
``core.purge_idempotency_keys``) deletes the expired ones.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import Conflict, PermissionDenied, ServiceError
from core.models import IdempotentRequest

HEADER = "Idempotency-Key"

# name -> the check run again before a replay, called with the request and the noted arguments
Recheck = Callable[..., None]
_RECHECKS: dict[str, Recheck] = {}

# where the checks of the idempotent POST in flight are noted (on Django's request)
_NOTED = "_idempotency_checks"


def register_recheck(name: str, check: Recheck) -> None:
    """Called from an app's ``ready()``: ``check(request, *arguments)`` raises as the app's
    permission check does (``core.errors``) when the request is no longer allowed."""
    _RECHECKS[name] = check


def note_check(request: HttpRequest | Request, name: str, *arguments: Any) -> None:
    """Called by an app's permission check once it passed: a replay of this request (when it is
    an idempotent POST) runs ``name``'s recheck with these JSON-able arguments first."""
    noted = getattr(getattr(request, "_request", request), _NOTED, None)
    if noted is not None:
        noted.append([name, list(arguments)])


def expiry_cutoff(now: datetime | None = None) -> datetime:
    """Answers stored before this moment have expired."""
    return (now or timezone.now()) - timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS)


def purge_expired(now: datetime | None = None) -> int:
    """Delete the expired answers; how many there were."""
    deleted, _ = IdempotentRequest.objects.filter(created_at__lt=expiry_cutoff(now)).delete()
    return deleted


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(f"{request.path}\n{body}".encode()).hexdigest()


class IdempotentPostMixin:
    """Mix into an APIView: its POST handler honours the ``Idempotency-Key`` header."""

    def initial(self, request: Request, *args, **kwargs) -> None:
        super().initial(request, *args, **kwargs)
        key = request.headers.get(HEADER)
        if request.method == "POST" and key:
            handler = self.post

            def post(request: Request, *args, **kwargs) -> Response:
                return _idempotent(request, key[:200], handler, *args, **kwargs)

            self.post = post


def _stored(request: Request, key: str) -> IdempotentRequest | None:
    """The live answer stored for this user's key; an expired one is forgotten (deleted), so
    the key starts afresh."""
    user = request.user if request.user.is_authenticated else None
    prior = IdempotentRequest.objects.filter(user=user, key=key).first()
    if prior is not None and prior.created_at < expiry_cutoff():
        prior.delete()
        return None
    return prior


def _replay(request: Request, prior: IdempotentRequest, digest: str) -> Response:
    for name, arguments in prior.checks:
        recheck = _RECHECKS.get(name)
        if recheck is None:  # a check this code no longer knows: do not guess that it passes
            raise PermissionDenied("this answer can no longer be replayed")
        recheck(request, *arguments)
    if prior.body_hash != digest:
        message = "this Idempotency-Key was used for another request"
        raise Conflict("idempotency_key_reused", message)
    response = Response(prior.response, status=prior.status)
    response["Idempotent-Replayed"] = "true"
    return response


def _idempotent(request: Request, key: str, handler, *args, **kwargs) -> Response:
    digest = _fingerprint(request)
    prior = _stored(request, key)
    if prior is not None:
        return _replay(request, prior, digest)
    checks: list[list] = []
    setattr(request._request, _NOTED, checks)
    try:
        with transaction.atomic():
            response = handler(request, *args, **kwargs)
            if 200 <= response.status_code < 300:
                IdempotentRequest.objects.create(
                    key=key,
                    user=request.user if request.user.is_authenticated else None,
                    path=request.path,
                    body_hash=digest,
                    status=response.status_code,
                    response=json.loads(json.dumps(response.data, default=str)),
                    checks=checks,
                )
    except (IntegrityError, ServiceError, APIException):
        # Racing with a first request under the same key, this one blocked on its locks and
        # failed once it committed (on the key itself, or e.g. ``hand_exists``): a retry.
        prior = _stored(request, key)
        if prior is None:
            raise
        return _replay(request, prior, digest)
    finally:
        delattr(request._request, _NOTED)
    return response


# --- pages: the same rule for a form a page sends again (its offline queue) --------------------


def form_digest(path: str, fields: list[tuple[str, str]]) -> str:
    """What a form's POST said (its path and fields, in order, the CSRF token left out)."""
    said = [pair for pair in fields if pair[0] != "csrfmiddlewaretoken"]
    body = json.dumps(said, ensure_ascii=False)
    return hashlib.sha256(f"{path}\n{body}".encode()).hexdigest()


def form_answer(user, key: str, digest: str) -> tuple[int, dict] | None:
    """The answer stored for a page's POST sent before with this key (``user``: the login,
    or None for a visitor with a table card; the key is the page's own, scoped by the caller),
    or None. The same key with another form is a Conflict."""
    prior = IdempotentRequest.objects.filter(
        user=user if user is not None and user.is_authenticated else None,
        key=key,
        created_at__gte=expiry_cutoff(),
    ).first()
    if prior is None:
        return None
    if prior.body_hash != digest:
        raise Conflict("idempotency_key_reused", "this Idempotency-Key was used for another form")
    return prior.status, prior.response


def form_answer_store(user, key: str, path: str, digest: str, status: int, body: dict) -> None:
    """Keep a page POST's answer under its key, in the caller's transaction (with its write)."""
    IdempotentRequest.objects.create(
        key=key,
        user=user if user is not None and user.is_authenticated else None,
        path=path,
        body_hash=digest,
        status=status,
        response=body,
    )
