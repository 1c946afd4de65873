"""Words of the club pages: roles, modes, signed amounts and seat winds, translated."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from pages.base import ROLE_TEXT

register = template.Library()

MODE_TEXT = {"xuezhan": _("Blood battle (血战到底)"), "single": _("One win (普通)")}
KIND_TEXT = {"club": _("Club table"), "tournament": _("Tournament table")}
#: a seat's wind on a small round badge: one letter in English
WINDS = (
    pgettext_lazy("seat wind, one letter", "E"),
    pgettext_lazy("seat wind, one letter", "S"),
    pgettext_lazy("seat wind, one letter", "W"),
    pgettext_lazy("seat wind, one letter", "N"),
)


@register.filter
def role_label(role: str | None) -> str:
    return str(ROLE_TEXT.get(role, role or ""))


@register.filter
def mode_label(mode: str) -> str:
    return str(MODE_TEXT.get(mode, mode))


@register.filter
def kind_label(kind: str) -> str:
    return str(KIND_TEXT.get(kind, kind))


@register.filter
def wind(seat: int) -> str:
    """The wind of a seat in play order: 东 南 西 北 (E S W N)."""
    return str(WINDS[seat]) if 0 <= seat < 4 else str(seat)


@register.filter
def signed(amount: int) -> str:
    """+5, −3, 0 (a true minus sign, tabular in the tables)."""
    if amount > 0:
        return f"+{amount}"
    if amount < 0:
        return f"−{-amount}"
    return "0"


@register.filter
def sign_class(amount: int) -> str:
    return "pos" if amount > 0 else "neg" if amount < 0 else ""
