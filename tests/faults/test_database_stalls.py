"""The database stops answering in the middle of a burst of hands, then comes back.

gunicorn serves the project in a process of its own, its database behind a proxy
(``tests/faults/proxy.py``) in front of the test's PostgreSQL; four scorers each post a table's
hands over HTTP, one after another, each with its own ``Idempotency-Key``, and post again with
the same key whatever went wrong. Mid-burst the proxy stops answering for a while; later it
loses the answer to one commit (stored, never confirmed).

While it is silent every scorer is answered 503 ``database_unavailable`` in the JSON shape,
none hangs: connecting is bounded by the connect timeout, and the request that was under way
when the silence began by the bound on answers of ``core.db`` (without it, that one waited as
long as the silence lasted). Nothing half-written is left (every hand has its payments, its
revision and its follow-up in the outbox); the hand whose commit answer was lost is answered,
on its retry, what the commit stored; once the database answers again the retries finish the
burst and every hand is stored exactly once, numbered without a gap, each key's answer naming
its own hand.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
from django.db import OperationalError
from django.db.backends.postgresql.base import DatabaseWrapper
from rest_framework.authtoken.models import Token

from clubs.models import Hand, HandRevision, Payment, Role
from core.models import IdempotentRequest, OutboxMessage
from tests.clubs.factories import ClubFactory, TableSessionFactory
from tests.clubs.records import PINGHU
from tests.faults.proxy import Proxy
from tests.helpers import member_login
from tests.processes import database_url

TABLES = 4
HANDS = 12
#: seconds: connecting to a database that does not answer (psycopg's floor is 2)
CONNECT_TIMEOUT = 2
#: seconds: waiting for an answer on a connection that went silent (``core.db``)
ANSWER_TIMEOUT = 3
#: a request under way when the database went silent is answered after its wait for an
#: answer, and a connection attempt (Django reconnects to leave the transaction it closed)
UNDER_WAY = ANSWER_TIMEOUT + CONNECT_TIMEOUT
#: seconds a client waits for an answer: a request held longer than this is a hung request
CLIENT_TIMEOUT = 10

UNAVAILABLE = {
    "errors": [
        {
            "path": "",
            "code": "database_unavailable",
            "message": "The database is not answering; try again shortly.",
        }
    ]
}


@dataclass
class Scorer:
    """One table's scorer: posts its hands in order, each until it is answered 201."""

    host: str
    port: int
    token: str
    session: int
    answers: list[tuple[int, int, dict, dict]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stored: int = 0

    def post(self, key: str) -> tuple[int, dict, dict]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=CLIENT_TIMEOUT)
        try:
            conn.request(
                "POST", f"/api/v1/sessions/{self.session}/hands/", body=json.dumps(PINGHU),
                headers={"Authorization": f"Token {self.token}", "Idempotency-Key": key,
                         "Content-Type": "application/json"},
            )  # fmt: skip
            response = conn.getresponse()
            body = response.read()
            headers = {k.lower(): v for k, v in response.getheaders()}
            return response.status, headers, json.loads(body) if body else {}
        finally:
            conn.close()

    def run(self, deadline: float) -> None:
        for i in range(1, HANDS + 1):
            key = f"fault-{self.session}-{i}"
            while True:
                if time.monotonic() > deadline:
                    self.errors.append(f"{key}: not stored before the deadline")
                    return
                try:
                    status, headers, body = self.post(key)
                except (OSError, http.client.HTTPException) as e:  # a hung or dropped request
                    self.errors.append(f"{key}: {type(e).__name__}: {e}")
                    return
                self.answers.append((i, status, headers, body))
                if status == 201:
                    self.stored += 1
                    break
                if status != 503:
                    self.errors.append(f"{key}: {status} {body}")
                    return
                time.sleep(0.2)  # an impatient client: not the 5 s Retry-After


def wait_until(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_burst_survives_a_database_that_stops_answering(postgresql, http_server):
    club = ClubFactory()
    user = member_login(club, Role.SCORER)
    token = Token.objects.create(user=user).key
    sessions = [TableSessionFactory(club=club) for _ in range(TABLES)]
    proxy = Proxy((postgresql["HOST"] or "127.0.0.1", int(postgresql["PORT"] or 5432)))
    try:
        base = http_server(
            DATABASE_URL=database_url(postgresql, "127.0.0.1", proxy.port),
            DB_CONNECT_TIMEOUT=str(CONNECT_TIMEOUT),
            DB_STATEMENT_TIMEOUT="2",
            DB_ANSWER_TIMEOUT=str(ANSWER_TIMEOUT),
            DEBUG="false",
            # a request never talks to the broker: one that is down changes nothing here
            CELERY_BROKER_URL="redis://127.0.0.1:1/0",
        )
        port = int(base.rsplit(":", 1)[1])
        scorers = [Scorer("127.0.0.1", port, token, s.pk) for s in sessions]
        deadline = time.monotonic() + 60
        threads = [threading.Thread(target=s.run, args=(deadline,), daemon=True) for s in scorers]
        for thread in threads:
            thread.start()

        def stored() -> int:
            return sum(s.stored for s in scorers)

        # a third of the way: the database stops answering, until every scorer has been
        # refused (the one whose request was under way too: its wait for an answer is bounded)
        assert wait_until(lambda: stored() >= TABLES * HANDS // 3, 30)
        posting = [(s, len(s.answers)) for s in scorers if s.stored < HANDS]
        at_pause = stored()
        proxy.pause()
        silent = wait_until(
            lambda: all(any(a[1] == 503 for a in s.answers[n:]) for s, n in posting),
            2 * UNDER_WAY + 5,  # slack for a slow machine
        )
        during = stored() - at_pause  # answered 201 while it was silent: sent before, at most
        proxy.resume()
        assert silent, "a scorer was never answered while the database was silent"
        # two thirds of the way: one commit's answer is lost
        assert wait_until(lambda: stored() >= 2 * TABLES * HANDS // 3, 30)
        proxy.lose_next_commit_answer()
        assert wait_until(lambda: not proxy.commit_answer_pending, 15)
        for thread in threads:
            thread.join(CLIENT_TIMEOUT + 10)
    finally:
        proxy.close()

    assert not [e for s in scorers for e in s.errors], [e for s in scorers for e in s.errors]
    assert during <= TABLES
    assert proxy.held_connections >= 1 and proxy.commits_lost == 1

    # every refusal: 503 in the JSON shape, with Retry-After
    refusals = [a for s in scorers for a in s.answers if a[1] == 503]
    assert len(refusals) >= len(posting) + 1
    for _, _, headers, body in refusals:
        assert body == UNAVAILABLE
        assert headers["content-type"] == "application/json" and headers["retry-after"] == "5"
    # the hand whose commit answer was lost (at least): refused, then its retry answered
    # from what the commit stored
    replayed = {
        (s.session, i)
        for s in scorers
        for i, status, headers, _ in s.answers
        if status == 201 and headers.get("idempotent-replayed") == "true"
    }
    refused = {(s.session, a[0]) for s in scorers for a in s.answers if a[1] == 503}
    assert replayed and replayed <= refused

    # each key's answer names its own hand: the i-th hand posted is hand i
    for s in scorers:
        final = {i: body for i, status, _, body in s.answers if status == 201}
        assert sorted(final) == list(range(1, HANDS + 1))
        assert all(body["number"] == i for i, body in final.items()), final

    # stored exactly once, nothing half-written
    for session in sessions:
        hands = list(Hand.objects.filter(session=session).order_by("number"))
        assert [h.number for h in hands] == list(range(1, HANDS + 1))
    hands = Hand.objects.filter(session__in=sessions)
    payments = Counter(Payment.objects.filter(hand__in=hands).values_list("hand_id", flat=True))
    revisions = Counter(
        HandRevision.objects.filter(hand__in=hands).values_list("hand_id", flat=True)
    )
    assert set(payments) == set(revisions) == set(hands.values_list("pk", flat=True))
    assert set(revisions.values()) == {1}
    assert len(set(payments.values())) == 1  # the same hand, the same payments
    assert IdempotentRequest.objects.filter(user=user).count() == TABLES * HANDS
    follow_ups = Counter(
        tuple(args)
        for args in OutboxMessage.objects.filter(task="clubs.session_changed").values_list(
            "args", flat=True
        )
    )
    # each table's follow-up is asked for, once per write at most (writes close together share
    # one: FOLLOW_UP_COALESCE_SECONDS), none is lost
    assert set(follow_ups) == {(s.pk,) for s in sessions}
    assert all(1 <= n <= HANDS for n in follow_ups.values()), follow_ups


def test_an_open_connection_gone_silent_is_given_up(postgresql, settings):
    """``core.db`` alone: a statement, and a commit, on a connection that goes silent fail
    after ``DB_ANSWER_TIMEOUT`` and close it (if the bound were lost, the proxy comes back
    after 10 s and the statement succeeds: the test fails instead of hanging)."""
    settings.DB_ANSWER_TIMEOUT = 1
    proxy = Proxy((postgresql["HOST"] or "127.0.0.1", int(postgresql["PORT"] or 5432)))
    wrappers = []
    try:
        for in_transaction in (False, True):
            proxy.resume()
            wrapper = DatabaseWrapper(
                {**postgresql, "HOST": "127.0.0.1", "PORT": str(proxy.port)}, alias="silent"
            )
            wrappers.append(wrapper)
            wrapper.set_autocommit(not in_transaction)
            with wrapper.cursor() as cursor:
                cursor.execute("SELECT 1")
                assert cursor.fetchone() == (1,)
                proxy.pause()
                rescue = threading.Timer(10, proxy.resume)
                rescue.start()
                with pytest.raises(OperationalError, match="did not answer within 1 s"):
                    if in_transaction:
                        wrapper.commit()
                    else:
                        cursor.execute("SELECT 1")
                rescue.cancel()
            assert wrapper.connection.closed
    finally:
        proxy.close()
        for wrapper in wrappers:
            wrapper.close()
