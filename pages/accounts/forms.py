"""Forms of the account pages."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.logins import ThrottledLoginFormMixin


class LoginForm(ThrottledLoginFormMixin, AuthenticationForm):
    """Django's login form, refusing a login from where too many were tried (``core.logins``
    counts each password checked, as for the API and the admin)."""

    def throttled_message(self, wait: int) -> str:
        return gettext("Too many failed logins; try again in %(wait)s seconds.") % {"wait": wait}


class SignupForm(UserCreationForm):
    """A login: username and password, no e-mail (no mail server is assumed)."""

    username = forms.CharField(label=_("Username"), max_length=150)

    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class InvitationForm(forms.Form):
    """An invitation: the role it gives and, optionally, the club's player (without a login) it
    is for. ``players``: the memberships that may be named."""

    role = forms.ChoiceField(label=_("Role"))
    player = forms.ChoiceField(
        label=_("For the player"),
        required=False,
        help_text=_("Optional: a player of the club who has no login yet."),
    )

    def __init__(self, *args, players=(), roles=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["role"].choices = list(roles)
        self.fields["player"].choices = [("", _("— a new player —"))] + [
            (str(m.player_id), m.name) for m in players
        ]


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"))

    def __init__(self, *args, roles=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["role"].choices = list(roles)
