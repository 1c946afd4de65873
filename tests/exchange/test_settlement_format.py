"""An export file written before settlements carried their format (format 1: 杠钱归胡家 paid
under ``kong_transfer``) is still taken: each settlement is compared with the engine's, and
stored, as format 2 writes it — 杠钱归胡家 as ``kong_to_winner`` in the hand, its revision and
its payment rows; 呼叫转移 stays ``kong_transfer``.

The hands (base 1, 普通 mode): xuezhan9 (RULES §3.4), S2 弯杠 4p and S1 robs it: S2 → S1 2
(平胡 + 抢杠胡 = 1 fan → 2) and 3 (杠钱归胡家: what the kong would have collected from S0, S1,
S3). qq (RULES §4.4, 呼叫转移 ``copy``): S2 暗杠 9s, 2 from each of S0, S1, S3; S1 wins on
S2's next discard 4p and is handed the kong's income, 6.
"""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from clubs.models import Club, Hand, HandRevision, Payment, Role
from clubs.selectors import settled_hand
from clubs.services.hands import hand_record
from exchange.club_export import club_export
from exchange.club_import import club_import
from scoring.services import ruleset_snapshot_get_or_create
from tests.clubs.factories import ClubFactory, TableSessionFactory, member
from tests.clubs.test_migration_kong_to_winner import TRANSFERRED
from tests.clubs.test_settled_hand import ROBBED

pytestmark = pytest.mark.django_db(transaction=True)


def format_1(settlement: dict) -> None:
    """The settlement as the code before format 2 wrote it."""
    del settlement["format"]
    for p in settlement["payments"]:
        if p["reason"] == "kong_to_winner":
            p["reason"] = "kong_transfer"


def test_a_file_of_format_1_is_taken_as_format_2():
    club = ClubFactory(ruleset=ruleset_snapshot_get_or_create(spec="xuezhan9"))
    scorer = member(club, role=Role.SCORER)
    hand_record(session=TableSessionFactory(club=club), data=ROBBED, user=scorer)
    qq = ruleset_snapshot_get_or_create(spec="qq")
    hand_record(session=TableSessionFactory(club=club, ruleset=qq), data=TRANSFERRED, user=scorer)
    data = json.loads(json.dumps(club_export(club)))
    hands = [h for s in data["sessions"] for h in s["hands"]]
    assert len(hands) == 2
    for h in hands:
        format_1(h["settlement"])
        for r in h["revisions"]:
            if "settlement" in r:
                format_1(r["settlement"])
    assert "kong_transfer" in [p["reason"] for p in hands[0]["settlement"]["payments"]] + [
        p["reason"] for p in hands[1]["settlement"]["payments"]
    ]
    call_command("flush", interactive=False, verbosity=0)

    club_import(data)

    club = Club.objects.get(slug=club.slug)
    by_reason = {}
    for hand in Hand.objects.filter(session__club=club):
        assert hand.settlement["format"] == 2
        assert HandRevision.objects.get(hand=hand).settlement == hand.settlement
        rows = list(Payment.objects.filter(hand=hand).values_list("reason", flat=True))
        assert rows == [p["reason"] for p in hand.settlement["payments"]]
        by_reason[hand.ruleset_fingerprint] = [p.reason for p in settled_hand(hand).payments]
    assert sorted(by_reason.values()) == [
        ["kong_concealed"] * 3 + ["win", "kong_transfer"],
        ["win", "kong_to_winner"],
    ]
