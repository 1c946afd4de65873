"""What every page view shares: finding a club the visitor may see, and a refusal in words.

A club the visitor may not read is a 404, never a 403: a members-only club does not exist for an
outsider. A service's refusal (``Invalid``, ``Conflict`` …) becomes messages in the visitor's
language: the code's own translation where ``ERROR_TEXT`` has one, else the service's message.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext_lazy as _

from clubs import selectors
from clubs.models import Club
from core.http import service_error_items

# Codes a person meets on a page, in words. Others fall back to the service's own message.
ERROR_TEXT = {
    "required": _("This field is required."),
    "invalid": _("This value is not valid."),
    "session_closed": _("This table is closed."),
    "hand_exists": _("A hand with this number is already recorded."),
    "not_zero_sum": _("The totals do not add up to zero."),
    "throttled": _("Too many attempts. Try again later."),
    "dealer_required": _("Say who deals this hand: the hand before does not tell."),
    "hand_not_finished": _(
        "This hand is not finished: 血战 ends with three winners or a draw (流局) with every "
        "player still in, 普通 with the first win."
    ),
    "table_complete": _("This table has played all its hands."),
    "reason_required": _("Say why, in a few words."),
    "session_has_hands": _("This table has hands: its totals come from them."),
    "session_has_results": _("This table's final result was entered: it takes no hands."),
}


def error_messages(exc: Exception) -> list[str]:
    """A service error as the lines a page shows (path first where it helps)."""
    lines = []
    for item in service_error_items(exc):
        text = str(ERROR_TEXT.get(item["code"], item["message"]))
        lines.append(text)
    return lines


def club_for(user, slug: str) -> Club:
    """The club with this slug if the visitor may read it; 404 otherwise."""
    club = selectors.club_visible(user, slug)
    if club is None:
        raise Http404
    return club


def require_role(user, club: Club, role: str) -> None:
    """403 for a visitor who may read the club but lacks the role (404 if he may not read it)."""
    if not selectors.can_read(user, club):
        raise Http404
    if not selectors.has_role(user, club, role):
        raise PermissionDenied
