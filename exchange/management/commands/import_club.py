"""``manage.py import_club <file>``: load a club's export file into this database.

The club must not be here yet. The whole file is checked first (the schema, every reference,
every hand settled again under its session's pinned rules and compared with the stored
settlement); any problem refuses the whole file, and every problem is listed with its path.
Then everything is written in one transaction, and the ratings are computed again. Imported
logins have no password: their owners set one through a reset link (the club's members page).
See ``exchange.club_import``.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from core.errors import Conflict, Invalid
from exchange.club_import import club_import


class Command(BaseCommand):
    help = "Load a club's export file (from manage.py export_club) into this database."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the export file (- for standard input)")

    def handle(self, *args, **options):
        try:
            if options["file"] == "-":
                data = json.load(sys.stdin)
            else:
                with open(options["file"], encoding="utf-8") as f:
                    data = json.load(f)
        except OSError as e:
            raise CommandError(f"cannot read {options['file']}: {e.strerror}") from e
        except (ValueError, RecursionError) as e:
            raise CommandError(f"{options['file']} is not JSON: {e}") from e
        try:
            report = club_import(data)
        except Invalid as e:
            for p in e.problems:
                self.stderr.write(f"{p['path'] or '(file)'}: {p['code']}: {p['message']}")
            raise CommandError(
                f"refused: {len(e.problems)} problem(s); nothing was imported"
            ) from e
        except Conflict as e:
            raise CommandError(e.message) from e
        counts = report.counts
        seconds = report.seconds
        self.stdout.write(
            f"imported {report.club.slug}: {counts['players']} players ({counts['logins']} "
            f"logins, no passwords: send reset links from the members page), "
            f"{counts['sessions']} sessions, {counts['hands']} hands ({counts['hands_settled']} "
            f"settlements checked), {counts['tournaments']} tournaments; "
            f"check {seconds['check']:.2f} s, write {seconds['write']:.2f} s, "
            f"ratings {seconds['ratings']:.2f} s"
        )
        if report.rating_note:
            self.stdout.write(f"note: {report.rating_note}")
