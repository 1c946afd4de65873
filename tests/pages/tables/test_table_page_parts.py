"""The table page's parts every visitor sees alike (the 流水 sheet, the totals, the running chart,
the confirmation boxes' words, the empty hand form) are kept in the cache under the version of
the table's data (``pages.tables.views.table_parts``): never stale — a hand, a correction, a
deletion, a word said, a player renamed shows on the next read — and the page's queries do not
grow with the hands, on a first read (which computes the parts) as on the next (which finds
them)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Club, ConfirmationRule, Hand, Payment, Role, TableSession
from clubs.services.confirmations import hand_confirm
from clubs.services.hands import hand_correct, hand_delete, hand_record
from pages.tables.views import SHEET_LATEST
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, TableSessionFactory
from tests.helpers import login, member_login, two_reads
from tests.pages.tables.test_tables import shown_total
from tests.scoring.engine.records import PINGHU

pytestmark = pytest.mark.django_db

#: S1 自摸 平胡 (qq, base 1): 1 from each of the three others
S1_ZIMO = {
    "dealer": 0,
    "events": [{"type": "win", "from": None, "situation": [],
                "winners": [{"seat": 1, "declared": {"pattern": "pinghu", "roots": 0,
                                                     "extras": []}}]}],
    "draw": None,
}  # fmt: skip


@pytest.fixture
def table() -> TableSession:
    return TableSessionFactory(club=ClubFactory(visibility=Club.Visibility.PUBLIC))


def page(client: Client, session: TableSession) -> str:
    response = client.get(reverse("page-session", args=[session.pk]))
    assert response.status_code == 200
    return response.content.decode()


def scorer_of(session: TableSession) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member_login(session.club, Role.SCORER))
    return client


def without_tokens(body: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", body)


def hand_rows(body: str) -> int:
    return body.count('<tr class="hand')


def test_a_hand_written_shows_on_the_next_read(table):
    user = member_login(table.club, Role.SCORER)
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en")
    s1 = table.seats.get(number=1).player_id
    hand_record(session=table, data=PINGHU, user=user)
    body = page(visitor, table)
    assert hand_rows(body) == 1 and shown_total(body, s1) == 1
    # read again: the same (its CSRF token apart), from the kept parts
    assert without_tokens(page(visitor, table)) == without_tokens(body)

    hand_record(session=table, data=S1_ZIMO, user=user)  # S1 +3
    body = page(visitor, table)
    assert hand_rows(body) == 2 and shown_total(body, s1) == 4

    hand = Hand.objects.get(session=table, number=1)
    hand_correct(hand=hand, data=S1_ZIMO, user=user, reason="self-drawn")
    body = page(visitor, table)
    assert shown_total(body, s1) == 6

    hand_delete(hand=Hand.objects.get(session=table, number=2), reason="twice", user=user)
    body = page(visitor, table)
    assert shown_total(body, s1) == 3 and "Deleted: twice" in body


def test_the_scorers_form_asks_for_the_next_hand_after_each_save(table):
    scorer = scorer_of(table)
    body = page(scorer, table)
    assert 'id="next-number"' in body and 'value="1" id="next-number"' in body
    assert body.count("data-tile-picker") >= 3 and body.count('id="tile-picker-words"') == 1
    # the pickers ask the engine with the visitor's own CSRF token (the form is every scorer's)
    tokens = set(re.findall(r'data-csrf="([^"]*)"', body))
    assert len(tokens) == 1 and len(tokens.pop()) == 64
    assert "csrf-mark-of-the-request" not in body and "csrf-token-of-the-request" not in body
    saved = scorer.post(reverse("page-session", args=[table.pk]),
                        {"number": "1", "dealer": "0", "w1_seat": "1", "w1_from": "self",
                         "w1_pattern": "pinghu"})  # fmt: skip
    assert saved.status_code == 302
    body = scorer.get(saved["Location"]).content.decode()
    assert 'value="2" id="next-number"' in body
    assert "Record hand 2" in body and 'id="saved"' in body


def test_a_word_that_moves_no_total_shows_on_the_next_read():
    club = ClubFactory(visibility=Club.Visibility.PUBLIC, confirmation_rule=ConfirmationRule.THREE)
    users = [login(f"seat{n}") for n in range(4)]
    players = [PlayerFactory(user=u, name=f"Seat{n}") for n, u in enumerate(users)]
    for n, p in enumerate(players):
        MembershipFactory(club=club, player=p, role=Role.SCORER if n == 0 else Role.MEMBER)
    table = TableSessionFactory(club=club, seated=players)
    hand = hand_record(session=table, data=S1_ZIMO, user=users[0]).hand  # seat 0 entered it
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert "Waiting for 3 confirmations" in page(visitor, table)
    version = TableSession.objects.get(pk=table.pk).data_version
    hand_confirm(hand=hand, verdict="confirm", user=users[1])
    assert TableSession.objects.get(pk=table.pk).data_version == version  # no total moved
    body = page(visitor, table)
    assert "Waiting for 2 confirmations" in body and "Waiting for 3" not in body
    hand_confirm(hand=hand, verdict="dispute", words="not 平胡", user=users[2])
    assert "disputed: not 平胡" in page(visitor, table)


def test_a_player_renamed_shows_at_once_and_each_language_has_its_own_words(table):
    hand_record(session=table, data=PINGHU, user=member_login(table.club, Role.SCORER))
    en, zh = Client(HTTP_ACCEPT_LANGUAGE="en"), Client(HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert "Score sheet, hand by hand" in page(en, table)
    assert "Score sheet, hand by hand" not in page(zh, table)
    player = table.seats.get(number=1).player
    player.name = "Renamed Winner"
    player.save()  # (a rename moves no data_version: the names are in the parts' key)
    body = page(en, table)
    assert "Renamed Winner:" in body  # the sheet's words
    assert "Renamed Winner +" in body  # the chart's line


# --- the queries do not grow with the hands -------------------------------------------------------


def _hands(session: TableSession, n: int) -> None:
    """Hand 1 recorded, then hands 2…n like it written straight with their payments (what the
    page reads of a hand does not depend on how it was stored)."""
    hand_record(session=session, data=PINGHU, user=member_login(session.club, Role.SCORER))
    first = Hand.objects.get(session=session, number=1)
    payments = list(first.payments.all())
    copies = []
    for number in range(2, n + 1):
        hand = Hand.objects.get(pk=first.pk)
        hand.pk, hand.number, hand.next_dealer = None, number, number % 4
        copies.append(hand)
    Hand.objects.bulk_create(copies)
    rows = []
    for hand in copies:
        for p in payments:
            copy = Payment.objects.get(pk=p.pk)
            copy.pk, copy.hand = None, hand
            rows.append(copy)
    Payment.objects.bulk_create(rows)
    TableSession.objects.filter(pk=session.pk).update(data_version=n)  # as each write counts


def _queries(client: Client, session: TableSession) -> tuple[int, int, str]:
    """The queries of a first read (the parts computed) and of the next (found), and the page."""
    return two_reads(reverse("page-session", args=[session.pk]), client)


@pytest.mark.parametrize("who", ["visitor", "scorer"])
def test_the_queries_are_the_same_with_12_or_400_hands(who):
    counts = []
    for n in (12, 400):
        table = TableSessionFactory(club=ClubFactory(visibility=Club.Visibility.PUBLIC))
        _hands(table, n)
        client = Client(HTTP_ACCEPT_LANGUAGE="en") if who == "visitor" else scorer_of(table)
        first, again, body = _queries(client, table)
        assert hand_rows(body) == min(n, SHEET_LATEST)  # the newest, on a long table
        assert shown_total(body, table.seats.get(number=1).player_id) == n
        counts.append((first, again))
    assert counts[0] == counts[1], counts
    first, again = counts[0]
    # found in the cache: the session with its club and ruleset, what its data_version does
    # not count (the words said, the names) and the visitor's role, in one statement; for a
    # scorer his login too (his browser session is in the cache)
    assert again == (1 if who == "visitor" else 2), counts
    # a first read computes the parts: the seats, bettors, hands, results and totals, where
    # each hand stands and the boxes' hands with their payments
    assert first <= again + 10, counts


def shown_numbers(body: str) -> list[int]:
    """The hands' numbers down the sheet (newest first)."""
    return [int(n) for n in re.findall(r'<a class="hand-link" href="[^"]*">(\d+)</a>', body)]


def test_a_long_sheet_shows_its_newest_hands_and_every_one_when_asked(table):
    """60 hands: the sheet shows the newest 50 (60 … 11), says so and links to all; the seat
    cards and the sheet's total row count all 60 (each S1 平胡 on S2's discard, base 1: S1 +1,
    S2 −1, so S1 at +60, S2 at −60); ``?hands=all`` shows the 60 and links back. A hand
    written (S1 自摸 平胡: +1 from each of the three others) shows in both at once, and pushes
    the oldest shown out of the newest 50."""
    assert SHEET_LATEST == 50
    _hands(table, 60)
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en")
    s1 = table.seats.get(number=1).player_id
    s2 = table.seats.get(number=2).player_id
    body = page(visitor, table)
    assert shown_numbers(body) == list(range(60, 10, -1))
    assert shown_total(body, s1) == 60 and shown_total(body, s2) == -60
    assert "The newest 50 of 60 hands are shown; the totals count every hand." in body
    assert 'href="?hands=all#sheet">Show all 60 hands</a>' in body
    path = reverse("page-session", args=[table.pk])
    every = visitor.get(path, {"hands": "all"}).content.decode()
    assert shown_numbers(every) == list(range(60, 0, -1))
    assert shown_total(every, s1) == 60
    assert "All 60 hands are shown." in every
    assert 'href="?#sheet">Show the newest 50 only</a>' in every
    # the sheet's total row: S1's +60 under both
    assert every.count("<strong>+60</strong>") == body.count("<strong>+60</strong>") == 1

    hand_record(session=table, data=S1_ZIMO, user=member_login(table.club, Role.SCORER))
    body = page(visitor, table)
    assert shown_numbers(body) == list(range(61, 11, -1))
    assert shown_total(body, s1) == 63 and shown_total(body, s2) == -61
    every = visitor.get(path, {"hands": "all"}).content.decode()
    assert shown_numbers(every) == list(range(61, 0, -1))
    zh = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    body = page(zh, table)
    assert "显示最近 50 局（共 61 局）；总分计入每一局。" in body and "显示全部 61 局" in body


def test_a_sheet_of_50_hands_shows_them_all_with_no_link(table):
    _hands(table, 50)
    body = page(Client(HTTP_ACCEPT_LANGUAGE="en"), table)
    assert shown_numbers(body) == list(range(50, 0, -1))
    assert 'id="sheet-more"' not in body
