"""Stored settlements to format 2 (issue 26 §1): 杠钱归胡家 has its own payment reason.

Before, what a robbed player pays the robber under 杠钱归胡家 (RULES §3.4, ``robbing_pays_kong``)
was written ``kong_transfer`` like 呼叫转移, and the statistics counted it as 呼叫转移. Such a
payment is told apart by its event: a win robbing a kong (``robbing_kong`` in its situation),
which 杠上炮 — the one win 呼叫转移 pays at — cannot be. Relabelled ``kong_to_winner`` in each
hand's and each revision's settlement and in the hand's payment rows; every settlement gets
``"format": 2``; each session a relabelled hand belongs to moves to a new data version, so its
statistics' lines are written again (``ratings.reconcile``) and its pages read afresh.

A form left at format 1 would still read right (``Settlement.from_dict`` relabels it the same
way): this makes the rows say what they mean, for SQL and for an export file alike.
"""

from __future__ import annotations

from typing import Any

from django.db import connection, migrations
from django.db.models import F

OLD, NEW = "kong_transfer", "kong_to_winner"


def robbed_events(record: Any) -> set[int]:
    """The indexes of a stored record's wins that rob a kong (抢杠)."""
    events = record.get("events") if isinstance(record, dict) else None
    return {
        i
        for i, ev in enumerate(events or [])
        if isinstance(ev, dict)
        and ev.get("type") == "win"
        and "robbing_kong" in (ev.get("situation") or [])
    }


def relabelled(settlement: Any, record: Any, old: str, new: str) -> tuple[Any, set[int]]:
    """The settlement with its 杠钱归胡家 payments relabelled ``old`` → ``new``, and the events
    relabelled (none: the settlement as it is)."""
    if not isinstance(settlement, dict) or not isinstance(settlement.get("payments"), list):
        return settlement, set()
    robbed = robbed_events(record)
    payments, events = [], set()
    for p in settlement["payments"]:
        if isinstance(p, dict) and p.get("reason") == old and p.get("event") in robbed:
            p = {**p, "reason": new}
            events.add(p["event"])
        payments.append(p)
    return ({**settlement, "payments": payments} if events else settlement), events


def _with_reason(rows, old: str, vendor: str):
    """The rows whose settlement may hold a payment ``old`` (PostgreSQL looks into the JSON;
    elsewhere, the demo's SQLite, every row is read)."""
    if vendor == "postgresql":
        return rows.filter(settlement__payments__contains=[{"reason": old}])
    return rows.all()


def _relabel(apps, old: str, new: str, vendor: str) -> None:
    Hand = apps.get_model("clubs", "Hand")
    HandRevision = apps.get_model("clubs", "HandRevision")
    Payment = apps.get_model("clubs", "Payment")
    TableSession = apps.get_model("clubs", "TableSession")
    sessions = set()
    hands = _with_reason(Hand.objects, old, vendor)
    for pk, session_id, record, settlement in hands.values_list(
        "pk", "session_id", "record", "settlement"
    ).iterator():
        now, events = relabelled(settlement, record, old, new)
        if events:
            # (an update, not save(): updated_at says when a person last changed the hand)
            Hand.objects.filter(pk=pk).update(settlement=now)
            Payment.objects.filter(hand_id=pk, reason=old, event__in=events).update(reason=new)
            sessions.add(session_id)
    revisions = _with_reason(HandRevision.objects, old, vendor)
    for pk, record, settlement in revisions.values_list("pk", "record", "settlement").iterator():
        now, events = relabelled(settlement, record, old, new)
        if events:
            HandRevision.objects.filter(pk=pk).update(settlement=now)
    TableSession.objects.filter(pk__in=sessions).update(data_version=F("data_version") + 1)


def _vendor(schema_editor) -> str:
    # (a test runs the steps without a schema editor, on the default database)
    return (schema_editor.connection if schema_editor else connection).vendor


def forwards(apps, schema_editor) -> None:
    _relabel(apps, OLD, NEW, _vendor(schema_editor))


def backwards(apps, schema_editor) -> None:
    _relabel(apps, NEW, OLD, _vendor(schema_editor))


FORMAT_2 = [
    f"UPDATE {table} SET settlement = settlement || '{{\"format\": 2}}'::jsonb"
    f" WHERE jsonb_typeof(settlement) = 'object' AND NOT settlement ? 'format'"
    for table in ("clubs_hand", "clubs_handrevision")
]
FORMAT_1 = [
    f"UPDATE {table} SET settlement = settlement - 'format'"
    f" WHERE jsonb_typeof(settlement) = 'object'"
    for table in ("clubs_hand", "clubs_handrevision")
]


def _format(apps, schema_editor, statements: list[str], change) -> None:
    """Every stored settlement's form: in one statement per table on PostgreSQL, row by row
    elsewhere (the demo's SQLite)."""
    if schema_editor.connection.vendor == "postgresql":
        for statement in statements:
            schema_editor.execute(statement)
        return
    for name in ("Hand", "HandRevision"):
        model = apps.get_model("clubs", name)
        for pk, settlement in model.objects.values_list("pk", "settlement").iterator():
            if isinstance(settlement, dict) and (now := change(settlement)) != settlement:
                model.objects.filter(pk=pk).update(settlement=now)


def format_2(apps, schema_editor) -> None:
    _format(apps, schema_editor, FORMAT_2, lambda s: {**s, "format": s.get("format", 2)})


def format_1(apps, schema_editor) -> None:
    _format(apps, schema_editor, FORMAT_1, lambda s: {k: v for k, v in s.items() if k != "format"})


class Migration(migrations.Migration):
    dependencies = [("clubs", "0009_hand_confirmations")]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
        migrations.RunPython(format_2, format_1, elidable=False),
    ]
