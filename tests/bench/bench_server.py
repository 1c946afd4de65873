"""The server as deployed, under 16 clients: each request as a ratio to the health check.

Run by ``make bench`` (never part of ``make test``). Targets (issue 25), each figure a ratio to
``GET /healthz?check=database`` measured in the same run (plain ``/healthz`` also asks the broker
and the workers: not a ceiling):

* POST a hand (shown and declared; the API with a token, each with an ``Idempotency-Key`` of
  its own as a phone's queue sends it): ≥ 0.5× healthz, p99 server time ≤ 50 ms, ≤ 5 queries,
  flat as a table grows to 400 hands (≥ 0.9× a fresh table's rate, no more queries);
* the table page (12 hands and 400 hands), the club ranking (first page), a player's profile,
  the tournament standings (first page) and the round page (its first page of tables, as a
  player opens it on a phone): each ≥ 0.3× healthz and ≤ 30 ms server median.

A round's printed seating (``/tournaments/<slug>/rounds/2/print/``: every seat of the round and
every name in pinyin order on A4, a document to print, not a page) is measured too, on a row of
its own marked "a printed document": its figures are printed, with no page target.

What it does: drop and recreate the database ``xuezhan_bench_server`` (``BENCH_DB_SERVER``) on
127.0.0.1:5432 (``BENCH_PG``; a "skipped: …" line and exit 0 when PostgreSQL or Redis does not
answer) and build a world in it in bulk: the club of ``tests/ratings/generate.py`` with 500
players and 20,000 hands (1,250 closed tables of 16), its lines, ratings and awards computed
(the ranking; the profile of its regular, ~2,000 hands); a club of open tables: one of 12 hands
and one of 400 for the table page, 16 fresh ones and 16 of 400 hands for the hands posted
(hands copied from two the service recorded, with their payments and revisions); a tournament
of 10,000 players, round 1 seated (random draw) with its totals in, its standings computed, and
round 2 seated (the round page: ``/tournaments/<slug>/rounds/2/``, and its printed seating).
Then:

1. the queries of each request, counted in this process (``CaptureQueriesContext``, Django's
   test client, the same settings and database as the server), the second of two (the first
   warms the caches);
2. gunicorn, 3 sync workers, as ``docker/docker-compose.yml`` runs it (``DJANGO_ENV=production``,
   DEBUG off, ``DB_CONN_MAX_AGE=60``, the Redis cache ``redis://127.0.0.1:6379/10`` — also the
   broker: each hand's follow-up waits in the outbox, no worker runs it — its access log on;
   throttles raised out of the way, their counting still done);
3. 16 clients in one event-loop thread (``bench_clubs.py``'s: one request in flight each, the
   next sent as soon as the answer is in), each request in turn for ``BENCH_SERVER_WARMUP`` s
   not counted then ``BENCH_SERVER_SECONDS`` s counted (the answers that arrive in it; for a
   page of seconds the window opens once every worker answered and lasts until 3 answers
   came, at most 30 s; the answers still due are awaited before the next request), in two
   passes (the second in the reverse order, so that a machine growing busier weighs on both
   ends alike). For each: answers/s over both passes and its ratio to healthz (each pass's
   beside it), the server's p50 and p99 (gunicorn's own time of each request, from its access
   log), the clients' p99 (queueing for a worker included), gunicorn's and PostgreSQL's CPU
   per request (``/proc/<pid>/stat`` of the workers and of the database's backends, at both
   ends of the window).

The table page is read by a scorer of its club, logged in (a phone at the table: the hand form
included); the other pages by an anonymous visitor of a public club; every page in Chinese.
``BENCH_SERVER_SCALE=1`` also builds the pages' data at three sizes, ×10 each, and prints a row
per page per size (the README's scale table): clubs of 5, 50 and 500 players with 192, 2,000
and 20,000 hands (``BENCH_SERVER_SCALE_CLUBS``, players:closed tables of 16 hands, default
"5:12,50:125,500:1250"; 5,000 players and 200,000 hands take some twenty minutes to build),
tables of 40, 400 and 4,000 hands, tournaments of 100, 1,000 and 10,000 players (100,000 would
take minutes a page today); the main table's figures are then those of the 400-hand table, the
500-player club and the 10,000-player tournament, as without it. The Redis database
(``BENCH_SERVER_REDIS``) is emptied before and after; gunicorn is always stopped.

Environment knobs: BENCH_SERVER_SECONDS (4), BENCH_SERVER_WARMUP (1), BENCH_SERVER_CLIENTS
(16), BENCH_SERVER_WORKERS (3), BENCH_SERVER_SCALE (unset), BENCH_SERVER_SCALE_CLUBS,
BENCH_SERVER_REDIS (redis://127.0.0.1:6379/10), BENCH_PG, BENCH_DB_SERVER (xuezhan_bench_server).
"""

from __future__ import annotations

import json
import math
import os
import secrets
import selectors
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.bench_clubs import (  # noqa: E402
    Client,
    ClientStats,
    http_request,
    percentile,
    proc_stat,
)
from tests.bench.postgres import analyze, recreate_database  # noqa: E402
from tests.bench.targets import at_least, at_most, check  # noqa: E402
from tests.processes import (  # noqa: E402
    NotServing,
    free_port,
    gunicorn_command,
    project_env,
    spawn,
    stop,
    wait_serving,
)
from tests.scoring.engine.records import XUEZHAN  # noqa: E402

HOST = "127.0.0.1"
SECONDS = float(os.environ.get("BENCH_SERVER_SECONDS", "4"))
WARMUP = float(os.environ.get("BENCH_SERVER_WARMUP", "1"))
CLIENTS = int(os.environ.get("BENCH_SERVER_CLIENTS", "16"))
WORKERS = int(os.environ.get("BENCH_SERVER_WORKERS", "3"))
SCALE = os.environ.get("BENCH_SERVER_SCALE", "").lower() in ("1", "true", "yes")
REDIS = os.environ.get("BENCH_SERVER_REDIS", f"redis://{HOST}:6379/10")
PG = os.environ.get("BENCH_PG", f"host={HOST} port=5432 user=postgres")
DB = os.environ.get("BENCH_DB_SERVER", "xuezhan_bench_server")
DATABASE_URL = f"postgres://postgres@{HOST}:5432/{DB}"
PASSES = 2
LANGUAGE = "zh-Hans"

# --- targets (issue 25) -------------------------------------------------------------------------
HAND_RATIO, HAND_P99_MS, HAND_QUERIES, HAND_FLAT = 0.5, 50.0, 5, 0.9
PAGE_RATIO, PAGE_MEDIAN_MS = 0.3, 30.0

# --- the world ----------------------------------------------------------------------------------
#: hands of each closed table of the generated clubs
SESSION_HANDS = 16
#: the table page's small table; the tables the hands are posted to, beside fresh ones
SMALL_TABLE, BIG_TABLE = 12, 400
#: the scale table's sizes, each ×10 the one before: (club players, its closed tables of 16
#: hands, table hands, tournament players). The clubs of 50, 500 and 5,000 players with
#: 2,000, 20,000 and 200,000 hands would take some twenty minutes to build on the bench's
#: machine (``BENCH_SERVER_SCALE_CLUBS="50:125,500:1250,5000:12500"`` asks for them): by
#: default the ladder ends at the main figures' club (500 players, 20,000 hands). A tournament
#: of 100,000 would take minutes a page: the ladder ends at 10,000.
SCALE_CLUBS = [
    tuple(int(x) for x in size.split(":"))
    for size in os.environ.get("BENCH_SERVER_SCALE_CLUBS", "5:12,50:125,500:1250").split(",")
]
SCALES = tuple(
    (players, tables, hands, entrants)
    for (players, tables), hands, entrants in zip(
        SCALE_CLUBS, (40, 400, 4_000), (100, 1_000, 10_000), strict=True
    )
)
#: the size of each page's main figure (index in SCALES)
MAIN = {"table": 1, "ranking": 2, "profile": 2, "standings": 2, "round": 2, "print": 2}
#: the main figures' sizes without the scale: the club, its tables, a table, the tournament
MAIN_SIZES = (500, 1_250, 400, 10_000)

#: the measured window lasts at least SECONDS and until this many answers arrived in it (a
#: page of seconds), at most MAX_WINDOW seconds
MIN_ANSWERS, MAX_WINDOW = 3, 30.0
#: gunicorn's times of fewer requests than this sent in the measured windows (a page of
#: seconds): those of the warm-up's are counted too
MIN_SERVED = 10
#: gunicorn's access log: the bench's tag of each request and gunicorn's time of it (µs)
ACCESS_FORMAT = "%({x-bench}i)s %(s)s %(D)s"

#: a 血战 hand with the tiles shown: the engine evaluates each winner's hand (S3 暗杠 9s, S1
#: 直杠 5m, S2 平胡, S0 对对胡 自摸, S3 平胡 + 根 自摸)
SHOWN = XUEZHAN
#: the same game declared (pattern and roots, no tiles), as a phone's quick entry sends it
DECLARED = {
    "dealer": 0,
    "events": [
        {"type": "win", "from": 2, "situation": [],
         "winners": [{"seat": 1, "declared": {"pattern": "pinghu", "roots": 0, "extras": []}}]},
        {"type": "win", "from": None, "situation": [],
         "winners": [{"seat": 0, "declared": {"pattern": "qingyise", "roots": 1,
                                             "extras": []}}]},
        {"type": "win", "from": 3, "situation": [],
         "winners": [{"seat": 2, "declared": {"pattern": "duiduihu", "roots": 0,
                                             "extras": []}}]},
    ],
    "draw": None,
}  # fmt: skip
HANDS = (SHOWN, DECLARED)


def say(text: str = "") -> None:
    print(text, flush=True)


# --- settings -----------------------------------------------------------------------------------


def server_env() -> dict[str, str]:
    """The compose file's settings (``DJANGO_ENV=production``), on loopback and plain HTTP, with
    the bench's database and Redis; throttles raised out of the way (still counted)."""
    env = project_env(
        DJANGO_ENV="production", SECRET_KEY=SECRET_KEY, DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1,localhost,testserver", SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false", CSRF_COOKIE_SECURE="false", SECURE_HSTS_SECONDS="0",
        DATABASE_URL=DATABASE_URL, DB_CONN_MAX_AGE="60", CACHE_URL=REDIS,
        CELERY_BROKER_URL=REDIS, CELERY_NAMED_QUEUES="true", LOG_LEVEL="WARNING",
        THROTTLE_ANON="100000000/min", THROTTLE_USER="100000000/min",
        THROTTLE_ENGINE="100000000/min", PYTHONPATH=str(ROOT),
    )  # fmt: skip
    for name in ("CELERY_RESULT_BACKEND", "LIVE_REDIS_URL", "JOBS_DELIVERY", "PYTHONDEVMODE"):
        env.pop(name, None)
    return env


SECRET_KEY = secrets.token_urlsafe(50)


def redis_client():
    import redis

    return redis.Redis.from_url(REDIS, socket_connect_timeout=3, socket_timeout=10)


def redis_problem() -> str | None:
    try:
        redis_client().ping()
    except Exception as e:  # noqa: BLE001 - any failure means: no Redis
        return f"Redis at {REDIS} does not answer ({type(e).__name__})"
    return None


def setup_django() -> None:
    """Django in this process with the server's settings: it builds the world and counts each
    request's queries as the server runs them."""
    env = server_env()  # this environment, minus the caller's settings, plus the server's
    os.environ.clear()
    os.environ.update(env)
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT, env=dict(os.environ), capture_output=True, text=True,
    )  # fmt: skip
    if collected.returncode:
        raise SystemExit(f"collectstatic failed: {collected.stderr}")
    import logging
    import warnings

    import django

    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    logging.getLogger("django.request").setLevel(logging.ERROR)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# --- the world ----------------------------------------------------------------------------------


@dataclass
class Tables:
    """The club of open tables: what the clients post to and read."""

    fresh: list[int] = field(default_factory=list)  # a table per client, no hand yet
    grown: list[int] = field(default_factory=list)  # a table per client, BIG_TABLE hands
    tokens: list[str] = field(default_factory=list)  # a scorer per client
    pages: dict[int, int] = field(default_factory=dict)  # hands -> a table to read
    cookie: str = ""  # a scorer's login, who reads the table pages


@dataclass
class Sizes:
    """One size of the pages' data: a club (its ranking, its regular's profile), a table of
    ``table_hands`` hands, a tournament (its standings, its round 2)."""

    label: str
    club: str
    club_players: int
    club_hands: int
    regular: int
    regular_hands: int
    table_hands: int
    tournament: str
    tournament_players: int


def timed(label: str, fn):
    started = time.perf_counter()
    out = fn()
    say(f"  {label} ({time.perf_counter() - started:.1f} s)")
    return out


def build_club(players: int, sessions: int, slug: str) -> tuple[str, int, int, int]:
    """The generated club, its lines, ratings and awards computed: (slug, the regular, his
    hands, the club's hands)."""
    from clubs.models import Hand, Seat
    from ratings.services import club_recompute
    from tests.ratings.generate import generated_club

    big = generated_club(
        players=players, sessions=sessions, hands_per_session=SESSION_HANDS, slug=slug
    )
    club_recompute(club_id=big.club.pk)
    hands = Hand.objects.filter(session__club=big.club).count()
    regular_hands = Seat.objects.filter(player=big.regular).count() * SESSION_HANDS
    return big.club.slug, big.regular.pk, regular_hands, hands


def build_tables(table_sizes: tuple[int, ...]) -> Tables:
    """The club of open tables. Two hands (shown, declared) go through the service on a table
    of their own; every other table's hands are copies of them, written in bulk with their
    payments and revisions, each table then followed up once (its totals) as the worker would."""
    from django.contrib.auth import get_user_model
    from django.test import Client as DjangoClient
    from rest_framework.authtoken.models import Token

    from clubs.models import Membership, Role
    from clubs.services import clubs as services
    from clubs.services.hands import hand_record
    from clubs.services.sessions import session_create

    users = get_user_model().objects
    owner = users.create_user("bench-owner")  # no password: nobody logs in with one
    club = services.club_create(name="Bench tables", slug="bench-tables", user=owner, ruleset="qq")
    out = Tables()

    def table(name: str):
        players = [services.player_create(club=club, name=f"{name} P{s}").player for s in range(4)]
        return session_create(club=club, players=players, user=owner), players

    template, _ = table("template")
    for hand in HANDS:
        hand_record(session=template, data=hand, user=owner)
    scorers = []
    for c in range(CLIENTS):
        scorer = users.create_user(f"bench-scorer-{c}")
        Membership.objects.create(
            club=club, player=services.player_for_user(scorer), role=Role.SCORER
        )
        scorers.append(scorer)
        out.tokens.append(Token.objects.create(user=scorer).key)
    filled: list[tuple[int, list, int]] = []
    for c in range(CLIENTS):
        out.fresh.append(table(f"fresh{c}")[0].pk)
        grown, players = table(f"grown{c}")
        out.grown.append(grown.pk)
        filled.append((grown.pk, players, BIG_TABLE))
    for hands in table_sizes:
        read, players = table(f"read{hands}")
        out.pages[hands] = read.pk
        filled.append((read.pk, players, hands))
    copy_hands(template.pk, filled, scorers[0])
    reader = DjangoClient()
    reader.force_login(scorers[0])
    out.cookie = f"sessionid={reader.cookies['sessionid'].value}"
    return out


def copy_hands(template: int, tables: list[tuple[int, list, int]], user) -> None:
    """``hands`` hands on each table (id, its four players by seat, hands), in turn copies of
    the template table's, with their payments and revisions; then each table's follow-up."""
    from clubs.models import Hand, HandRevision, Payment
    from clubs.tasks import session_changed

    originals = list(Hand.objects.filter(session_id=template).order_by("number"))
    made: list[tuple[Hand, list]] = []
    for session, players, hands in tables:
        for number in range(1, hands + 1):
            o = originals[(number - 1) % len(originals)]
            copy = Hand(
                session_id=session, number=number, record=o.record, settlement=o.settlement,
                ruleset_fingerprint=o.ruleset_fingerprint, dealer=o.dealer,
                next_dealer=o.next_dealer, entered_by=user, counts=o.counts,
            )  # fmt: skip
            made.append((copy, players))
    Hand.objects.bulk_create([h for h, _ in made], batch_size=2000)
    Payment.objects.bulk_create(
        (
            Payment(
                hand=h,
                position=i,
                payer_player=players[int(p["payer"][1:])],
                payee_player=players[int(p["payee"][1:])],
                amount=p["amount"],
                reason=p["reason"],
                event=p["event"],
            )  # fmt: skip
            for h, players in made
            for i, p in enumerate(h.settlement["payments"])
        ),
        batch_size=5000,
    )
    HandRevision.objects.bulk_create(
        (
            HandRevision(
                hand=h,
                revision=1,
                action=HandRevision.Action.CREATED,
                record=h.record,
                settlement=h.settlement,
                changes=sorted(h.record),
                changed_by=user,
            )  # fmt: skip
            for h, _ in made
        ),
        batch_size=2000,
    )
    for session, _, _ in tables:
        session_changed(session)


def build_tournament(players: int, slug: str) -> str:
    """``players`` registered, round 1 seated (a random draw) with zero-sum totals entered,
    the standings computed, round 2 seated: the round in play."""
    import random

    from tests.bench.bench_tournaments import enter_totals, make_tournament
    from tournaments import services
    from tournaments.models import Round

    t = make_tournament(slug, players, 4, "random")
    round_ = services.round_start(tournament=t)
    services.round_seat(round_id=round_.pk)
    enter_totals(Round.objects.get(pk=round_.pk), random.Random(2026))
    services.standings_compute(tournament_id=t.pk)
    services.round_seat(round_id=services.round_start(tournament=t).pk)
    return t.slug


def build_world() -> tuple[Tables, list[Sizes]]:
    """The tables' club, and the pages' data: one size, or three with ``SCALE``."""
    scales = SCALES if SCALE else (MAIN_SIZES,)
    tables = timed(
        f"tables: {CLIENTS} fresh, {CLIENTS} of {BIG_TABLE} hands, to read: "
        + ", ".join(f"{h:,} hands" for h in sorted({SMALL_TABLE, *(s[2] for s in scales)})),
        lambda: build_tables(tuple(sorted({SMALL_TABLE, *(s[2] for s in scales)}))),
    )
    sizes = []
    for n, (players, sessions, hands, entrants) in enumerate(scales):
        slug, regular, regular_hands, club_hands = timed(
            f"club: {players:,} players, {sessions * SESSION_HANDS:,} hands, lines and ratings",
            lambda p=players, s=sessions, n=n: build_club(p, s, f"bench-club-{n}"),
        )
        tournament = timed(
            f"tournament: {entrants:,} players, round 1 entered, standings, round 2 seated",
            lambda e=entrants, n=n: build_tournament(e, f"bench-cup-{n}"),
        )
        sizes.append(Sizes(
            label=f"size {n + 1}" if SCALE else "", club=slug, club_players=players,
            club_hands=club_hands, regular=regular, regular_hands=regular_hands,
            table_hands=hands, tournament=tournament, tournament_players=entrants,
        ))  # fmt: skip
    timed("ANALYZE (the planner's statistics, as autovacuum gathers them)", analyze)
    return tables, sizes


# --- the requests -------------------------------------------------------------------------------


@dataclass
class Request:
    """A measured request: what each client sends in turn, and how it is judged."""

    key: str
    label: str
    #: per client: (method, path, body, headers, expected status), sent in turn
    requests: list[list[tuple]]
    kind: str  # "ceiling", "hand", "page"; no target: "reference" (a part), "document" (printed)
    queries: int | None = None


def page(
    key: str, label: str, path: str, headers: dict | None = None, kind: str = "page"
) -> Request:
    sent = {"Accept-Language": LANGUAGE, **(headers or {})}
    return Request(key, label, [[("GET", path, None, sent, 200)]] * CLIENTS, kind)


#: where a fresh ``Idempotency-Key`` goes into each hand sent (the same length: the request's
#: bytes are made once)
KEY_SLOT = "k" * 32


def fresh_key(text: bytes | str):
    """``text`` with a new key in its slot: each hand is a new one, as a phone's queue sends
    it (``pages/static/pages/offline.js``: every write with a key of its own)."""
    if isinstance(text, bytes):
        return text.replace(KEY_SLOT.encode(), uuid.uuid4().hex.encode(), 1)
    return text.replace(KEY_SLOT, uuid.uuid4().hex, 1)


def hand_request(key: str, label: str, tables: list[int], tokens: list[str]) -> Request:
    per_client = []
    for session, token in zip(tables, tokens, strict=True):
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json",
                   "Idempotency-Key": KEY_SLOT}  # fmt: skip
        path = f"/api/v1/sessions/{session}/hands/"
        per_client.append([("POST", path, json.dumps(h).encode(), headers, 201) for h in HANDS])
    return Request(key, label, per_client, "hand")


def settle_request(tokens: list[str]) -> Request:
    """The same hands through ``POST /api/v1/engine/settle`` with a scorer's token: what a
    hand costs before the database (DRF, the token, the engine, the answer), stored nowhere;
    the hand's ratio cannot be above this one's."""
    per_client = []
    for token in tokens:
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        body = [json.dumps({**h, "ruleset": "qq", "mode": "xuezhan"}).encode() for h in HANDS]
        per_client.append([("POST", "/api/v1/engine/settle", b, headers, 200) for b in body])
    return Request("settle", "POST engine/settle (the hand, not stored)", per_client, "reference")


def requests_of(tables: Tables, sizes: list[Sizes]) -> list[Request]:
    """Every request measured: the ceiling, the hands, then each size's pages."""
    health = [[("GET", "/healthz?check=database", None, {}, 200)]] * CLIENTS
    cookie = {"Cookie": tables.cookie}
    out = [
        Request("healthz", "GET /healthz?check=database", health, "ceiling"),
        hand_request("hand", "POST a hand (fresh tables)", tables.fresh, tables.tokens),
        hand_request(
            "hand400", f"POST a hand (tables of {BIG_TABLE}+ hands)", tables.grown, tables.tokens
        ),
        settle_request(tables.tokens),
        page("table12", f"GET table page ({SMALL_TABLE} hands)",
             f"/sessions/{tables.pages[SMALL_TABLE]}/", cookie),
    ]  # fmt: skip
    for s in sizes:
        tag = f"@{s.label.replace(' ', '')}" if s.label else ""
        round_tables = s.tournament_players // 4
        out += [
            page(f"table{tag}", f"GET table page ({s.table_hands:,} hands)",
                 f"/sessions/{tables.pages[s.table_hands]}/", cookie),
            page(f"ranking{tag}", f"GET club ranking ({s.club_players:,} players, "
                 f"{s.club_hands:,} hands)", f"/clubs/{s.club}/ranking/"),
            page(f"profile{tag}", f"GET player profile ({s.regular_hands:,} hands)",
                 f"/players/{s.regular}/"),
            page(f"standings{tag}", f"GET standings ({s.tournament_players:,} players)",
                 f"/tournaments/{s.tournament}/standings/"),
            page(f"round{tag}", f"GET round page (page 1 of {round_tables:,} tables)",
                 f"/tournaments/{s.tournament}/rounds/2/"),
            page(f"print{tag}", f"GET printed seating ({round_tables:,} tables)",
                 f"/tournaments/{s.tournament}/rounds/2/print/", kind="document"),
        ]  # fmt: skip
    return out


# --- load and CPU -------------------------------------------------------------------------------


#: seconds a client waits for an answer: a slow page (seconds each, 16 clients queueing for 3
#: workers) must be waited for, not sent again while the server still works on it
ANSWER_TIMEOUT = 180.0


def tagged(requests: list[list[tuple]], tag: str) -> list[list[tuple]]:
    return [[(m, p, b, {**h, "X-Bench": tag}, e) for m, p, b, h, e in reqs] for reqs in requests]


class PhaseClient(Client):
    """``bench_clubs.py``'s client, counting the answers that arrive in the measured window
    (whenever they were asked: a page that takes seconds, 16 clients queueing for 3 workers,
    has few or none asked and answered within a few seconds), whose requests tell gunicorn's
    access log whether they were sent in the warm-up, and which waits long for an answer."""

    def __init__(self, port: int, warm: list[tuple], measured: list[tuple], stats) -> None:
        super().__init__(port, measured, stats)
        self.measured = self.requests
        self.warm = [(http_request(port, *r[:4]), r[4]) for r in warm]

    def next(self, sel, port: int, now: float, window: tuple[float, float]) -> None:
        self.requests = self.measured if now >= window[0] else self.warm
        super().next(sel, port, now, window)
        self.out = fresh_key(self.out)  # not sent yet: the socket is writable later

    def finish(self, sel, port, now, window, status, payload, close) -> None:
        stats = self.stats
        if status == self.expected:
            stats.ok_total += 1
            if window[0] <= now <= window[1]:
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
        if self.sock is not None and now - self.t0 > ANSWER_TIMEOUT:
            self.finish(sel, port, now, window, None, b"timed out", close=True)


class Window:
    """The measured window, as the clients read it (``window[0]``, ``window[1]``; infinite
    until known). It opens once the warm-up is over and as many answers came as the server has
    workers (a page of seconds: the workers are all busy by then), and closes once
    ``SECONDS`` passed and ``MIN_ANSWERS`` answers arrived in it (at most ``MAX_WINDOW``
    seconds), so that a slow page is measured in its steady state too. ``cpu()`` snapshots at
    both ends."""

    def __init__(self, warm_until: float, cpu) -> None:
        self.warm_until, self.cpu = warm_until, cpu
        self.start = self.end = math.inf
        self.before: dict = {}
        self.after: dict = {}

    def __getitem__(self, i: int) -> float:
        return (self.start, self.end)[i]

    def update(self, now: float, clients: list[PhaseClient]) -> None:
        if self.start == math.inf:
            answered = sum(c.stats.ok_total for c in clients)
            if now >= self.warm_until and (
                answered >= WORKERS or now >= self.warm_until + MAX_WINDOW
            ):
                self.start, self.before = now, self.cpu()
        elif self.end == math.inf and now - self.start >= SECONDS:
            counted = sum(c.stats.ok for c in clients)
            if counted >= MIN_ANSWERS or now - self.start >= MAX_WINDOW:
                self.end, self.after = now, self.cpu()


def run_load(port: int, r: Request, tag: str, cpu) -> dict:
    """The clients, in this thread (``bench_clubs.py``'s event loop, with a window that moves):
    the warm-up, the measured window, then the answers still due awaited (the next request
    starts on an idle server)."""
    stats = [ClientStats() for _ in r.requests]
    warm, measured = tagged(r.requests, f"warm-up{tag}"), tagged(r.requests, tag)
    clients = [PhaseClient(port, w, m, s) for w, m, s in zip(warm, measured, stats, strict=True)]
    window = Window(time.monotonic() + WARMUP, cpu)
    sel = selectors.DefaultSelector()
    for c in clients:
        c.next(sel, port, time.monotonic(), window)
    while not all(c.done for c in clients):
        events = sel.select(timeout=0.05)
        now = time.monotonic()
        for key, mask in events:
            key.data.on_event(sel, mask, port, now, window)
        for c in clients:
            c.expire(sel, port, now, window)
        window.update(now, clients)
    sel.close()
    before, after = window.before, window.after
    return {
        "ok": sum(s.ok for s in stats),
        "seconds": window.end - window.start,
        "errors": sum(s.errors for s in stats),
        "samples": [x for s in stats for x in s.samples][:3],
        "latencies": sorted(x for s in stats for x in s.latencies),
        "cpu": {k: sum(t - before[k].get(pid, 0.0) for pid, t in after[k].items()) for k in after},
    }


def cpu_probe(master: int, pg):
    """CPU seconds so far of gunicorn's workers and of the bench database's backends."""

    def snapshot() -> dict[str, dict[int, float]]:
        """By process: a process that starts in the window counts from zero (a backend opened
        for a worker's new connection), one that ends in it is lost (a minute's connections
        rarely do)."""
        workers = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and (st := proc_stat(entry.name)) and st[0] == master:
                workers[int(entry.name)] = st[1]
        rows = pg.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (DB,),
        ).fetchall()
        backends = {pid: st[1] for (pid,) in rows if (st := proc_stat(pid))}
        return {"gunicorn": workers, "postgres": backends}

    return snapshot


def server_times(log: Path) -> dict[str, list[float]]:
    """gunicorn's time of each request (ms), by the bench's tag."""
    out: dict[str, list[float]] = {}
    for text in log.read_text().splitlines():
        parts = text.split()
        if len(parts) == 3 and parts[2].isdigit():
            out.setdefault(parts[0], []).append(int(parts[2]) / 1000)
    return out


# --- queries, counted in this process -----------------------------------------------------------


def count_queries(requests: list[Request]) -> None:
    """Each request's queries through Django's test client on the same database and settings
    as the server: the second of two alike (the first warms the caches); a hand's, the more
    of a shown and a declared one."""
    from django.db import connection
    from django.test import Client as DjangoClient
    from django.test.utils import CaptureQueriesContext

    client = DjangoClient()

    def send(method, path, body, headers, expected):
        content_type = headers.get("Content-Type", "application/octet-stream")
        sent = {k: fresh_key(v) for k, v in headers.items() if k != "Content-Type"}
        response = client.generic(
            method, path, body or b"", content_type=content_type, headers=sent
        )
        if response.status_code != expected:
            raise SystemExit(
                f"in-process probe of {method} {path}: {response.status_code}, not {expected}: "
                f"{response.content[:300]!r}"
            )
        return response

    for r in requests:
        counted = []
        for sent in r.requests[0]:
            first = send(*sent)
            if r.key == "hand400" and first.json()["number"] <= BIG_TABLE:
                # the copied hands are not what the service sees of the table: a write now
                # keeps something of a table that copy_hands must write too
                raise SystemExit(f"a hand posted after {BIG_TABLE} copied: {first.json()}")
            with CaptureQueriesContext(connection) as queries:
                send(*sent)
            counted.append(len(queries))
        r.queries = max(counted)


# --- the run ------------------------------------------------------------------------------------


def serve(requests: list[Request]) -> tuple[dict[str, list[dict]], dict[str, list[float]]]:
    """gunicorn started, every request measured in each pass, gunicorn stopped: the results by
    request (one per pass) and gunicorn's times by tag."""
    import psycopg

    logs = Path(tempfile.mkdtemp(prefix="bench-server-"))
    access = logs / "access.log"
    port = free_port()
    proc = spawn(
        gunicorn_command(port, WORKERS, "--access-logfile", str(access),
                         "--access-logformat", ACCESS_FORMAT),
        logs / "server.log", server_env(),
    )  # fmt: skip
    results: dict[str, list[dict]] = {r.key: [] for r in requests}
    try:
        wait_serving(f"http://{HOST}:{port}/healthz?check=database", proc, timeout=60)
        with psycopg.connect(f"{PG} dbname={DB}", autocommit=True) as pg:
            cpu = cpu_probe(proc.pid, pg)
            for n in range(PASSES):
                started = time.monotonic()
                for r in requests if n % 2 == 0 else list(reversed(requests)):
                    results[r.key].append(run_load(port, r, f"{r.key}#{n}", cpu))
                say(f"  pass {n + 1} of {PASSES}: {time.monotonic() - started:.0f} s")
    except NotServing as e:
        raise SystemExit(f"gunicorn: {e}") from None
    finally:
        stop(proc)
        tail = [x for x in (logs / "server.log").read_text().splitlines() if x.strip()]
        if any("Error" in x or "Traceback" in x for x in tail):
            say("gunicorn's log (last lines):\n    " + "\n    ".join(tail[-15:]))
    times = server_times(access)
    import shutil

    shutil.rmtree(logs, ignore_errors=True)
    return results, times


@dataclass
class Figure:
    rate: float
    ratio: float
    per_pass: list[float]
    server_p50: float
    server_p99: float
    client_p99: float
    cpu_ms: float
    pg_ms: float
    errors: int
    samples: list[str]


def figures(requests, results, times) -> dict[str, Figure]:
    health = results["healthz"]
    health_rates = [h["ok"] / h["seconds"] for h in health]
    health_rate = sum(h["ok"] for h in health) / sum(h["seconds"] for h in health)
    out = {}
    for r in requests:
        runs = results[r.key]
        ok = sum(x["ok"] for x in runs)
        rate = ok / sum(x["seconds"] for x in runs)
        served = sorted(t for n in range(len(runs)) for t in times.get(f"{r.key}#{n}", []))
        if len(served) < MIN_SERVED:  # a page of seconds: the warm-up's requests too
            served = sorted(
                served + [t for n in range(len(runs)) for t in times.get(f"warm-up{r.key}#{n}", [])]
            )
        waited = sorted(t for x in runs for t in x["latencies"])
        gunicorn = sum(x["cpu"].get("gunicorn", 0.0) for x in runs)
        postgres = sum(x["cpu"].get("postgres", 0.0) for x in runs)
        out[r.key] = Figure(
            rate=rate,
            ratio=rate / health_rate if health_rate else float("nan"),
            per_pass=[
                (x["ok"] / x["seconds"]) / h if h else float("nan")
                for x, h in zip(runs, health_rates, strict=True)
            ],
            server_p50=percentile([t / 1000 for t in served], 50),
            server_p99=percentile([t / 1000 for t in served], 99),
            client_p99=percentile(waited, 99),
            cpu_ms=gunicorn / ok * 1000 if ok else float("nan"),
            pg_ms=postgres / ok * 1000 if ok else float("nan"),
            errors=sum(x["errors"] for x in runs),
            samples=[s for x in runs for s in x["samples"]][:3],
        )
    return out


def row(label: str, f: Figure, queries: int | None) -> str:
    passes = " ".join(f"{p:.2f}" for p in f.per_pass)
    return (
        f"{label:<46}{f.rate:>8.1f} {f.ratio:>6.2f}× ({passes}) {f.server_p50:>7.1f} "
        f"{f.server_p99:>7.1f} {f.client_p99:>7.0f} {f.cpu_ms:>6.1f} {f.pg_ms:>5.1f} "
        f"{queries if queries is not None else '?':>4}"
        + (f"  errors {f.errors}" if f.errors else "")
    )


HEADER = (
    f"{'request':<46}{'per s':>8} {'÷ healthz (pass 1 2)':>20} {'srv p50':>7} {'srv p99':>7} "
    f"{'cli p99':>7} {'CPU ms':>6} {'PG ms':>5} {'q':>4}"
)


def targets_of(r: Request, f: Figure, fresh: Figure | None, fresh_queries: int | None) -> str:
    if r.kind == "hand":
        parts = [
            at_least(f.ratio, HAND_RATIO),
            "p99 " + at_most(f.server_p99, HAND_P99_MS),
            "queries " + at_most(r.queries if r.queries is not None else 99, HAND_QUERIES, ""),
        ]
        if fresh is not None:
            flat = f.rate >= HAND_FLAT * fresh.rate and (r.queries or 0) <= (fresh_queries or 0)
            parts.append(
                f"flat: {f.rate / fresh.rate:.2f}× a fresh table's rate (CPU "
                f"{f.cpu_ms / fresh.cpu_ms:.2f}×), "
                + check("", flat, f"≥ {HAND_FLAT:g}×, no more queries").strip()
            )
        return "; ".join(parts)
    if r.kind == "page":
        return f"{at_least(f.ratio, PAGE_RATIO)}; median " + at_most(f.server_p50, PAGE_MEDIAN_MS)
    if r.kind == "reference":
        return "a reference (no target): the hand's ceiling, nothing stored"
    if r.kind == "document":
        return "a printed document (every seat of the round on A4): no page target"
    return "the ceiling"


def report(requests: list[Request], found: dict[str, Figure], sizes: list[Sizes]) -> None:
    say(
        "\nper s: answers a second over both passes; ÷ healthz: that rate over "
        "healthz?check=database's (each pass's beside it); srv: gunicorn's time of a request "
        "(ms); cli p99: the clients' wait, queueing included (ms); CPU ms, PG ms: gunicorn's "
        "workers' and PostgreSQL's CPU per request; q: queries per request (in-process)\n"
    )
    say(HEADER)
    by_key = {r.key: r for r in requests}
    shown = ["healthz", "hand", "hand400", "settle", "table12"] + [
        f"{k}@size{n + 1}" if SCALE else k for k, n in MAIN.items()
    ]
    for key in shown:
        r, f = by_key[key], found[key]
        say(row(r.label, f, r.queries))
        fresh = found["hand"] if key == "hand400" else None
        say(f"    {targets_of(r, f, fresh, by_key['hand'].queries)}")
        for sample in f.samples:
            say(f"    error: {sample}")
    if SCALE:
        say("\nscale: the pages at three sizes, ×10 each (the README's scale table)")
        say(f"{'page':<46}{'per s':>8} {'÷ healthz':>9} {'srv p50':>7} {'CPU ms':>6} {'q':>4}")
        for k in MAIN:
            for n in range(len(sizes)):
                r, f = by_key[f"{k}@size{n + 1}"], found[f"{k}@size{n + 1}"]
                say(
                    f"{r.label:<46}{f.rate:>8.1f} {f.ratio:>8.2f}× {f.server_p50:>7.1f} "
                    f"{f.cpu_ms:>6.1f} {r.queries if r.queries is not None else '?':>4}"
                )


def main() -> int:
    reason = redis_problem() or recreate_database(PG, DB)
    if reason:
        say(f"skipped: {reason}")
        return 0
    started = time.monotonic()
    redis_client().flushdb()
    try:
        setup_django()
        say(
            f"The server as deployed: gunicorn {WORKERS} sync workers, DJANGO_ENV=production, "
            f"DEBUG off, DB_CONN_MAX_AGE=60, cache {REDIS}, PostgreSQL {DB}; {CLIENTS} clients, "
            f"{PASSES} passes of {WARMUP:g} s warm-up + {SECONDS:g} s each; "
            f"{os.cpu_count()} CPU(s), load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )
        say("building the world …")
        tables, sizes = build_world()
        requests = requests_of(tables, sizes)
        timed("queries counted in-process", lambda: count_queries(requests))
        from django.db import connections

        connections.close_all()
        results, times = serve(requests)
        report(requests, figures(requests, results, times), sizes)
        say(
            f"\n({time.monotonic() - started:.0f} s in all; load average now "
            f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}: on a machine shared with other "
            f"work, compare the ratios of one run)"
        )
    finally:
        redis_client().flushdb()
    return 0


if __name__ == "__main__":
    sys.exit(main())
