"""A bounded, thread-safe map that forgets the entry used longest ago: the engine's caches
of rulesets (resolved, rebuilt from descriptions, their declaration menus)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    """A bounded, thread-safe map that forgets the entry used longest ago: what a stranger
    sends (20,000 distinct ``cap`` values) cannot grow memory without bound."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def get_many(self, keys: list[K]) -> list[V | None]:
        """:meth:`get` of each key, in one hold of the lock (None: not kept)."""
        with self._lock:
            items = self._items
            found = [items.get(key) for key in keys]
            for key, value in zip(keys, found, strict=True):
                if value is not None:
                    items.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


#: how many rulesets each cache keeps
CACHE_SIZE = 256
