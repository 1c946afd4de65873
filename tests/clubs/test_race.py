"""Concurrent submissions on two real PostgreSQL connections.

Two scorers submitting the same hand number at once: exactly one hand is stored, the other
scorer gets a 409 ``hand_exists``. The same user sending one request twice at once with one
``Idempotency-Key``: one hand is stored and both get its answer.

Each request runs in its own thread, hence on its own database connection, through the API
(``APIClient``), and in its own transaction. The deterministic tests hold the first request's
transaction open right after its hand is written, wait until PostgreSQL reports the second
request's connection blocked on a lock, and only then let the first commit.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, connections

from clubs import fastpath
from clubs.models import Hand, HandRevision, Payment, Role, TableSession
from clubs.selectors import HandView
from clubs.services import hands as services
from clubs.services import sessions as sessions_services
from core.errors import Conflict
from core.models import IdempotentRequest
from tests.clubs.factories import TableSessionFactory
from tests.clubs.records import PINGHU
from tests.helpers import client_for, member_login

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs two real PostgreSQL connections (row locks, concurrent transactions); "
        "run with DATABASE_URL=postgres://...",
    ),
]

TIMEOUT = 20


def in_thread(work: Callable[[], object], results: list, barrier=None) -> threading.Thread:
    """Run ``work`` on its own connection; its result (or exception) goes to ``results``."""

    def run():
        try:
            if barrier is not None:
                barrier.wait(TIMEOUT)
            results.append(work())
        except BaseException as e:  # noqa: BLE001 - reported by the test
            results.append(e)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def join(*threads: threading.Thread) -> None:
    for t in threads:
        t.join(TIMEOUT)
        assert not t.is_alive(), "a request never finished (deadlock?)"


def hand_url(session) -> str:
    return f"/api/v1/sessions/{session.pk}/hands/"


def assert_one_hand_and_one_conflict(responses, session) -> None:
    assert not [r for r in responses if isinstance(r, BaseException)], responses
    codes = sorted(r.status_code for r in responses)
    assert codes == [201, 409], [r.json() for r in responses]
    conflict = next(r for r in responses if r.status_code == 409)
    assert [e["code"] for e in conflict.json()["errors"]] == ["hand_exists"]
    assert Hand.objects.filter(session=session).count() == 1
    assert Payment.objects.filter(hand__session=session).count() == 1
    assert HandRevision.objects.filter(hand__session=session).count() == 1


@pytest.fixture
def session():
    return TableSessionFactory()


@pytest.fixture
def scorers(session):
    return [client_for(member_login(session.club, Role.SCORER)) for _ in range(2)]


@pytest.mark.parametrize("attempt", range(3))
def test_two_scorers_submit_the_same_hand_number_at_once(session, scorers, attempt):
    """Both requests start together (a barrier); whoever wins, the other gets a 409."""
    barrier = threading.Barrier(2)
    body = {**PINGHU, "number": 1}
    responses: list = []
    threads = [
        in_thread(lambda c=c: c.post(hand_url(session), body, format="json"), responses, barrier)
        for c in scorers
    ]
    join(*threads)
    assert_one_hand_and_one_conflict(responses, session)


class HoldFirstCommit:
    """Stands in for the last step a write takes inside its transaction (``follow_session``,
    or for a hand ``session_written``, once its one statement stored it and counted the
    session's write): does it, then the first request to get there waits (its hand written,
    its transaction open) until released."""

    def __init__(self, step: Callable[..., None]) -> None:
        self.step = step
        self.written = threading.Event()
        self.release = threading.Event()
        self.calls = 0

    def __call__(self, *args, **kwargs) -> None:
        self.step(*args, **kwargs)
        self.calls += 1
        if self.calls == 1:
            self.written.set()
            assert self.release.wait(TIMEOUT)


def wait_until_a_connection_waits_on_a_lock() -> None:
    """Until PostgreSQL shows another backend of this database blocked on a lock."""
    deadline = time.monotonic() + TIMEOUT
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)
    raise AssertionError("the second request never waited for the first")


def run_overlapping(first: Callable[[], object], second: Callable[[], object], monkeypatch):
    """``first`` writes its hand and holds its transaction; ``second`` starts and blocks on
    it; then ``first`` commits. Returns both responses in that order."""
    hold = HoldFirstCommit(services.session_written)
    monkeypatch.setattr(services, "session_written", hold)
    one: list = []
    two: list = []
    t1 = in_thread(first, one)
    assert hold.written.wait(TIMEOUT), one
    t2 = in_thread(second, two)
    try:
        wait_until_a_connection_waits_on_a_lock()
    finally:
        hold.release.set()
    join(t1, t2)
    return one + two


def test_the_second_of_two_overlapping_submissions_gets_a_409(session, scorers, monkeypatch):
    body = {**PINGHU, "number": 1}
    a, b = scorers
    responses = run_overlapping(
        lambda: a.post(hand_url(session), body, format="json"),
        lambda: b.post(hand_url(session), body, format="json"),
        monkeypatch,
    )
    assert_one_hand_and_one_conflict(responses, session)
    assert responses[0].status_code == 201


def test_the_database_constraint_refuses_a_duplicate_hand(session, monkeypatch):
    """Even past the session lock, the partial unique constraint on (session, number) is what
    stops a second live hand 1: with the lock taken away, the service still answers 409."""
    manager = type(TableSession.objects)
    monkeypatch.setattr(manager, "select_for_update", lambda self, *a, **k: self.all())
    unlocked = fastpath.LOCK_STATE_SQL.replace("FOR UPDATE OF s", "")
    assert unlocked != fastpath.LOCK_STATE_SQL
    monkeypatch.setattr(fastpath, "LOCK_STATE_SQL", unlocked)
    user = member_login(session.club, Role.SCORER)

    def record():
        return services.hand_record(session=session, data={**PINGHU, "number": 1}, user=user)

    responses = run_overlapping(record, record, monkeypatch)
    assert isinstance(responses[0], HandView)
    assert isinstance(responses[1], Conflict), responses[1]
    assert responses[1].code == "hand_exists"
    assert Hand.objects.filter(session=session).count() == 1


@pytest.mark.parametrize("numbered", [True, False], ids=["number-given", "next-number"])
def test_the_same_idempotency_key_sent_twice_at_once_stores_one_hand(
    session, scorers, monkeypatch, numbered
):
    client = scorers[0]
    body = {**PINGHU, "number": 1} if numbered else PINGHU
    key = "same-key-at-once"

    def send():
        return client.post(hand_url(session), body, format="json", HTTP_IDEMPOTENCY_KEY=key)

    first, second = run_overlapping(send, send, monkeypatch)
    assert (first.status_code, second.status_code) == (201, 201), second.json()
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(session=session).count() == 1
    assert Payment.objects.filter(hand__session=session).count() == 1
    assert IdempotentRequest.objects.count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_the_same_idempotency_key_sent_twice_together_stores_one_hand(session, scorers, attempt):
    """Both start together (a barrier), whichever wins: the answer is stored by the hand's
    statement, the other loses on the session's lock and then on the key (or the hand's
    number), and answers the first's answer."""
    client = scorers[0]
    barrier = threading.Barrier(2)
    responses: list = []

    def send():
        return client.post(hand_url(session), PINGHU, format="json", HTTP_IDEMPOTENCY_KEY="twice")

    threads = [in_thread(send, responses, barrier) for _ in range(2)]
    join(*threads)
    assert not [r for r in responses if isinstance(r, BaseException)], responses
    assert [r.status_code for r in responses] == [201, 201], [r.json() for r in responses]
    assert responses[0].json() == responses[1].json()
    assert sorted(r.get("Idempotent-Replayed", "") for r in responses) == ["", "true"]
    assert Hand.objects.filter(session=session).count() == 1
    assert IdempotentRequest.objects.get().response == responses[0].json()


def test_a_queued_auto_numbered_hand_takes_the_next_number(session, scorers, monkeypatch):
    """The second request waits for the first's lock; once the first commits hand 1, the
    second must see it and take number 2 — not read the numbers as they were before it waited
    and collide on 1 (a false 409 hand_exists)."""
    a, b = scorers
    responses = run_overlapping(
        lambda: a.post(hand_url(session), PINGHU, format="json"),
        lambda: b.post(hand_url(session), PINGHU, format="json"),
        monkeypatch,
    )
    assert [r.status_code for r in responses] == [201, 201], [r.json() for r in responses]
    assert [r.json()["number"] for r in responses] == [1, 2]


def test_eight_scorers_posting_at_once_store_eight_hands(session):
    """Eight parallel auto-numbered posts to one table: eight distinct hands, no refusal."""
    clients = [client_for(member_login(session.club, Role.SCORER)) for _ in range(8)]
    barrier = threading.Barrier(len(clients))
    responses: list = []
    threads = [
        in_thread(lambda c=c: c.post(hand_url(session), PINGHU, format="json"), responses, barrier)
        for c in clients
    ]
    join(*threads)
    assert not [r for r in responses if isinstance(r, BaseException)], responses
    assert sorted(r.status_code for r in responses) == [201] * 8, [r.json() for r in responses]
    assert sorted(r.json()["number"] for r in responses) == list(range(1, 9))
    assert Hand.objects.filter(session=session).count() == 8


def test_a_hand_queued_behind_final_results_is_refused(session, scorers, monkeypatch):
    """Final results are entered and held uncommitted; a hand posted meanwhile waits for the
    lock, then must see the results and be refused (409 session_has_results): a session has
    hands or entered totals, never both."""
    hold = HoldFirstCommit(sessions_services.follow_session)
    monkeypatch.setattr(sessions_services, "follow_session", hold)
    seated = list(session.seats.order_by("number").values_list("player_id", flat=True))
    totals = {"totals": [{"player": p, "total": t} for p, t in zip(seated, (3, -1, -1, -1),
                                                                      strict=True)]}  # fmt: skip
    a, b = scorers
    one: list = []
    two: list = []
    t1 = in_thread(lambda: a.post(f"/api/v1/sessions/{session.pk}/result/", totals,
                                  format="json"), one)  # fmt: skip
    assert hold.written.wait(TIMEOUT), one
    t2 = in_thread(lambda: b.post(hand_url(session), PINGHU, format="json"), two)
    try:
        wait_until_a_connection_waits_on_a_lock()
    finally:
        hold.release.set()
    join(t1, t2)
    assert one[0].status_code == 200, one[0].json()
    assert two[0].status_code == 409, two[0].json()
    assert [e["code"] for e in two[0].json()["errors"]] == ["session_has_results"]
    assert not Hand.objects.filter(session=session).exists()
