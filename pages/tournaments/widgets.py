"""The standings' rows written in Python: a thousand players' rows through the template
language cost ten times the page's queries (``make bench``: the standings of 1,000 players).
The markup is the one the templates drew; every value is escaped or a number."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.serializers import fraction_text


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


def report_rows(tables, winds: list[str], entered_by: str) -> SafeString:
    """The ``<tr>`` of a round's tables in the report: table (with who entered it), seat wind,
    player, table score, placement points — written in Python, as the standings' rows are (a
    256-player tournament's six rounds are 1,536 rows)."""
    parts = []
    for t in tables:
        by = t["by"]
        head = (
            f'<th rowspan="{len(t["seats"])}" scope="rowgroup">{int(t["table"].number)}'
            + (f'<small class="muted entered-by">{escape(entered_by % {"who": by})}</small>'
               if by else "")
            + "</th>"
        )  # fmt: skip
        start = ' class="table-start"'
        for i, (seat, cell) in enumerate(t["seats"]):
            score = "—" if cell is None else str(int(cell.table_score))
            points = "—" if cell is None else escape(fraction_text(cell.placement_points))
            parts.append(
                f"<tr{start if i == 0 else ''}>{head if i == 0 else ''}"
                f"<td>{escape(winds[seat.seat])}</td><td>{escape(seat.name)}</td>"
                f'<td class="num">{score}</td><td class="num">{points}</td></tr>'
            )
    return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped or an int
