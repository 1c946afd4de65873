"""Invitations and password-reset links: created by an organiser, used once, expiring, revocable.

The views check that the caller is an organiser of the club (``clubs.permissions.authorize``,
``pages.base.require_role``); the rules about whom a link may name are here. Using a link locks
its row first (``select_for_update``) and reads its state under the lock: of two people opening
one link at once, one gets it and the other is told it was used.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.models import ROLE_RANK, Club, Invitation, Membership, Player, Role
from clubs.services.clubs import player_for_user
from core.errors import Conflict, Invalid, NotFound, PermissionDenied
from core.tokens import api_tokens_revoke

#: the roles an invitation may give (an organiser is made one by changing a member's role)
INVITED_ROLES = (Role.SCORER, Role.MEMBER)

#: why a link no longer works, by its state
CLOSED = {
    Invitation.State.USED: ("invitation_used", "this link was already used"),
    Invitation.State.REVOKED: ("invitation_revoked", "this link was revoked"),
    Invitation.State.EXPIRED: ("invitation_expired", "this link has expired"),
}
#: a reset link whose creator may no longer reset that login (he was made an organiser
#: elsewhere, opened his own club, or the creator lost his role): it stays unusable
NO_LONGER_ALLOWED = ("reset_no_longer_allowed", "this link may no longer reset this login")
CLOSED_CODES = frozenset(code for code, _ in CLOSED.values()) | {NO_LONGER_ALLOWED[0]}


def _token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits: 43 characters


def _expiry(ttl: int | None):
    seconds = settings.INVITATION_TTL if ttl is None else ttl
    return timezone.now() + timedelta(seconds=seconds)


@transaction.atomic
def invitation_create(
    *, club: Club, by, role: str, player: Player | None = None, ttl: int | None = None
) -> Invitation:
    """An invitation to join ``club`` with ``role`` (scorer or member), optionally as ``player``:
    a player of the club who has no login yet."""
    if role not in INVITED_ROLES:
        raise Invalid.single("role", "invalid_role", "an invitation is for a scorer or a member")
    if player is not None:
        if not Membership.objects.filter(club=club, player=player).exists():
            raise Invalid.single("player", "not_a_member", "this player is not in the club")
        if player.user_id is not None:
            raise Conflict("player_has_login", "this player already has a login", "player")
    return Invitation.objects.create(
        club=club,
        kind=Invitation.Kind.JOIN,
        token=_token(),
        role=role,
        player=player,
        created_by=by,
        expires_at=_expiry(ttl),
    )


def may_reset(by, membership: Membership) -> bool:
    """Whether ``by`` may issue a password-reset link for the login of ``membership``'s player.

    A login is one person's across every club, so whoever sets its password acts as him
    everywhere: ``by`` must hold a higher role than he does in every club he belongs to (so he
    gains no right he has not already), and staff logins are reset by staff only.
    """
    user = membership.player.user
    if user is None or not by or not by.is_authenticated or user.pk == by.pk:
        return False
    if by.is_superuser:
        return True
    if user.is_staff or user.is_superuser:
        return False
    mine = {m.club_id: m.role for m in Membership.objects.filter(player__user=by).order_by()}
    for club_id, role in Membership.objects.filter(player__user=user).values_list(
        "club_id", "role"
    ):
        if club_id not in mine or ROLE_RANK[mine[club_id]] <= ROLE_RANK[role]:
            return False
    return True


@transaction.atomic
def reset_link_create(*, membership: Membership, by, ttl: int | None = None) -> Invitation:
    """A link at which the member's login sets a new password (no e-mail: the organiser hands
    it over). Any open reset link of that login in this club is revoked by the new one."""
    if membership.player.user_id is None:
        raise Conflict("no_login", "this member has no login yet: invite him instead", "member")
    if not may_reset(by, membership):
        raise PermissionDenied.single(
            "member",
            "reset_not_allowed",
            "you may reset the password only of someone whose role is below yours in every "
            "club he belongs to",
        )
    now = timezone.now()
    Invitation.objects.filter(
        club=membership.club_id,
        kind=Invitation.Kind.RESET,
        user=membership.player.user_id,
        used_at=None,
        revoked_at=None,
    ).update(revoked_at=now)
    return Invitation.objects.create(
        club=membership.club,
        kind=Invitation.Kind.RESET,
        token=_token(),
        player=membership.player,
        user=membership.player.user,
        created_by=by,
        expires_at=_expiry(ttl),
    )


@transaction.atomic
def invitation_revoke(*, invitation: Invitation) -> Invitation:
    """Close an open link; revoking a revoked or expired one changes nothing, a used one is a
    conflict (what it gave stays given: change the role on the members page)."""
    inv = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if inv.used_at is not None:
        raise Conflict(*CLOSED[Invitation.State.USED])
    if inv.revoked_at is None:
        inv.revoked_at = timezone.now()
        inv.save(update_fields=["revoked_at"])
    return inv


def _lock_open(token: str, kind: str) -> Invitation:
    """The link with this token, locked until the transaction ends, if it is still open."""
    inv = (
        Invitation.objects.select_for_update(of=("self",))
        .filter(token=token, kind=kind)
        .select_related("club", "player", "user")
        .first()
    )
    if inv is None:
        raise NotFound("no such link", "no_such_link")
    state = inv.state
    if state != Invitation.State.OPEN:
        raise Conflict(*CLOSED[state])
    return inv


def _mark_used(inv: Invitation, user) -> None:
    inv.used_at = timezone.now()
    inv.used_by = user
    inv.save(update_fields=["used_at", "used_by"])


@transaction.atomic
def invitation_accept(*, token: str, user) -> Membership:
    """Accept a join invitation with the login ``user``: he becomes the invited player (or keeps
    his own, or gets a new one named after him) and holds at least the invited role."""
    inv = _lock_open(token, Invitation.Kind.JOIN)
    invited = inv.player
    own = Player.objects.select_for_update().filter(user=user).first()
    if invited is not None:
        invited = Player.objects.select_for_update().get(pk=invited.pk)
        if own is not None and own.pk != invited.pk:
            raise Conflict(
                "login_has_player",
                f"your login already belongs to the player {own.name}; this link is for "
                f"{invited.name}: use it with a new login",
            )
        if invited.user_id is not None and invited.user_id != user.pk:
            raise Conflict("player_has_login", "this player already has a login")
        if invited.user_id is None:
            invited.user = user
            invited.save(update_fields=["user"])
        player = invited
    else:
        player = own or player_for_user(user)
    membership = Membership.objects.filter(club=inv.club, player=player).first()
    if membership is None:
        membership = Membership.objects.create(club=inv.club, player=player, role=inv.role)
    elif ROLE_RANK[inv.role] > ROLE_RANK[membership.role]:
        membership.role = inv.role
        membership.save(update_fields=["role"])
    _mark_used(inv, user)
    if hasattr(user, "_memberships"):
        del user._memberships  # the cache of ``clubs.selectors.membership_of``
    return membership


@transaction.atomic
def invitation_accept_new_login(*, token: str, username: str, password: str) -> Membership:
    """Create the login ``username`` and accept the invitation with it, in one transaction (a
    link that is no longer open creates no login)."""
    _lock_open(token, Invitation.Kind.JOIN)
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username=username, password=password)
    except IntegrityError as e:
        raise Conflict("username_taken", "this username is taken", "username") from e
    return invitation_accept(token=token, user=user)


def reset_still_allowed(inv: Invitation) -> bool:
    """Whether the reset link's creator may still reset its login, judged now: the rule of
    :func:`may_reset` held when the link was made, but the member may since own or organise a
    club of his own, or the creator may have lost his role."""
    membership = (
        Membership.objects.filter(club=inv.club_id, player__user=inv.user_id)
        .select_related("player__user")
        .first()
    )
    return membership is not None and may_reset(inv.created_by, membership)


@transaction.atomic
def password_reset(*, token: str, password: str):
    """Set the password of the reset link's login; the link is used up, and the login's API
    tokens and its sessions elsewhere end with the old password. Answers the login."""
    inv = _lock_open(token, Invitation.Kind.RESET)
    if not reset_still_allowed(inv):
        raise Conflict(*NO_LONGER_ALLOWED)
    user = inv.user
    user.set_password(password)
    user.save(update_fields=["password"])
    # its sessions end by themselves: each holds a hash of the old password (Django checks it
    # on every request); tokens hold nothing of it
    api_tokens_revoke(user)
    _mark_used(inv, user)
    return user
