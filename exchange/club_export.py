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
    sessions = list(
        TableSession.objects.filter(club=club).order_by("started_at", "pk").values(
            "pk", "started_at", "ruleset_id", "base", "mode", "status", "kind", "hand_limit",
            "lock_code", "lock_message", "notes", "created_by_id", "created_at", "closed_at",
        )
    )  # fmt: skip
    seats: dict[int, list[int]] = defaultdict(list)
    for sid, pid in (
        Seat.objects.filter(session__club=club)
        .order_by("session_id", "number")
        .values_list("session_id", "player_id")
    ):
        seats[sid].append(pid)
    bettors: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for b in (
        Bettor.objects.filter(session__club=club)
        .order_by("session_id", "pk")
        .values("pk", "session_id", "player_id", "guest_name")
    ):
        bettors[b["session_id"]].append(b)
    results: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in (
        SessionResult.objects.filter(session__club=club)
        .order_by("session_id", "pk")
        .values("session_id", "player_id", "bettor_id", "total")
    ):
        results[r["session_id"]].append(r)
    tournaments = list(Tournament.objects.filter(club=club).order_by("created_at", "pk"))
    registrations: dict[int, list[Registration]] = defaultdict(list)
    for reg in Registration.objects.filter(tournament__club=club).order_by("pk"):
        registrations[reg.tournament_id].append(reg)
    rounds: dict[int, list[Round]] = defaultdict(list)
    for round_ in Round.objects.filter(tournament__club=club).order_by("number"):
        rounds[round_.tournament_id].append(round_)
    unlocks: dict[int, list[RoundUnlock]] = defaultdict(list)
    for unlock in RoundUnlock.objects.filter(round__tournament__club=club).order_by(
        "unlocked_at", "pk"
    ):
        unlocks[unlock.round_id].append(unlock)
    tables: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for round_id, number, sid in (
        Table.objects.filter(round__tournament__club=club)
        .order_by("number")
        .values_list("round_id", "number", "session_id")
    ):
        tables[round_id].append((number, sid))
    memberships = list(
        Membership.objects.filter(club=club)
        .order_by("pk")
        .values("player_id", "role", "display_name", "joined_at")
    )

    # --- who the file names -------------------------------------------------------------
    player_pks = {m["player_id"] for m in memberships}
    for four in seats.values():
        player_pks.update(four)
    for rows in bettors.values():
        player_pks.update(b["player_id"] for b in rows if b["player_id"])
    for regs in registrations.values():
        player_pks.update(r.player_id for r in regs)
    players = list(
        Player.objects.filter(pk__in=player_pks).order_by("pk").values("pk", "name", "user_id")
    )
    player_ids = _Ids("p")
    for p in players:
        player_ids.add(p["pk"])

    # --- rulesets, by fingerprint -----------------------------------------------------------
    snapshot_pks = {club.ruleset_id} | {s["ruleset_id"] for s in sessions}
    snapshot_pks |= {t.ruleset_id for t in tournaments}
    snapshots = list(RulesetSnapshot.objects.filter(pk__in=snapshot_pks).order_by("fingerprint"))
    ruleset_ids = _Ids("r")
    for snap in snapshots:
        ruleset_ids.add(snap.pk)

    # --- hands and their revisions --------------------------------------------------------
    hands: dict[int, list[dict[str, Any]]] = defaultdict(list)
    hand_rows = list(
        Hand.objects.filter(session__club=club).order_by("session_id", "number").values(
            "pk", "session_id", "number", "record", "settlement", "revision", "is_deleted",
            "deleted_reason", "entered_by_id", "entered_at", "updated_at",
        )
    )  # fmt: skip
    revisions: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for rev in (
        HandRevision.objects.filter(hand__session__club=club)
        .order_by("hand_id", "revision")
        .values(
            "hand_id", "revision", "action", "record", "settlement", "changes", "reason",
            "changed_by_id", "changed_at",
        )
    ):  # fmt: skip
        revisions[rev["hand_id"]].append(rev)

    # --- logins: usernames only, never a password ---------------------------------------
    user_pks: set[int] = set()
    if not public_only:
        user_pks |= {p["user_id"] for p in players if p["user_id"]}
        user_pks |= {s["created_by_id"] for s in sessions if s["created_by_id"]}
        user_pks |= {h["entered_by_id"] for h in hand_rows if h["entered_by_id"]}
        user_pks |= {r["changed_by_id"] for rows in revisions.values() for r in rows}
        user_pks |= {t.created_by_id for t in tournaments}
        user_pks |= {u.unlocked_by_id for rows in unlocks.values() for u in rows}
        user_pks.discard(None)
    users = list(
        get_user_model()
        .objects.filter(pk__in=user_pks)
        .order_by("username")
        .values_list("pk", "username")
    )
    login_ids = _Ids("u")
    for pk, _ in users:
        login_ids.add(pk)

    def by(user_pk: int | None) -> str | None:
        return None if public_only else login_ids.get(user_pk)

    def note(text: str) -> str:
        return "" if public_only else text

    for h in hand_rows:
        hands[h["session_id"]].append(_hand(h, revisions.get(h["pk"], []), by, note))

    bettor_ids = _Ids("b")
    session_ids_file = _Ids("s")
    out_sessions = []
    for s in sessions:
        sid = session_ids_file.add(s["pk"])
        out_bettors = []
        for b in bettors.get(s["pk"], []):
            out_bettors.append({
                "id": bettor_ids.add(b["pk"]),
                "player": player_ids.get(b["player_id"]),
                "guest_name": b["guest_name"],
            })  # fmt: skip
        out_results = []
        for r in results.get(s["pk"], []):
            who = (
                {"player": player_ids.get(r["player_id"])}
                if r["player_id"]
                else {"bettor": bettor_ids.get(r["bettor_id"])}
            )
            out_results.append({**who, "total": r["total"]})
        out_sessions.append({
            "id": sid,
            "started_at": when(s["started_at"]),
            "ruleset": ruleset_ids.get(s["ruleset_id"]),
            "base": s["base"],
            "mode": s["mode"],
            "status": s["status"],
            "kind": s["kind"],
            "hand_limit": s["hand_limit"],
            "lock_code": s["lock_code"],
            "lock_message": s["lock_message"],
            "notes": note(s["notes"]),
            "created_by": by(s["created_by_id"]),
            "created_at": when(s["created_at"]),
            "closed_at": when(s["closed_at"]),
            "seats": [player_ids.get(p) for p in seats.get(s["pk"], [])],
            "bettors": out_bettors,
            "results": out_results,
            "hands": hands.get(s["pk"], []),
        })  # fmt: skip

    tournament_ids = _Ids("t")
    out_tournaments = []
    for t in tournaments:
        out_tournaments.append({
            "id": tournament_ids.add(t.pk),
            "name": t.name,
            "slug": t.slug,
            "hosted": t.hosted,
            "ruleset": ruleset_ids.get(t.ruleset_id),
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
                        {"number": table["number"],
                         "players": [player_ids.get(p) for p in table["players"]]}
                        for table in planned.get("tables", [])
                    ],
                    "byes": [player_ids.get(p) for p in planned.get("byes", [])],
                }
                for planned in t.seating_plan or []
            ],
            "created_by": by(t.created_by_id),
            "created_at": when(t.created_at),
            "registrations": [
                {
                    "player": player_ids.get(r.player_id),
                    "seed_rating": r.seed_rating,
                    "status": r.status,
                    "first_round": r.first_round,
                    "withdrawn_after": r.withdrawn_after,
                    "pinned_table": r.pinned_table,
                    "created_at": when(r.created_at),
                }
                for r in registrations.get(t.pk, [])
            ],
            "rounds_played": [
                {
                    "number": r.number,
                    "status": r.status,
                    "method": r.method,
                    "byes": [player_ids.get(p) for p in r.byes],
                    "quality": r.quality,
                    "seated_at": when(r.seated_at),
                    "unlocks": [
                        {"reason": note(u.reason), "unlocked_by": by(u.unlocked_by_id),
                         "unlocked_at": when(u.unlocked_at)}
                        for u in unlocks.get(r.pk, [])
                    ],
                    "tables": [
                        {"number": number, "session": session_ids_file.get(sid)}
                        for number, sid in tables.get(r.pk, [])
                    ],
                }
                for r in rounds.get(t.pk, [])
            ],
        })  # fmt: skip

    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": when(timezone.now()),
        "public_only": public_only,
        "club": {
            "name": club.name,
            "slug": club.slug,
            "visibility": club.visibility,
            "ruleset": ruleset_ids.get(club.ruleset_id),
            "base": club.base,
            "time_zone": club.time_zone,
            "unit_label": club.unit_label,
            "created_at": when(club.created_at),
        },
        "rulesets": [
            {
                "id": ruleset_ids.get(s.pk),
                "fingerprint": s.fingerprint,
                "preset": s.preset,
                "spec": s.spec,
                "description": s.description,
            }
            for s in snapshots
        ],  # fmt: skip
        "logins": [{"id": login_ids.get(pk), "username": name} for pk, name in users],
        "players": [
            {
                "id": player_ids.get(p["pk"]),
                "name": p["name"],
                "login": None if public_only else login_ids.get(p["user_id"]),
            }
            for p in players
        ],  # fmt: skip
        "memberships": [
            {
                "player": player_ids.get(m["player_id"]),
                "role": m["role"],
                "display_name": m["display_name"],
                "joined_at": when(m["joined_at"]),
            }
            for m in memberships
        ],  # fmt: skip
        "sessions": out_sessions,
        "tournaments": out_tournaments,
        "ratings": {"system": _rating_system(club)},
    }


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
