"""Substitutes (替补): a player seated in another's place, and undone."""

from __future__ import annotations

from django.db import transaction

from clubs.models import Player, Seat
from clubs.services.sessions import seat_player_replace
from core.errors import Conflict, Invalid
from core.text import clean_text
from tournaments.models import (
    Substitution,
    Table,
    Tournament,
)

from .registrations import _new_player
from .standings import standings_request

# --- substitutes (替补) -----------------------------------------------------------------------


@transaction.atomic
def substitute_seat(
    *,
    table: Table,
    absent_id: int,
    user,
    substitute: Player | None = None,
    name: str = "",
    new_player: bool = False,
    reason: str = "",
) -> Substitution:
    """A reserve plays ``table`` for the registered player ``absent_id`` seated there: the
    seat, and whatever was already recorded for it, is the substitute's from now. Whose
    result the table is, the tournament's ``substitute_counts`` decides. A player at another
    table of the round, or on a bye, cannot substitute: he would count twice."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    round_ = table.round
    tournament = round_.tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "the tournament is finished")
    seats = Seat.objects.filter(session_id=table.session_id)
    seated = set(seats.values_list("player_id", flat=True))
    standing_in = set(table.substitutions.values_list("substitute_id", flat=True))
    if absent_id not in seated or absent_id in standing_in:
        message = f"not a registered player seated at table {table.number}"
        raise Invalid.single("absent", "not_seated_here", message)
    if substitute is None:
        substitute = _new_player(tournament, name, new_player=new_player)
    plays = Seat.objects.filter(player=substitute, session__tournament_table__round=round_).exists()
    if plays or substitute.pk in round_.byes:
        message = f"{substitute.name} plays round {round_.number} already (a table or a bye)"
        raise Conflict("substitute_plays_this_round", message, path="substitute")
    seat_player_replace(session=table.session, player_id=absent_id, by_player_id=substitute.pk)
    made = Substitution.objects.create(
        table=table, absent_id=absent_id, substitute=substitute, made_by=user,
        reason=clean_text(reason.strip(), "reason")[:200] if reason else "",
    )  # fmt: skip
    standings_request(tournament_id=tournament.pk, force=True)
    return made


@transaction.atomic
def substitute_remove(*, substitution: Substitution) -> None:
    """The registered player takes his seat back (he came after all, or the wrong one was
    replaced): what was recorded for the seat is his again."""
    substitution = Substitution.objects.select_related("table__round__tournament").get(
        pk=substitution.pk
    )
    table = substitution.table
    if table.round.tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "the tournament is finished")
    seat_player_replace(
        session=table.session, player_id=substitution.substitute_id,
        by_player_id=substitution.absent_id,
    )  # fmt: skip
    substitution.delete()
    standings_request(tournament_id=table.round.tournament_id, force=True)
