"""Confirming and disputing hands on the pages (issue 24 §2): the table page shows each hand's
payments in words with the confirm / dispute forms to the seated players (by login or by the
table's players' link), the totals leave out what the rule holds, and the organiser's page lists
the disputed hands with their history and rules on them.

The form's hand (``HAND``): S1 自摸 平胡, under qq 1 fan, worth 1 from each of the three
others: S1 +3, S0, S2, S3 −1 each.
"""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Club, ConfirmationRule, Hand, HandConfirmation, Role
from clubs.services.sessions import session_guest_link
from tests.clubs.factories import ClubFactory, MembershipFactory, PlayerFactory, TableSessionFactory
from tests.helpers import login, member_login

pytestmark = pytest.mark.django_db

HAND = {"number": "1", "dealer": "0", "w1_seat": "1", "w1_from": "self", "w1_pattern": "pinghu"}


def phone(user=None) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def table(django_capture_on_commit_callbacks):
    """A members-only club under ``three``; seat 0's player is its scorer, seats 1–3 members
    with logins."""
    club = ClubFactory(visibility=Club.Visibility.MEMBERS, confirmation_rule=ConfirmationRule.THREE)
    users = [login(f"p{n}") for n in range(4)]
    players = [PlayerFactory(user=u, name=f"Seat{n}") for n, u in enumerate(users)]
    for n, p in enumerate(players):
        MembershipFactory(club=club, player=p, role=Role.SCORER if n == 0 else Role.MEMBER)
    session = TableSessionFactory(club=club, seated=players)
    return club, session, users


def totals(page: str) -> list[str]:
    return [part.split('"')[0] for part in page.split('data-value="')[1:5]]


def test_seated_players_confirm_and_the_totals_wait(table, django_capture_on_commit_callbacks):
    club, session, users = table
    scorer = phone(users[0])
    with django_capture_on_commit_callbacks(execute=True):
        saved = scorer.post(f"/sessions/{session.pk}/", HAND)
    assert saved.status_code == 302
    page = scorer.get(saved["Location"]).content.decode()
    assert totals(page) == ["0", "0", "0", "0"]
    assert "The totals leave out 1 hand until it is confirmed" in page
    assert "Waiting for 3 confirmations" in page
    assert "Confirm hand 1" not in page  # he entered it: his entry is his word

    s1 = phone(users[1])
    page = s1.get(f"/sessions/{session.pk}/").content.decode()
    assert "Confirm hand 1" in page and "You sit at" in page
    assert "Payments" in page  # the hand in words on his phone
    url = f"/sessions/{session.pk}/hands/1/confirm/"
    with django_capture_on_commit_callbacks(execute=True):
        assert s1.post(url, {"verdict": "confirm", "next": "table"}).status_code == 302
        phone(users[2]).post(url, {"verdict": "confirm"})
    page = s1.get(f"/sessions/{session.pk}/").content.decode()
    assert "Waiting for 1 confirmation" in page and totals(page) == ["0", "0", "0", "0"]
    with django_capture_on_commit_callbacks(execute=True):
        phone(users[3]).post(url, {"verdict": "confirm"})
    page = s1.get(f"/sessions/{session.pk}/").content.decode()
    assert "leave out" not in page
    assert totals(page) == ["-1", "3", "-1", "-1"]


def test_who_may_not_confirm(table):
    club, session, users = table
    phone(users[0]).post(f"/sessions/{session.pk}/", HAND)
    url = f"/sessions/{session.pk}/hands/1/confirm/"
    organiser = phone(member_login(club, Role.ORGANISER))
    assert organiser.post(url, {"verdict": "confirm"}).status_code == 403  # not seated
    assert phone(login("stranger")).post(url, {"verdict": "confirm"}).status_code == 404
    assert phone().post(url, {"verdict": "confirm"}).status_code == 404  # members only
    assert phone(users[1]).get(url).status_code == 405
    assert not HandConfirmation.objects.exists()


def test_the_players_link_confirms_for_the_seat_he_names(table):
    club, session, users = table
    phone(users[0]).post(f"/sessions/{session.pk}/", HAND)
    session_guest_link(session=session)
    session.refresh_from_db()
    guest = phone()
    guest.get(f"/g/{session.guest_key}/")
    page = guest.get(f"/sessions/{session.pk}/").content.decode()
    assert 'name="seat"' in page and "I am" in page
    url = f"/sessions/{session.pk}/hands/1/confirm/"
    bad = guest.post(url, {"verdict": "dispute", "seat": "2", "words": ""})
    assert bad.status_code == 302 and not HandConfirmation.objects.exists()
    guest.post(url, {"verdict": "dispute", "seat": "2", "words": "I did not 点炮"})
    word = HandConfirmation.objects.get()
    assert (word.seat, word.verdict, word.by_link, word.by) == (2, "dispute", True, None)
    other = TableSessionFactory(club=club)
    assert guest.post(f"/sessions/{other.pk}/hands/1/confirm/", {}).status_code == 404


def test_the_organiser_sees_the_dispute_and_rules(table, django_capture_on_commit_callbacks):
    club, session, users = table
    phone(users[0]).post(f"/sessions/{session.pk}/", HAND)
    url = f"/sessions/{session.pk}/hands/1/confirm/"
    phone(users[2]).post(url, {"verdict": "dispute", "words": "not 平胡"})
    organiser = phone(member_login(club, Role.ORGANISER))
    assert (
        "Confirmations and disputed hands" in organiser.get(f"/clubs/{club.slug}/").content.decode()
    )
    page = organiser.get(f"/clubs/{club.slug}/confirmations/").content.decode()
    assert "not 平胡" in page and "Disputed" in page and "Payments" in page
    assert phone(users[1]).get(f"/clubs/{club.slug}/confirmations/").status_code == 403
    resolve = f"/sessions/{session.pk}/hands/1/resolve/"
    assert phone(users[1]).post(resolve, {"reason": "x"}).status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        done = organiser.post(resolve, {"reason": "seen the tiles", "next": "club"})
    assert done.status_code == 302 and Hand.objects.get().counts
    page = phone(users[1]).get(f"/sessions/{session.pk}/hands/1/").content.decode()
    assert "Ruled: seen the tiles" in page and "not 平胡" in page

    # the setting: an organiser changes it, the open table follows
    with django_capture_on_commit_callbacks(execute=True):
        organiser.post(f"/clubs/{club.slug}/confirmations/", {"confirmation_rule": "shown"})
    club.refresh_from_db()
    assert club.confirmation_rule == "shown"
    refused = organiser.post(f"/clubs/{club.slug}/confirmations/", {"confirmation_rule": "all"})
    assert refused.status_code == 302
    club.refresh_from_db()
    assert club.confirmation_rule == "shown"


def test_a_correction_that_resolves(table, django_capture_on_commit_callbacks):
    club, session, users = table
    phone(users[0]).post(f"/sessions/{session.pk}/", HAND)
    phone(users[3]).post(
        f"/sessions/{session.pk}/hands/1/confirm/", {"verdict": "dispute", "words": "S2 won"}
    )
    referee = phone(member_login(club, Role.REFEREE))
    edit = referee.get(f"/sessions/{session.pk}/hands/1/edit/?resolves=1").content.decode()
    assert 'name="resolves"' in edit and "checked" in edit
    fixed = {**HAND, "w1_seat": "2", "revision": "1", "reason": "S2 won", "resolves": "1"}
    del fixed["number"]
    with django_capture_on_commit_callbacks(execute=True):
        assert referee.post(f"/sessions/{session.pk}/hands/1/edit/", fixed).status_code == 302
    hand = Hand.objects.get()
    assert hand.revision == 2 and hand.counts
    page = phone(users[1]).get(f"/sessions/{session.pk}/").content.decode()
    assert totals(page) == ["-1", "-1", "3", "-1"]
