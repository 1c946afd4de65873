"""CSV import for clubs moving from spreadsheets: their players, and their evenings' results.

Two kinds of file, told apart by their header (English or Chinese column names, any order):

* **players** — ``name`` (名字, 姓名), ``pinyin`` (拼音, optional): one new player a row, who
  joins the club as a member. The pinyin is not stored (every name is found by its pinyin
  anyway, ``clubs.pinyin``); where given it checks the name: 张三 with ``zhang san`` is right,
  with ``zhang shan`` the row is refused (a character mistyped). A name that is already a
  player of the club is not added again.
* **results** — ``date`` (日期), ``table`` (桌号), ``player1`` … ``player4`` (玩家1–4) in seat order
  with ``total1`` … ``total4`` (得分1–4), and optional 叫马 bettors ``bettor1`` … ``bettor8``
  (叫马1–8) with ``bettor1_total`` … (叫马1得分 …): one finished table a row, entered as final
  totals (``clubs.services.sessions.session_result_enter``) and closed. The players are the
  club's, by name; a bettor who is not a player of the club is a guest. The totals of a row
  sum to zero. A table starts at 19:00 on its date in the club's time zone, with the note
  ``#<table>``; the same table of the same date is not imported twice.

Every row is checked before anything is stored; a file with a bad row stores nothing, and the
answer lists every bad row: its line (the header is line 1), its column, why. ``dry_run``
checks and stores nothing whatever. Files are bounded: ``MAX_BYTES`` and ``MAX_ROWS``.
Messages are English (the command prints them); a page says the same in the reader's language
from each problem's ``code`` and ``value``.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from django.db import transaction

from clubs.limits import SCORE
from clubs.models import Club, Membership, TableSession
from clubs.pinyin import pinyin_keys
from clubs.selectors import club_today
from clubs.services.clubs import player_create
from clubs.services.sessions import session_close, session_create, session_result_enter
from core.csvcells import formula_problem
from core.errors import ServiceError

#: the largest file taken (a results file of about 2,000 tables); a page's form carries the
#: file again to import it after its preview, within REQUEST_MAX_BYTES (256 KB)
MAX_BYTES = 200 * 1024
#: the most data rows a file may have
MAX_ROWS = 2000
#: the most 叫马 bettors of a table (the engine's bound)
MAX_BETTORS = 8
#: the longest name a player or a guest bettor has (``Player.name``, ``Bettor.guest_name``)
NAME_LENGTH = 80
#: a cell's text repeated in a problem, at most
VALUE_LENGTH = 40
#: when an imported table starts on its date, in the club's time zone
EVENING = time(19, 0)
FIRST_YEAR, LAST_YEAR = 1900, 2200

PLAYERS, RESULTS = "players", "results"

_ALIASES = {
    "name": "name", "名字": "name", "姓名": "name", "玩家": "name",
    "pinyin": "pinyin", "拼音": "pinyin",
    "date": "date", "日期": "date",
    "table": "table", "桌号": "table", "桌": "table",
}  # fmt: skip
for _n in range(1, 5):
    _ALIASES |= {f"player{_n}": f"player{_n}", f"玩家{_n}": f"player{_n}",
                 f"total{_n}": f"total{_n}", f"得分{_n}": f"total{_n}"}  # fmt: skip
for _n in range(1, MAX_BETTORS + 1):
    _ALIASES |= {f"bettor{_n}": f"bettor{_n}", f"叫马{_n}": f"bettor{_n}",
                 f"bettor{_n}_total": f"bettor{_n}_total",
                 f"叫马{_n}得分": f"bettor{_n}_total"}  # fmt: skip

PLAYER_COLUMNS = ("name", "pinyin")
RESULT_COLUMNS = ("date", "table", *(f"{k}{n}" for n in range(1, 5) for k in ("player", "total")))
BETTOR_COLUMNS = tuple(
    c for n in range(1, MAX_BETTORS + 1) for c in (f"bettor{n}", f"bettor{n}_total")
)


@dataclass(frozen=True)
class RowProblem:
    """A bad row: its line in the file (the header is line 1), the column as the file names it
    (empty: the row, or the file, as a whole), a stable code, an English message, and the text
    a page needs to say it in words (a cell, a sum, a line)."""

    line: int
    column: str
    code: str
    message: str
    value: str = ""


@dataclass(frozen=True)
class ResultSeat:
    name: str
    total: int


@dataclass(frozen=True)
class ResultRow:
    """A table of the results file, as it will be stored."""

    line: int
    day: date
    table: int
    seats: tuple[ResultSeat, ...]
    bettors: tuple[ResultSeat, ...]


@dataclass
class CsvImport:
    """What a file holds and what happened to it. ``stored``: written (never on a dry run, nor
    when a row is bad)."""

    kind: str
    rows: int = 0
    problems: list[RowProblem] = field(default_factory=list)
    new_players: list[str] = field(default_factory=list)
    known_players: list[str] = field(default_factory=list)
    tables: list[ResultRow] = field(default_factory=list)
    stored: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems


def _short(text: str) -> str:
    return text if len(text) <= VALUE_LENGTH else text[: VALUE_LENGTH - 1] + "…"


def decode(data: bytes) -> str | None:
    """A spreadsheet's CSV as text: UTF-8 (with or without Excel's BOM), else GB 18030 (what
    a Chinese Excel saves); None when it is neither."""
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None


class _Reader:
    def __init__(self, text: str) -> None:
        self.problems: list[RowProblem] = []
        first = text.split("\n", 1)[0]
        delimiter = "\t" if "\t" in first and "," not in first else ","
        self.rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
        self.header: list[str] = [c.strip() for c in self.rows[0]] if self.rows else []
        self.columns: dict[str, int] = {}  # canonical name → index
        self.names: dict[str, str] = {}  # canonical name → as the file writes it

    def bad(self, line: int, column: str, code: str, message: str, value: str = "") -> None:
        self.problems.append(RowProblem(line, column, code, message, _short(value)))

    def read_header(self, allowed: tuple[str, ...]) -> None:
        for i, name in enumerate(self.header):
            canonical = _ALIASES.get(name.lower())
            if not name:
                continue
            if canonical is None or canonical not in allowed:
                self.bad(1, name, "unknown_column", f"unknown column {name!r}", name)
            elif canonical in self.columns:
                self.bad(1, name, "duplicate_column", f"the column {name!r} appears twice", name)
            else:
                self.columns[canonical] = i
                self.names[canonical] = name

    def cell(self, row: list[str], canonical: str) -> str:
        i = self.columns.get(canonical)
        return row[i].strip() if i is not None and i < len(row) else ""

    def column(self, canonical: str) -> str:
        return self.names.get(canonical, canonical)

    def data(self):
        """The data rows with their line numbers (a blank row is skipped)."""
        for n, row in enumerate(self.rows[1:], start=2):
            if any(c.strip() for c in row):
                yield n, row


def kind_of(header: list[str]) -> str | None:
    names = {_ALIASES.get(c.strip().lower()) for c in header}
    if "date" in names or "player1" in names:
        return RESULTS
    if "name" in names:
        return PLAYERS
    return None


def _text_problem(text: str) -> str | None:
    if len(text) > NAME_LENGTH:
        return f"at most {NAME_LENGTH} characters"
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text):
        return "a control character"
    return None


_SQUASH = re.compile(r"[\s\-_'’·.]+")


def _plain_pinyin(text: str) -> str:
    """``Zhāng Sān`` → ``zhangsan``: no tones, no spaces, lower case, ü as v."""
    text = text.lower().replace("ü", "v").replace("u:", "v")
    stripped = "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)
    )
    return _SQUASH.sub("", stripped)


def _pinyin_matches(name: str, pinyin: str) -> tuple[bool, str]:
    fulls, _ = pinyin_keys(name)
    given = _plain_pinyin(pinyin)
    readings = {f.replace("ü", "v") for f in fulls}
    return given in readings, fulls[0]


def _check_players(reader: _Reader, club: Club, result: CsvImport) -> None:
    reader.read_header(PLAYER_COLUMNS)
    if "name" not in reader.columns:
        reader.bad(1, "", "missing_column", "the file needs a column name (名字)", "name")
        return
    known = set(club.memberships.values_list("player__name", flat=True))
    seen: dict[str, int] = {}
    for line, row in reader.data():
        result.rows += 1
        name = reader.cell(row, "name")
        column = reader.column("name")
        if not name:
            reader.bad(line, column, "required", "a player needs a name")
            continue
        why = _text_problem(name)
        if why:
            reader.bad(line, column, "invalid_name", f"a name of {why}", name)
            continue
        if why := formula_problem(name):
            reader.bad(line, column, "formula_name", why, name)
            continue
        pinyin = reader.cell(row, "pinyin")
        if pinyin:
            ok, reading = _pinyin_matches(name, pinyin)
            if not ok:
                message = f"{pinyin!r} is not how {name} reads ({reading})"
                reader.bad(line, reader.column("pinyin"), "pinyin_mismatch", message, reading)
        if name in seen:
            message = f"{name} is already on line {seen[name]}"
            reader.bad(line, column, "duplicate_name", message, str(seen[name]))
            continue
        seen[name] = line
        (result.known_players if name in known else result.new_players).append(name)


def _integer(text: str, low: int, high: int) -> int | None:
    if not re.fullmatch(r"[+-]?\d{1,10}", text.replace(" ", "")):
        return None
    value = int(text.replace(" ", ""))
    return value if low <= value <= high else None


def _day(text: str) -> date | None:
    m = re.fullmatch(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})", text)
    if not m:
        return None
    try:
        day = date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None
    return day if FIRST_YEAR <= day.year <= LAST_YEAR else None


def _check_results(reader: _Reader, club: Club, result: CsvImport) -> None:
    reader.read_header(RESULT_COLUMNS + BETTOR_COLUMNS)
    missing = [c for c in RESULT_COLUMNS if c not in reader.columns]
    for c in missing:
        reader.bad(1, "", "missing_column", f"the file needs a column {c}", c)
    for n in range(1, MAX_BETTORS + 1):
        if (f"bettor{n}" in reader.columns) != (f"bettor{n}_total" in reader.columns):
            message = f"bettor{n} and bettor{n}_total go together"
            reader.bad(1, "", "missing_column", message, f"bettor{n}_total")
    if reader.problems:
        return
    names: dict[str, list[Membership]] = {}
    for m in club.memberships.select_related("player"):
        names.setdefault(m.name, []).append(m)
        if m.display_name and m.player.name != m.display_name:
            names.setdefault(m.player.name, []).append(m)
    today = club_today(club)
    zone = ZoneInfo(club.time_zone)
    done = set(
        club.sessions.filter(kind=TableSession.Kind.CLUB, notes__startswith="#").values_list(
            "started_at", "notes"
        )
    )
    seen: dict[tuple[date, int], int] = {}
    for line, row in reader.data():
        result.rows += 1
        before = len(reader.problems)
        col = reader.column
        text = reader.cell(row, "date")
        day = _day(text)
        if day is None:
            message = "a date such as 2025-03-01, between 1900 and 2200"
            reader.bad(line, col("date"), "invalid_date", message, text)
        elif day > today:
            reader.bad(line, col("date"), "date_in_future", "this date has not come yet", text)
        text = reader.cell(row, "table")
        table = _integer(text, 1, 1000)
        if table is None:
            reader.bad(line, col("table"), "invalid_table", "a table number 1–1000", text)
        seats, members = [], []
        for n in range(1, 5):
            name = reader.cell(row, f"player{n}")
            member = _member(reader, names, name, line, col(f"player{n}"))
            if member is not None and member.player_id in {m.player_id for m in members}:
                message = f"{name} sits at this table twice"
                reader.bad(line, col(f"player{n}"), "same_player_twice", message, name)
            elif member is not None:
                members.append(member)
            total = _total(reader, row, f"total{n}", line)
            seats.append(ResultSeat(name, total if total is not None else 0))
        bettors = []
        bettor_names = set()
        for n in range(1, MAX_BETTORS + 1):
            name = reader.cell(row, f"bettor{n}")
            total_text = reader.cell(row, f"bettor{n}_total")
            if not name and not total_text:
                continue
            column = col(f"bettor{n}")
            if not name:
                message = "a bettor's total needs his name"
                reader.bad(line, column, "required", message)
                continue
            why = _text_problem(name)
            if why:
                reader.bad(line, column, "invalid_name", f"a name of {why}", name)
            elif why := formula_problem(name):
                reader.bad(line, column, "formula_name", why, name)
            elif name in {s.name for s in seats}:
                message = f"{name} sits at this table: he cannot also bet on it"
                reader.bad(line, column, "bettor_is_seated", message, name)
            elif name in bettor_names:
                reader.bad(line, column, "duplicate_bettor", f"{name} bets twice", name)
            bettor_names.add(name)
            total = _total(reader, row, f"bettor{n}_total", line)
            bettors.append(ResultSeat(name, total if total is not None else 0))
        if len(reader.problems) > before:
            continue
        balance = sum(s.total for s in seats) + sum(b.total for b in bettors)
        if balance != 0:
            message = f"the totals sum to {balance}, not 0"
            reader.bad(line, "", "not_zero_sum", message, str(balance))
            continue
        key = (day, table)
        if key in seen:
            message = f"table {table} of {day} is already on line {seen[key]}"
            reader.bad(line, col("table"), "duplicate_table", message, str(seen[key]))
            continue
        seen[key] = line
        started = datetime.combine(day, EVENING, tzinfo=zone)
        if (started, f"#{table}") in done:
            message = f"table {table} of {day} is already in the club"
            reader.bad(line, col("table"), "already_imported", message, str(table))
            continue
        result.tables.append(ResultRow(line, day, table, tuple(seats), tuple(bettors)))


def _member(reader, names, name: str, line: int, column: str) -> Membership | None:
    if not name:
        reader.bad(line, column, "required", "a table seats four players")
        return None
    found = names.get(name, [])
    if not found:
        message = f"{name} is not a player of the club: import the players first"
        reader.bad(line, column, "unknown_player", message, name)
        return None
    if len({m.player_id for m in found}) > 1:
        message = f"the club has {len(found)} players named {name}: rename one first"
        reader.bad(line, column, "ambiguous_player", message, name)
        return None
    return found[0]


def _total(reader: _Reader, row: list[str], canonical: str, line: int) -> int | None:
    text = reader.cell(row, canonical)
    total = _integer(text, SCORE["min_value"], SCORE["max_value"])
    if total is None:
        message = "a whole number such as 12 or -5" if text else "a total is needed"
        reader.bad(line, reader.column(canonical), "invalid_total", message, text)
    return total


def csv_check(*, club: Club, data: bytes) -> CsvImport:
    """Read and check a file; nothing is stored."""
    if len(data) > MAX_BYTES:
        result = CsvImport(kind="")
        message = f"a file of at most {MAX_BYTES // 1024} KB"
        result.problems.append(RowProblem(0, "", "file_too_large", message, str(MAX_BYTES // 1024)))
        return result
    text = decode(data)
    if text is None:
        result = CsvImport(kind="")
        message = "a CSV file in UTF-8 or GB 18030"
        result.problems.append(RowProblem(0, "", "not_text", message))
        return result
    try:
        reader = _Reader(text)
    except csv.Error as e:
        result = CsvImport(kind="")
        result.problems.append(RowProblem(0, "", "not_csv", f"not a CSV file: {e}"))
        return result
    kind = kind_of(reader.header)
    result = CsvImport(kind=kind or "")
    if kind is None:
        message = "a header row: name (and pinyin) for players; date, table, player1 … for results"
        reader.bad(1, "", "unknown_file", message)
    elif len(reader.rows) - 1 > MAX_ROWS:
        message = f"at most {MAX_ROWS} rows in a file"
        reader.bad(0, "", "too_many_rows", message, str(MAX_ROWS))
    elif kind == PLAYERS:
        _check_players(reader, club, result)
    else:
        _check_results(reader, club, result)
    result.problems = reader.problems
    return result


def csv_import(*, club: Club, data: bytes, user, dry_run: bool = False) -> CsvImport:
    """Check a file, and unless it is a dry run or a row is bad, store it in one transaction:
    the new players, or each table's final totals (a closed table each)."""
    result = csv_check(club=club, data=data)
    if dry_run or not result.ok:
        return result
    with transaction.atomic():
        if result.kind == PLAYERS:
            for name in result.new_players:
                player_create(club=club, name=name)
        else:
            _store_tables(club, result, user)
    result.stored = result.ok
    return result


def _store_tables(club: Club, result: CsvImport, user) -> None:
    members = {}
    for m in club.memberships.select_related("player"):
        members.setdefault(m.player.name, m.player)
        members[m.name] = m.player
    zone = ZoneInfo(club.time_zone)
    for row in result.tables:
        players = [members[s.name] for s in row.seats]
        bettors = [
            {"player": members[b.name]} if b.name in members else {"guest_name": b.name}
            for b in row.bettors
        ]
        try:
            with transaction.atomic():
                session = session_create(
                    club=club, players=players, user=user, bettors=bettors, notes=f"#{row.table}",
                    started_at=datetime.combine(row.day, EVENING, tzinfo=zone),
                )  # fmt: skip
                stood = list(session.bettors.order_by("pk"))
                totals = [{"player": p.pk, "total": s.total}
                          for p, s in zip(players, row.seats, strict=True)]  # fmt: skip
                totals += [{"bettor": b.pk, "total": s.total}
                           for b, s in zip(stood, row.bettors, strict=True)]  # fmt: skip
                session_result_enter(session=session, totals=totals, user=user)
                session_close(session=session)
        except ServiceError as e:  # what the checks above missed: the row is bad after all
            for p in e.problems:
                result.problems.append(RowProblem(row.line, "", p["code"], p["message"]))
    if result.problems:
        transaction.set_rollback(True)
        result.tables = []
