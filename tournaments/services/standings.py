"""The standings: asked for (coalesced, a lost request asked again), revealed, reconciled, and
computed into a snapshot."""

from __future__ import annotations

import json
import logging
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max, Q
from django.db.models.signals import post_save
from django.utils import timezone

from core.collector import collector_paused
from core.db import prepared_row
from core.jobs import job_create, job_queue
from core.models import TaskRecord
from tournaments import selectors
from tournaments.models import (
    StandingsSnapshot,
    Tournament,
)
from tournaments.readmodels import standings_json

from .locks import _freeze

logger = logging.getLogger(__name__)


# --- standings asked for ----------------------------------------------------------------------


#: a recompute waits this long after the first result of a burst, so the burst lands in one
COALESCE_SECONDS = 1.0
#: a queued recompute that has not started after this long was lost (a broker restart): the
#: next result queues another
STANDINGS_REQUEST_TTL = timedelta(minutes=2)
#: the Celery tasks of the standings (``tournaments.tasks``), queued by name
STANDINGS_TASK = "tournaments.compute_standings"
RECONCILE_TASK = "tournaments.reconcile_standings"
#: how many lagging tournaments one periodic check recomputes at most
RECONCILE_BATCH = 50


def standings_request(*, tournament_id: int, force: bool = False) -> TaskRecord | None:
    """Queue a standings recompute on commit, unless one is already queued: a burst of
    results (ten tables reporting at once) becomes one recompute, at most two. ``force`` (an
    organiser asking) always queues one: the one waiting may have been lost."""
    with transaction.atomic():
        now = timezone.now()
        waiting = Q(standings_requested_at__gt=now - STANDINGS_REQUEST_TTL)
        tournaments = Tournament.objects.filter(pk=tournament_id)
        queued = (tournaments if force else tournaments.exclude(waiting)).update(
            standings_requested_at=now
        )
        if not queued:
            return None
        record = job_create(STANDINGS_TASK, Tournament(pk=tournament_id))
        job_queue(record, tournament_id, countdown=COALESCE_SECONDS)
        return record


# --- standings revealed, reconciled and computed ----------------------------------------------


@transaction.atomic
def standings_reveal(*, tournament: Tournament) -> TaskRecord | None:
    """The scorekeeper reveals the standings of the hidden last rounds (at the prize-giving):
    from the next snapshot, asked for now (its job is returned), everyone sees them whole."""
    Tournament.objects.filter(pk=tournament.pk).update(standings_revealed=True)
    tournament.standings_revealed = True
    return standings_request(tournament_id=tournament.pk, force=True)


def standings_reconcile(*, limit: int = RECONCILE_BATCH) -> list[int]:
    """The body of ``tournaments.reconcile_standings`` (Celery beat, every
    ``RECONCILE_SECONDS``): a running tournament whose newest snapshot was computed from
    older table data than there is, and whose tables have not changed for
    ``RECONCILE_AFTER_SECONDS``, is recomputed (its recompute was lost or keeps failing)."""
    tournaments = selectors.standings_behind(
        older_than=timedelta(seconds=settings.RECONCILE_AFTER_SECONDS), limit=limit
    )
    if tournaments:
        logger.warning("standings behind for %d tournaments, recomputed", len(tournaments))
    for tournament_id in tournaments:
        standings_request(tournament_id=tournament_id, force=True)
    return tournaments


#: A snapshot's row, numbered the tournament's next version, in one prepared statement: its
#: rows (megabytes of JSON at 10,000 players) sent as a parameter of their own, compact, not
#: escaped into the statement's text, and kept as that text (``json``: never parsed into
#: ``jsonb``, issue 25)
#: (its text starts with INSERT, as the ORM's did: what the database's own view of its sessions
#: shows, and a fault test looks for)
_SNAPSHOT_INSERT = """INSERT INTO {table} (tournament_id, version, computed_at, rounds_complete,
                     tables_counted, rows, points_scale, tiebreaks, seconds, visible,
                     sessions_version)
SELECT %(tournament)s, COALESCE(MAX(version), 0) + 1, %(computed_at)s, %(rounds_complete)s,
       %(tables_counted)s, %(rows)s::json, %(points_scale)s, %(tiebreaks)s::jsonb,
       %(seconds)s, %(visible)s::json, %(sessions_version)s
FROM {table} WHERE tournament_id = %(tournament)s
RETURNING id, version
"""


def _compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _snapshot_store(snapshot: StandingsSnapshot) -> StandingsSnapshot:
    """Store a new snapshot as its tournament's next version (the tournament's row locked by
    the caller) and tell what follows a saved snapshot (``post_save``: its live pages)."""
    if connection.vendor != "postgresql":
        last = snapshot.tournament.standings_snapshots.aggregate(v=Max("version"))["v"] or 0
        snapshot.version = last + 1
        snapshot.save(force_insert=True)
        return snapshot
    snapshot.computed_at = timezone.now()
    sql = _SNAPSHOT_INSERT.format(table=connection.ops.quote_name(StandingsSnapshot._meta.db_table))
    visible = snapshot.visible
    snapshot.pk, snapshot.version = prepared_row(
        sql,
        {
            "tournament": snapshot.tournament_id, "computed_at": snapshot.computed_at,
            "rounds_complete": snapshot.rounds_complete, "tables_counted": snapshot.tables_counted,
            "rows": _compact_json(snapshot.rows), "points_scale": snapshot.points_scale,
            "tiebreaks": _compact_json(snapshot.tiebreaks), "seconds": snapshot.seconds,
            "visible": None if visible is None else _compact_json(visible),
            "sessions_version": snapshot.sessions_version,
        },
    )  # fmt: skip
    snapshot._state.adding, snapshot._state.db = False, connection.alias
    post_save.send(
        StandingsSnapshot, instance=snapshot, created=True, update_fields=None, raw=False,
        using=connection.alias,
    )  # fmt: skip
    return snapshot


def standings_compute(*, tournament_id: int) -> dict[str, Any]:
    """The body of ``tournaments.compute_standings``: a new snapshot, written in one row. The
    cycle collector is held off while it runs (``core.collector``: its rows and results are
    tuples, and the collector's passes over them were a quarter of its time)."""
    with collector_paused():
        return _standings_compute(tournament_id)


def _standings_compute(tournament_id: int) -> dict[str, Any]:
    # cleared first: a result committed while this runs queues the next recompute
    Tournament.objects.filter(pk=tournament_id).update(standings_requested_at=None)
    tournament = Tournament.objects.get(pk=tournament_id)
    started = time.perf_counter()
    tables = selectors.tournament_tables(tournament)  # read once for all that follows
    # their data version, read with them: the results are read after, as new or newer
    version = tables.data_version
    standings, complete, counted = selectors.standings_now(tournament, tables=tables)
    names = selectors.entry_names(tournament, [s.player for s in standings])
    scale, rows = standings_json(standings, names)
    visible = None
    if (through := selectors.hidden_after(tournament)) is not None:
        # what the players see meanwhile: the standings through the last round shown
        shown, shown_complete, shown_counted = selectors.standings_now(
            tournament, before_round=through + 1, tables=tables
        )
        shown_scale, shown_rows = standings_json(shown, names)
        visible = {
            "through": through, "rounds_complete": shown_complete,
            "tables_counted": shown_counted, "points_scale": shown_scale, "rows": shown_rows,
        }  # fmt: skip
    seconds = time.perf_counter() - started
    with transaction.atomic():
        # one computation at a time numbers the tournament's next snapshot
        Tournament.objects.select_for_update().filter(pk=tournament_id).values_list("pk").get()
        snapshot = _snapshot_store(
            StandingsSnapshot(
                tournament=tournament, rounds_complete=complete, tables_counted=counted,
                rows=rows, points_scale=scale,
                tiebreaks=list(selectors.rules_of(tournament).tiebreaks), seconds=seconds,
                sessions_version=version, visible=visible,
            )
        )  # fmt: skip
        if complete >= tournament.rounds and tournament.status == Tournament.Status.RUNNING:
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
            _freeze(tournament)
    return {"version": snapshot.version, "players": len(rows), "seconds": round(seconds, 4)}
