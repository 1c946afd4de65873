"""Object-level access to a club's data.

Reading: public clubs are open to everyone; a members-only club's data is visible to its
members only (to anyone else it does not exist: 404). Writing needs a login (401, whatever
the club: asking to log in reveals nothing) and at least the role an action names (403):
owner > organiser > scorer > member.
"""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS

from clubs.models import Club
from clubs.selectors import UNREAD, can_read, has_role
from core.errors import NotAuthenticated, NotFound, PermissionDenied
from core.idempotency import note_check, register_recheck

# what an Idempotency-Key replay runs again (registered below)
RECHECK = "clubs.authorize"


def authorize(request, club: Club, role: str | None = None, *, held=UNREAD) -> None:
    """Raise unless the request may read the club's data and, given a role, act with it.

    ``held``: the user's role in the club when it was read along with the club (see
    ``clubs.selectors.has_role``).
    """
    user = request.user
    if role is not None and request.method not in SAFE_METHODS and not user.is_authenticated:
        raise NotAuthenticated()
    if not can_read(user, club, held=held):
        raise NotFound("no such club")
    if role is None:
        return
    if not user.is_authenticated:
        raise NotAuthenticated()
    if not has_role(user, club, role, held=held):
        raise PermissionDenied(f"this needs the {role} role in {club.name}")
    note_check(request, RECHECK, club.pk, role)


def reauthorize(request, club_pk: int, role: str | None) -> None:
    """``authorize`` again, as a replay of an idempotent POST that passed it does: the club
    read afresh, and the user's role in it now."""
    club = Club.objects.filter(pk=club_pk).first()
    if club is None:
        raise NotFound("no such club")
    authorize(request, club, role)


register_recheck(RECHECK, reauthorize)
