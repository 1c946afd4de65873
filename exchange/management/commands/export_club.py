"""``manage.py export_club <slug> [--public-only] [--output FILE] [--indent N]``.

Writes the club's whole history to one JSON file (format ``xuezhan-club`` version 1, described
by ``exchange/schema/club-export-v1.json``); ``--public-only`` leaves out the logins (and who
did what) and the organisers' notes and reasons. See ``exchange.club_export``.
"""

from __future__ import annotations

import json
import sys
import time

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from exchange.club_export import club_export


class Command(BaseCommand):
    help = "Write a club's whole history to one JSON file (manage.py import_club reads it)."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the club's slug (its address)")
        parser.add_argument(
            "--public-only",
            action="store_true",
            help="leave out logins, who entered what, and the organisers' notes and reasons",
        )
        parser.add_argument(
            "--output",
            "-o",
            metavar="FILE",
            help="where to write (default: <slug>.json; - for stdout)",
        )
        parser.add_argument(
            "--indent", type=int, default=None, help="indent the JSON (default: compact)"
        )

    def handle(self, *args, **options):
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"no club {options['slug']!r}")
        started = time.perf_counter()
        data = club_export(club, public_only=options["public_only"])
        output = options["output"] or f"{club.slug}.json"
        text = json.dumps(data, ensure_ascii=False, indent=options["indent"])
        if output == "-":
            sys.stdout.write(text + "\n")
            return
        with open(output, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        hands = sum(len(s["hands"]) for s in data["sessions"])
        self.stderr.write(
            f"{club.slug}: {len(data['players'])} players, {len(data['sessions'])} sessions, "
            f"{hands} hands, {len(data['tournaments'])} tournaments → {output} "
            f"({time.perf_counter() - started:.2f} s)"
        )
