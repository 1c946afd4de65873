"""``make load``: ``python -m tests.load.run [--seconds 60 --scorers 50 --readers 10]``.

1. A fresh PostgreSQL database of the run's own (``xuezhan_load``), migrated, and the world
   built in it through the services (``tests/load/world.py``); the run's Redis database
   emptied.
2. The project as it is deployed (``docker/docker-compose.yml``: production settings): gunicorn
   with sync workers on a loopback port, its access log timing every request; one Celery
   worker; Celery beat, which sweeps the outbox every second.
3. ``GET /healthz?check=database`` by as many clients for ``--health-seconds`` (the ceiling
   the write rate is printed as a ratio of), then the scorers and readers for ``--seconds``
   (``tests/load/clients.py``).
4. The worker drained: the outbox empty, nothing queued or running, and nothing new for a
   while. Then beat, the worker and gunicorn stopped. All along, the follow-ups' lag is read
   from the outbox (``figures.FollowUpLag``).
5. The figures (``tests/load/figures.py``) and the checks (``tests/load/checks.py``).

Everything it started is stopped at the end, the database dropped and the Redis database
emptied (``--keep``: the database and the logs are kept; the logs are kept too when a check
fails). Exit status: 0 when every check passes, 1 when one fails, 2 when the run could not
be made (PostgreSQL or Redis missing, a server that does not start).
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from tests.bench.postgres import recreate_database
from tests.load.config import Config, parse
from tests.processes import (
    NotServing,
    answers,
    beat_command,
    free_port,
    gunicorn_command,
    project_env,
    spawn,
    stop,
    uvicorn_command,
    wait_serving,
    worker_command,
)

#: the queues of the compose file's worker (the settings' CELERY_NAMED_QUEUES)
WORKER_QUEUES = "tables,celery,ratings"
#: consecutive looks, half a second apart, that must find the worker idle and nothing new
QUIET_LOOKS = 5


def say(text: str) -> None:
    print(text, flush=True)


def setup_django(config: Config) -> None:
    """Django in this process, on the run's database: it builds the world and checks it. No
    broker here: what the world's services queue runs in process."""
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=config.database_url,
        DJANGO_ENV="development", DEBUG="false", LOG_LEVEL="WARNING",
    )  # fmt: skip
    for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL"):
        os.environ.pop(name, None)
    import logging
    import warnings

    import django

    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    logging.getLogger("kombu.connection").setLevel(logging.ERROR)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def server_env(config: Config) -> dict[str, str]:
    """The settings of the deployed service (the compose file's), on loopback and plain
    HTTP, with the run's database and Redis."""
    return project_env(
        DJANGO_ENV="production", SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost", SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false", CSRF_COOKIE_SECURE="false", SECURE_HSTS_SECONDS="0",
        DATABASE_URL=config.database_url, CELERY_BROKER_URL=config.redis,
        CACHE_URL=config.redis, LOG_LEVEL="INFO", DB_CONN_MAX_AGE="60", CELERY_NAMED_QUEUES="true",
    )  # fmt: skip


def redis_client(config: Config):
    import redis

    return redis.Redis.from_url(config.redis, socket_timeout=5)


def worker_idle(r) -> bool:
    """Nothing waiting for the worker in Redis, nothing it took and has not finished."""
    queued = sum(
        r.llen(k)
        for queue in WORKER_QUEUES.split(",")
        for k in r.scan_iter(f"{queue}*")
        if r.type(k) == b"list"
    )
    return not queued and not r.hlen("unacked")


def drain(config: Config, r):
    """Wait for the worker to finish what the writes asked of it: the outbox empty, no job
    waiting or running, Redis holding nothing for it, and no new outbox message, for
    ``QUIET_LOOKS`` looks in a row."""
    from django.db import connection

    from core.models import OutboxMessage, TaskRecord
    from tests.load.checks import Check

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [OutboxMessage._meta.db_table])
        sequence = cursor.fetchone()[0]
    started = time.monotonic()
    quiet, last = 0, None
    while quiet < QUIET_LOOKS:
        if time.monotonic() - started > config.drain_seconds:
            waiting = OutboxMessage.objects.count()
            jobs = TaskRecord.objects.filter(state__in=("PENDING", "STARTED")).count()
            return Check(
                "the worker drained after the load",
                problems=[f"not within {config.drain_seconds:g} s: {waiting} messages in the "
                          f"outbox, {jobs} jobs waiting or running"],
            )  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT last_value FROM {sequence}")
            now = cursor.fetchone()[0]
        idle = (
            worker_idle(r)
            and not OutboxMessage.objects.exists()
            and not TaskRecord.objects.filter(state__in=("PENDING", "STARTED")).exists()
        )
        quiet = quiet + 1 if idle and now == last else 0
        last = now
        time.sleep(0.5)
    seconds = time.monotonic() - started
    return Check("the worker drained after the load", f"in {seconds:.1f} s")


def in_use(config: Config) -> str | None:
    """Why the run's database must not be dropped now (another run is on it), or None."""
    import psycopg

    try:
        with psycopg.connect(f"{config.postgres} dbname=postgres", connect_timeout=3) as c:
            [(n,)] = c.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [config.database]
            ).fetchall()
    except psycopg.Error as e:
        return f"PostgreSQL at {config.postgres!r} is not usable: {str(e).strip().splitlines()[0]}"
    if n:
        return (
            f"{n} connection(s) to {config.database}: another load run? (--database "
            f"{config.database}_2 runs beside it)"
        )
    return None


def main(argv: list[str] | None = None) -> int:
    config = parse(argv)
    started = time.monotonic()
    redis_url = urlsplit(config.redis)
    if not answers(redis_url.hostname or "127.0.0.1", redis_url.port or 6379):
        say(f"load: Redis at {config.redis} does not answer")
        return 2
    reason = in_use(config) or recreate_database(config.postgres, config.database)
    if reason:
        say(f"load: {reason}")
        return 2
    logs = Path(tempfile.mkdtemp(prefix="xuezhan-load-"))
    processes: list[subprocess.Popen] = []
    failed = True
    r = None
    try:
        setup_django(config)
        r = redis_client(config)
        r.flushdb()
        from django.db import connection, connections

        from tests.bench.postgres import analyze
        from tests.load import checks, clients, figures, world

        building = time.monotonic()
        built = world.build(config)
        analyze()
        sizes = world.sizes()
        say(
            f"load: world built in {time.monotonic() - building:.1f} s on {config.database}: "
            f"{sizes['players']} players, {sizes['tables']} tables, {sizes['hands']} hands; "
            f"{len(built.records) + len(built.bettor_records)} hands made to post"
        )
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            postgres_version = cursor.fetchone()[0].split()[0]
        connections.close_all()

        env = server_env(config)
        collected = subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=Path(__file__).resolve().parents[2], env=env, capture_output=True, text=True,
        )  # fmt: skip
        if collected.returncode:
            say(f"load: collectstatic failed: {collected.stderr}")
            return 2
        port = free_port()
        access = logs / "access.log"
        logfiles = {"server": logs / "server.log", "worker": logs / "worker.log",
                    "beat": logs / "beat.log"}  # fmt: skip
        gunicorn = spawn(
            gunicorn_command(port, config.gunicorn_workers, "--access-logfile", str(access),
                             "--access-logformat", figures.ACCESS_FORMAT),
            logfiles["server"], env,
        )  # fmt: skip
        processes.append(gunicorn)
        worker = spawn(
            worker_command(
                "load@%h", concurrency=config.worker_concurrency, queues=WORKER_QUEUES
            ),
            logfiles["worker"], env,
        )  # fmt: skip
        processes.append(worker)
        processes.append(spawn(beat_command(logs / "beat-schedule"), logfiles["beat"], env))
        # the ASGI server beside gunicorn, as compose runs it: the live pages' streams
        live_port = free_port()
        logfiles["live"] = logs / "live.log"
        asgi = spawn(uvicorn_command(live_port), logfiles["live"], env)
        processes.append(asgi)
        live = f"http://127.0.0.1:{live_port}"
        base = f"http://127.0.0.1:{port}"
        try:
            wait_serving(f"{base}/api/v1/", gunicorn)
            wait_serving(f"{live}/healthz?check=database", asgi)
        except NotServing as e:
            say(f"load: gunicorn or uvicorn: {e}")
            return 2
        deadline = time.monotonic() + 60
        while "ready." not in logfiles["worker"].read_text():
            if worker.poll() is not None or time.monotonic() > deadline:
                say(f"load: the worker did not start: {logfiles['worker'].read_text()[-2000:]}")
                return 2
            time.sleep(0.2)

        health = None
        if config.health_seconds:
            say(f"load: GET /healthz?check=database by {config.scorers + config.readers} "
                f"clients for {config.health_seconds:g} s (the ceiling) …")  # fmt: skip
            health = clients.run_health(config, base)
        say(
            f"load: {base}, gunicorn {config.gunicorn_workers} workers, a Celery worker and "
            f"beat; {config.scorers} scorers ({config.solo_scorers} at tables of their own, "
            f"{config.pairs} pairs racing, {config.tournament_tables} at the tournament), "
            f"{config.readers} readers, {config.live_readers} live pages open on uvicorn, "
            f"for {config.seconds:g} s …"
        )
        groups = {"gunicorn": gunicorn.pid, "worker": worker.pid, "beat": processes[2].pid,
                  "uvicorn": asgi.pid}  # fmt: skip
        cpu_before = figures.cpu_seconds(groups)
        lag = figures.FollowUpLag()
        lag.start()
        results = clients.run_clients(config, built, base, live)
        cpu = figures.cpu_line(
            cpu_before, figures.cpu_seconds(groups), results.finished - results.started
        )
        say("load: done; draining the worker …")
        drained = drain(config, r)
        lag.stop()
        for process in reversed(processes):  # beat first: nothing more is sent
            stop(process)
        processes.clear()

        lines = figures.access_lines(access)
        say("")
        say(figures.report(config, results, lines, postgres_version, cpu, health))
        say(lag.line())
        say(figures.live_line(results))
        say("")
        found = checks.run_all(built, results, lines, logfiles, drained)
        for check in found:
            say(str(check))
        failed = not all(check.passed for check in found)
        say("")
        say(f"load: {'FAIL' if failed else 'PASS'} ({time.monotonic() - started:.0f} s)")
        return 1 if failed else 0
    finally:
        for process in reversed(processes):
            stop(process)
        if r is not None:
            r.flushdb()
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        if config.keep or failed:
            kept = f", the database {config.database}" if config.keep else ""
            say(f"load: logs kept in {logs}{kept}")
        else:
            shutil.rmtree(logs, ignore_errors=True)
        if not config.keep:
            import psycopg

            with psycopg.connect(f"{config.postgres} dbname=postgres", autocommit=True) as c:
                c.execute(f'DROP DATABASE IF EXISTS "{config.database}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
