"""Who may see what: a visitor's membership and role in a club, the clubs and players he may
read, and the clubs of a player's page he may read."""

from __future__ import annotations

from django.db.models import (
    Q,
    QuerySet,
)

from clubs.models import (
    ROLE_RANK,
    Club,
    Membership,
    Player,
    Role,
)

# --- who may see what ------------------------------------------------------------------------


def membership_of(user, club: Club) -> Membership | None:
    if not user or not user.is_authenticated:
        return None
    cache = getattr(user, "_memberships", None)
    if cache is None:
        cache = user._memberships = {
            m.club_id: m for m in Membership.objects.filter(player__user=user).order_by()
        }
    return cache.get(club.pk)


#: ``held`` when the user's role in the club was not read along with the club: look it up
UNREAD = object()


def has_role(user, club: Club, role: str, *, held: str | None | object = UNREAD) -> bool:
    """At least ``role`` in the club (owner > organiser > scorer > member); staff may all.

    ``held``: the user's role in the club (None: not a member) when the caller read it along
    with the club (see ``clubs.fastpath.lock_session``), instead of looking it up.
    """
    if user and user.is_authenticated and user.is_superuser:
        return True
    if held is UNREAD:
        m = membership_of(user, club)
        held = None if m is None else m.role
    return held is not None and ROLE_RANK[held] >= ROLE_RANK[role]


def can_read(user, club: Club, *, held: str | None | object = UNREAD) -> bool:
    return club.is_public or has_role(user, club, Role.MEMBER, held=held)


def clubs_visible_to(user) -> QuerySet[Club]:
    qs = Club.objects.select_related("ruleset")
    if user and user.is_authenticated and user.is_superuser:
        return qs
    if user and user.is_authenticated:
        return qs.filter(
            Q(visibility=Club.Visibility.PUBLIC) | Q(memberships__player__user=user)
        ).distinct()
    return qs.filter(visibility=Club.Visibility.PUBLIC)


def club_visible(user, slug: str) -> Club | None:
    """The club with this slug if ``user`` may read it (members-only clubs hide from others)."""
    club = Club.objects.select_related("ruleset").filter(slug=slug).first()
    if club is None or not can_read(user, club):
        return None
    return club


def players_visible_to(user) -> QuerySet[Player]:
    """The players a user may see, and so name by id: those of public clubs and of his own
    clubs, and himself. Anyone else is, to him, a player that does not exist."""
    qs = Player.objects.all()
    if user and user.is_authenticated and user.is_superuser:
        return qs
    seen = Q(memberships__club__visibility=Club.Visibility.PUBLIC)
    if user and user.is_authenticated:
        mine = Membership.objects.filter(player__user=user).values("club_id")
        seen |= Q(memberships__club__in=mine) | Q(user=user)
    return qs.filter(seen).distinct()


def player_by_id(pk: int) -> Player | None:
    """A player by id, whoever may see him (``players_visible_to`` and the statistics say
    that)."""
    return Player.objects.filter(pk=pk).first()


# --- a player's page ---------------------------------------------------------------------------


def readable_clubs(user, slugs) -> list[Club]:
    """The clubs of these slugs that ``user`` may read, by name (one query, and the user's
    memberships once)."""
    clubs = Club.objects.filter(slug__in=list(slugs)).order_by("name", "pk")
    return [c for c in clubs if can_read(user, c)]
