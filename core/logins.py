"""Login throttling: failed logins counted in the shared cache, and refused when too many.

Every failed ``authenticate()`` counts (``user_login_failed``, sent by django.contrib.auth for
the API's token login and the admin's form alike) twice: for its username from its address
(``THROTTLE_LOGIN``, e.g. ``10/min``) and for its address whatever the username
(``THROTTLE_LOGIN_ADDRESS``). While either count is at its limit, a login from there is
refused before its password is tried: the token login with a 429 (``LoginThrottle``), the admin
with its login page, a message and a 429 (``core.admin``). A window starts at its first failure.

The counts live in the default cache, which is Redis whenever the broker is (``CACHE_URL``):
every gunicorn worker and every web container sees the same counts.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

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
    by_user = hashlib.sha256(f"{username.casefold()}\n{address}".encode()).hexdigest()[:32]
    by_address = hashlib.sha256(address.encode()).hexdigest()[:32]
    return [
        (f"login-failures:user:{by_user}", Rate.parse(settings.THROTTLE_LOGIN)),
        (f"login-failures:address:{by_address}", Rate.parse(settings.THROTTLE_LOGIN_ADDRESS)),
    ]


def login_failed(request: HttpRequest | Request, username: str) -> None:
    """Count one failed login (atomically: ``add`` then ``incr``, shared by every process)."""
    now = time.time()
    for key, rate in _counters(request, username):
        cache.add(f"{key}:since", now, rate.period)
        if not cache.add(key, 1, rate.period):
            try:
                cache.incr(key)
            except ValueError:  # its window ended in between: this failure opens the next
                cache.add(key, 1, rate.period)


def retry_after(request: HttpRequest | Request, username: str) -> int:
    """Seconds until a login for ``username`` from this request's address may be tried; 0 when
    it may be now."""
    now = time.time()
    waits = []
    for key, rate in _counters(request, username):
        counts = cache.get_many([key, f"{key}:since"])
        if counts.get(key, 0) >= rate.limit:
            since = counts.get(f"{key}:since", now)
            waits.append(max(1, math.ceil(since + rate.period - now)))
    return max(waits, default=0)


def count_failure(sender, credentials: Mapping, request=None, **kwargs) -> None:
    """``user_login_failed`` receiver (connected in ``CoreConfig.ready``)."""
    if request is not None:
        login_failed(request, str(credentials.get("username", "")))


def too_many_message(wait: int) -> str:
    return f"Too many failed logins; try again in {wait} seconds."


class LoginThrottle(BaseThrottle):
    """DRF throttle of a login view: refuses while its username and address, or its address,
    failed too often (429 with ``Retry-After``)."""

    def allow_request(self, request: Request, view) -> bool:
        data = request.data
        username = data.get("username", "") if isinstance(data, Mapping) else ""
        self.seconds = retry_after(request, str(username))
        return not self.seconds

    def wait(self) -> float | None:
        return self.seconds or None
