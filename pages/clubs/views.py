"""Home and the club pages."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from clubs import selectors


def home(request: HttpRequest) -> HttpResponse:
    """The clubs you belong to, then the public clubs; sign in / sign up for a visitor."""
    clubs = list(selectors.clubs_visible_to(request.user))
    return render(request, "pages/clubs/home.html", {"clubs": clubs})
