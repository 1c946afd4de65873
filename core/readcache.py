"""Read models kept in the shared cache under their data's version: never stale.

A page that reads much and changes little (a club's ranking, a player's profile, a tournament's
standings) keeps what it computed under a key that holds the version of the data it was computed
from — a session's ``data_version``, the sum of a tournament's, a club's ratings run. A write
moves the version, so the next read misses and computes afresh: nothing is ever invalidated by
hand and nothing stale is ever served. Old keys simply expire.

The cache fails open (``core.cache``): Redis away means every read computes, slower but right.

``local=True`` also keeps the answer in the process (at most :data:`LOCAL_ITEMS` of them and
:data:`LOCAL_BYTES` in all, pickled, the oldest dropped first; one larger than an eighth of that
is not kept): a key names one version of the data, so what the process kept under it is as
right as Redis's copy, and a page read often (a club's ranking) skips the round trip. A table
page's body at 400 hands is some 380 kB: the bytes, not the count, bound a worker's memory.
"""

from __future__ import annotations

import pickle
import threading
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from django.core.cache import cache

T = TypeVar("T")

#: how many read models a process keeps itself (``local=True``), beside the shared cache
LOCAL_ITEMS = 256
#: and how many bytes (their pickled size) in all
LOCAL_BYTES = 48 * 2**20
_local: dict[str, object] = {}
_local_sizes: dict[str, int] = {}
_local_bytes = 0
#: the ASGI server's threads share ``_local``: one of them evicts and adds at a time
_local_lock = threading.Lock()

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
    timeout: int = TIMEOUT, local: bool = False,
) -> T:  # fmt: skip
    """``build()``'s answer for ``name`` at ``version``: from the cache when it was computed at
    this version, else computed now and kept. ``build`` must return something picklable that
    depends only on the data the version counts (and on ``parts``); ``local``: kept in the
    process too (what is returned is then shared: it must not be changed)."""
    k = key(name, version, *parts)
    if local:
        hit = _local.get(k, _MISS)
        if hit is not _MISS:
            return hit  # type: ignore[return-value]
    hit = cache.get(k, _MISS)
    if hit is _MISS:
        hit = build()
        cache.set(k, hit, timeout)
    if local:
        _keep_local(k, hit)
    return hit


def _keep_local(k: str, value: object) -> None:
    global _local_bytes
    size = len(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    if size > LOCAL_BYTES // 8:
        return
    with _local_lock:
        if k in _local:
            return
        # the oldest first (dicts keep their order)
        while _local and (len(_local) >= LOCAL_ITEMS or _local_bytes + size > LOCAL_BYTES):
            oldest = next(iter(_local))
            del _local[oldest]
            _local_bytes -= _local_sizes.pop(oldest)
        _local[k] = value
        _local_sizes[k] = size
        _local_bytes += size


def forget_local() -> None:
    """Drop what this process kept (the test suite, as it empties the cache between tests)."""
    global _local_bytes
    with _local_lock:
        _local.clear()
        _local_sizes.clear()
        _local_bytes = 0
