"""The standings' columns are declared once (``tournaments.serializers.STANDINGS``): a column
declared here, in the test's own module, is in the API's rows, the CSV (before the rounds), the
schema and, as a column of figures, on the standings pages. No database: a table built here."""

from __future__ import annotations

from fractions import Fraction

import pytest

from core.columns import Column
from pages.tournaments.views import Column as PageColumn
from pages.tournaments.views import _heading, _writer
from tournaments.readmodels import RoundCell, StandingRow, StandingsTable
from tournaments.serializers import STANDINGS, StandingsOutSerializer, standings_csv_rows

#: the one declaration: placement points a round, as the page writes points
PER_ROUND = Column(
    "points_per_round", "Points a round",
    value=lambda r: r.placement_points / r.rounds_played if r.rounds_played else None,
    kind="float", json=float, null=True, format="points", help="placement points per round",
)  # fmt: skip

ROW = StandingRow(
    rank=1, shared=False, player=7, name="Ann", placement_points=Fraction(5, 2),
    table_score=40, first_places=1, best_table_score=40, head_to_head=0, rounds_played=2,
    byes=0, withdrawn=False, rounds=(
        RoundCell(1, 3, 40, Fraction(2), Fraction(1), False),
        RoundCell(2, 1, 0, Fraction(1, 2), Fraction(7, 2), False),
    ),
)  # fmt: skip
TABLE = StandingsTable(1, None, 2, 2, (ROW,), ("placement_points", "table_score"))


@pytest.fixture(autouse=True)
def per_round(monkeypatch):
    monkeypatch.setattr(STANDINGS, "columns", (*STANDINGS.columns, PER_ROUND))


def test_a_column_declared_once_is_in_the_api_csv_schema_and_page():
    row = StandingsOutSerializer(TABLE).data["standings"][0]
    assert list(row)[-1] == "points_per_round" and row["points_per_round"] == 1.25
    csv_row = standings_csv_rows(TABLE)[0]
    assert list(csv_row)[-3:] == ["points_per_round", "R1", "R2"]
    assert csv_row["points_per_round"] == 1.25
    field = StandingsOutSerializer().fields["standings"].child.fields["points_per_round"]
    assert field.help_text == "placement points per round" and field.allow_null
    assert _heading("points_per_round") == PageColumn("points_per_round", "Points a round")
    assert _writer("points_per_round")(ROW) == "1.25"  # as the page writes points (5/4)
