"""What a process keeps of the read models (``core.readcache``, ``local=True``) is bounded by
count and by bytes, the oldest dropped first, and a body too large for it is not kept there."""

from __future__ import annotations

import pytest

from core import readcache


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    monkeypatch.setattr(readcache, "LOCAL_ITEMS", 4)
    monkeypatch.setattr(readcache, "LOCAL_BYTES", 80_000)
    readcache.forget_local()
    yield
    readcache.forget_local()


def keep(name: str, size: int) -> bytes:
    return readcache.versioned(name, 1, lambda: b"x" * size, local=True)


def test_a_kept_model_is_answered_without_building_it_again():
    keep("a", 10)
    built = []
    assert readcache.versioned("a", 1, lambda: built.append(1) or b"y", local=True) == b"x" * 10
    assert built == []


def test_no_more_than_the_count_the_oldest_dropped_first():
    for name in "abcde":
        keep(name, 10)
    assert [k.split(":")[1] for k in readcache._local] == ["b", "c", "d", "e"]


def test_no_more_than_the_bytes_the_oldest_dropped_first(monkeypatch):
    """80,000 bytes in all, each body ~9 kB (an eighth of the budget is 10,000): eight fit,
    the ninth drops the oldest, and only it."""
    monkeypatch.setattr(readcache, "LOCAL_ITEMS", 100)
    for name in "abcdefgh":
        keep(name, 9_000)
    assert len(readcache._local) == 8
    keep("i", 9_500)
    assert [k.split(":")[1] for k in readcache._local] == list("bcdefghi")
    assert readcache._local_bytes == sum(readcache._local_sizes.values()) <= 80_000


def test_a_body_larger_than_an_eighth_of_the_budget_is_not_kept_in_the_process():
    keep("huge", 20_000)
    assert readcache._local == {}
