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
    "slug_taken": _("Another club has this address; choose another."),
    "four_players": _("A table seats four different players."),
    "not_a_member": _("This player is not a member of the club."),
    "duplicate_bettor": _("Each bettor needs a name of his own."),
    "bettor_is_seated": _("A player at the table cannot also bet on it."),
    "last_owner": _("A club keeps at least one owner."),
    "already_member": _("This player is already a member of the club."),
    "invalid_role": _("An invitation is for a scorer or a member."),
    "player_has_login": _("This player already has a login."),
    "login_has_player": _(
        "Your login already belongs to another player. Create a new login with this link."
    ),
    "username_taken": _("This username is taken."),
    "no_login": _("This member has no login yet: invite him instead."),
    "reset_not_allowed": _(
        "You may reset the password only of someone whose role is below yours in every club "
        "he belongs to."
    ),
    "invitation_used": _("This link was already used."),
    "invitation_revoked": _("This link was revoked."),
    "invitation_expired": _("This link has expired."),
    "no_such_link": _("There is no such link."),
    "dealer_required": _("Say who deals this hand: the hand before does not tell."),
    "hand_not_finished": _(
        "This hand is not finished: 血战 ends with three winners or a draw (流局) with every "
        "player still in, 普通 with the first win."
    ),
    "table_complete": _("This table has played all its hands."),
    "reason_required": _("Say why, in a few words."),
    "session_has_hands": _("This table has hands: its totals come from them."),
    "session_has_results": _("This table's final result was entered: it takes no hands."),
    "winning_tile_missing": _(
        "A winner entered by his tiles needs the winning tile: tap it, or type it after the hand."
    ),
    "robbing_kong_tile_missing": _(
        "抢杠: give the winning tile, or record the added kong (弯杠) that was robbed just before "
        "the win."
    ),
}

# A member's role in words (the models' labels are English only).
ROLE_TEXT = {
    "owner": _("Owner"),
    "organiser": _("Organiser"),
    "scorer": _("Scorer"),
    "member": _("Member"),
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


class LoginRequired(Exception):
    """Raised by a page that needs a login: ``pages.middleware`` sends the visitor to sign in
    and back."""


def require_role(user, club: Club, role: str) -> None:
    """For a visitor who may read the club: sign in first (anonymous), 403 (a login without the
    role). A club he may not read is 404, whoever he is: a members-only club does not exist for
    an outsider, signed in or not (the 404 page offers a signed-out visitor the sign-in)."""
    if not selectors.can_read(user, club):
        raise Http404
    if not user.is_authenticated:
        raise LoginRequired
    if not selectors.has_role(user, club, role):
        raise PermissionDenied
