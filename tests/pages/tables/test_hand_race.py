"""Two phones save hand 1 of one table at once: one is stored, the other sees the stored hand
and the choice — the same hand (nothing to do), his is the next (save it as hand 2), or hand 1
is wrong (correct it) — never a duplicate, never a silent overwrite.

Phone A: seat 1 自摸 平胡. Phone B, a moment later from the same form (hand 1): seat 2 自摸 平胡.
"""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Hand, Role
from tests.clubs.factories import TableSessionFactory
from tests.helpers import member_login

pytestmark = pytest.mark.django_db

A = {"number": "1", "dealer": "0", "w1_seat": "1", "w1_from": "self", "w1_pattern": "pinghu"}
B = {**A, "w1_seat": "2"}


def phone(session) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member_login(session.club, Role.SCORER))
    return client


def test_the_second_phone_sees_hand_1_and_chooses(django_capture_on_commit_callbacks):
    session = TableSessionFactory()
    url = f"/sessions/{session.pk}/"
    a, b = phone(session), phone(session)
    with django_capture_on_commit_callbacks(execute=True):
        assert a.post(url, A).status_code == 302
        late = b.post(url, B)
    assert late.status_code == 409
    page = late.content.decode()
    assert "Hand 1 was just saved from another phone" in page
    assert f'href="/sessions/{session.pk}/hands/1/edit/"' in page  # correct it
    assert 'name="number" value="2"' in page  # or save his as hand 2
    hand = Hand.objects.get(session=session)  # stored once, A's: not overwritten
    assert hand.record["events"][0]["winners"][0]["seat"] == 1
    # B's is the next hand: the same form again saves it as hand 2
    with django_capture_on_commit_callbacks(execute=True):
        assert b.post(url, {**B, "number": "2", "dealer": ""}).status_code == 302
    assert sorted(Hand.objects.filter(session=session).values_list("number", flat=True)) == [1, 2]


def test_the_same_hand_from_two_phones_is_stored_once(django_capture_on_commit_callbacks):
    session = TableSessionFactory()
    url = f"/sessions/{session.pk}/"
    with django_capture_on_commit_callbacks(execute=True):
        assert phone(session).post(url, A).status_code == 302
        again = phone(session).post(url, A, follow=True)
    assert "This hand was already saved." in again.content.decode()
    assert Hand.objects.filter(session=session).count() == 1
