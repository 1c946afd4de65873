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

Two things keep the hottest POST (a hand, which phones always send with a key) at the queries it
costs without one (issue 25): the token authentication reads the user's answer for the key in
its own statement (:func:`remember_prior`, so the lookup costs no query of its own), and a view
that says ``idempotent_answer_in_write = True`` stores the answer itself, in the statement of
its write (:class:`AnswerInWrite`), in its own transaction: no second transaction around it, no
savepoint, no INSERT after it. The unique constraint on (user, key) still decides a race: the
loser's write fails, and the loser answers like a retry.

Keys expire after ``IDEMPOTENCY_KEY_HOURS`` (24): an expired answer is never replayed, and its
key may be used afresh. ``manage.py purge_idempotency_keys`` (or the periodic task
``core.purge_idempotency_keys``) deletes the expired ones.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
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
# where the token authentication leaves the answer it read for the request's key (on Django's
# request): an IdempotentRequest, or None when there was none; absent when it read nothing
_PRIOR = "_idempotency_prior"
# where the answer a view stores in its own write waits for it (on Django's request)
_IN_WRITE = "_idempotency_answer_in_write"
#: the longest key kept (IdempotentRequest.key); a longer one is cut to it
KEY_LENGTH = 200


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


def request_key(request: HttpRequest | Request) -> str | None:
    """The ``Idempotency-Key`` of a POST, as it is kept (None: not a POST, or no key)."""
    key = request.headers.get(HEADER)
    if request.method != "POST" or not key:
        return None
    return key[:KEY_LENGTH]


def remember_prior(request: HttpRequest | Request, prior: IdempotentRequest | None) -> None:
    """Called by an authentication that read the user's answer for the request's key along with
    the user (``core.tokens``): ``prior`` is that answer, None when there is none. The first
    lookup of the key uses it instead of a query of its own."""
    setattr(getattr(request, "_request", request), _PRIOR, prior)


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(f"{request.path}\n{body}".encode()).hexdigest()


class IdempotentPostMixin:
    """Mix into an APIView: its POST handler honours the ``Idempotency-Key`` header."""

    #: its POST handler stores the answer in its own write (see :class:`AnswerInWrite`): it
    #: runs in a transaction of its own, and :func:`answer_in_write` gives it the answer to store
    idempotent_answer_in_write = False

    def initial(self, request: Request, *args, **kwargs) -> None:
        super().initial(request, *args, **kwargs)
        key = request_key(request)
        if key:
            handler = self.post
            in_write = self.idempotent_answer_in_write

            def post(request: Request, *args, **kwargs) -> Response:
                return _idempotent(request, key, handler, *args, in_write=in_write, **kwargs)

            self.post = post


@dataclass
class AnswerInWrite:
    """The answer of an idempotent POST, stored by the handler's own write, in its statement or
    at least its transaction. The handler says what it will answer (:meth:`answers_with`); its
    service works the answer out from its result before writing (:meth:`give`), then adds
    :data:`ANSWER_CLAUSE` to its statement with :meth:`params` and says so (:meth:`stored`),
    or calls :meth:`store` (an ORM write, where it has no statement of its own). ``checks``
    are noted (:func:`note_check`) while the handler runs, before its write."""

    key: str
    user_id: int | None
    path: str
    body_hash: str
    checks: list[list] = field(default_factory=list)
    status: int | None = None
    #: the response's data from the service's result (JSON-able as a Response renders it)
    render: Callable[[Any], Any] | None = None
    #: the response's data, once given
    data: Any = None
    #: the same as JSON text, as it is stored
    response: str | None = None
    written: bool = False

    def answers_with(self, status: int, render: Callable[[Any], Any]) -> None:
        """The handler's answer will be ``status`` with ``render(result)`` as its data, the
        result being what its service gives (:meth:`give`)."""
        self.status, self.render = status, render

    def give(self, result: Any) -> Any:
        """The answer to the service's ``result``, worked out before its write; its data."""
        if self.render is None:
            raise RuntimeError("the handler did not say how it answers (answers_with)")
        self._given(self.status, self.render(result))
        return self.data

    def _given(self, status: int, data: Any) -> None:
        self.status, self.data = status, data
        self.response = json.dumps(data, default=str)

    def params(self) -> dict[str, Any]:
        """The parameters of :data:`ANSWER_CLAUSE` (named ``answer_*``)."""
        if self.response is None:
            raise RuntimeError("the answer is not known yet (AnswerInWrite.give)")
        return {
            "answer_key": self.key, "answer_user": self.user_id, "answer_path": self.path,
            "answer_body_hash": self.body_hash, "answer_status": self.status,
            "answer_response": self.response, "answer_checks": json.dumps(self.checks),
            "answer_created_at": timezone.now(),
        }  # fmt: skip

    def store(self) -> None:
        """Store the answer with the ORM, in the caller's transaction (with its write)."""
        if self.response is None:
            raise RuntimeError("the answer is not known yet (AnswerInWrite.give)")
        IdempotentRequest.objects.create(
            key=self.key,
            user_id=self.user_id,
            path=self.path,
            body_hash=self.body_hash,
            status=self.status,
            response=json.loads(self.response),
            checks=self.checks,
        )
        self.stored()

    def stored(self) -> None:
        """Said by the handler once its write stored the answer (it commits with the write)."""
        self.written = True


_ANSWERS = IdempotentRequest._meta.db_table
#: a common table expression that stores an :class:`AnswerInWrite` in a writer's own ``WITH``
#: statement; an IntegrityError when the user's key has an answer already (a request racing
#: with the same key committed first)
ANSWER_CLAUSE = (
    f"idempotent_answer AS (INSERT INTO {_ANSWERS} "
    "(key, user_id, path, body_hash, status, response, checks, created_at) VALUES "
    "(%(answer_key)s, %(answer_user)s, %(answer_path)s, %(answer_body_hash)s, "
    "%(answer_status)s, %(answer_response)s::jsonb, %(answer_checks)s::jsonb, "
    "%(answer_created_at)s))"
)


def answer_in_write(request: HttpRequest | Request) -> AnswerInWrite | None:
    """The answer a view that stores it in its own write (``idempotent_answer_in_write``) is to
    store: None when the request has no key (or is a replay: its handler does not run)."""
    return getattr(getattr(request, "_request", request), _IN_WRITE, None)


def _stored(request: Request, key: str) -> IdempotentRequest | None:
    """The live answer stored for this user's key; an expired one is forgotten (deleted), so
    the key starts afresh. The first lookup takes the answer the authentication read with the
    user when it did (:func:`remember_prior`); any later one (after a failed write) asks the
    database again."""
    django_request = request._request
    if hasattr(django_request, _PRIOR):
        prior = getattr(django_request, _PRIOR)
        delattr(django_request, _PRIOR)
    else:
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


def _idempotent(
    request: Request, key: str, handler, *args, in_write: bool = False, **kwargs
) -> Response:
    digest = _fingerprint(request)
    prior = _stored(request, key)
    if prior is not None:
        return _replay(request, prior, digest)
    if in_write:
        return _idempotent_in_write(request, key, digest, handler, *args, **kwargs)
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
        retry = _as_retry(request, key, digest)
        if retry is None:
            raise
        return retry
    finally:
        delattr(request._request, _NOTED)
    return response


def _as_retry(request: Request, key: str, digest: str) -> Response | None:
    """A request that failed while racing with a first one under the same key (it blocked on
    that one's locks and failed once it committed: on the key itself, or e.g. ``hand_exists``)
    is answered as a retry, with the first one's answer; None when there is none (its failure
    was its own)."""
    prior = _stored(request, key)
    return None if prior is None else _replay(request, prior, digest)


def _idempotent_in_write(request: Request, key: str, digest: str, handler, *args, **kwargs):
    """:func:`_idempotent` for a handler that stores the answer in its own write, in its own
    transaction (see :class:`AnswerInWrite`)."""
    user = request.user if request.user.is_authenticated else None
    answer = AnswerInWrite(key, getattr(user, "pk", None), request.path, digest)
    django_request = request._request
    setattr(django_request, _NOTED, answer.checks)
    setattr(django_request, _IN_WRITE, answer)
    try:
        response = handler(request, *args, **kwargs)
    except (IntegrityError, ServiceError, APIException):
        retry = _as_retry(request, key, digest)  # its transaction rolled back
        if retry is None:
            raise
        return retry
    finally:
        delattr(django_request, _NOTED)
        delattr(django_request, _IN_WRITE)
    if 200 <= response.status_code < 300 and not answer.written:
        # a handler that answered without its write storing the answer (none should): kept now,
        # after its commit, so that a retry is still answered rather than done twice
        answer._given(response.status_code, response.data)
        try:
            with transaction.atomic():
                answer.store()
        except IntegrityError:
            pass  # a request racing with the same key stored its answer: either answers
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
