"""Sign-up, login, logout, password change and the login's API token."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core import tokens
from pages.accounts.forms import LoginForm, SignupForm


def _next_url(request: HttpRequest, default: str = "home") -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return reverse_lazy(default)


class LoginView(auth_views.LoginView):
    """The login page; a throttled login answers 429 with the page and a message."""

    template_name = "pages/accounts/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
            response["Retry-After"] = str(form.wait)
        return response


class LogoutView(auth_views.LogoutView):
    next_page = reverse_lazy("home")


class PasswordChangeView(auth_views.PasswordChangeView):
    """A new password ends the login's other sessions (Django: they hold the old password's
    hash; this one is kept) and its API tokens."""

    template_name = "pages/accounts/password_change.html"
    success_url = reverse_lazy("home")

    def form_valid(self, form):
        response = super().form_valid(form)
        revoked = tokens.api_tokens_revoke(self.request.user)
        messages.success(self.request, _("Your password was changed."))
        if revoked:
            messages.info(self.request, _("Your API token was revoked with the old password."))
        return response


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """The login's API token: when it was made and how it ends, revoked or replaced here. A new
    key is shown once, on the page that made it."""
    new_key = None
    if request.method == "POST":
        if request.POST.get("action") == "create":
            new_key = tokens.api_token_create(request.user).key
            messages.success(request, _("A new API token was made: copy it now."))
        elif tokens.api_tokens_revoke(request.user):
            messages.success(request, _("Your API token was revoked."))
        if new_key is None:
            return redirect("api-token")
    token = tokens.api_token_of(request.user)
    context = {"token": token, "new_key": new_key, "ending": token.key[-4:] if token else ""}
    return render(request, "pages/accounts/api_token.html", context)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create a login and sign in with it (an organiser then creates his club)."""
    if request.user.is_authenticated:
        return redirect(_next_url(request))
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        auth_login(request, user, backend="core.logins.ThrottledModelBackend")
        messages.success(request, _("Welcome, %(name)s.") % {"name": user.username})
        return redirect(_next_url(request))
    return render(request, "pages/accounts/signup.html", {"form": form, "next": _next_url(request)})
