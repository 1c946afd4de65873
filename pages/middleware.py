"""Middleware of the pages: a page that needs a login sends the visitor to sign in and back; a
form or a link carrying an invisible control character is answered with a page saying so."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

from core import text
from core.http import wants_json
from pages.base import LoginRequired


class LoginRequiredMiddleware:
    """Turns ``pages.base.LoginRequired`` into the sign-in page, with ``next`` the page to come
    back to: the page itself for a GET, the page the form was on for a POST (a form's action
    is no page to land on)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not isinstance(exception, LoginRequired):
            return None
        back = request.get_full_path()
        if request.method != "GET":
            referer = request.META.get("HTTP_REFERER", "")
            ok = url_has_allowed_host_and_scheme(referer, {request.get_host()}, request.is_secure())
            back = urlsplit(referer).path if referer and ok else "/"
        return redirect_to_login(back)


class ControlCharactersMiddleware:
    """A page's form or query whose fields hold a control character (``core.text``: a NUL, an
    escape...) is answered 400 with a page naming the field, before any view stores it (the
    API's requests have ``core.middleware.ControlCharactersMiddleware``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not wants_json(request):
            # a body too large or malformed raises here as it would in the view: Django
            # answers it with its 400 page
            found = text.control_in_query(*text.form_fields(request))
            if found is not None:
                context = {
                    "field": found.field,
                    "code_point": f"U+{ord(found.character):04X}",
                    "typed": text.visible(found.text),
                }
                return render(request, "pages/bad_text.html", context, status=400)
        return self.get_response(request)
