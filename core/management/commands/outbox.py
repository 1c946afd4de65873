"""``manage.py outbox``: what waits to be sent to the broker; send it by hand; check on it.

manage.py outbox               how many messages wait to be sent, how many are out (sent, their
                               task not done yet), and the oldest unsent one's age
manage.py outbox --deliver     send what is due now (what Celery beat's sweep does)
manage.py outbox --check 30    exit 1 when a due message has waited more than 30 s
                               (beat's health check: the sweep runs and the broker answers)
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from core import outbox
from core.models import OutboxMessage


class Command(BaseCommand):
    help = "Show, deliver or check the outbox of tasks waiting for the broker."

    def add_arguments(self, parser):
        parser.add_argument("--deliver", action="store_true", help="send what is due now")
        parser.add_argument(
            "--check", type=float, metavar="SECONDS", help="fail if a due message is older"
        )

    def handle(self, *args, **options):
        if options["deliver"]:
            sent = outbox.deliver()
            self.stdout.write(f"sent {sent} message(s)")
        now = timezone.now()
        waiting = OutboxMessage.objects.filter(sent_at=None).count()
        out = OutboxMessage.objects.exclude(sent_at=None).count()
        given_up = OutboxMessage.objects.filter(deliveries__gte=outbox.MAX_DELIVERIES).count()
        oldest = (
            OutboxMessage.objects.filter(not_before__lte=now, sent_at=None)
            .order_by("not_before")
            .values_list("not_before", flat=True)
            .first()
        )
        age = (now - oldest).total_seconds() if oldest else 0.0
        self.stdout.write(
            f"{waiting} message(s) waiting; the oldest due one for {age:.1f} s; {out} out "
            f"(sent, not done yet), {given_up} of them sent {outbox.MAX_DELIVERIES} times"
        )
        if options["check"] is not None and age > options["check"]:
            raise CommandError(f"the outbox is not being delivered: {age:.0f} s behind")
