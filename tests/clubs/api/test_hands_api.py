"""Recording, reading, correcting and deleting hands through the API."""

from __future__ import annotations

import pytest
from django.utils import timezone
from rest_framework import serializers
from rest_framework.test import APIClient

from clubs.models import Hand, HandRevision, Payment, Role
from clubs.selectors import HandView, hand_view, hands_of
from clubs.serializers import HandOutSerializer
from clubs.services.hands import hand_record
from tests.clubs.factories import TableSessionFactory, member
from tests.clubs.records import SELFDRAW
from tests.scoring.engine.records import PINGHU, XUEZHAN

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


@pytest.fixture
def scorer_in_xuezhan():
    session = TableSessionFactory(mode="xuezhan")
    return client_for(member(session.club, Role.SCORER)), session


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


def generic(view: HandView) -> dict:
    """A hand as DRF's serializer writes it, field by field from the declared fields."""
    return serializers.Serializer.to_representation(HandOutSerializer(view), view)


def test_the_written_out_representation_is_the_declared_fields(session, scorer):
    """HandOutSerializer writes its columns (``clubs.serializers.HAND``) by their getters, for
    speed: the same keys, order and values as DRF gives reading the fields made of them, for
    a hand just posted, read back, corrected, deleted or entered by no one, in any time zone."""
    url = f"/api/v1/sessions/{session.pk}/hands/"
    posted = scorer.post(url, PINGHU, format="json")
    assert posted.status_code == 201, posted.json()
    assert list(posted.json().items()) == list(generic(hand_view(hands_of(session).get())).items())
    view = hand_record(session=session, data=SELFDRAW, user=None)  # payments as written
    assert list(HandOutSerializer(view).data.items()) == list(generic(view).items())
    scorer.put(f"{url}1/", {**SELFDRAW, "dealer": 1}, format="json")
    scorer.delete(f"{url}2/?reason=entered twice")
    hands = [hand_view(h) for h in (*hands_of(session), *hands_of(session, deleted=True))]
    assert {v.hand.revision for v in hands} == {2}
    assert {v.hand.is_deleted for v in hands} == {False, True}
    assert {v.hand.entered_by_id is None for v in hands} == {False, True}
    for zone in ("UTC", "Asia/Shanghai", "America/New_York"):
        with timezone.override(zone):
            for v in hands:
                assert list(HandOutSerializer(v).data.items()) == list(generic(v).items())
            assert HandOutSerializer(hands, many=True).data == [generic(v) for v in hands]


def test_the_dealer_defaults_to_the_previous_hands_next_dealer(session, scorer, json_errors):
    """普通 under qq (RULES §3.1): the next dealer is the discarder of the win. The first hand
    must say who deals (nobody can tell); PINGHU (S2 discards to S1) makes S2 the next dealer,
    so a second hand without a dealer is dealt by S2 — stored so, and its 叫马 counted so."""
    url = f"/api/v1/sessions/{session.pk}/hands/"
    first = scorer.post(url, {k: v for k, v in PINGHU.items() if k != "dealer"}, format="json")
    assert first.status_code == 400
    assert [(e["path"], e["code"]) for e in json_errors(first)] == [("dealer", "dealer_required")]
    assert scorer.post(url, PINGHU, format="json").json()["next_dealer"] == 2
    second = scorer.post(url, {k: v for k, v in PINGHU.items() if k != "dealer"}, format="json")
    assert second.status_code == 201, second.json()
    assert second.json()["dealer"] == 2 and second.json()["record"]["dealer"] == 2


def test_in_xuezhan_the_dice_choose_so_the_dealer_is_required(scorer_in_xuezhan, json_errors):
    """血战 under qq: the next dealer is left to the dice (next_dealer null), so every hand says
    who dealt it."""
    client, session = scorer_in_xuezhan
    url = f"/api/v1/sessions/{session.pk}/hands/"
    assert client.post(url, XUEZHAN, format="json").json()["next_dealer"] is None
    again = client.post(url, {k: v for k, v in XUEZHAN.items() if k != "dealer"}, format="json")
    assert [e["code"] for e in json_errors(again)] == ["dealer_required"]


def test_an_unfinished_hand_is_refused(scorer_in_xuezhan, json_errors):
    """RULES §4.10: in 血战到底 one win is not a finished hand (three winners, or a draw)."""
    client, session = scorer_in_xuezhan
    r = client.post(f"/api/v1/sessions/{session.pk}/hands/", PINGHU, format="json")
    assert r.status_code == 400
    assert [(e["path"], e["code"]) for e in json_errors(r)] == [("events", "hand_not_finished")]
    assert not Hand.objects.exists()


def test_a_misspelt_field_is_refused_not_ignored(session, scorer, json_errors):
    r = scorer.post(f"/api/v1/sessions/{session.pk}/hands/", {**PINGHU, "rulset": "xuezhan9"},
                    format="json")  # fmt: skip
    assert r.status_code == 400
    assert [(e["path"], e["code"]) for e in json_errors(r)] == [("rulset", "unknown_field")]
