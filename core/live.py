"""Live pages (推送): a write tells the pages that show it, once it has committed.

A service calls :func:`announce` with the channel of what it changed (a table, a club's open
tables, a tournament) and the ids and version a page needs to know it is behind; nothing else
travels (a page fetches again what its visitor may read: no member-only data on a channel). The
announcements of one transaction go out together when it commits — the latest per channel, so
a round seated table by table is one event — and not at all when it rolls back.

Sending is django-eventstream's ``send_event``: with Redis, the event is kept under the next id
of its channel (a page that reconnects says the last id it saw and is sent what it missed) and
published to the ASGI server that holds the streams. A Redis that does not take an event never
fails the request that committed: the event goes to the outbox (:func:`publish` again, from a
worker, once the broker is back), and for ``LIVE_BACKOFF_SECONDS`` this process sends its events
that way without trying Redis first.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

#: the one event type a page listens for: "what you show changed, read it again"
EVENT = "changed"

_backoff_until = 0.0


def table_channel(session_id: int) -> str:
    """A table session's page: its hands, totals, seats, confirmations."""
    return f"table-{session_id}"


def club_channel(club_id: int) -> str:
    """A club's page: its open tables."""
    return f"club-{club_id}"


def tournament_channel(tournament_id: int) -> str:
    """A tournament's pages: live tables, projector, standings, rounds, desk, a player's page."""
    return f"tournament-{tournament_id}"


class _Pending:
    """The announcements of the transaction it was registered in (an ``on_commit`` callback)."""

    def __init__(self) -> None:
        self.events: dict[str, dict[str, Any]] = {}

    def __call__(self) -> None:
        publish(self.events)


def announce(channel: str, **data: Any) -> None:
    """Tell ``channel``'s pages, when the current transaction commits, that what they show
    changed (``data``: ids and a version, e.g. ``kind="hand", version=12``)."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        publish({channel: data})
        return
    # one callback per transaction; a rolled-back one is gone from run_on_commit with its events
    pending = next(
        (call for _, call, _ in connection.run_on_commit if isinstance(call, _Pending)), None
    )
    if pending is None:
        pending = _Pending()
        transaction.on_commit(pending)
    pending.events[channel] = data


def publish(events: dict[str, dict[str, Any]]) -> None:
    """Send ``events`` (channel → data) now; what Redis does not take goes to the outbox."""
    global _backoff_until
    if not events:
        return
    if time.monotonic() < _backoff_until:
        _defer(events)
        return
    left = dict(events)
    try:
        if len(events) > 1 and send_together(events):
            return
        for channel, data in events.items():
            send(channel, data)
            del left[channel]
    except Exception as e:  # noqa: BLE001 - Redis down or slow: the outbox keeps the events
        logger.warning("live events deferred to the outbox: %s: %s", type(e).__name__, e)
        _backoff_until = time.monotonic() + settings.LIVE_BACKOFF_SECONDS
        _defer(left)


def send(channel: str, data: dict[str, Any]) -> None:
    """One event on one channel, raising when Redis does not take it."""
    from django_eventstream import send_event

    send_event(channel, EVENT, data)


def send_together(events: dict[str, dict[str, Any]]) -> bool:
    """Several events in one round trip to Redis where :func:`send` takes three for each
    (a hand tells its table and its club: a fifth of its recording time went there): what
    django-eventstream's ``send_event`` does with its ``RedisStorage`` — each channel's event
    id counted, the event kept under it, published with it — each step for every channel at
    once. False (nothing sent) where the store is not that one, or a channel not reliable:
    then :func:`send` sends them one by one. Raises when Redis does not take them."""
    from django.core.serializers.json import DjangoJSONEncoder
    from django_eventstream import eventstream
    from django_eventstream import storage as stores
    from django_eventstream.utils import get_channelmanager, get_storage, publish_event

    store = get_storage()
    client = getattr(eventstream, "redis_client", None)
    if (
        client is None
        or type(store) is not stores.RedisStorage
        or not all(get_channelmanager().is_channel_reliable(c) for c in events)
    ):
        return False
    sent = {c: json.dumps(data, cls=DjangoJSONEncoder) for c, data in events.items()}
    if _same_server(store.redis, client):
        # one round trip: a script counts, keeps and publishes each channel's event
        args = [stores.EVENT_TIMEOUT * 60]
        for channel, data in sent.items():
            head = json.dumps({"channel": channel, "event_type": EVENT, "data": data})
            args += [json.dumps({"type": EVENT, "data": data}), head[:-1] + ', "pub_id": "', '"}']
        ids = dict(zip(sent, _send_script(store.redis)(keys=list(sent), args=args), strict=True))
    else:
        with store.redis.pipeline() as pipe:  # as RedisStorage.append_event, every channel
            for channel in sent:
                pipe.incr("event_counter:" + channel)
            ids = dict(zip(sent, pipe.execute(), strict=True))
            for channel, data in sent.items():
                stored = json.dumps({"type": EVENT, "data": data})
                pipe.setex(f"event:{channel}:{ids[channel]}", stores.EVENT_TIMEOUT * 60, stored)
            pipe.execute()
        with client.pipeline(transaction=False) as pipe:  # as send_event, to the streams
            for channel, data in sent.items():
                message = {"channel": channel, "event_type": EVENT, "data": data,
                           "pub_id": str(ids[channel])}  # fmt: skip
                pipe.publish("events_channel", json.dumps(message))
            pipe.execute()
    for channel, data in sent.items():
        publish_event(channel, EVENT, data, str(ids[channel]), str(ids[channel] - 1))
    return True


#: for each channel (KEYS): its event id counted, the event (ARGV) kept under it for ARGV[1]
#: seconds, and published with its id between ARGV's two halves of the message — what
#: django-eventstream's ``RedisStorage.append_event`` and ``send_event`` do, in one script
SEND_SCRIPT = """
local ids = {}
for i, channel in ipairs(KEYS) do
  local id = redis.call('INCR', 'event_counter:' .. channel)
  local at = 2 + (i - 1) * 3
  redis.call('SETEX', 'event:' .. channel .. ':' .. id, ARGV[1], ARGV[at])
  redis.call('PUBLISH', 'events_channel', ARGV[at + 1] .. id .. ARGV[at + 2])
  ids[i] = id
end
return ids
"""
_scripts: dict[int, Any] = {}


def _send_script(client) -> Any:
    script = _scripts.get(id(client))
    if script is None:
        script = _scripts.setdefault(id(client), client.register_script(SEND_SCRIPT))
    return script


def _same_server(a, b) -> bool:
    """Whether two Redis clients talk to the same server and database."""
    keys = ("host", "port", "db", "path", "username")
    one, two = a.connection_pool.connection_kwargs, b.connection_pool.connection_kwargs
    return all(one.get(k) == two.get(k) for k in keys)


def _defer(events: dict[str, dict[str, Any]]) -> None:
    from core.outbox import enqueue

    try:
        enqueue("core.publish_live", events)
    except Exception:  # noqa: BLE001 - the database too: the pages catch up when they reconnect
        logger.exception("live events lost: %s", sorted(events))


def last_ids(channels: list[str]) -> str:
    """The last event id of each channel, as a stream's ``lastEventId`` (``""`` when there is
    no store, or Redis does not answer): a page rendered now and following from these ids
    misses nothing written between its rendering and its stream's opening."""
    global _backoff_until
    if time.monotonic() < _backoff_until or not hasattr(settings, "EVENTSTREAM_STORAGE_CLASS"):
        return ""
    from django_eventstream.eventstream import get_current_event_id

    try:
        return get_current_event_id(channels)
    except Exception as e:  # noqa: BLE001 - Redis down: the page follows from now
        logger.warning("live: no event ids (%s: %s)", type(e).__name__, e)
        _backoff_until = time.monotonic() + settings.LIVE_BACKOFF_SECONDS
        return ""
