"""Project-wide Celery tasks."""

from celery import shared_task
from django.db import connection


@shared_task(name="xuezhan.ping")
def ping() -> str:
    """Round-trip check: touches the database, then answers ``"pong"``."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "pong"
