"""The load's clients: scorers and readers, one thread each, over plain HTTP (``requests``).

Every write carries an ``Idempotency-Key``. Some are sent again with the same key once
answered (the answer was lost on the way), some twice at once (a double tap): each must be
answered the same, the second time marked ``Idempotent-Replayed``. Every request is timed by
its client and tagged (``X-Load: write:hand``…) so that the server's access log says which
of its lines are the load's and what each was.

* :class:`ClubScorer` posts the hands of its own club table (shown, declared, mixed; with
  叫马 bettors at some tables), closes it after a dozen hands and opens the next over the API.
* :class:`RacingPair`: two scorers at one table post each hand number at the same moment,
  each its own hand: one is stored, the other answered 409 ``hand_exists``.
* :class:`TournamentScorer` plays one table of every round of the tournament (its hands, or
  its four totals); the last table of a round to finish starts the next round (the worker
  seats it). Once the tournament is over it scores club tables.
* :class:`Reader` reads the ranking, players' profiles and statistics, the standings and the
  tables, from the API (with a token) and from the pages (anonymous, in Chinese or English).
* The live pages (``tests/load/live_pages.py``, a process of their own) hold the club's and
  the tournament's event streams open on the ASGI server and note when each event arrived.
* :func:`run_health`: before the load, as many clients ask ``GET /healthz?check=database``
  (Django and one query: the ceiling of a request) for a few seconds, so that the write rate
  is printed as a ratio to it, measured in the same run on the same machine.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import requests

from tests.load.config import Config
from tests.load.world import BETTORS, Scorer, World

WRITE, READ, HEALTH = "write", "read", "health"


@dataclass(frozen=True)
class Sample:
    """One request as its client saw it (``status`` 0: no answer)."""

    kind: str
    what: str
    status: int
    ms: float
    expected: bool


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any
    headers: dict[str, str]

    @property
    def replayed(self) -> bool:
        return self.headers.get("idempotent-replayed") == "true"


@dataclass(frozen=True)
class Ack:
    """A hand the server acknowledged (2xx): the key, what was sent, what was answered."""

    session: int
    number: int
    key: str
    sent: dict
    answer: dict
    username: str
    #: when the hand was sent and its answer came (epoch seconds: the live pages' clock)
    sent_at: float = 0.0
    answered_at: float = 0.0


@dataclass
class Results:
    """What every client saw; lists appended from many threads (one ``append`` at a time)."""

    samples: list[Sample] = field(default_factory=list)
    acks: list[Ack] = field(default_factory=list)
    #: (session, number) -> the two racers' answers: (status, error code or None)
    races: dict[tuple[int, int], list[tuple[int, str | None]]] = field(default_factory=dict)
    #: a write sent again with its key, answered otherwise than the first time
    mismatches: list[str] = field(default_factory=list)
    #: answers the clients did not expect (method, path, status, the start of the body)
    unexpected: list[str] = field(default_factory=list)
    #: requests sent again with the same key, and sent twice at once
    retries: int = 0
    doubles: int = 0
    started: float = 0.0
    finished: float = 0.0
    #: per live reader, what it heard: (epoch seconds, table session id, version)
    heard: list[list[tuple[float, int, int]]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def count(self, name: str) -> None:
        with self.lock:
            setattr(self, name, getattr(self, name) + 1)


class Http:
    """One client's connection to the server (a ``requests.Session`` is one thread's)."""

    def __init__(
        self, base: str, results: Results, timeout: float, token: str | None = None
    ) -> None:
        self.base, self.results, self.timeout = base, results, timeout
        self.session = requests.Session()
        if token:
            self.session.headers["Authorization"] = f"Token {token}"

    def request(
        self, method: str, path: str, what: str, *, body: Any = None, key: str | None = None,
        expect: tuple[int, ...] = (200,), headers: dict[str, str] | None = None,
        kind: str | None = None,
    ) -> Answer:  # fmt: skip
        kind = kind or (READ if method == "GET" else WRITE)
        sent = {"X-Load": f"{kind}:{what.replace(' ', '-')}", **(headers or {})}
        if key:
            sent["Idempotency-Key"] = key
        started = time.perf_counter()
        try:
            r = self.session.request(
                method, self.base + path, json=body, headers=sent, timeout=self.timeout
            )
            status = r.status_code
            answered = {k.lower(): v for k, v in r.headers.items()}
            data: Any = r.json() if "json" in answered.get("content-type", "") else r.text
        except (requests.RequestException, ValueError) as e:
            status, answered, data = 0, {}, f"{type(e).__name__}: {e}"
        ms = (time.perf_counter() - started) * 1000
        expected = status in expect
        self.results.samples.append(Sample(kind, what, status, ms, expected))
        if not expected:
            self.results.unexpected.append(f"{method} {path} → {status} {str(data)[:300]}")
        return Answer(status, data, answered)


def error_code(body: Any) -> str:
    """The code of an answer in the one error shape (``{"errors": [{"path", "code",
    "message"}]}``, strings), else says it is not."""
    errors = body.get("errors") if isinstance(body, dict) and set(body) == {"errors"} else None
    if not errors or not isinstance(errors, list):
        return "not the error shape"
    for item in errors:
        if not isinstance(item, dict) or set(item) != {"path", "code", "message"}:
            return "not the error shape"
        if not all(isinstance(v, str) for v in item.values()):
            return "not the error shape"
    return errors[0]["code"]


class Writer:
    """A client that writes: every write with a key of its own, some sent again with it."""

    def __init__(self, config: Config, world: World, base: str, results: Results,
                 token: str, rnd: random.Random) -> None:  # fmt: skip
        self.config, self.world, self.base, self.results = config, world, base, results
        self.token, self.rnd = token, rnd
        self.http = Http(base, results, config.client_timeout, token)

    def pause(self) -> None:
        if self.config.pause:
            time.sleep(self.config.pause)

    def write(
        self, path: str, what: str, body: Any, expect: tuple[int, ...], key: str | None = None
    ) -> Answer:
        key = key or uuid.uuid4().hex
        roll = self.rnd.random()
        if roll < self.config.double_share:
            return self._twice_at_once(path, what, body, key, expect)
        answer = self.http.request("POST", path, what, body=body, key=key, expect=expect)
        if answer.status in expect and roll < self.config.double_share + self.config.retry_share:
            self.results.count("retries")
            again = self.http.request(
                "POST", path, f"{what} again", body=body, key=key, expect=expect
            )
            if again.status != answer.status or again.body != answer.body or not again.replayed:
                self.results.mismatches.append(
                    f"POST {path} sent again with its key: {answer.status} then {again.status}"
                    f" (replayed: {again.replayed}, same body: {again.body == answer.body})"
                )
        return answer

    def _twice_at_once(
        self, path: str, what: str, body: Any, key: str, expect: tuple[int, ...]
    ) -> Answer:
        """The same request twice at the same moment (its own connection each)."""
        self.results.count("doubles")
        twin = Http(self.base, self.results, self.config.client_timeout, self.token)
        answers: list[Answer | None] = [None, None]

        def second() -> None:
            answers[1] = twin.request(
                "POST", path, f"{what} twice", body=body, key=key, expect=expect
            )

        thread = threading.Thread(target=second)
        thread.start()
        answers[0] = self.http.request("POST", path, what, body=body, key=key, expect=expect)
        thread.join()
        first, other = answers
        assert first is not None and other is not None
        ok = first.status in expect
        if ok and (
            other.status != first.status
            or other.body != first.body
            or [first.replayed, other.replayed].count(True) != 1
        ):
            self.results.mismatches.append(
                f"POST {path} twice at once: {first.status} and {other.status} (replayed: "
                f"{first.replayed}, {other.replayed}; same body: {first.body == other.body})"
            )
        return first

    def hand(self, username: str, session: int, record: dict) -> Answer:
        key = uuid.uuid4().hex
        sent_at = time.time()
        answer = self.write(f"/api/v1/sessions/{session}/hands/", "hand", record, (201,), key)
        if answer.status == 201:
            self.results.acks.append(
                Ack(session, answer.body["number"], key, record, answer.body, username, sent_at,
                    time.time())
            )  # fmt: skip
        return answer


class ClubScorer(Writer):
    """A club table's scorer: its hands one after another; after a dozen it closes the table
    and opens the next, four players of the club at it (sometimes bettors behind)."""

    def __init__(self, scorer: Scorer, *args, deadline: float) -> None:
        super().__init__(*args, token=scorer.token, rnd=random.Random(scorer.username))
        self.scorer, self.deadline = scorer, deadline

    def run(self, session: int | None = None, bettors: bool = False) -> None:
        if session is None:
            session, bettors = self.open_table()
        target, played = self.rnd.randint(*self.config.table_hands), 0
        while session is not None and time.monotonic() < self.deadline:
            if played >= target:
                self.write(f"/api/v1/sessions/{session}/close/", "close", None, (200,))
                session, bettors = self.open_table()
                target, played = self.rnd.randint(*self.config.table_hands), 0
                continue
            pool = self.world.bettor_records if bettors else self.world.records
            if self.hand(self.scorer.username, session, self.rnd.choice(pool)).status == 201:
                played += 1
            self.pause()

    def open_table(self) -> tuple[int | None, bool]:
        with_bettors = self.rnd.random() < self.config.bettor_tables
        body: dict[str, Any] = {"players": self.rnd.sample(self.world.players, 4)}
        if with_bettors:
            body["bettors"] = [{"guest_name": name} for name in BETTORS]
        answer = self.write(f"/api/v1/clubs/{self.world.club}/sessions/", "open", body, (201,))
        return (answer.body["id"] if answer.status == 201 else None), with_bettors


class RacingPair:
    """Two scorers at one table: both post hand ``n`` at the same moment (a barrier holds
    the faster), each its own hand and key; then both go on to ``n + 1``."""

    def __init__(self, a: Scorer, b: Scorer, config: Config, world: World, base: str,
                 results: Results, deadline: float) -> None:  # fmt: skip
        self.scorers = (a, b)
        self.session = a.session
        self.config, self.world, self.base, self.results = config, world, base, results
        self.deadline = deadline
        self.number = 0
        self.going = True
        self.barrier = threading.Barrier(2, action=self._next, timeout=config.client_timeout * 2)

    def _next(self) -> None:
        self.going = time.monotonic() < self.deadline
        self.number += 1

    def run(self, side: int) -> None:
        scorer = self.scorers[side]
        writer = Writer(self.config, self.world, self.base, self.results, scorer.token,
                        random.Random(scorer.username))  # fmt: skip
        while True:
            try:
                self.barrier.wait()
            except threading.BrokenBarrierError:
                return
            if not self.going:
                return
            number = self.number
            record = {**writer.rnd.choice(self.world.records), "number": number}
            key = uuid.uuid4().hex
            sent_at = time.time()
            answer = writer.http.request(
                "POST", f"/api/v1/sessions/{self.session}/hands/", "hand race", body=record,
                key=key, expect=(201, 409),
            )  # fmt: skip
            code = error_code(answer.body) if answer.status == 409 else None
            self.results.races.setdefault((self.session, number), []).append((answer.status, code))
            if answer.status == 201:
                self.results.acks.append(
                    Ack(
                        self.session,
                        number,
                        key,
                        record,
                        answer.body,
                        scorer.username,
                        sent_at,
                        time.time(),
                    )  # fmt: skip
                )
            writer.pause()


class Tournament:
    """What the tournament's scorers share: which tables of a round are done, and a signal
    when the next round is started."""

    def __init__(self, config: Config) -> None:
        self.tables = config.tournament_tables
        self.lock = threading.Lock()
        self.done: dict[int, int] = {}
        self.started = {1: threading.Event()}
        self.started[1].set()

    def table_done(self, round_: int) -> bool:
        """Count this table of the round done; True for the last one."""
        with self.lock:
            self.done[round_] = self.done.get(round_, 0) + 1
            self.started.setdefault(round_ + 1, threading.Event())
            return self.done[round_] == self.tables

    def event(self, round_: int) -> threading.Event:
        with self.lock:
            return self.started.setdefault(round_, threading.Event())


class TournamentScorer(ClubScorer):
    """Table ``scorer.table`` of every round: its hands, or (one table in ``totals_every``)
    its four totals. The last table of a round to finish starts the next round."""

    def __init__(self, scorer: Scorer, tournament: Tournament, *args, deadline: float) -> None:
        super().__init__(scorer, *args, deadline=deadline)
        self.tournament = tournament

    def run(self) -> None:
        slug = self.world.tournament
        for number in range(1, self.config.rounds + 1):
            table = self.seated(number)
            if table is None:
                return
            if (table["number"] + number) % self.config.totals_every == 0:
                scores = [self.rnd.randint(-40, 40) for _ in range(3)]
                scores.append(-sum(scores))
                body = {
                    "scores": [
                        {"player": seat["player"], "score": score}
                        for seat, score in zip(table["seats"], scores, strict=True)
                    ]
                }
                path = f"/api/v1/tournaments/{slug}/rounds/{number}/tables/{table['number']}/"
                self.write(f"{path}result/", "totals", body, (200,))
            else:
                for _ in range(self.config.hands_per_table):
                    if time.monotonic() >= self.deadline:
                        return
                    self.hand(self.scorer.username, table["session"],
                              self.rnd.choice(self.world.records))  # fmt: skip
                    self.pause()
            if self.tournament.table_done(number) and number < self.config.rounds:
                organiser = Writer(self.config, self.world, self.base, self.results,
                                   self.world.organiser, self.rnd)  # fmt: skip
                started = organiser.write(f"/api/v1/tournaments/{slug}/rounds/", "round", None,
                                          (202,))  # fmt: skip
                if started.status == 202:
                    self.tournament.event(number + 1).set()
        super().run()  # the tournament is over: club tables

    def seated(self, number: int) -> dict | None:
        """This scorer's table of round ``number`` once the round is seated (None: time is up
        first)."""
        started = self.tournament.event(number)
        while not started.wait(0.2):
            if time.monotonic() >= self.deadline:
                return None
        path = f"/api/v1/tournaments/{self.world.tournament}/rounds/{number}/"
        while time.monotonic() < self.deadline:
            answer = self.http.request("GET", path, "round")
            if answer.status == 200 and answer.body["status"] == "seated":
                return next(t for t in answer.body["tables"] if t["number"] == self.scorer.table)
            time.sleep(0.25)
        return None


class Reader:
    """A player reading: the ranking, a profile and its statistics, the standings, a table;
    the API with his token, the pages as anyone (in Chinese or English)."""

    def __init__(self, n: int, token: str, config: Config, world: World, base: str,
                 results: Results, deadline: float) -> None:  # fmt: skip
        self.world, self.config, self.deadline = world, config, deadline
        self.rnd = random.Random(f"reader{n}")
        self.api = Http(base, results, config.client_timeout, token)
        self.pages = Http(base, results, config.client_timeout)
        self.language = self.rnd.choice(("zh-hans", "en"))

    def run(self) -> None:
        club, cup = self.world.club, self.world.tournament
        while time.monotonic() < self.deadline:
            player = self.rnd.choice(self.world.players)
            table = self.rnd.choice(self.world.sessions)
            what, http, path = self.rnd.choice((
                ("ranking", self.api, f"/api/v1/clubs/{club}/ranking/"),
                ("ranking page", self.pages, f"/clubs/{club}/ranking/"),
                ("player", self.api, f"/api/v1/players/{player}/"),
                ("player stats", self.api, f"/api/v1/players/{player}/stats/"),
                ("player page", self.pages, f"/players/{player}/"),
                ("standings", self.api, f"/api/v1/tournaments/{cup}/standings/"),
                ("standings page", self.pages, f"/tournaments/{cup}/standings/"),
                ("table page", self.pages, f"/sessions/{table}/"),
            ))  # fmt: skip
            http.request("GET", path, what, headers={"Accept-Language": self.language})
            if self.config.pause:
                time.sleep(self.config.pause)


@dataclass(frozen=True)
class HealthRate:
    """The health check's rate: ``answered`` answers (200) in ``seconds`` to ``clients``
    clients, each waiting for its answer before it asks again; ``ms``: each answer's wait."""

    clients: int
    seconds: float
    answered: int
    failed: int
    ms: list[float]

    @property
    def rate(self) -> float:
        return self.answered / self.seconds if self.seconds else 0.0


def run_health(config: Config, base: str) -> HealthRate:
    """``GET /healthz?check=database`` (Django and ``SELECT 1``: plain ``/healthz`` also asks
    the broker and the workers) by as many clients as the load has (a thread each, as theirs)
    for ``config.health_seconds``: the ceiling the write rate is compared with. Tagged
    ``health:healthz`` in the access log: not part of the load's figures."""
    results = Results()
    deadline = time.monotonic() + config.health_seconds

    def client() -> None:
        http = Http(base, results, config.client_timeout)
        while time.monotonic() < deadline:
            http.request("GET", "/healthz?check=database", "healthz", kind=HEALTH)

    threads = [threading.Thread(target=client, daemon=True)
               for _ in range(config.scorers + config.readers)]  # fmt: skip
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(config.health_seconds + 2 * config.client_timeout)
    seconds = time.monotonic() - started
    answered = [s.ms for s in results.samples if s.expected]
    return HealthRate(len(threads), seconds, len(answered),
                      len(results.samples) - len(answered), answered)  # fmt: skip


def settle(count_file: str, quiet: float = 2.0, most: float = 60.0) -> None:
    """Wait until the live pages have heard nothing new for ``quiet`` seconds (at most
    ``most``): what a page has not heard by then, it never will."""
    last, since, deadline = -1, time.monotonic(), time.monotonic() + most
    while time.monotonic() < deadline:
        try:
            with open(count_file) as f:
                now = int(f.read() or 0)
        except (OSError, ValueError):
            now = last
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return
        time.sleep(0.25)


def run_clients(config: Config, world: World, base: str, live: str | None = None) -> Results:
    """Every client in a thread of its own for ``config.seconds``; what they saw."""
    results = Results()
    deadline = time.monotonic() + config.seconds
    args = (config, world, base, results)
    tournament = Tournament(config)
    jobs: list[tuple[Any, tuple]] = []
    pairs: dict[int, list[Scorer]] = {}
    for scorer in world.scorers:
        if scorer.kind == "solo":
            client = ClubScorer(scorer, *args, deadline=deadline)
            jobs.append((client.run, (scorer.session, scorer.bettors)))
        elif scorer.kind == "pair":
            pairs.setdefault(scorer.pair, []).append(scorer)
        else:
            client = TournamentScorer(scorer, tournament, *args, deadline=deadline)
            jobs.append((client.run, ()))
    for a, b in pairs.values():
        pair = RacingPair(a, b, *args, deadline=deadline)
        jobs += [(pair.run, (0,)), (pair.run, (1,))]
    for n, token in enumerate(world.readers):
        jobs.append((Reader(n, token, *args, deadline=deadline).run, ()))

    pages = None
    if live and config.live_readers:
        descriptor, out = tempfile.mkstemp(suffix=".json")
        os.close(descriptor)
        pages = subprocess.Popen(
            [sys.executable, "-m", "tests.load.live_pages", live, str(config.live_readers), out,
             *world.channels], cwd=os.getcwd(),
        )  # fmt: skip
        time.sleep(2.0)  # the pages open before the evening starts

    threads = [threading.Thread(target=target, args=a, daemon=True) for target, a in jobs]
    results.started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(1.0, deadline - time.monotonic()) + 2 * config.client_timeout)
    results.finished = time.monotonic()
    if pages is not None:
        settle(f"{out}.count")  # the last hands' events on their way
        pages.send_signal(signal.SIGTERM)
        pages.wait(30)
        with open(out) as f:
            heard = json.load(f)
        os.unlink(out)
        os.unlink(f"{out}.count")
        results.heard = [[tuple(e) for e in page] for page in heard["heard"]]
        results.unexpected += [f"a live page did not open: {f}" for f in heard["failures"][:5]]
    alive = sum(thread.is_alive() for thread in threads)
    if alive:
        results.unexpected.append(f"{alive} client(s) still waiting for an answer at the end")
    return results
