"""``manage.py ratings_recompute [--club SLUG] [--ratings-only]``: rebuild from scratch.

Every session's statistics lines are written again from its hands, then every rating pool
(a club's own tables, each tournament's tables) is rated again from its first session. The
numbers are the ones the incremental updates gave (``tests/ratings/test_incremental.py``):
run it after a model or library change, or to check.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from ratings.services import club_recompute


class Command(BaseCommand):
    help = "Rebuild the statistics lines and the ratings from scratch (all clubs, or one)."

    def add_arguments(self, parser):
        parser.add_argument("--club", metavar="SLUG", help="only this club")
        parser.add_argument(
            "--ratings-only",
            action="store_true",
            help="keep the statistics lines and the award holders read from them, rate again",
        )

    def handle(self, *args, **options):
        clubs = Club.objects.order_by("pk")
        if options["club"]:
            clubs = clubs.filter(slug=options["club"])
            if not clubs.exists():
                raise CommandError(f"no club {options['club']!r}")
        for club in clubs:
            started = time.perf_counter()
            done = club_recompute(club_id=club.pk, lines=not options["ratings_only"])
            seconds = time.perf_counter() - started
            self.stdout.write(
                f"{club.slug}: {done['sessions']} session(s), {done['rated']} rated, "
                f"{seconds:.2f} s"
            )
