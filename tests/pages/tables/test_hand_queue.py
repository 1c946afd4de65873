"""The table page's queue sends a hand saved on the phone (offline first): ``POST
/sessions/<id>/hands/send/``, the hand form's fields, an ``Idempotency-Key``, answered in JSON.

Hand A: seat 1 自摸 平胡; hand B: seat 2 自摸 平胡 (declared, 普通, base 1).
"""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Hand, Role
from tests.clubs.factories import TableSessionFactory
from tests.helpers import assert_error_shape, db_state, member_login

pytestmark = pytest.mark.django_db

A = {"number": "1", "dealer": "0", "w1_seat": "1", "w1_from": "self", "w1_pattern": "pinghu"}
B = {**A, "w1_seat": "2"}


def phone(session, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(member_login(session.club, Role.SCORER))
    return client


def send(client: Client, session, fields: dict, key: str | None = "k-1"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"/sessions/{session.pk}/hands/send/", fields, **headers)


def test_a_hand_sent_twice_with_its_key_is_stored_once(django_capture_on_commit_callbacks):
    session = TableSessionFactory()
    scorer = phone(session)
    with django_capture_on_commit_callbacks(execute=True):
        first = send(scorer, session, A)
    again = send(scorer, session, A)  # its answer was lost: sent again
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json() == {"number": 1, "url": f"/sessions/{session.pk}/hands/1/"}
    assert again["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(session=session).count() == 1


def test_the_same_key_for_another_hand_is_refused(django_capture_on_commit_callbacks):
    session = TableSessionFactory()
    scorer = phone(session)
    with django_capture_on_commit_callbacks(execute=True):
        assert send(scorer, session, A).status_code == 201
    before = db_state()
    other = send(scorer, session, {**B, "number": "2"})
    assert other.status_code == 409
    errors = {"errors": other.json()["errors"]}
    assert assert_error_shape(errors)[0]["code"] == "idempotency_key_reused"
    assert db_state() == before


def test_a_hand_without_its_key_is_refused_in_the_error_shape():
    session = TableSessionFactory()
    scorer = phone(session)
    before = db_state()
    refused = send(scorer, session, A, key=None)
    assert refused.status_code == 400
    assert assert_error_shape({"errors": refused.json()["errors"]})[0]["path"] == "Idempotency-Key"
    assert db_state() == before


def test_another_phones_hand_under_the_number_is_a_race_with_the_fix(
    django_capture_on_commit_callbacks,
):
    session = TableSessionFactory()
    with django_capture_on_commit_callbacks(execute=True):
        assert send(phone(session), session, A, key="a").status_code == 201
    raced = send(phone(session), session, B, key="b")
    assert raced.status_code == 409
    body = raced.json()
    assert assert_error_shape({"errors": body["errors"]})[0]["code"] == "hand_exists"
    assert body["next_number"] == 2  # the fix: save it as hand 2
    assert body["race"]["number"] == 1 and body["race"]["edit"].endswith("/hands/1/edit/")
    assert Hand.objects.get(session=session).record["events"][0]["winners"][0]["seat"] == 1


def test_the_same_hand_from_another_phone_is_taken_as_stored(django_capture_on_commit_callbacks):
    """Two phones queued the very same hand: the second is told it is stored (200), once."""
    session = TableSessionFactory()
    with django_capture_on_commit_callbacks(execute=True):
        assert send(phone(session), session, A, key="a").status_code == 201
    same = send(phone(session), session, A, key="b")
    assert same.status_code == 200
    assert same.json()["same"] is True
    assert Hand.objects.filter(session=session).count() == 1


def test_a_refusal_is_in_the_pages_language_with_the_next_number():
    session = TableSessionFactory()
    scorer = phone(session, "zh-hans")
    before = db_state()
    # seat 9 does not exist: the form cannot read it
    refused = send(scorer, session, {**A, "w1_seat": "9"})
    assert refused.status_code == 400
    body = refused.json()
    assert assert_error_shape({"errors": body["errors"]})
    assert body["next_number"] == 1
    assert db_state() == before


def test_a_visitor_who_may_not_score_stores_nothing():
    session = TableSessionFactory()
    reader = Client()
    reader.force_login(member_login(session.club, Role.MEMBER))
    before = db_state()
    assert send(reader, session, A).status_code == 403
    assert db_state() == before
