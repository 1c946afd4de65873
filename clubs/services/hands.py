"""Hands (一局) of a table session: record, correct and soft-delete them, with their history.

A hand is submitted as the engine's hand record without the session's own fields (ruleset,
base, mode), plus an optional ``number``. The rules engine settles it under the rules the
session pinned before anything is stored, so a refused hand stores nothing; every state of a
hand is kept as a revision. Each write is one transaction and asks for
``clubs.session_changed`` through the outbox.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from clubs.confirming import RULING
from clubs.fastpath import (
    LockedSession,
    SessionState,
    hand_write,
    lock_session_state,
    payments_insert,
    session_state,
)
from clubs.limits import HAND_NUMBER
from clubs.models import Hand, HandConfirmation, HandRevision, TableSession
from clubs.selectors import HandView, PaymentRow, Table
from clubs.services.confirmations import (
    counts_on_entry,
    hand_standing_of,
    recount,
    session_rule,
)
from clubs.services.sessions import require_open
from clubs.tasks import FOLLOW_CLAUSE, follow_session, follow_up_clauses, session_written
from core import live
from core.errors import Conflict, Invalid, problem
from core.idempotency import AnswerInWrite
from core.text import clean_text
from scoring.engine.settle import Settlement
from scoring.services import hand_settle, same_rules

#: fields of a hand record the session decides; a submitted hand may repeat them, not change them
SESSION_FIELDS = ("ruleset", "base", "mode")
#: what a scorer submits for a hand: the engine's hand record without the session's fields
HAND_FIELDS = ("number", "dealer", "declared_void", "events", "draw", "bettors", "session")


def _settle(
    session: TableSession, data: Any, table: Table, dealer: int | None
) -> tuple[dict, Settlement]:
    """The stored record of a submitted hand, and its settlement under the session's rules.

    ``dealer``: the dealer when the hand does not say (the previous hand's next dealer), None
    when nobody knows (the first hand, or 血战's dice): then the hand must say."""
    if not isinstance(data, dict):
        raise Invalid.single("", "invalid_body", "a hand is a JSON object")
    problems = []
    if "dealer" not in data:
        if dealer is None:
            message = (
                "say who deals this hand (dealer: seat 0–3): the previous hand does not tell"
                " (the first hand, or 血战 where the dice choose the next dealer)"
            )
            problems.append(problem("dealer", "dealer_required", message))
        else:
            data = {**data, "dealer": dealer}
    session_values = {"ruleset": session.ruleset.spec, "base": session.base, "mode": session.mode}
    for key in SESSION_FIELDS:
        if key in data and data[key] != session_values[key]:
            if key == "ruleset" and same_rules(data[key], session.ruleset):
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
    settlement = None
    try:
        settlement = hand_settle(
            snapshot=session.ruleset, record={k: v for k, v in record.items() if k != "ruleset"}
        )
    except Invalid as e:
        problems += e.problems
    else:
        if not settlement.finished:  # RULES §4.10: a session stores finished hands only
            message = (
                "a recorded hand is finished: three winners in 血战到底, the first win (or one "
                "一炮多响 discard) in 普通, or a draw with every player still in showing"
            )
            problems.append(problem("events", "hand_not_finished", message))
    if problems:
        raise Invalid(problems)
    return record, settlement


def _payment_rows(settlement: Settlement, table: Table) -> tuple[PaymentRow, ...]:
    """The settlement's payments with the session's parties: seats S0–S3, bettors B0… in the
    order the record lists them."""
    bettors = [table.bettors[b.name] for b in settlement.record.bettors]

    def party(label: str):
        index = int(label[1:])
        return table.seats[index] if label[0] == "S" else bettors[index]

    return tuple(
        PaymentRow(party(p.payer), party(p.payee), p.amount, p.reason, p.event)
        for p in settlement.payments
    )


def hand_record(*, session: TableSession, data: Any, user) -> HandView:
    """Record a hand (一局) of an open session in a transaction of its own, which locks the
    session first. ``session`` needs only its primary key."""
    with transaction.atomic():
        locked, state = lock_session_state(session.pk)
        return hand_record_locked(locked=locked, data=data, user=user, state=state)


def hand_record_locked(
    *,
    locked: LockedSession,
    data: Any,
    user,
    state: SessionState | None = None,
    answer: AnswerInWrite | None = None,
) -> HandView:
    """Record a hand in the caller's transaction, which holds the session's lock
    (:func:`clubs.fastpath.lock_session`, or :func:`clubs.fastpath.lock_session_state`, which
    also gives ``state``): settle it, store it with its payments. ``answer``: the answer of
    an idempotent POST, given the hand's read model before the write (all of it is known by
    then) and stored by it; a refused hand stores none.

    Its number is the next one (a number is never used twice, a deleted hand's included), its
    dealer by default the previous hand's next dealer."""
    session = locked.session
    require_open(session)
    if state is None:
        state = session_state(session.pk)  # after the lock: what the writer before committed
    if state.has_results:
        message = "this session was entered as final results; it has no hands"
        raise Conflict("session_has_results", message)
    number = data.get("number") if isinstance(data, dict) else None
    low, high = HAND_NUMBER["min_value"], HAND_NUMBER["max_value"]
    if number is not None and (type(number) is not int or not low <= number <= high):
        message = f"a hand number is a whole number from {low} to {high}"
        raise Invalid.single("number", "invalid_number", message)
    number = number or (state.top or 0) + 1
    _check_limit(session, number, state.live)
    dealer = _previous_next_dealer(session, number, state)
    record, settlement = _settle(session, data, state.table, dealer)
    entry_seat = state.seat_of_user(user)
    now = timezone.now()
    hand = Hand(
        session=session,
        number=number,
        record=record,
        settlement=settlement.as_dict(),
        ruleset_fingerprint=session.ruleset.fingerprint,
        dealer=record.get("dealer", 0),
        next_dealer=settlement.next_dealer,
        entered_by=user,
        entered_at=now,
        updated_at=now,
        entry_seat=entry_seat,
        # the table's confirmation rule may hold it until the other players confirm it
        counts=counts_on_entry(session, entry_seat),
    )
    payments = _payment_rows(settlement, state.table)
    view = HandView(hand, payments)
    if answer is not None:
        answer.give(view)
    follow_up = follow_up_clauses(session.pk)
    try:
        if follow_up is None:
            _store(hand, record, payments)
            if answer is not None:
                answer.store()
        else:  # one statement: the hand, its payments and revision, the follow-up, the answer
            written = hand_write(
                hand, payments, follow=FOLLOW_CLAUSE, outbox=follow_up, answer=answer
            )
    except IntegrityError as e:
        # the unique constraint on hand numbers: another scorer was first, or the number was
        # a hand that is now deleted (numbers are never used twice); or the one on the answer's
        # key: the same request, sent twice at once, was first (core.idempotency answers it)
        message = f"hand {hand.number} of this session is already recorded"
        raise Conflict("hand_exists", message) from e
    if follow_up is None:
        follow_session(session.pk)
    else:
        hand.pk = written.hand_id
        hand._state.adding = False
        session_written(session.pk, written.club_id, written.kind, written.version)
    return view


def _store(hand: Hand, record: dict, payments: tuple[PaymentRow, ...]) -> None:
    """Store a new hand, its payments and its first revision, a statement each (where
    :func:`clubs.fastpath.hand_write` cannot)."""
    hand.save(force_insert=True)
    payments_insert(hand.pk, payments)
    HandRevision.objects.create(
        hand=hand,
        revision=1,
        action=HandRevision.Action.CREATED,
        record=record,
        settlement=hand.settlement,
        changes=sorted(record),
        changed_by=hand.entered_by,
    )


def _check_limit(session: TableSession, number: int, live: int | None = None) -> None:
    """A table that plays a fixed number of hands (a tournament table) takes no more.
    ``live``: its live hands, when they were counted already."""
    limit = session.hand_limit
    if limit is None:
        return
    if live is None and number <= limit:
        live = session.hands.filter(is_deleted=False).count()
    if number > limit or live >= limit:
        message = f"this table plays {limit} hands; they are all recorded"
        raise Conflict("table_complete", message, path="number")


def _previous_next_dealer(
    session: TableSession, number: int, state: SessionState | None = None
) -> int | None:
    """The dealer of hand ``number`` by the hand before it: that hand's next dealer (None when
    there is no hand before it, or it left the next dealer to the dice)."""
    if state is not None and (state.latest is None or state.latest < number):
        return state.next_dealer if state.latest is not None else None
    previous = (
        session.hands.filter(is_deleted=False, number__lt=number)
        .order_by("-number")
        .values_list("next_dealer", flat=True)
        .first()
    )
    return previous


#: the longest reason a revision keeps (HandRevision.reason)
REASON_LENGTH = 200


def _reason(reason: Any, *, required: bool) -> str:
    """A revision's reason as text: required to delete a hand, optional to correct one."""
    if reason in (None, "") and not required:
        return ""
    if not isinstance(reason, str) or not reason.strip():
        raise Invalid.single("reason", "reason_required", "say why, in a few words")
    clean_text(reason, "reason")
    if len(reason.strip()) > REASON_LENGTH:
        message = f"a reason of at most {REASON_LENGTH} characters"
        raise Invalid.single("reason", "too_long", message)
    return reason.strip()


@transaction.atomic
def hand_correct(
    *, hand: Hand, data: Any, user, reason: str | None = None, reason_required: bool = False
) -> Hand:
    """Correct a hand: re-validate and re-settle it under the session's pinned rules, keeping
    the earlier revision. ``reason_required``: the table page asks why (the API leaves it to
    the client). The corrected hand is a new entry, by whoever corrected it: what the players
    said about the one before no longer counts, and the table's confirmation rule asks them
    again."""
    hand = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("session__ruleset", "session__club")
        .get(pk=hand.pk)
    )
    require_open(hand.session)
    reason = _reason(reason, required=reason_required)
    if isinstance(data, dict) and "number" in data and data["number"] != hand.number:
        raise Invalid.single("number", "number_is_fixed", "a correction keeps the hand number")
    state = session_state(hand.session_id)
    table = state.table
    dealer = _previous_next_dealer(hand.session, hand.number)
    record, settlement = _settle(hand.session, data, table, dealer)
    changes = sorted(
        k for k in set(record) | set(hand.record) if record.get(k) != hand.record.get(k)
    )
    hand.record = record
    hand.settlement = settlement.as_dict()
    hand.ruleset_fingerprint = hand.session.ruleset.fingerprint
    hand.dealer = record.get("dealer", 0)
    hand.next_dealer = settlement.next_dealer
    hand.revision += 1
    hand.entry_seat = state.seat_of_user(user)
    hand.counts = counts_on_entry(hand.session, hand.entry_seat)
    hand.save()
    hand.payments.all().delete()
    payments_insert(hand.pk, _payment_rows(settlement, table))
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
    follow_session(hand.session_id)
    return hand


@transaction.atomic
def hand_delete(*, hand: Hand, reason: str, user) -> Hand:
    """Soft-delete a hand with a reason: its payments stop counting, its history stays."""
    hand = Hand.objects.select_for_update().select_related("session").get(pk=hand.pk)
    require_open(hand.session)
    hand.is_deleted = True
    hand.deleted_reason = _reason(reason, required=True)
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
    follow_session(hand.session_id)
    return hand


def hand_resolve(*, hand: Hand, reason: Any, user, data: Any = None) -> Hand:
    """The organiser's (referee's) ruling on a disputed or held hand, with a reason: it stands
    as recorded, or (``data``: the corrected hand record) it is corrected — a correction with
    that reason. Either way it counts from now on, whatever the confirmations say, until it is
    corrected again. The caller checked the role (``clubs.models.Role.REFEREE``)."""
    reason = _reason(reason, required=True)
    with transaction.atomic():
        if data is not None:
            hand = hand_correct(hand=hand, data=data, user=user, reason=reason)
        hand = (
            Hand.objects.select_for_update(of=("self",))
            .select_related("session__club")
            .get(pk=hand.pk)
        )
        require_open(hand.session)
        if hand.is_deleted:
            raise Conflict("hand_deleted", "this hand was deleted: there is nothing to resolve")
        rule = session_rule(hand.session)
        if data is None:
            now = hand_standing_of(hand, rule)
            if now.counts and not now.is_disputed:
                message = "this hand is neither disputed nor held: there is nothing to resolve"
                raise Conflict("nothing_to_resolve", message)
        HandConfirmation.objects.create(
            hand=hand, revision=hand.revision, seat=None, verdict=RULING, words=reason,
            by=user if user is not None and user.is_authenticated else None,
        )  # fmt: skip
        if recount(hand, rule):
            follow_session(hand.session_id)
        else:  # the ruling is said on every phone at the table
            live.announce(live.table_channel(hand.session_id), kind="word", table=hand.session_id)
    return hand
