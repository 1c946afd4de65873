"""The standings' rows written in Python: a thousand players' rows through the template
language cost ten times the page's queries (``make bench``: the standings of 1,000 players).
The markup is the one the templates drew; every value is escaped or a number."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from core.columns import joined
from core.names import Name
from pages.templatetags.tournament_words import wind_name
from pages.words import name_text
from tournaments.readmodels import ReportLine
from tournaments.serializers import REPORT, fraction_text

#: a column's getter: the exact value of a line
Getter = Callable[[ReportLine], Any]


def _sign_class(amount: int) -> str:
    return "pos" if amount > 0 else "neg" if amount < 0 else ""


def _trend(line, since: int | None) -> str:
    """A rank's change since the last round: ▲2 / ▼1 / = with its words; "new" for a player
    not ranked then."""
    if line.trend:
        words = escape(line.trend_words)
        return (
            f'<span class="trend {line.trend_class}" title="{words}">'
            f'<span aria-hidden="true">{escape(line.trend)}</span>'
            f'<span class="sr-only">{words}</span></span>'
        )
    new = escape(_("new"))  # (gettext outside the f-string: xgettext does not look inside)
    return f'<span class="trend none">{new}</span>' if since else ""


def standings_rows(standings, *, tie_space: str = " ") -> SafeString:
    """The ``<tr>`` of every line: rank (tied), trend, player (withdrawn), the chain's values and,
    when the standings have them, a cell per round: table score (placement points)."""
    # (gettext outside the f-strings: xgettext does not look inside them)
    tied_word, withdrawn_word, bye_word = (
        escape(_("tied")),
        escape(_("withdrawn")),
        escape(_("bye")),
    )
    tied = f'{tie_space}<span class="tie">{tied_word}</span>'
    withdrawn = f' <span class="badge">{withdrawn_word}</span>'
    bye = f'<span class="badge">{bye_word}</span>'
    out = ' class="withdrawn"'
    parts = []
    for line in standings.lines:
        row = line.row
        cells = "".join(f'<td class="num">{escape(v)}</td>' for v in line.values)
        for c in line.cells:
            if c.cell is None:
                inner = '<span class="muted">·</span>'
            else:
                score = (
                    bye
                    if c.cell.bye
                    else (f'<span class="{_sign_class(c.sign)}">{escape(c.score)}</span>')
                )
                inner = f'{score} <small class="muted">({escape(c.points)})</small>'
            cells += f'<td class="num round-cell">{inner}</td>'
        parts.append(
            f'<tr data-player="{int(row.player)}"{out if row.withdrawn else ""}>'
            f'<td class="num rank">{int(row.rank)}{tied if row.shared else ""}</td>'
            f'<td class="trend-col">{_trend(line, standings.since)}</td>'
            f'<th scope="row" class="player">{escape(row.name)}'
            f"{withdrawn if row.withdrawn else ''}</th>{cells}</tr>"
        )
    return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped or an int


class Drawn(NamedTuple):
    """How the report draws a column of one ``format``: whether its heading is a number's
    (right-aligned), and a function of the column's getter answering a line's cell."""

    num: bool
    cell: Callable[[Getter], Callable[[ReportLine], str]]


def _report_cells() -> dict[str, Drawn]:
    """How the report draws a column of each ``format`` (``REPORT``'s columns name theirs),
    every value escaped or a number. Made per page: the winds are named in its language."""
    winds = [escape(wind_name(n)) for n in range(4)]
    return {
        "table": Drawn(False, lambda get: lambda line: str(int(get(line)))),
        "wind": Drawn(False, lambda get: lambda line: f"<td>{winds[get(line)]}</td>"),
        "text": Drawn(False, lambda get: lambda line: f"<td>{escape(get(line))}</td>"),
        "score": Drawn(
            True, lambda get: lambda line: f'<td class="num">{_or_dash(get(line), int)}</td>'
        ),
        "points": Drawn(
            True,
            lambda get: lambda line: f'<td class="num">{_or_dash(get(line), fraction_text)}</td>',
        ),
    }


def _or_dash(value: Any, text: Callable[[Any], Any]) -> str:
    """A figure of a table that counts, or — for one that does not yet."""
    return "—" if value is None else escape(text(value))


def report_head() -> SafeString:
    """The heading row of the report's round tables: the page's columns of ``REPORT``."""
    cells = _report_cells()
    parts = []
    for c in REPORT.page_columns:
        label = name_text(c.label) if isinstance(c.label, Name) else str(c.label)
        num = ' class="num"' if cells[c.format].num else ""
        parts.append(f"<th{num}>{escape(label)}</th>")
    return mark_safe("<tr>" + "".join(parts) + "</tr>")  # noqa: S308 - every label is escaped


def report_rows(tables: Iterable[tuple[Sequence[ReportLine], str]], entered_by: str) -> SafeString:
    """The ``<tr>`` of a round's tables in the report (each table's lines, in seat order, with
    who entered it: "" unless shown): a cell per page column of ``REPORT`` drawn by its format,
    the first (the table) heading the table's rows — written in Python, as the standings'
    rows are (a 256-player tournament's six rounds are 1,536 rows)."""
    drawn = _report_cells()
    group, *columns = REPORT.page_columns
    head_of = drawn[group.format].cell(group.get)
    cells = joined([drawn[c.format].cell(c.get) for c in columns], after="</tr>")
    parts = []
    for lines, by in tables:
        head = (
            f'<th rowspan="{len(lines)}" scope="rowgroup">{head_of(lines[0])}'
            + (f'<small class="muted entered-by">{escape(entered_by % {"who": by})}</small>'
               if by else "")
            + "</th>"
        )  # fmt: skip
        parts.append(f'<tr class="table-start">{head}{cells(lines[0])}')
        parts.extend(f"<tr>{cells(line)}" for line in lines[1:])
    return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped or an int
