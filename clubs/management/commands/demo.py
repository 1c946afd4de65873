"""``manage.py demo``: idempotent demo data for ``make run``.

Creates (or resets) an admin superuser and prints how to log in, then adds the demo club
(``clubs.demo``) owned by that login. Later issues add their own demo data by adding a step
to ``Command.steps`` (each step must be idempotent).
"""

from __future__ import annotations

import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from rest_framework.authtoken.models import Token

from clubs.demo import demo_club_create
from tournaments.demo import demo_tournament_create

DEFAULT_USERNAME = "admin"
DEFAULT_PASSWORD = "xuezhan-admin"


class Command(BaseCommand):
    help = "Create idempotent demo data (an admin superuser, ...) and print the login."

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

    @property
    def steps(self):
        """Ordered demo steps; each is ``callable(options) -> None`` and must be idempotent."""
        return [self.create_admin, self.create_club, self.create_tournament]

    def handle(self, *args, **options):
        if getattr(settings, "PRODUCTION", False) and not options["force"]:
            raise CommandError("Refusing to create demo data with DJANGO_ENV=production.")
        with transaction.atomic():
            for step in self.steps:
                step(options)

    def create_admin(self, options) -> None:
        User = get_user_model()
        username, password = options["username"], options["password"]
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
        self.stdout.write("  admin: http://127.0.0.1:8000/admin/")

    def create_club(self, options) -> None:
        summary = demo_club_create(username=options["username"])
        style = self.style.SUCCESS if summary.club else self.style.NOTICE
        self.stdout.write(style(str(summary)))
        if summary.club:
            self.stdout.write(f"  club: http://127.0.0.1:8000/api/v1/clubs/{summary.club.slug}/")

    def create_tournament(self, options) -> None:
        summary = demo_tournament_create(username=options["username"])
        style = self.style.SUCCESS if summary.tournament else self.style.NOTICE
        self.stdout.write(style(str(summary)))
        if summary.tournament:
            base = f"http://127.0.0.1:8000/api/v1/tournaments/{summary.tournament.slug}"
            self.stdout.write(f"  standings: {base}/standings/")
