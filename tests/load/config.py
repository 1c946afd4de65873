"""What the load run does, in numbers: its command line and the shape of its world."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Config:
    #: seconds of load (the whole run takes a few minutes more: the world, the drain, checks)
    seconds: float = 60
    #: scorers posting at once: club tables of their own, pairs sharing one (racing for the
    #: same hand number) and one for each table of the tournament
    scorers: int = 50
    #: players reading the ranking, profiles and standings, through the API and the pages
    readers: int = 10
    #: live pages held open on the ASGI server while the scorers write (their event streams)
    live_readers: int = 200
    #: seconds a client waits between two requests of its own (0: as fast as answered)
    pause: float = 0.0
    #: gunicorn's sync workers (the compose file's default for a 2-core machine)
    gunicorn_workers: int = 3
    #: the Celery worker's processes
    worker_concurrency: int = 2
    #: the run's own PostgreSQL database, dropped and created afresh (and dropped at the end
    #: unless ``keep``); the server as a libpq connection string
    database: str = "xuezhan_load"
    postgres: str = "host=127.0.0.1 port=5432 user=postgres"
    #: the broker and the shared cache: one Redis database of the run's own, emptied at the
    #: start and the end
    redis: str = "redis://127.0.0.1:6379/5"
    keep: bool = False
    seed: int = 15
    #: the club's and the tournament's rules (the hands are made for them)
    preset: str = "chengdu"
    #: seconds the worker has, after the load, to finish what the writes asked of it
    drain_seconds: float = 480
    #: seconds a client waits for an answer before it counts the request as unanswered
    client_timeout: float = 30
    #: seconds of ``GET /healthz?check=database`` before the load, by as many clients: the
    #: rate the write rate is printed as a ratio of (0: not measured)
    health_seconds: float = 10

    # --- the world -------------------------------------------------------------------------
    #: closed club tables played before the run (ratings, statistics and awards to read)
    history_tables: int = 24
    #: hands a club table plays before its scorer closes it and opens the next
    table_hands: tuple[int, int] = (8, 14)
    #: a club table opened with two 叫马 bettors behind it, one in this many
    bettor_tables: float = 0.3
    #: tournament rounds, hands a tournament table plays; one table in ``totals_every`` of a
    #: round is entered as four totals instead of hands
    rounds: int = 4
    hands_per_table: int = 4
    totals_every: int = 3
    #: hand records made beforehand, for tables without and with bettors
    records: int = 400
    bettor_records: int = 200

    # --- the scorers' habits ----------------------------------------------------------------
    #: after an answer, the same request sent again with the same Idempotency-Key (the
    #: answer was lost on the way), this share of the writes
    retry_share: float = 0.08
    #: the same request sent twice at once, with the same key (a double tap)
    double_share: float = 0.04

    @property
    def pairs(self) -> int:
        """Pairs of scorers sharing a table, racing for each hand number."""
        return max(1, self.scorers // 10)

    @property
    def tournament_tables(self) -> int:
        return max(1, self.scorers // 8)

    @property
    def solo_scorers(self) -> int:
        return self.scorers - 2 * self.pairs - self.tournament_tables

    @property
    def club_players(self) -> int:
        """Enough for every club table to seat four people of its own, and some more."""
        return 4 * (self.solo_scorers + self.pairs) + 16

    @property
    def database_url(self) -> str:
        parts = dict(part.split("=", 1) for part in self.postgres.split())
        user = parts.get("user", "postgres")
        host, port = parts.get("host", "127.0.0.1"), parts.get("port", "5432")
        return f"postgres://{user}@{host}:{port}/{self.database}"


def parse(argv: list[str] | None = None) -> Config:
    defaults = Config()
    p = argparse.ArgumentParser(
        prog="python -m tests.load.run",
        description="Load run: gunicorn + PostgreSQL + a Celery worker under scorers and "
        "readers, then checks (see README, Load).",
    )
    p.add_argument("--seconds", type=float, default=defaults.seconds, help="seconds of load")
    p.add_argument("--scorers", type=int, default=defaults.scorers, help="concurrent scorers")
    p.add_argument("--readers", type=int, default=defaults.readers, help="concurrent readers")
    p.add_argument("--live-readers", type=int, default=defaults.live_readers,
                   help="live pages held open on the ASGI server")  # fmt: skip
    p.add_argument("--pause", type=float, default=defaults.pause,
                   help="seconds a client waits between its requests")  # fmt: skip
    p.add_argument("--workers", type=int, default=defaults.gunicorn_workers,
                   help="gunicorn sync workers")  # fmt: skip
    p.add_argument(
        "--database",
        default=defaults.database,
        help="the run's PostgreSQL database, any name (dropped and created afresh; refused "
        "when in use, when it is DATABASE_URL's or PostgreSQL's own)",
    )
    p.add_argument("--postgres", default=defaults.postgres, help="the server (libpq string)")
    p.add_argument("--redis", default=defaults.redis,
                   help="the run's own Redis database as a URL, e.g. redis://127.0.0.1:6379/5 "
                        "(emptied first and last)")  # fmt: skip
    p.add_argument("--health-seconds", type=float, default=defaults.health_seconds,
                   help="seconds of GET /healthz?check=database before the load, by as many "
                        "clients: the write rate is printed as a ratio to its rate (0: not "
                        "measured)")  # fmt: skip
    p.add_argument("--seed", type=int, default=defaults.seed)
    p.add_argument("--keep", action="store_true",
                   help="keep the database and the logs afterwards")  # fmt: skip
    args = p.parse_args(argv)
    if args.scorers < 4:
        p.error("--scorers: at least 4 (a pair racing, a tournament table, a table of its own)")
    if why := database_refusal(args.database, os.environ.get("DATABASE_URL", "")):
        p.error(f"--database: {why}")
    return Config(
        seconds=args.seconds, scorers=args.scorers, readers=args.readers, pause=args.pause,
        live_readers=args.live_readers,
        gunicorn_workers=args.workers, database=args.database, postgres=args.postgres,
        redis=args.redis, seed=args.seed, keep=args.keep, health_seconds=args.health_seconds,
    )  # fmt: skip


#: databases PostgreSQL itself needs: never the run's
SYSTEM_DATABASES = frozenset({"postgres", "template0", "template1"})


def database_refusal(name: str, app_database_url: str) -> str | None:
    """Why ``name`` may not be the run's database (the run drops it), or None. Any name is
    taken but PostgreSQL's own and the application's (``DATABASE_URL``); one in use is refused
    when the run starts (``run.in_use``)."""
    if not name or len(name) > 63:
        return "a PostgreSQL database name of 1 to 63 characters"
    if name in SYSTEM_DATABASES:
        return f"{name} is PostgreSQL's own database"
    app = urlsplit(app_database_url).path.lstrip("/") if app_database_url else ""
    if app and name == app:
        return f"{name} is the application's database (DATABASE_URL): the run would drop it"
    return None
