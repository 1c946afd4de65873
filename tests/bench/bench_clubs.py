"""Hands recorded through the API, against PostgreSQL, served by gunicorn.

Run by ``make bench`` (never part of ``make test``). Targets (issue 25), each printed beside
its figure with "ok" or "MISSED": at 16 concurrent clients on the bench's machine, POST
/api/v1/sessions/{id}/hands/ sustains ≥ 0.5× the rate of GET /healthz?check=database measured
in the same run (the ceiling: Django and one query), with a p99 server time ≤ 50 ms, as well
at a fresh table as at a table of 400 hands, in ≤ 5 queries. Beside it, in the same run, the
same load with the task published to the broker in the request (``JOBS_DELIVERY=direct``, how
hands were recorded before the outbox) is the reference the outbox is measured against.

What it does: drop and recreate the database ``xuezhan_bench`` on 127.0.0.1:5432 (user
postgres; a "skipped: …" line and exit 0 when PostgreSQL does not answer), migrate it, create
one club with 16 fresh open tables and 16 tables of 399 hands (copied in SQL: through the API
this would take minutes), four seated players and two guest 叫马 bettors each, and one scorer
with a token per pair of tables; count the queries of a submission in-process (shown, declared,
at a grown table); start gunicorn on a free port of 127.0.0.1 with production settings, then
let 16 clients (one per table, keep-alive HTTP/1.1, each sending its next hand as soon as the
last is answered) post valid hands (shown and declared) for a warm-up and a measured window
(gunicorn's sync workers answer ``Connection: close``; the clients then reconnect), the health
check before and after them. The clients share one event-loop thread: the load generator runs on
the same cores as the server, so it is kept light. gunicorn is always stopped at the end.

Beside rate and latency (as the clients see it: with 16 clients and 3 workers most of it is the
wait in the listen queue) it prints the server time (gunicorn's access log: from the request
read to the answer sent) and the CPU each request cost (Linux /proc): gunicorn's workers,
the PostgreSQL backends of the bench database (persistent connections only) and the clients,
with the capacity that implies if the server had every core, and how much CPU other processes
took meanwhile, so a run on a busy machine can still be read.

Server settings, as production runs them: ``DJANGO_ENV=production`` (behind a proxy that says
https), the cache in Redis (throttle counters; the broker's database number unless
``BENCH_CACHE_URL`` says another), ``DB_CONN_MAX_AGE=60`` (persistent connections), throttles
raised out of the way, ``LOG_LEVEL=WARNING``, and a Celery broker: each hand asks for the
``clubs.session_changed`` task in its transaction, through the outbox (``core.outbox``), as in
production, where Celery beat's sweep sends it and a worker runs it outside the request.
Nothing sweeps or consumes by default: the figure is the API's; the bench checks that the
outbox holds the follow-ups (a busy table's hands share one), and empties it before and after.
``BENCH_CELERY_WORKER=1`` also runs one Celery worker with beat on this machine, as docker
compose does, and prints its CPU per hand (it takes its share of the same cores). Without Redis
(or with ``BENCH_CELERY_BROKER_URL=`` empty) the task runs eagerly after each commit, in the
request, and the cache is in-process: not how production runs it; the first line says which.

Environment knobs (all optional): BENCH_SECONDS (20), BENCH_WARMUP (3), BENCH_REF_SECONDS (8),
BENCH_CLIENTS (16), BENCH_WORKERS (3), BENCH_WORKER_CLASS (sync), BENCH_THREADS (1),
BENCH_CONN_MAX_AGE (60), BENCH_CELERY_BROKER_URL (redis://127.0.0.1:6379/15; empty: eager),
BENCH_CACHE_URL (the broker's), BENCH_CELERY_WORKER (unset), BENCH_GROWN_HANDS (399),
BENCH_PG (host=127.0.0.1 port=5432 user=postgres), BENCH_DB (xuezhan_bench).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.postgres import recreate_database  # noqa: E402
from tests.bench.targets import at_least, at_most  # noqa: E402
from tests.clubs.records import DECLARED  # noqa: E402
from tests.scoring.engine.records import DRAWN, XUEZHAN  # noqa: E402

#: issue 25: hands/s ÷ GET /healthz?check=database/s of the same run
TARGET_RATIO = 0.5
#: issue 25: p99 of the server's own time per hand (the listen queue's wait left out)
TARGET_SERVER_P99_MS = 50.0
#: issue 25: ≤ 5 queries per hand
MAX_QUERIES = 5
#: "flat as a table grows": hands/s at a table of GROWN hands ÷ at a fresh one
TARGET_FLAT = 0.9
HOST = "127.0.0.1"

SECONDS = float(os.environ.get("BENCH_SECONDS", "20"))
WARMUP = float(os.environ.get("BENCH_WARMUP", "3"))
REF_SECONDS = float(os.environ.get("BENCH_REF_SECONDS", "8"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "16"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "3"))
WORKER_CLASS = os.environ.get("BENCH_WORKER_CLASS", "sync")
THREADS = int(os.environ.get("BENCH_THREADS", "1"))
CONN_MAX_AGE = os.environ.get("BENCH_CONN_MAX_AGE", "60")
BROKER = os.environ.get("BENCH_CELERY_BROKER_URL", f"redis://{HOST}:6379/15")
#: the shared cache (throttle counters) as production has it: Redis, the broker's own database
#: number by default (the bench touches no other); without a broker, in-process memory
CACHE = os.environ.get("BENCH_CACHE_URL", BROKER)
#: production settings refuse to start without a real-looking key
BENCH_SECRET_KEY = "bench-" + "k7Qz" * 14
CELERY_WORKER = os.environ.get("BENCH_CELERY_WORKER", "").lower() in ("1", "true", "yes")
#: the queue Celery sends to by default (a Redis list of that name)
QUEUE = "celery"
PG = os.environ.get("BENCH_PG", f"host={HOST} port=5432 user=postgres")
DB = os.environ.get("BENCH_DB", "xuezhan_bench")
DATABASE_URL = f"postgres://postgres@{HOST}:5432/{DB}"

#: logged once by each worker when Celery runs eagerly (broker "memory://"), or by whitenoise
#: when no collectstatic was run (static files come from the finders): not worth showing
NOISE = ("kombu.connection: No hostname was supplied", "No directory at:", "mw_instance = ")

#: every loop is bounded in time and in count
MAX_REQUESTS_PER_CLIENT = 200_000
REQUEST_TIMEOUT = 10.0
STARTUP_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0

#: what the proxy in front says of every request (production redirects plain HTTP to HTTPS)
HTTPS = {"X-Forwarded-Proto": "https"}

BETTORS = ("老王", "小李")
XUEZHAN_BET = {
    **XUEZHAN,
    "bettors": [{"name": "老王", "tile": "1m"}, {"name": "小李", "tile": "9p"}],
}
#: what each client posts, in turn (numbers omitted: the server gives the next one); each a
#: finished 血战 hand (RULES §4.10), its tiles shown or (DECLARED) its winners' patterns declared
HANDS = (DRAWN, XUEZHAN, XUEZHAN_BET, DECLARED)
#: the hands a grown table holds when its load starts (issue 25: flat up to 400)
GROWN = int(os.environ.get("BENCH_GROWN_HANDS", "399"))


# --- PostgreSQL and Django ----------------------------------------------------------------------


def redis_client():
    """A client of the broker's Redis database (redis-py comes with ``celery[redis]``)."""
    import redis

    return redis.Redis.from_url(BROKER, socket_connect_timeout=3, socket_timeout=10)


def broker_problem() -> str | None:
    """Why the broker cannot be used (the task then runs eagerly), or None."""
    try:
        redis_client().ping()
    except Exception as e:  # noqa: BLE001 - any failure means: no broker
        return f"Redis at {BROKER} does not answer ({type(e).__name__})"
    return None


def queued_tasks() -> int:
    """Tasks asked for: published to the queue, or waiting in the outbox."""
    with connect_pg() as c:
        waiting = c.execute("SELECT count(*) FROM core_outboxmessage").fetchone()[0]
    return redis_client().llen(QUEUE) + waiting


def empty_queue() -> None:
    redis_client().delete(QUEUE)
    with connect_pg() as c:
        c.execute("DELETE FROM core_outboxmessage")


#: environment the bench decides for the server (the caller's values are dropped)
SERVER_PREFIXES = ("THROTTLE_", "CELERY_", "DJANGO_", "DB_", "CACHE_", "DEBUG", "DATABASE_URL",
                   "JOBS_")  # fmt: skip


def server_environment(delivery: str = "outbox") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith((*SERVER_PREFIXES, "BENCH_"))}
    env["JOBS_DELIVERY"] = delivery
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_ENV="production",
        SECRET_KEY=BENCH_SECRET_KEY,
        ALLOWED_HOSTS=f"{HOST},localhost,testserver",
        # behind the proxy that ends TLS, as production runs: the clients say https
        SECURE_PROXY_SSL_HEADER="true",
        DEBUG="false",
        DATABASE_URL=DATABASE_URL,
        DB_CONN_MAX_AGE=CONN_MAX_AGE,
        CACHE_URL=CACHE or "locmemcache://xuezhan-bench",
        THROTTLE_ANON="100000000/min",
        THROTTLE_USER="100000000/min",
        THROTTLE_ENGINE="100000000/min",
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
    )
    env.pop("PYTHONDEVMODE", None)
    if BROKER:
        env["CELERY_BROKER_URL"] = BROKER
    return env


@dataclass
class Setup:
    """What the load needs, made in-process before gunicorn starts."""

    fresh: list[int]  # open tables without a hand, one per client
    grown: list[int]  # open tables of GROWN hands, one per client
    tokens: list[str]  # a scorer's token per client (he scores both of its tables)
    queries: dict[str, int]  # queries of one submission, in-process, by case
    payments: list[int]  # payments of each posted hand


def setup_data() -> Setup:
    """Migrate; one club, CLIENTS fresh tables and CLIENTS tables of GROWN hands with a
    scorer each; the queries of a submission measured in-process (a live request, not a
    test's transaction), at a fresh table and at a table of GROWN hands."""
    for key in [k for k in os.environ if k.startswith(SERVER_PREFIXES)]:
        os.environ.pop(key)
    os.environ.update(server_environment())
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, connections
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    from clubs.models import Membership, Role
    from clubs.services import clubs as services
    from clubs.services.hands import hand_record
    from clubs.services.sessions import session_create
    from scoring.engine.settle import settle
    from scoring.services import pinned_ruleset

    call_command("migrate", verbosity=0, interactive=False)
    users = get_user_model().objects
    owner = users.create_user("bench-owner", password="bench-pass-word-1")
    club = services.club_create(name="Bench club", slug="bench", user=owner, ruleset="qq")
    fresh, grown, tokens = [], [], []
    for t in range(CLIENTS):
        players = [services.player_create(club=club, name=f"T{t} P{s}").player for s in range(4)]
        scorer = users.create_user(f"bench-scorer-{t}", password="bench-pass-word-1")
        Membership.objects.create(
            club=club, player=services.player_for_user(scorer), role=Role.SCORER
        )
        for tables in (fresh, grown):
            session = session_create(
                club=club,
                players=players,
                user=owner,
                bettors=[{"guest_name": name} for name in BETTORS],
            )
            tables.append(session.pk)
        tokens.append(Token.objects.create(user=scorer).key)
    for pk in grown:
        hand_record(session=TableSessionRef(pk), data=XUEZHAN, user=owner)
    grow(grown, GROWN - 1)

    # Queries of one submission, in-process (same code path; tasks eager after the commit), in
    # the steady state: the process has rebuilt the session's pinned rules before.
    probe = session_create(club=club, players=players, user=owner)
    pinned_ruleset(probe.ruleset)
    client = Client(HTTP_AUTHORIZATION=f"Token {tokens[-1]}", HTTP_X_FORWARDED_PROTO="https")
    queries = {}
    for case, record in (("shown", XUEZHAN), ("declared", DECLARED), ("grown", XUEZHAN)):
        if case == "grown":
            grow([probe.pk], GROWN - 1)
        with CaptureQueriesContext(connection) as captured:
            response = client.post(
                f"/api/v1/sessions/{probe.pk}/hands/", record, content_type="application/json"
            )
        if response.status_code != 201:
            raise SystemExit(
                f"in-process probe failed: {response.status_code} {response.content!r}"
            )
        queries[case] = len(captured)
    connections.close_all()
    table = {"ruleset": "qq", "base": 1, "mode": "xuezhan"}
    payments = [len(settle({**h, **table}).payments) for h in HANDS]
    return Setup(fresh, grown, tokens, queries, payments)


class TableSessionRef:
    """A session named by its key only (what ``hand_record`` needs of it)."""

    def __init__(self, pk: int) -> None:
        self.pk = pk


def grow(sessions: list[int], count: int) -> None:
    """Give each session ``count`` more hands, copies of its latest one with its payments and
    revision (SQL, in seconds: through the API this would take minutes)."""
    with connect_pg() as c:
        for pk in sessions:
            top = c.execute(
                "SELECT max(number) FROM clubs_hand WHERE session_id = %s", (pk,)
            ).fetchone()[0]
            c.execute(
                """
                WITH latest AS (SELECT * FROM clubs_hand WHERE session_id = %(s)s
                                 AND number = %(top)s),
                copies AS (
                    INSERT INTO clubs_hand (session_id, number, record, settlement,
                        ruleset_fingerprint, dealer, next_dealer, revision, entered_by_id,
                        entered_at, updated_at, is_deleted, deleted_reason, entry_seat, counts)
                    SELECT session_id, g, record, settlement, ruleset_fingerprint, dealer,
                           next_dealer, 1, entered_by_id, now(), now(), false, '', entry_seat,
                           counts
                      FROM latest, generate_series(%(top)s + 1, %(top)s + %(n)s) g
                    RETURNING id, record, settlement, entered_by_id
                ), revisions AS (
                    INSERT INTO clubs_handrevision (hand_id, revision, action, record,
                        settlement, changes, reason, changed_by_id, changed_at)
                    SELECT id, 1, 'created', record, settlement, '[]', '', entered_by_id, now()
                      FROM copies
                )
                INSERT INTO clubs_payment (hand_id, position, payer_player_id, payer_bettor_id,
                    payee_player_id, payee_bettor_id, amount, reason, event)
                SELECT copies.id, p.position, p.payer_player_id, p.payer_bettor_id,
                       p.payee_player_id, p.payee_bettor_id, p.amount, p.reason, p.event
                  FROM copies, clubs_payment p JOIN latest ON p.hand_id = latest.id
                """,
                {"s": pk, "top": top, "n": count},
            )
        c.execute("ANALYZE clubs_hand, clubs_payment, clubs_handrevision")


# --- gunicorn -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def gunicorn_command(port: int) -> list[str]:
    cmd = [
        str(ROOT / ".venv" / "bin" / "gunicorn"),
        "config.wsgi:application",
        "--bind", f"{HOST}:{port}",
        "--workers", str(WORKERS),
        "--worker-class", WORKER_CLASS,
        "--threads", str(THREADS),
        "--backlog", "256",
        "--keep-alive", "5",
        "--timeout", "60",
        "--graceful-timeout", "5",
        "--log-level", "warning",
        # the server's own time per request (from the request read to the answer sent, in
        # microseconds), without the wait in the listen queue: the p99 server time
        "--access-logfile", SERVER_LOG, "--access-logformat", "%(U)s %(D)s",
    ]  # fmt: skip
    return cmd


def start_gunicorn(port: int, log, delivery: str) -> subprocess.Popen:
    return start(gunicorn_command(port), log, server_environment(delivery))


def start(command: list[str], log, env: dict[str, str] | None = None) -> subprocess.Popen:
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env or server_environment(),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def celery_worker_command() -> list[str]:
    """One worker process (prefork, one child) consuming the bench's queue, with beat (the
    outbox's sweep) in it."""
    celery = str(ROOT / ".venv" / "bin" / "celery")
    return [celery, "-A", "config", "--quiet", "worker", "--beat", "--schedule",
            f"{tempfile.gettempdir()}/bench-celerybeat", "--loglevel", "warning",
            "--concurrency", "1", "--without-gossip", "--without-mingle",
            "--without-heartbeat"]  # fmt: skip


def wait_ready(proc: subprocess.Popen, port: int) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {proc.returncode} before answering")
        with contextlib.suppress(OSError, http.client.HTTPException):
            c = http.client.HTTPConnection(HOST, port, timeout=2)
            c.request("GET", "/healthz?check=database")
            response = c.getresponse()
            response.read()
            c.close()
            if response.status == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer within {STARTUP_TIMEOUT:.0f} s")


def stop_process(proc: subprocess.Popen, *, group: bool = True) -> None:
    """SIGTERM to the process group (gunicorn), or to the process alone (a Celery worker's
    master, which lets its child finish the task in hand); SIGKILL to the group if it lingers."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        if group:
            os.killpg(proc.pid, signal.SIGTERM)
        else:
            proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=STOP_TIMEOUT)


# --- load ---------------------------------------------------------------------------------------


@dataclass
class ClientStats:
    latencies: list[float] = field(default_factory=list)  # seconds, measured window only
    ok: int = 0  # successful answers in the measured window
    ok_total: int = 0  # including the warm-up
    errors: int = 0
    samples: list[str] = field(default_factory=list)


class Client:
    """One client of the load, in the event loop: one connection, one request in flight, the
    next one sent as soon as the answer is in; it reconnects when the server closes (gunicorn's
    sync workers answer ``Connection: close``)."""

    def __init__(self, port: int, requests: list[tuple], stats: ClientStats) -> None:
        self.requests = [(http_request(port, *r[:4]), r[4]) for r in requests]
        self.stats = stats
        self.sock: socket.socket | None = None
        self.sent = 0
        self.count = 0
        self.done = False
        self.out = b""
        self.buf = bytearray()
        self.t0 = 0.0
        self.expected = 0

    def next(self, sel, port: int, now: float, window: tuple[float, float]) -> None:
        if now >= window[1] or self.count >= MAX_REQUESTS_PER_CLIENT:
            self.close(sel)
            self.done = True
            return
        self.out, self.expected = self.requests[self.count % len(self.requests)]
        self.count += 1
        self.t0, self.sent, self.buf = now, 0, bytearray()
        if self.sock is None:
            self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.sock.setblocking(False)
            self.sock.connect_ex((HOST, port))  # in progress: writable once connected
            sel.register(self.sock, selectors.EVENT_WRITE, self)
        else:
            sel.modify(self.sock, selectors.EVENT_WRITE, self)

    def on_event(self, sel, mask: int, port: int, now: float, window) -> None:
        try:
            if mask & selectors.EVENT_WRITE:
                if err := self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                    raise OSError(err, os.strerror(err))
                self.sent += self.sock.send(self.out[self.sent :])
                if self.sent == len(self.out):
                    sel.modify(self.sock, selectors.EVENT_READ, self)
                return
            data = self.sock.recv(65536)
            self.buf += data
            answer = parse_response(self.buf, closed=not data)
        except BlockingIOError:  # nothing to do after all: wait for the next event
            return
        except OSError as e:
            self.finish(sel, port, now, window, None, repr(e).encode(), close=True)
            return
        if answer is not None:
            self.finish(sel, port, now, window, *answer)
        elif not data:
            self.finish(sel, port, now, window, None, b"connection closed", close=True)

    def finish(self, sel, port, now, window, status, payload, close) -> None:
        stats = self.stats
        if status == self.expected:
            stats.ok_total += 1
            if self.t0 >= window[0]:
                stats.ok += 1
                stats.latencies.append(now - self.t0)
        else:
            stats.errors += 1
            if len(stats.samples) < 3:
                stats.samples.append(f"{status}: {bytes(payload[:200])!r}")
        if close:
            self.close(sel)
        self.next(sel, port, now, window)

    def expire(self, sel, port, now, window) -> None:
        if self.sock is not None and now - self.t0 > REQUEST_TIMEOUT:
            self.finish(sel, port, now, window, None, b"timed out", close=True)

    def close(self, sel) -> None:
        if self.sock is not None:
            sel.unregister(self.sock)
            self.sock.close()
            self.sock = None


def http_request(port: int, method: str, path: str, body: bytes | None, headers: dict) -> bytes:
    head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}"]
    head += [f"{k}: {v}" for k, v in headers.items()]
    head.append(f"Content-Length: {len(body or b'')}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + (body or b"")


def parse_response(buf: bytearray, closed: bool) -> tuple[int, bytes, bool] | None:
    """(status, body, the server closes) once ``buf`` holds a whole answer, else None."""
    end = buf.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = bytes(buf[:end]).decode("latin-1").split("\r\n")
    version, status = lines[0].split(" ", 2)[:2]
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    close = headers.get("connection", "").lower() == "close" or version == "HTTP/1.0"
    body = bytes(buf[end + 4 :])
    if "content-length" in headers:
        if len(body) < int(headers["content-length"]):
            return None
    elif not closed:  # no length: the body ends when the server closes
        return None
    return int(status), body, close


def event_loop(port: int, clients: list[Client], start: float, window: tuple[float, float]):
    """Every client in one thread (a light load generator: it shares the cores with the
    server), from ``start`` until the measured window closes and their last answers are in."""
    sel = selectors.DefaultSelector()
    sleep_until(start)
    for c in clients:
        c.next(sel, port, time.monotonic(), window)
    while not all(c.done for c in clients):
        events = sel.select(timeout=0.05)
        now = time.monotonic()
        for key, mask in events:
            key.data.on_event(sel, mask, port, now, window)
        for c in clients:
            c.expire(sel, port, now, window)
    sel.close()


def run_load(port: int, per_client: list[list[tuple]], seconds: float, cpu=None) -> dict:
    """Run the clients; ``cpu()`` (a snapshot of CPU seconds by part) is taken when the
    measured window opens and when it closes."""
    stats = [ClientStats() for _ in per_client]
    clients = [Client(port, reqs, s) for reqs, s in zip(per_client, stats, strict=True)]
    t_start = time.monotonic() + 0.2
    measure_from = t_start + WARMUP
    stop = measure_from + seconds
    loop = threading.Thread(
        target=event_loop, args=(port, clients, t_start, (measure_from, stop)), daemon=True
    )
    loop.start()
    sleep_until(measure_from)
    before = cpu() if cpu else {}
    log_from = server_log_size()
    sleep_until(stop)
    after = cpu() if cpu else {}
    log_to = server_log_size()
    loop.join(timeout=REQUEST_TIMEOUT + 5)
    queued = queued_tasks() if BROKER else None
    latencies = sorted(x for s in stats for x in s.latencies)
    ok = sum(s.ok for s in stats)
    server = server_times(log_from, log_to)
    return {
        "server_p50": percentile(server, 50),
        "server_p99": percentile(server, 99),
        "rate": ok / seconds,
        "ok": ok,
        "ok_total": sum(s.ok_total for s in stats),
        "errors": sum(s.errors for s in stats),
        "samples": [x for s in stats for x in s.samples][:3],
        "p50": percentile(latencies, 50),
        "p95": percentile(latencies, 95),
        "p99": percentile(latencies, 99),
        "max": latencies[-1] * 1000 if latencies else float("nan"),
        "hung": sum(not c.done for c in clients) if loop.is_alive() else 0,
        "cpu": {k: cpu_delta(before[k], after[k]) for k in before if k in after},
        "queued": queued,
    }


#: gunicorn's access log: one line per answer, its path and its time in microseconds
SERVER_LOG = str(Path(tempfile.gettempdir()) / f"bench-clubs-{os.getpid()}-access.log")


def server_log_size() -> int:
    try:
        return os.path.getsize(SERVER_LOG)
    except OSError:
        return 0


def server_times(start: int, end: int) -> list[float]:
    """The server times (seconds, sorted) of the answers logged between two sizes of the
    access log: the measured window's."""
    try:
        with open(SERVER_LOG, "rb") as f:
            f.seek(start)
            lines = f.read(max(0, end - start)).decode(errors="replace").splitlines()
    except OSError:
        return []
    times = []
    for line in lines:
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            times.append(int(parts[1]) / 1e6)
    return sorted(times)


def sleep_until(deadline: float) -> None:
    while (left := deadline - time.monotonic()) > 0:
        time.sleep(min(left, 0.05))


# --- CPU accounting (Linux /proc; empty elsewhere) ----------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def proc_stat(pid: int | str) -> tuple[int, float] | None:
    """(parent pid, CPU seconds user + system) of a process, None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def machine_busy() -> float:
    """CPU seconds the whole machine spent busy (every core, every process)."""
    with open("/proc/stat") as f:
        user, nice, system, _idle, _iowait, irq, softirq, steal = map(
            int, f.readline().split()[1:9]
        )
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS


def cpu_probe(master: int, pg, worker: int | None = None):
    """A snapshot function: CPU seconds by process of gunicorn (master and workers), of the
    Celery worker (master and child) if one runs, of the PostgreSQL backends serving the bench
    database, of this process (the clients) and of the whole machine."""
    if not Path("/proc/stat").is_file():
        return None
    masters = {master: "gunicorn"} | ({worker: "celery"} if worker else {})

    def snapshot() -> dict[str, dict[int, float] | float]:
        parts: dict[str, dict[int, float]] = {name: {} for name in masters.values()}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or not (st := proc_stat(entry.name)):
                continue
            name = masters.get(int(entry.name)) or masters.get(st[0])
            if name:
                parts[name][int(entry.name)] = st[1]
        rows = pg.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (DB,),
        ).fetchall()
        postgres = {pid: st[1] for (pid,) in rows if (st := proc_stat(pid))}
        return {
            **parts,
            "postgres": postgres,
            "clients": time.process_time(),
            "machine": machine_busy(),
        }

    return snapshot


def cpu_delta(before, after) -> float:
    if isinstance(after, dict):  # processes that started in the window count from zero
        return sum(t - before.get(pid, 0.0) for pid, t in after.items())
    return after - before


def cpu_line(r: dict) -> None:
    cpu = r["cpu"]
    if not cpu or not r["ok"]:
        return
    per = {k: v / r["ok"] * 1000 for k, v in cpu.items()}
    seconds = r["ok"] / r["rate"]
    worker = cpu.get("celery", 0.0)
    others = cpu["machine"] - cpu["gunicorn"] - cpu["postgres"] - cpu["clients"] - worker
    if CONN_MAX_AGE == "0":  # a backend per request: gone before it can be measured
        per["postgres"] = float("nan")
    server = per["gunicorn"] + (0.0 if CONN_MAX_AGE == "0" else per["postgres"])
    capacity = (os.cpu_count() or 1) * 1000 / server
    print(
        f"    CPU per request: gunicorn {per['gunicorn']:.1f} ms + PostgreSQL "
        f"{per['postgres']:.1f} ms (clients {per['clients']:.1f} ms) → ≈ {capacity:.0f}/s if "
        f"the server had all {os.cpu_count()} cores; other processes used "
        f"{max(0.0, others) / seconds:.2f} core(s) meanwhile"
    )
    if "celery" in per:
        print(
            f"    Celery worker: {per['celery']:.1f} ms per request (its queries are in "
            f"PostgreSQL's); tasks still queued: {r['queued']}"
        )


def cpu_per_request(r: dict) -> float | None:
    """Milliseconds of CPU one answer took: gunicorn's, PostgreSQL's and the clients'."""
    cpu = r["cpu"]
    if not cpu or not r["ok"] or CONN_MAX_AGE == "0":
        return None
    return (cpu["gunicorn"] + cpu["postgres"] + cpu["clients"]) / r["ok"] * 1000


def percentile(sorted_values: list[float], p: float) -> float:
    """Nearest-rank percentile, in milliseconds."""
    if not sorted_values:
        return float("nan")
    rank = max(1, -(-len(sorted_values) * p // 100))
    return sorted_values[int(rank) - 1] * 1000


def hand_requests(session: int, token: str) -> list[tuple]:
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json", **HTTPS}
    path = f"/api/v1/sessions/{session}/hands/"
    return [("POST", path, json.dumps(h).encode(), headers, 201) for h in HANDS]


def settle_requests() -> list[tuple]:
    headers = {"Content-Type": "application/json", **HTTPS}
    return [
        ("POST", "/api/v1/engine/settle", json.dumps({**h, "ruleset": "qq"}).encode(), headers, 200)
        for h in HANDS
    ]


def row(label: str, r: dict, target: str = "") -> None:
    print(
        f"{label:<34}{r['rate']:>8.1f}/s {r['p50']:>8.1f} {r['p95']:>8.1f} {r['p99']:>8.1f} "
        f"{r['max']:>8.1f} {r['errors']:>6} {r['server_p50']:>8.1f} {r['server_p99']:>8.1f}   "
        f"{target}"
    )
    cpu_line(r)
    for sample in r["samples"]:
        print(f"    error: {sample}")
    if r["hung"]:
        print(f"    {r['hung']} client thread(s) did not finish in time")


def python_speed() -> float:
    """Million iterations/s of a plain CPython loop: how fast this machine's cores are."""
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i
        best = min(best, time.perf_counter() - t)
    return 1 / best


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def connect_pg():
    import psycopg

    return psycopg.connect(f"{PG} dbname={DB}", connect_timeout=3, autocommit=True)


def stored_hands() -> int:
    with connect_pg() as c:
        return c.execute("SELECT count(*) FROM clubs_hand").fetchone()[0]


def noise(line: str) -> bool:
    return any(n in line for n in NOISE)


#: the CPU probe of the server that is running (set by serve)
CPU: list = [None]


def serve(port: int, delivery: str, load) -> list[dict]:
    """Start gunicorn (and the worker, if asked) with ``JOBS_DELIVERY=delivery``, run
    ``load()`` — rows of (label, result, target) — print each row, stop; the results."""
    with (
        tempfile.NamedTemporaryFile("w+", prefix="bench-gunicorn-", suffix=".log") as log,
        tempfile.NamedTemporaryFile("w+", prefix="bench-celery-", suffix=".log") as worker_log,
    ):
        proc = start_gunicorn(port, log, delivery)
        worker = start(celery_worker_command(), worker_log) if BROKER and CELERY_WORKER else None
        pg = None
        results = []
        try:
            pg = connect_pg()
            wait_ready(proc, port)
            CPU[0] = cpu_probe(proc.pid, pg, worker.pid if worker else None)
            for label, result, target in load():
                row(label, result, target)
                results.append(result)
        finally:
            stop_process(proc)
            if worker is not None:
                stop_process(worker, group=False)
            if pg is not None:
                pg.close()
            tails = {}
            for name, f in (("gunicorn", log), ("Celery worker", worker_log)):
                f.seek(0)
                lines = [x for x in f.read().splitlines() if x.strip() and not noise(x)]
                tails[name] = lines[-15:]
        if not any("Error" in x or "Traceback" in x for x in tails["Celery worker"]):
            tails.pop("Celery worker")  # its start-up warnings (e.g. run as root): nothing wrong
        for name, tail in tails.items():
            if tail:
                print(f"\n{name} log (last lines):\n    " + "\n    ".join(tail))
    return results


def main() -> int:
    global BROKER, CACHE
    reason = recreate_database(PG, DB)
    if reason:
        print(f"skipped: {reason}")
        return 0
    no_broker = BROKER and broker_problem()
    if no_broker:
        BROKER = CACHE = ""
    setup = setup_data()
    if BROKER:
        empty_queue()  # the in-process probe's task
    port = free_port()
    workers = f"{WORKERS} {WORKER_CLASS} worker(s)" + (
        f" × {THREADS} threads" if WORKER_CLASS == "gthread" else ""
    )
    if BROKER:
        celery = f"Celery broker {BROKER} (" + (
            "one worker consuming)" if CELERY_WORKER else "tasks queued, not consumed)"
        )
    else:
        celery = "Celery eager: the task runs in the request" + (
            f", because {no_broker}" if no_broker else ""
        )
    print(
        f"Hands through the API — gunicorn {workers} on {HOST}:{port}, production settings "
        f"(DJANGO_ENV=production, DEBUG off, cache {CACHE or 'in-process memory'}), PostgreSQL "
        f"database {DB}, {os.cpu_count()} CPU(s), DB_CONN_MAX_AGE={CONN_MAX_AGE}, {celery}"
    )
    payments = setup.payments
    print(
        f"{CLIENTS} clients (keep-alive, one table each), {WARMUP:g} s warm-up then "
        f"{SECONDS:g} s measured (references {REF_SECONDS:g} s); each posts in turn: "
        f"流局 with 查叫 ({payments[0]} payments), 血战 ({payments[1]} payments), "
        f"血战 + 2 叫马 bettors ({payments[2]} payments), 血战 declared ({payments[3]} payments)"
    )
    q = setup.queries
    print(
        f"queries per hand submission (in-process, a live request): shown {q['shown']}, "
        f"declared {q['declared']}, at a table of {GROWN} hands {q['grown']}   "
        + at_most(max(q.values()), MAX_QUERIES, unit="")
    )
    print(
        f"load average before: {load_average()}; CPython speed: {python_speed():.1f} M loop "
        f"iterations/s/core\n"
    )
    print(
        f"{'':<40}{'rate':>10} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} "
        f"{'errors':>6} {'server':>8} {'server':>8}"
    )
    print(f"{'':<40}{'':>10} {'':>8} {'':>8} {'':>8} {'':>8} {'':>6} {'p50 ms':>8} {'p99 ms':>8}")
    fresh = [hand_requests(s, t) for s, t in zip(setup.fresh, setup.tokens, strict=True)]
    grown = [hand_requests(s, t) for s, t in zip(setup.grown, setup.tokens, strict=True)]
    health = [[("GET", "/healthz?check=database", None, HTTPS, 200)]] * CLIENTS
    hand_target = f"≥ {TARGET_RATIO:g}× healthz, server p99 ≤ {TARGET_SERVER_P99_MS:g} ms"

    def passes():
        # alternating: the health check around the hands, so that a change in what the rest
        # of the machine does moves both
        yield ("ref: GET healthz?check=database", run_load(port, health, REF_SECONDS, CPU[0]),
               "Django + SELECT 1: the ceiling")  # fmt: skip
        yield ("POST hands/, fresh tables", run_load(port, fresh, SECONDS, CPU[0]), hand_target)
        yield (f"POST hands/, tables of {GROWN}+", run_load(port, grown, SECONDS, CPU[0]),
               hand_target)  # fmt: skip
        yield ("ref: GET healthz?check=database", run_load(port, health, REF_SECONDS, CPU[0]),
               "")  # fmt: skip
        yield ("ref: POST engine/settle",
               run_load(port, [settle_requests()] * CLIENTS, REF_SECONDS, CPU[0]),
               "stateless: engine + DRF, no database")  # fmt: skip

    health_a, hands, hands_grown, health_b, _ = serve(port, "outbox", passes)
    # minus the probe's (three posted, its copies) and the grown tables' (one and its copies)
    stored = stored_hands() - (GROWN + 2) - GROWN * CLIENTS
    queued = hands_grown["queued"]
    hands_ok = hands["ok_total"] + hands_grown["ok_total"]
    if BROKER:
        empty_queue()
        [direct] = serve(port, "direct", lambda: [
            ("ref: hands, task to the broker", run_load(port, fresh, REF_SECONDS, CPU[0]),
             "published in the request, as before the outbox"),
        ])  # fmt: skip
        print(f"\nhands/s with the outbox / published in the request: "
              f"{hands['rate'] / direct['rate']:.2f}")  # fmt: skip
    print(f"\nload average after: {load_average()}")
    print(
        f"\nstored hands (outbox runs): {stored} (answered 201: {hands_ok}, warm-up included)"
        + ("" if stored == hands_ok else "  MISMATCH")
    )
    if BROKER and not CELERY_WORKER:
        print(
            f"tasks asked for: {queued} (in the outbox, none swept: a table's hands within "
            "FOLLOW_UP_COALESCE_SECONDS share one; at least one, at most one per hand)"
            + ("" if 0 < queued <= stored else "  MISMATCH")
        )
    ceiling = (health_a["rate"] + health_b["rate"]) / 2
    print(f"\nhealthz?check=database: {ceiling:.1f}/s (the mean of its two passes)")
    for label, r in (("fresh tables", hands), (f"tables of {GROWN}+ hands", hands_grown)):
        ratio = r["rate"] / ceiling if ceiling else float("nan")
        errors = f", {r['errors']} errors  MISSED" if r["errors"] else ""
        print(
            f"POST a hand, {label}: {r['rate']:.1f}/s = {ratio:.2f}× healthz   "
            f"{at_least(ratio, TARGET_RATIO)}; server p99 {r['server_p99']:.1f} ms   "
            f"{at_most(r['server_p99'], TARGET_SERVER_P99_MS)}{errors}"
        )
    health_cpu = [x for x in (cpu_per_request(health_a), cpu_per_request(health_b)) if x]
    if health_cpu:
        # what the rates' ratio would be on a machine the bench had to itself: the CPU each
        # request took (server, database and clients), the health check's over the hand's
        health_ms = sum(health_cpu) / len(health_cpu)
        for label, r in (("fresh tables", hands), (f"tables of {GROWN}+ hands", hands_grown)):
            hand_ms = cpu_per_request(r)
            if hand_ms:
                print(
                    f"    by CPU per request ({label}): healthz {health_ms:.1f} ms ÷ hand "
                    f"{hand_ms:.1f} ms = {health_ms / hand_ms:.2f}× (the ratio on an idle machine)"
                )
    flat = hands_grown["rate"] / hands["rate"] if hands["rate"] else float("nan")
    print(
        f"flat as a table grows: hands/s at {GROWN}+ hands ÷ at a fresh table = {flat:.2f}   "
        f"{at_least(flat, TARGET_FLAT)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
