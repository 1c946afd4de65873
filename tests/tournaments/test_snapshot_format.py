"""A standings snapshot stores its rows as arrays (issue 25: a quarter to a fifth of the JSON to
write and parse), and every reader gives the same standings from them as from the computation;
a snapshot written before, an object a row, reads as it did."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.db import connection

from core import live
from tournaments import selectors, services
from tournaments.models import StandingsSnapshot
from tournaments.readmodels import (
    CELL_FIELDS,
    ROW_FIELDS,
    RoundCell,
    StandingRow,
    snapshot_rows,
    standings_json,
)

pytestmark = pytest.mark.django_db


def played(make_tournament, seat, enter, rounds: int = 3, **fields):
    """Two rounds of 18 players (two byes a round), shared places at every table."""
    t = make_tournament(players=18, rounds=rounds, **fields)
    for totals in ([5, 5, -5, -5], [3, 0, 0, -3]):
        round_ = seat(t)
        for table in round_.tables.order_by("number"):
            enter(table, totals)
    return t


def computed_rows(t, **kwargs) -> tuple[StandingRow, ...]:
    """What the computation gives now, as rows, without a snapshot in between."""
    standings, _, _ = selectors.standings_now(t, **kwargs)
    names = selectors.entry_names(t, [s.player for s in standings])
    return tuple(
        StandingRow(
            s.rank,
            s.shared,
            s.player,
            names[s.player],
            s.placement_points,
            s.table_score,
            s.first_places,
            s.best_table_score,
            s.head_to_head,
            s.rounds_played,
            s.byes,
            s.withdrawn,
            tuple(
                RoundCell(e.round, e.table, e.table_score, e.placement_points, e.place, e.bye)
                for e in s.rounds
            ),
            s.penalty,
            s.final_points,
        )  # fmt: skip
        for s in standings
    )


def old_layout(rows: tuple[StandingRow, ...], scale: int) -> list[dict]:
    """Rows as snapshots stored them before arrays: an object a row, a list of cell objects."""

    def scaled(value: Fraction | None) -> int | None:
        return None if value is None else int(value * scale)

    return [
        {
            "rank": r.rank, "shared": r.shared, "player": r.player, "name": r.name,
            "placement_points": scaled(r.placement_points), "table_score": r.table_score,
            "first_places": r.first_places, "best_table_score": r.best_table_score,
            "head_to_head": r.head_to_head, "rounds_played": r.rounds_played, "byes": r.byes,
            "withdrawn": r.withdrawn, "penalty": r.penalty,
            "final_points": scaled(r.final_points),
            "rounds": [
                {"round": c.round, "table": c.table, "table_score": c.table_score,
                 "placement_points": scaled(c.placement_points), "place": scaled(c.place),
                 "bye": c.bye}
                for c in r.rounds
            ],
        }
        for r in rows
    ]  # fmt: skip


def test_rows_are_stored_as_arrays_and_read_back_as_computed(make_tournament, seat, enter):
    t = played(make_tournament, seat, enter)
    snapshot = t.standings_snapshots.order_by("-version").first()
    assert snapshot.points_scale == 4  # shared places: quarters
    assert all(
        len(row) == len(ROW_FIELDS) and len(row[-1]) == 2 * len(CELL_FIELDS)
        for row in snapshot.rows
    )
    bye = next(row for row in snapshot.rows if row[ROW_FIELDS.index("byes")])
    size = len(CELL_FIELDS)
    cells = [dict(zip(CELL_FIELDS, bye[-1][i : i + size], strict=True)) for i in (0, size)]
    assert [(c["round"], c["table"], c["bye"]) for c in cells if c["bye"]] in (
        [(1, None, True)], [(2, None, True)],
    )  # fmt: skip
    # every value, fractions included, as the computation gives it
    assert selectors.latest_standings(t).rows == computed_rows(t)
    assert snapshot_rows(snapshot.rows, snapshot.points_scale) == computed_rows(t)


def test_the_encoding_round_trips_every_value(make_tournament, seat, enter):
    t = played(make_tournament, seat, enter)
    standings, _, _ = selectors.standings_now(t)
    scale, rows = standings_json(standings, {})
    shared = [r for r in snapshot_rows(rows, scale) if any(c.place is not None for c in r.rounds)]
    places = {c.place for r in shared for c in r.rounds if c.place is not None}
    assert Fraction(3, 2) in places  # a shared place survives as the exact fraction
    assert [(r.player, r.placement_points) for r in snapshot_rows(rows, scale)] == [
        (s.player, s.placement_points) for s in standings
    ]


def test_a_snapshot_written_before_arrays_reads_as_it_did(make_tournament, seat, enter):
    t = played(make_tournament, seat, enter, rounds=2, hide_last_rounds=1)
    latest = t.standings_snapshots.order_by("-version").first()
    full, shown = selectors.latest_standings(t, full=True), selectors.latest_standings(t)
    assert shown.hidden_after == 1 and latest.visible is not None
    visible = {
        **latest.visible,
        "rows": old_layout(shown.rows, latest.visible["points_scale"]),
    }
    StandingsSnapshot.objects.create(
        tournament=t, version=latest.version + 1, rounds_complete=latest.rounds_complete,
        tables_counted=latest.tables_counted, rows=old_layout(full.rows, latest.points_scale),
        points_scale=latest.points_scale, tiebreaks=latest.tiebreaks,
        sessions_version=latest.sessions_version, visible=visible,
    )  # fmt: skip
    assert isinstance(t.standings_snapshots.order_by("-version").first().rows[0], dict)
    assert selectors.latest_standings(t, full=True).rows == full.rows == computed_rows(t)
    assert selectors.latest_standings(t).rows == shown.rows == computed_rows(t, before_round=2)
    assert selectors.latest_standings(t).hidden_after == 1


def test_a_new_snapshot_is_numbered_next_and_told_to_the_live_pages(
    make_tournament, seat, enter, monkeypatch
):
    t = played(make_tournament, seat, enter)
    before = list(t.standings_snapshots.order_by("version").values_list("version", flat=True))
    told = []
    monkeypatch.setattr(live, "announce", lambda channel, **kw: told.append((channel, kw)))
    done = services.standings_compute(tournament_id=t.pk)
    assert done["version"] == before[-1] + 1 and done["players"] == 18
    stored = t.standings_snapshots.order_by("-version").first()
    assert (stored.version, stored.rounds_complete, stored.tables_counted) == (
        before[-1] + 1, 2, 8,
    )  # fmt: skip
    assert stored.sessions_version == selectors.tables_data_version(t.pk)
    assert stored.tiebreaks == list(selectors.rules_of(t).tiebreaks)
    assert (live.tournament_channel(t.pk), {"kind": "tournament", "tournament": t.pk}) in told


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's column compression")
def test_snapshot_rows_are_compressed_with_lz4():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attname, attcompression FROM pg_attribute WHERE attrelid = %s::regclass"
            " AND attname IN ('rows', 'visible') ORDER BY attname",
            [StandingsSnapshot._meta.db_table],
        )
        assert cursor.fetchall() == [("rows", "l"), ("visible", "l")]
