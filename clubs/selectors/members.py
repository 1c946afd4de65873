"""Members, invitations and logins of a club."""

from __future__ import annotations

from typing import NamedTuple

from django.db.models import (
    Q,
    QuerySet,
)
from django.utils import timezone

from clubs.models import (
    Club,
    Invitation,
    Membership,
    Player,
    Role,
)

from .access import has_role

# --- members, invitations and logins ---------------------------------------------------------


def members_of(club: Club) -> QuerySet[Membership]:
    """The club's members with their players and logins (``player.user``), by name."""
    return (
        Membership.objects.filter(club=club)
        .select_related("player__user", "club")
        .order_by("player__name", "id")
    )


def member_of(club: Club, pk: int) -> Membership | None:
    """One membership of the club, with its player and login."""
    return members_of(club).filter(pk=pk).first()


def players_without_login(club: Club) -> QuerySet[Membership]:
    """The club's members whose player has no login yet (whom an invitation may name)."""
    return members_of(club).filter(player__user__isnull=True)


def open_invitations(club: Club, viewer) -> QuerySet[Invitation]:
    """The club's links that still work (neither used, revoked nor expired), newest first, that
    ``viewer`` may see: every organiser sees the invitations, but a password-reset link (which
    lets whoever holds it act as that member) only its creator, the club's owner and staff."""
    links = Invitation.objects.filter(
        club=club, used_at=None, revoked_at=None, expires_at__gt=timezone.now()
    )
    if not (viewer.is_superuser or has_role(viewer, club, Role.OWNER)):
        links = links.filter(Q(kind=Invitation.Kind.JOIN) | Q(created_by=viewer))
    return links.select_related("club", "player", "user", "created_by").order_by(
        "-created_at", "-id"
    )


def invitation_of(club: Club, pk: int) -> Invitation | None:
    """One link of the club, whatever its state."""
    return Invitation.objects.filter(club=club, pk=pk).select_related("club").first()


def invitation_by_token(token: str) -> Invitation | None:
    """The link with this token, whatever its state (its page says when it no longer works)."""
    if not token or len(token) > 64:
        return None
    return Invitation.objects.filter(token=token).select_related("club", "player", "user").first()


class UserClubs(NamedTuple):
    """A login's players (at most one: one person, one player) and his clubs with roles."""

    players: list[Player]
    memberships: list[Membership]


def user_clubs(user) -> UserClubs:
    """The players linked to a login and the memberships they hold, by club name."""
    players = list(Player.objects.filter(user=user).order_by("id"))
    memberships = list(
        Membership.objects.filter(player__user=user)
        .select_related("club")
        .order_by("club__name", "id")
    )
    return UserClubs(players, memberships)
