"""``Idempotency-Key`` on POST: a retried request gets the first answer and stores nothing twice.

The key is scoped to the user. The first successful answer is stored in the same transaction as
the write it answers, so either both happen or neither; a second request racing with the same
key loses on the unique constraint, its write is rolled back, and it answers like a retry; so
does one whose write was refused because of the first one's (a hand number or slug taken by
it). The same key with another body or path is a 409.
"""

from __future__ import annotations

import hashlib
import json

from django.db import IntegrityError, transaction
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import Conflict, ServiceError
from core.models import IdempotentRequest

HEADER = "Idempotency-Key"


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
    user = request.user if request.user.is_authenticated else None
    return IdempotentRequest.objects.filter(user=user, key=key).first()


def _replay(prior: IdempotentRequest, digest: str) -> Response:
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
        return _replay(prior, digest)
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
                )
    except (IntegrityError, ServiceError, APIException):
        # Racing with a first request under the same key, this one blocked on its locks and
        # failed once it committed (on the key itself, or e.g. ``hand_exists``): a retry.
        prior = _stored(request, key)
        if prior is None:
            raise
        return _replay(prior, digest)
    return response
