"""Clubs, their players and members. One transaction each."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from clubs.models import Club, ConfirmationRule, Membership, Payment, Player, Role
from clubs.services.confirmations import club_rule_followers, sessions_recount
from clubs.signals import club_changed
from core.errors import Conflict, Invalid
from core.text import clean_line
from scoring.services import ruleset_snapshot_get_or_create


def player_for_user(user) -> Player:
    """The player of a login, created on first need (one person, one player)."""
    player = getattr(user, "player", None)
    if player is None:
        player = Player.objects.create(name=user.get_full_name() or user.username, user=user)
    return player


@transaction.atomic
def club_create(
    *,
    name: str,
    slug: str,
    user,
    visibility: str = Club.Visibility.PUBLIC,
    ruleset: Any = None,
    base: int = 1,
    time_zone: str = "Asia/Shanghai",
    unit_label: str = "分",
    confirmation_rule: str = ConfirmationRule.SHOWN,
) -> Club:
    """A new club, owned by the user who creates it."""
    clean_line(name, "name")
    if confirmation_rule not in ConfirmationRule.values:
        raise Invalid.single("confirmation_rule", "invalid_choice", "shown, three or two")
    clean_line(unit_label, "unit_label")
    snapshot = ruleset_snapshot_get_or_create(spec=ruleset)
    try:
        with transaction.atomic():
            club = Club.objects.create(
                name=name,
                slug=slug,
                visibility=visibility,
                ruleset=snapshot,
                base=base,
                time_zone=time_zone,
                unit_label=unit_label,
                confirmation_rule=confirmation_rule,
            )
    except IntegrityError as e:
        raise Conflict("slug_taken", f"the slug {slug!r} is taken") from e
    Membership.objects.create(club=club, player=player_for_user(user), role=Role.OWNER)
    return club


@transaction.atomic
def club_update(*, club: Club, **fields: Any) -> Club:
    """Change a club's settings; the apps built on clubs hear which ones changed
    (``clubs.signals.club_changed``, in this transaction: a new time zone moves the seasons of
    the awards)."""
    if "ruleset" in fields:
        fields["ruleset"] = ruleset_snapshot_get_or_create(spec=fields.pop("ruleset"))
    changed = frozenset(key for key, value in fields.items() if getattr(club, key) != value)
    if "confirmation_rule" in fields and fields["confirmation_rule"] not in ConfirmationRule.values:
        raise Invalid.single("confirmation_rule", "invalid_choice", "shown, three or two")
    for key, value in fields.items():
        setattr(club, key, value)
    club.save()
    if "confirmation_rule" in changed:
        # the club's open tables count their hands again under the new rule (closed ones keep
        # what they counted); tournament tables with a rule of their own are the tournament's
        sessions_recount(club_rule_followers(club.pk))
    if changed:
        club_changed.send(sender=Club, club_id=club.pk, fields=changed)
    return club


@transaction.atomic
def club_delete(*, club: Club) -> None:
    """Delete a club and all of its data (members, sessions, hands); its players remain.

    Payments go first: they protect the 叫马 bettors they name, who go with their sessions.
    """
    Payment.objects.filter(hand__session__club=club).delete()
    try:
        with transaction.atomic():
            club.delete()
    except ProtectedError as e:  # what an app above keeps of it: a tournament it hosts
        kinds = sorted({str(type(obj)._meta.verbose_name_plural) for obj in e.protected_objects})
        message = f"this club still has {', '.join(kinds)}: delete them first"
        raise Conflict("club_in_use", message) from e


@transaction.atomic
def player_create(*, club: Club, name: str, display_name: str = "", user=None) -> Membership:
    """A new player, who joins the club as a member."""
    clean_line(name, "name")
    clean_line(display_name, "display_name")
    player = Player.objects.create(name=name, user=user)
    return Membership.objects.create(club=club, player=player, display_name=display_name)


@transaction.atomic
def membership_create(
    *, club: Club, player: Player, role: str = Role.MEMBER, display_name: str = ""
) -> Membership:
    try:
        with transaction.atomic():
            return Membership.objects.create(
                club=club, player=player, role=role, display_name=display_name
            )
    except IntegrityError as e:
        raise Conflict("already_member", "this player is already a member of the club") from e


@transaction.atomic
def membership_update(*, membership: Membership, **fields: Any) -> Membership:
    if membership.role == Role.OWNER and fields.get("role", Role.OWNER) != Role.OWNER:
        owners = membership.club.memberships.filter(role=Role.OWNER).count()
        if owners == 1:
            raise Conflict("last_owner", "a club keeps at least one owner")
    for key, value in fields.items():
        setattr(membership, key, value)
    membership.save()
    return membership


@transaction.atomic
def membership_delete(*, membership: Membership) -> None:
    if (
        membership.role == Role.OWNER
        and membership.club.memberships.filter(role=Role.OWNER).count() == 1
    ):
        raise Conflict("last_owner", "a club keeps at least one owner")
    membership.delete()
