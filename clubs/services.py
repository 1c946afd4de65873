"""Writes of the clubs app: clubs, players, memberships, table sessions. One transaction each."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.models import Bettor, Club, Membership, Player, Role, Seat, TableSession
from config.errors import ApiError, Conflict, error
from scoring.models import Payment
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
) -> Club:
    """A new club, owned by the user who creates it."""
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
            )
    except IntegrityError as e:
        raise Conflict(f"the slug {slug!r} is taken", code="slug_taken") from e
    Membership.objects.create(club=club, player=player_for_user(user), role=Role.OWNER)
    return club


@transaction.atomic
def club_update(*, club: Club, **fields: Any) -> Club:
    if "ruleset" in fields:
        club.ruleset = ruleset_snapshot_get_or_create(spec=fields.pop("ruleset"))
    for key, value in fields.items():
        setattr(club, key, value)
    club.save()
    return club


@transaction.atomic
def club_delete(*, club: Club) -> None:
    """Delete a club and all of its data (members, sessions, hands); its players remain.

    Payments go first: they protect the 叫马 bettors they name, who go with their sessions.
    """
    Payment.objects.filter(hand__session__club=club).delete()
    club.delete()


@transaction.atomic
def player_create(*, club: Club, name: str, display_name: str = "", user=None) -> Membership:
    """A new player, who joins the club as a member."""
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
        raise Conflict("this player is already a member of the club", code="already_member") from e


@transaction.atomic
def membership_update(*, membership: Membership, **fields: Any) -> Membership:
    if membership.role == Role.OWNER and fields.get("role", Role.OWNER) != Role.OWNER:
        owners = membership.club.memberships.filter(role=Role.OWNER).count()
        if owners == 1:
            raise Conflict("a club keeps at least one owner", code="last_owner")
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
        raise Conflict("a club keeps at least one owner", code="last_owner")
    membership.delete()


@transaction.atomic
def session_create(
    *,
    club: Club,
    players: list[Player],
    user,
    started_at: datetime | None = None,
    bettors: list[dict[str, Any]] | None = None,
    ruleset: Any = None,
    base: int | None = None,
    mode: str = TableSession.Mode.XUEZHAN,
    notes: str = "",
) -> TableSession:
    """Seat four players of the club at a new open table (seats 0–3 in play order)."""
    members = set(club.memberships.values_list("player_id", flat=True))
    problems = []
    if len(players) != 4 or len({p.pk for p in players}) != 4:
        problems.append(error("players", "four_players", "a table seats four different players"))
    for i, p in enumerate(players):
        if p.pk not in members:
            message = f"{p.name} is not a member of {club.name}"
            problems.append(error(f"players[{i}]", "not_a_member", message))
    if problems:
        raise ApiError(problems)
    snapshot = club.ruleset if ruleset is None else ruleset_snapshot_get_or_create(spec=ruleset)
    session = TableSession.objects.create(
        club=club,
        started_at=started_at or timezone.now(),
        ruleset=snapshot,
        base=base or club.base,
        mode=mode,
        notes=notes,
        created_by=user,
    )
    Seat.objects.bulk_create(
        Seat(session=session, number=n, player=p) for n, p in enumerate(players)
    )
    names = set()
    seated = {p.pk for p in players}
    for i, b in enumerate(bettors or []):
        bettor = Bettor(session=session, player=b.get("player"), guest_name=b.get("guest_name", ""))
        if bettor.name in names or not bettor.name:
            message = "each bettor needs a distinct name"
            raise ApiError.single(f"bettors[{i}]", "duplicate_bettor", message)
        if bettor.player_id in seated:
            # 叫马 is for those beyond the four: a seated player already wins what his seat wins
            message = "a seated player cannot also bet on this table"
            raise ApiError.single(f"bettors[{i}].player", "bettor_is_seated", message)
        names.add(bettor.name)
        bettor.save()
    return session


@transaction.atomic
def session_update(*, session: TableSession, **fields: Any) -> TableSession:
    """Change a session's start time or notes (its table and rules stay as opened)."""
    if not session.is_open:
        message = "this session is closed; an organiser must reopen it before it changes"
        raise Conflict(message, code="session_closed")
    for key, value in fields.items():
        setattr(session, key, value)
    if fields:
        session.save(update_fields=list(fields))
    return session


@transaction.atomic
def session_close(*, session: TableSession) -> TableSession:
    session = TableSession.objects.select_for_update().get(pk=session.pk)
    if session.is_open:
        session.status = TableSession.Status.CLOSED
        session.closed_at = timezone.now()
        session.save(update_fields=["status", "closed_at"])
    return session


@transaction.atomic
def session_reopen(*, session: TableSession) -> TableSession:
    session = TableSession.objects.select_for_update().get(pk=session.pk)
    if not session.is_open:
        session.status = TableSession.Status.OPEN
        session.closed_at = None
        session.save(update_fields=["status", "closed_at"])
    return session
