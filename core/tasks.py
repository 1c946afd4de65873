"""Project-wide Celery tasks."""

from celery import shared_task
from django.db import connection

from core import live, outbox
from core.idempotency import purge_expired
from core.workers import SAFE_TO_REPEAT


@shared_task(name="xuezhan.ping")
def ping() -> str:
    """Round-trip check: touches the database, then answers ``"pong"``."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "pong"


@shared_task(name="core.deliver_outbox", ignore_result=True, **SAFE_TO_REPEAT)
def deliver_outbox() -> int:
    """Send the outbox's due messages to the broker (Celery beat runs it every second)."""
    return outbox.deliver()


@shared_task(name="core.purge_idempotency_keys")
def purge_idempotency_keys() -> int:
    """Delete the expired ``Idempotency-Key`` answers (hourly, where Celery beat runs)."""
    return purge_expired()


@shared_task(name="core.publish_live", ignore_result=True, **SAFE_TO_REPEAT)
def publish_live(events: dict[str, dict]) -> None:
    """Send live events a write could not send itself (Redis was down when it committed); a
    failure leaves the outbox message, sent again later. A page that sees one twice only reads
    itself again."""
    for channel, data in events.items():
        live.send(channel, data)
