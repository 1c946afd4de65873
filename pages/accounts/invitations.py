"""The page a link opens (``/invite/<token>/``): join a club, or set a new password.

An invitation shows the club and the role it gives. A visitor creates a login there (username
and password) or signs in first and comes back; someone signed in accepts it with the login he
has. A password-reset link shows whose login it is and sets a new password (Django's
``SetPasswordForm``). A link that was used, revoked or has expired answers 410 with a page that
says which; an unknown token is a 404.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth.forms import SetPasswordForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import selectors
from clubs.enums import ROLE_RANK, InvitationKind, InvitationState
from clubs.services import invitations as services
from core.errors import ServiceError
from pages.accounts.forms import SignupForm
from pages.base import ERROR_TEXT, ROLE_TEXT, error_messages

if TYPE_CHECKING:
    from clubs.models import Invitation

BACKEND = "core.logins.ThrottledModelBackend"


def _closed(request: HttpRequest, inv: Invitation | None, code: str) -> HttpResponse:
    """The page of a link that no longer works: 410 (gone), saying why."""
    context = {"inv": inv, "reason": ERROR_TEXT.get(code, ERROR_TEXT["no_such_link"])}
    return render(request, "pages/accounts/link_closed.html", context, status=410)


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    inv = selectors.invitation_by_token(token)
    if inv is None:
        raise Http404
    state = inv.state
    if state != InvitationState.OPEN:
        return _closed(request, inv, services.CLOSED[state][0])
    if inv.kind == InvitationKind.RESET:
        if not services.reset_still_allowed(inv):
            return _closed(request, inv, services.NO_LONGER_ALLOWED[0])
        return _reset(request, inv)
    return _join(request, inv)


class _Invalid(Exception):
    """The sign-up form has errors: show it again."""


def _join(request: HttpRequest, inv: Invitation) -> HttpResponse:
    user = request.user
    form = None
    errors: list[str] = []
    if request.method == "POST":
        try:
            if user.is_authenticated:
                m = services.invitation_accept(token=inv.token, user=user)
            else:
                form = SignupForm(request.POST)
                if not form.is_valid():
                    raise _Invalid
                m = services.invitation_accept_new_login(
                    token=inv.token,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                )
                auth_login(request, m.player.user, backend=BACKEND)
        except _Invalid:
            pass
        except ServiceError as exc:
            if exc.code in services.CLOSED_CODES:
                return _closed(request, inv, exc.code)
            errors = error_messages(exc)
        else:
            messages.success(
                request,
                _("Welcome to %(club)s: you are %(role)s there.")
                % {"club": inv.club.name, "role": ROLE_TEXT[m.role]},
            )
            return redirect(reverse("page-club", args=[inv.club.slug]))
    here = request.get_full_path()
    held = None
    if user.is_authenticated:
        mine = selectors.membership_of(user, inv.club)
        if mine is not None and ROLE_RANK[mine.role] >= ROLE_RANK[inv.role]:
            held = ROLE_TEXT[mine.role]
    context = {
        "inv": inv,
        "club": inv.club,
        "role_text": ROLE_TEXT[inv.role],
        "form": form or (None if user.is_authenticated else SignupForm()),
        "errors": errors,
        "held": held,
        "here": here,
    }
    return render(request, "pages/accounts/invitation.html", context)


def _reset(request: HttpRequest, inv: Invitation) -> HttpResponse:
    form = SetPasswordForm(inv.user, request.POST or None)
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            services.password_reset(token=inv.token, password=form.cleaned_data["new_password1"])
        except ServiceError as exc:
            if exc.code in services.CLOSED_CODES:
                return _closed(request, inv, exc.code)
            errors = error_messages(exc)
        else:
            messages.success(
                request,
                _("Your new password is set: sign in with it, %(name)s.")
                % {"name": inv.user.username},
            )
            return redirect("login")
    context = {"inv": inv, "club": inv.club, "form": form, "errors": errors}
    return render(request, "pages/accounts/password_reset.html", context)
