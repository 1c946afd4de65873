"""Writes of the scoring app: ruleset snapshots, hands (record, correct, delete), final results.

Every write is one transaction; the engine settles a hand before anything is stored, so a
refused hand stores nothing. Errors are raised as ``config.errors`` exceptions in the API's
one error shape.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Subquery

from clubs.models import SessionResult, TableSession
from config.errors import ApiError, Conflict
from config.errors import error as problem
from scoring.engine import EngineError, resolve_ruleset
from scoring.engine.settle import Settlement, settle
from scoring.models import Hand, HandRevision, Payment, RulesetSnapshot
from scoring.tasks import session_changed

#: fields of a hand record the session decides; a submitted hand may repeat them, not change them
SESSION_FIELDS = ("ruleset", "base", "mode")
#: what a scorer submits for a hand: the engine's hand record without the session's fields
HAND_FIELDS = ("number", "dealer", "declared_void", "events", "draw", "bettors", "session")


def ruleset_snapshot_get_or_create(*, spec: Any, path: str = "ruleset") -> RulesetSnapshot:
    """The snapshot of a ruleset spec, shared by every session playing identical rules."""
    try:
        r = resolve_ruleset(spec, path)
    except EngineError as e:
        raise ApiError(e.as_dicts()) from e
    snapshot, _ = RulesetSnapshot.objects.get_or_create(
        fingerprint=r.fingerprint,
        defaults={"preset": r.preset, "spec": r.to_spec(), "description": r.as_dict()},
    )
    return snapshot


def hand_settle(*, session: TableSession, data: dict[str, Any]) -> tuple[dict, Settlement]:
    """The engine record of a submitted hand under its session's rules, and its settlement."""
    if not isinstance(data, dict):
        raise ApiError.single("", "invalid_body", "a hand is a JSON object")
    problems = []
    session_values = {
        "ruleset": session.ruleset.spec,
        "base": session.base,
        "mode": session.mode,
    }
    for key in SESSION_FIELDS:
        if key in data and data[key] != session_values[key]:
            if key == "ruleset" and _same_rules(data[key], session.ruleset.fingerprint):
                continue
            message = f"this session plays with {key} {session_values[key]!r}"
            problems.append(problem(key, "differs_from_session", message))
    unknown = sorted(set(data) - set(HAND_FIELDS) - set(SESSION_FIELDS))
    problems += [problem(k, "unknown_field", f"unknown field {k!r}") for k in unknown]
    names = {b.name for b in session.bettors.all()}
    bettors = data.get("bettors") or []
    if isinstance(bettors, list):
        for i, b in enumerate(bettors):
            if isinstance(b, dict) and b.get("name") not in names:
                known = ", ".join(sorted(names)) or "this session has none"
                message = f"a bettor must be one of the session's bettors: {known}"
                problems.append(problem(f"bettors[{i}].name", "unknown_bettor", message))
    record = {k: v for k, v in data.items() if k in HAND_FIELDS and k != "number"}
    record |= session_values
    try:
        settlement = settle(record)
    except EngineError as e:
        problems += e.as_dicts()
        settlement = None
    if problems:
        raise ApiError(problems)
    return record, settlement


def _same_rules(spec: Any, fingerprint: str) -> bool:
    try:
        return resolve_ruleset(spec).fingerprint == fingerprint
    except EngineError:
        return False


def _require_open(session: TableSession) -> None:
    if not session.is_open:
        raise Conflict(
            "this session is closed; an organiser must reopen it before hands change",
            code="session_closed",
        )


def _store_payments(hand: Hand, settlement: Settlement) -> list[Payment]:
    """The settlement's payments as rows (one insert), kept on ``hand.stored_payments``."""
    seats = {s.number: s.player for s in hand.session.seats.all()}
    by_name = {b.name: b for b in hand.session.bettors.all()}
    bettors = [by_name[b.name] for b in settlement.record.bettors]

    def party(label: str) -> tuple[Any, Any]:
        index = int(label[1:])
        return (seats[index], None) if label[0] == "S" else (None, bettors[index])

    rows = []
    for position, p in enumerate(settlement.payments):
        payer_player, payer_bettor = party(p.payer)
        payee_player, payee_bettor = party(p.payee)
        rows.append(
            Payment(
                hand=hand,
                position=position,
                payer_player=payer_player,
                payer_bettor=payer_bettor,
                payee_player=payee_player,
                payee_bettor=payee_bettor,
                amount=p.amount,
                reason=p.reason,
                event=p.event,
            )
        )
    Payment.objects.bulk_create(rows)
    hand.stored_payments = rows
    return rows


def _lock_session(session: TableSession) -> dict[str, Any]:
    """Lock the session row (one writer at a time) and read what a new hand depends on."""
    live = Hand.objects.filter(session=OuterRef("pk"), is_deleted=False)
    state = (
        TableSession.objects.select_for_update(of=("self",))
        .filter(pk=session.pk)
        .annotate(
            has_results=Exists(SessionResult.objects.filter(session=OuterRef("pk"))),
            top=Subquery(live.order_by("-number").values("number")[:1]),
        )
        .values("status", "has_results", "top")
        .get()
    )
    if state["status"] != TableSession.Status.OPEN:
        session.status = state["status"]
        _require_open(session)
    return state


@transaction.atomic
def hand_record(*, session: TableSession, data: dict[str, Any], user) -> Hand:
    """Record a hand (一局) of an open session: settle it, store it with its payments.

    ``session`` comes with its ruleset, seats and bettors loaded (as the API reads it).
    """
    state = _lock_session(session)
    if state["has_results"]:
        message = "this session was entered as final results; it has no hands"
        raise Conflict(message, code="session_has_results")
    number = data.get("number") if isinstance(data, dict) else None
    if number is not None and (type(number) is not int or number < 1):
        raise ApiError.single("number", "invalid_number", "a hand number is a whole number ≥ 1")
    record, settlement = hand_settle(session=session, data=data)
    hand = Hand(
        session=session,
        number=number or (state["top"] or 0) + 1,
        record=record,
        settlement=settlement.as_dict(),
        ruleset_fingerprint=session.ruleset.fingerprint,
        dealer=record.get("dealer", 0),
        next_dealer=settlement.next_dealer,
        entered_by=user,
    )
    try:
        hand.save(force_insert=True)
    except IntegrityError as e:
        # the unique constraint on live hand numbers: another scorer was first
        message = f"hand {hand.number} of this session is already recorded"
        raise Conflict(message, code="hand_exists") from e
    _store_payments(hand, settlement)
    HandRevision.objects.create(
        hand=hand,
        revision=1,
        action=HandRevision.Action.CREATED,
        record=record,
        settlement=hand.settlement,
        changes=sorted(record),
        changed_by=user,
    )
    session_changed.delay_on_commit(session.pk)
    return hand


@transaction.atomic
def hand_correct(*, hand: Hand, data: dict[str, Any], user, reason: str = "") -> Hand:
    """Correct a hand: re-validate and re-settle it, keeping the earlier revision."""
    hand = Hand.objects.select_for_update().select_related("session__ruleset").get(pk=hand.pk)
    _require_open(hand.session)
    if isinstance(data, dict) and "number" in data and data["number"] != hand.number:
        raise ApiError.single("number", "number_is_fixed", "a correction keeps the hand number")
    record, settlement = hand_settle(session=hand.session, data=data)
    changes = sorted(
        k for k in set(record) | set(hand.record) if record.get(k) != hand.record.get(k)
    )
    hand.record = record
    hand.settlement = settlement.as_dict()
    hand.ruleset_fingerprint = hand.session.ruleset.fingerprint
    hand.dealer = record.get("dealer", 0)
    hand.next_dealer = settlement.next_dealer
    hand.revision += 1
    hand.save()
    hand.payments.all().delete()
    _store_payments(hand, settlement)
    HandRevision.objects.create(
        hand=hand,
        revision=hand.revision,
        action=HandRevision.Action.CORRECTED,
        record=record,
        settlement=hand.settlement,
        changes=changes,
        reason=reason,
        changed_by=user,
    )
    session_changed.delay_on_commit(hand.session_id)
    return hand


@transaction.atomic
def hand_delete(*, hand: Hand, reason: str, user) -> Hand:
    """Soft-delete a hand with a reason: its payments stop counting, its history stays."""
    hand = Hand.objects.select_for_update().select_related("session").get(pk=hand.pk)
    _require_open(hand.session)
    if not reason or not reason.strip():
        raise ApiError.single("reason", "reason_required", "say why the hand is deleted")
    hand.is_deleted = True
    hand.deleted_reason = reason.strip()
    hand.revision += 1
    hand.save()
    hand.payments.all().delete()
    HandRevision.objects.create(
        hand=hand,
        revision=hand.revision,
        action=HandRevision.Action.DELETED,
        record=hand.record,
        settlement=hand.settlement,
        reason=hand.deleted_reason,
        changed_by=user,
    )
    session_changed.delay_on_commit(hand.session_id)
    return hand


@transaction.atomic
def session_result_enter(*, session: TableSession, totals: list[dict[str, Any]], user) -> None:
    """Final-result entry: each seated player's (and bettor's) total; they sum to zero."""
    session = TableSession.objects.select_for_update().get(pk=session.pk)
    _require_open(session)
    if session.hands.filter(is_deleted=False).exists():
        message = "this session has recorded hands; its totals come from them"
        raise Conflict(message, code="session_has_hands")
    seated = set(session.seats.values_list("player_id", flat=True))
    bettors = set(session.bettors.values_list("pk", flat=True))
    problems = []
    rows = []
    players_given = set()
    bettors_given = set()
    for i, item in enumerate(totals):
        player, bettor, total = item.get("player"), item.get("bettor"), item.get("total")
        path = f"totals[{i}]"
        if (player is None) == (bettor is None):
            problems.append(
                problem(path, "player_or_bettor", "a total is for one player or one bettor")
            )
            continue
        if player is not None and player not in seated:
            problems.append(
                problem(f"{path}.player", "not_seated", "this player is not seated here")
            )
        if bettor is not None and bettor not in bettors:
            problems.append(problem(f"{path}.bettor", "unknown_bettor", "no such bettor here"))
        if player in players_given:
            problems.append(problem(f"{path}.player", "duplicate", "a player has one total"))
        if bettor in bettors_given:
            problems.append(problem(f"{path}.bettor", "duplicate", "a bettor has one total"))
        if player is not None:
            players_given.add(player)
        if bettor is not None:
            bettors_given.add(bettor)
        rows.append(SessionResult(session=session, player_id=player, bettor_id=bettor, total=total))
    if not problems and players_given != seated:
        message = "give a total for each of the four seated players"
        problems.append(problem("totals", "missing_players", message))
    balance = sum(r.total for r in rows)
    if not problems and balance != 0:
        problems.append(problem("totals", "not_zero_sum", f"the totals sum to {balance}, not 0"))
    if problems:
        raise ApiError(problems)
    session.results.all().delete()
    SessionResult.objects.bulk_create(rows)
    session_changed.delay_on_commit(session.pk)
