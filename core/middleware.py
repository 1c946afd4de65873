"""Middleware of the API's edge: every error JSON in the project's shape, request bodies bounded.

DRF views answer their own errors (``core.http.exception_handler``); ``ApiErrorsMiddleware``
covers what happens around them, with ``DEBUG`` on as well as off: an exception a view leaves
unhandled, and the pages Django renders itself (its 404 for an unknown URL, its debug pages).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.core.signals import got_request_exception
from django.http import Http404, HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.log import log_response
from rest_framework.response import Response

from core import text
from core.errors import problem
from core.http import BodyTooLarge, ErrorItems, exception_response, status_error, wants_json

# Exceptions Django answers (and logs) itself with a status of their own: their answer is
# rewritten on the way out, like any page Django renders.
DJANGO_ANSWERED = (Http404, PermissionDenied, BadRequest, SuspiciousOperation, MultiPartParserError)

# Headers of a rewritten answer that still hold for its JSON replacement.
KEPT_HEADERS = ("Allow", "Retry-After")


class ApiErrorsMiddleware:
    """JSON errors under ``/api/``. Put it first: it also rewrites the error pages of the
    middleware inside it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if wants_json(request) and response.status_code >= 400 and not _is_json(response):
            replacement = status_error(response.status_code)
            for header in KEPT_HEADERS:
                if header in response:
                    replacement[header] = response[header]
            return replacement
        return response

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not wants_json(request) or isinstance(exception, DJANGO_ANSWERED):
            return None
        response = exception_response(exception)
        if response.status_code == 500:
            # What Django does with an exception nobody handled (its debug page aside): tell
            # the listeners (error reporting; the test client re-raises it) and log it.
            got_request_exception.send(sender=None, request=request)
            log_response(
                "%s: %s", response.reason_phrase, request.path,
                response=response, request=request, exception=exception,
            )  # fmt: skip
        return response


def _is_json(response: HttpResponse) -> bool:
    # A DRF answer was rendered as its client asked (the browsable API's HTML page included).
    if isinstance(response, Response):
        return True
    return response.get("Content-Type", "").startswith("application/json")


class RequestBodyLimitMiddleware:
    """An API request whose body is larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is refused (413)
    before anything reads it. Django checks that size only when ``request.body`` is read;
    DRF's parsers read the request's stream, past that check."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and wants_json(request) and _content_length(request) > limit:
            return exception_response(BodyTooLarge(limit))
        return self.get_response(request)


def _content_length(request: HttpRequest) -> int:
    # What Django reads of the body at most (its stream stops there): a missing or malformed
    # length reads nothing.
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class ControlCharactersMiddleware:
    """An API request whose query string or form fields hold a control character (``core.text``)
    is refused (400 ``control_character``, the field as its path) before a view reads them;
    JSON bodies are checked by the parser. Pages have their own (``pages.middleware``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if wants_json(request):
            # a body too large or malformed raises here as it would in the view: Django answers
            # it (400), and the API's middleware puts that in the error shape
            found = text.control_in_query(*text.form_fields(request))
            if found is not None:
                items = [problem(found.field, text.CODE, text.message_for(found.character))]
                return exception_response(ErrorItems(items, 400))
        return self.get_response(request)


class ContentSecurityPolicyMiddleware:
    """Every HTML page says where its scripts, styles and images may come from: this site only,
    nothing inline (``settings.CSP_PAGES``), so an injected ``<script>`` or ``onclick`` never
    runs. The operators' tools under ``CSP_TOOLS_PREFIXES`` (the admin, the browsable API and
    its docs, which Django and the API's libraries render with inline script and style) get
    ``CSP_TOOLS``, still this site only. A response that sets its own policy (a share card)
    keeps it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" in response:
            return response
        if not response.get("Content-Type", "").startswith("text/html"):
            return response
        tool = request.path.startswith(tuple(settings.CSP_TOOLS_PREFIXES))
        response["Content-Security-Policy"] = settings.CSP_TOOLS if tool else settings.CSP_PAGES
        return response
