"""The round clock: started, and extended for the round or one table."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from core import live
from core.errors import Conflict, Invalid
from tournaments.models import (
    Round,
)

from .locks import _tell_tables

# --- the round clock -----------------------------------------------------------------------------

#: the longest round and the most time one extension adds, in minutes
CLOCK_MAX_MINUTES = 600
EXTEND_MAX_MINUTES = 120


@transaction.atomic
def round_clock_start(*, round_: Round, minutes: int | None = None) -> Round:
    """Start a seated round's clock: ``minutes`` (default: the tournament's round time) from
    now. At time, the tables finish the hand in play and start no other."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status != Round.Status.SEATED:
        raise Conflict("round_not_seated", f"round {round_.number} is not seated")
    if round_.clock_started_at is not None:
        raise Conflict("clock_running", "the round's clock is running: add time instead")
    minutes = minutes or round_.tournament.round_minutes
    if type(minutes) is not int or not 1 <= minutes <= CLOCK_MAX_MINUTES:
        message = f"how long the round lasts, 1 to {CLOCK_MAX_MINUTES} minutes"
        raise Invalid.single("minutes", "invalid_minutes", message)
    round_.clock_started_at = timezone.now()
    round_.clock_minutes = minutes
    round_.save(update_fields=["clock_started_at", "clock_minutes"])
    _tell_tables(round_.tables.values_list("session_id", flat=True))
    return round_


@transaction.atomic
def round_clock_extend(*, round_: Round, minutes: int, table_number: int | None = None) -> Round:
    """Add ``minutes`` to a running clock: for every table, or for one table alone (a table
    that started late, a dispute that stopped it)."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.clock_started_at is None:
        raise Conflict("clock_not_started", "the round's clock is not running")
    if type(minutes) is not int or not 1 <= minutes <= EXTEND_MAX_MINUTES:
        message = f"1 to {EXTEND_MAX_MINUTES} minutes"
        raise Invalid.single("minutes", "invalid_minutes", message)
    if table_number is None:
        round_.clock_extra_minutes += minutes
        round_.save(update_fields=["clock_extra_minutes"])
        _tell_tables(round_.tables.values_list("session_id", flat=True))
        return round_
    extended = round_.tables.filter(number=table_number).update(
        clock_extra_minutes=F("clock_extra_minutes") + minutes
    )
    if not extended:
        raise Invalid.single("table", "no_such_table", f"round {round_.number} has no such table")
    # an update saves no row: the round's pages and the table's own are told here
    live.announce(live.tournament_channel(round_.tournament_id), kind="clock")
    for session_id in round_.tables.filter(number=table_number).values_list(
        "session_id", flat=True
    ):
        live.announce(live.table_channel(session_id), kind="clock", table=session_id)
    return round_
