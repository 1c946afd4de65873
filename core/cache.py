"""The shared cache, failing open: Redis down never fails a request.

The cache holds nothing that is not also somewhere else or cheap to lose: throttle counters
(DRF's and the failed-login counts of ``core.logins``). With Redis unreachable every API request
answered 500 (DRF's throttles read the cache first). :class:`FailOpenRedisCache` answers a
cache that cannot be reached as an empty one — a read is a miss, a write does nothing — so the
throttles let requests through (fail open) while the request itself is served from PostgreSQL.

A failure opens a breaker for ``BREAKER_SECONDS``: during it the cache is not even tried (each
try would cost a connect timeout), then the next call tries Redis again. The outage is logged
once when it starts and once when it ends, per process; ``/healthz`` reports it (``cache:
down``, :func:`cache_state`).
"""

from __future__ import annotations

import logging
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
