"""Login throttling: every password checked is counted first, atomically, in the shared cache.

Three counts, each a fixed window that starts at its first attempt: a username from one address
(``THROTTLE_LOGIN``, ``10/min``), a username from anywhere (``THROTTLE_LOGIN_USERNAME``, guesses
spread over many addresses) and one address whatever the username
(``THROTTLE_LOGIN_ADDRESS``, far higher: behind a proxy or a teahouse's one router many people
share an address, and one of them mistyping must not lock the others out).

The check *is* the count: :func:`reserve` increments the three counters (``incr`` is atomic in
Redis) before the password is tried and refuses when one passes its limit, so forty tries at
once check at most the limit's number of passwords; a login that succeeds gives its attempt
back (:func:`give_back`). That happens inside ``authenticate()`` (:class:`ThrottledModelBackend`),
the one place every door passes through: the API's token login, the pages' login and the
admin's. A refused attempt answers 429 with ``Retry-After`` at each of them.

The counts live in the default cache, which is Redis whenever the broker is (``CACHE_URL``):
every gunicorn worker and every web container shares them. When that Redis is down the cache
fails open (``core.cache``) and logins are not throttled until it is back.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from core.db import model_from_row, prepared_row

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Rate:
    """At most ``limit`` failures in ``period`` seconds."""

    limit: int
    period: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """``"10/min"``, ``"30/hour"``: DRF's way of writing a rate."""
        count, per = text.split("/")
        return cls(int(count), PERIODS[per.strip()[0]])


def client_address(request: HttpRequest | Request) -> str:
    """The address a request came from: ``REMOTE_ADDR``, or with ``NUM_PROXIES`` set (behind
    that many proxies) the address they saw, as DRF's throttles count it. Without it a client's
    own ``X-Forwarded-For`` is not believed."""
    meta = request.META
    if api_settings.NUM_PROXIES is None:
        return meta.get("REMOTE_ADDR", "")
    return BaseThrottle().get_ident(request)


def _counters(request: HttpRequest | Request, username: str) -> list[tuple[str, Rate]]:
    address = client_address(request)
    name = username.casefold()
    by_user_here = hashlib.sha256(f"{name}\n{address}".encode()).hexdigest()[:32]
    by_user = hashlib.sha256(name.encode()).hexdigest()[:32]
    by_address = hashlib.sha256(address.encode()).hexdigest()[:32]
    return [
        (f"login-attempts:user-address:{by_user_here}", Rate.parse(settings.THROTTLE_LOGIN)),
        (f"login-attempts:user:{by_user}", Rate.parse(settings.THROTTLE_LOGIN_USERNAME)),
        (f"login-attempts:address:{by_address}", Rate.parse(settings.THROTTLE_LOGIN_ADDRESS)),
    ]


def _wait(key: str, rate: Rate, now: float) -> int:
    since = cache.get(f"{key}:since", now)
    return max(1, math.ceil(since + rate.period - now))


def _count(key: str, rate: Rate, now: float) -> int:
    """One more attempt in ``key``'s window (opened now if none is open): the new count."""
    if cache.add(key, 0, rate.period):
        cache.set(f"{key}:since", now, rate.period)
    try:
        return cache.incr(key)
    except ValueError:  # its window ended in between: this attempt opens the next
        cache.add(key, 1, rate.period)
        cache.set(f"{key}:since", now, rate.period)
        return 1


def _uncount(key: str) -> None:
    with contextlib.suppress(ValueError):  # its window ended: nothing to give back
        cache.decr(key)


def reserve(request: HttpRequest | Request, username: str) -> int:
    """Count a login attempt before its password is tried: 0 when it may be tried; otherwise
    the seconds to wait, and the attempt is not counted (a refused attempt checks nothing)."""
    now = time.time()
    counted: list[str] = []
    for key, rate in _counters(request, username):
        counted.append(key)
        if _count(key, rate, now) > rate.limit:
            for done in counted:
                _uncount(done)
            return _wait(key, rate, now)
    return 0


def give_back(request: HttpRequest | Request, username: str) -> None:
    """The password was right: its attempt does not count against anyone."""
    for key, _ in _counters(request, username):
        _uncount(key)


def retry_after(request: HttpRequest | Request, username: str) -> int:
    """Seconds until a login for ``username`` from this request's address may be tried (0: it
    may be now). A look only, counting nothing: the doors ask it first so that a throttled
    login is answered before its form is even read; :func:`reserve` decides."""
    now = time.time()
    waits = []
    for key, rate in _counters(request, username):
        if (cache.get(key) or 0) >= rate.limit:
            waits.append(_wait(key, rate, now))
    return max(waits, default=0)


class ThrottledModelBackend(ModelBackend):
    """Django's backend, counting each password it checks first (:func:`reserve`). A refused
    attempt stops ``authenticate()`` (which then answers None and sends ``user_login_failed``)
    and leaves the seconds to wait on the request (``login_throttled``) for its door's 429.

    The signed-in visitor of each request is read by one prepared statement on PostgreSQL
    (:meth:`get_user`): building the ORM's query cost a page more than running it (issue 25).
    Same answers: the row as it is now (a new password still ends other sessions: Django
    compares its hash with the session's), None for a login gone or inactive."""

    def get_user(self, user_id):
        if connection.vendor != "postgresql":
            return super().get_user(user_id)
        user_model = get_user_model()
        fields = _user_fields()
        row = prepared_row(_user_sql(), {"id": user_id})
        if row is None:
            return None
        user = model_from_row(user_model, fields, row)
        return user if self.user_can_authenticate(user) else None

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None or username is None:
            return super().authenticate(request, username, password, **kwargs)
        wait = reserve(request, str(username))
        if wait:
            request.login_throttled = wait
            raise PermissionDenied
        user = super().authenticate(request, username, password, **kwargs)
        if user is not None:
            give_back(request, str(username))
        return user


def throttled_for(request: HttpRequest | Request | None) -> int:
    """The seconds a refused login on this request must wait (0: it was not refused)."""
    return getattr(request, "login_throttled", 0) if request is not None else 0


def too_many_message(wait: int) -> str:
    return f"Too many failed logins; try again in {wait} seconds."


class ThrottledLoginFormMixin:
    """A login form (Django's ``AuthenticationForm``) refusing a login from where too many were
    tried: before its password is read when the counts say so already, or when
    ``authenticate()`` refused it (:class:`ThrottledModelBackend`). ``wait``: the seconds the
    refused login must wait, for its page's 429 and ``Retry-After``."""

    wait = 0

    def throttled_message(self, wait: int) -> str:
        return too_many_message(wait)

    def clean(self):
        self.wait = retry_after(self.request, self.cleaned_data.get("username") or "")
        if not self.wait:
            try:
                return super().clean()
            except ValidationError:
                self.wait = throttled_for(self.request)
                if not self.wait:
                    raise
        raise ValidationError(self.throttled_message(self.wait), code="throttled")


class LoginThrottle(BaseThrottle):
    """DRF throttle of a login view: refuses while its username and address, its username or
    its address have failed too often (429 with ``Retry-After``)."""

    def allow_request(self, request: Request, view) -> bool:
        data = request.data
        username = data.get("username", "") if isinstance(data, Mapping) else ""
        self.seconds = retry_after(request, str(username))
        return not self.seconds

    def wait(self) -> float | None:
        return self.seconds or None


@functools.cache
def _user_fields() -> list[str]:
    return [f.attname for f in get_user_model()._meta.concrete_fields]


@functools.cache
def _user_sql() -> str:
    user_model = get_user_model()
    columns = ", ".join(f.column for f in user_model._meta.concrete_fields)
    return (
        f"SELECT {columns} FROM {user_model._meta.db_table} "
        f"WHERE {user_model._meta.pk.column} = %(id)s"
    )
