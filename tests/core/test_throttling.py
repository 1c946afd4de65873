"""The API's throttles keep DRF's sliding log in Redis, one script a request (``core.throttling``).

The rule is DRF's: at most N requests in any window of the rate's length, a request's time
leaving the log once it is the window's length old (at exactly that age too). What changed is
where the log lives: a sorted set trimmed, counted and appended to atomically, so requests at
once never pass more than the limit (DRF's read-then-write let them), and one round trip
instead of two with the whole log pickled.
"""

from __future__ import annotations

import os
import threading
import uuid

import pytest
from django.core.cache import cache, caches
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from core.cache import FailOpenRedisCache
from core.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle
from tests.processes import free_port, redis_command, spawn, stop, wait_answering


@pytest.fixture(scope="module")
def redis_port(tmp_path_factory):
    """A Redis of this module's own (the suite keeps its cache in memory)."""
    port, folder = free_port(), tmp_path_factory.mktemp("redis")
    server = spawn(redis_command(port, folder), folder / "redis.log", dict(os.environ))
    try:
        wait_answering(port)
        yield port
    finally:
        stop(server)


@pytest.fixture(autouse=True)
def redis_cache(redis_port, settings):
    """The cache as production has it: ``FailOpenRedisCache`` on that Redis."""
    settings.CACHES = {
        "default": {
            "BACKEND": "core.cache.FailOpenRedisCache",
            "LOCATION": f"redis://127.0.0.1:{redis_port}/0",
        }
    }
    assert isinstance(caches["default"], FailOpenRedisCache)


def fresh_key() -> str:
    return f"throttle-test-{uuid.uuid4().hex}"


def test_the_log_allows_the_limit_and_refuses_the_next():
    key = fresh_key()
    answers = [cache.sliding_log(key, 1000.0 + i, 60, 3) for i in range(4)]
    assert [a[0] for a in answers] == [True, True, True, False]
    # refused: three in the log, the oldest at 1000
    assert answers[3][1:] == (3, 1000.0)


def test_a_time_leaves_the_log_once_the_window_has_passed_it():
    key = fresh_key()
    for t in (1000.0, 1010.0):
        assert cache.sliding_log(key, t, 60, 2)[0]
    assert not cache.sliding_log(key, 1059.5, 60, 2)[0]  # both still within 60 s
    # at 1060 the request of 1000 is exactly 60 s old: out (DRF drops times <= now - 60)
    allowed, count, oldest = cache.sliding_log(key, 1060.0, 60, 2)
    assert (allowed, count, oldest) == (True, 2, 1010.0)


def test_requests_at_once_never_pass_more_than_the_limit():
    """20 threads ask for 5 places at the same moment: exactly 5 pass."""
    key, limit = fresh_key(), 5
    passed: list[bool] = []
    start = threading.Barrier(20)

    def ask() -> None:
        start.wait()
        passed.append(cache.sliding_log(key, 2000.0, 60, limit)[0])

    threads = [threading.Thread(target=ask) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert passed.count(True) == limit


def test_an_unreachable_redis_lets_requests_through():
    down = FailOpenRedisCache("redis://127.0.0.1:1/0", {})  # nothing listens on port 1
    assert down.sliding_log(fresh_key(), 1.0, 60, 1) is None


class Scoped(APIView):
    throttle_scope = "engine"


class Request:
    """What a throttle reads of a request: its user and address."""

    class user:  # noqa: N801
        is_authenticated = True
        pk = 0

    META = {"REMOTE_ADDR": "192.0.2.1"}


@pytest.fixture
def rates(monkeypatch):
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": "2/min", "user": "2/min", "engine": "2/min"}
    )


def test_the_throttles_count_in_redis_and_say_how_long_to_wait(rates, time_machine):
    """DRF's wait: the time until the oldest request leaves the window, over the places that
    frees. Requests at t = 0 and 10 with 2 a minute: at t = 20 the next is refused, and the
    oldest (t = 0) leaves at 60, freeing one place: wait 40 s."""
    request = Request()
    request.user.pk = uuid.uuid4().int  # a login of this test's own
    time_machine.move_to(1_000_000.0, tick=False)
    throttle = UserRateThrottle()
    assert throttle.allow_request(request, None)
    time_machine.move_to(1_000_010.0, tick=False)
    assert UserRateThrottle().allow_request(request, None)
    time_machine.move_to(1_000_020.0, tick=False)
    refused = UserRateThrottle()
    assert not refused.allow_request(request, None)
    assert refused.wait() == pytest.approx(40.0)
    # the log is Redis's sorted set (beside any list DRF kept under the throttle's own key)
    assert cache.get(refused.key) is None
    raw = caches["default"]._cache.get_client()
    assert raw.type(cache.make_key(f"{refused.key}:log")) == b"zset"


def test_an_authenticated_request_is_not_counted_as_anonymous(rates):
    request = Request()
    request.user.pk = uuid.uuid4().int
    assert all(AnonRateThrottle().allow_request(request, None) for _ in range(5))


def test_a_view_without_a_scope_is_not_scope_throttled(rates):
    request = Request()
    request.user.pk = uuid.uuid4().int
    assert all(ScopedRateThrottle().allow_request(request, APIView()) for _ in range(5))
    scoped = [ScopedRateThrottle().allow_request(request, Scoped()) for _ in range(3)]
    assert scoped == [True, True, False]


def test_a_log_drf_kept_before_is_left_alone(rates):
    """Deployed over DRF's own throttles, the cache may hold their pickled lists: the new log
    is kept beside them, never read as one."""
    request = Request()
    request.user.pk = uuid.uuid4().int
    throttle = UserRateThrottle()
    cache.set(throttle.get_cache_key(request, None), [1.0, 2.0], 60)
    assert [UserRateThrottle().allow_request(request, None) for _ in range(3)] == [
        True, True, False,
    ]  # fmt: skip


def test_without_redis_drfs_own_log_is_kept(rates, settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    request = Request()
    request.user.pk = uuid.uuid4().int
    answers = [UserRateThrottle().allow_request(request, None) for _ in range(3)]
    assert answers == [True, True, False]
