"""A tournament's standings that stayed behind its tables are recomputed by the periodic check
(``tournaments.reconcile_standings``), with no manual step.

A snapshot records the sum of its tables' data versions it was computed from. Here a table's
result is entered and every follow-up it asked for is lost (its outbox messages deleted
before they ran); once the tables have been quiet for ``RECONCILE_AFTER_SECONDS`` the check
asks for a recompute, and the new snapshot is what a computation from scratch gives.
"""

from __future__ import annotations

import pytest

from core.models import OutboxMessage
from tests.recompute import snapshot_standings, standings_from_scratch
from tournaments import selectors, services
from tournaments.tasks import reconcile_standings

pytestmark = pytest.mark.django_db


def newest(tournament):
    return tournament.standings_snapshots.order_by("-version").first()


def test_standings_whose_recompute_was_lost_are_recomputed_by_the_periodic_check(
    make_tournament, seat, enter, director, settings, django_capture_on_commit_callbacks
):
    t = make_tournament(players=8, rounds=2)
    first, second = seat(t).tables.order_by("number")
    enter(first, [20, 10, -10, -20])  # followed up: the snapshot counts it
    counted = newest(t)
    assert counted.sessions_version == selectors.tables_data_version(t.pk) > 0

    seats = list(second.session.seats.order_by("number"))
    totals = [-5, 15, -5, -5]
    scores = [{"player": s.player_id, "score": v} for s, v in zip(seats, totals, strict=True)]
    with django_capture_on_commit_callbacks(execute=False):
        services.table_result_enter(table=second, scores=scores, user=director)
    OutboxMessage.objects.all().delete()  # its follow-ups lost
    assert newest(t) == counted
    assert selectors.tables_data_version(t.pk) > counted.sessions_version

    settings.RECONCILE_AFTER_SECONDS = 600  # changed just now: left to its follow-up
    assert reconcile_standings() == {"tournaments": []}

    settings.RECONCILE_AFTER_SECONDS = 0
    with django_capture_on_commit_callbacks(execute=True):
        assert reconcile_standings() == {"tournaments": [t.pk]}
    snapshot = newest(t)
    assert snapshot.version == counted.version + 1
    assert snapshot.sessions_version == selectors.tables_data_version(t.pk)
    assert snapshot.tables_counted == 2
    assert snapshot_standings(snapshot) == standings_from_scratch(t)
    assert services.standings_reconcile() == []  # nothing behind any more
