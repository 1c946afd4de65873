"""Recording, reading, correcting and deleting hands through the API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.models import Role
from scoring.models import Hand, HandRevision, Payment
from tests.engine.records import PINGHU
from tests.factories import TableSessionFactory, member

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.fixture
def session():
    return TableSessionFactory()


@pytest.fixture
def scorer(session):
    return client_for(member(session.club, Role.SCORER))


def test_record_a_hand(session, scorer):
    response = scorer.post(f"/api/v1/sessions/{session.pk}/hands/", PINGHU, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    assert data["number"] == 1
    seats = {s.number: s.player for s in session.seats.all()}
    assert data["payments"] == [
        {"payer": {"kind": "player", "id": seats[2].pk, "name": seats[2].name},
         "payee": {"kind": "player", "id": seats[1].pk, "name": seats[1].name},
         "amount": 1, "reason": "win", "event": 0},
    ]  # fmt: skip
    assert Payment.objects.count() == 1
    assert HandRevision.objects.get().action == "created"
    detail = scorer.get(f"/api/v1/sessions/{session.pk}/").json()
    totals = {t["id"]: t["total"] for t in detail["totals"]["players"]}
    assert totals[seats[1].pk] == 1 and totals[seats[2].pk] == -1


def test_a_refused_hand_stores_nothing(session, scorer, json_errors):
    bad = {**PINGHU, "events": [{**PINGHU["events"][0], "from": 1}]}
    response = scorer.post(f"/api/v1/sessions/{session.pk}/hands/", bad, format="json")
    assert response.status_code == 400
    assert ("events[0].from", "discarder_is_winner") in {
        (e["path"], e["code"]) for e in json_errors(response)
    }
    assert Hand.objects.count() == 0 and Payment.objects.count() == 0


def test_correction_keeps_history(session, scorer):
    scorer.post(f"/api/v1/sessions/{session.pk}/hands/", PINGHU, format="json")
    selfdraw = {**PINGHU, "events": [{**PINGHU["events"][0], "from": None}], "reason": "自摸"}
    response = scorer.put(f"/api/v1/sessions/{session.pk}/hands/1/", selfdraw, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["revision"] == 2
    assert Payment.objects.count() == 3  # every other player pays the self-draw
    history = scorer.get(f"/api/v1/sessions/{session.pk}/hands/1/history/").json()["results"]
    assert [(h["revision"], h["action"], h["changes"]) for h in history] == [
        (1, "created", ["base", "dealer", "draw", "events", "mode", "ruleset"]),
        (2, "corrected", ["events"]),
    ]
    assert history[1]["reason"] == "自摸"


def test_soft_delete_needs_a_reason(session, scorer, json_errors):
    scorer.post(f"/api/v1/sessions/{session.pk}/hands/", PINGHU, format="json")
    response = scorer.delete(f"/api/v1/sessions/{session.pk}/hands/1/")
    assert response.status_code == 400
    response = scorer.delete(f"/api/v1/sessions/{session.pk}/hands/1/?reason=entered twice")
    assert response.status_code == 200
    assert response.json()["is_deleted"] is True
    assert Payment.objects.count() == 0
    assert scorer.get(f"/api/v1/sessions/{session.pk}/hands/1/").status_code == 404
    assert scorer.get(f"/api/v1/sessions/{session.pk}/hands/?deleted=true").json()["count"] == 1
