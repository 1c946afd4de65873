"""Penalties (罚分): given and revoked, with their reasons."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, Invalid, problem
from core.text import clean_text
from tournaments.models import (
    Penalty,
    Tournament,
)

from .registrations import _next_round_number
from .standings import standings_request

# --- penalties (罚分) ---------------------------------------------------------------------------

#: the most placement points one penalty takes off
PENALTY_MAX = 1000


@transaction.atomic
def penalty_give(
    *,
    tournament: Tournament,
    player_id: int,
    points: int,
    reason: str,
    user,
    words: str = "",
    round_number: int | None = None,
) -> Penalty:
    """A referee takes ``points`` placement points off an entered player (for a round, or
    for the tournament); the standings follow."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "the tournament is finished")
    problems = []
    if not tournament.registrations.filter(player_id=player_id).exists():
        problems.append(problem("player", "not_registered", "this player is not entered"))
    if type(points) is not int or not 1 <= points <= PENALTY_MAX:
        message = f"a whole number of placement points from 1 to {PENALTY_MAX}"
        problems.append(problem("points", "invalid_penalty", message))
    if reason not in Penalty.Reason.values:
        known = ", ".join(Penalty.Reason.values)
        problems.append(problem("reason", "invalid_choice", f"one of {known}"))
    seated = _next_round_number(tournament) - 1
    if round_number is not None and not 1 <= round_number <= seated:
        message = f"a round seated so far (1 to {seated})" if seated else "no round is seated"
        problems.append(problem("round", "no_such_round", message))
    if problems:
        raise Invalid(problems)
    penalty = Penalty.objects.create(
        tournament=tournament, player_id=player_id, points=points, reason=reason,
        words=clean_text(words.strip(), "words"), round=round_number, given_by=user,
    )  # fmt: skip
    standings_request(tournament_id=tournament.pk, force=True)
    return penalty


@transaction.atomic
def penalty_revoke(*, penalty: Penalty, reason: str, user) -> Penalty:
    """Revoke a penalty, saying why: it stays in the record, struck through, and no longer
    counts; the standings follow."""
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid.single("reason", "reason_required", "say why the penalty is revoked")
    tournament = Tournament.objects.select_for_update().get(pk=penalty.tournament_id)
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict("tournament_finished", "the tournament is finished")
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if penalty.revoked_at is not None:
        raise Conflict("penalty_revoked", "this penalty is already revoked")
    penalty.revoked_at = timezone.now()
    penalty.revoked_by = user
    penalty.revoke_reason = clean_text(reason.strip(), "reason")
    penalty.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
    standings_request(tournament_id=tournament.pk, force=True)
    return penalty
