"""Confirming and disputing a hand (issue 24 §2), the rule that holds a hand out of the totals
until it is confirmed, and the organiser's (referee's) ruling on a disputed hand.

The rule itself is plain Python (``clubs.confirming``); this module keeps ``Hand.counts`` in
step with it, in the transaction of the write that changed anything it depends on: a word said
about a hand, a hand recorded or corrected, a ruling, the club's (or a tournament's) rule
changed. Every total, standing, rating and statistic reads only hands that count, so a held
hand is left out everywhere at once. A write that changes whether a hand counts asks for the
session's follow-up through the outbox (``follow_session``), like any hand write; a word that
changes nothing counted does not (a tournament table's approval stays valid).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from clubs.confirming import HandStanding, Word, standing
from clubs.models import ConfirmationRule, Hand, HandConfirmation, Seat, TableSession
from clubs.services.sessions import require_open
from clubs.tasks import follow_session
from core import live
from core.errors import Conflict, Invalid, PermissionDenied
from core.text import clean_text

#: the longest words a confirmation, dispute or ruling keeps (HandConfirmation.words)
WORDS_LENGTH = 200
VERDICTS = (HandConfirmation.Verdict.CONFIRM, HandConfirmation.Verdict.DISPUTE)


def session_rule(session: TableSession) -> str:
    """The confirmation rule a table plays under: its own (a tournament's), else its club's."""
    return session.confirmation_rule or session.club.confirmation_rule


def seat_of_user(session_id: int, user) -> int | None:
    """The seat at this table of the player linked to ``user`` (None: he does not sit here)."""
    if user is None or not user.is_authenticated:
        return None
    return (
        Seat.objects.filter(session_id=session_id, player__user=user)
        .values_list("number", flat=True)
        .first()
    )


def words_of(hand: Hand) -> list[Word]:
    """What was said about the hand's current revision, oldest first."""
    return [
        Word(seat, verdict, words)
        for seat, verdict, words in hand.confirmations.filter(revision=hand.revision)
        .order_by("at", "id")
        .values_list("seat", "verdict", "words")
    ]


def hand_standing_of(hand: Hand, rule: str) -> HandStanding:
    return standing(rule, hand.entry_seat, words_of(hand))


def recount(hand: Hand, rule: str) -> bool:
    """Set ``hand.counts`` by the rule (saved when it changed); whether it changed."""
    counts = hand.is_deleted or hand_standing_of(hand, rule).counts
    if counts == hand.counts:
        return False
    hand.counts = counts
    hand.save(update_fields=["counts", "updated_at"])
    return True


def _words(value: Any, path: str = "words") -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Invalid.single(path, "invalid", "words are text")
    clean_text(value, path)
    value = value.strip()
    if len(value) > WORDS_LENGTH:
        message = f"at most {WORDS_LENGTH} characters"
        raise Invalid.single(path, "too_long", message)
    return value


def hand_confirm(
    *, hand: Hand, verdict: Any, words: Any = "", user=None, seat: Any = None, by_link=False
) -> HandConfirmation:
    """A seated player's word on a hand: ``confirm`` it, or ``dispute`` it in his own words.

    Who: a login whose player sits at the table (his seat; naming another is refused), or
    (``by_link``) whoever holds the table's players' link, who says which seat he is. Nobody
    confirms for the seat that entered the hand (his entry is his word). The hand is the one
    as it stands now; a correction later asks again. One transaction, which locks the session.
    """
    with transaction.atomic():
        # the hand first, then its session (as a correction locks them)
        hand = (
            Hand.objects.select_for_update(of=("self",))
            .select_related("session__club")
            .get(pk=hand.pk)
        )
        session = hand.session
        require_open(session)
        if hand.is_deleted:
            raise Conflict("hand_deleted", "this hand was deleted: there is nothing to confirm")
        own = seat_of_user(session.pk, user)
        if by_link:
            if type(seat) is not int or not 0 <= seat <= 3:
                raise Invalid.single("seat", "seat_required", "say which seat is yours (0–3)")
        elif own is None:
            raise PermissionDenied("only a player seated at this table confirms its hands")
        elif seat is not None and seat != own:
            raise PermissionDenied("you confirm for your own seat only")
        else:
            seat = own
        if verdict not in VERDICTS:
            raise Invalid.single("verdict", "invalid_choice", "confirm or dispute")
        words = _words(words)
        if verdict == HandConfirmation.Verdict.DISPUTE and not words:
            message = "say what is wrong, in a few words (“not 清一色”, “I did not 点炮”)"
            raise Invalid.single("words", "words_required", message)
        if seat == hand.entry_seat:
            message = "this seat entered the hand: its entry is its confirmation"
            raise Conflict("entered_it", message, path="seat")
        row = HandConfirmation.objects.create(
            hand=hand, revision=hand.revision, seat=seat, verdict=verdict, words=words,
            by=user if user is not None and user.is_authenticated else None, by_link=by_link,
        )  # fmt: skip
        if recount(hand, session_rule(session)):
            follow_session(session.pk)
        else:  # the totals stay, but every phone at the table shows the word
            live.announce(live.table_channel(session.pk), kind="word", table=session.pk)
    return row


def counts_on_entry(session: TableSession, entry_seat: int | None) -> bool:
    """Whether a hand just recorded (or corrected) counts at once: under ``shown`` only."""
    return standing(session_rule(session), entry_seat, ()).counts


def sessions_recount(session_ids: Iterable[int]) -> list[int]:
    """Which hands count, worked out again under each open session's rule as it is now (the
    club's or the tournament's rule changed); the sessions where something changed get their
    follow-up. Closed tables keep what they counted: their results have been read. Answers
    the ids of the sessions that changed."""
    changed = []
    sessions = (
        TableSession.objects.filter(pk__in=list(session_ids), status=TableSession.Status.OPEN)
        .select_related("club")
        .order_by("pk")
    )
    for session in sessions:
        rule = session_rule(session)
        moved = False
        for hand in Hand.objects.filter(session=session, is_deleted=False).order_by("number"):
            moved |= recount(hand, rule)
        if moved:
            follow_session(session.pk)
            changed.append(session.pk)
    return changed


def club_rule_followers(club_id: int) -> list[int]:
    """The club's open tables that follow the club's rule (no rule of their own)."""
    return list(
        TableSession.objects.filter(
            club_id=club_id, status=TableSession.Status.OPEN, confirmation_rule=""
        ).values_list("pk", flat=True)
    )


@transaction.atomic
def sessions_rule_set(*, session_ids: Iterable[int], rule: str) -> list[int]:
    """Give tables a rule of their own (a tournament's; ``""``: the club's again) and count
    their hands again under it."""
    if rule not in ("", *ConfirmationRule.values):
        raise Invalid.single("confirmation_rule", "invalid_choice", "shown, three or two")
    ids = list(session_ids)
    TableSession.objects.filter(pk__in=ids).update(confirmation_rule=rule)
    return sessions_recount(ids)
