"""The API's rate limits: DRF's throttles, their log kept in Redis by one script a request.

DRF's :class:`~rest_framework.throttling.SimpleRateThrottle` reads a client's whole log of
request times from the cache (a pickled list, as long as the rate allows: thousands for a busy
login), drops the old ones and writes it all back: two round trips and the list's pickling on
every API request, each throttle that applies (an anonymous request has three), and two
requests at once can both take the last free place. Here the same sliding log is a sorted set
that one Redis script trims, counts and appends to (:meth:`core.cache.FailOpenRedisCache.
sliding_log`): the same rule — at most N requests in any window of the rate's length — in one
round trip, atomically. With another cache (development without Redis) DRF's own code runs;
with Redis unreachable the request passes (fail open, as before).
"""

from __future__ import annotations

from rest_framework import throttling


class SlidingLogInRedis(throttling.SimpleRateThrottle):
    """DRF's throttle with its ``allow_request`` and ``wait`` on
    ``FailOpenRedisCache.sliding_log`` when the cache has it; mixed in after DRF's throttle
    class (whose ``allow_request``, where it has one, settles the scope first)."""

    _count: int = 0
    _oldest: float | None = None

    def allow_request(self, request, view) -> bool:
        log = getattr(self.cache, "sliding_log", None)
        if log is None or self.rate is None:
            return super().allow_request(request, view)
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        # a key of its own: a log DRF kept (a pickled list) may still be in the cache
        answer = log(f"{self.key}:log", self.now, self.duration, self.num_requests)
        if answer is None:  # the cache is away: let it through
            return True
        allowed, self._count, self._oldest = answer
        return allowed or self.throttle_failure()

    def wait(self) -> float | None:
        """DRF's estimate: the time left until the oldest request leaves the window, spread
        over the places that frees."""
        if self._oldest is None:
            return super().wait()
        remaining = self.duration - (self.now - self._oldest)
        available = self.num_requests - self._count + 1
        return None if available <= 0 else remaining / available


class AnonRateThrottle(throttling.AnonRateThrottle, SlidingLogInRedis):
    pass


class UserRateThrottle(throttling.UserRateThrottle, SlidingLogInRedis):
    pass


class ScopedRateThrottle(throttling.ScopedRateThrottle, SlidingLogInRedis):
    pass
