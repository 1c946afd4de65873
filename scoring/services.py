"""Writes of the scoring app: ruleset snapshots, hands (record, correct, delete), final results.

Every write is one transaction; the engine settles a hand before anything is stored, so a
refused hand stores nothing. Errors are raised as ``config.errors`` exceptions in the API's
one error shape.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db import IntegrityError, connection, transaction
from django.db.models import BooleanField, IntegerField, QuerySet
from django.db.models.expressions import RawSQL
from django.shortcuts import get_object_or_404

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

# Recording a hand is the service's hottest path, and its queries are tiny: building and
# compiling an ORM query costs several times what running it does. The few below are written
# in SQL (portable: PostgreSQL and SQLite); tests/clubs/test_query_count.py counts them.

#: with the session row (``clubs_tablesession``): does it have final results?
HAS_RESULTS_SQL = (
    "EXISTS (SELECT 1 FROM clubs_sessionresult r WHERE r.session_id = clubs_tablesession.id)"
)
#: with the session row: its top live hand number (NULL before its first hand)
TOP_HAND_SQL = (
    "(SELECT MAX(h.number) FROM scoring_hand h"
    " WHERE h.session_id = clubs_tablesession.id AND NOT h.is_deleted)"
)
#: with the session row: the role in its club of the user whose id is the parameter (NULL: not a
#: member), through his player (unique by user) and its membership (unique by club and player)
VIEWER_ROLE_SQL = (
    "(SELECT m.role FROM clubs_membership m WHERE m.club_id = clubs_tablesession.club_id"
    " AND m.player_id = (SELECT p.id FROM clubs_player p WHERE p.user_id = %s))"
)
#: a session's seats (S, number, player id, name) and bettors (B, id, id, name as Bettor.name)
TABLE_SQL = """
    SELECT 'S', s.number, s.player_id, p.name
      FROM clubs_seat s INNER JOIN clubs_player p ON p.id = s.player_id
     WHERE s.session_id = %s
    UNION ALL
    SELECT 'B', b.id, b.id, COALESCE(p.name, b.guest_name)
      FROM clubs_bettor b LEFT OUTER JOIN clubs_player p ON p.id = b.player_id
     WHERE b.session_id = %s
    ORDER BY 1, 2
"""
#: a hand's payments, one row each (``Payment``, in ``_store_payments``)
PAYMENT_COLUMNS = ("hand_id", "position", "payer_player_id", "payer_bettor_id", "payee_player_id",
                   "payee_bettor_id", "amount", "reason", "event")  # fmt: skip


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


class Party(NamedTuple):
    """Who pays or is paid in a hand: a seated player or a 叫马 bettor (by id), and the name."""

    kind: str  # "player" or "bettor"
    id: int
    name: str


class Table(NamedTuple):
    """A session's parties: its players by seat number and its bettors by name."""

    seats: dict[int, Party]
    bettors: dict[str, Party]


def table_of(session: TableSession) -> Table:
    """Read a session's seated players and its bettors, with their names (one query)."""
    with connection.cursor() as cursor:
        cursor.execute(TABLE_SQL, [session.pk, session.pk])
        rows = cursor.fetchall()
    seats, bettors = {}, {}
    for kind, key, pk, name in rows:
        if kind == "S":
            seats[key] = Party("player", pk, name)
        else:  # in order of id: a later bettor of the same name wins, as in a dict of them
            bettors[name] = Party("bettor", pk, name)
    return Table(seats=seats, bettors=bettors)


class WrittenPayment(NamedTuple):
    """A payment just stored, with its parties (so it is answered without reading it back)."""

    payer: Party
    payee: Party
    amount: int
    reason: str
    event: int | None


def hand_settle(
    *, session: TableSession, data: dict[str, Any], table: Table
) -> tuple[dict, Settlement]:
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
    names = set(table.bettors)
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


def _store_payments(hand: Hand, settlement: Settlement, table: Table) -> None:
    """The settlement's payments as rows (one insert); ``hand.written_payments`` keeps them
    with their parties."""
    bettors = [table.bettors[b.name] for b in settlement.record.bettors]

    def party(label: str) -> Party:
        index = int(label[1:])
        return table.seats[index] if label[0] == "S" else bettors[index]

    def ids(p: Party) -> tuple[int | None, int | None]:
        return (p.id, None) if p.kind == "player" else (None, p.id)

    params, written = [], []
    for position, p in enumerate(settlement.payments):
        payer, payee = party(p.payer), party(p.payee)
        params += (hand.pk, position, *ids(payer), *ids(payee), p.amount, p.reason, p.event)
        written.append(WrittenPayment(payer, payee, p.amount, p.reason, p.event))
    if written:
        row = f"({', '.join(['%s'] * len(PAYMENT_COLUMNS))})"
        sql = (
            f"INSERT INTO {Payment._meta.db_table} ({', '.join(PAYMENT_COLUMNS)}) "
            f"VALUES {', '.join([row] * len(written))}"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
    hand.written_payments = written


def _locked_sessions() -> QuerySet[TableSession]:
    """Sessions read under a row lock (one writer at a time) with what a new hand depends on:
    whether final results were entered (``has_results``) and the top live hand number (``top``,
    None before the first hand)."""
    return TableSession.objects.select_for_update(of=("self",)).annotate(
        has_results=RawSQL(HAS_RESULTS_SQL, (), output_field=BooleanField()),
        top=RawSQL(TOP_HAND_SQL, (), output_field=IntegerField()),
    )


def session_for_new_hand(session_pk: int, *, viewer=None) -> TableSession:
    """The session a hand is about to be recorded in, with its club and ruleset, its row locked
    until the caller's transaction ends, read in one query with what a new hand depends on
    and, given a ``viewer``, his role in the club (``viewer_role``, None: not a member); Http404
    when there is no such session. Pass it to :func:`hand_record` with ``locked=True`` in the
    same transaction."""
    sessions = _locked_sessions().select_related("club", "ruleset")
    if viewer is not None:
        sessions = sessions.annotate(viewer_role=RawSQL(VIEWER_ROLE_SQL, (viewer.pk,)))
    return get_object_or_404(sessions, pk=session_pk)


def _lock_session(session: TableSession) -> dict[str, Any]:
    """Lock the session row (one writer at a time) and read what a new hand depends on."""
    state = _locked_sessions().filter(pk=session.pk).values("status", "has_results", "top").get()
    if state["status"] != TableSession.Status.OPEN:
        session.status = state["status"]
        _require_open(session)
    return state


def hand_record(*, session: TableSession, data: dict[str, Any], user, locked: bool = False) -> Hand:
    """Record a hand (一局) of an open session: settle it, store it with its payments.

    ``session`` comes with its ruleset loaded (its seats and bettors are read here). With
    ``locked``, it comes from :func:`session_for_new_hand` and the hand is written in the
    caller's transaction, which holds the lock; otherwise in a transaction of its own, which
    takes the lock first.
    """
    if locked:
        _require_open(session)
        return _hand_record(session, session.has_results, session.top, data, user)
    with transaction.atomic():
        state = _lock_session(session)
        return _hand_record(session, state["has_results"], state["top"], data, user)


def _hand_record(
    session: TableSession, has_results: bool, top: int | None, data: Any, user
) -> Hand:
    if has_results:
        message = "this session was entered as final results; it has no hands"
        raise Conflict(message, code="session_has_results")
    number = data.get("number") if isinstance(data, dict) else None
    if number is not None and (type(number) is not int or number < 1):
        raise ApiError.single("number", "invalid_number", "a hand number is a whole number ≥ 1")
    table = table_of(session)
    record, settlement = hand_settle(session=session, data=data, table=table)
    hand = Hand(
        session=session,
        number=number or (top or 0) + 1,
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
    _store_payments(hand, settlement, table)
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
    table = table_of(hand.session)
    record, settlement = hand_settle(session=hand.session, data=data, table=table)
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
    _store_payments(hand, settlement, table)
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
