"""The stream a live page follows: ``GET /live/events/?channel=table-12[&channel=…]``, with
``lastEventId`` (the ids the page was rendered with; a reconnecting browser sends its own in the
``Last-Event-ID`` header) and ``key`` (a player's private link, for his tournament's channel).

Served by django-eventstream as server-sent events; only under the ASGI server does a stream
stay open (``make run``, the tests' live server, ``live`` in docker compose). Under a WSGI
server (gunicorn alone, a test client) a stream held open would hold a worker for good: there
the answer is what happened since the page's last event id, then the end, and the browser asks
again after ``POLL_MS`` (the ``retry`` of server-sent events): the page follows, a little
later."""

from __future__ import annotations

import re
import threading

from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django_eventstream.eventrequest import EventRequest
from django_eventstream.eventstream import get_events
from django_eventstream.utils import add_default_headers, make_id, sse_encode_event
from django_eventstream.views import events as event_stream

from pages.live.channels import CHANNEL, MOST, may_follow

#: streams checking their visitor's rights at once, each with a database connection meanwhile:
#: a hall of pages reconnecting together (the Wi-Fi is back) waits its turn here rather than
#: take every connection the database has
_CHECKING = threading.BoundedSemaphore(8)
#: under WSGI, how long the browser waits before it asks again (milliseconds)
POLL_MS = 10_000
#: ``table-12:40,club-3:7``: each channel and the last event id the page has seen
LAST_IDS = re.compile(r"^[a-z]+-[0-9]{1,18}:[0-9]{1,18}(,[a-z]+-[0-9]{1,18}:[0-9]{1,18}){0,7}$")


def _refused(status: int, path: str, code: str, message: str) -> JsonResponse:
    return JsonResponse(
        {"errors": [{"path": path, "code": code, "message": message}]}, status=status
    )


def events(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        refused = _refused(405, "method", "method_not_allowed", "a stream is only read (GET)")
        refused["Allow"] = "GET, HEAD"
        return refused
    channels = list(dict.fromkeys(request.GET.getlist("channel")))
    if not channels:
        return _refused(400, "channel", "required", "name at least one channel to follow")
    if len(channels) > MOST or not all(CHANNEL.match(c) for c in channels):
        message = f"at most {MOST} channels, each table-<id>, club-<id> or tournament-<id>"
        return _refused(400, "channel", "invalid", message)
    for name in ("lastEventId", "HTTP_LAST_EVENT_ID"):
        last = request.GET.get(name) if name[0] == "l" else request.META.get(name)
        if last and last != "error" and not LAST_IDS.match(last):
            return _refused(400, "lastEventId", "invalid", "not an event id of this stream")
    with _CHECKING:
        try:
            refused = [c for c in channels if not may_follow(request, c)]
        except DatabaseError:
            return _refused(503, "", "database_unavailable", "try again in a moment")
        finally:
            _close_connections()
    if refused:
        message = "this page's visitor may not follow " + ", ".join(refused)
        return _refused(403, "channel", "forbidden", message)
    if not isinstance(request, ASGIRequest):
        return _since(request)
    return event_stream(request)


def _close_connections() -> None:
    """Under ASGI each request has a thread of its own, and its database connection would stay
    open as long as its stream (whose events come from Redis): 200 pages, 200 connections."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


def _since(request: HttpRequest) -> HttpResponse:
    """Under WSGI: the events since the page's last ids (each with its id), the ids to follow
    from, and ``retry``; the browser's stream then ends and it asks again."""
    try:
        asked = EventRequest(request)
        found = get_events(asked)
    except EventRequest.Error as e:
        return _refused(400, "lastEventId", "invalid", str(e))
    last = dict(found.channel_last_ids)
    body = [f"retry: {POLL_MS}\n\n", "event: stream-poll\ndata:\n\n"]
    for channel in found.channel_reset:
        body.append(sse_encode_event("stream-reset", {"channels": [channel]}, json_encode=True))
    for channel, items in found.channel_items.items():
        for item in items:
            last[channel] = item.id
            body.append(sse_encode_event(item.type, item.data, event_id=make_id(last)))
    if last:  # no event: the ids alone, so that the next ask goes on from here
        body.append(f"id: {make_id(last)}\n\n")
    response = HttpResponse("".join(body), content_type="text/event-stream")
    add_default_headers(response, request=request)
    return response
