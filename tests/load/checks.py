"""After the load, with the worker drained and the servers stopped: is everything right?

Each check prints PASS or FAIL with what it looked at (and the first problems it found); the
run exits non-zero when one fails.

* every hand a scorer was answered 2xx for is stored, once, as it was answered; nothing else
  was stored by a scorer;
* a write sent again with its ``Idempotency-Key`` (after its answer, or twice at once) got the
  same answer, and its key one stored answer;
* two scorers racing for one hand number: one stored, the other answered 409 ``hand_exists``
  in the one error shape;
* every hand's payments are those of its record settled again now, and there are some;
* every table is zero-sum, and its totals are the sum of those payments (and of its entered
  totals);
* every tournament's latest standings snapshot is what the results give from scratch;
* the ratings, statistics lines and award holders are what ``ratings_recompute`` writes;
* no answer of 5xx (nor a traceback) in the server's log; no task failed in the worker;
* every answer was one its client expected (the errors of the figures).
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from django.db.models import F

from clubs.models import (
    Bettor,
    Club,
    Hand,
    HandRevision,
    Payment,
    Seat,
    SessionResult,
    TableSession,
)
from clubs.selectors import sessions_totals
from core.models import IdempotentRequest, TaskRecord
from ratings.services import club_recompute
from scoring.services import hand_settle
from tests.load.clients import Results
from tests.load.figures import Line
from tests.load.world import World
from tests.recompute import (
    awards_state,
    ratings_state,
    snapshot_standings,
    standings_from_scratch,
)
from tournaments.models import Tournament
from tournaments.selectors import tables_data_version

#: what a server log holds when a request failed inside it, or a worker was killed
SERVER_TROUBLE = re.compile(r"Traceback|Internal Server Error|WORKER TIMEOUT|\[ERROR\]")
WORKER_TROUBLE = re.compile(r"Traceback|ERROR/|CRITICAL/")
#: problems shown for a failed check
SHOWN = 8


@dataclass
class Check:
    name: str
    detail: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'}  {self.name}" + (
            f" — {self.detail}" if self.detail else ""
        )
        shown = [f"        {p}" for p in self.problems[:SHOWN]]
        if len(self.problems) > SHOWN:
            shown.append(f"        … and {len(self.problems) - SHOWN} more")
        return "\n".join([head, *shown])


def plain(value):
    """As JSON gives it back (tuples are lists)."""
    return json.loads(json.dumps(value))


def acknowledged_hands(world: World, results: Results) -> Check:
    check = Check("every acknowledged hand stored exactly once")
    acked: dict[tuple[int, int], list] = defaultdict(list)
    for ack in results.acks:
        acked[(ack.session, ack.number)].append(ack)
    stored = {
        (h.session_id, h.number): h
        for h in Hand.objects.filter(entered_by_id__in=world.scorer_users).select_related(
            "entered_by"
        )
    }
    revisions = Counter(
        HandRevision.objects.filter(hand__entered_by_id__in=world.scorer_users).values_list(
            "hand_id", flat=True
        )
    )
    keys = set(
        IdempotentRequest.objects.filter(user_id__in=world.scorer_users).values_list(
            "user__username", "key"
        )
    )
    for where, acks in sorted(acked.items()):
        if len(acks) > 1:
            check.problems.append(f"session {where[0]} hand {where[1]}: acknowledged twice")
        hand = stored.get(where)
        ack = acks[0]
        if hand is None:
            check.problems.append(f"session {where[0]} hand {where[1]}: acknowledged, not stored")
            continue
        sent = {k: v for k, v in ack.sent.items() if k != "number"}
        if hand.is_deleted or hand.revision != 1 or revisions[hand.pk] != 1:
            check.problems.append(f"hand {where}: deleted or revised ({hand.revision})")
        if hand.entered_by.username != ack.username:
            check.problems.append(f"hand {where}: entered by {hand.entered_by}, not {ack.username}")
        if any(hand.record.get(k) != plain(v) for k, v in sent.items()):
            check.problems.append(f"hand {where}: stored another record than the one sent")
        if plain(ack.answer["record"]) != hand.record or ack.answer["settlement"] != plain(
            hand.settlement
        ):
            check.problems.append(f"hand {where}: answered otherwise than stored")
        if (ack.username, ack.key) not in keys:
            check.problems.append(f"hand {where}: its key's answer is not stored")
    for where in sorted(set(stored) - set(acked)):
        check.problems.append(f"session {where[0]} hand {where[1]}: stored, never acknowledged")
    check.detail = f"{len(acked)} acknowledged, {len(stored)} stored by the scorers"
    return check


def same_answers(results: Results) -> Check:
    check = Check(
        "a write sent again with its key got the same answer",
        f"{results.retries} sent again after the answer, {results.doubles} twice at once",
    )
    check.problems = list(results.mismatches)
    return check


def races(results: Results) -> Check:
    check = Check("two scorers racing for a hand number: one stored, one clean 409")
    for (session, number), answers in sorted(results.races.items()):
        if sorted(answers) != [(201, None), (409, "hand_exists")]:
            check.problems.append(f"session {session} hand {number}: answered {sorted(answers)}")
    check.detail = f"{len(results.races)} hand numbers raced for"
    return check


def payments_and_totals() -> tuple[Check, Check]:
    """Every hand settled again from its stored record, under its table's pinned rules: its
    payments must be the rows stored; every table's totals the sum of them (and of totals
    entered), zero in all."""
    paid = Check("every hand's payments stored, as its record settles now (none without)")
    zero = Check("every table zero-sum, its totals those of its payments and results")
    seats = defaultdict(dict)
    for s in Seat.objects.values("session_id", "number", "player_id"):
        seats[s["session_id"]][s["number"]] = s["player_id"]
    bettors = defaultdict(dict)
    for b in Bettor.objects.all():
        bettors[b.session_id][b.name] = b.pk
    rows = defaultdict(list)
    for p in Payment.objects.order_by("hand_id", "position").values_list(
        "hand_id", "payer_player_id", "payer_bettor_id", "payee_player_id", "payee_bettor_id",
        "amount", "reason", "event",
    ):  # fmt: skip
        rows[p[0]].append(p[1:])
    expected: dict[int, Counter] = defaultdict(Counter)
    hands = Hand.objects.select_related("session__ruleset").order_by("session_id", "number")
    count = 0
    for hand in hands.iterator(chunk_size=500):
        count += 1
        record = {k: v for k, v in hand.record.items() if k != "ruleset"}
        settlement = hand_settle(snapshot=hand.session.ruleset, record=record)
        named = [bettors[hand.session_id][b.name] for b in settlement.record.bettors]

        def party(label: str, hand=hand, named=named) -> tuple[int | None, int | None]:
            index = int(label[1:])
            if label[0] == "S":
                return seats[hand.session_id][index], None
            return None, named[index]

        want = [
            (*party(p.payer), *party(p.payee), p.amount, p.reason, p.event)
            for p in settlement.payments
        ]
        where = f"session {hand.session_id} hand {hand.number}"
        if not rows[hand.pk]:
            paid.problems.append(f"{where}: no payments")
        if rows[hand.pk] != want:
            paid.problems.append(
                f"{where}: its {len(rows[hand.pk])} payments stored are not the {len(want)} due"
            )
        if plain(settlement.as_dict()) != plain(hand.settlement):
            paid.problems.append(f"{where}: its stored settlement is not its record's")
        if hand.is_deleted:
            continue
        for payer_p, payer_b, payee_p, payee_b, amount, _, _ in want:
            expected[hand.session_id][("p", payer_p) if payer_p else ("b", payer_b)] -= amount
            expected[hand.session_id][("p", payee_p) if payee_p else ("b", payee_b)] += amount
    for r in SessionResult.objects.all():
        expected[r.session_id][("p", r.player_id) if r.player_id else ("b", r.bettor_id)] += r.total
    sessions = sorted(seats)
    totals = sessions_totals(sessions)
    for session in sessions:
        book = totals[session]
        held = Counter({("p", k): v for k, v in book.players.items()})
        held.update({("b", k): v for k, v in book.bettors.items()})
        if sum(held.values()) != 0:
            zero.problems.append(f"session {session}: its totals sum to {sum(held.values())}")
        if +held != +expected[session] or -held != -expected[session]:
            zero.problems.append(f"session {session}: totals {dict(held)} ≠ {expected[session]}")
    paid.detail = f"{count} hands settled again, {sum(map(len, rows.values()))} payments"
    zero.detail = f"{len(sessions)} tables"
    return paid, zero


def standings() -> Check:
    check = Check("every tournament's standings snapshot equals a recompute from scratch")
    described = []
    for tournament in Tournament.objects.order_by("pk"):
        snapshots = list(tournament.standings_snapshots.order_by("version"))
        versions = [s.version for s in snapshots]
        if versions != list(range(1, len(snapshots) + 1)):
            check.problems.append(f"{tournament.slug}: snapshot versions {versions}")
        if not snapshots:
            check.problems.append(f"{tournament.slug}: no snapshot")
            continue
        latest = snapshot_standings(snapshots[-1])
        scratch = standings_from_scratch(tournament)
        if latest != scratch:
            check.problems.append(
                f"{tournament.slug}: snapshot {snapshots[-1].version} counts "
                f"{latest.tables_counted} tables, {latest.rounds_complete} rounds; from scratch "
                f"{scratch.tables_counted}, {scratch.rounds_complete}"
                + ("" if latest.rows == scratch.rows else "; the rows differ")
            )
        rounds = tournament.round_set.count()
        described.append(
            f"{tournament.slug}: {rounds} rounds seated, {scratch.tables_counted} tables "
            f"counted, {len(snapshots)} snapshots, {tournament.status}"
        )
    check.detail = "; ".join(described)
    return check


def ratings() -> Check:
    check = Check("ratings, statistics lines and awards equal ratings_recompute from scratch")

    def state() -> dict[str, list]:
        return {**ratings_state(), "award holders": awards_state()}

    kept = state()
    for club in Club.objects.order_by("pk"):
        club_recompute(club_id=club.pk)
    recomputed = state()
    for name, rows in recomputed.items():
        if rows != kept[name]:
            wrong = len(set(map(repr, kept[name])) - set(map(repr, rows)))
            check.problems.append(
                f"{name}: {wrong} of the {len(kept[name])} rows kept are not as recomputed "
                f"({len(rows)} rows)"
            )
    check.detail = ", ".join(f"{len(rows)} {name}" for name, rows in recomputed.items())
    return check


def versions() -> Check:
    check = Check("every derived store records the data version it was computed from")
    behind = TableSession.objects.filter(data_version__gt=F("derived_version"))
    check.problems = [
        f"session {pk}: data version {data}, derived from {derived}"
        for pk, data, derived in behind.values_list("pk", "data_version", "derived_version")
    ]
    for tournament in Tournament.objects.order_by("pk"):
        snapshot = tournament.standings_snapshots.order_by("-version").first()
        now = tables_data_version(tournament.pk)
        if snapshot is not None and snapshot.sessions_version != now:
            check.problems.append(
                f"{tournament.slug}: snapshot of tables' version {snapshot.sessions_version}, "
                f"now {now}"
            )
    check.detail = (
        f"{TableSession.objects.count()} sessions, {Tournament.objects.count()} tournaments"
    )
    return check


def server_log(lines: list[Line], log: Path) -> Check:
    check = Check("no 5xx in the server's log")
    for line in lines:
        if line.status >= 500:
            check.problems.append(f"{line.status} {line.method} {line.path}")
    for text in log.read_text(errors="replace").splitlines():
        if SERVER_TROUBLE.search(text):
            check.problems.append(text.strip()[:200])
    check.detail = f"{len(lines)} requests logged"
    return check


def worker_log(log: Path) -> Check:
    check = Check("no task failed in the worker")
    failed = TaskRecord.objects.filter(state=TaskRecord.State.FAILURE)
    check.problems = [f"{t.name} failed: {t.error}" for t in failed]
    text = log.read_text(errors="replace")
    check.problems += [t.strip()[:200] for t in text.splitlines() if WORKER_TROUBLE.search(t)]
    done = text.count("succeeded in")
    check.detail = f"{done} tasks done, {TaskRecord.objects.count()} jobs recorded"
    return check


def answers(results: Results) -> Check:
    check = Check("every answer was one its client expected", f"{len(results.samples)} requests")
    check.problems = list(results.unexpected)
    return check


def live_pages(results: Results) -> Check:
    """Every live page held open heard of every acknowledged hand (its table's event)."""
    from tests.load.figures import live_delays

    delivered, _, missed = live_delays(results)
    check = Check("live pages told of every hand",
                  f"{len(results.heard)} pages, {delivered} events")  # fmt: skip
    if results.heard and not delivered:
        check.problems.append("no event reached any page")
    check.problems += missed[:10]
    if len(missed) > 10:
        check.problems.append(f"… {len(missed) - 10} more")
    return check


def run_all(world: World, results: Results, lines: list[Line], logs: dict[str, Path],
            drained: Check) -> list[Check]:  # fmt: skip
    paid, zero = payments_and_totals()
    return [
        drained,
        acknowledged_hands(world, results),
        same_answers(results),
        races(results),
        paid,
        zero,
        standings(),
        ratings(),
        versions(),
        server_log(lines, logs["server"]),
        worker_log(logs["worker"]),
        answers(results),
        live_pages(results),
    ]
