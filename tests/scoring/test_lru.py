"""The engine's bounded map (``scoring.engine.lru.LRU``): it forgets the entry used longest
ago, and reading entries — one by one or many at once — counts as using them."""

from __future__ import annotations

from scoring.engine.lru import LRU


def test_the_entry_used_longest_ago_is_forgotten():
    kept: LRU[str, int] = LRU(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # "a" used: "b" is now the oldest
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (1, None, 3)
    assert len(kept) == 2


def test_many_read_at_once_are_used_too():
    kept: LRU[int, str] = LRU(3)
    for key in (1, 2, 3):
        kept.put(key, str(key))
    assert kept.get_many([3, 9, 1]) == ["3", None, "1"]
    kept.put(4, "4")  # 2, the one not read, goes
    assert kept.get_many([1, 2, 3, 4]) == ["1", None, "3", "4"]
    kept.clear()
    assert kept.get_many([1]) == [None] and len(kept) == 0
