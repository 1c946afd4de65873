"""Live pages: a page that shows a table, a club's open tables or a tournament follows their
channels (``core.live``) over server-sent events and reads itself again when told."""

from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse

from core import live


def follow(*channels: str, key: str = "", main: bool = False, self_read: bool = False) -> dict:
    """What a page passes as ``live_follow`` to follow ``channels``: its stream's address, from
    the event ids there are as it is rendered (``templates/pages/includes/live.html``).
    ``main``: the whole of the page's ``<main>`` is read again (a page with nothing to type in
    for long); ``self_read``: the page's own script reads it again (on ``live:changed``)."""
    query = [("channel", channel) for channel in channels]
    last = live.last_ids(list(channels))
    if last:
        query.append(("lastEventId", last))
    if key:
        query.append(("key", key))
    url = f"{reverse('live-events')}?{urlencode(query)}"
    return {"url": url, "main": main, "self_read": self_read}
