"""One JSON error shape for the whole API.

Every error response body looks like::

    {"errors": [{"path": "events[2].winners[1].concealed", "code": "invalid", "message": "..."}]}

* ``path`` locates the offending input: dotted keys and ``[i]`` for list indices;
  ``""`` means the request as a whole (non-field errors, auth, throttling, 404, ...).
* ``code`` is a stable machine-readable string (DRF error codes, or your own).
* ``message`` is human-readable text.

Views raise :class:`ApiError` for errors with explicit paths, :class:`Conflict` for 409,
or any DRF ``APIException`` / ``ValidationError`` (flattened by :func:`exception_handler`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from django.views import defaults as django_defaults
from rest_framework import exceptions, status
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

ErrorItem = dict[str, str]


def error(path: str, code: str, message: str) -> ErrorItem:
    """Build one error item."""
    return {"path": str(path), "code": str(code), "message": str(message)}


def join_path(base: str, key: str | int) -> str:
    """Append one key to a path.

    ``join_path("events", 2) == "events[2]"``; ``join_path("events[2]", "x") == "events[2].x"``;
    the non-field-errors key adds nothing (its errors belong to the enclosing object).
    """
    if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
        return f"{base}[{int(key)}]"
    key = str(key)
    if key == api_settings.NON_FIELD_ERRORS_KEY:
        return base
    return f"{base}.{key}" if base else key


def path_from_parts(parts: Iterable[str | int]) -> str:
    """Turn ``("events", 2, "winners", 1, "concealed")`` into ``events[2].winners[1].concealed``.

    Handy for converting errors that carry a location tuple (e.g. from the rules engine).
    """
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
        items.append(error(path, code, str(detail)))
    return items


class ApiError(exceptions.APIException):
    """Raise from a view to answer with explicit error items.

    >>> raise ApiError([{"path": "hand.tiles[3]", "code": "bad_tile", "message": "..."}])
    >>> raise ApiError.single("ruleset", "unknown_ruleset", "No such ruleset", status=404)
    """

    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "Invalid request."
    default_code = "invalid"

    def __init__(
        self,
        errors: Iterable[Mapping[str, Any]] | None = None,
        status: int | None = None,
    ) -> None:
        items = [
            error(e.get("path", ""), e.get("code", self.default_code), e.get("message", ""))
            for e in (errors or [])
        ]
        if not items:
            items = [error("", self.default_code, str(self.default_detail))]
        self.errors = items
        if status is not None:
            self.status_code = status
        super().__init__(detail=items[0]["message"], code=items[0]["code"])

    @classmethod
    def single(cls, path: str, code: str, message: str, status: int | None = None) -> ApiError:
        return cls([error(path, code, message)], status=status)


class Conflict(exceptions.APIException):
    """409: the request conflicts with the current state (duplicate, stale version, ...)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The request conflicts with the current state of the resource."
    default_code = "conflict"


def errors_for_exception(exc: exceptions.APIException) -> list[ErrorItem]:
    if isinstance(exc, ApiError):
        return exc.errors
    if isinstance(exc, exceptions.ValidationError):
        items = flatten_detail(exc.detail, "", exc.default_code)
        return items or [error("", exc.default_code, "Invalid input.")]
    detail = exc.detail
    if isinstance(detail, Mapping | list | tuple):
        return flatten_detail(detail, "", exc.default_code)
    return [error("", getattr(detail, "code", None) or exc.default_code, str(detail))]


def exception_handler(exc: Exception, context: dict[str, Any]):
    """DRF ``EXCEPTION_HANDLER``: DRF's own handling (headers, rollback), then our body shape."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # Unhandled: Django turns it into a 500 (handler500 answers JSON for /api/).
    if isinstance(exc, exceptions.APIException):
        response.data = {"errors": errors_for_exception(exc)}
    return response


# --- Django-level handlers (URLs that never reach a DRF view) ----------------------------------

JSON_PATH_PREFIXES = ("/api/", "/healthz")


def wants_json(request: HttpRequest) -> bool:
    return request.path.startswith(JSON_PATH_PREFIXES)


def json_error(status_code: int, code: str, message: str, path: str = "") -> JsonResponse:
    return JsonResponse({"errors": [error(path, code, message)]}, status=status_code)


def handler404(request: HttpRequest, exception: Exception | None = None):
    if wants_json(request):
        return json_error(404, "not_found", "Not found.")
    return django_defaults.page_not_found(request, exception)


def handler500(request: HttpRequest):
    if wants_json(request):
        return json_error(500, "server_error", "A server error occurred.")
    return django_defaults.server_error(request)


def handler403(request: HttpRequest, exception: Exception | None = None):
    if wants_json(request):
        return json_error(403, "permission_denied", "You do not have permission.")
    return django_defaults.permission_denied(request, exception)


def handler400(request: HttpRequest, exception: Exception | None = None):
    if wants_json(request):
        return json_error(400, "bad_request", "Bad request.")
    return django_defaults.bad_request(request, exception)
