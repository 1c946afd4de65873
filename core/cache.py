"""The shared cache, failing open: Redis down never fails a request.

The cache holds nothing that is not also somewhere else or cheap to lose: throttle logs
(DRF's, kept by :meth:`FailOpenRedisCache.sliding_log`, and the failed-login counts of
``core.logins``) and read models kept under their data version (``core.readcache``). With
Redis unreachable every API request answered 500 (DRF's throttles read the cache first).
:class:`FailOpenRedisCache` answers a cache that cannot be reached as an empty one — a read is
a miss, a write does nothing — so the throttles let requests through (fail open) while the
request itself is served from PostgreSQL.

A failure opens a breaker for ``BREAKER_SECONDS``: during it the cache is not even tried (each
try would cost a connect timeout), then the next call tries Redis again. The outage is logged
once when it starts and once when it ends, per process; ``/healthz`` reports it (``cache:
down``, :func:`cache_state`).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

logger = logging.getLogger(__name__)

#: how long a failure keeps the cache unused before it is tried again (seconds)
BREAKER_SECONDS = 5.0
#: what a connection to Redis may take, and an answer (seconds): short, a cache is an extra
SOCKET_TIMEOUTS = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}


class _Breaker:
    """Per process: whether the cache failed lately, and whether its outage was logged."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open_until = 0.0
        self.down = False

    def closed(self) -> bool:
        return time.monotonic() >= self.open_until

    def failed(self, exc: BaseException) -> None:
        with self.lock:
            self.open_until = time.monotonic() + BREAKER_SECONDS
            if not self.down:
                self.down = True
                logger.warning(
                    "the cache (Redis) is unreachable: throttles let requests through until it "
                    "is back (%s: %s)", type(exc).__name__, exc,
                )  # fmt: skip

    def succeeded(self) -> None:
        if self.down:
            with self.lock:
                if self.down:
                    self.down = False
                    logger.warning("the cache (Redis) answers again")


class _OneClientPerPool(RedisCacheClient):
    """Django's client of the cache's Redis servers, keeping one ``redis.Redis`` per connection
    pool: Django builds a new one for every cache call, and each copies the library's ~170
    response callbacks — a quarter of a hand's recording time went there (two throttle calls
    per request). A ``redis.Redis`` is safe to share between threads: each command takes a
    connection from the pool."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class FailOpenRedisCache(RedisCache):
    """Django's Redis cache whose failures read as a miss and write as nothing."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        params = {**params, "OPTIONS": {**SOCKET_TIMEOUTS, **params.get("OPTIONS", {})}}
        super().__init__(server, params)
        self._class = _OneClientPerPool
        self.breaker = _Breaker()
        self._scripts: dict[int, Any] = {}

    def _guarded(self, call: Callable[[], Any], fallback: Any) -> Any:
        if not self.breaker.closed():
            return fallback
        try:
            result = call()
        except self._lib_errors() as exc:
            self.breaker.failed(exc)
            return fallback
        self.breaker.succeeded()
        return result

    @staticmethod
    def _lib_errors() -> tuple[type[BaseException], ...]:
        import redis

        return (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)

    def ping(self) -> None:
        """Ask Redis itself, breaker or not (the health check): raises when it is down."""
        self._cache.get_client(write=False).ping()

    def get(self, key, default=None, version=None):
        return self._guarded(lambda: RedisCache.get(self, key, default, version), default)

    def get_many(self, keys, version=None):
        return self._guarded(lambda: RedisCache.get_many(self, keys, version), {})

    def has_key(self, key, version=None):
        return self._guarded(lambda: RedisCache.has_key(self, key, version), False)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded(lambda: RedisCache.set(self, key, value, timeout, version), None)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded(lambda: RedisCache.set_many(self, data, timeout, version), [])

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        # an add that cannot be made answers "added": a counter that starts at 1 counts no
        # further while the cache is away (fail open)
        return self._guarded(lambda: RedisCache.add(self, key, value, timeout, version), True)

    def incr(self, key, delta=1, version=None):
        return self._guarded(lambda: RedisCache.incr(self, key, delta, version), delta)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded(lambda: RedisCache.touch(self, key, timeout, version), False)

    def delete(self, key, version=None):
        return self._guarded(lambda: RedisCache.delete(self, key, version), False)

    def delete_many(self, keys, version=None):
        return self._guarded(lambda: RedisCache.delete_many(self, keys, version), None)

    def clear(self):
        return self._guarded(lambda: RedisCache.clear(self), None)

    def sliding_log(
        self, key: str, now: float, duration: int, limit: int
    ) -> tuple[bool, int, float] | None:
        """A rate limit's sliding log (DRF's throttles): drop the times at or before ``now -
        duration``, then log ``now`` if fewer than ``limit`` remain. One script in Redis: one
        round trip, and atomic, where DRF's read of the whole log and write of it back let two
        requests at once both pass the last free place. Answers (allowed, times in the log,
        the oldest time in it), or None while the cache is unreachable (fail open)."""
        return self._guarded(lambda: self._sliding_log(key, now, duration, limit), None)

    def _sliding_log(self, key: str, now: float, duration: int, limit: int):
        client = self._cache.get_client(write=True)
        script = self._scripts.get(id(client))
        if script is None:
            script = self._scripts.setdefault(id(client), client.register_script(_SLIDING_LOG))
        member = f"{now!r}:{secrets.token_hex(4)}"
        allowed, count, oldest = script(
            keys=[self.make_and_validate_key(key)], args=[repr(now), duration, limit, member]
        )
        return bool(allowed), int(count), float(oldest)


def cache_state() -> tuple[str, str]:
    """The default cache for ``/healthz``: ("ok" | "down" | "local", what failed)."""
    default = caches["default"]
    if not isinstance(default, FailOpenRedisCache):
        return "local", ""  # in-process: throttles count per process
    try:
        default.ping()
    except Exception as exc:  # noqa: BLE001 - any failure: the cache is not usable
        return "down", f"{type(exc).__name__}: {exc}"
    return "ok", ""


#: KEYS[1]: the log (a sorted set of times); ARGV: now, duration (s), limit, a unique member
_SLIDING_LOG = """
local now, duration = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - duration)
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then
    local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    return {0, count, oldest[2]}
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('EXPIRE', KEYS[1], duration)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {1, count + 1, oldest[2]}
"""
