"""The club ranking page's words and links: the period asked for, the sortable columns, and a
bad query in words.

The ranking itself is ``ratings.ranking.club_ranking`` (what ``GET /api/v1/clubs/{slug}/
ranking/`` answers); this module only turns the page's query string into that selector's
query and back into links. The page's query is the API's (``from``, ``to``, ``min_sessions``,
``sort``, ``order``) and ``period``: ``month`` or ``year`` (the club's current one, in its time
zone), ``all``, or ``custom`` (the ``from``/``to`` dates; the default when dates are given).

**Pages.** The table shows :data:`PAGE_SIZE` rows at a time (``?page=2``; ``?page=all``: every
row, the "show all" link), ranked over the whole ranking: page 2 starts at the 101st player.
A sort or a period starts again at page 1; "all" stays. A page that is not a whole number from
1 to the last page is a bad query, said in words (400), like any other.
"""

from __future__ import annotations

import calendar
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.columns import Column, joined
from core.errors import Invalid, problem
from core.names import Name
from pages.templatetags.figures import data_signed, one_place, percent, rating_int, round_sign_class
from pages.words import name_text
from ratings.ranking import (
    MAX_MIN_SESSIONS,
    RANKING,
    RankingQuery,
    RankingRow,
    ranking_query,
)

PERIODS = {
    "month": _("This month"),
    "year": _("This year"),
    "all": _("All time"),
    "custom": _("Your own dates"),
}
#: the query string's keys the page reads (and its links carry on)
KEYS = ("period", "from", "to", "min_sessions", "sort", "order", "page")
#: the rows of the ranking a page shows (``?page=all``: every row)
PAGE_SIZE = 100
#: ``?page=`` above this is refused before anything is read (inputs have limits)
MAX_PAGE = 100_000
ALL_PAGES = "all"


#: a bad query's problems in words, by the field and code ``ranking_query`` gives
PROBLEM_TEXT = {
    ("from", "invalid_date"): _("The first day is not a date: write it as YYYY-MM-DD."),
    ("to", "invalid_date"): _("The last day is not a date: write it as YYYY-MM-DD."),
    ("from", "out_of_range"): _("The first day is a day between 1900 and 2200."),
    ("to", "out_of_range"): _("The last day is a day between 1900 and 2200."),
    ("to", "period_reversed"): _("The last day is before the first day."),
    ("sort", "invalid_choice"): _("The ranking cannot be sorted that way: pick a column."),
    ("order", "invalid_choice"): _("The order is asc (smallest first) or desc (largest first)."),
    ("period", "invalid_choice"): _(
        "The period is this month, this year, all time or your own dates."
    ),
}


def problem_words(problems: list[dict[str, str]]) -> list[str]:
    """A bad query's problems as sentences in the page's language."""
    out = []
    for p in problems:
        if p["path"] == "min_sessions":
            text = _("The fewest sessions is a whole number from 0 to %(max)s.") % {
                "max": MAX_MIN_SESSIONS
            }
        else:
            text = PROBLEM_TEXT.get((p["path"], p["code"]), p["message"])
        out.append(str(text))
    return out


@dataclass(frozen=True)
class PageQuery:
    """What the page was asked for: the period's choice, the values of the form, and the
    selector's query (None when the query string is bad: ``problems`` say why)."""

    period: str
    values: dict[str, str]
    query: RankingQuery | None
    problems: tuple[str, ...] = ()
    number: int | None = 1  # the page asked for; None: every row

    def link(self, **changes: str | None) -> str:
        """The page's query string with ``changes`` (None drops a key), for a link. Another
        sort or period starts at page 1 unless every row was shown."""
        values = {**self.values, **changes}
        if "page" not in changes and values.get("page") != ALL_PAGES:
            values.pop("page", None)
        if values.get("period") != "custom":
            values.pop("from", None)
            values.pop("to", None)
        kept = {k: values[k] for k in KEYS if values.get(k)}
        return "?" + urlencode(kept) if kept else "?"

    def api_params(self) -> str:
        """The API's query string for the same ranking (the period as its dates)."""
        q = self.query
        params: dict[str, Any] = {"format": "csv"}
        if q is not None:
            if q.period.first_day:
                params["from"] = q.period.first_day.isoformat()
            if q.period.last_day:
                params["to"] = q.period.last_day.isoformat()
            if q.min_sessions:
                params["min_sessions"] = q.min_sessions
            params["sort"] = q.sort
            params["order"] = "desc" if q.descending else "asc"
        return urlencode(params)


def page_number(text: str) -> int | None:
    """``?page=``: a whole number from 1, or ``all`` (None); ValueError otherwise."""
    if text == ALL_PAGES:
        return None
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text[:7]) <= MAX_PAGE:
        raise ValueError(text)
    return int(text)


def page_problem(last: int) -> str:
    """A bad ``?page=`` in words, with the pages there are."""
    return str(
        ngettext(
            "The page is 1 (the ranking has %(last)s page) or “all”.",
            "The page is a whole number from 1 to %(last)s, or “all”.",
            last,
        )
        % {"last": last}
    )


@dataclass(frozen=True)
class Pages:
    """Where the rows shown sit in the ranking, and the links to the others."""

    number: int | None  # None: every row shown
    last: int
    first_row: int  # 0-based index of the first row shown
    rows: int  # how many are shown
    total: int
    previous: str  # links ("" where there is none)
    next: str
    all: str
    around: tuple[tuple[int, str], ...]  # the pages around this one (at most 9), with links


def pages_of(page: PageQuery, total: int) -> Pages | None:
    """The page asked for among ``total`` rows; None when there is no such page."""
    last = max(1, -(-total // PAGE_SIZE))
    n = page.number
    if n is not None and n > last:
        return None
    start, count = (0, total) if n is None else ((n - 1) * PAGE_SIZE, PAGE_SIZE)
    count = min(count, total - start)
    at = n or 1
    back = str(at - 1) if at > 2 else None  # page 1 is the page without ?page=
    low = max(1, min(at - 4, last - 8))
    around = tuple(
        (k, page.link(page=str(k) if k > 1 else None)) for k in range(low, min(last, low + 8) + 1)
    )
    return Pages(
        number=n, last=last, first_row=start, rows=count, total=total,
        previous=page.link(page=back) if n is not None and at > 1 else "",
        next=page.link(page=str(at + 1)) if n is not None and at < last else "",
        all=page.link(page=ALL_PAGES), around=around,
    )  # fmt: skip


def period_days(choice: str, today: date) -> tuple[date | None, date | None]:
    """The first and last day of ``month`` or ``year`` around ``today`` (the club's today)."""
    if choice == "month":
        last = calendar.monthrange(today.year, today.month)[1]
        return today.replace(day=1), today.replace(day=last)
    if choice == "year":
        return date(today.year, 1, 1), date(today.year, 12, 31)
    return None, None


def page_query(params, zone: str, today: date) -> PageQuery:
    """The page's query string read: the period resolved in the club's time zone, then the
    ranking's own query (``ratings.ranking.ranking_query``: every problem of it at once)."""
    values = {k: str(params.get(k, "")).strip()[:40] for k in KEYS if params.get(k)}
    choice = values.get("period") or ("custom" if values.get("from") or values.get("to") else "all")
    values["period"] = choice
    problems = []
    asked = {k: values.get(k, "") for k in ("min_sessions", "sort", "order")}
    if choice in ("month", "year"):
        first, last = period_days(choice, today)
        asked |= {"from": first.isoformat(), "to": last.isoformat()}
    elif choice == "custom":
        asked |= {"from": values.get("from", ""), "to": values.get("to", "")}
    elif choice != "all":
        problems.append(problem("period", "invalid_choice", "unknown period"))
    try:
        query = ranking_query(asked, zone)
    except Invalid as e:
        problems += e.problems
        query = None
    words = problem_words(problems)
    try:
        number = page_number(values.get("page", "1"))
    except ValueError:
        number = 1
        words.append(str(_("The page is a whole number from 1, or “all”.")))
    if words:
        return PageQuery(choice, values, None, tuple(words), number)
    return PageQuery(choice, values, query, number=number)


@dataclass(frozen=True)
class Heading:
    """A column's heading as drawn: its link (sortable columns), and whether the ranking is
    sorted by it and which way (for ``aria-sort`` and the arrow)."""

    column: Column
    href: str
    sorted: str  # "ascending", "descending" or ""

    @property
    def label(self) -> str:
        """The heading in the page's language (a column's Name, or its gettext words)."""
        label = self.column.label
        return name_text(label) if isinstance(label, Name) else str(label)


def headings(page: PageQuery) -> list[Heading]:
    """Each column's heading (the page's columns of ``RANKING``): a sortable one links to the
    ranking sorted by it (the other way round when it already is)."""
    q = page.query
    out = []
    for c in RANKING.page_columns:
        key = c.sort_key
        if not key or q is None:
            out.append(Heading(c, "", ""))
            continue
        if key == q.sort:
            order = "asc" if q.descending else "desc"
            out.append(
                Heading(c, page.link(sort=key, order=order),
                        "descending" if q.descending else "ascending")
            )  # fmt: skip
        else:
            default = "asc" if key in RANKING.ascending else "desc"
            out.append(Heading(c, page.link(sort=key, order=default), ""))
    return out


def _player(get: Callable[[RankingRow], Any]) -> Callable[[RankingRow], str]:
    player_url = reverse("page-player", args=[0]).replace("/0/", "/{}/")
    return lambda r: (
        f'<th scope="row" class="who"><a href="{escape(player_url.format(int(r.player_id)))}">'
        f"{escape(get(r))}</a></th>"
    )


def _rating(get: Callable[[RankingRow], Any]) -> Callable[[RankingRow], str]:
    mark = escape(_("?"))

    def cell(r: RankingRow) -> str:
        prov = ""
        if r.provisional:
            title = escape(
                ngettext(
                    "Provisional: %(n)s rated session",
                    "Provisional: %(n)s rated sessions",
                    r.rated_sessions,
                )
                % {"n": r.rated_sessions}
            )
            prov = f'<abbr class="prov" title="{title}">{mark}</abbr>'
        return f'<td class="num rating">{rating_int(get(r))}{prov}</td>'

    return cell


def _signed(get: Callable[[RankingRow], Any]) -> Callable[[RankingRow], str]:
    def cell(r: RankingRow) -> str:
        v = get(r)
        return f'<td class="num {round_sign_class(v)}">{data_signed(v)}</td>'

    return cell


#: how the page draws a column of each ``format`` (``RANKING``'s columns name theirs): a
#: function of the column's getter answering a row's cell, every value escaped or a number
CELLS: dict[str, Callable[[Callable[[RankingRow], Any]], Callable[[RankingRow], str]]] = {
    "int": lambda get: lambda r: f'<td class="num">{int(get(r))}</td>',
    "one_place": lambda get: lambda r: f'<td class="num">{one_place(get(r))}</td>',
    "percent": lambda get: lambda r: f'<td class="num">{percent(get(r))}</td>',
    "signed": _signed,
    "rating": _rating,
    "player": _player,
}


def ranking_rows(ranking, first: int = 0, count: int | None = None) -> SafeString:
    """The ranking's ``<tr>``, written in Python: five hundred rows through the template language
    cost several times the ranking's queries (``make bench``). A cell per page column of
    ``RANKING``, drawn by its format (:data:`CELLS`); every value is escaped or a number."""
    row = joined([CELLS[c.format](c.get) for c in RANKING.page_columns], "<tr>", "</tr>")
    shown = ranking.rows[first:] if count is None else ranking.rows[first : first + count]
    return mark_safe("".join([row(r) for r in shown]))  # noqa: S308 - every value above is escaped or a number
