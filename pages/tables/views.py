"""The table page (一桌): the 流水 sheet, recording a hand, correcting and deleting one, its
history, closing and reopening the table, and a final result instead of hands.

Access is the session API's: whoever may read the club sees the table (a members-only club is
404 to anyone else); a scorer records, corrects and deletes hands, closes the table and enters
its result; an organiser reopens it (``clubs.permissions.authorize``). A tournament table is a
session like any other and follows the same rules. Reads go through ``clubs.selectors``,
writes through ``clubs.services``; a refusal is shown in words with what was entered kept.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import wraps
from typing import TYPE_CHECKING, Any, NamedTuple

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.template import Context
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubs import selectors
from clubs.enums import Role, SessionKind, SessionMode
from clubs.permissions import authorize
from clubs.services import hands as hand_services
from clubs.services import sessions as session_services
from core import readcache
from core.errors import NotAuthenticated, NotFound, PermissionDenied, ServiceError
from core.http import service_error_items
from core.live import table_channel
from core.names import Name
from pages import charts, frame
from pages.accounts.qr import qr_svg
from pages.base import ERROR_TEXT, error_messages, whole_number
from pages.live import follow
from pages.tables import confirm, forms
from pages.tables.hand_detail import hand_detail
from pages.tables.widgets import chips, select, sheet_rows
from pages.tournaments.clock import clock_shown
from pages.words import chinese, false_win_lines, roots_text, unit_amount, words_of_view
from tournaments import selectors as tournament_selectors

if TYPE_CHECKING:
    from clubs.models import TableSession

WINDS = (gettext_lazy("East"), gettext_lazy("South"), gettext_lazy("West"), gettext_lazy("North"))
MODES = {
    SessionMode.XUEZHAN: gettext_lazy("Blood battle: the hand goes on until three have won"),
    SessionMode.SINGLE: gettext_lazy("Single: the hand ends at the first win"),
}
SUITS = {
    "m": gettext_lazy("Characters"), "p": gettext_lazy("Dots"), "s": gettext_lazy("Bamboo")
}  # fmt: skip
#: what a correction changed, by the hand record's fields (HandRevision.changes)
RECORD_FIELDS = {
    "dealer": gettext_lazy("the dealer"),
    "events": gettext_lazy("wins and kongs"),
    "draw": gettext_lazy("the draw"),
    "bettors": gettext_lazy("the bettors' tiles"),
    "declared_void": gettext_lazy("the void suits"),
    "number": gettext_lazy("the hand's number"),
}
#: what a stored record may hold (recorded through the API) that the hand form does not show:
#: the void suits (定缺) and xuezhan9's session doubling (RULES §3.4); a correction keeps them
NOT_ON_THE_FORM = ("declared_void", "session")
KONG_KINDS = {
    "concealed": gettext_lazy("Concealed"),
    "direct": gettext_lazy("On a discard"),
    "added": gettext_lazy("Added"),
}


def words(name: Name | Any) -> str:
    """A domain name (``Name(zh, en)`` or anything with ``zh`` and ``en``) in the page's
    language."""
    return name.zh if (get_language() or "").lower().startswith("zh") else name.en


def value_words(unit: str, value: int | None) -> str:
    if value is None:
        return ""
    return unit_amount(value, unit)


def changed_words(changes) -> str:
    """A correction's changed record fields in words: 胡牌与杠、庄家 / wins and kongs, the
    dealer (a field the page does not know keeps its name)."""
    joiner = "、" if chinese() else ", "
    return joiner.join(str(RECORD_FIELDS.get(c, c)) for c in changes or ())


# --- access ------------------------------------------------------------------------------------


def table_view(
    read: str | None = None, write: str | None = Role.SCORER, methods=("GET", "POST"),
    card: bool = False, guest: bool = False, light: bool = False,
):  # fmt: skip
    """A view of one session: loaded with its seats, checked with the API's rules (``read``
    for GET, ``write`` for POST); a visitor who must log in is sent to the login page.
    ``card``: a visitor who opened the table with its table card's link (``/t/<key>/``, while
    it works) may use it as the table's scorer, without a login. ``guest``: a visitor who opened
    it with its players' link (``/g/<key>/``, while the table is open) may read it.
    ``light``: a GET reads the session without its seats and bettors (the table page keeps
    them with its parts)."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(request: HttpRequest, pk: int, **kwargs) -> HttpResponse:
            if request.method not in methods:
                return HttpResponseNotAllowed(methods)
            held = selectors.UNREAD
            if light and request.method != "POST":  # (its seats kept with the page's parts)
                # with its read version and the visitor's role: one query (selectors)
                session, head = selectors.session_head_read(pk, request.user)
                if session is not None:
                    session.head_read, held = head, head.viewer_role
            else:
                session = selectors.session_page(pk)
            if session is None:
                raise Http404
            role = write if request.method == "POST" else read
            if card and carries_card(request, session):
                return view(request, session, **kwargs)
            if guest and request.method != "POST" and follows_table(request, session):
                return view(request, session, **kwargs)
            try:
                authorize(request, session.club, role, held=held)
            except NotFound as e:
                raise Http404 from e
            except NotAuthenticated as e:
                # a write on a members-only table: not found for a signed-out visitor too
                if not selectors.can_read(request.user, session.club):
                    raise Http404 from e
                return redirect_to_login(reverse("page-session", args=[pk]))
            except PermissionDenied as e:
                raise DjangoPermissionDenied from e
            return view(request, session, **kwargs)

        return wrapped

    return decorate


#: where a browser keeps the table cards it was opened with: session id → the card's key
CARDS = "table_cards"


def carries_card(request: HttpRequest, session: TableSession) -> bool:
    """The visitor opened this table with its table card, and the card still works."""
    key = request.session.get(CARDS, {}).get(str(session.pk))
    return key is not None and tournament_selectors.table_key_valid(session.pk, key)


#: where a browser keeps the tables it follows by their players' links: session id → key
FOLLOWED = "followed_tables"


def follows_table(request: HttpRequest, session: TableSession) -> bool:
    """The visitor opened this table with its players' link, and the table is still open."""
    key = request.session.get(FOLLOWED, {}).get(str(session.pk))
    return key is not None and key == session.guest_key and session.is_open


@require_safe
def players_link(request: HttpRequest, key: str) -> HttpResponse:
    """A table's players' link: this browser follows that table (while it is open)."""
    session = selectors.session_by_guest_key(key)
    if session is None:
        raise Http404
    followed = dict(request.session.get(FOLLOWED, {}))
    followed[str(session.pk)] = key
    request.session[FOLLOWED] = followed
    return redirect("page-session", pk=session.pk)


@table_view(write=Role.SCORER, methods=("POST",))
def players_link_make(request: HttpRequest, session: TableSession) -> HttpResponse:
    """Make the table's players' link (a scorer): the table page then shows it with its QR."""
    try:
        session_services.session_guest_link(session=session)
    except ServiceError as e:
        for line in error_messages(e):
            messages.error(request, line)
    return redirect(f"{reverse('page-session', args=[session.pk])}#players-link")


def _held(session: TableSession):
    """The visitor's role in the session's club when it was read with the session (the
    table page's GET), else ``UNREAD`` (looked up)."""
    head = getattr(session, "head_read", None)
    return selectors.UNREAD if head is None else head.viewer_role


def _can(request: HttpRequest, session: TableSession, role: str) -> bool:
    if selectors.has_role(request.user, session.club, role, held=_held(session)):
        return True
    return role == Role.SCORER and carries_card(request, session)


def author(request: HttpRequest):
    """Who a write is by: the signed-in user, or nobody known (a table card's holder)."""
    return request.user if request.user.is_authenticated else None


# --- the form's rows ---------------------------------------------------------------------------


#: what a field holds before anyone taps it (a fold with only these stays folded)
_UNTOUCHED = {"roots": "0", "after": "0"}


def _holds(values: dict[str, Any], prefix: str) -> bool:
    """Whether the form's values say anything under ``prefix`` (``w2_``, ``k3_``, ``d1_``):
    its fold opens, after a refusal or when a stored hand is corrected."""
    for key, value in values.items():
        if not key.startswith(prefix):
            continue
        if isinstance(value, list):
            if any(value):
                return True
        elif value and value != _UNTOUCHED.get(key[len(prefix) :]):
            return True
    return False


def _values(post) -> dict[str, Any]:
    """The POST as the template reads it: one value a field, lists for multiple choices."""
    multi = ("_extras", "_situation")
    return {k: (v if k.endswith(multi) else v[-1]) for k, v in post.lists()}


def _form_context(sheet: selectors.TableSheet, values: dict[str, Any], problems) -> dict:
    """The hand form's choices and rows, with the values entered (or defaulted)."""
    session = sheet.session
    menu = selectors.declaration_menu(session.ruleset)
    unit = menu.unit
    seats = [(str(s.number), WINDS[s.number], s.player.name) for s in sheet.seats]
    wrong = [(p.field, p.message) for p in problems]  # (a field may have several)

    def problems_of(prefix: str, *, but: str = "") -> list[str]:
        """The messages of a row (``prefix``), but those of its field ``but``."""
        return list(dict.fromkeys(
            m for f, m in wrong if f.startswith(prefix) and not (but and f == prefix + but)
        ))  # fmt: skip

    def item(name: Name, code: str, value: str = "") -> dict:
        return {"code": code, "name": words(name), "value": value}

    def steps(n: int) -> str:
        if not n:
            return ""
        return f"×{2**n}" if unit == "multiple" else f"+{n}"

    def v(key, default=""):
        return values.get(key, default)

    people = [(n, name, "") for n, _wind, name in seats]
    patterns = [(p.code, words(p.name), value_words(unit, p.value)) for p in menu.patterns]
    extras = [(e.code, words(e.name), steps(e.steps)) for e in menu.extras]
    situations = [(x.code, words(x.name), steps(x.steps)) for x in menu.situations]
    roots = [(str(r), roots_text(r), "") for r in forms.ROOTS]
    ranks = [(r, r, "") for r in forms.RANKS]
    suits = [(code, str(label), "") for code, label in SUITS.items()]

    def tile(p: str) -> SafeString:
        return chips(p + "rank", ranks, v(p + "rank"), css="chips tile-chips ranks",
                     chip_css="chip rank") + chips(
            p + "suit", suits, v(p + "suit"), css="chips tile-chips", chip_css="chip suit",
            value_class=True,
        )  # fmt: skip

    winners = []
    for i in range(1, forms.WINNERS + 1):
        p = f"w{i}_"
        came = [("self", _("Self-drawn"), ""), *people]
        row = {
            "n": i, "p": p, "with": v(p + "with"), "title": _("Winner %(n)s") % {"n": i},
            "seat_chips": chips(p + "seat", people, v(p + "seat")),
            "from_chips": chips(p + "from", came, v(p + "from")),
            "pattern_chips": chips(p + "pattern", patterns, v(p + "pattern")),
            "roots_chips": chips(p + "roots", roots, v(p + "roots", "0")),
            "extra_chips": chips(p + "extras", extras, v(p + "extras", []), multiple=True)
            if extras else "",
            "situation_chips": chips(
                p + "situation", situations, v(p + "situation", []), multiple=True
            ),
            "tile_chips": tile(p),
            "tiles": v(p + "tiles"), "pungs": v(p + "pungs"), "tile": v(p + "tile"),
            "problems": problems_of(p),
        }  # fmt: skip
        row["open"] = i == 1 or _holds(values, p) or bool(row["problems"])
        row["shown"] = bool(row["tiles"] or row["pungs"] or row["tile"])
        row["tile_open"] = bool(v(p + "rank") or v(p + "suit"))
        winners.append(row)
    kinds = [(code, str(label), "") for code, label in KONG_KINDS.items()]
    after_choices = [(str(a), _after_words(a)) for a in range(forms.WINNERS + 1)]
    wait_choices = [("", "—")] + [
        (p.code, f"{words(p.name)} {value_words(unit, p.value)}") for p in menu.patterns if p.wait
    ]
    root_choices = [(str(r), str(r)) for r in forms.ROOTS]
    kongs = []
    for j in range(1, forms.KONGS + 1):
        p = f"k{j}_"
        kongs.append({
            "n": j, "p": p, "seat": v(p + "seat"), "tile": v(p + "tile"),
            "title": _("Kong %(n)s") % {"n": j},
            "after": v(p + "after", "0"),
            "seat_chips": chips(p + "seat", people, v(p + "seat")),
            "kind_chips": chips(p + "kind", kinds, v(p + "kind")),
            "from_chips": chips(p + "from", people, v(p + "from")),
            "tile_chips": tile(p),
            "after_select": select(p + "after", after_choices, v(p + "after", "0")),
            # 杠上杠: a kong's previous kong is another row of the form (kong 1 has none)
            "on_replacement": v(p + "on_replacement") if j > 1 else None,
            "problems": problems_of(p, but="on_replacement"),
            "replacement_problems": problems_of(p + "on_replacement"),
        })  # fmt: skip
        kongs[-1]["open"] = _holds(values, p) or bool(problems_of(p))
    false_wins = []
    for n in range(1, forms.FALSE_WINS + 1):
        p = f"f{n}_"
        false_wins.append({
            "n": n, "p": p, "title": _("False win %(n)s") % {"n": n},
            "seat_chips": chips(p + "seat", people, v(p + "seat")),
            "after_select": select(p + "after", after_choices, v(p + "after", "0")),
            "problems": problems_of(p),
        })  # fmt: skip
        false_wins[-1]["open"] = _holds(values, p) or bool(false_wins[-1]["problems"])
    states = [("", "—", ""), *((d.code, words(d.name), "") for d in menu.draw)]
    draw = []
    for s in sheet.seats:
        p = f"d{s.number}_"
        draw.append({
            "seat": s, "wind": WINDS[s.number], "p": p, "state": v(p + "state"),
            "state_chips": chips(p + "state", states, v(p + "state")),
            "pattern": v(p + "pattern"), "roots": v(p + "roots", "0"), "tiles": v(p + "tiles"),
            "pattern_select": select(p + "pattern", wait_choices, v(p + "pattern")),
            "roots_select": select(p + "roots", root_choices, v(p + "roots", "0")),
            "pungs": v(p + "pungs"),
            "problems": problems_of(p),
        })  # fmt: skip
    bettors = [
        {"name": b.name, "p": f"b{n}_", "field": f"b{n}_tile", "tile": v(f"b{n}_tile"),
         "tile_chips": tile(f"b{n}_"), "problems": problems_of(f"b{n}_")}
        for n, b in enumerate(sheet.bettors)
    ]  # fmt: skip
    rows = tuple(r["p"] for r in (*winners, *kongs, *false_wins, *draw, *bettors))
    dealer = v("dealer")
    if not dealer and sheet.next_dealer is not None:
        dealer = str(sheet.next_dealer)
    return {
        "seats": seats,
        "people": people,
        "dealer": dealer,
        "dealer_chips": chips("dealer", people, dealer),
        "patterns": [item(p.name, p.code, value_words(unit, p.value)) for p in menu.patterns],
        "waits": [
            item(p.name, p.code, value_words(unit, p.value)) for p in menu.patterns if p.wait
        ],
        "extras": [item(e.name, e.code, steps(e.steps)) for e in menu.extras],
        "situations": [item(x.name, x.code, steps(x.steps)) for x in menu.situations],
        "roots": [str(r) for r in forms.ROOTS],
        "ranks": forms.RANKS,
        "suits": list(SUITS.items()),
        "kong_kinds": list(KONG_KINDS.items()),
        "draw_states": [(d.code, words(d.name)) for d in menu.draw],
        "winners": winners,
        "kongs": kongs,
        "draw": draw,
        "draw_open": any(_holds(values, d["p"]) or d["problems"] for d in draw),
        "kongs_open": any(k["open"] for k in kongs),
        "false_wins": false_wins,
        "false_wins_open": any(f["open"] for f in false_wins),
        "bettor_tiles": bettors,
        "after_choices": after_choices,
        # what no row shows (the dealer …), and the empty form's "enter a winner"
        "general_problems": list(
            dict.fromkeys(m for f, m in wrong if f == "w1_seat" or not f.startswith(rows))
        ),  # fmt: skip
    }


def _after_words(a: int) -> str:
    if a == 0:
        return _("before the first win")
    return _("after winner %(n)s") % {"n": a}


def placed_errors(exc: ServiceError, places: dict[str, str]) -> tuple[list, list[str]]:
    """A refusal of a hand the form built, in words: each problem whose path names a row of
    the form (``places``, :func:`pages.tables.forms.field_of`) beside that row's field, the
    rest as lines above the form — and then a line saying where to look, for a phone whose
    screen shows the top of the form only."""
    problems, errors = [], []
    for item in service_error_items(exc):
        text = str(ERROR_TEXT.get(item["code"], item["message"]))
        field = forms.field_of(places, item["path"])
        if field is None:
            errors.append(text)
        else:
            problems.append(forms.FormProblem(field, text))
    if problems and not errors:
        errors.append(_("The hand was not saved: see the marked parts of the form below."))
    return problems, errors


# --- the sheet's words ----------------------------------------------------------------------


def _names(sheet: selectors.TableSheet) -> tuple[dict[int, str], dict[str, str]]:
    """The seats' names and the patterns' names in the page's language."""
    names = {s.number: s.player.name for s in sheet.seats}
    menu = selectors.declaration_menu(sheet.session.ruleset)
    return names, {p.code: words(p.name) for p in menu.patterns}


def _win_words(sheet, row: selectors.SheetRow, names=None, menu=None) -> list[str]:
    """A hand's wins and false wins (诈胡), a phrase each, in the order they happened: 小李：
    清一色 1根，自摸 / Li: Pure one suit + 1 root, from Zhang; 王姐：诈胡，付给每位未胡的玩家 8;
    and the draw, when the wall ran out."""
    if names is None:
        names, menu = _names(sheet)
    # the whole settlement is read for a hand with a false win only: its payments say it
    fouls = false_win_lines(row.settlement, names) if row.false_wins else []
    events = [w.event for w in row.wins]
    lines = list(zip(events, _wins_said(row, names, menu), strict=True))
    out = [text for _, text in sorted(lines + fouls, key=lambda line: line[0])]
    if row.drawn:
        out.append(_("Draw: the wall ran out"))
    return out


def _wins_said(row: selectors.SheetRow, names, menu) -> list[str]:
    out = []
    for w in row.wins:
        what = menu.get(w.pattern) or w.pattern
        if w.roots:
            what = _("%(pattern)s + %(roots)s") % {"pattern": what, "roots": roots_text(w.roots)}
        winner = names.get(w.seat)
        if w.from_ is None:
            out.append(_("%(winner)s: %(what)s, self-drawn") % {"winner": winner, "what": what})
        else:
            out.append(
                _("%(winner)s: %(what)s, from %(name)s")
                % {"winner": winner, "what": what, "name": names.get(w.from_)}
            )
    return out


# --- the table ---------------------------------------------------------------------------------


def running_chart(sheet: selectors.TableSheet) -> charts.LineChart | None:
    """Each seat's running total after every live hand, a line per seat from 0 (None for a
    table without hands). A hand held by the confirmation rule is not on it yet."""
    live = [r for r in sheet.live_rows if r.running is not None]
    if not live:
        return None
    series = []
    for i, seat in enumerate(sheet.seats):
        points = [(0.0, 0.0)] + [(float(r.hand.number), float(r.running[i])) for r in live]
        total = live[-1].running[i]
        label = f"{WINDS[seat.number]} {seat.player.name} {charts.signed(total)}"
        series.append(charts.Series(label, points))
    numbers = [0] + [r.hand.number for r in live]
    low = min(v for r in live for v in r.running[: len(sheet.seats)])
    high = max(v for r in live for v in r.running[: len(sheet.seats)])
    return charts.line_chart(
        series,
        title=_("Running totals, hand by hand"),
        desc=ngettext(
            "Each seat's total after every hand, from 0 before the first: %(n)s hand, "
            "lowest %(low)s, highest %(high)s.",
            "Each seat's total after every hand, from 0 before the first: %(n)s hands, "
            "lowest %(low)s, highest %(high)s.",
            len(live),
        )
        % {"n": len(live), "low": charts.signed(min(low, 0)), "high": charts.signed(max(high, 0))},
        x_label=_("Hand"),
        y_label=_("Total"),
        zero=0.0,
        x_ticks=None if len(numbers) > 12 else [(float(n), str(n)) for n in numbers],
        y_format=charts.signed,
        id="running-chart",
    )


def _players_link(request: HttpRequest, session: TableSession) -> dict[str, Any] | None:
    """The players' link and its QR code, for the scorer to show the table (once made)."""
    if not session.guest_key or not session.is_open:
        return None
    url = request.build_absolute_uri(reverse("page-players-link", args=[session.guest_key]))
    return {"url": url, "qr": qr_svg(url)}


def _race(session: TableSession, number: int) -> dict[str, Any] | None:
    """Another phone saved hand ``number`` first: what it says, for the scorer to choose —
    the same hand (nothing to do), his is the next one (save it as such), or hand ``number``
    is wrong (correct it)."""
    sheet = selectors.table_sheet(session)
    row = next((r for r in sheet.rows if r.hand.number == number), None)
    if row is None:
        return None
    return {"number": number, "wins": _win_words(sheet, row),
            "url": reverse("page-hand", args=[session.pk, number]),
            "edit": reverse("page-hand-edit", args=[session.pk, number])}  # fmt: skip


# --- the parts every visitor sees alike ----------------------------------------------------------


@dataclass(frozen=True)
class TableParts:
    """What the table page shows alike to every visitor, computed from the table's data:
    the totals, the 流水 sheet's rows and the running chart rendered, where each hand stands
    and its confirmation boxes (without the visitor's own form), and the empty hand form
    rendered (an open table without a final result). Kept in the cache by :func:`table_parts`."""

    seat_totals: tuple[int, ...]
    bettor_totals: tuple[int, ...]
    next_number: int
    next_dealer: int | None
    has_rows: bool
    #: the hands the sheet holds (deleted ones included), beyond :data:`SHEET_LATEST` of which
    #: it shows the newest only unless asked for all
    row_count: int
    has_live: bool
    has_results: bool
    sheet_body: SafeString
    chart: SafeString | None
    confirming: dict[str, Any]
    form: SafeString | None
    seats: tuple  # the seats with their players, the bettors: read with the rest
    bettors: tuple


class PageSheet(NamedTuple):
    """The sheet as the table page's template and hand form read it: the session's seats and
    bettors (read with it) and the parts' figures."""

    session: TableSession
    seats: list
    bettors: list
    seat_totals: tuple[int, ...]
    bettor_totals: tuple[int, ...]
    next_number: int
    next_dealer: int | None
    results: bool
    live_rows: bool
    rows: bool


#: a change to what the parts hold or how they are drawn: a new name, so no part drawn by the
#: code before is read (the version of the data, not this, keeps them right)
PARTS = "table-parts-5"
#: the parts with what they hold drawn (the sheet, the chart, the form), kept apart: a read
#: whose body is kept drawn (``MAIN``) needs the rest only
PARTS_DRAWN = "table-parts-drawn-3"
#: the hands the 流水 sheet shows, newest first, unless asked for all (``?hands=all``): more
#: than an evening's table plays, so a club's tables show every hand; a marathon table's
#: phones are not sent hundreds of rows at each hand (the totals and chart count them all)
SHEET_LATEST = 50


def table_parts(session: TableSession) -> TableParts:
    """The parts of the table page at the current version of its data: the session's
    ``data_version`` (every write to its hands, results and seats), the newest word said about
    its hands (a word that moves no total moves no version), and what is read with the session
    and shown in the parts without a version of its own (the players' names, the
    confirmation rule, open or locked). Never stale: each of these is in the key."""
    version, digest = _parts_key(session)
    return readcache.versioned(
        PARTS, version, lambda: _table_parts(session, every_row=True),
        parts=(get_language(), digest),
    )  # fmt: skip


def _parts_key(session: TableSession) -> tuple[str, str]:
    """:func:`table_parts`' key: the version of the table's data, and a digest of what the
    parts show that has no version of its own."""
    head = getattr(session, "head_read", None)  # read with the session (the page's GET)
    read = head.read_version if head is not None else None
    if read is None:
        read = selectors.session_read_version(session.pk)
    seen = (session.status, session.lock_code, selectors.confirmation_rule_of(session), read.names)
    version = ":".join(
        str(v)
        for v in (session.pk, session.created_at.timestamp(), session.data_version, read.words)
    )
    return version, hashlib.blake2b(repr(seen).encode(), digest_size=12).hexdigest()


def _table_parts(session: TableSession, *, every_row: bool) -> TableParts:
    sheet = selectors.table_sheet(selectors.session_seated(session))
    names, menu = _names(sheet)
    confirming = confirm.table_confirmations(session, sheet)
    states = confirming.pop("hand_states")
    hand_url = reverse("page-hand", args=[session.pk, 0])  # …/hands/0/: the rows' links
    rows = [
        {"row": r, "wins": _win_words(sheet, r, names, menu),
         "url": f"{hand_url[:-2]}{r.hand.number}/", "state": states.get(r.hand.pk, "")}
        for r in reversed(sheet.rows if every_row else sheet.rows[-SHEET_LATEST:])
    ]  # fmt: skip
    chart = running_chart(sheet)
    form = None
    if session.is_open and not session.lock_code and not sheet.results:
        form = _form_html(session, sheet)
    return TableParts(
        seat_totals=tuple(sheet.seat_totals),
        bettor_totals=tuple(sheet.bettor_totals),
        next_number=sheet.next_number,
        next_dealer=sheet.next_dealer,
        has_rows=bool(rows),
        row_count=len(sheet.rows),
        has_live=bool(sheet.live_rows),
        has_results=bool(sheet.results),
        sheet_body=sheet_rows(
            rows,
            declared_title=_("Declared, not checked by tiles"),
            declared_mark=_("decl."),
            deleted_words=_("Deleted: %(reason)s"),
        ),  # fmt: skip
        chart=None if chart is None else mark_safe(chart.svg()),  # noqa: S308 - escaped there
        confirming=confirming,
        form=form,
        seats=tuple(sheet.seats),
        bettors=tuple(sheet.bettors),
    )


#: where the drawn hand form holds the visitor's CSRF token (the tile pickers ask the engine
#: with it): put in per request, the form being every scorer's
CSRF_MARK = frame.CSRF_MARK


def _form_html(session: TableSession, sheet) -> SafeString:
    """The empty hand form, drawn: the tile picker's words and script are left to the page
    (written per request, their address may change with a release), and so is the CSRF
    token (``CSRF_MARK``)."""
    context = Context(
        {"form": _form_context(sheet, {}, ()), "session": session, "csrf_token": CSRF_MARK}
    )
    context._tile_picker_written = True  # (pages.templatetags.tile_picker.tile_picker_once)
    return get_template("pages/tables/hand_form.html").template.render(context)


#: the table page's body drawn (``pages/tables/session_main.html``), as :func:`_page` keeps it
MAIN = "table-main-3"


def _main_key(session: TableSession, parts_digest: str, context: dict[str, Any]) -> str:
    """A digest of all the table page's body shows beside the parts' version: the session's
    and its club's rows, what the visitor may do there, the players' link (its address names
    the host), the evening, the sheet's rows shown (the newest or all), the visitor's own
    confirmation forms, and the release (templates and static files). Nothing of the visitor
    but these: no name, no token."""
    seen = (
        parts_digest, frame.row_of(session), frame.row_of(session.club), context["ruleset_title"],
        context["can_score"], context["can_organise"], context["can_record"],
        context["players_link"]["url"] if context["players_link"] else None,
        context["evening_day"], [box["form"] for box in context["confirm_boxes"]],
        context["rows_left_out"], context["rows_every"], frame.release(),
    )  # fmt: skip
    return hashlib.blake2b(repr(seen).encode(), digest_size=16).hexdigest()


def _main_html(context: dict[str, Any]) -> bytes:
    """The body drawn with the CSRF token's mark where each visitor's goes, as the answer's
    bytes: kept so, it is put in the drawn frame as it is (a table of 400 hands is some 400 kB:
    decoding and encoding it again each read cost more than the rest of its frame)."""
    drawn = get_template("pages/tables/session_main.html").render(
        {**context, "csrf_token": CSRF_MARK}
    )
    return drawn.encode()


def _page(request, session, *, values=None, problems=(), errors=(), status=200, race=None):
    version, parts_digest = _parts_key(session)
    key = (get_language(), parts_digest)
    every_row = request.GET.get("hands") == "all"
    drawn_key = (*key, every_row)
    built: list[TableParts] = []

    def build() -> TableParts:  # once a request, whichever of the two entries misses
        if not built:
            built.append(_table_parts(session, every_row=every_row))
            readcache.versioned(PARTS_DRAWN, version, lambda: built[0], parts=drawn_key)
        return built[0]

    # what every read needs, apart from what is drawn (the sheet, the chart, the form: large
    # with the hands), which a read whose body is kept drawn does not fetch
    parts = readcache.versioned(
        PARTS, version, lambda: replace(build(), sheet_body=SafeString(""), chart=None, form=None),
        parts=key, local=True,
    )  # fmt: skip

    def drawn() -> TableParts:
        return readcache.versioned(PARTS_DRAWN, version, build, parts=drawn_key)

    seats, bettors = list(parts.seats), list(parts.bettors)
    sheet = PageSheet(
        session, seats, bettors, parts.seat_totals, parts.bettor_totals, parts.next_number,
        parts.next_dealer, parts.has_results, parts.has_live, parts.has_rows,
    )  # fmt: skip
    can_score = _can(request, session, Role.SCORER)
    confirming = dict(parts.confirming)
    confirming["confirm_boxes"] = confirm.with_forms(
        request, session, confirming["confirm_boxes"], seats
    )
    context = {
        "session": session,
        "sheet": sheet,
        "ruleset_title": words(Name(**session.ruleset.description["title"])),
        "mode_words": MODES.get(session.mode, session.mode),
        "winds": WINDS,
        "seat_rows": [
            {"seat": s, "wind": WINDS[s.number], "total": t,
             "dealer": session.is_open and sheet.next_dealer == s.number}
            for s, t in zip(seats, sheet.seat_totals, strict=True)
        ],
        "bettor_rows": list(zip(bettors, sheet.bettor_totals, strict=True)),
        "rows": parts.has_rows,
        # the sheet's newest hands only: how many it leaves out (0: it shows every one)
        "rows_left_out": 0 if every_row else max(0, parts.row_count - SHEET_LATEST),
        "rows_every": every_row and parts.row_count > SHEET_LATEST,
        "row_count": parts.row_count,
        "sheet_latest": SHEET_LATEST,
        "sheet_body": None,  # drawn: below
        "can_score": can_score,
        "can_organise": _can(request, session, Role.ORGANISER),
        "can_record": can_score and session.is_open and not session.lock_code
        and not sheet.results,
        "errors": list(errors),
        "race": race,
        "players_link": _players_link(request, session) if can_score else None,
        "next_dealer_name": None,
        "running_chart": None,
        # a club table's evening, whose share card the page links (tournament tables: none)
        "evening_day": selectors.session_day(session)
        if session.kind == SessionKind.CLUB else None,
        **confirming,
    }  # fmt: skip
    if session.kind == SessionKind.TOURNAMENT and session.is_open:
        # the round's clock, with the time this table was given of its own
        found = tournament_selectors.table_clock(session.pk)
        if found is not None:
            context["clock"] = clock_shown(found[0], timezone.now(), found[1])
    if sheet.next_dealer is not None:
        context["next_dealer_name"] = seats[sheet.next_dealer].player.name
    saved = whole_number(request.GET.get("saved", ""))
    if saved is not None:
        context["saved"] = _saved(session, saved, confirming["confirm_boxes"], seats)
    # a plain read (no form sent back, no hand just saved, no clock running) draws the body
    # alike for every visitor who may do the same there: kept under the parts' version
    plain = not (values or problems or errors or race) and status == 200
    plain = plain and "saved" not in context and "clock" not in context
    if context["can_record"] and (values or problems):
        context["form"] = _form_context(sheet, values or {}, problems)

    def with_drawn() -> dict[str, Any]:
        whole = drawn()
        context.update(sheet_body=whole.sheet_body, running_chart=whole.chart)
        if context["can_record"] and not (values or problems):
            context["form_html"] = whole.form if plain else frame.with_token(request, whole.form)
        return context

    if not plain:
        frame_context = with_drawn()
        frame_context["live_follow"] = follow(table_channel(session.pk))
        return render(request, "pages/tables/session.html", frame_context, status=status)
    # kept in the process too: read at every hand by each phone at the table, and the key
    # names one version of everything it shows
    main = readcache.versioned(
        MAIN, version, lambda: _main_html(with_drawn()),
        parts=(get_language(), _main_key(session, parts_digest, context)), local=True,
    )  # fmt: skip
    live_follow = follow(table_channel(session.pk))
    return frame.page(
        request, "pages/tables/session.html", {"session": session, "live_follow": live_follow},
        main, seen=(session.club.name, live_follow), status=status,
    )  # fmt: skip


def _saved(session: TableSession, number: int, boxes: list[dict], seats) -> dict[str, Any] | None:
    """The hand just saved, in words: the latest hand's box has them (the usual case), else
    they are read."""
    box = next((b for b in boxes if b["hand"].number == number), None)
    if box is not None:
        return {"hand": box["hand"], "words": box["words"], "payments": box["payments"]}
    hand = selectors.hand_in_session(session, number)
    if hand is None or hand.is_deleted:
        return None
    names = {s.number: s.player.name for s in seats}
    return {"hand": hand, "words": words_of_view(selectors.hand_view(hand), seats=names)}


def _same_hand(session: TableSession, number: int, record: dict) -> bool:
    """Whether hand ``number`` is already stored with this record (a second tap or the back
    button sent the same form again)."""
    hand = selectors.hand_in_session(session, number)
    if hand is None or hand.is_deleted:
        return False
    keys = ("events", "draw", "bettors")
    same = all((hand.record.get(k) or None) == (record.get(k) or None) for k in keys)
    return same and record.get("dealer", hand.dealer) == hand.dealer


@table_view(read=None, write=Role.SCORER, card=True, guest=True, light=True)
def session_page(request: HttpRequest, session: TableSession) -> HttpResponse:
    """The table; a POST records a hand from the hand form."""
    if request.method != "POST":
        return _page(request, session)
    names = [b.name for b in session.bettors.all()]
    record, problems, places = forms.read_hand_form(request.POST, bettors=names)
    values = _values(request.POST)
    if problems:
        return _page(request, session, values=values, problems=problems, status=400)
    url = reverse("page-session", args=[session.pk])
    try:
        view = hand_services.hand_record(session=session, data=record, user=author(request))
    except ServiceError as e:
        number = record.get("number")
        if e.code == "hand_exists" and number and _same_hand(session, number, record):
            messages.info(request, _("This hand was already saved."))
            return redirect(f"{url}?saved={number}#saved")
        problems, errors = placed_errors(e, places)
        race = _race(session, number) if e.code == "hand_exists" and number else None
        if race is not None:
            errors = []  # the notice says it, with the hand that was saved
        return _page(request, session, values=values, problems=problems, errors=errors,
                     status=409 if race else 400, race=race)  # fmt: skip
    messages.success(request, _("Hand %(n)s saved.") % {"n": view.hand.number})
    return redirect(f"{url}?saved={view.hand.number}#saved")


# --- one hand ----------------------------------------------------------------------------------


def _hand_or_404(session: TableSession, number: int):
    hand = selectors.hand_in_session(session, number)
    if hand is None:
        raise Http404
    return hand


@table_view(read=None, methods=("GET",), card=True, guest=True)
def hand_page(request: HttpRequest, session: TableSession, number: int) -> HttpResponse:
    """One hand: its wins and payments in words, its history, and (for a scorer) delete."""
    hand = _hand_or_404(session, number)
    sheet = selectors.table_sheet(session)
    row = next(r for r in sheet.rows if r.hand.pk == hand.pk)
    stored = list(selectors.hand_revisions(hand))
    revisions = [(r, changed_words(r.changes)) for r in stored]
    names = {s.number: s.player.name for s in sheet.seats}
    detail = hand_detail(selectors.hand_tiles(hand, session.ruleset), names)
    said = list(selectors.hand_confirmations(hand))
    found = None if hand.is_deleted else selectors.hand_standing(session, hand, said)
    return render(
        request,
        "pages/tables/hand.html",
        {
            "session": session,
            "hand": hand,
            "wins": _win_words(sheet, row),
            "verified": row.verified,
            "words": words_of_view(selectors.hand_view(hand), seats=names),
            "detail": detail,
            "nets": list(zip(sheet.seats, row.nets, strict=True)),
            "revisions": revisions,
            "can_change": _can(request, session, Role.SCORER)
            and session.is_open
            and not session.lock_code
            and not hand.is_deleted,
            "errors": [],
            "confirm_box": confirm.hand_box(request, session, hand, found),
            "can_resolve": found is not None
            and (found.held or found.is_disputed)
            and session.is_open
            and not session.lock_code
            and selectors.has_role(request.user, session.club, Role.REFEREE),
            "word_history": confirm.history_of(stored, said, names),
        },
    )


@table_view(read=Role.SCORER, write=Role.SCORER, card=True)
def hand_edit(request: HttpRequest, session: TableSession, number: int) -> HttpResponse:
    """Correct a hand in the hand form (re-settled; the earlier revision is kept)."""
    hand = _hand_or_404(session, number)
    if hand.is_deleted:
        raise Http404
    names = [b.name for b in session.bettors.all()]
    sheet = selectors.table_sheet(session)
    errors, problems = [], []
    found = selectors.session_standings(session).get(hand.pk)
    # an organiser or referee correcting a disputed (or held) hand may make it his ruling
    resolver = (
        found is not None
        and (found.held or found.is_disputed)
        and selectors.has_role(request.user, session.club, Role.REFEREE)
    )
    if request.method == "POST":
        values = _values(request.POST)
        record, problems, places = forms.read_hand_form(request.POST, bettors=names)
        record.pop("number", None)
        record.setdefault("dealer", hand.dealer)
        for key in NOT_ON_THE_FORM:  # kept as stored: the form cannot say them
            if key in hand.record:
                record.setdefault(key, hand.record[key])
        reason = request.POST.get("reason", "")
        revision = request.POST.get("revision", "")
        if not problems and revision != str(hand.revision):
            if _same_hand(session, number, record):  # the same correction sent twice
                return redirect("page-hand", pk=session.pk, number=number)
            errors = [_("Someone changed this hand meanwhile: check it and correct again.")]
        elif not problems:
            try:
                if request.POST.get("resolves") and resolver:  # a ruling: it counts at once
                    hand_services.hand_resolve(
                        hand=hand, data=record, user=author(request), reason=reason
                    )
                else:
                    hand_services.hand_correct(
                        hand=hand,
                        data=record,
                        user=author(request),
                        reason=reason,
                        reason_required=True,
                    )
            except ServiceError as e:
                problems, errors = placed_errors(e, places)
            else:
                messages.success(request, _("Hand %(n)s corrected.") % {"n": number})
                return redirect("page-hand", pk=session.pk, number=number)
    else:
        values = forms.form_from_record(hand.record, bettors=names)
        reason = ""
    values.setdefault("dealer", str(hand.dealer))
    form = _form_context(sheet, values, problems)
    asked = request.POST if request.method == "POST" else request.GET
    resolves = resolver and bool(asked.get("resolves"))
    return render(
        request,
        "pages/tables/hand_edit.html",
        {
            "session": session,
            "hand": hand,
            "form": form,
            "errors": errors,
            "reason": reason,
            "resolver": resolver,
            "resolves": resolves,
        },  # fmt: skip
        status=400 if errors or problems else 200,
    )


@table_view(write=Role.SCORER, methods=("POST",), card=True)
def hand_delete(request: HttpRequest, session: TableSession, number: int) -> HttpResponse:
    """Delete a hand with a reason (its history stays)."""
    hand = _hand_or_404(session, number)
    if hand.is_deleted:  # sent twice
        return redirect("page-session", pk=session.pk)
    try:
        hand_services.hand_delete(
            hand=hand, reason=request.POST.get("reason", ""), user=author(request)
        )
    except ServiceError as e:
        for line in error_messages(e):
            messages.error(request, line)
        return redirect("page-hand", pk=session.pk, number=number)
    messages.success(request, _("Hand %(n)s deleted.") % {"n": number})
    return redirect("page-session", pk=session.pk)


# --- the table as a whole ----------------------------------------------------------------------


@table_view(write=Role.SCORER, methods=("POST",))
def session_close(request: HttpRequest, session: TableSession) -> HttpResponse:
    session_services.session_close(session=session)
    messages.success(request, _("The table is closed."))
    return redirect("page-session", pk=session.pk)


@table_view(write=Role.ORGANISER, methods=("POST",))
def session_reopen(request: HttpRequest, session: TableSession) -> HttpResponse:
    try:
        session_services.session_reopen(session=session)
    except ServiceError as e:
        for line in error_messages(e):
            messages.error(request, line)
    else:
        messages.success(request, _("The table is open again."))
    return redirect("page-session", pk=session.pk)


@table_view(read=Role.SCORER, write=Role.SCORER)
def session_result(request: HttpRequest, session: TableSession) -> HttpResponse:
    """A final result instead of hands: a total per seated player and per bettor, summing to
    zero."""
    sheet = selectors.table_sheet(session)
    entered = {("p", r.player_id) if r.player_id else ("b", r.bettor_id): r.total
               for r in sheet.results}  # fmt: skip
    rows = [
        {"key": f"p{s.player_id}", "label": f"{WINDS[s.number]} · {s.player.name}",
         "value": entered.get(("p", s.player_id), "")}
        for s in sheet.seats
    ] + [
        {"key": f"b{b.pk}", "label": _("Bettor %(name)s") % {"name": b.name},
         "value": entered.get(("b", b.pk), "")}
        for b in sheet.bettors
    ]  # fmt: skip
    errors = []
    if request.method == "POST":
        totals, wrong = [], False
        for row in rows:
            text = request.POST.get(row["key"], "").strip()
            row["value"] = text
            try:
                amount = int(text)
            except ValueError:
                row["error"] = _("A whole number, like 12 or -8.")
                wrong = True
                continue
            kind = "player" if row["key"][0] == "p" else "bettor"
            totals.append({kind: int(row["key"][1:]), "total": amount})
        if not wrong:
            try:
                session_services.session_result_enter(
                    session=session, totals=totals, user=request.user
                )
            except ServiceError as e:
                errors = error_messages(e)
            else:
                messages.success(request, _("The final result is saved."))
                return redirect("page-session", pk=session.pk)
        else:
            errors = [_("Give every total as a whole number.")]
    return render(
        request,
        "pages/tables/result.html",
        {"session": session, "rows": rows, "errors": errors},
        status=400 if errors else 200,
    )
