"""A tournament's entry list from a CSV (报名表): a preview that flags possible duplicates, then
the entries, in one transaction.

The file: a header and a row per player — ``name`` (名字, 姓名), optional ``club`` (俱乐部, 单位)
and optional ``seed_rating`` (种子分, rating). Each row is compared with the host club's
players, the tournament's entries and the rows above it, and flagged where it may be one of
them:

* ``same_name`` — the same name, letter case and spaces aside (王伟 and 王伟);
* ``same_pinyin`` — another name read alike (王伟 and 王维: wangwei);
* ``near`` — one character apart (王小伟 and 王晓伟, Zhang Wei and Zhang Wie), or the pinyin one
  letter apart.

Nothing is decided silently: a flagged row is entered only with a decision — ``new`` (someone
else of that name), ``skip``, or the id of the player it is — and :func:`entries_import`
refuses the whole file while a flagged row has none (or any row has a problem), listing every
such row. An unflagged row is entered as a new player; a row with the very name of a player
already entered is skipped unless decided otherwise, and the preview says so.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q

from clubs.models import Player
from clubs.pinyin import pinyin_keys
from core.errors import Invalid, problem
from exchange.csv_import import MAX_BYTES, NAME_LENGTH, decode
from tournaments import services
from tournaments.models import Registration, Tournament

#: the most rows an entry list may have
MAX_ENTRIES = 2000
#: a seed rating's bounds
SEED_BOUNDS = (-(10**6), 10**6)

_ALIASES = {
    "name": "name", "名字": "name", "姓名": "name", "玩家": "name", "player": "name",
    "club": "club", "俱乐部": "club", "单位": "club", "队": "club",
    "seed_rating": "seed_rating", "seed": "seed_rating", "rating": "seed_rating",
    "种子分": "seed_rating", "等级分": "seed_rating",
}  # fmt: skip

SAME_NAME, SAME_PINYIN, NEAR = "same_name", "same_pinyin", "near"
NEW, SKIP = "new", "skip"


@dataclass(frozen=True)
class Match:
    """Someone a row may be: a player (of the club or entered: ``player`` set) or a row
    above it in the file (``line`` set)."""

    kind: str
    name: str
    player: int | None = None
    line: int | None = None
    entered: bool = False  # the player is already entered in the tournament


@dataclass
class EntryRow:
    line: int
    name: str
    club: str = ""
    seed_rating: int | None = None
    matches: list[Match] = field(default_factory=list)
    problems: list[dict[str, str]] = field(default_factory=list)
    decision: str = ""  # "", NEW, SKIP, or a player id as text

    @property
    def flagged(self) -> bool:
        return bool(self.matches)

    @property
    def already_entered(self) -> bool:
        return any(m.entered and m.kind == SAME_NAME for m in self.matches)


@dataclass
class EntriesPreview:
    rows: list[EntryRow]
    problems: list[dict[str, str]]  # of the file as a whole

    @property
    def undecided(self) -> list[EntryRow]:
        return [r for r in self.rows if r.flagged and not r.decision and not r.problems]


def _text(value: str) -> str:
    return " ".join(value.split())


def _key(name: str) -> str:
    return "".join(name.split()).casefold()


def _one_apart(a: str, b: str) -> bool:
    """One edit (a character changed, added or left out) turns ``a`` into ``b``."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i + 1 :] == b[i + 1 :] if len(a) == len(b) else a[i:] == b[i + 1 :]


def _kind(name: str, other: str) -> str | None:
    """How ``name`` may be ``other`` (None: it is not like it)."""
    a, b = _key(name), _key(other)
    if a == b:
        return SAME_NAME
    fulls_a, fulls_b = set(pinyin_keys(name)[0]), set(pinyin_keys(other)[0])
    if fulls_a & fulls_b:
        return SAME_PINYIN
    if min(len(a), len(b)) >= 2 and _one_apart(a, b):
        return NEAR
    if any(min(len(x), len(y)) >= 5 and _one_apart(x, y) for x in fulls_a for y in fulls_b):
        return NEAR
    return None


def parse(data: bytes) -> EntriesPreview:
    """Read an entry list; each row with its problems (nothing compared yet)."""
    if len(data) > MAX_BYTES:
        message = f"a file of at most {MAX_BYTES // 1024} KB"
        return EntriesPreview([], [problem("csv", "file_too_large", message)])
    text = decode(data)
    if text is None:
        return EntriesPreview([], [problem("csv", "not_text", "a CSV file in UTF-8 or GB 18030")])
    first = text.split("\n", 1)[0]
    delimiter = "\t" if "\t" in first and "," not in first else ","
    try:
        lines = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    except csv.Error as e:
        return EntriesPreview([], [problem("csv", "not_csv", f"not a CSV file: {e}")])
    header = [_ALIASES.get(c.strip().lower()) for c in (lines[0] if lines else [])]
    if "name" not in header:
        message = "a header row with a name column (and club, seed_rating if wanted)"
        return EntriesPreview([], [problem("csv", "no_name_column", message)])
    if len(lines) - 1 > MAX_ENTRIES:
        message = f"at most {MAX_ENTRIES} rows"
        return EntriesPreview([], [problem("csv", "too_many_rows", message)])
    rows = []
    for n, cells in enumerate(lines[1:], start=2):
        if not any(c.strip() for c in cells):
            continue
        value = {k: _text(c) for k, c in zip(header, cells, strict=False) if k}
        row = EntryRow(line=n, name=value.get("name", ""), club=value.get("club", "")[:80])
        where = f"rows[{n}]"
        if not row.name:
            row.problems.append(problem(f"{where}.name", "required", "a name"))
        elif len(row.name) > NAME_LENGTH or any(
            unicodedata.category(ch) in ("Cc", "Cs") for ch in row.name
        ):
            message = f"at most {NAME_LENGTH} characters, no control character"
            row.problems.append(problem(f"{where}.name", "invalid_name", message))
        rating = value.get("seed_rating", "")
        if rating:
            try:
                row.seed_rating = int(rating)
                if not SEED_BOUNDS[0] <= row.seed_rating <= SEED_BOUNDS[1]:
                    raise ValueError
            except ValueError:
                message = "a whole number (or nothing)"
                row.problems.append(problem(f"{where}.seed_rating", "invalid_rating", message))
        rows.append(row)
    return EntriesPreview(rows, [])


def preview(tournament: Tournament, data: bytes, decisions: dict[str, Any] | None = None):
    """The file read and compared: each row with whom it may be, and the decision sent for
    it (checked: a player id must be one of its matches)."""
    found = parse(data)
    known = _known_players(tournament)
    decisions = {str(k): v for k, v in (decisions or {}).items()}
    above: list[EntryRow] = []
    for row in found.rows:
        if row.problems:
            continue
        for player, name, entered in known:
            if kind := _kind(row.name, name):
                row.matches.append(Match(kind, name, player=player, entered=entered))
        for other in above:
            if kind := _kind(row.name, other.name):
                row.matches.append(Match(kind, other.name, line=other.line))
        above.append(row)
        decision = decisions.get(str(row.line))
        if decision is None:
            if row.already_entered:  # shown as skipped; a decision may still enter him
                row.decision = SKIP
            continue
        decision = str(decision)
        ids = {str(m.player) for m in row.matches if m.player is not None}
        if decision in (NEW, SKIP) or decision in ids:
            row.decision = decision
        else:
            message = "new, skip, or the id of a player the row was matched with"
            row.problems.append(problem(f"decisions.{row.line}", "invalid_decision", message))
    return found


def _known_players(tournament: Tournament) -> list[tuple[int, str, bool]]:
    """(player id, a name he is known by, entered already) of the host club's players (by
    name and by the name the club knows them by) and of the tournament's entries."""
    entered = set(tournament.registrations.values_list("player_id", flat=True))
    rows = Player.objects.filter(
        Q(memberships__club=tournament.club_id) | Q(entries__tournament=tournament)
    ).values_list("pk", "name", "memberships__display_name")
    known: dict[tuple[int, str], bool] = {}
    for pk, name, display in rows:
        for n in (name, display):
            if n:
                known[(pk, n)] = pk in entered
    return [(pk, name, e) for (pk, name), e in sorted(known.items())]


@dataclass
class ImportDone:
    entered: list[Registration]
    skipped: list[EntryRow]
    preview: EntriesPreview  # as the file read before it was entered


@transaction.atomic
def entries_import(
    *, tournament: Tournament, data: bytes, decisions: dict[str, Any] | None = None
) -> ImportDone:
    """Enter the file's players, or nothing: refused (every problem listed) while a row is
    bad or a flagged row has no decision."""
    found = preview(tournament, data, decisions)
    problems = list(found.problems)
    for row in found.rows:
        problems += row.problems
    for row in found.undecided:
        who = ", ".join(
            m.name if m.player is None else f"{m.name} (player {m.player})" for m in row.matches
        )
        message = f"line {row.line}: {row.name!r} may be {who}: decide new, skip or which player"
        problems.append(problem(f"decisions.{row.line}", "duplicate_undecided", message))
    if not found.rows and not problems:
        problems.append(problem("csv", "no_rows", "no player in the file"))
    if problems:
        raise Invalid(problems)
    entered, skipped = [], []
    ids_entered = set(tournament.registrations.values_list("player_id", flat=True))
    for row in found.rows:
        decision = row.decision or NEW
        if decision == SKIP:
            skipped.append(row)
            continue
        if decision == NEW:
            entry = services.registration_create(
                tournament=tournament, name=row.name, new_player=True,
                seed_rating=row.seed_rating, club_name=row.club,
            )  # fmt: skip
        elif int(decision) in ids_entered:
            skipped.append(row)  # it is a player already entered
            continue
        else:
            entry = services.registration_create(
                tournament=tournament, player=Player.objects.get(pk=int(decision)),
                seed_rating=row.seed_rating, club_name=row.club,
            )  # fmt: skip
        ids_entered.add(entry.player_id)
        entered.append(entry)
    return ImportDone(entered, skipped, found)
