"""The number of SQL queries of one hand submission (POST /api/v1/sessions/{id}/hands/) is fixed.

Counted through the real API stack (token authentication, permissions, the service, the response).
The Celery task is asked for through the outbox, not run in the request: the test checks that
exactly one outbox row is written and leaves it to the sweep and a worker (with a broker) or to
the eager run after the commit (without one), so the count is the same with and without a
broker. Inside the test's
transaction Django logs the ``atomic`` blocks as SAVEPOINT / RELEASE SAVEPOINT; on a live request
the outer one is logged as BEGIN / COMMIT instead, so the count is the same (``make bench``
prints it for a live request against PostgreSQL).

A hand with one payment and a hand with many payments and 叫马 bettors must cost the same: the
payments are inserted with one statement and answered as written, with the names of the seated
players and the bettors read with the session's lock. (11 queries before the session was read
with its lock and the scorer's role, and its seats with its bettors, each in one query; 9 before
the lock read the state too and the write became one statement, issue 25.) Nothing read grows
with the table: hand 400 costs what hand 1 does.

A hand sent with an ``Idempotency-Key`` (a phone always sends one) costs the same 5 (9 before:
the key's lookup, the savepoint of the service's transaction nested in the key's, the INSERT of
the answer after it): the token's statement reads the user's answer for the key, and the hand's
statement stores the answer, worked out before it. A replay of a stored answer is 3 (the token
with the answer, then the access check it passed, run again: the club and the user's role).

The rules the session pinned are rebuilt from its snapshot's description once per process (the
first hand under a ruleset reads the description: one query more); the counts here are the
steady state, every process having seen the ruleset before.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.models import Bettor, Hand, Role, TableSession
from core.models import IdempotentRequest, OutboxMessage
from scoring.services import pinned_ruleset
from tests.clubs.factories import PlayerFactory, TableSessionFactory, member
from tests.clubs.records import DECLARED
from tests.scoring.engine.records import PINGHU, XUEZHAN

pytestmark = pytest.mark.django_db

#: token + user (1)
BEFORE_WRITE = 1
#: savepoint; the session row, locked, with its club and ruleset, the scorer's role there and
#: what a new hand depends on (its seats and bettors with their names, its top hand number,
#: final results and latest hand: one query); the hand, its payments and revision, the
#: session's data version counted and the outbox row that asks for clubs.session_changed (one
#: statement); release (4). A live request has BEGIN and COMMIT in their place.
WRITE = 4
#: the response is built from the rows just written (0)
RESPONSE = 0
#: one hand submission, whatever its payments and its bettors (issue 25: at most 5)
QUERIES_PER_HAND = BEFORE_WRITE + WRITE + RESPONSE
MAX_QUERIES_PER_HAND = 5
#: a retry answered from its stored answer: token + user + the answer for its key (1), then
#: the check it passed run again, the club read afresh (1) and the user's role there (1)
QUERIES_PER_REPLAY = 3

BETTOR_TILES = ("1m", "9p", "5s", "2m")


def table_for(record: dict) -> TableSession:
    """A session whose mode makes the record a finished hand: 血战 for three wins (or a
    draw), 普通 for one."""
    return TableSessionFactory(mode="single" if record is PINGHU else "xuezhan")


def with_bettors(session: TableSession, *, guests: int = 0, players: int = 0) -> list[str]:
    """Stand bettors behind the table; their names, in creation order."""
    for i in range(guests):
        Bettor.objects.create(session=session, guest_name=f"guest {i}")
    for _ in range(players):
        Bettor.objects.create(session=session, player=PlayerFactory())
    return [b.name for b in session.bettors.order_by("id")]


def bet(record: dict, names: list[str]) -> dict:
    return {
        **record,
        "bettors": [{"name": n, "tile": t} for n, t in zip(names, BETTOR_TILES, strict=False)],
    }


def token_client(session: TableSession) -> APIClient:
    pinned_ruleset(session.ruleset)  # the steady state: this process has seen the ruleset
    token = Token.objects.create(user=member(session.club, Role.SCORER))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def submit(
    client: APIClient, session: TableSession, record: dict, on_commit, key: str | None = None
) -> dict:
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    with on_commit(execute=False):
        response = client.post(
            f"/api/v1/sessions/{session.pk}/hands/", record, format="json", **headers
        )
    assert response.status_code == 201, response.json()
    return response.json()


def asked_for(session: TableSession) -> int:
    """Outbox rows asking for clubs.session_changed of this session (one per hand)."""
    return OutboxMessage.objects.filter(task="clubs.session_changed", args=[session.pk]).count()


def count_queries(session: TableSession, record: dict, capture, on_commit) -> tuple[int, int]:
    """(queries, payments) of one submission, from a fresh client (cold membership cache)."""
    client = token_client(session)
    with capture() as queries:
        data = submit(client, session, record, on_commit)
    assert asked_for(session) == 1
    return len(queries), len(data["payments"])


@pytest.fixture
def capture():
    return lambda: CaptureQueriesContext(connection)


def test_one_hand_costs_a_fixed_number_of_queries(
    django_assert_num_queries, django_capture_on_commit_callbacks
):
    session = table_for(PINGHU)
    client = token_client(session)
    with django_assert_num_queries(QUERIES_PER_HAND):
        data = submit(client, session, PINGHU, django_capture_on_commit_callbacks)
    assert len(data["payments"]) == 1
    assert asked_for(session) == 1


@pytest.mark.parametrize(
    ("record", "guests"),
    [(PINGHU, 0), (XUEZHAN, 0), (PINGHU, 4), (XUEZHAN, 1), (XUEZHAN, 4)],
    ids=["pinghu", "xuezhan", "pinghu-4-guest-bettors", "xuezhan-1-bettor", "xuezhan-4-bettors"],
)
def test_payments_and_guest_bettors_add_no_query(
    record, guests, capture, django_capture_on_commit_callbacks
):
    session = table_for(record)
    names = with_bettors(session, guests=guests)
    queries, payments = count_queries(
        session, bet(record, names), capture, django_capture_on_commit_callbacks
    )
    assert payments >= (1 if record is PINGHU else 8 + 3 * guests)
    assert queries == QUERIES_PER_HAND, f"{queries} queries for {payments} payments"


def test_many_payments_cost_the_same_as_one(capture, django_capture_on_commit_callbacks):
    counts = {}
    for record, guests in ((PINGHU, 0), (XUEZHAN, 4)):
        session = table_for(record)
        names = with_bettors(session, guests=guests)
        queries, payments = count_queries(
            session, bet(record, names), capture, django_capture_on_commit_callbacks
        )
        counts[payments] = queries
    assert len(counts) == 2 and len(set(counts.values())) == 1, counts


def test_bettors_who_are_players_add_no_query(capture, django_capture_on_commit_callbacks):
    """Bettors who are players of the service (not guests): their names come with the
    session's bettors (one prefetch), so the count does not grow with their number."""
    counts = {}
    for players in (1, 4):
        session = table_for(XUEZHAN)
        names = with_bettors(session, players=players)
        queries, _ = count_queries(
            session, bet(XUEZHAN, names), capture, django_capture_on_commit_callbacks
        )
        counts[players] = queries
    assert counts[1] == counts[4], f"queries by number of player bettors: {counts}"


def with_hands(session: TableSession, up_to: int) -> None:
    """Hands up to number ``up_to`` at the table, copies of its latest one (rows only: what a
    submission reads of them is their numbers and the latest one's next dealer)."""
    latest = Hand.objects.filter(session=session).order_by("-number").first()
    Hand.objects.bulk_create(
        Hand(session=session, number=n, record=latest.record, settlement=latest.settlement,
             ruleset_fingerprint=latest.ruleset_fingerprint, dealer=latest.dealer,
             next_dealer=latest.next_dealer, entered_by=latest.entered_by)
        for n in range(latest.number + 1, up_to + 1)
    )  # fmt: skip


@pytest.mark.parametrize("record", [XUEZHAN, DECLARED], ids=["shown", "declared"])
def test_a_hand_costs_the_same_at_hand_1_and_hand_400(
    record, capture, django_capture_on_commit_callbacks
):
    """Issue 25: at most 5 queries for a hand, shown or declared, and as many at a table that
    holds 399 hands as at a fresh one: nothing a submission reads grows with the table."""
    session = table_for(record)
    client = token_client(session)
    counts = {}
    for number in (1, 400):
        if number > 1:
            with_hands(session, number - 1)
        with capture() as queries:
            data = submit(client, session, record, django_capture_on_commit_callbacks)
        assert data["number"] == number
        counts[number] = len(queries)
    assert counts[1] == counts[400] <= MAX_QUERIES_PER_HAND, counts
    assert Hand.objects.filter(session=session).count() == 400


@pytest.mark.parametrize("record", [XUEZHAN, DECLARED], ids=["shown", "declared"])
def test_a_hand_with_an_idempotency_key_costs_what_one_without_does(
    record, capture, django_capture_on_commit_callbacks
):
    """A phone sends every hand with an ``Idempotency-Key``: the key's lookup comes with the
    token's, and its answer is stored by the hand's own statement (no savepoint, no INSERT of
    its own), at hand 1 as at hand 400."""
    session = table_for(record)
    client = token_client(session)
    counts = {}
    for number in (1, 400):
        if number > 1:
            with_hands(session, number - 1)
        with capture() as queries:
            data = submit(
                client, session, record, django_capture_on_commit_callbacks, key=f"hand-{number}"
            )
        assert data["number"] == number
        counts[number] = len(queries)
    assert counts[1] == counts[400] == QUERIES_PER_HAND <= MAX_QUERIES_PER_HAND, counts
    stored = IdempotentRequest.objects.order_by("key").values_list("key", "status")
    assert list(stored) == [("hand-1", 201), ("hand-400", 201)]


def test_a_replayed_hand_costs_a_fixed_number_of_queries(
    capture, django_capture_on_commit_callbacks
):
    session = table_for(PINGHU)
    client = token_client(session)
    first = submit(client, session, PINGHU, django_capture_on_commit_callbacks, key="again")
    with capture() as queries, django_capture_on_commit_callbacks(execute=False):
        replay = client.post(
            f"/api/v1/sessions/{session.pk}/hands/", PINGHU, format="json",
            HTTP_IDEMPOTENCY_KEY="again",
        )  # fmt: skip
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    assert replay.json() == first
    assert len(queries) == QUERIES_PER_REPLAY, [q["sql"] for q in queries]
    assert Hand.objects.filter(session=session).count() == 1
