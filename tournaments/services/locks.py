"""Rounds locked and unlocked: a round's tables refuse writes once it is locked, and every table
once the tournament is finished."""

from __future__ import annotations

from django.db import transaction

from clubs.models import TableSession
from core import live
from core.errors import Conflict, Invalid
from tournaments.models import (
    Round,
    RoundUnlock,
    Table,
    Tournament,
)

# --- rounds locked and unlocked ---------------------------------------------------------------


#: the lock a round's tables get when the next round is seated, and every table when the
#: tournament is finished (``TableSession.lock_code``); an organiser lifts it with a reason
ROUND_LOCKED = "round_locked"
TOURNAMENT_FINISHED = "tournament_finished"
_LOCK_MESSAGES = {
    ROUND_LOCKED: "this table's round is over ({why}); an organiser may unlock the round, "
    "with a reason, to correct it",
    TOURNAMENT_FINISHED: "the tournament is finished; an organiser may unlock a round, with a "
    "reason, to correct it",
}


def _tell_tables(session_ids) -> None:
    """The tables' own pages show what changed (the round's clock, a lock): told after the
    commit (an update saves no row a receiver would see)."""
    for session_id in session_ids:
        live.announce(live.table_channel(session_id), kind="round", table=session_id)


def _lock(sessions, code: str, why: str = "") -> None:
    """Lock these table sessions; their table cards' links stop working for good."""
    ids = list(sessions.values_list("pk", flat=True))  # (before: the filter may be on the lock)
    TableSession.objects.filter(pk__in=ids).update(
        lock_code=code, lock_message=_LOCK_MESSAGES[code].format(why=why)
    )
    Table.objects.filter(session_id__in=ids).exclude(scorer_key=None).update(scorer_key=None)
    _tell_tables(ids)


def _freeze(tournament: Tournament) -> None:
    """A finished tournament: every table locked."""
    _lock(
        TableSession.objects.filter(tournament_table__round__tournament=tournament),
        TOURNAMENT_FINISHED,
    )


@transaction.atomic
def round_unlock(*, round_: Round, reason: str, user) -> RoundUnlock:
    """Unlock a round's tables so an organiser can correct them; the reason is kept. The
    standings follow any correction as usual; :func:`round_lock` locks the round again."""
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid.single("reason", "reason_required", "say why the round is unlocked")
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    TableSession.objects.filter(tournament_table__round=round_).update(
        lock_code="", lock_message=""
    )
    _tell_tables(round_.tables.values_list("session_id", flat=True))
    return RoundUnlock.objects.create(round=round_, reason=reason.strip(), unlocked_by=user)


@transaction.atomic
def round_lock(*, round_: Round) -> Round:
    """Lock a round's tables again after a correction (a finished tournament's as finished,
    an earlier round's as over); the latest round of a running tournament stays open."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    tournament = round_.tournament
    sessions = TableSession.objects.filter(tournament_table__round=round_)
    if tournament.status == Tournament.Status.FINISHED:
        _lock(sessions, TOURNAMENT_FINISHED)
    elif tournament.round_set.filter(number__gt=round_.number).exists():
        _lock(sessions, ROUND_LOCKED, f"round {round_.number + 1} is seated")
    else:
        message = "the latest round of a running tournament is being played: it stays open"
        raise Conflict("round_in_play", message)
    return round_
