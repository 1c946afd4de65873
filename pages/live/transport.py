"""What the ASGI server needs beside django-eventstream: a Redis listener that survives Redis.

The library's own listener subscribes once and ends at the first connection error, leaving
every open stream silent for good. This one subscribes again with back-off, and after it has
been away it tells every open page to read itself again. The library also keeps no
reference to the listener's task, which the event loop may then collect mid-wait: this one
holds its own."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from django.conf import settings

logger = logging.getLogger(__name__)

#: the pub/sub channel django-eventstream publishes every event on
PUBSUB = "events_channel"


class SteadyRedisListener:
    def __init__(self, manager) -> None:
        self.manager = manager
        self.connections = 0
        self.task: asyncio.Task | None = None

    async def start(self) -> None:
        from redis.asyncio import Redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        # the library starts this as a task it keeps no reference to: held here (the manager
        # is a module's), the loop's garbage collection cannot end it while it waits
        self.task = asyncio.current_task()
        options = {k: v for k, v in settings.EVENTSTREAM_REDIS.items() if k != "socket_timeout"}
        delay = 0.2
        while True:
            # no silent reconnection inside redis-py: what was published meanwhile is lost to
            # pub/sub, so a reconnection must be this loop's, which then tells the pages
            client = Redis(health_check_interval=10, retry=Retry(NoBackoff(), 0), **options)
            try:
                pubsub = client.pubsub()
                await pubsub.subscribe(PUBSUB)
                self.connections += 1
                if self.connections > 1:
                    self.catch_up()
                delay = 0.2
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        self.deliver(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - Redis went away: listen again when it is back
                logger.warning("live: Redis listener lost (%s: %s)", type(e).__name__, e)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
            finally:
                with contextlib.suppress(Exception):  # closing a connection that is gone
                    await client.aclose()

    def deliver(self, raw: bytes | str) -> None:
        from django_eventstream.event import Event

        message = json.loads(raw)
        event = Event(
            message["channel"], message["event_type"], message["data"], id=message["pub_id"]
        )
        self.manager.add_to_queues(message["channel"], event)

    def catch_up(self) -> None:
        """Every open stream's page reads itself again (an event of no id: the browser keeps
        the last id it saw). Whatever was published while Redis was away, or lost with a
        Redis that came back empty (its event ids start again), is then on the page."""
        from django_eventstream.event import Event

        from core.live import EVENT

        with self.manager.lock:
            channels = list(self.manager.listeners_by_channel)
        for channel in channels:
            again = Event(channel, EVENT, json.dumps({"kind": "resync"}), id=None)
            self.manager.add_to_queues(channel, again)


def install() -> None:
    """Put the steady listener in the library's place (the ASGI process's listener manager)."""
    if not hasattr(settings, "EVENTSTREAM_REDIS"):
        return
    from django_eventstream import views

    manager = views.get_listener_manager()
    manager.redis_listener = SteadyRedisListener(manager)
