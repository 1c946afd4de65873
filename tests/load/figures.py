"""The load run's figures: requests per second, client and server times, errors, the machine.

Client time is what a client waited for its answer (queueing for a free gunicorn worker
included); server time is gunicorn's own measure of each request (``%(D)s`` in its access
log, microseconds from the request read to the answer sent), matched to the load's requests by
the ``X-Load`` tag each one carries. Writes are the POSTs, reads the GETs.
"""

from __future__ import annotations

import math
import os
import platform
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from tests.load.clients import READ, WRITE, HealthRate, Results
from tests.load.config import Config

#: gunicorn's access log line: method, path, status, microseconds, the X-Load tag
ACCESS_FORMAT = "%(m)s %(U)s %(s)s %(D)s %({x-load}i)s"


@dataclass(frozen=True)
class Line:
    """One line of the access log."""

    method: str
    path: str
    status: int
    ms: float
    tag: str  # "write:hand", "read:ranking-page"…; "-" for a request not of the load

    @property
    def kind(self) -> str:
        return self.tag.split(":", 1)[0]

    @property
    def what(self) -> str:
        return self.tag.split(":", 1)[-1].replace("-", " ")


def access_lines(log: Path) -> list[Line]:
    lines = []
    for text in log.read_text().splitlines():
        parts = text.split()
        if len(parts) != 5 or not parts[2].isdigit() or not parts[3].isdigit():
            continue
        lines.append(Line(parts[0], parts[1], int(parts[2]), int(parts[3]) / 1000, parts[4]))
    return lines


def percentile(values: list[float], p: float) -> float:
    """Nearest rank: the smallest value with at least ``p`` % of them at or below it."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def cpu_seconds(groups: dict[str, int]) -> dict[str, float]:
    """CPU seconds used so far (Linux ``/proc``; empty elsewhere): by each process group
    started here (label -> group id), by this process (the clients), by PostgreSQL (its
    processes and those it has reaped: a connection's process lives one request), and by the
    whole machine (``busy``: all but idle and I/O wait). Two of them apart are what a
    stretch of time used."""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return {}
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[:8])
    out = dict.fromkeys([*groups, "clients", "PostgreSQL"], 0.0)
    out["busy"] = (user + nice + system + irq + softirq + steal) / tick
    label = {pgid: name for name, pgid in groups.items()}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # gone meanwhile
        comm = text[text.index("(") + 1 : text.rindex(")")]
        rest = text[text.rindex(")") + 2 :].split()
        pid, pgrp = int(stat.parent.name), int(rest[2])
        own, reaped = (int(rest[11]) + int(rest[12])) / tick, (int(rest[13]) + int(rest[14])) / tick
        if pgrp in label:
            out[label[pgrp]] += own + reaped
        elif pid == os.getpid():
            out["clients"] += own
        elif comm == "postgres":
            out["PostgreSQL"] += own + reaped
    return out


def cpu_line(before: dict[str, float], after: dict[str, float], seconds: float) -> str:
    """What each part took of the machine's CPU over ``seconds``; ``others``: the machine's
    other work (another program's tests, say), which the figures then share the cores with."""
    if not before or not after:
        return "CPU: not measured (no /proc)"
    used = {k: after[k] - before[k] for k in after}
    busy = used.pop("busy")
    used["others"] = max(0.0, busy - sum(used.values()))
    cores = os.cpu_count() or 1
    parts = ", ".join(f"{k} {v / seconds:.2f}" for k, v in used.items())
    return f"CPU in cores, of {cores}: {parts}; idle {max(0.0, cores - busy / seconds):.2f}"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine(config: Config, postgres_version: str) -> dict[str, str]:
    return {
        "cores": str(os.cpu_count()),
        "CPU": cpu_model(),
        "OS": f"{platform.system()} {platform.release()}",
        "Python": sys.version.split()[0],
        "PostgreSQL": postgres_version,
        "Django": version("django"),
        "gunicorn": f"{version('gunicorn')}, {config.gunicorn_workers} sync workers",
        "Celery": f"{version('celery')}, 1 worker ({config.worker_concurrency} process), beat",
    }


def health_line(health: HealthRate | None, results: Results) -> str:
    """The write rate as a ratio to the health check's, both measured in this run by as many
    clients (issue 25: every figure beside ``GET /healthz?check=database`` of the same run)."""
    if health is None or not health.answered:
        return "writes ÷ healthz: not measured (no health check answered before the load)"
    seconds = results.finished - results.started
    writes = sum(s.kind == WRITE for s in results.samples) / seconds if seconds else 0.0
    # the hands alone (first sendings and racers: what the bench's "POST a hand" measures)
    hands = sum(s.kind == WRITE and s.what in ("hand", "hand race") for s in results.samples)
    hands = hands / seconds if seconds else 0.0
    return (
        f"writes ÷ healthz: {writes:.1f}/s ÷ {health.rate:.1f}/s = {writes / health.rate:.2f}× "
        f"(hands alone {hands:.1f}/s = {hands / health.rate:.2f}×; GET /healthz?check=database "
        f"by the same {health.clients} clients for "
        f"{health.seconds:.0f} s before the load: client p50 {percentile(health.ms, 50):.0f} ms, "
        f"p99 {percentile(health.ms, 99):.0f} ms"
        + (f", {health.failed} not answered 200" if health.failed else "")
        + ")"
    )


def report(config: Config, results: Results, lines: list[Line], postgres_version: str,
           cpu: str, health: HealthRate | None = None) -> str:  # fmt: skip
    """The figures, as printed at the end of the run (and copied into the README)."""
    seconds = results.finished - results.started
    samples = results.samples
    load = [line for line in lines if line.kind in (WRITE, READ)]
    out = [
        f"load: {config.scorers} scorers, {config.readers} readers, {config.seconds:g} s "
        f"(pause {config.pause:g} s); {len(samples)} requests in {seconds:.1f} s = "
        f"{len(samples) / seconds:.1f} requests/s"
        + (f" ({len(load)} in the server's log)" if len(load) != len(samples) else ""),
        "",
        f"  {'':<22}{'requests':>9}{'per s':>8}   client p50    p99   server p50    p99",
    ]
    client: dict[str, list[float]] = defaultdict(list)
    server: dict[str, list[float]] = defaultdict(list)
    for s in samples:
        client[s.kind].append(s.ms)
        client[f"{s.kind}:{s.what}"].append(s.ms)
    for line in load:
        server[line.kind].append(line.ms)
        server[f"{line.kind}:{line.what}"].append(line.ms)

    def row(label: str, key: str) -> str:
        c, v = client.get(key, []), server.get(key, [])
        return (
            f"  {label:<22}{len(c):>9}{len(c) / seconds:>8.1f}   {percentile(c, 50):>7.0f} ms"
            f"{percentile(c, 99):>5.0f}   {percentile(v, 50):>7.1f} ms{percentile(v, 99):>6.1f}"
        )

    for kind in (WRITE, READ):
        out.append(row(f"{kind}s", kind))
        whats = sorted({s.what for s in samples if s.kind == kind})
        out += [row(f"  {what}", f"{kind}:{what}") for what in whats]
    out += ["", health_line(health, results)]
    errors = Counter(s.status for s in samples if not s.expected)
    races = Counter(s.status for s in samples if s.what == "hand race")
    out += [
        "",
        "errors by status: "
        + (", ".join(f"{status or 'no answer'}: {n}" for status, n in sorted(errors.items()))
           or "none"),
        f"expected refusals: {races.get(409, 0)} × 409 hand_exists (the losers of "
        f"{len(results.races)} races); retried with the same key: {results.retries}, "
        f"sent twice at once: {results.doubles}",
        "server log: "
        + (", ".join(f"{status}: {n}" for status, n in sorted(Counter(
            line.status for line in lines).items()))),
        cpu,
        "",
        "machine: " + "; ".join(f"{k} {v}" for k, v in machine(config, postgres_version).items()),
    ]  # fmt: skip
    return "\n".join(out)


class FollowUpLag:
    """How long the workers' follow-ups lag behind the writes: from a message's creation (the
    write's transaction) to its deletion (``core.outbox.task_done``: its task finished), read
    from the outbox every ``every`` seconds by a thread of the run. A message created and done
    between two looks was never seen: it counts as one look's lag, an upper bound."""

    def __init__(self, every: float = 0.25) -> None:
        import threading

        self.every = every
        self.seen: dict[int, tuple[str, float]] = {}  # id -> (task, created, epoch seconds)
        self.lags: dict[str, list[float]] = defaultdict(list)
        self.first_id: int | None = None
        self.top_id = 0
        # session -> (the first data version seen ahead of its derived data, written when)
        self.behind: dict[int, tuple[int, float]] = {}
        self.derived: list[float] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="follow-up-lag", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(10)

    def _run(self) -> None:
        from django.db import connections

        from core.models import OutboxMessage

        try:
            while not self.stopping.wait(self.every):
                now = time.time()
                rows = list(OutboxMessage.objects.values_list("pk", "task", "created_at"))
                present = {pk for pk, _, _ in rows}
                for pk, task, created in rows:
                    self.seen.setdefault(pk, (task, created.timestamp()))
                    if self.first_id is None:
                        self.first_id = pk
                    self.top_id = max(self.top_id, pk)
                for pk in [pk for pk in self.seen if pk not in present]:
                    task, created = self.seen.pop(pk)
                    self.lags[task].append(max(0.0, now - created))
                self._look_at_versions(now)
        finally:
            connections.close_all()

    def _look_at_versions(self, now: float) -> None:
        """End to end, through every task between: a session's write (its ``changed_at``) →
        its lines, ratings and awards computed from it (``derived_version`` caught up)."""
        from django.db.models import F

        from clubs.models import TableSession

        lagging = TableSession.objects.filter(data_version__gt=F("derived_version"))
        rows = {
            pk: (data, derived, changed.timestamp())
            for pk, data, derived, changed in lagging.values_list(
                "pk", "data_version", "derived_version", "changed_at"
            )
        }
        for pk, (first, written) in list(self.behind.items()):
            if pk not in rows or rows[pk][1] >= first:
                self.derived.append(max(0.0, now - written))
                del self.behind[pk]
        for pk, (data, _, changed) in rows.items():
            self.behind.setdefault(pk, (data, changed))

    def line(self) -> str:
        every = [lag for lags in self.lags.values() for lag in lags]
        if not every:
            return "follow-up lag: no follow-up was seen done"
        # ids between the first and the last seen that were never seen: done within one look
        unseen = max(0, self.top_id - (self.first_id or 0) + 1 - len(every) - len(self.seen))
        every += [self.every] * unseen
        parts = [
            f"follow-up lag (a write's commit → its follow-up done, looked at every "
            f"{self.every:g} s): p50 {percentile(every, 50):.1f} s, p99 "
            f"{percentile(every, 99):.1f} s, max {max(every):.1f} s over {len(every)}"
        ]
        for task, lags in sorted(self.lags.items()):
            parts.append(
                f"  {task}: {len(lags)}, p50 {percentile(lags, 50):.1f} s, "
                f"p99 {percentile(lags, 99):.1f} s"
            )
        if self.seen:
            parts.append(f"  still waiting at the end: {len(self.seen)}")
        if self.derived:
            parts.append(
                f"derived data lag (a table's write → its lines, ratings and awards computed "
                f"from it, through every task between; {len(self.derived)} seen): p50 "
                f"{percentile(self.derived, 50):.1f} s, p99 {percentile(self.derived, 99):.1f} s, "
                f"max {max(self.derived):.1f} s"
            )
        return "\n".join(parts)


def live_delays(results: Results) -> tuple[int, list[tuple[float, float]], list[str]]:
    """What the live pages heard: events delivered in all, and for each acknowledged hand and
    each live page, the seconds from the hand's sending until the page was told of it (the
    first event for its table of a version at least the hand's number: each write to a table
    counts one version, so that event left after the hand committed); a hand a page never heard
    of is missed."""
    import bisect

    delivered = sum(len(heard) for heard in results.heard)
    delays: list[tuple[float, float]] = []  # (from the sending, from the scorer's answer)
    missed: list[str] = []
    for n, heard in enumerate(results.heard):
        by_table: dict[int, list[tuple[int, float]]] = defaultdict(list)
        for at, table, data_version in heard:
            by_table[table].append((data_version, at))
        # the first arrival of each version or a later one
        first: dict[int, tuple[list[int], list[float]]] = {}
        for table, events in by_table.items():
            events.sort()
            versions = [v for v, _ in events]
            earliest, times = math.inf, [0.0] * len(events)
            for i in range(len(events) - 1, -1, -1):
                earliest = min(earliest, events[i][1])
                times[i] = earliest
            first[table] = (versions, times)
        for ack in results.acks:
            versions, times = first.get(ack.session, ([], []))
            i = bisect.bisect_left(versions, ack.number)
            if i == len(versions):
                missed.append(f"page {n}: table {ack.session} hand {ack.number}")
            else:
                delays.append((times[i] - ack.sent_at, times[i] - ack.answered_at))
    return delivered, delays, missed


def live_line(results: Results) -> str:
    if not results.heard:
        return "live pages: none held open"
    delivered, delays, missed = live_delays(results)
    sent = [d * 1000 for d, _ in delays]
    answered = [d * 1000 for _, d in delays]
    return (
        f"live pages: {len(results.heard)} held open on uvicorn; {delivered} events delivered; "
        f"missed {len(missed)}\n"
        f"  a hand sent → each page told: p50 {percentile(sent, 50):.0f} ms, p99 "
        f"{percentile(sent, 99):.0f} ms, max {max(sent, default=math.nan):.0f} ms\n"
        f"  its scorer's answer → each page told: p50 {percentile(answered, 50):.0f} ms, p99 "
        f"{percentile(answered, 99):.0f} ms (below 0: told before the scorer had his answer)"
    )
