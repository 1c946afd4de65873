"""The report's player-round line is declared once (``tournaments.serializers.REPORT``): a
column declared here, in the test's own module, is in the report's CSV (heading and cells, a
formula written as text) and, with a heading, in the report page's round tables. No database:
lines built here."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest
from django.utils import translation

from core.columns import Column
from pages.tournaments.views import _report_csv
from pages.tournaments.widgets import report_head, report_rows
from tournaments.models import Tournament
from tournaments.readmodels import ReportLine, RoundCell
from tournaments.serializers import REPORT, FractionField, fraction_text

#: the one declaration: the place at the table (shared places averaged), as the page writes points
PLACE = Column(
    "place", "Place", value="cell.place", kind=FractionField, null=True, json=fraction_text,
    format="points", help="the place at the table: 3/2 sharing 1st and 2nd",
)  # fmt: skip
#: a note a column writes as text, beginning like a formula
NOTE = Column("note", value=lambda line: f"={line.name}", kind="str")

ANN = ReportLine(
    round=1, table=3, session=9, seat=0, player=7, name="Ann", substitute_for="",
    cell=RoundCell(1, 3, 40, Fraction(3), Fraction(3, 2), False),
)  # fmt: skip
BOB = ReportLine(
    round=1, table=3, session=9, seat=1, player=8, name="Bob", substitute_for="", cell=None
)
CAT = ReportLine(
    round=1, table=None, session=None, seat=None, player=6, name="Cat", substitute_for="",
    cell=RoundCell(1, None, 0, Fraction(7, 4), None, True),
)  # fmt: skip


@pytest.fixture(autouse=True)
def place(monkeypatch):
    monkeypatch.setattr(REPORT, "columns", (*REPORT.columns, PLACE, NOTE))


def test_a_column_declared_once_is_in_the_csv():
    answer = _report_csv(Tournament(slug="cup"), [(ANN, BOB, CAT)])
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0][-3:] == ["substitute_for", "place", "note"]
    assert [r[-2:] for r in rows[1:]] == [["1.5", "'=Ann"], ["", "'=Bob"], ["", "'=Cat"]]


def test_a_column_with_a_heading_is_on_the_page():
    with translation.override("en"):
        head = report_head()
        rows = report_rows([((ANN, BOB), "")], "entered by %(who)s")
    assert head.endswith('<th class="num">Placement points</th><th class="num">Place</th></tr>')
    assert rows == (
        '<tr class="table-start"><th rowspan="2" scope="rowgroup">3</th><td>东 (East)</td>'
        '<td>Ann</td><td class="num">40</td><td class="num">3</td><td class="num">1.5</td></tr>'
        '<tr><td>南 (South)</td><td>Bob</td><td class="num">—</td><td class="num">—</td>'
        '<td class="num">—</td></tr>'
    )
