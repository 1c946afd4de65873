"""``manage.py purge_idempotency_keys``: delete the stored answers of expired
``Idempotency-Key`` s (older than ``IDEMPOTENCY_KEY_HOURS``). Run it daily (cron) where no
Celery beat runs the periodic task ``core.purge_idempotency_keys``."""

from django.core.management.base import BaseCommand

from core.idempotency import purge_expired


class Command(BaseCommand):
    help = "Delete the stored answers of expired Idempotency-Keys."

    def handle(self, *args, **options):
        deleted = purge_expired()
        self.stdout.write(f"Deleted {deleted} expired idempotency key(s).")
