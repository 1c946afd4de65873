"""Read models kept in the shared cache under their data's version: never stale.

A page that reads much and changes little (a club's ranking, a player's profile, a tournament's
standings) keeps what it computed under a key that holds the version of the data it was computed
from — a session's ``data_version``, the sum of a tournament's, a club's ratings run. A write
moves the version, so the next read misses and computes afresh: nothing is ever invalidated by
hand and nothing stale is ever served. Old keys simply expire.

The cache fails open (``core.cache``): Redis away means every read computes, slower but right.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from django.core.cache import cache

T = TypeVar("T")

#: how long a computed read model is kept (seconds); its version, not this, keeps it right
TIMEOUT = 6 * 3600
_MISS = object()


def key(name: str, version: Hashable, *parts: Hashable) -> str:
    """The cache key of ``name`` at ``version`` (``parts``: what else it depends on — the
    language, a page number)."""
    tail = ":".join(str(p) for p in (version, *parts))
    return f"read:{name}:{tail}"


def versioned(
    name: str, version: Hashable, build: Callable[[], T], *, parts: Iterable[Hashable] = (),
    timeout: int = TIMEOUT,
) -> T:  # fmt: skip
    """``build()``'s answer for ``name`` at ``version``: from the cache when it was computed at
    this version, else computed now and kept. ``build`` must return something picklable that
    depends only on the data the version counts (and on ``parts``)."""
    k = key(name, version, *parts)
    hit = cache.get(k, _MISS)
    if hit is not _MISS:
        return hit
    value = build()
    cache.set(k, value, timeout)
    return value
