"""The outbox: a task a write asks for is stored with the write, and sent by a sweep.

A request never talks to the broker. :func:`enqueue` writes an :class:`~core.models.OutboxMessage`
in the caller's transaction, so the write and its follow-up (a session's totals, a tournament's
standings or seating) are committed together or not at all, whether the broker answers or not;
:func:`deliver` (the ``core.deliver_outbox`` task, which Celery beat runs every second) sends
what is due, each with a task id of its own, and marks it sent. A broker that is down leaves
the messages where they are until it is back.

A message stays until its task has run to the end (:func:`task_done`, on Celery's
``task_success``): a broker that lost it — Redis restarted without its data, the task queued or
taken and never acknowledged — only delays it, since the sweep sends a message again once it
has been out for ``OUTBOX_REDELIVER_SECONDS`` without being done (at most
``MAX_DELIVERIES`` times; one still there after that is a task that keeps failing, shown by
``manage.py outbox``). Delivery is at least once: the tasks sent this way are safe to repeat.

Without a broker (tasks run eagerly, in-process) the same row is written and delivered as soon
as the transaction commits: the task runs then, as it would have on a worker, and a write costs
the same queries either way. ``JOBS_DELIVERY = "direct"`` publishes on commit instead of writing
a row: the old way, kept as the reference ``make bench`` measures the outbox against (a broker
outage then fails the request that committed).
"""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any, NamedTuple

from celery import current_app
from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from core.models import OutboxMessage

#: how many messages one sweep sends at most
BATCH = 500
#: how many times a message is sent at most (a task that fails every time stays, unsent)
MAX_DELIVERIES = 5


def enqueue(
    task: str,
    *args: Any,
    task_id: str | None = None,
    countdown: float | None = None,
    coalesce: float | None = None,
) -> None:
    """Ask for the Celery task named ``task`` with ``args``, once the current transaction
    commits (``countdown``: not before that many seconds after).

    ``coalesce`` (seconds): a follow-up that only has to see the latest state (a table's
    totals, its ratings) waits that long, and what is asked again for the same task and
    arguments meanwhile joins it: a busy table's ten hands in a few seconds make one task, not
    ten. Joining locks the waiting message until this transaction commits, so the sweep never
    sends it before the change it now also covers is there to read."""
    if settings.JOBS_DELIVERY == "direct":
        signature = current_app.signature(task, args=args)
        transaction.on_commit(lambda: signature.apply_async(task_id=task_id, countdown=countdown))
        return
    now = timezone.now()
    if coalesce and not current_app.conf.task_always_eager:
        due = now + timedelta(seconds=max(countdown or 0, coalesce))
        _join_or_add(task, list(args), task_id or uuid.uuid4(), due, now)
        return
    due = now + timedelta(seconds=countdown or 0)
    # the task id is the row's from the start: its task, done, finds the row by it, even
    # before the sweep that sent it has committed
    message = OutboxMessage.objects.create(
        task=task, args=list(args), task_id=task_id or uuid.uuid4(), not_before=due
    )
    if current_app.conf.task_always_eager:
        transaction.on_commit(lambda: _run_now(message))


class OutboxClauses(NamedTuple):
    """:func:`enqueue` as clauses of a writer's own statement (PostgreSQL): ``sql`` is one or
    two common table expressions, the last named ``outbox``, to put in a ``WITH``; ``params``
    are named ``outbox_*``. Once the statement has run, :meth:`written` does what
    :func:`enqueue` does after its own write."""

    sql: str
    params: dict[str, Any]
    task: str
    args: list
    task_id: uuid.UUID
    eager: bool

    def written(self, message_id: int | None) -> None:
        """``message_id``: the id the ``outbox`` clause returned (None when it joined a
        waiting message)."""
        if self.eager and message_id is not None:
            message = OutboxMessage(
                pk=message_id, task=self.task, args=self.args, task_id=self.task_id
            )
            transaction.on_commit(lambda: _run_now(message))


_OUTBOX_INSERT = (
    "(task, args, task_id, not_before, created_at, attempts, last_error, deliveries) "
    "SELECT %(outbox_task)s, %(outbox_args)s::jsonb, %(outbox_task_id)s, %(outbox_due)s, "
    "%(outbox_now)s, 0, '', 0"
)


def enqueue_clauses(task: str, *args: Any, coalesce: float | None = None) -> OutboxClauses | None:
    """What :func:`enqueue` writes, for a writer that folds it into the one statement of its
    own write (one round trip less on the hottest path); None where it cannot be folded (not
    PostgreSQL, or ``JOBS_DELIVERY = "direct"``): then call :func:`enqueue`."""
    if settings.JOBS_DELIVERY == "direct" or connection.vendor != "postgresql":
        return None
    table = OutboxMessage._meta.db_table
    eager = bool(current_app.conf.task_always_eager)
    now = timezone.now()
    task_id = uuid.uuid4()
    params = {
        "outbox_task": task, "outbox_args": json.dumps(list(args)), "outbox_task_id": task_id,
        "outbox_now": now,
        "outbox_due": now + timedelta(seconds=coalesce if coalesce and not eager else 0),
    }  # fmt: skip
    if coalesce and not eager:  # as _join_or_add
        sql = (
            f"outbox_joined AS (UPDATE {table} SET not_before = not_before "
            "WHERE task = %(outbox_task)s AND args = %(outbox_args)s::jsonb "
            "AND sent_at IS NULL AND not_before > %(outbox_now)s RETURNING id), "
            f"outbox AS (INSERT INTO {table} {_OUTBOX_INSERT} "
            "WHERE NOT EXISTS (SELECT 1 FROM outbox_joined) RETURNING id)"
        )
    else:
        sql = f"outbox AS (INSERT INTO {table} {_OUTBOX_INSERT} RETURNING id)"
    return OutboxClauses(sql, params, task, list(args), task_id, eager)


def _join_or_add(task: str, args: list, task_id: uuid.UUID, due, now) -> None:
    """Join the message that waits for the same task and arguments (not due yet, so no sweep
    is sending it: the no-op update locks it until this transaction commits), or add one. On
    PostgreSQL one statement, as costly as the insert alone; elsewhere two."""
    if connection.vendor != "postgresql":
        joined = OutboxMessage.objects.filter(
            task=task, args=args, sent_at=None, not_before__gt=now
        ).update(not_before=F("not_before"))
        if not joined:
            OutboxMessage.objects.create(task=task, args=args, task_id=task_id, not_before=due)
        return
    table = OutboxMessage._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            WITH joined AS (
                UPDATE {table} SET not_before = not_before
                WHERE task = %s AND args = %s::jsonb AND sent_at IS NULL AND not_before > %s
                RETURNING id
            )
            INSERT INTO {table}
                (task, args, task_id, not_before, created_at, attempts, last_error, deliveries)
            SELECT %s, %s::jsonb, %s, %s, %s, 0, '', 0
            WHERE NOT EXISTS (SELECT 1 FROM joined)
            """,
            [task, json.dumps(args), now, task, json.dumps(args), task_id, due, now],
        )


def _run_now(message: OutboxMessage) -> None:
    """Eager mode: the task runs in this process at once (its countdown is a worker's matter),
    then its message is gone; a task that fails leaves it, and its error goes to the caller."""
    current_app.signature(message.task, args=message.args).apply_async(
        task_id=None if message.task_id is None else str(message.task_id)
    )
    OutboxMessage.objects.filter(pk=message.pk).delete()


def deliver(limit: int = BATCH) -> int:
    """Send the messages that are due, and those sent long ago whose task never finished,
    oldest first; returns how many were sent.

    Messages are taken under a lock that other sweeps skip, so sweeps may run side by side. A
    message the broker refuses stays, with the error, and the sweep stops: the broker is down,
    the next sweep tries again."""
    now = timezone.now()
    lost = now - timedelta(seconds=settings.OUTBOX_REDELIVER_SECONDS)
    sent: list[OutboxMessage] = []
    with transaction.atomic():
        due = (
            OutboxMessage.objects.select_for_update(skip_locked=True)
            .filter(
                Q(sent_at=None, not_before__lte=now)
                | Q(sent_at__lte=lost, deliveries__lt=MAX_DELIVERIES)
            )
            .order_by("pk")[:limit]
        )
        for message in due:
            if message.task_id is None:  # a row older than task ids of their own
                message.task_id = uuid.uuid4()
            try:
                current_app.signature(message.task, args=message.args).apply_async(
                    task_id=str(message.task_id)
                )
            except Exception as e:  # noqa: BLE001 - any failure: the broker cannot take it now
                OutboxMessage.objects.filter(pk=message.pk).update(
                    attempts=F("attempts") + 1, last_error=f"{type(e).__name__}: {e}"[:300]
                )
                break
            message.sent_at = now
            message.deliveries += 1
            sent.append(message)
        OutboxMessage.objects.bulk_update(sent, ["task_id", "sent_at", "deliveries"])
    return len(sent)


def task_done(sender=None, **kwargs) -> None:
    """Celery's ``task_success`` (connected in ``CoreConfig.ready``): the message that asked for
    this task is done with."""
    task_id = getattr(getattr(sender, "request", None), "id", None)
    try:
        done = uuid.UUID(str(task_id))
    except ValueError:  # a task sent some other way: no message of ours
        return
    OutboxMessage.objects.filter(task_id=done).delete()
