"""Hands recorded and corrected through ``clubs.services.hands``, under the rules the session
pinned (ARCHITECTURE "Stored results never move")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from clubs.models import Payment
from clubs.services.hands import hand_correct, hand_record
from scoring.engine import PRESETS, resolve_ruleset
from scoring.models import RulesetSnapshot
from tests.clubs.factories import ClubFactory, TableSessionFactory

pytestmark = pytest.mark.django_db

#: S1 wins 清一色 on S2's 8s: 111s 234s 55s 666s 79s + 8s. Under qq (RULES §3.1) 清一色 is 3 fan,
#: worth 2^(3−1) = 4 at base 1, paid by the discarder alone: S2 → S1 4.
QINGYISE = {
    "dealer": 0,
    "events": [
        {"type": "win", "from": 2, "tile": "8s", "situation": [],
         "winners": [{"seat": 1, "concealed": "1112345566679s"}]},
    ],
}  # fmt: skip


def paid(hand) -> list[tuple[int, str]]:
    return [(p.amount, p.reason) for p in Payment.objects.filter(hand=hand).order_by("position")]


def test_a_correction_after_a_preset_changes_settles_under_the_pinned_rules(monkeypatch):
    """qq gets a version 2 in which 清一色 is worth 4 fan (2^3 = 8). A hand of a session opened
    under version 1, corrected afterwards (the dealer fixed), is settled again under version 1:
    S2 still pays S1 4, and one fingerprint — the session's — is on the hand, its settlement and
    both revisions. A session opened now pins version 2, where the same hand pays 8."""
    old = TableSessionFactory(club=ClubFactory())
    fingerprint = old.ruleset.fingerprint
    assert fingerprint == resolve_ruleset("qq").fingerprint
    view = hand_record(session=old, data=QINGYISE, user=None)
    assert paid(view.hand) == [(4, "win")]

    qq = PRESETS["qq"]
    table = tuple(replace(e, value=4) if e.code == "qingyise" else e for e in qq.table)
    monkeypatch.setitem(PRESETS, "qq", replace(qq, version=2, table=table))
    assert resolve_ruleset("qq").fingerprint != fingerprint

    hand = hand_correct(hand=view.hand, data={**QINGYISE, "dealer": 1}, user=None, reason="庄")
    assert hand.revision == 2 and hand.dealer == 1
    assert paid(hand) == [(4, "win")]
    assert hand.settlement["wins"][0]["value"] == 4
    revisions = hand.revisions.order_by("revision")
    assert {fingerprint} == {
        hand.ruleset_fingerprint,
        hand.settlement["ruleset"],
        old.ruleset.fingerprint,
        *(r.settlement["ruleset"] for r in revisions),
    }
    # the session's own spec, repeated in a correction, is still its rules
    again = hand_correct(hand=hand, data={**hand.record}, user=None)
    assert paid(again) == [(4, "win")] and again.settlement["ruleset"] == fingerprint

    new = TableSessionFactory(club=ClubFactory())
    assert new.ruleset.fingerprint == resolve_ruleset("qq").fingerprint != fingerprint
    assert RulesetSnapshot.objects.filter(preset="qq").count() == 2
    assert paid(hand_record(session=new, data=QINGYISE, user=None).hand) == [(8, "win")]
