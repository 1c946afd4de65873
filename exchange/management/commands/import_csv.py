"""``manage.py import_csv <slug> <file.csv> [--dry-run]``: a club's players or its evenings'
final results from a spreadsheet (the header tells which; see ``exchange.csv_import``).

Every bad row is listed (line, column, why) and then nothing is stored; ``--dry-run`` checks
the file and stores nothing whatever. Run the players file first: a results file names the
club's players.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from exchange.csv_import import PLAYERS, csv_import


class Command(BaseCommand):
    help = "Import a club's players or final session results from a CSV file."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the club's slug (its address)")
        parser.add_argument("file", help="players.csv (name, pinyin) or results.csv (date, …)")
        parser.add_argument(
            "--dry-run", action="store_true", help="check every row and store nothing"
        )
        parser.add_argument(
            "--user", metavar="USERNAME", help="the login the tables are entered by (optional)"
        )

    def handle(self, *args, **options):
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"no club {options['slug']!r}")
        user = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"no login {options['user']!r}")
        try:
            with open(options["file"], "rb") as f:
                data = f.read()
        except OSError as e:
            raise CommandError(f"cannot read {options['file']}: {e.strerror}") from e
        result = csv_import(club=club, data=data, user=user, dry_run=options["dry_run"])
        for p in result.problems:
            where = f"line {p.line}" if p.line else "file"
            if p.column:
                where += f", column {p.column}"
            self.stderr.write(f"{where}: {p.message} ({p.code})")
        if result.problems:
            bad = len({p.line for p in result.problems})
            raise CommandError(
                f"{bad} bad row(s) of {result.rows} ({len(result.problems)} problem(s)); "
                "nothing was stored"
            )
        if result.kind == PLAYERS:
            what = (
                f"{len(result.new_players)} new player(s), {len(result.known_players)} already "
                "in the club"
            )
        else:
            what = f"{len(result.tables)} table(s) with their final totals"
        verb = "would store" if options["dry_run"] else "stored"
        self.stdout.write(f"{club.slug}: {result.rows} row(s), all good; {verb} {what}")
