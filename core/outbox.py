"""The outbox: a task a write asks for is stored with the write, and sent by a sweep.

A request never talks to the broker. :func:`enqueue` writes an :class:`~core.models.OutboxMessage`
in the caller's transaction, so the write and its follow-up (a session's totals, a tournament's
standings or seating) are committed together or not at all, whether the broker answers or not;
:func:`deliver` (the ``core.deliver_outbox`` task, which Celery beat runs every second) sends
what is due and deletes what it sent. A broker that is down leaves the messages where they are
until it is back. Delivery is at least once: the tasks sent this way are safe to repeat.

Without a broker (tasks run eagerly, in-process) the same row is written and delivered as soon
as the transaction commits: the task runs then, as it would have on a worker, and a write costs
the same queries either way. ``JOBS_DELIVERY = "direct"`` publishes on commit instead of writing
a row: the old way, kept as the reference ``make bench`` measures the outbox against (a broker
outage then fails the request that committed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from core.models import OutboxMessage

#: how many messages one sweep sends at most
BATCH = 500


def enqueue(
    task: str, *args: Any, task_id: str | None = None, countdown: float | None = None
) -> None:
    """Ask for the Celery task named ``task`` with ``args``, once the current transaction
    commits (``countdown``: not before that many seconds after)."""
    if settings.JOBS_DELIVERY == "direct":
        signature = current_app.signature(task, args=args)
        transaction.on_commit(lambda: signature.apply_async(task_id=task_id, countdown=countdown))
        return
    due = timezone.now() + timedelta(seconds=countdown or 0)
    message = OutboxMessage.objects.create(
        task=task, args=list(args), task_id=task_id, not_before=due
    )
    if current_app.conf.task_always_eager:
        transaction.on_commit(lambda: _run_now(message))


def _run_now(message: OutboxMessage) -> None:
    """Eager mode: the task runs in this process at once (its countdown is a worker's matter),
    then its message is gone; a task that fails leaves it, and its error goes to the caller."""
    current_app.signature(message.task, args=message.args).apply_async(
        task_id=None if message.task_id is None else str(message.task_id)
    )
    OutboxMessage.objects.filter(pk=message.pk).delete()


def deliver(limit: int = BATCH) -> int:
    """Send the messages that are due, oldest first; returns how many were sent.

    Messages are taken under a lock that other sweeps skip, so sweeps may run side by side. A
    message the broker refuses stays, with the error, and the sweep stops: the broker is down,
    the next sweep tries again."""
    sent: list[int] = []
    with transaction.atomic():
        due = (
            OutboxMessage.objects.select_for_update(skip_locked=True)
            .filter(not_before__lte=timezone.now())
            .order_by("pk")[:limit]
        )
        for message in due:
            try:
                current_app.signature(message.task, args=message.args).apply_async(
                    task_id=None if message.task_id is None else str(message.task_id)
                )
            except Exception as e:  # noqa: BLE001 - any failure: the broker cannot take it now
                OutboxMessage.objects.filter(pk=message.pk).update(
                    attempts=F("attempts") + 1, last_error=f"{type(e).__name__}: {e}"[:300]
                )
                break
            sent.append(message.pk)
        OutboxMessage.objects.filter(pk__in=sent).delete()
    return len(sent)
