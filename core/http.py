"""What HTTP calls the project's errors: the one exception handler, in the one JSON shape.

Every error response body looks like::

    {"errors": [{"path": "events[2].winners[1].concealed", "code": "invalid", "message": "..."}]}

Services raise ``core.errors`` (plain Python); DRF raises its own ``APIException`` and
``ValidationError`` trees; Django raises ``Http404`` and ``PermissionDenied``; a database that
does not answer raises ``OperationalError`` or ``InterfaceError`` (503). All of them are mapped
here, and nowhere else.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable, Mapping
from http import HTTPStatus
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from django.views import defaults as django_defaults
from rest_framework import exceptions
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from core import errors
from core.errors import ErrorItem, listed, problem

logger = logging.getLogger(__name__)


def join_path(base: str, key: str | int) -> str:
    """Append one key to a path.

    ``join_path("events", 2) == "events[2]"``; ``join_path("events[2]", "x") == "events[2].x"``;
    the non-field-errors key adds nothing (its errors belong to the enclosing object).
    """
    # ASCII digits only: "²" and "٣" are digits to str.isdigit, and no list index
    if isinstance(key, int) or (isinstance(key, str) and key.isascii() and key.isdigit()):
        return f"{base}[{int(key)}]"
    key = str(key)
    if key == api_settings.NON_FIELD_ERRORS_KEY:
        return base
    return f"{base}.{key}" if base else key


def path_from_parts(parts: Iterable[str | int]) -> str:
    """``("events", 2, "winners", 1, "concealed")`` → ``events[2].winners[1].concealed``."""
    path = ""
    for part in parts:
        path = join_path(path, part)
    return path


def flatten_detail(detail: Any, path: str = "", default_code: str = "invalid") -> list[ErrorItem]:
    """Flatten a DRF error detail tree (dicts, lists, ErrorDetail strings) into error items."""
    items: list[ErrorItem] = []
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            items.extend(flatten_detail(value, join_path(path, key), default_code))
    elif isinstance(detail, list | tuple):
        for index, value in enumerate(detail):
            if isinstance(value, Mapping | list | tuple):
                # A nested serializer/list entry: its position is part of the path.
                if value:
                    items.extend(flatten_detail(value, join_path(path, index), default_code))
            else:
                items.extend(flatten_detail(value, path, default_code))
    elif detail is not None:
        code = getattr(detail, "code", None) or default_code
        items.append(problem(path, code, str(detail)))
    return items


class ErrorItems(exceptions.APIException):
    """A service error on its way out through DRF: its status and its error items."""

    def __init__(self, items: list[ErrorItem], status: int, wait: float | None = None) -> None:
        self.items = items
        self.status_code = status
        self.wait = wait  # seconds, sent as ``Retry-After``
        super().__init__(detail=items[0]["message"], code=items[0]["code"])


class DatabaseUnavailable(ErrorItems):
    """The database did not answer (refused, timed out, connection lost): 503, try later."""

    def __init__(self) -> None:
        message = "The database is not answering; try again shortly."
        super().__init__([problem("", "database_unavailable", message)], 503, wait=5)


class DatabaseBusy(ErrorItems):
    """SQLite still locked by another writer after its busy timeout: 503, try again soon."""

    def __init__(self) -> None:
        message = "The database is busy with another write; try again in a moment."
        super().__init__([problem("", "database_busy", message)], 503, wait=1)


def database_refusal(exc: DatabaseError) -> ErrorItems:
    """The answer to a database that failed to serve a request (not to a refused write: a
    constraint is an ``IntegrityError`` and stays a bug or a service's own refusal)."""
    logger.warning("the database did not serve a request: %s: %s", type(exc).__name__, exc)
    # SQLite's words for a lock another connection holds ("database is locked", "database
    # table is locked"): the database works, it is only busy.
    if "is locked" in str(exc):
        return DatabaseBusy()
    return DatabaseUnavailable()


class BodyTooLarge(exceptions.APIException):
    """A request body over the size the API reads (413)."""

    status_code = 413
    default_code = "body_too_large"

    def __init__(self, limit: int) -> None:
        super().__init__(f"the request body is larger than {limit} bytes", self.default_code)


def as_api_exception(exc: Exception) -> Exception:
    """The DRF exception that answers ``exc`` (anything else is returned as it is).

    A view calls this before DRF's own handling, so a missing login still gets its
    ``WWW-Authenticate`` header (DRF adds it for its ``NotAuthenticated`` only).
    """
    if isinstance(exc, errors.NotAuthenticated):
        return exceptions.NotAuthenticated(exc.message)
    if isinstance(exc, errors.ServiceError):
        return ErrorItems(exc.problems, exc.status)
    if isinstance(exc, OperationalError | InterfaceError):
        return database_refusal(exc)
    if isinstance(exc, Http404):
        return exceptions.NotFound()
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied()
    return exc


def error_items(exc: exceptions.APIException) -> list[ErrorItem]:
    """The error items of a DRF exception."""
    if isinstance(exc, ErrorItems):
        return exc.items
    if isinstance(exc, exceptions.ValidationError):
        items = flatten_detail(exc.detail, "", exc.default_code)
        return items or [problem("", exc.default_code, "Invalid input.")]
    detail = exc.detail
    if isinstance(detail, Mapping | list | tuple):
        return flatten_detail(detail, "", exc.default_code)
    return [problem("", getattr(detail, "code", None) or exc.default_code, str(detail))]


def service_error_items(exc: Exception) -> list[ErrorItem]:
    """The error items of a service error or a DRF exception (for the admin and commands)."""
    exc = as_api_exception(exc)
    if isinstance(exc, exceptions.APIException):
        return error_items(exc)
    return [problem("", "internal_error", str(exc))]


def exception_handler(exc: Exception, context: dict[str, Any]):
    """DRF ``EXCEPTION_HANDLER``: DRF's own handling (headers, rollback), then our body shape."""
    exc = as_api_exception(exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # Unhandled: Django turns it into a 500 (handler500 answers JSON for /api/).
    if isinstance(exc, exceptions.APIException):
        response.data = {"errors": listed(error_items(exc))}
    return response


# --- Django-level answers (URLs that never reach a DRF view, and DEBUG's own pages) -----------

JSON_PATH_PREFIXES = ("/api/", "/healthz")

# The error Django answers by status alone (its own pages, the handlers below).
STATUS_ERRORS: dict[int, tuple[str, str]] = {
    400: ("bad_request", "Bad request."),
    403: ("permission_denied", "You do not have permission."),
    404: ("not_found", "Not found."),
    405: ("method_not_allowed", "Method not allowed."),
    500: ("server_error", "A server error occurred."),
}


def wants_json(request: HttpRequest) -> bool:
    return request.path.startswith(JSON_PATH_PREFIXES)


def json_error(status_code: int, code: str, message: str, path: str = "") -> JsonResponse:
    return JsonResponse({"errors": [problem(path, code, message)]}, status=status_code)


def status_error(status_code: int) -> JsonResponse:
    """The JSON error of an HTTP status, for an answer that carries nothing but its status."""
    code, message = STATUS_ERRORS.get(status_code, ("error", HTTPStatus(status_code).phrase))
    return json_error(status_code, code, message)


def exception_response(exc: Exception) -> JsonResponse:
    """The JSON answer to an exception outside DRF: a plain Django view, a middleware,
    ``handler500``. An exception this module does not know is a 500."""
    api_exc = as_api_exception(exc)
    if not isinstance(api_exc, exceptions.APIException):
        return status_error(500)
    response = JsonResponse({"errors": error_items(api_exc)}, status=api_exc.status_code)
    wait = getattr(api_exc, "wait", None)
    if wait:
        response["Retry-After"] = f"{wait:.0f}"
    return response


def handler404(request: HttpRequest, exception: Exception | None = None):
    if wants_json(request):
        return status_error(404)
    return django_defaults.page_not_found(request, exception)


def handler500(request: HttpRequest):
    if wants_json(request):
        # Django calls this while handling the exception, without passing it on.
        exc = sys.exc_info()[1]
        return exception_response(exc) if exc is not None else status_error(500)
    return django_defaults.server_error(request)


def handler403(request: HttpRequest, exception: Exception | None = None):
    if wants_json(request):
        return status_error(403)
    return django_defaults.permission_denied(request, exception)


def handler400(request: HttpRequest, exception: Exception | None = None):
    if wants_json(request):
        return status_error(400)
    return django_defaults.bad_request(request, exception)
