"""``GET /healthz``: liveness of the web process, its database and its Celery broker."""

from __future__ import annotations

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


def check_database(alias: str = "default") -> str:
    try:
        connection = connections[alias]
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return f"error: {exc.__class__.__name__}: {exc}".strip()
    return "ok"


def check_broker() -> str:
    """``"eager"`` without a broker (tasks run in-process), else ``"ok"`` or ``"error: ..."``."""
    if not getattr(settings, "CELERY_BROKER_CONFIGURED", False):
        return "eager"
    try:
        with current_app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(
                max_retries=1,
                interval_start=0,
                interval_step=0.2,
                interval_max=0.2,
                timeout=settings.HEALTHZ_BROKER_TIMEOUT,
            )
    except Exception as exc:  # noqa: BLE001 - any failure means "broker not usable"
        return f"error: {exc.__class__.__name__}: {exc}".strip()
    return "ok"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database = check_database()
    broker = check_broker()
    ok = database == "ok"
    return JsonResponse(
        {"status": "ok" if ok else "error", "database": database, "broker": broker},
        status=200 if ok else 503,
    )
