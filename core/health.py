"""``GET /healthz``: can this service do its job? Its database, its Celery broker, its workers,
and its cache.

Each is ``ok`` or ``down`` (broker and workers are ``eager`` without a broker: tasks run
in-process). The answer is 503 when the service cannot do its job: the database is down, or a
broker is configured and it is down or no worker answers its ping. The cache (Redis; ``local``
when it is in-process) is reported but never makes the answer 503: without it requests are still
served and their throttles let them through (``core.cache``); the status then says
``degraded``. ``?check=database`` (names
separated by commas) checks only those: docker compose asks the web container about its
database alone, since the workers wait for it to be healthy.

Anyone may ask; what failed and how (exception text, hosts) is told to staff users only. Every
check is bounded: connecting to the database by ``DB_CONNECT_TIMEOUT``, the broker by
``HEALTHZ_BROKER_TIMEOUT``, the workers' ping by ``HEALTHZ_WORKER_TIMEOUT``; the database is
checked while the broker and workers are, so the answer comes within a few seconds even when
everything hangs.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.settings import api_settings

from core.cache import cache_state
from core.http import json_error

OK, DOWN, EAGER, DEGRADED = "ok", "down", "eager", "degraded"
CHECKS = ("database", "broker", "workers", "cache")
#: what the service works without, more slowly or less guarded: reported, never a 503
OPTIONAL = frozenset({"cache"})


@dataclass(frozen=True)
class Check:
    """One component's state, and for staff what failed (or who answered)."""

    state: str
    detail: str = ""


def _failure(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".strip()


def check_database(alias: str = "default") -> Check:
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return Check(DOWN, _failure(exc))
    return Check(OK)


def check_celery(*, workers: bool = True) -> dict[str, Check]:
    """The broker (does it take a connection) and, when asked, the workers (does any answer a
    ping through it). Every socket operation on the broker times out, so a broker that
    accepts connections and never answers is ``down`` too."""
    if not settings.CELERY_BROKER_CONFIGURED:
        return {"broker": Check(EAGER), "workers": Check(EAGER)}
    timeout = settings.HEALTHZ_BROKER_TIMEOUT
    options = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    with current_app.connection_for_write(
        settings.CELERY_BROKER_URL, transport_options=options
    ) as conn:
        try:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0.2, interval_max=0.2,
                timeout=timeout,
            )  # fmt: skip
        except Exception as exc:  # noqa: BLE001 - any failure means "broker not usable"
            return {"broker": Check(DOWN, _failure(exc)), "workers": Check(DOWN, "no broker")}
        if not workers:
            return {"broker": Check(OK)}
        return {"broker": Check(OK), "workers": _ping_workers(conn)}


def _ping_workers(conn) -> Check:
    timeout = settings.HEALTHZ_WORKER_TIMEOUT
    try:
        replies = current_app.control.ping(timeout=timeout, connection=conn)
    except Exception as exc:  # noqa: BLE001 - a ping that fails is no worker answering
        return Check(DOWN, _failure(exc))
    names = sorted(name for reply in replies for name in reply)
    if not names:
        return Check(DOWN, f"no worker answered within {timeout:g} s")
    return Check(OK, f"{len(names)} answering: {', '.join(names)}")


def run_checks(names: tuple[str, ...]) -> dict[str, Check]:
    """The checks named, the database in this thread while broker and workers are checked in
    another; a check that outlives its bound is ``down``."""
    results: dict[str, Check] = {}
    celery: list[dict[str, Check]] = []  # the other thread's one answer
    thread = None
    if "broker" in names or "workers" in names:
        thread = threading.Thread(
            target=lambda: celery.append(check_celery(workers="workers" in names)),
            name="healthz-celery", daemon=True,
        )  # fmt: skip
        thread.start()
    if "database" in names:
        results["database"] = check_database()
    if "cache" in names:
        results["cache"] = Check(*cache_state())
    if thread is not None:
        bound = settings.HEALTHZ_BROKER_TIMEOUT * 2 + settings.HEALTHZ_WORKER_TIMEOUT + 1
        thread.join(bound)
        late = Check(DOWN, f"no answer within {bound:g} s")
        results.update(celery[0] if celery else {"broker": late, "workers": late})
    return {name: results[name] for name in names}


def requested_checks(request: HttpRequest) -> tuple[str, ...] | None:
    """The checks ``?check=`` names (all without it), in their order; None for an unknown one."""
    asked = request.GET.get("check")
    if asked is None:
        return CHECKS
    names = set(asked.split(","))
    if not names <= set(CHECKS):
        return None
    return tuple(name for name in CHECKS if name in names)


def viewer_is_staff(request: HttpRequest) -> bool:
    """A staff user logged in the API's ways (token, session); when that cannot be told (the
    database is down, a token is wrong), no."""
    authenticators = [cls() for cls in api_settings.DEFAULT_AUTHENTICATION_CLASSES]
    try:
        user = Request(request, authenticators=authenticators).user
    except (DatabaseError, APIException):
        return False
    return bool(getattr(user, "is_staff", False))


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    names = requested_checks(request)
    if not names:
        message = f"check is a comma-separated list of {', '.join(CHECKS)}"
        return json_error(400, "invalid_check", message, path="check")
    checks = run_checks(names)
    ready = all(c.state != DOWN for n, c in checks.items() if n not in OPTIONAL)
    degraded = any(c.state == DOWN for n, c in checks.items() if n in OPTIONAL)
    status = (DEGRADED if degraded else OK) if ready else DOWN
    body: dict = {"status": status, **{n: c.state for n, c in checks.items()}}
    if viewer_is_staff(request):
        body["details"] = {n: c.detail for n, c in checks.items() if c.detail}
    return JsonResponse(body, status=200 if ready else 503)
