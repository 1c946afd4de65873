"""The Redis cache fails open (``core.cache``): unreachable, it reads as empty, writes nothing,
logs the outage once, and comes back by itself."""

from __future__ import annotations

import logging
import os

import pytest
import redis

from core.cache import FailOpenRedisCache
from tests.processes import free_port, redis_command, spawn, stop, wait_answering


def cache_at(port: int) -> FailOpenRedisCache:
    return FailOpenRedisCache(f"redis://127.0.0.1:{port}/0", {})


def test_an_unreachable_cache_is_a_miss_and_logs_once(caplog):
    cache = cache_at(1)  # nothing listens on port 1
    with caplog.at_level(logging.WARNING, logger="core.cache"):
        assert cache.get("k", "default") == "default"
        assert cache.get_many(["a", "b"]) == {}
        assert cache.add("k", 1, 60) is True
        assert cache.incr("k") == 1
        assert cache.set("k", 1) is None
        assert cache.delete("k") is False
    assert len([r for r in caplog.records if "unreachable" in r.message]) == 1
    with pytest.raises(redis.exceptions.ConnectionError):
        cache.ping()


def test_the_cache_comes_back_after_the_breaker(tmp_path, monkeypatch):
    monkeypatch.setattr("core.cache.BREAKER_SECONDS", 0.0)
    port = free_port()
    cache = cache_at(port)
    assert cache.get("k") is None  # down: a miss
    server = spawn(redis_command(port, tmp_path), tmp_path / "redis.log", dict(os.environ))
    try:
        wait_answering(port)
        cache.set("k", 42, 60)
        assert cache.get("k") == 42
        assert not cache.breaker.down
    finally:
        stop(server)
