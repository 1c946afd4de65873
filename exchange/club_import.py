"""Loading a club's export file into a database that does not have that club.

All or nothing: the file is checked whole first — against the schema, then every reference,
every rule a service would have held the data to, and every hand settled again by the engine
under the ruleset its session pinned (the snapshot's stored description, never today's
presets), compared with the settlement the file stores — and refused with every problem listed,
each with its path (``sessions[3].hands[2].settlement.payments[1].amount``). Only a file without
a problem is written, in one transaction.

What the file does not carry is made here: each hand's payments from its settlement (the same
reading of ``S0``–``S3`` and ``B0``… as ``clubs.services.hands``), the statistics' lines and the
ratings (``ratings.services.club_recompute``, under this server's rating system: the report
says when that is not the file's), each tournament's standings (``standings_compute``).
Logins are created without a usable password: their owners set one through a reset link from
the club's members page. Nothing is queued for the workers: what they would do is done here.
"""

from __future__ import annotations

import time
import zoneinfo
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from clubs.fastpath import PAYMENT_COLUMNS
from clubs.models import (
    Bettor,
    Club,
    Hand,
    HandRevision,
    Membership,
    Payment,
    Player,
    Seat,
    SessionResult,
    TableSession,
)
from core.errors import Conflict, ErrorItem, Invalid, problem
from exchange.club_export import FORMAT, VERSION
from exchange.fastpath import rows_insert, values_insert
from exchange.paths import first_difference, join
from exchange.schema import schema_problems
from ratings import system as rating_system
from ratings.services import club_recompute
from scoring.engine.settle import Settlement, upgraded_form
from scoring.models import RulesetSnapshot
from scoring.services import hand_settle, ruleset_rebuild
from tournaments.models import Registration, Round, RoundUnlock, Table, Tournament
from tournaments.services import standings_compute
from tournaments.standings import TIEBREAKS

BATCH = 1000


@dataclass
class ImportReport:
    """What an import wrote, and how long each part took (seconds)."""

    club: Club
    counts: dict[str, int]
    rating_note: str = ""
    seconds: dict[str, float] = field(default_factory=dict)


@dataclass
class _Hand:
    """A checked hand: its settlement(s) settled again, ready to write."""

    session: int  # index in the file's sessions
    data: dict[str, Any]
    settlement: Settlement | None


class _Checked:
    """The file, checked: problems found, and what the write needs (parsed moments, the hands'
    settlements)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.problems: list[ErrorItem] = []
        self.moments: dict[str, datetime | None] = {}
        self.hands: list[_Hand] = []
        self.snapshots: dict[str, RulesetSnapshot] = {}
        self.settled = 0

    def add(self, path: str, code: str, message: str) -> None:
        self.problems.append(problem(path, code, message))

    def moment(self, value: str | None, path: str = "") -> datetime | None:
        """A moment of the file (the schema checked its shape), parsed once."""
        if value is None:
            return None
        if value not in self.moments:
            try:
                moment = datetime.fromisoformat(value)
            except ValueError:
                self.add(path, "invalid_datetime", f"{value!r} is not a real moment")
                moment = None
            self.moments[value] = moment
        return self.moments[value]


# --- checking -------------------------------------------------------------------------------


def _unique(check: _Checked, items: list[dict[str, Any]], where: str, key: str = "id") -> dict:
    """Items by their id, each id once."""
    seen: dict[Any, dict[str, Any]] = {}
    for i, item in enumerate(items):
        if item[key] in seen:
            check.add(f"{where}[{i}].{key}", "duplicate_id", f"{item[key]!r} is used twice")
        else:
            seen[item[key]] = item
    return seen


def _known(check: _Checked, ref: str | None, known: dict, path: str, what: str) -> bool:
    if ref is None or ref in known:
        return True
    check.add(path, "unknown_reference", f"no {what} {ref!r} in the file")
    return False


def _check_people(check: _Checked) -> tuple[dict, dict]:
    data = check.data
    logins = _unique(check, data["logins"], "logins")
    names = Counter(login["username"] for login in data["logins"])
    taken = set(
        get_user_model().objects.filter(username__in=list(names)).values_list("username", flat=True)
    )
    valid = UnicodeUsernameValidator()
    for i, login in enumerate(data["logins"]):
        name = login["username"]
        try:
            valid(name)
        except ValidationError:
            message = "a username of letters, digits and @/./+/-/_ only"
            check.add(f"logins[{i}].username", "invalid_username", message)
        if name in taken:
            message = (
                f"the login {name!r} exists on this server; the file's cannot be made (export "
                "with --public-only to leave the logins out)"
            )
            check.add(f"logins[{i}].username", "login_taken", message)
        elif names[name] > 1:
            check.add(f"logins[{i}].username", "duplicate", f"the login {name!r} appears twice")
    players = _unique(check, data["players"], "players")
    owner_of: dict[str, int] = {}
    for i, player in enumerate(data["players"]):
        ref = player["login"]
        if _known(check, ref, logins, f"players[{i}].login", "login") and ref is not None:
            if ref in owner_of:
                message = f"the login {ref!r} is already players[{owner_of[ref]}]'s"
                check.add(f"players[{i}].login", "login_shared", message)
            owner_of[ref] = i
    members = set()
    for i, m in enumerate(data["memberships"]):
        path = f"memberships[{i}]"
        _known(check, m["player"], players, f"{path}.player", "player")
        if m["player"] in members:
            check.add(f"{path}.player", "already_member", "a player has one membership")
        members.add(m["player"])
        check.moment(m["joined_at"], f"{path}.joined_at")
    return logins, players


def _check_rulesets(check: _Checked) -> dict:
    rulesets = _unique(check, check.data["rulesets"], "rulesets")
    fingerprints: dict[str, int] = {}
    for i, r in enumerate(check.data["rulesets"]):
        path = f"rulesets[{i}]"
        if r["fingerprint"] in fingerprints:
            message = f"the same ruleset as rulesets[{fingerprints[r['fingerprint']]}]"
            check.add(f"{path}.fingerprint", "duplicate", message)
        fingerprints.setdefault(r["fingerprint"], i)
        try:
            rebuilt = ruleset_rebuild(r["description"], f"{path}.description")
        except Invalid as e:
            check.problems += e.problems
            continue
        if rebuilt.fingerprint != r["fingerprint"]:
            message = f"the description's fingerprint is {rebuilt.fingerprint}"
            check.add(f"{path}.fingerprint", "fingerprint_differs", message)
            continue
        if rebuilt.preset != r["preset"]:
            message = f"the description is of the preset {rebuilt.preset!r}"
            check.add(f"{path}.preset", "preset_differs", message)
        check.snapshots[r["id"]] = RulesetSnapshot(
            fingerprint=r["fingerprint"], preset=r["preset"], spec=r["spec"],
            description=r["description"],
        )  # fmt: skip
    return rulesets


def _check_club(check: _Checked, rulesets: dict) -> None:
    club = check.data["club"]
    if Club.objects.filter(slug=club["slug"]).exists():
        message = f"this server already has a club {club['slug']!r}: the file is not loaded"
        check.add("club.slug", "slug_taken", message)
    try:
        zoneinfo.ZoneInfo(club["time_zone"])
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        check.add("club.time_zone", "invalid_time_zone", "an IANA time zone (Asia/Shanghai)")
    _known(check, club["ruleset"], rulesets, "club.ruleset", "ruleset")
    check.moment(club["created_at"], "club.created_at")


def _settle_again(
    check: _Checked, snapshot: RulesetSnapshot, record: dict, stored: dict, path: str
) -> Settlement | None:
    """The record settled again under the pinned rules, compared with the stored settlement."""
    try:
        settlement = hand_settle(
            snapshot=snapshot, record={k: v for k, v in record.items() if k != "ruleset"}
        )
    except Invalid as e:
        for p in e.problems:
            check.add(join(f"{path}.record", p["path"]), p["code"], p["message"])
        return None
    check.settled += 1
    now = settlement.as_dict()
    # a file written before a settlement carried its format (format 1) is compared, and then
    # stored, as format 2 writes it (``upgraded_form``: 杠钱归胡家 under its own reason)
    upgraded = upgraded_form(stored, settlement.record)
    if upgraded is not stored:
        stored.clear()
        stored.update(upgraded)
    found = first_difference(stored, now)
    if found is not None:
        where, was, is_now = found
        message = (
            f"the file's settlement says {_short(was)}, the engine settles the record to "
            f"{_short(is_now)} under the session's pinned rules"
        )
        check.add(join(f"{path}.settlement", where), "settlement_differs", message)
        return None
    return settlement


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def _check_sessions(check: _Checked, rulesets: dict, logins: dict, players: dict) -> dict:
    data = check.data
    sessions = _unique(check, data["sessions"], "sessions")
    bettor_ids: set[str] = set()
    names = {p["id"]: p["name"] for p in data["players"]}
    for i, s in enumerate(data["sessions"]):
        path = f"sessions[{i}]"
        _known(check, s["created_by"], logins, f"{path}.created_by", "login")
        for key in ("started_at", "created_at", "closed_at"):
            check.moment(s[key], f"{path}.{key}")
        seats = s["seats"]
        for n, ref in enumerate(seats):
            _known(check, ref, players, f"{path}.seats[{n}]", "player")
        if len(set(seats)) != 4:
            check.add(f"{path}.seats", "four_players", "a table seats four different players")
        by_name: dict[str, dict] = {}
        own_bettors = set()
        for b_i, b in enumerate(s["bettors"]):
            b_path = f"{path}.bettors[{b_i}]"
            if b["id"] in bettor_ids:
                check.add(f"{b_path}.id", "duplicate_id", f"{b['id']!r} is used twice")
            bettor_ids.add(b["id"])
            own_bettors.add(b["id"])
            if b["player"] is None and not b["guest_name"]:
                check.add(b_path, "bettor_unnamed", "a bettor is a player or a named guest")
            _known(check, b["player"], players, f"{b_path}.player", "player")
            if b["player"] in seats:
                message = "a seated player cannot also bet on this table"
                check.add(f"{b_path}.player", "bettor_is_seated", message)
            name = names.get(b["player"], "") if b["player"] else b["guest_name"]
            if name in by_name:
                check.add(b_path, "duplicate_bettor", "each bettor needs a distinct name")
            by_name[name] = b
        live = [h for h in s["hands"] if not h["is_deleted"]]
        _check_results(check, s, path, seats, own_bettors, bool(live))
        if s["hand_limit"] is not None and len(live) > s["hand_limit"]:
            message = f"this table plays {s['hand_limit']} hands; the file has {len(live)}"
            check.add(f"{path}.hands", "table_complete", message)
        snapshot = check.snapshots.get(s["ruleset"])
        if not _known(check, s["ruleset"], rulesets, f"{path}.ruleset", "ruleset"):
            snapshot = None
        numbers: set[int] = set()
        for h_i, h in enumerate(s["hands"]):
            h_path = f"{path}.hands[{h_i}]"
            if h["number"] in numbers:
                message = f"hand {h['number']} appears twice in this session"
                check.add(f"{h_path}.number", "hand_exists", message)
            numbers.add(h["number"])
            settlement = _check_hand(check, s, h, h_path, snapshot, set(by_name), logins)
            check.hands.append(_Hand(i, h, settlement))
    return sessions


def _check_results(
    check: _Checked, s: dict, path: str, seats: list, bettors: set, has_hands: bool
) -> None:
    if not s["results"]:
        return
    if has_hands:
        message = "a session with recorded hands has no final results: its totals are its hands'"
        check.add(f"{path}.results", "session_has_hands", message)
    given_players, given_bettors = [], []
    for r_i, r in enumerate(s["results"]):
        r_path = f"{path}.results[{r_i}]"
        if "player" in r:
            if r["player"] not in seats:
                check.add(f"{r_path}.player", "not_seated", "this player is not seated here")
            if r["player"] in given_players:
                check.add(f"{r_path}.player", "duplicate", "a player has one total")
            given_players.append(r["player"])
        else:
            if r["bettor"] not in bettors:
                check.add(f"{r_path}.bettor", "unknown_bettor", "no such bettor at this table")
            if r["bettor"] in given_bettors:
                check.add(f"{r_path}.bettor", "duplicate", "a bettor has one total")
            given_bettors.append(r["bettor"])
    if set(given_players) != set(seats):
        message = "give a total for each of the four seated players"
        check.add(f"{path}.results", "missing_players", message)
    balance = sum(r["total"] for r in s["results"])
    if balance != 0:
        check.add(f"{path}.results", "not_zero_sum", f"the totals sum to {balance}, not 0")


def _check_hand(
    check: _Checked,
    s: dict,
    h: dict,
    path: str,
    snapshot: RulesetSnapshot | None,
    bettor_names: set[str],
    logins: dict,
) -> Settlement | None:
    _known(check, h["entered_by"], logins, f"{path}.entered_by", "login")
    check.moment(h["entered_at"], f"{path}.entered_at")
    check.moment(h["updated_at"], f"{path}.updated_at")
    record = h["record"]
    for key in ("base", "mode"):
        if key in record and record[key] != s[key]:
            message = f"this session plays with {key} {s[key]!r}"
            check.add(f"{path}.record.{key}", "differs_from_session", message)
    recorded_bettors = record.get("bettors") or []
    if isinstance(recorded_bettors, list):
        for b_i, b in enumerate(recorded_bettors):
            if isinstance(b, dict) and b.get("name") not in bettor_names:
                message = "a bettor of the record must be one of the session's bettors"
                check.add(f"{path}.record.bettors[{b_i}].name", "unknown_bettor", message)
    last = 0
    for r_i, r in enumerate(h["revisions"]):
        r_path = f"{path}.revisions[{r_i}]"
        _known(check, r["changed_by"], logins, f"{r_path}.changed_by", "login")
        check.moment(r["changed_at"], f"{r_path}.changed_at")
        if r["revision"] <= last:
            message = "revisions are numbered upwards, each once"
            check.add(f"{r_path}.revision", "revision_order", message)
        last = r["revision"]
        if ("record" in r) != ("settlement" in r):
            message = "a revision gives both its record and its settlement, or neither"
            check.add(r_path, "revision_incomplete", message)
        elif "record" in r and snapshot is not None:
            _settle_again(check, snapshot, r["record"], r["settlement"], r_path)
    if h["revisions"] and last != h["revision"]:
        message = f"the hand is at revision {h['revision']}, its last revision is {last}"
        check.add(f"{path}.revision", "revision_differs", message)
    if snapshot is None:
        return None
    settlement = _settle_again(check, snapshot, record, h["settlement"], path)
    if settlement is not None and not settlement.finished:
        message = "a stored hand is finished (RULES §4.10)"
        check.add(f"{path}.record.events", "hand_not_finished", message)
        return None
    return settlement


def _check_tournaments(
    check: _Checked, rulesets: dict, logins: dict, players: dict, sessions: dict
) -> None:
    data = check.data
    _unique(check, data["tournaments"], "tournaments")
    slugs = Counter(t["slug"] for t in data["tournaments"])
    taken = set(Tournament.objects.filter(slug__in=list(slugs)).values_list("slug", flat=True))
    tables_of: dict[str, str] = {}
    for i, t in enumerate(data["tournaments"]):
        path = f"tournaments[{i}]"
        if t["slug"] in taken:
            message = f"this server already has a tournament {t['slug']!r}"
            check.add(f"{path}.slug", "slug_taken", message)
        elif slugs[t["slug"]] > 1:
            check.add(f"{path}.slug", "duplicate", f"the slug {t['slug']!r} appears twice")
        _known(check, t["ruleset"], rulesets, f"{path}.ruleset", "ruleset")
        _known(check, t["created_by"], logins, f"{path}.created_by", "login")
        check.moment(t["created_at"], f"{path}.created_at")
        points = t["placement_points"]
        if any(a < b for a, b in zip(points, points[1:], strict=False)):
            message = "four whole numbers for 1st to 4th, none above the one before"
            check.add(f"{path}.placement_points", "invalid_points", message)
        for k, code in enumerate(t["tiebreaks"]):
            if code not in TIEBREAKS:
                check.add(f"{path}.tiebreaks[{k}]", "unknown_tiebreak", f"no tiebreak {code!r}")
        for p_i, planned in enumerate(t["seating_plan"]):
            p_path = f"{path}.seating_plan[{p_i}]"
            for k, table in enumerate(planned["tables"]):
                for n, ref in enumerate(table["players"]):
                    _known(check, ref, players, f"{p_path}.tables[{k}].players[{n}]", "player")
            for n, ref in enumerate(planned["byes"]):
                _known(check, ref, players, f"{p_path}.byes[{n}]", "player")
        registered = set()
        for r_i, reg in enumerate(t["registrations"]):
            r_path = f"{path}.registrations[{r_i}]"
            _known(check, reg["player"], players, f"{r_path}.player", "player")
            if reg["player"] in registered:
                check.add(f"{r_path}.player", "already_registered", "registered twice")
            registered.add(reg["player"])
            check.moment(reg["created_at"], f"{r_path}.created_at")
        numbers = set()
        for n_i, round_ in enumerate(t["rounds_played"]):
            n_path = f"{path}.rounds_played[{n_i}]"
            if round_["number"] in numbers:
                check.add(f"{n_path}.number", "duplicate", "a round number appears twice")
            numbers.add(round_["number"])
            check.moment(round_["seated_at"], f"{n_path}.seated_at")
            for k, ref in enumerate(round_["byes"]):
                _known(check, ref, players, f"{n_path}.byes[{k}]", "player")
            for k, unlock in enumerate(round_["unlocks"]):
                u_path = f"{n_path}.unlocks[{k}]"
                _known(check, unlock["unlocked_by"], logins, f"{u_path}.unlocked_by", "login")
                check.moment(unlock["unlocked_at"], f"{u_path}.unlocked_at")
            table_numbers = set()
            for k, table in enumerate(round_["tables"]):
                t_path = f"{n_path}.tables[{k}]"
                if table["number"] in table_numbers:
                    check.add(f"{t_path}.number", "duplicate", "a table number appears twice")
                table_numbers.add(table["number"])
                ref = table["session"]
                if not _known(check, ref, sessions, f"{t_path}.session", "session"):
                    continue
                if ref in tables_of:
                    message = f"the session {ref!r} is already {tables_of[ref]}"
                    check.add(f"{t_path}.session", "table_shared", message)
                    continue
                tables_of[ref] = t_path
                if sessions[ref]["kind"] != TableSession.Kind.TOURNAMENT:
                    message = "a tournament's table is a session of kind 'tournament'"
                    check.add(f"{t_path}.session", "not_a_tournament_table", message)
    for i, s in enumerate(data["sessions"]):
        if s["kind"] == TableSession.Kind.TOURNAMENT and s["id"] not in tables_of:
            message = "a session of kind 'tournament' is a table of one of the file's tournaments"
            check.add(f"sessions[{i}].kind", "tournament_table_missing", message)


def club_check(data: Any) -> _Checked:
    """Check a whole file; Invalid with every problem found (schema ones alone if the file's
    shape is wrong: nothing else can be read safely then)."""
    problems = schema_problems(data)
    if problems:
        raise Invalid(problems)
    check = _Checked(data)
    logins, players = _check_people(check)
    rulesets = _check_rulesets(check)
    _check_club(check, rulesets)
    sessions = _check_sessions(check, rulesets, logins, players)
    _check_tournaments(check, rulesets, logins, players, sessions)
    if check.problems:
        raise Invalid(check.problems)
    return check


# --- writing --------------------------------------------------------------------------------


def _write(check: _Checked) -> tuple[Club, dict[str, int]]:
    data = check.data
    at = check.moment
    snapshots = {}
    for ref, snap in check.snapshots.items():
        snapshots[ref], _ = RulesetSnapshot.objects.get_or_create(
            fingerprint=snap.fingerprint,
            defaults={"preset": snap.preset, "spec": snap.spec, "description": snap.description},
        )
    User = get_user_model()  # noqa: N806 - a model class
    users = []
    for login in data["logins"]:
        user = User(username=login["username"])
        user.set_unusable_password()  # its owner sets one through a reset link
        users.append(user)
    User.objects.bulk_create(users, batch_size=BATCH)
    user_of = {login["id"]: u for login, u in zip(data["logins"], users, strict=True)}

    def by(ref: str | None):
        return None if ref is None else user_of[ref]

    people = Player.objects.bulk_create(
        [Player(name=p["name"], user=by(p["login"])) for p in data["players"]], batch_size=BATCH
    )
    player_of = {p["id"]: row for p, row in zip(data["players"], people, strict=True)}
    c = data["club"]
    club = Club.objects.create(
        name=c["name"], slug=c["slug"], visibility=c["visibility"],
        ruleset=snapshots[c["ruleset"]], base=c["base"], time_zone=c["time_zone"],
        unit_label=c["unit_label"],
    )  # fmt: skip
    Club.objects.filter(pk=club.pk).update(created_at=at(c["created_at"]))
    memberships = [
        Membership(club=club, player=player_of[m["player"]], role=m["role"],
                   display_name=m["display_name"], joined_at=at(m["joined_at"]))
        for m in data["memberships"]
    ]  # fmt: skip
    rows_insert(Membership, memberships)

    sessions = [
        TableSession(
            club=club, started_at=at(s["started_at"]), ruleset=snapshots[s["ruleset"]],
            base=s["base"], mode=s["mode"], status=s["status"], kind=s["kind"],
            hand_limit=s["hand_limit"], lock_code=s["lock_code"], lock_message=s["lock_message"],
            notes=s["notes"], created_by=by(s["created_by"]), closed_at=at(s["closed_at"]),
            created_at=at(s["created_at"]),
        )
        for s in data["sessions"]
    ]  # fmt: skip
    rows_insert(TableSession, sessions)
    session_of = {s["id"]: row for s, row in zip(data["sessions"], sessions, strict=True)}
    Seat.objects.bulk_create(
        [
            Seat(session=row, number=n, player=player_of[ref])
            for s, row in zip(data["sessions"], sessions, strict=True)
            for n, ref in enumerate(s["seats"])
        ],
        batch_size=BATCH,
    )
    bettor_items = [(row, b) for s, row in zip(data["sessions"], sessions, strict=True)
                    for b in s["bettors"]]  # fmt: skip
    bettors = Bettor.objects.bulk_create(
        [
            Bettor(
                session=row,
                player=player_of[b["player"]] if b["player"] else None,
                guest_name=b["guest_name"],
            )
            for row, b in bettor_items
        ],  # fmt: skip
        batch_size=BATCH,
    )
    bettor_of = {b["id"]: row for (_, b), row in zip(bettor_items, bettors, strict=True)}
    SessionResult.objects.bulk_create(
        [
            SessionResult(
                session=row,
                player=player_of[r["player"]] if "player" in r else None,
                bettor=bettor_of[r["bettor"]] if "bettor" in r else None,
                total=r["total"],
            )
            for s, row in zip(data["sessions"], sessions, strict=True)
            for r in s["results"]
        ],
        batch_size=BATCH,
    )

    hands = []
    for item in check.hands:
        h, row = item.data, sessions[item.session]
        settlement = item.settlement
        hands.append(Hand(
            session=row, number=h["number"], record=h["record"], settlement=h["settlement"],
            ruleset_fingerprint=row.ruleset.fingerprint, dealer=h["record"].get("dealer", 0),
            next_dealer=settlement.next_dealer if settlement else None, revision=h["revision"],
            entered_by=by(h["entered_by"]), is_deleted=h["is_deleted"],
            deleted_reason=h["deleted_reason"], entered_at=at(h["entered_at"]),
            updated_at=at(h["updated_at"]),
        ))  # fmt: skip
    rows_insert(Hand, hands)
    revisions = []
    for row, item in zip(hands, check.hands, strict=True):
        for r in item.data["revisions"]:
            revisions.append(HandRevision(
                hand=row, revision=r["revision"], action=r["action"],
                record=r.get("record", row.record), settlement=r.get("settlement", row.settlement),
                changes=r["changes"], reason=r["reason"], changed_by=by(r["changed_by"]),
                changed_at=at(r["changed_at"]),
            ))  # fmt: skip
    rows_insert(HandRevision, revisions)
    values_insert(Payment, PAYMENT_COLUMNS, _payments(check, hands, player_of, bettor_of))

    _write_tournaments(check, club, snapshots, player_of, session_of, by)
    counts = {
        "players": len(people), "logins": len(users), "memberships": len(memberships),
        "sessions": len(sessions), "hands": len(hands), "revisions": len(revisions),
        "tournaments": len(data["tournaments"]),
    }  # fmt: skip
    return club, counts


def _payments(check: _Checked, hands: list[Hand], player_of: dict, bettor_of: dict):
    """Each live hand's payments, from its settlement: seats S0–S3 are the session's seats,
    bettors B0… the record's bettors in order, found by name among the session's (the
    reading of ``clubs.services.hands``). Rows in ``PAYMENT_COLUMNS``' order."""
    data = check.data
    rows = []
    for row, item in zip(hands, check.hands, strict=True):
        if item.data["is_deleted"] or item.settlement is None:
            continue
        s = data["sessions"][item.session]
        seats = [(player_of[ref].pk, None) for ref in s["seats"]]
        by_name = {}
        for b in s["bettors"]:
            name = player_of[b["player"]].name if b["player"] else b["guest_name"]
            by_name[name] = (None, bettor_of[b["id"]].pk)
        parties = {f"S{n}": ids for n, ids in enumerate(seats)}
        for n, b in enumerate(item.settlement.record.bettors):
            parties[f"B{n}"] = by_name[b.name]
        for position, p in enumerate(item.settlement.payments):
            rows.append((
                row.pk, position, *parties[p.payer], *parties[p.payee], p.amount, p.reason,
                p.event,
            ))  # fmt: skip
    return rows


def _write_tournaments(check, club, snapshots, player_of, session_of, by) -> None:
    at = check.moment
    for t in check.data["tournaments"]:
        tournament = Tournament.objects.create(
            name=t["name"], slug=t["slug"], club=club, hosted=t["hosted"],
            ruleset=snapshots[t["ruleset"]], base=t["base"], mode=t["mode"],
            rounds=t["rounds"], hands_per_table=t["hands_per_table"],
            placement_points=t["placement_points"], tiebreaks=t["tiebreaks"],
            seating=t["seating"], seed=t["seed"],
            bye_points=None if t["bye_points"] is None else Decimal(t["bye_points"]),
            bye_table_score=t["bye_table_score"], status=t["status"], is_public=t["is_public"],
            seating_plan=[
                {"tables": [{"number": table["number"],
                             "players": [player_of[p].pk for p in table["players"]]}
                            for table in planned["tables"]],
                 "byes": [player_of[p].pk for p in planned["byes"]]}
                for planned in t["seating_plan"]
            ],
            created_by=by(t["created_by"]),
        )  # fmt: skip
        Tournament.objects.filter(pk=tournament.pk).update(created_at=at(t["created_at"]))
        rows_insert(Registration, [
            Registration(
                tournament=tournament, player=player_of[r["player"]],
                seed_rating=r["seed_rating"], status=r["status"], first_round=r["first_round"],
                withdrawn_after=r["withdrawn_after"], pinned_table=r["pinned_table"],
                created_at=at(r["created_at"]),
            )
            for r in t["registrations"]
        ])  # fmt: skip
        rounds = Round.objects.bulk_create([
            Round(
                tournament=tournament, number=r["number"], status=r["status"],
                method=r["method"], byes=[player_of[p].pk for p in r["byes"]],
                quality=r["quality"], seated_at=at(r["seated_at"]),
            )
            for r in t["rounds_played"]
        ])  # fmt: skip
        rows_insert(RoundUnlock, [
            RoundUnlock(round=row, reason=u["reason"], unlocked_by=by(u["unlocked_by"]),
                        unlocked_at=at(u["unlocked_at"]))
            for row, r in zip(rounds, t["rounds_played"], strict=True)
            for u in r["unlocks"]
        ])  # fmt: skip
        Table.objects.bulk_create([
            Table(round=row, number=table["number"], session=session_of[table["session"]])
            for row, r in zip(rounds, t["rounds_played"], strict=True)
            for table in r["tables"]
        ])  # fmt: skip


def club_import(data: Any) -> ImportReport:
    """Check the file whole, then write it in one transaction; Invalid (nothing written) with
    every problem otherwise. Then the derived data: standings, statistics' lines, ratings."""
    started = time.perf_counter()
    if isinstance(data, dict) and (data.get("format"), data.get("version")) != (FORMAT, VERSION):
        if data.get("format") != FORMAT:
            raise Invalid.single("format", "not_a_club_export", f"not a {FORMAT!r} file")
        message = f"this server reads version {VERSION} of the format, not {data.get('version')!r}"
        raise Invalid.single("version", "unsupported_version", message)
    check = club_check(data)
    checked = time.perf_counter()
    try:
        with transaction.atomic():
            club, counts = _write(check)
            written = time.perf_counter()
            for tournament in Tournament.objects.filter(club=club).order_by("pk"):
                if tournament.round_set.exists():
                    standings_compute(tournament_id=tournament.pk)
            club_recompute(club_id=club.pk)
    except IntegrityError as e:  # the club, a tournament or a login made meanwhile
        message = "this server changed while the file was being imported; nothing was: try again"
        raise Conflict("import_conflict", message) from e
    done = time.perf_counter()
    counts["hands_settled"] = check.settled
    system = data["ratings"]["system"]
    note = ""
    if system["key"] != rating_system.system_key():
        note = (
            f"the file's ratings were computed with {system['model']} (openskill "
            f"{system['library_version']}); they were computed again with "
            f"{rating_system.MODEL_NAME} (openskill {rating_system.LIBRARY_VERSION})"
        )
    seconds = {
        "check": checked - started, "write": written - checked,
        "ratings": done - written, "total": done - started,
    }  # fmt: skip
    return ImportReport(club=club, counts=counts, rating_note=note, seconds=seconds)
