"""A declared hand (RULES §6) recorded and corrected through a table session's API: stored as
sent, settled under the session's pinned rules, re-settled on correction, marked unverified."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from clubs.models import Hand, Payment, Role
from tests.clubs.factories import TableSessionFactory, member
from tests.clubs.records import DECLARED

pytestmark = pytest.mark.django_db


def test_a_declared_hand_is_recorded_and_corrected():
    session = TableSessionFactory(mode="xuezhan")
    client = APIClient()
    client.force_authenticate(member(session.club, Role.SCORER))
    url = f"/api/v1/sessions/{session.pk}/hands/"
    posted = client.post(url, DECLARED, format="json")
    assert posted.status_code == 201, posted.json()
    data = posted.json()
    # kong: S0, S1, S2 pay S3 2 each; 自摸: S0, S2, S3 pay S1 8 each; S0 pays S2 2;
    # 查叫: S0 (not ready) pays S3 2. S3 is ready: he keeps his kong money.
    # S0 −2 −8 −2 −2 = −14; S1 −2 +24 = 22; S2 −2 −8 +2 = −8; S3 +6 −8 +2 = 0
    assert data["settlement"]["totals"]["seats"] == [-14, 22, -8, 0]
    assert data["settlement"]["verified"] is False
    assert [w["verified"] for w in data["settlement"]["wins"]] == [False, False]
    assert [d["verified"] for d in data["settlement"]["draw"]] == [False, False]
    stored = Hand.objects.get()
    assert stored.record["events"][1]["winners"][0]["declared"] == {
        "pattern": "qingyise",
        "roots": 1,
    }
    # correction: S3 was not ready after all: nobody is ready, no 查叫; S3 returns his kong
    # money (退税, 2 to each of S0, S1, S2):
    # S0 −2 −8 −2 +2 = −10; S1 −2 +24 +2 = 24; S2 −2 −8 +2 +2 = −6; S3 +6 −8 −6 = −8
    corrected = {
        **DECLARED,
        "draw": {"hands": {"0": {"declared": "not_ready"}, "3": {"declared": "not_ready"}}},
        "reason": "S3 was not ready",
    }
    response = client.put(f"{url}1/", corrected, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["settlement"]["totals"]["seats"] == [-10, 24, -6, -8]
    assert response.json()["revision"] == 2
    assert sum(p.amount for p in Payment.objects.filter(reason="kong_refund")) == 6
    # a declaration the rules cannot produce is refused, nothing changes
    bad = {**corrected, "events": [*DECLARED["events"][:2], {
        **DECLARED["events"][2],
        "winners": [{"seat": 2, "declared": {"pattern": "jingoudiao"}}],
    }]}  # fmt: skip
    refused = client.put(f"{url}1/", bad, format="json")
    assert refused.status_code == 400
    assert {(e["path"], e["code"]) for e in refused.json()["errors"]} >= {
        ("events[2].winners[0].declared.pattern", "pattern_not_in_ruleset")
    }
    assert Hand.objects.get().revision == 2
