"""Registrations: players entered, changed and withdrawn (a new player made for a name)."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max

from clubs.models import Player
from core.errors import Conflict, Invalid
from core.text import clean_line
from tournaments import selectors
from tournaments.models import (
    Registration,
    Tournament,
)

from .standings import standings_request

# --- registrations ----------------------------------------------------------------------------


def _next_round_number(tournament: Tournament) -> int:
    return (tournament.round_set.aggregate(n=Max("number"))["n"] or 0) + 1


@transaction.atomic
def registration_create(
    *,
    tournament: Tournament,
    player: Player | None = None,
    name: str = "",
    seed_rating: int | None = None,
    pinned_table: int | None = None,
    new_player: bool = False,
    club_name: str = "",
) -> Registration:
    """Enter a player (an existing one, or a new one by name). After the start this is a
    late entry: he is seated from the next round on.

    A name that is already a player of the host club (or of the tournament) is not taken for
    a new person unless ``new_player`` says so: the answer lists who it may be."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "the tournament is finished")
    if player is None:
        player = _new_player(tournament, name, new_player=new_player)
    try:
        with transaction.atomic():
            registration = Registration.objects.create(
                tournament=tournament,
                player=player,
                seed_rating=seed_rating,
                pinned_table=pinned_table,
                club_name=club_name,
                first_round=_next_round_number(tournament),
            )
    except IntegrityError as e:
        raise Conflict("already_registered", "this player is already registered") from e
    _plan_changed(tournament)
    return registration


@transaction.atomic
def registration_update(*, registration: Registration, **fields: Any) -> Registration:
    """Withdraw (drop-out), return, re-rate or pin a registered player, or say from which round
    a late entry plays (a round not seated yet). Rounds already seated keep him; the rounds to
    come are seated without him (or with him again)."""
    tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    if "first_round" in fields:
        first, next_round = fields["first_round"], _next_round_number(tournament)
        if type(first) is not int or not next_round <= first <= tournament.rounds:
            message = f"a round not seated yet: {next_round} to {tournament.rounds}"
            if next_round > tournament.rounds:
                message = "every round is seated"
            raise Invalid.single("first_round", "invalid_first_round", message)
    status = fields.get("status")
    if status is not None and status != registration.status:
        seated = _next_round_number(tournament) - 1
        if status == Registration.Status.WITHDRAWN:
            registration.withdrawn_after = seated
        else:
            registration.withdrawn_after = None
            registration.first_round = max(registration.first_round, seated + 1)
    for key, value in fields.items():
        setattr(registration, key, value)
    registration.save()
    if {"status", "pinned_table", "checked_in", "first_round"} & set(fields):
        _plan_changed(tournament)
    if "status" in fields:
        standings_request(tournament_id=tournament.pk)
    return registration


@transaction.atomic
def registration_delete(*, registration: Registration) -> None:
    """Remove an entry made by mistake, as long as he was never seated or given a bye."""
    tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    if selectors.has_played(tournament, registration.player_id):
        message = "this player has played (or sat out) a round: withdraw him instead"
        raise Conflict("registration_has_played", message)
    registration.delete()
    _plan_changed(tournament)
    standings_request(tournament_id=tournament.pk)


def _new_player(tournament: Tournament, name: str, *, new_player: bool) -> Player:
    """A new player by name; a name that is already a player of the host club (or of the
    tournament) is not taken for a new person unless ``new_player`` says so: the answer
    lists who it may be."""
    name = clean_line(name.strip(), "name") if isinstance(name, str) else ""
    if not name:
        raise Invalid.single("name", "required", "an existing player or a new player's name")
    candidates = selectors.players_named(tournament, name)
    if candidates and not new_player:
        who = ", ".join(f"{p.name} (player {p.pk})" for p in candidates)
        message = (
            f"{name!r} may be {who}: name the player by id, or send new_player: true "
            "for someone else of that name"
        )
        raise Conflict("name_matches_player", message, path="name")
    return Player.objects.create(name=name)


def _plan_changed(tournament: Tournament) -> None:
    """Players or pins changed: the rounds still to come are planned again when seated."""
    if tournament.seating_plan:
        Tournament.objects.filter(pk=tournament.pk).update(seating_plan=[])
