"""A worker is killed (SIGKILL) in the middle of a task: the task runs again, and its result is
written once and right.

``celery -A config worker`` runs in a process of its own (prefork, one child) on the test
database. The task is the real standings recompute of a tournament with results; it is caught
in the middle, inside its transaction (the tournament's row locked, its snapshot not yet
written), by a lock the test holds on the snapshots' table, and seen waiting there in
``pg_stat_activity``. Then:

* its pool process is killed (what the kernel's out-of-memory killer does): the worker sees it
  lost, and the task, acknowledged only when done (``acks_late``) and given back when its
  process is lost (``reject_on_worker_lost``), goes to a new pool process;
* or the whole worker is killed: the task was never acknowledged, so another worker, started
  at once as docker restarts one, takes it back at its first look for tasks unacknowledged
  longer than ``CELERY_VISIBILITY_TIMEOUT`` (every 10 s: ``unacked_restore_throttle`` in the
  settings; kombu's default looks every 100 s).

Either way the killed attempt's transaction never commits, the new attempt writes one
snapshot, equal to the standings computed afresh, and its job reports success.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from clubs.models import TableSession
from config.celery import app
from core import outbox
from core.models import TaskRecord
from tests.clubs.factories import ClubFactory
from tests.helpers import login
from tests.recompute import snapshot_standings, standings_from_scratch
from tournaments import services
from tournaments.models import StandingsSnapshot, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

SNAPSHOTS = StandingsSnapshot._meta.db_table
#: seconds a task may stay unacknowledged before another worker takes it again (the workers of
#: the second test; the default is 120)
VISIBILITY = 2


def wait_for(condition, timeout: float = 30, what: str = ""):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout} s for {what or condition}")
        time.sleep(0.05)


def waiting_on_a_lock(sql_start: str) -> set[int]:
    """The server processes of the test database waiting on a lock, in a statement that starts
    so: the task's attempts, caught in the middle."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND query LIKE %s",
            [sql_start + "%"],
        )
        return {pid for (pid,) in cursor.fetchall()}


def alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


def children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.fixture
def tournament(in_process_tasks):
    """A tournament of eight whose first round's two tables have their results, its
    standings computed (in process)."""
    host = ClubFactory()
    director = login()
    t = services.tournament_create(
        name="Killed", slug="killed", user=director, club=host, rounds=2, hands_per_table=1,
        mode=TableSession.Mode.SINGLE,
    )  # fmt: skip
    for i in range(8):
        services.registration_create(tournament=t, name=f"K{i}")
    round_ = services.round_start(tournament=t)
    results = ((6, 2, -2, -6), (3, 1, -1, -3))
    for table, totals in zip(round_.tables.order_by("number"), results, strict=True):
        seats = table.session.seats.order_by("number").values_list("player_id", flat=True)
        services.table_result_enter(
            table=table, user=director,
            scores=[{"player": p, "score": s} for p, s in zip(seats, totals, strict=True)],
        )  # fmt: skip
    app.conf.task_always_eager = False  # from here on, tasks go to the worker
    assert StandingsSnapshot.objects.filter(tournament=t).exists()
    return t


@pytest.fixture
def snapshots_locked(postgresql):
    """The test holds a lock on the snapshots' table (no row can be written there) until
    ``release()``."""
    db = postgresql
    holder = psycopg.connect(
        host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"],
        password=db["PASSWORD"] or None, dbname=db["NAME"],
    )  # fmt: skip
    holder.execute(f'LOCK TABLE "{SNAPSHOTS}" IN SHARE MODE')

    def release() -> None:
        if not holder.closed:
            holder.rollback()
            holder.close()

    yield release
    release()


def ask_for_standings(tournament: Tournament, queue: str) -> TaskRecord:
    """The organiser asks for the standings; the sweep sends the task to ``queue``."""
    record = services.standings_request(tournament_id=tournament.pk, force=True)
    saved = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        # the request waits a second for other results (COALESCE_SECONDS)
        wait_for(lambda: outbox.deliver() > 0, 10, "the outbox to send the request")
    finally:
        app.conf.task_default_queue = saved
    return record


def caught_in_the_middle(record: TaskRecord) -> int:
    """Wait until the task is under way and stopped at the snapshot's insert, inside its
    transaction; answers its server process."""
    pids = wait_for(
        lambda: waiting_on_a_lock(f'INSERT INTO "{SNAPSHOTS}"'), 30, "the task to reach its insert"
    )
    record.refresh_from_db()
    assert record.state == TaskRecord.State.STARTED
    assert len(pids) == 1
    return pids.pop()


def assert_written_once_and_right(tournament: Tournament, record: TaskRecord, before: int):
    record.refresh_from_db()
    assert record.state == TaskRecord.State.SUCCESS, record.error
    snapshots = list(StandingsSnapshot.objects.filter(tournament=tournament).order_by("version"))
    assert len(snapshots) == before + 1  # the killed attempt wrote nothing
    assert record.result["version"] == snapshots[-1].version
    assert snapshot_standings(snapshots[-1]) == standings_from_scratch(tournament)
    assert snapshots[-1].tables_counted == 2


def test_a_pool_process_killed_mid_task_gives_it_back(
    non_eager_app, run_worker, tournament, snapshots_locked
):
    before = StandingsSnapshot.objects.filter(tournament=tournament).count()
    worker = run_worker()
    record = ask_for_standings(tournament, run_worker.queue)
    first = caught_in_the_middle(record)
    pool = wait_for(lambda: children(worker.pid), 10, "the worker's pool process")
    assert len(pool) == 1

    os.kill(pool[0], signal.SIGKILL)
    # the worker notices, gives the task back, and a new pool process takes it: it waits
    # behind the killed attempt's transaction (which still holds the tournament's row)
    wait_for(lambda: not alive(pool[0]), 10, "the pool process to die")
    again = wait_for(
        lambda: waiting_on_a_lock('UPDATE "tournaments_tournament"'), 30, "the task again"
    )
    assert first not in again
    assert worker.poll() is None  # the worker itself lives on
    snapshots_locked()
    wait_for(lambda: TaskRecord.objects.get(pk=record.pk).state == "SUCCESS", 30, "success")
    assert_written_once_and_right(tournament, record, before)
    log = worker.log.read_text()
    assert "signal 9 (SIGKILL)" in log and "WorkerLostError" in log


def test_a_worker_killed_mid_task_leaves_it_to_the_next(
    non_eager_app, run_worker, tournament, snapshots_locked
):
    before = StandingsSnapshot.objects.filter(tournament=tournament).count()
    visibility = {"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY)}
    killed = run_worker(**visibility)
    record = ask_for_standings(tournament, run_worker.queue)
    caught_in_the_middle(record)
    taken = time.monotonic()

    os.killpg(killed.pid, signal.SIGKILL)  # the worker and its pool process, at once
    killed.wait(10)
    # another worker comes up at once (as docker restarts one): the task is too young to be
    # taken back when it starts; it is at its first look for unacknowledged tasks (10 s)
    successor = run_worker(**visibility)
    snapshots_locked()  # the killed attempt's transaction ends; it committed nothing
    record.refresh_from_db()
    assert record.state == TaskRecord.State.STARTED  # nobody reported it, nobody acknowledged
    wait_for(lambda: TaskRecord.objects.get(pk=record.pk).state == "SUCCESS", 30, "success")
    assert time.monotonic() - taken > VISIBILITY
    assert_written_once_and_right(tournament, record, before)
    assert f"compute_standings[{record.pk}] succeeded" in successor.log.read_text()
