"""``manage.py demo``: idempotent demo data for ``make run``.

Creates (or resets) an admin superuser and prints how to log in, then runs every app's demo
step (``core.demo``): the demo club, then the tournament it hosts, owned by that login. Each
step is idempotent.
"""

from __future__ import annotations

import logging
import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from rest_framework.authtoken.models import Token

from core.demo import demo_modules

DEFAULT_USERNAME = "admin"
DEFAULT_PASSWORD = "xuezhan-admin"
HOST = "http://127.0.0.1:8000"


class Command(BaseCommand):
    help = "Create idempotent demo data (an admin, a club, a tournament) and print the login."

    def add_arguments(self, parser):
        parser.add_argument(
            "--username", default=os.environ.get("DEMO_ADMIN_USERNAME", DEFAULT_USERNAME)
        )
        parser.add_argument(
            "--password", default=os.environ.get("DEMO_ADMIN_PASSWORD", DEFAULT_PASSWORD)
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="Run even when DJANGO_ENV=production.",
        )

    def handle(self, *args, **options):
        if getattr(settings, "PRODUCTION", False) and not options["force"]:
            raise CommandError("Refusing to create demo data with DJANGO_ENV=production.")
        # the tasks the demo's writes run in-process without a broker: their "succeeded" lines
        # (hundreds for the demo club's history) would bury the login printed here
        trace = logging.getLogger("celery.app.trace")
        level = trace.level
        trace.setLevel(max(logging.WARNING, trace.getEffectiveLevel()))
        try:
            self.build(options)
        finally:
            trace.setLevel(level)

    def build(self, options) -> None:
        with transaction.atomic():
            self.create_admin(options["username"], options["password"])
            for module in demo_modules():
                report = module.build_demo(username=options["username"])
                style = self.style.SUCCESS if report.created else self.style.NOTICE
                self.stdout.write(style(report.message))
                for label, path in report.links:
                    self.stdout.write(f"  {label}: {HOST}{path}")

    def create_admin(self, username: str, password: str) -> None:
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.com"}
        )
        user.is_staff = True
        user.is_superuser = True
        user.is_active = True
        user.set_password(password)
        user.save()
        token, _ = Token.objects.get_or_create(user=user)
        verb = "Created" if created else "Updated"
        self.stdout.write(self.style.SUCCESS(f"{verb} admin superuser."))
        self.stdout.write(f"  username: {username}")
        self.stdout.write(f"  password: {password}")
        self.stdout.write(f"  API token: {token.key}")
        self.stdout.write(f"  home page: {HOST}/ (sign in with this login)")
        self.stdout.write(f"  admin: {HOST}/admin/")
