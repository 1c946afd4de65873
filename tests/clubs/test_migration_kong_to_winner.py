"""The data migration ``clubs 0010``: settlements stored as format 1 become format 2 — 杠钱归胡家
under its own reason ``kong_to_winner`` in the hand, its revisions and its payment rows; 呼叫转移
stays ``kong_transfer``; the sessions touched move to a new data version (their statistics'
lines are written again).

The hands (base 1, 普通 mode):

- xuezhan9 (RULES §3.4): S2 弯杠 4p, S1 robs it: S2 → S1 2 (平胡 + 抢杠胡 = 1 fan → 2) and 3
  (杠钱归胡家: what the kong would have collected from S0, S1, S3).
- qq (RULES §4.4, 呼叫转移 ``copy``): S2 暗杠 9s (2 from each of S0, S1, S3), S1 wins on S2's next
  discard 4p (杠上炮): S2 hands S1 the kong's income, 6.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection

from clubs.models import Hand, HandRevision, Payment, Role, TableSession
from clubs.services.hands import hand_record
from scoring.services import ruleset_snapshot_get_or_create
from tests.clubs.factories import ClubFactory, TableSessionFactory, member
from tests.clubs.test_settled_hand import ROBBED

pytestmark = pytest.mark.django_db

migration = importlib.import_module("clubs.migrations.0010_settlement_format_2")

TRANSFERRED = {
    "dealer": 0,
    "events": [
        {"type": "kong", "seat": 2, "kind": "concealed", "tile": "9s"},
        {"type": "win", "from": 2, "tile": "4p", "situation": ["kong_discard"],
         "winners": [{"seat": 1, "concealed": "123m456m789m11p23p"}]},
    ],
}  # fmt: skip


def recorded(preset: str, data: dict) -> Hand:
    club = ClubFactory(ruleset=ruleset_snapshot_get_or_create(spec=preset))
    session = TableSessionFactory(club=club)
    return hand_record(session=session, data=data, user=member(club, role=Role.SCORER)).hand


def as_format_1(hand: Hand) -> None:
    """The hand's rows as the code before format 2 wrote them."""

    def old(settlement: dict) -> dict:
        out = {k: v for k, v in settlement.items() if k != "format"}
        out["payments"] = [
            {**p, "reason": "kong_transfer"} if p["reason"] == "kong_to_winner" else p
            for p in settlement["payments"]
        ]
        return out

    Hand.objects.filter(pk=hand.pk).update(settlement=old(hand.settlement))
    for r in HandRevision.objects.filter(hand=hand):
        HandRevision.objects.filter(pk=r.pk).update(settlement=old(r.settlement))
    Payment.objects.filter(hand=hand, reason="kong_to_winner").update(reason="kong_transfer")


def reasons(hand: Hand) -> tuple[list[str], list[str], list[str]]:
    hand = Hand.objects.get(pk=hand.pk)
    revision = HandRevision.objects.get(hand=hand)
    return (
        [p["reason"] for p in hand.settlement["payments"]],
        [p["reason"] for p in revision.settlement["payments"]],
        list(Payment.objects.filter(hand=hand).values_list("reason", flat=True)),
    )


def run_sql(statements: list[str]) -> None:
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def version(hand: Hand) -> int:
    return TableSession.objects.get(pk=hand.session_id).data_version


def test_robbed_kong_money_is_relabelled_and_kong_transfer_stays():
    robbed, moved = recorded("xuezhan9", ROBBED), recorded("qq", TRANSFERRED)
    for hand in (robbed, moved):
        as_format_1(hand)
    assert reasons(robbed) == (["win", "kong_transfer"],) * 3
    before = version(robbed), version(moved)

    migration.forwards(apps, None)
    run_sql(migration.FORMAT_2)

    assert reasons(robbed) == (["win", "kong_to_winner"],) * 3
    transfer = ["kong_concealed"] * 3 + ["win", "kong_transfer"]
    assert reasons(moved) == (transfer,) * 3
    # the relabelled hand's session moves on (its lines follow); the other's does not
    assert (version(robbed), version(moved)) == (before[0] + 1, before[1])
    for hand in (robbed, moved):
        assert Hand.objects.get(pk=hand.pk).settlement["format"] == 2
        assert HandRevision.objects.get(hand=hand).settlement["format"] == 2


def test_the_migration_undone_writes_format_1_again():
    robbed = recorded("xuezhan9", ROBBED)
    run_sql(migration.FORMAT_1)
    migration.backwards(apps, None)
    assert reasons(robbed) == (["win", "kong_transfer"],) * 3
    assert "format" not in Hand.objects.get(pk=robbed.pk).settlement


def test_a_second_run_changes_nothing():
    robbed = recorded("xuezhan9", ROBBED)
    as_format_1(robbed)
    migration.forwards(apps, None)
    after = version(robbed)
    migration.forwards(apps, None)
    assert version(robbed) == after
    assert reasons(robbed) == (["win", "kong_to_winner"],) * 3
