"""Export and import of a club: the round trip of a club of 10,000 hands.

Run by ``make bench`` (never part of ``make test``). The club: ``tests/ratings/generate.py``'s
generated club, 96 players and 625 sessions of 16 hands (10,000 hands, settled by the engine,
with their payments), its ratings computed. Then, each timed on its own:

* ``export_club``: the club to one JSON document, and that written as text;
* ``import_club`` into an empty database (the same database, emptied with ``flush``): the file
  read, checked (schema, references, every hand settled again under its pinned rules and
  compared with the stored settlement), written in one transaction, the ratings computed again;
* the export of the imported club, compared with the first (``exported_at`` apart).

Printed beside two references measured in the same run: settling the 10,000 records alone
(the engine's share of the check), and ``ratings_recompute`` of the club (the ratings' share of
the import). On a PostgreSQL database of its own (``BENCH_PG``, default host=127.0.0.1
port=5432 user=postgres; ``BENCH_DB`` xuezhan_bench_exchange), dropped and created afresh;
SQLite in a temporary file when PostgreSQL cannot be used. ``BENCH_EXCHANGE_SESSIONS`` (625)
and ``BENCH_EXCHANGE_HANDS`` (16) change the size.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.postgres import bench_django  # noqa: E402

HOST = "127.0.0.1"
PG = os.environ.get("BENCH_PG", f"host={HOST} port=5432 user=postgres")
DB = os.environ.get("BENCH_DB", "xuezhan_bench_exchange")
SESSIONS = int(os.environ.get("BENCH_EXCHANGE_SESSIONS", "625"))
HANDS = int(os.environ.get("BENCH_EXCHANGE_HANDS", "16"))
PLAYERS = 96


def seconds(fn):
    started = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - started


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        where = bench_django(PG, DB, folder)
        from django.core.management import call_command

        from clubs.models import Club, Hand
        from exchange.club_export import club_export
        from exchange.club_import import club_import
        from ratings.services import club_recompute
        from scoring.services import hand_settle
        from tests.ratings.generate import generated_club

        print(f"club export and import ({where})")
        gen, made = seconds(
            lambda: generated_club(
                players=PLAYERS, sessions=SESSIONS, hands_per_session=HANDS, slug="bench-club"
            )
        )
        hands = Hand.objects.filter(session__club=gen.club).count()
        _, rated = seconds(lambda: club_recompute(club_id=gen.club.pk))
        print(f"  generated {SESSIONS} sessions × {HANDS} hands = {hands:,} hands "
              f"in {made:.1f} s; ratings_recompute {rated:.2f} s")  # fmt: skip

        data, exported = seconds(lambda: club_export(gen.club))
        text, dumped = seconds(lambda: json.dumps(data, ensure_ascii=False))
        size = len(text.encode())
        print(f"  export: {exported:6.2f} s to JSON, {dumped:5.2f} s to text ({size / 1e6:.1f} MB)")

        snapshot = gen.club.ruleset
        records = list(Hand.objects.filter(session__club=gen.club).values_list("record", flat=True))

        def settle_all():
            for record in records:
                hand_settle(snapshot=snapshot, record=record).as_dict()

        _, settled = seconds(settle_all)

        call_command("flush", interactive=False, verbosity=0)
        loaded, parsed = seconds(lambda: json.loads(text))
        report, imported = seconds(lambda: club_import(loaded))
        s = report.seconds
        print(f"  import into the emptied database: {parsed + imported:6.2f} s "
              f"(read {parsed:.2f}, check {s['check']:.2f}, write {s['write']:.2f}, "
              f"ratings {s['ratings']:.2f})")  # fmt: skip
        per_hand = settled / len(records) * 1000
        print(f"    reference: settling the {len(records):,} records alone {settled:.2f} s "
              f"({per_hand:.3f} ms a hand); ratings_recompute {rated:.2f} s")  # fmt: skip

        club = Club.objects.get(slug="bench-club")
        again, exported_again = seconds(lambda: club_export(club))
        first = {k: v for k, v in data.items() if k != "exported_at"}
        second = {k: v for k, v in again.items() if k != "exported_at"}
        same = first == second
        total = exported + dumped + parsed + imported + exported_again
        print(f"  export again: {exported_again:.2f} s; the two files are "
              f"{'the same' if same else 'DIFFERENT'} (exported_at apart)")  # fmt: skip
        print(f"  round trip (export → import into an empty database → export): {total:.1f} s "
              f"for {hands:,} hands")  # fmt: skip
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
