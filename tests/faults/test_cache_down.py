"""The cache (Redis) goes down under a scorer's feet, and comes back.

Today's answer was 500 for every API request: DRF's throttles read the cache before the view.
Here gunicorn runs with a Redis cache of the test's own (throttles on, at production rates),
that Redis is killed, and the scorer goes on: every hand is answered 201 and stored exactly
once, the pages are served, a wrong password is still a clean refusal, and ``/healthz`` says the
cache is down (the service degraded, not down). Redis is started again on its port: the cache
is used again, and ``/healthz`` says so.
"""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request
import uuid

import pytest
import redis
from rest_framework.authtoken.models import Token

from clubs.models import Hand, Role
from tests.clubs.factories import ClubFactory, MembershipFactory, TableSessionFactory
from tests.clubs.records import PINGHU
from tests.helpers import member_login
from tests.processes import database_url, free_port, redis_command, spawn, stop, wait_answering

pytestmark = pytest.mark.django_db(transaction=True)


#: production's throttles, not the suite's (which no test reaches by accident)
THROTTLES = {
    "THROTTLE_ANON": "600/min", "THROTTLE_USER": "6000/min", "THROTTLE_LOGIN": "10/min",
    "THROTTLE_LOGIN_ADDRESS": "300/min",
}  # fmt: skip


def call(url: str, method: str = "GET", body: dict | None = None, token: str | None = None):
    headers = {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_a_dead_cache_fails_no_request(tmp_path, postgresql, http_server):
    port = free_port()
    redis_server = spawn(redis_command(port, tmp_path), tmp_path / "redis.log", dict(os.environ))
    try:
        wait_answering(port)
        club = ClubFactory(slug="teahouse")
        scorer = member_login(club, Role.SCORER, "scorer")
        token = Token.objects.create(user=scorer).key
        players = [MembershipFactory(club=club).player for _ in range(4)]
        session = TableSessionFactory(club=club, seated=players)
        base = http_server(
            workers=2,
            DATABASE_URL=database_url(postgresql),
            CACHE_URL=f"redis://127.0.0.1:{port}/0",
            **THROTTLES,
        )
        hands = f"{base}/api/v1/sessions/{session.pk}/hands/"
        status, text = call(hands, "POST", PINGHU, token)
        assert status == 201, text
        # the throttles count in that Redis
        assert redis.Redis(port=port).dbsize() > 0

        os.killpg(redis_server.pid, signal.SIGKILL)
        redis_server.wait(10)
        answers = [call(hands, "POST", PINGHU, token) for _ in range(20)]
        assert [s for s, _ in answers] == [201] * 20, [t for s, t in answers if s != 201][:1]
        assert call(f"{base}/api/v1/sessions/{session.pk}/", token=token)[0] == 200
        assert call(f"{base}/clubs/teahouse/")[0] == 200
        assert call(f"{base}/sessions/{session.pk}/")[0] == 200
        wrong = call(f"{base}/api/v1/auth/token/", "POST",
                     {"username": "scorer", "password": "not-it"})  # fmt: skip
        assert wrong[0] == 400, wrong
        status, text = call(f"{base}/healthz?check=database,cache")
        assert status == 200 and json.loads(text) == {
            "status": "degraded", "database": "ok", "cache": "down"
        }  # fmt: skip

        # every acknowledged hand stored exactly once
        numbers = list(
            Hand.objects.filter(session=session).order_by("number").values_list("number", flat=True)
        )
        assert numbers == list(range(1, 22))

        # back: the cache is used again (after the breaker's pause)
        redis_server = spawn(redis_command(port, tmp_path), tmp_path / "redis-2.log",
                             dict(os.environ))  # fmt: skip
        wait_answering(port)
        status, text = call(f"{base}/healthz?check=cache")
        assert json.loads(text) == {"status": "ok", "cache": "ok"}
        deadline = time.monotonic() + 30
        while redis.Redis(port=port).dbsize() == 0 and time.monotonic() < deadline:
            assert call(hands, "POST", PINGHU, token)[0] == 201
            time.sleep(0.5)
        assert redis.Redis(port=port).dbsize() > 0
    finally:
        stop(redis_server)
