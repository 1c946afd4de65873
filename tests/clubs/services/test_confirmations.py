"""Confirming and disputing a hand (issue 24 §2) through ``clubs.services``: the table's
confirmation rule holds a hand out of the totals until the other players confirmed it.

The hands are ``tests/clubs/records.py``'s, worked out there by the rule book: PINGHU is S1's
平胡 on S2's discard, under qq (RULES §3.1) 1 fan, worth 2^0 = 1, paid by the discarder alone
(S2 → S1 1); SELFDRAW is the same hand self-drawn, every other seat pays S1 1 (S1 +3).
"""

from __future__ import annotations

import pytest

from clubs.confirming import Word, standing
from clubs.models import ConfirmationRule, Hand, HandConfirmation, Role, TableSession
from clubs.selectors import session_totals
from clubs.services.clubs import club_update
from clubs.services.confirmations import hand_confirm
from clubs.services.hands import hand_correct, hand_delete, hand_record, hand_resolve
from clubs.services.sessions import session_close
from core.errors import Conflict, Invalid, PermissionDenied
from core.models import OutboxMessage
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, TableSessionFactory
from tests.clubs.records import PINGHU, SELFDRAW
from tests.helpers import login, member_login

pytestmark = pytest.mark.django_db


class Table:
    """A club with ``rule``, an open table whose four seated players each have a login."""

    def __init__(self, rule: str = ConfirmationRule.THREE) -> None:
        self.club = ClubFactory(confirmation_rule=rule)
        self.users = [login(f"seat{n}-{self.club.pk}") for n in range(4)]
        players = [PlayerFactory(user=u, name=u.username) for u in self.users]
        for p in players:
            MembershipFactory(club=self.club, player=p)
        self.players = players
        self.session = TableSessionFactory(club=self.club, seated=players)

    def totals(self) -> list[int]:
        book = session_totals(session_id=self.session.pk)
        return [book.of_player(p.pk) for p in self.players]

    def record(self, data=PINGHU, by: int | None = 0) -> Hand:
        """A hand entered by seat ``by``'s player (None: by someone not at the table)."""
        user = self.users[by] if by is not None else None
        return hand_record(session=self.session, data=data, user=user).hand

    def say(self, hand: Hand, seat: int, verdict: str = "confirm", words: str = "") -> Hand:
        hand_confirm(hand=hand, verdict=verdict, words=words, user=self.users[seat])
        hand.refresh_from_db()
        return hand


def test_the_pure_rule():
    """three: the three others; two: two of them; a dispute holds; each seat's latest word;
    the entering seat's word is not counted; a ruling counts whatever was said."""
    c, d = "confirm", "dispute"
    assert standing("shown", 0, []).counts
    assert standing("shown", 0, [Word(1, d, "no")]).is_disputed  # shown, still counts
    assert standing("shown", 0, [Word(1, d, "no")]).counts
    assert not standing("three", 0, [Word(1, c), Word(2, c)]).counts
    assert standing("three", 0, [Word(1, c), Word(2, c)]).waiting == 1
    assert standing("three", 0, [Word(1, c), Word(2, c), Word(3, c)]).counts
    assert standing("two", 0, [Word(1, c), Word(3, c)]).counts
    assert not standing("two", 0, [Word(0, c), Word(1, c)]).counts  # seat 0 entered it
    assert not standing("two", 0, [Word(1, c), Word(2, c), Word(3, d, "x")]).counts
    assert standing("two", 0, [Word(1, c), Word(2, c), Word(3, d, "x"), Word(3, c)]).counts
    assert standing("three", None, [Word(0, c), Word(1, c), Word(2, c)]).counts  # 3 of 4
    assert standing("three", 0, [Word(1, d, "x"), Word(None, "ruling", "stands")]).counts


def test_held_until_the_other_three_confirmed():
    """Seat 0 enters PINGHU (S2 → S1 1). Under ``three`` it is held: the totals are all 0 until
    S1, S2 and S3 have confirmed; then S1 +1, S2 −1."""
    t = Table()
    hand = t.record()
    assert hand.entry_seat == 0 and not hand.counts
    assert t.totals() == [0, 0, 0, 0]
    hand = t.say(hand, 1)
    hand = t.say(hand, 2)
    assert not hand.counts and t.totals() == [0, 0, 0, 0]
    hand = t.say(hand, 3)
    assert hand.counts
    assert t.totals() == [0, 1, -1, 0]


def test_two_of_the_others_and_an_outside_scorer():
    """Under ``two``: two of the three others. A hand entered by someone not at the table
    (a scorer standing by, a table card) needs two of the four."""
    t = Table(ConfirmationRule.TWO)
    hand = t.say(t.record(), 3)
    assert not hand.counts
    assert t.say(hand, 1).counts and t.totals() == [0, 1, -1, 0]
    outside = t.record(SELFDRAW, by=None)  # S1 +3, each other −1: not yet in the totals
    assert outside.entry_seat is None
    assert t.totals() == [0, 1, -1, 0]
    outside = t.say(outside, 0)
    assert not outside.counts
    outside = t.say(outside, 1)  # the winner's confirmation counts like anyone's
    assert outside.counts
    assert t.totals() == [-1, 1 + 3, -1 - 1, -1]


def test_a_dispute_holds_the_hand_until_withdrawn_or_ruled():
    t = Table()
    hand = t.record()
    t.say(hand, 1)
    t.say(hand, 2)
    hand = t.say(hand, 3, "dispute", "我没有点炮")
    assert not hand.counts and t.totals() == [0, 0, 0, 0]
    hand = t.say(hand, 2, "dispute", "not 平胡")  # S2 changes his word: two disputes
    hand = t.say(hand, 3, "confirm")  # S3 withdraws his; S2's still holds the hand
    assert not hand.counts
    hand = t.say(hand, 2, "confirm")
    assert hand.counts and t.totals() == [0, 1, -1, 0]
    # every word kept, in order
    assert list(hand.confirmations.values_list("seat", "verdict")) == [
        (1, "confirm"), (2, "confirm"), (3, "dispute"), (2, "dispute"), (3, "confirm"),
        (2, "confirm"),
    ]  # fmt: skip


def test_a_correction_resets_the_confirmations():
    """A confirmed hand corrected (the discarder was S3, not S2) is a new entry: held again,
    the totals back to 0 until the others confirm the corrected hand (S3 → S1 1)."""
    t = Table()
    hand = t.record()
    for seat in (1, 2, 3):
        hand = t.say(hand, seat)
    assert t.totals() == [0, 1, -1, 0]
    fixed = {**PINGHU, "events": [{**PINGHU["events"][0], "from": 3}]}
    hand = hand_correct(hand=hand, data=fixed, user=t.users[0], reason="S3 discarded")
    assert hand.revision == 2 and not hand.counts
    assert t.totals() == [0, 0, 0, 0]
    assert HandConfirmation.objects.filter(hand=hand, revision=1).count() == 3  # history
    for seat in (1, 2, 3):
        hand = t.say(hand, seat)
    assert t.totals() == [0, 1, 0, -1]


def test_a_correction_by_another_seat_makes_him_the_entering_seat():
    t = Table(ConfirmationRule.TWO)
    hand = t.record()
    hand = hand_correct(hand=hand, data=PINGHU, user=t.users[2], reason="dealer")
    assert hand.entry_seat == 2
    with pytest.raises(Conflict) as e:
        t.say(hand, 2)
    assert e.value.code == "entered_it"
    t.say(hand, 0)  # the first scorer now confirms like the others
    assert t.say(hand, 1).counts


def test_changing_the_rule_recounts_the_open_tables(django_capture_on_commit_callbacks):
    """Club ``three``: an open table's hand with two confirmations is held; a closed table's
    held hand too. The club switches to ``two``: the open table's hand counts (its session's
    follow-up queued, its data version moved); the closed table keeps what it counted. Back to
    ``three``: held again. ``shown``: every hand of the open table counts."""
    t = Table()
    hand = t.say(t.say(t.record(), 1), 2)
    closed = TableSessionFactory(club=t.club, seated=t.players)
    old = hand_record(session=closed, data=PINGHU, user=t.users[0]).hand
    session_close(session=closed)
    version = TableSession.objects.get(pk=t.session.pk).data_version
    OutboxMessage.objects.all().delete()

    club_update(club=t.club, confirmation_rule=ConfirmationRule.TWO)
    hand.refresh_from_db()
    old.refresh_from_db()
    assert hand.counts and not old.counts
    assert t.totals() == [0, 1, -1, 0]
    assert TableSession.objects.get(pk=t.session.pk).data_version == version + 1
    assert OutboxMessage.objects.filter(args=[t.session.pk]).exists()
    assert not OutboxMessage.objects.filter(args=[closed.pk]).exists()

    club_update(club=t.club, confirmation_rule=ConfirmationRule.THREE)
    hand.refresh_from_db()
    assert not hand.counts and t.totals() == [0, 0, 0, 0]
    second = t.record(SELFDRAW)
    club_update(club=t.club, confirmation_rule=ConfirmationRule.SHOWN)
    assert all(Hand.objects.filter(pk__in=[hand.pk, second.pk]).values_list("counts", flat=True))
    assert t.totals() == [-1, 1 + 3, -1 - 1, -1]


def test_who_may_confirm():
    """A member not seated at the table may not; a seated player only for his own seat; the
    players' link names any seat but the entering one; a dispute needs words; a refused word
    stores nothing."""
    t = Table()
    hand = t.record()
    outsider = member_login(t.club, Role.ORGANISER)
    with pytest.raises(PermissionDenied):
        hand_confirm(hand=hand, verdict="confirm", user=outsider)
    with pytest.raises(PermissionDenied):
        hand_confirm(hand=hand, verdict="confirm", user=t.users[1], seat=2)
    with pytest.raises(Conflict) as e:
        hand_confirm(hand=hand, verdict="confirm", user=t.users[0])
    assert e.value.code == "entered_it"
    with pytest.raises(Invalid) as e:
        hand_confirm(hand=hand, verdict="dispute", words="  ", user=t.users[1])
    assert e.value.code == "words_required"
    with pytest.raises(Invalid) as e:
        hand_confirm(hand=hand, verdict="maybe", user=t.users[1])
    assert e.value.code == "invalid_choice"
    with pytest.raises(Invalid) as e:
        hand_confirm(hand=hand, verdict="confirm", by_link=True, seat=7)
    assert e.value.code == "seat_required"
    assert not HandConfirmation.objects.exists()
    row = hand_confirm(hand=hand, verdict="confirm", by_link=True, seat=3)
    assert row.by is None and row.by_link and row.seat == 3
    hand_delete(hand=hand, reason="dup", user=t.users[0])
    with pytest.raises(Conflict) as e:
        hand_confirm(hand=hand, verdict="confirm", user=t.users[1])
    assert e.value.code == "hand_deleted"


def test_a_closed_table_takes_no_word():
    t = Table()
    hand = t.record()
    session_close(session=t.session)
    with pytest.raises(Conflict) as e:
        hand_confirm(hand=hand, verdict="confirm", user=t.users[1])
    assert e.value.code == "session_closed"


def test_resolving_a_disputed_hand():
    """The hand stands as recorded (a reason): it counts. Or it is corrected to resolve it (a
    correction with that reason): the corrected hand counts at once. Nothing to resolve on a
    hand that counts and is not disputed."""
    t = Table()
    hand = t.say(t.record(), 3, "dispute", "not 平胡")
    organiser = member_login(t.club, Role.ORGANISER)
    with pytest.raises(Invalid):
        hand_resolve(hand=hand, reason="", user=organiser)
    hand = hand_resolve(hand=hand, reason="the referee saw the tiles", user=organiser)
    assert hand.counts and t.totals() == [0, 1, -1, 0]
    with pytest.raises(Conflict) as e:
        hand_resolve(hand=hand, reason="again", user=organiser)
    assert e.value.code == "nothing_to_resolve"

    second = t.say(t.record(SELFDRAW), 2, "dispute", "I did not pay: it was S3's discard")
    fixed = {**SELFDRAW, "events": [{**SELFDRAW["events"][0], "from": 3}]}  # S3 → S1 1
    second = hand_resolve(hand=second, reason="S3 discarded", user=organiser, data=fixed)
    assert second.revision == 2 and second.counts
    assert second.revisions.get(revision=2).reason == "S3 discarded"
    assert t.totals() == [0, 1 + 1, -1, -1]


def test_shown_counts_at_once_and_shows_the_dispute():
    t = Table(ConfirmationRule.SHOWN)
    hand = t.say(t.record(), 2, "dispute", "not mine")
    assert hand.counts and t.totals() == [0, 1, -1, 0]
