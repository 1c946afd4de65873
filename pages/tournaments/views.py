"""The tournament pages: home, standings, projector, printed seating, live tables.

Access is ``tournaments.selectors.can_read_tournament``: a public tournament is open to all,
even in a members-only club (whose club page stays hidden from outsiders: the pages link to the
club, and to its tables, only for a visitor who may read it); a private tournament is 404 to
anyone who is not a member of its club. Reads go through ``tournaments.selectors``; nothing
here computes a rule: the standings are the latest snapshot, the trend is
``selectors.rank_changes``, the progress of a table is ``selectors.live_tables``.
"""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs import selectors as club_selectors
from clubs.enums import Role
from clubs.pinyin import name_sort_key
from core import readcache
from core.csvcells import safe_row
from core.live import tournament_channel
from core.names import Name
from pages import frame
from pages.accounts.qr import qr_svg
from pages.base import require_role
from pages.live import follow
from pages.templatetags.tournament_words import wind_name
from pages.tournaments.clock import clock_shown
from pages.tournaments.forms import REASON_TEXT
from pages.tournaments.widgets import report_head, report_rows, standings_rows
from pages.words import chinese, name_text
from tournaments import selectors, services
from tournaments.enums import RoundStatus, SeatingMethod, TournamentStatus
from tournaments.readmodels import ReportLine, RoundCell, StandingRow, StandingsTable
from tournaments.serializers import REPORT, STANDINGS, fraction_text, report_csv_keys
from tournaments.standings import TIEBREAKS

if TYPE_CHECKING:
    from tournaments.models import Round, Tournament

#: seconds between two refreshes of the projector and of the live tables
REFRESH_SECONDS = 30
#: the projector's ``?refresh=`` (seconds) is kept within these
REFRESH_BOUNDS = (5, 600)
#: the columns every standings table shows, before the rest of the tiebreak chain
LEADING = ("placement_points", "table_score")
STATUS_TEXT = {
    TournamentStatus.REGISTRATION: gettext_lazy("Registration open"),
    TournamentStatus.RUNNING: gettext_lazy("Under way"),
    TournamentStatus.FINISHED: gettext_lazy("Finished"),
}
ROUND_STATUS_TEXT = {
    RoundStatus.SEATING: gettext_lazy("Being seated"),
    RoundStatus.SEATED: gettext_lazy("Seated"),
    RoundStatus.FAILED: gettext_lazy("Seating failed"),
}
SEATING_TEXT = {
    SeatingMethod.BALANCED: gettext_lazy("balanced (fewest repeat meetings)"),
    SeatingMethod.SWISS: gettext_lazy("swiss (leaders together)"),
    SeatingMethod.RANDOM: gettext_lazy("random"),
}
SHOWS = ("standings", "seating")
#: the standings' column of the referee's penalties (shown when anyone has one)
PENALTY = "penalty"
#: the standings' column of the finalists' points in the final rounds (shown once there are)
FINAL = "final_points"


def tournament_for(request: HttpRequest, slug: str) -> Tournament:
    tournament = selectors.tournament_visible(request.user, slug)
    if tournament is None:
        raise Http404
    return tournament


def _context(request: HttpRequest, tournament: Tournament, **extra: Any) -> dict[str, Any]:
    """What every tournament page shows: the tournament, its club (a link only for a visitor
    who may read the club) and the club's time zone for its dates."""
    club = tournament.club
    return {
        "tournament": tournament,
        "club": club,
        "club_readable": club_selectors.can_read(request.user, club),
        "zone": club.time_zone,
        "status_text": STATUS_TEXT.get(tournament.status, tournament.status),
        "may_direct": club_selectors.has_role(request.user, club, Role.ORGANISER),
        "may_score": club_selectors.has_role(request.user, club, Role.SCORER),
        "may_referee": club_selectors.has_role(request.user, club, Role.REFEREE),
        "now": timezone.now(),
        **extra,
    }


def _follow(tournament: Tournament, key: str = "") -> dict[str, Any]:
    """A page of the tournament with nothing to type in: read again whole when it changes."""
    return follow(tournament_channel(tournament.pk), key=key, main=True)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


# --- the standings as lines ----------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    code: str
    name: str


@dataclass(frozen=True)
class Cell:
    """One round of one player as a standings column shows it."""

    cell: RoundCell | None

    @property
    def score(self) -> str:
        return "" if self.cell is None else _signed(self.cell.table_score)

    @property
    def points(self) -> str:
        return "" if self.cell is None else fraction_text(self.cell.placement_points)

    @property
    def sign(self) -> int:
        return 0 if self.cell is None else self.cell.table_score


@dataclass(frozen=True)
class Line:
    """A player's line: his row, his rank's change since the last round (None: nothing to
    compare), the chain's values in column order and a cell per round."""

    row: StandingRow
    change: int | None
    values: tuple[str, ...]
    cells: tuple[Cell, ...]

    @property
    def trend(self) -> str:
        """▲2, ▼1, = (no change), "" (nothing to compare)."""
        if self.change is None:
            return ""
        if self.change > 0:
            return f"▲{self.change}"
        if self.change < 0:
            return f"▼{-self.change}"
        return "="

    @property
    def trend_words(self) -> str:
        if self.change is None:
            return ""
        if self.change > 0:
            return _("up %(n)s") % {"n": self.change}
        if self.change < 0:
            return _("down %(n)s") % {"n": -self.change}
        return _("same place")

    @property
    def trend_class(self) -> str:
        if self.change is None:
            return "none"
        return "up" if self.change > 0 else "down" if self.change < 0 else "same"


#: how the standings write a column's value, by the ``format`` its column names
#: (``tournaments.serializers.STANDINGS``): a function of the row and the value
TEXTS: dict[str, Callable[[StandingRow, Any], str]] = {
    "int": lambda row, v: str(v),
    "points": lambda row, v: fraction_text(v),
    "signed": lambda row, v: _signed(v),
    "signed_or_dash": lambda row, v: "—" if v is None else _signed(v),
    # a head-to-head counts only among the tied: "—" where it decided nothing
    "head_to_head": lambda row, v: _signed(v) if row.shared or v else "—",
    "penalty": lambda row, v: _signed(-v) if v else "",
    "final": lambda row, v: "" if v is None else fraction_text(v),
}


def _writer(code: str) -> Callable[[StandingRow], str]:
    """How the standings write a column's value ("" for a code without a column)."""
    column = STANDINGS.columns_by_key.get(code)
    if column is None:
        return lambda row: ""
    text, get = TEXTS[column.format], column.get
    return lambda row: text(row, get(row))


def _heading(code: str) -> Column:
    label = STANDINGS[code].label
    return Column(code, name_text(label) if isinstance(label, Name) else str(label))


@dataclass(frozen=True)
class Standings:
    table: StandingsTable
    columns: tuple[Column, ...]
    chain: tuple[str, ...]  # the tiebreak chain's names, in order
    rounds: tuple[int, ...]  # the round columns
    lines: tuple[Line, ...]
    since: int | None  # the round the trend compares with


def standings_of(
    tournament: Tournament, *, rounds: bool = True, full: bool = False, only: slice | None = None
) -> Standings:
    """The standings as the pages show them; ``full``: a director's, the hidden last rounds
    included (everyone else sees them through the last round shown); ``only``: the lines of
    these rows alone (a page of them; the columns are those of the whole table)."""
    table = selectors.latest_standings(tournament, full=full)
    changes = selectors.rank_changes(tournament, table)
    codes = [c for c in LEADING if c not in table.tiebreaks] + list(table.tiebreaks)
    columns = [_heading(code) for code in codes]
    if any(row.penalty for row in table.rows):
        # after the placement points they were taken off
        codes.insert(1, PENALTY)
        columns.insert(1, _heading(PENALTY))
    if any(row.final_points is not None for row in table.rows):
        # the finalists rank first; from zero, by these points alone
        codes.insert(0, FINAL)
        columns.insert(0, _heading(FINAL))
    last = max((c.round for row in table.rows for c in row.rounds), default=0)
    numbers = tuple(range(1, last + 1)) if rounds else ()
    writers = [_writer(c) for c in codes]
    lines = []
    for row in table.rows[only or slice(None)]:
        by_round = {c.round: c for c in row.rounds}
        lines.append(
            Line(
                row=row,
                change=changes.change(row.player, row.rank),
                values=tuple(w(row) for w in writers),
                cells=tuple(Cell(by_round.get(n)) for n in numbers),
            )
        )
    chain = tuple(name_text(TIEBREAKS[c].name) for c in table.tiebreaks)
    return Standings(table, tuple(columns), chain, numbers, tuple(lines), changes.since)


# --- seating as blocks ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    seat: int | None
    wind: str
    name: str
    player: int
    table: int | None
    first_dealer: bool


def _seat_line(row) -> SeatLine:
    return SeatLine(row.seat, wind_name(row.seat), row.name, row.player, row.table,
                    row.first_dealer)  # fmt: skip


def _seating(round_: Round, *, results: bool = True) -> dict[str, Any]:
    """A round's tables, byes and list by name; ``results``: whether its tables' results are
    read too (which are done)."""
    detail = selectors.round_detail(round_, None if results else {})
    tables = [
        {"number": t.number, "session": t.session, "done": t.has_result,
         "seats": [_seat_line(s) for s in t.seats]}
        for t in detail.table_rows
    ]  # fmt: skip
    rows = [*(s for t in detail.table_rows for s in t.seats), *detail.bye_rows]
    return {
        "detail": detail,
        "tables": tables,
        "byes": [_seat_line(r) for r in detail.bye_rows],
        "bye_names": ("、" if chinese() else ", ").join(r.name for r in detail.bye_rows),
        "by_name": [_seat_line(r) for r in selectors.seats_by_name(rows)],
    }


# --- the pages -----------------------------------------------------------------------------------


@require_safe
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Name, club, status, rules, the rounds with their progress, and links to the rest."""
    tournament = tournament_for(request, slug)
    overview = selectors.tournament_overview(tournament)
    rounds = [
        {"progress": p, "status": ROUND_STATUS_TEXT.get(p.round.status, p.round.status),
         "seated": p.round.status == RoundStatus.SEATED}
        for p in overview.rounds
    ]  # fmt: skip
    context = _context(
        request, tournament, overview=overview, rounds=rounds,
        seated_rounds=sum(r["seated"] for r in rounds),
        points=" / ".join(str(p) for p in tournament.placement_points),
        seating_text=SEATING_TEXT.get(tournament.seating, tournament.seating),
        chain=[name_text(TIEBREAKS[c].name) for c in tournament.tiebreaks if c in TIEBREAKS],
        live_follow=_follow(tournament),
    )  # fmt: skip
    return render(request, "pages/tournaments/tournament.html", context)


# --- the standings page, a page of players at a time -------------------------------------------

#: the players a page of the standings shows (``?page=N``; ``?page=all``: every one of them)
STANDINGS_PAGE = 100


class PageLinks:
    """A pager's previous and next page around page ``number`` of ``pages`` (0: everything on
    one page: neither), for the pages' links (``standings_pager.html``)."""

    number: int
    pages: int

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if 0 < self.number < self.pages else None


@dataclass(frozen=True)
class StandingsPage(PageLinks):
    """One page of the standings as the page shows it: the standings' head and columns with
    the lines of this page (their rows drawn), which players they are, and the pages."""

    standings: Standings
    #: the pages' links and the table of this page's lines, drawn (what grows with the field)
    block: SafeString
    number: int  # 0: every player on one page
    pages: int
    players: int
    first: int  # the first and last line shown, counted from 1
    last: int


def _page_asked(request: HttpRequest) -> int:
    """The page of the standings asked for (``?page=N``, 1 when it is no page number; 0 for
    ``?page=all``), before it is held to the pages there are."""
    asked = request.GET.get("page", "1")
    if asked == "all":
        return 0
    try:
        return max(1, int(asked))
    except ValueError:
        return 1


def standings_page(tournament: Tournament, *, full: bool, asked: int) -> StandingsPage:
    """Page ``asked`` of the standings (0: all of them; past the last page: the last), kept in
    the cache under the latest snapshot (which never changes: a recompute writes the next one),
    the standings' rules (the trend is computed by them) and whether the hidden last rounds are
    shown: never stale. Its count of players is kept the same way, so a page number is held to
    the pages there are before it is a key."""
    latest = selectors.latest_snapshot_as_read(tournament)
    if latest is None:  # nothing computed yet: nothing to keep
        return _standings_page(tournament, full=full, asked=1)
    pk, version, computed_at = latest
    rules = selectors.rules_of(tournament)
    ruled = hashlib.blake2b(repr(rules).encode(), digest_size=8).hexdigest()
    key = f"{tournament.pk}:{pk}:{version}:{computed_at.timestamp()}:{int(full)}:{ruled}"
    players = readcache.versioned(
        "standings-players", key,
        lambda: len(selectors.latest_standings(tournament, full=full).rows), local=True,
    )  # fmt: skip
    pages = max(1, -(-players // STANDINGS_PAGE))
    number = min(asked, pages)
    return readcache.versioned(
        "standings-page-2", key,
        lambda: _standings_page(tournament, full=full, asked=number),
        parts=(get_language(), number), local=True,
    )  # fmt: skip


def _standings_page(tournament: Tournament, *, full: bool, asked: int) -> StandingsPage:
    players = len(selectors.latest_standings(tournament, full=full).rows)
    pages = max(1, -(-players // STANDINGS_PAGE))
    number = min(asked, pages)
    start = 0 if number == 0 else (number - 1) * STANDINGS_PAGE
    stop = players if number == 0 else min(players, start + STANDINGS_PAGE)
    found = standings_of(tournament, full=full, only=slice(start, stop))
    rows = standings_rows(found)
    # kept drawn: the table's head without its rows, the pages and the lines in ``block``
    found = replace(found, table=replace(found.table, rows=()), lines=())
    page = StandingsPage(
        standings=found, block=SafeString(""), number=number, pages=pages,
        players=players, first=start + 1 if players else 0, last=stop,
    )  # fmt: skip
    block = render_to_string(
        "pages/tournaments/standings_block.html", {"standings": found, "rows": rows, "pager": page}
    )
    return replace(page, block=block)  # render_to_string answers a SafeString


@require_safe
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Rank, trend, the tiebreak chain's values named, a column per round; a page of players
    at a time (``?page=N``), or all of them (``?page=all``)."""
    tournament = tournament_for(request, slug)
    context = _context(request, tournament, live_follow=_follow(tournament))
    page = standings_page(tournament, full=context["may_referee"], asked=_page_asked(request))
    context.update(standings=page.standings, pager=page)
    main = _standings_main(tournament, context, page)
    frame_context = {"tournament": tournament, "live_follow": context["live_follow"]}
    seen = (tournament.name, context["live_follow"])
    return frame.page(request, "pages/tournaments/standings.html", frame_context, main, seen=seen)


#: the standings page's body drawn (``pages/tournaments/standings_main.html``)
STANDINGS_MAIN = "standings-main-1"


def _standings_main(tournament: Tournament, context: dict[str, Any], page: StandingsPage) -> str:
    """The page's body, drawn with the CSRF token's mark (``pages.frame``): kept under the
    snapshot it shows (a snapshot never changes: a recompute writes the next version) with
    the tournament's and club's rows (its name, status and rules), what the visitor may do
    there, which page and the release; once the standings exist. A page of every player
    is kept in the shared cache only (its size grows with the field)."""

    def draw() -> str:
        return render_to_string(
            "pages/tournaments/standings_main.html", {**context, "csrf_token": frame.CSRF_MARK}
        )

    table = page.standings.table
    if not table.version:
        return draw()
    version = f"{tournament.pk}:{table.version}:{table.computed_at.timestamp()}"
    seen = frame.digest(
        frame.row_of(tournament), frame.row_of(tournament.club), context["club_readable"],
        context["may_direct"], context["may_score"], context["may_referee"], page.number,
        page.pages, page.players, page.first, page.last, frame.release(),
    )  # fmt: skip
    return readcache.versioned(
        STANDINGS_MAIN, version, draw, parts=(get_language(), seen), local=page.number != 0
    )


def _refresh(asked: str | None) -> int:
    """The projector's refresh period: ``?refresh=`` seconds within ``REFRESH_BOUNDS``."""
    try:
        seconds = int(asked) if asked else REFRESH_SECONDS
    except ValueError:
        seconds = REFRESH_SECONDS
    return max(REFRESH_BOUNDS[0], min(REFRESH_BOUNDS[1], seconds))


@require_safe
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """For the hall's screen: no navigation, large type, dark; the standings or the current
    round's seating (``?show=``), refreshed every ``?refresh=`` seconds and scrolled by
    ``tournament.js``, with a QR code of the tournament's public page."""
    tournament = tournament_for(request, slug)
    show = request.GET.get("show", SHOWS[0])
    if show not in SHOWS:
        show = SHOWS[0]
    public_url = request.build_absolute_uri(reverse("page-tournament", args=[tournament.slug]))
    context = _context(
        request, tournament, show=show, qr=qr_svg(public_url), public_url=public_url,
        refresh=(refresh := _refresh(request.GET.get("refresh"))),
        keep="" if refresh == REFRESH_SECONDS else f"&refresh={refresh}",
        live_follow=follow(tournament_channel(tournament.pk), self_read=True),
    )  # fmt: skip
    if show == "standings":
        context["standings"] = table = standings_of(tournament, rounds=False)
        context["rows"] = standings_rows(table, tie_space="")
    else:
        current = selectors.current_round(tournament)
        context["round"] = current
        if current is not None:
            context.update(_seating(current))
    context["clock"] = clock_shown(
        selectors.round_clock(selectors.current_round(tournament)), timezone.now()
    )
    return render(request, "pages/tournaments/projector.html", context)


@require_safe
def seating_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round's seating to print on A4: a block per table (seat winds, the first dealer) and
    "where do I sit", every player by name in pinyin order. ``?cards=1``: a table a page."""
    tournament = tournament_for(request, slug)
    round_ = selectors.round_numbered(tournament, number)
    if round_ is None:
        raise Http404
    seated = round_.status == RoundStatus.SEATED
    context = _context(
        request, tournament, round=round_, cards=request.GET.get("cards") == "1", seated=seated,
        round_status=ROUND_STATUS_TEXT.get(round_.status, round_.status),
        live_follow=_follow(tournament),
    )  # fmt: skip
    if not seated:
        return render(request, "pages/tournaments/print.html", context)
    drawn = printed_seating(tournament, round_, cards=context["cards"])
    context.update(table_count=drawn["table_count"], seating_html=SafeString(PRINTED_HERE))
    response = render(request, "pages/tournaments/print.html", context)
    # the blocks go into the page as the bytes they are kept as: drawn through the template,
    # their megabytes (at 10,000 players) would be copied again at each of its levels and
    # encoded again on every print
    head, _, tail = response.content.partition(PRINTED_HERE.encode())
    response.content = b"".join((head, drawn["seating_html"], tail))
    return response


def _round_key(tournament: Tournament, round_: Round) -> str:
    """What a round's tables depend on: the round, when it was seated (its tables are written
    with its seating alone: ``selectors.round_tables``) and its byes."""
    seated = round_.seated_at.timestamp() if round_.seated_at else ""
    return ":".join(str(v) for v in (tournament.pk, round_.pk, round_.number, seated, *round_.byes))


def seating_version(tournament: Tournament, round_: Round) -> str:
    """The version of what a round's whole seating shows (the printed seating, the round
    page's search): the round (its number, when it was seated, its byes) and
    ``selectors.round_seating_version`` (each seat's table, wind and player, the names): a
    reseat, a substitute or a rename moves it, a hand played does not. One query, two with
    byes; a page of the round reads the version of its own tables' seats alone
    (:func:`round_page_of`)."""
    whole = selectors.round_seating_version(round_)
    return f"{_round_key(tournament, round_)}:|:" + ":".join(str(v) for v in whole)


#: where the printed seating's page takes its drawn blocks (a comment: nothing a visitor
#: writes comes out as one, every text being escaped)
PRINTED_HERE = "<!--printed-seating-->"


def printed_seating(tournament: Tournament, round_: Round, *, cards: bool) -> dict[str, Any]:
    """A seated round's blocks and list by name, drawn (as the UTF-8 bytes a page sends), with
    its number of tables: kept in the cache under the version of what they show
    (:func:`seating_version`) and the tournament's name (the table cards' caption): never
    stale."""
    version = seating_version(tournament, round_)
    named = hashlib.blake2b(tournament.name.encode(), digest_size=8).hexdigest()

    def draw() -> dict[str, Any]:
        context = {
            "tournament": tournament,
            "round": round_,
            "cards": cards,
            **_seating(round_, results=False),
        }
        html = render_to_string("pages/tournaments/print_seating.html", context)
        return {"seating_html": html.encode(), "table_count": len(context["tables"])}

    return readcache.versioned(
        "round-seating-2", version, draw, parts=(get_language(), int(cards), named)
    )


# --- the round page: a round's tables a page at a time, and "where do I sit" ---------------------

#: the tables a page of the round shows (``?page=N``; ``?page=all``: every table)
ROUND_PAGE = 100
#: the seats a name search lists at most (a player looks for himself: more letters narrow it)
FOUND_SHOWN = 20


@dataclass(frozen=True)
class RoundPage(PageLinks):
    """One page of a round's tables as the page shows it, drawn, its pages counted in tables
    (``standings_pager.html`` with ``unit="tables"``); the byes are on the last page."""

    #: the pages' links, this page's tables and (on the last page) the byes, drawn
    block: SafeString
    number: int  # 0: every table on one page
    pages: int
    tables: int
    players: int  # seated and given a bye
    first: int  # the first and last table shown, counted from 1 in table order
    last: int
    #: the version of all it shows (the round's tables, the seats' and names' hashes): what a
    #: page drawn around it is kept under
    version: str = ""


def _round_pages(tables: int) -> int:
    return max(1, -(-tables // ROUND_PAGE))


def round_page_of(tournament: Tournament, round_: Round, *, asked: int) -> RoundPage:
    """Page ``asked`` of a seated round's tables (0: all of them; past the last page: the
    last), drawn and kept in the cache under the version of what it shows: the round's
    tables (kept under :func:`_round_key`, so a page number is held to the pages there are
    before it is a key) and the printed seating's version of this page's tables alone
    (``selectors.round_seating_version``: a reseat, a substitute, a repair or a rename draws
    it again, a hand played does not; the byes' names on the last page): never stale. The
    whole round's version hashes every seat (10,000 at 10,000 players) on each read; a page's,
    the 400 it shows."""
    key = _round_key(tournament, round_)
    tables = readcache.versioned(
        "round-tables-1", key, lambda: selectors.round_tables(round_), local=True
    )
    pages = _round_pages(len(tables))
    number = min(asked, pages)
    start = 0 if number == 0 else (number - 1) * ROUND_PAGE
    shown = tables[start : len(tables) if number == 0 else start + ROUND_PAGE]
    numbers = (shown[0][0], shown[-1][0]) if shown and number else None
    last = number in (0, pages)
    sessions = [session for _, session, _ in shown] if numbers else None
    version = selectors.round_seating_version(round_, sessions, byes=last)
    shows = "all" if numbers is None else f"{numbers[0]}-{numbers[1]}"
    page_version = f"{key}|{shows}|" + ":".join(str(v) for v in version)
    return readcache.versioned(
        "round-page-2", page_version,
        lambda: _round_page(round_, tables, number, numbers, last, page_version),
        parts=(get_language(), number), local=number != 0,  # (every table: not kept in-process)
    )  # fmt: skip


def _round_page(
    round_: Round, tables: tuple[tuple[int, int, int], ...], number: int,
    numbers: tuple[int, int] | None, last: bool, version: str,
) -> RoundPage:  # fmt: skip
    rows = selectors.seat_rows(round_, {}, tables=numbers, byes=last)
    by_table: dict[int, list[SeatLine]] = {}
    byes = []
    for row in rows:
        if row.table is None:
            byes.append(_seat_line(row))
        else:
            by_table.setdefault(row.table, []).append(_seat_line(row))
    start = 0 if number == 0 else (number - 1) * ROUND_PAGE
    page = RoundPage(
        block=SafeString(""), number=number, pages=_round_pages(len(tables)), tables=len(tables),
        players=sum(seats for _, _, seats in tables) + len(round_.byes),
        first=start + 1 if by_table else 0, last=start + len(by_table), version=version,
    )  # fmt: skip
    context = {
        "pager": page,
        "tables": [{"number": n, "seats": seats} for n, seats in by_table.items()],
        "byes": byes,
    }
    return replace(page, block=render_to_string("pages/tournaments/round_block.html", context))


@dataclass(frozen=True)
class RoundSeats:
    """A seated round's seats as a name search reads them, kept under the version of its
    whole seating: per seat (byes last) its player's name, the player, the table, the seat
    and the page of the round that shows it."""

    rows: tuple[tuple[str, int, int | None, int | None, int], ...]


def _round_seats(round_: Round) -> RoundSeats:
    rows = selectors.seat_rows(round_, {})
    order = {n: i for i, n in enumerate(dict.fromkeys(r.table for r in rows if r.table))}
    pages = _round_pages(len(order))
    return RoundSeats(tuple(
        (r.name, r.player, r.table, r.seat,
         pages if r.table is None else order[r.table] // ROUND_PAGE + 1)
        for r in rows
    ))  # fmt: skip


@dataclass(frozen=True)
class SeatFound:
    """A seat of the round whose player's name a search matched: the table (None: a bye),
    the wind, and the page of the round that shows it."""

    name: str
    table: int | None
    wind: str
    page: int


@dataclass(frozen=True)
class RoundSearch:
    query: str
    found: tuple[SeatFound, ...]  # the first FOUND_SHOWN, by name in pinyin order
    matched: int


def _name_keys(names: Iterable[str]) -> dict[str, tuple[tuple[str, str], tuple[str, ...]]]:
    """Each name's place in pinyin order and its readings (``clubs.selectors.name_readings``):
    what a search of the round's thousands of names needs, more than the pinyin caches hold.
    They depend on the name alone, so what is kept under the round serves every version of
    its seating; a name not in it (a rename, a substitute) is read when asked."""
    return {name: (name_sort_key(name), club_selectors.name_readings(name)) for name in set(names)}


def round_search(tournament: Tournament, round_: Round, query: str) -> RoundSearch:
    """The seats (and byes) of a seated round whose player a search names, by 汉字 or pinyin
    (``clubs.selectors.name_matches``), in the pinyin order of the printed list, each with
    the page of the round that shows its table. The round's seats are kept under the version
    of its whole seating (:func:`seating_version`), as the printed seating is."""
    version = seating_version(tournament, round_)
    seated = readcache.versioned("round-seats-1", version, lambda: _round_seats(round_))
    keys = readcache.versioned(
        "round-names-1", f"{tournament.pk}:{round_.pk}",
        lambda: _name_keys(r[0] for r in seated.rows),
    )  # fmt: skip
    matched = []
    for row in seated.rows:
        name = row[0]
        known = keys.get(name) or (name_sort_key(name), club_selectors.name_readings(name))
        if club_selectors.name_matches(name, query, known[1]):
            matched.append((known[0], row))
    matched.sort(key=lambda m: (m[0], m[1][1]))
    found = tuple(
        SeatFound(name, table, wind_name(seat), page)
        for _, (name, _player, table, seat, page) in matched[:FOUND_SHOWN]
    )
    return RoundSearch(query, found, len(matched))


@require_safe
def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A round for a player's phone: its tables, a page of them at a time (``?page=N``, or
    ``?page=all``), each with its seats' winds and players, the first dealer marked; and
    "where do I sit" (``?q=``: a name, by 汉字 or pinyin), each seat found linked to its
    table on the page that shows it. Open to whom the printed seating is.

    It follows no live channel: every hand played in the tournament is announced on its
    channel, and a round's seats do not move with hands (thousands of phones would read the
    page again on each one)."""
    tournament = tournament_for(request, slug)
    round_ = selectors.round_numbered(tournament, number)
    if round_ is None:
        raise Http404
    seated = round_.status == RoundStatus.SEATED
    query = request.GET.get("q", "").strip()[: club_selectors.QUERY_MAX]
    context = _context(
        request, tournament, round=round_, seated=seated, q=query,
        round_status=ROUND_STATUS_TEXT.get(round_.status, round_.status),
    )  # fmt: skip
    kept = None
    if seated:
        context["pager"] = round_page_of(tournament, round_, asked=_page_asked(request))
        if query:
            context["search"] = round_search(tournament, round_, query)
        else:
            kept = context["pager"]
    main = _round_main(tournament, round_, context, kept)
    frame_context = {"tournament": tournament, "round": round_}
    seen = (tournament.name, round_.number)
    return frame.page(request, "pages/tournaments/round.html", frame_context, main, seen=seen)


#: a round page's body drawn (``pages/tournaments/round_main.html``)
ROUND_MAIN = "round-main-1"


def _round_main(
    tournament: Tournament, round_: Round, context: dict[str, Any], kept: RoundPage | None
) -> str:
    """The round page's body: kept, when it answers no search (``kept``: the page of tables
    it shows), under that page's version with the tournament's, club's and round's rows, what
    the visitor may do there and the release; a search's answer is drawn each time. A page
    of every table is kept in the shared cache only (its size grows with the field)."""

    def draw() -> str:
        return render_to_string("pages/tournaments/round_main.html", context)

    if kept is None:
        return draw()
    seen = frame.digest(
        frame.row_of(tournament), frame.row_of(tournament.club), frame.row_of(round_),
        context["club_readable"], context["may_direct"], context["may_score"],
        context["may_referee"], frame.release(),
    )  # fmt: skip
    return readcache.versioned(
        ROUND_MAIN, kept.version, draw, parts=(get_language(), seen), local=kept.number != 0
    )


@require_safe
def live(request: HttpRequest, slug: str) -> HttpResponse:
    """The round in play, table by table: done, playing (hands so far of the number a table
    plays) or not started; the page refreshes itself."""
    tournament = tournament_for(request, slug)
    current = selectors.current_round(tournament)
    context = _context(
        request, tournament, round=current, refresh=REFRESH_SECONDS,
        live=None if current is None else selectors.live_tables(current),
        clock=clock_shown(selectors.round_clock(current), timezone.now()),
        live_follow=_follow(tournament),
    )  # fmt: skip
    return render(request, "pages/tournaments/live.html", context)


@require_safe
def report(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's report, to print on A4 or take as CSV (``?format=csv``): the standings
    with the tiebreak chain, each round's tables (seats, table scores, placement points) and
    byes, the penalties with their reasons, the rounds unlocked for a correction and why, who
    withdrew, and (for the club's members) who entered each table."""
    tournament = tournament_for(request, slug)
    director = club_selectors.has_role(request.user, tournament.club, Role.REFEREE)
    table = standings_of(tournament, full=director)
    # the table scores come from the standings' own rounds: the report says what they count
    found = selectors.tournament_report(tournament, scores=False)
    if (through := table.table.hidden_after) is not None and not director:
        # the hidden last rounds: not one of their results before they are revealed
        found = replace(found, rounds=tuple(r for r in found.rounds if r.round.number <= through))
    lines = selectors.report_lines(found, table.table)
    if request.GET.get("format") == "csv":
        return _report_csv(tournament, lines)
    members = club_selectors.has_role(request.user, tournament.club, Role.MEMBER)
    entered_by = _("entered by %(who)s")
    rounds = []
    for detail, round_lines in zip(found.rounds, lines, strict=True):
        tables = [
            (seats, ", ".join(found.entered_by.get(seats[0].session, ())) if members else "")
            for seats in _by_table(round_lines)
        ]
        rounds.append({"detail": detail, "rows": report_rows(tables, entered_by)})
    context = _context(
        request, tournament, standings=table, rows=standings_rows(table), rounds=rounds,
        report_head=report_head(), found=found,
        penalties=[(p, REASON_TEXT.get(p.reason, p.reason)) for p in found.penalties],
        points=" / ".join(str(p) for p in tournament.placement_points),
    )  # fmt: skip
    return render(request, "pages/tournaments/report.html", context)


def _by_table(lines: Iterable[ReportLine]) -> list[list[ReportLine]]:
    """A round's lines at tables (not its byes), a list a table, in the round's order."""
    tables: list[list[ReportLine]] = []
    for line in lines:
        if line.table is None:
            continue
        if not tables or tables[-1][0].table != line.table:
            tables.append([])
        tables[-1].append(line)
    return tables


def _report_csv(tournament: Tournament, lines: Iterable[Iterable[ReportLine]]) -> HttpResponse:
    """The report's CSV: a row a player and round, its columns ``REPORT``'s; text cells never
    a formula (``safe_row``)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-report.csv"'
    writer = csv.DictWriter(response, fieldnames=report_csv_keys())
    writer.writeheader()
    row = REPORT.csv_row
    writer.writerows(safe_row(row(line)) for round_lines in lines for line in round_lines)
    return response


@require_POST
def reveal(request: HttpRequest, slug: str) -> HttpResponse:
    """Reveal the hidden last rounds' standings (an organiser, at the prize-giving)."""
    tournament = tournament_for(request, slug)
    require_role(request.user, tournament.club, Role.ORGANISER)
    services.standings_reveal(tournament=tournament)
    messages.success(request, _("The standings are revealed: everyone sees them whole."))
    return redirect("page-tournament-standings", slug=tournament.slug)
