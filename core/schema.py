"""The OpenAPI schema says what the API answers: pages for paged lists, and every error.

drf-spectacular documents a list as a bare array unless the view is a generic one with a
``pagination_class``; our views page by hand (``ApiView.paginate``), so a view whose GET
answers a page says so (``pages = True``) and is documented as that page,
``{count, next, previous, results}``, with its ``page`` and ``page_size`` parameters.

Every operation also lists the errors it may answer, each in the one error shape
(``ErrorsSerializer``, ``{"errors": [{path, code, message}]}``), by what the operation is:

* 400 when it takes a body or filters (query parameters beyond paging),
* 401 when its view authenticates (a wrong token is a 401 anywhere),
* 403 when its view checks more than a login (an ``ApiView`` checks roles in a club),
* 404 when its path names an object, or it answers a page (a page past the end),
* 409 when it writes through an ``ApiView`` (a closed session, a reused ``Idempotency-Key``…),
* 413 when it takes a body (over ``DATA_UPLOAD_MAX_MEMORY_SIZE``),
* 415 when it takes a body (sent in a media type the API does not read, or with none),
* 429 when its view is throttled.

A view's own ``extend_schema`` answer for a status wins.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from rest_framework import serializers
from rest_framework.permissions import (
    SAFE_METHODS,
    AllowAny,
    IsAuthenticated,
    IsAuthenticatedOrReadOnly,
)

from core.api import ApiView
from core.pagination import StandardPagination

# Permissions that refuse only the anonymous (401, never 403).
LOGIN_ONLY = frozenset({AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly})
# Query parameters that do not filter: a wrong one is a 404 (page) or ignored (page_size).
NOT_FILTERS = frozenset({"page", "page_size", "format"})

ERROR_DESCRIPTIONS = {
    400: "The input is wrong: every problem, each with its path.",
    401: "A login is needed, or the token given is wrong.",
    403: "Logged in, without the role this needs.",
    404: "No such object, or none you may see; or a page past the end.",
    409: "Conflicts with the current state (a closed session, a number taken, an "
    "Idempotency-Key used for another request).",
    413: "The request body is larger than the API reads.",
    415: "The request body is in a media type the API does not read (JSON, a form, multipart), "
    "or has none.",
    429: "Too many requests, or too many failed logins: see Retry-After.",
}


class ErrorItemSerializer(serializers.Serializer):
    path = serializers.CharField(
        help_text='where: dotted keys and [i] list indices; "" is the request as a whole'
    )
    code = serializers.CharField(help_text="stable, for programs")
    message = serializers.CharField(help_text="for people")


class ErrorsSerializer(serializers.Serializer):
    """Every error answer of the API, whatever its status."""

    errors = ErrorItemSerializer(many=True)


class AutoSchema(openapi.AutoSchema):
    """``DEFAULT_SCHEMA_CLASS``: drf-spectacular's, with pages and errors (see above)."""

    def _get_paginator(self):
        if self.method == "GET" and getattr(self.view, "pages", False):
            return StandardPagination()
        return super()._get_paginator()

    def get_operation(self, *args, **kwargs) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        responses = operation.setdefault("responses", {})
        for status in self.error_statuses(operation):
            if str(status) not in responses:
                response = self._get_response_for_code(
                    ErrorsSerializer, str(status), ["application/json"]
                )
                responses[str(status)] = {**response, "description": ERROR_DESCRIPTIONS[status]}
        return operation

    def error_statuses(self, operation: dict[str, Any]) -> list[int]:
        view, writes = self.view, self.method not in SAFE_METHODS
        parameters = operation.get("parameters", [])
        body = "requestBody" in operation
        filters = any(p["in"] == "query" and p["name"] not in NOT_FILTERS for p in parameters)
        names_an_object = any(p["in"] == "path" for p in parameters)
        permissions = {type(p) for p in view.get_permissions()}
        checks = {
            400: body or filters,
            401: bool(view.get_authenticators()),
            403: isinstance(view, ApiView) or not permissions <= LOGIN_ONLY,
            404: names_an_object or self._is_list_view() and self._get_paginator() is not None,
            409: writes and isinstance(view, ApiView),
            413: body,
            415: body,
            429: bool(view.get_throttles()),
        }
        return [status for status, applies in checks.items() if applies]
