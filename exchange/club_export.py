"""A club's whole history as one JSON document (format ``xuezhan-club``, version 1).

What is in it, and what the schema (``exchange/schema/club-export-v1.json``) says of each part:
the club, the ruleset snapshots its sessions and tournaments pinned, the players it names (its
members, everyone seated, betting or registered in its tournaments), their memberships, every
table session with its seats, 叫马 bettors, final results and hands (record, stored settlement,
every revision), its tournaments with their registrations, rounds, unlocks and tables, and the
rating system its ratings were computed with.

Ids in the file are the file's own (``p1``, ``s12``, ``b3`` …), numbered in a stable order (players
by age, sessions in play order, rulesets by fingerprint, logins by username), so that a club
exported, imported elsewhere and exported again gives the same file (``exported_at`` apart).

What is derived is not written: payments (the settlement's, read against the seats), the
statistics' lines, ratings and standings; the import computes them again. Logins are usernames,
never password hashes. ``public_only`` leaves out the logins and who did what (entered a hand,
opened a table), and the organisers' notes and reasons (a table's notes, why a hand was
corrected or deleted, why a round was unlocked).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs.models import (
    Bettor,
    Club,
    Hand,
    HandRevision,
    Membership,
    Player,
    Seat,
    SessionResult,
    TableSession,
)
from ratings import system as rating_system
from ratings.models import RatingPool
from scoring.models import RulesetSnapshot
from tournaments.models import Registration, Round, RoundUnlock, Table, Tournament

FORMAT = "xuezhan-club"
VERSION = 1


def when(moment: datetime | None) -> str | None:
    """A moment as the file writes it: ISO 8601 in UTC."""
    return None if moment is None else moment.astimezone(UTC).isoformat()


class _Ids:
    """The file's own ids of one kind: ``p1``, ``p2`` … in the order things are numbered."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.of: dict[Any, str] = {}

    def add(self, key: Any) -> str:
        if key not in self.of:
            self.of[key] = f"{self.prefix}{len(self.of) + 1}"
        return self.of[key]

    def get(self, key: Any) -> str | None:
        return None if key is None else self.of.get(key)


def club_export(club: Club, *, public_only: bool = False) -> dict[str, Any]:
    """The club's whole history as the file's JSON value (see the module's docstring)."""
    rows = _read(club)
    names = _Names(public_only)
    for p in rows.players:
        names.players.add(p["pk"])
    for snap in rows.snapshots:
        names.rulesets.add(snap.pk)
    users = _logins(rows, public_only)
    for pk, _ in users:
        names.logins.add(pk)
    sessions = [_session(s, rows, names) for s in rows.sessions]  # numbers sessions, bettors
    tournaments = [_tournament(t, rows, names) for t in rows.tournaments]
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": when(timezone.now()),
        "public_only": public_only,
        "club": {
            "name": club.name,
            "slug": club.slug,
            "visibility": club.visibility,
            "ruleset": names.rulesets.get(club.ruleset_id),
            "base": club.base,
            "time_zone": club.time_zone,
            "unit_label": club.unit_label,
            "created_at": when(club.created_at),
        },
        "rulesets": [
            {
                "id": names.rulesets.get(s.pk),
                "fingerprint": s.fingerprint,
                "preset": s.preset,
                "spec": s.spec,
                "description": s.description,
            }
            for s in rows.snapshots
        ],  # fmt: skip
        "logins": [{"id": names.logins.get(pk), "username": name} for pk, name in users],
        "players": [
            {
                "id": names.players.get(p["pk"]),
                "name": p["name"],
                "login": None if public_only else names.logins.get(p["user_id"]),
            }
            for p in rows.players
        ],  # fmt: skip
        "memberships": [
            {
                "player": names.players.get(m["player_id"]),
                "role": m["role"],
                "display_name": m["display_name"],
                "joined_at": when(m["joined_at"]),
            }
            for m in rows.memberships
        ],  # fmt: skip
        "sessions": sessions,
        "tournaments": tournaments,
        "ratings": {"system": _rating_system(club)},
    }


def _grouped(rows: Iterable[Any], key: Callable[[Any], int]) -> dict[int, list[Any]]:
    out: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        out[key(row)].append(row)
    return out


@dataclass
class _Rows:
    """What the file holds, one query per kind, grouped by what holds it (a session's seats,
    a tournament's rounds …) in the order the file writes them."""

    sessions: list[dict[str, Any]]
    seats: dict[int, list[int]]
    bettors: dict[int, list[dict[str, Any]]]
    results: dict[int, list[dict[str, Any]]]
    hands: dict[int, list[dict[str, Any]]]
    revisions: dict[int, list[dict[str, Any]]]
    tournaments: list[Tournament]
    registrations: dict[int, list[Registration]]
    rounds: dict[int, list[Round]]
    unlocks: dict[int, list[RoundUnlock]]
    tables: dict[int, list[tuple[int, int]]]
    memberships: list[dict[str, Any]]
    players: list[dict[str, Any]] = field(default_factory=list)
    snapshots: list[RulesetSnapshot] = field(default_factory=list)


def _read(club: Club) -> _Rows:
    rows = _Rows(
        sessions=list(
            TableSession.objects.filter(club=club).order_by("started_at", "pk").values(
                "pk", "started_at", "ruleset_id", "base", "mode", "status", "kind",
                "hand_limit", "lock_code", "lock_message", "notes", "created_by_id",
                "created_at", "closed_at",
            )
        ),
        seats={
            sid: [pid for _, pid in four]
            for sid, four in _grouped(
                Seat.objects.filter(session__club=club).order_by("session_id", "number")
                .values_list("session_id", "player_id"),
                lambda row: row[0],
            ).items()
        },
        bettors=_grouped(
            Bettor.objects.filter(session__club=club).order_by("session_id", "pk")
            .values("pk", "session_id", "player_id", "guest_name"),
            lambda b: b["session_id"],
        ),
        results=_grouped(
            SessionResult.objects.filter(session__club=club).order_by("session_id", "pk")
            .values("session_id", "player_id", "bettor_id", "total"),
            lambda r: r["session_id"],
        ),
        hands=_grouped(
            Hand.objects.filter(session__club=club).order_by("session_id", "number").values(
                "pk", "session_id", "number", "record", "settlement", "revision", "is_deleted",
                "deleted_reason", "entered_by_id", "entered_at", "updated_at",
            ),
            lambda h: h["session_id"],
        ),
        revisions=_grouped(
            HandRevision.objects.filter(hand__session__club=club).order_by("hand_id", "revision")
            .values(
                "hand_id", "revision", "action", "record", "settlement", "changes", "reason",
                "changed_by_id", "changed_at",
            ),
            lambda r: r["hand_id"],
        ),
        tournaments=list(Tournament.objects.filter(club=club).order_by("created_at", "pk")),
        registrations=_grouped(
            Registration.objects.filter(tournament__club=club).order_by("pk"),
            lambda r: r.tournament_id,
        ),
        rounds=_grouped(
            Round.objects.filter(tournament__club=club).order_by("number"),
            lambda r: r.tournament_id,
        ),
        unlocks=_grouped(
            RoundUnlock.objects.filter(round__tournament__club=club).order_by("unlocked_at", "pk"),
            lambda u: u.round_id,
        ),
        tables={
            round_id: [(number, sid) for _, number, sid in found]
            for round_id, found in _grouped(
                Table.objects.filter(round__tournament__club=club).order_by("number")
                .values_list("round_id", "number", "session_id"),
                lambda row: row[0],
            ).items()
        },
        memberships=list(
            Membership.objects.filter(club=club).order_by("pk")
            .values("player_id", "role", "display_name", "joined_at")
        ),
    )  # fmt: skip
    # who the file names: its members, everyone seated, betting or registered
    player_pks = {m["player_id"] for m in rows.memberships}
    for four in rows.seats.values():
        player_pks.update(four)
    for found in rows.bettors.values():
        player_pks.update(b["player_id"] for b in found if b["player_id"])
    for regs in rows.registrations.values():
        player_pks.update(r.player_id for r in regs)
    rows.players = list(
        Player.objects.filter(pk__in=player_pks).order_by("pk").values("pk", "name", "user_id")
    )
    # the rulesets, by fingerprint
    snapshot_pks = {club.ruleset_id} | {s["ruleset_id"] for s in rows.sessions}
    snapshot_pks |= {t.ruleset_id for t in rows.tournaments}
    rows.snapshots = list(
        RulesetSnapshot.objects.filter(pk__in=snapshot_pks).order_by("fingerprint")
    )
    return rows


def _logins(rows: _Rows, public_only: bool) -> list[tuple[int, str]]:
    """The logins the file names (usernames only, never a password): none when public only."""
    user_pks: set[int] = set()
    if not public_only:
        user_pks |= {p["user_id"] for p in rows.players if p["user_id"]}
        user_pks |= {s["created_by_id"] for s in rows.sessions if s["created_by_id"]}
        for hands in rows.hands.values():
            user_pks |= {h["entered_by_id"] for h in hands if h["entered_by_id"]}
        user_pks |= {r["changed_by_id"] for found in rows.revisions.values() for r in found}
        user_pks |= {t.created_by_id for t in rows.tournaments}
        user_pks |= {u.unlocked_by_id for found in rows.unlocks.values() for u in found}
        user_pks.discard(None)  # type: ignore[arg-type]
    return list(
        get_user_model()
        .objects.filter(pk__in=user_pks)
        .order_by("username")
        .values_list("pk", "username")
    )


@dataclass
class _Names:
    """The file's own ids of each kind, and what ``public_only`` leaves out."""

    public_only: bool
    players: _Ids = field(default_factory=lambda: _Ids("p"))
    rulesets: _Ids = field(default_factory=lambda: _Ids("r"))
    logins: _Ids = field(default_factory=lambda: _Ids("u"))
    bettors: _Ids = field(default_factory=lambda: _Ids("b"))
    sessions: _Ids = field(default_factory=lambda: _Ids("s"))
    tournaments: _Ids = field(default_factory=lambda: _Ids("t"))

    def by(self, user_pk: int | None) -> str | None:
        """Who did it, as the file names logins (nobody in a public file)."""
        return None if self.public_only else self.logins.get(user_pk)

    def note(self, text: str) -> str:
        """An organiser's note or reason (none in a public file)."""
        return "" if self.public_only else text


def _session(s: dict[str, Any], rows: _Rows, names: _Names) -> dict[str, Any]:
    sid = names.sessions.add(s["pk"])
    bettors = [
        {"id": names.bettors.add(b["pk"]), "player": names.players.get(b["player_id"]),
         "guest_name": b["guest_name"]}
        for b in rows.bettors.get(s["pk"], [])
    ]  # fmt: skip
    results = [
        {**({"player": names.players.get(r["player_id"])} if r["player_id"]
            else {"bettor": names.bettors.get(r["bettor_id"])}),
         "total": r["total"]}
        for r in rows.results.get(s["pk"], [])
    ]  # fmt: skip
    return {
        "id": sid,
        "started_at": when(s["started_at"]),
        "ruleset": names.rulesets.get(s["ruleset_id"]),
        "base": s["base"],
        "mode": s["mode"],
        "status": s["status"],
        "kind": s["kind"],
        "hand_limit": s["hand_limit"],
        "lock_code": s["lock_code"],
        "lock_message": s["lock_message"],
        "notes": names.note(s["notes"]),
        "created_by": names.by(s["created_by_id"]),
        "created_at": when(s["created_at"]),
        "closed_at": when(s["closed_at"]),
        "seats": [names.players.get(p) for p in rows.seats.get(s["pk"], [])],
        "bettors": bettors,
        "results": results,
        "hands": [
            _hand(h, rows.revisions.get(h["pk"], []), names.by, names.note)
            for h in rows.hands.get(s["pk"], [])
        ],
    }


def _tournament(t: Tournament, rows: _Rows, names: _Names) -> dict[str, Any]:
    player = names.players.get
    return {
        "id": names.tournaments.add(t.pk),
        "name": t.name,
        "slug": t.slug,
        "hosted": t.hosted,
        "ruleset": names.rulesets.get(t.ruleset_id),
        "base": t.base,
        "mode": t.mode,
        "rounds": t.rounds,
        "hands_per_table": t.hands_per_table,
        "placement_points": list(t.placement_points),
        "tiebreaks": list(t.tiebreaks),
        "seating": t.seating,
        "seed": t.seed,
        "bye_points": None if t.bye_points is None else str(t.bye_points),
        "bye_table_score": t.bye_table_score,
        "status": t.status,
        "is_public": t.is_public,
        "seating_plan": [
            {
                "tables": [
                    {"number": table["number"], "players": [player(p) for p in table["players"]]}
                    for table in planned.get("tables", [])
                ],
                "byes": [player(p) for p in planned.get("byes", [])],
            }
            for planned in t.seating_plan or []
        ],
        "created_by": names.by(t.created_by_id),
        "created_at": when(t.created_at),
        "registrations": [
            {
                "player": player(r.player_id),
                "seed_rating": r.seed_rating,
                "status": r.status,
                "first_round": r.first_round,
                "withdrawn_after": r.withdrawn_after,
                "pinned_table": r.pinned_table,
                "created_at": when(r.created_at),
            }
            for r in rows.registrations.get(t.pk, [])
        ],
        "rounds_played": [_round(r, rows, names) for r in rows.rounds.get(t.pk, [])],
    }


def _round(r: Round, rows: _Rows, names: _Names) -> dict[str, Any]:
    return {
        "number": r.number,
        "status": r.status,
        "method": r.method,
        "byes": [names.players.get(p) for p in r.byes],
        "quality": r.quality,
        "seated_at": when(r.seated_at),
        "unlocks": [
            {"reason": names.note(u.reason), "unlocked_by": names.by(u.unlocked_by_id),
             "unlocked_at": when(u.unlocked_at)}
            for u in rows.unlocks.get(r.pk, [])
        ],
        "tables": [
            {"number": number, "session": names.sessions.get(sid)}
            for number, sid in rows.tables.get(r.pk, [])
        ],
    }  # fmt: skip


def _hand(h: dict[str, Any], revisions: list[dict[str, Any]], by, note) -> dict[str, Any]:
    out_revisions = []
    for r in revisions:
        rev: dict[str, Any] = {"revision": r["revision"], "action": r["action"]}
        # a revision's record and settlement are written only where they are not the hand's
        if r["record"] != h["record"] or r["settlement"] != h["settlement"]:
            rev["record"], rev["settlement"] = r["record"], r["settlement"]
        rev |= {
            "changes": list(r["changes"]),
            "reason": note(r["reason"]),
            "changed_by": by(r["changed_by_id"]),
            "changed_at": when(r["changed_at"]),
        }
        out_revisions.append(rev)
    return {
        "number": h["number"],
        "record": h["record"],
        "settlement": h["settlement"],
        "revision": h["revision"],
        "is_deleted": h["is_deleted"],
        "deleted_reason": note(h["deleted_reason"]),
        "entered_by": by(h["entered_by_id"]),
        "entered_at": when(h["entered_at"]),
        "updated_at": when(h["updated_at"]),
        "revisions": out_revisions,
    }


def _rating_system(club: Club) -> dict[str, Any]:
    """The system the club's own ratings were computed with; the one this server computes
    with when it has rated nothing of the club yet."""
    pool = (
        RatingPool.objects.filter(club=club, tournament__isnull=True)
        .select_related("system")
        .first()
    )
    if pool is not None:
        s = pool.system
        return {"model": s.model, "parameters": s.parameters,
                "library_version": s.library_version, "key": s.key}  # fmt: skip
    return {
        "model": rating_system.MODEL_NAME,
        "parameters": rating_system.PARAMETERS,
        "library_version": rating_system.LIBRARY_VERSION,
        "key": rating_system.system_key(),
    }
