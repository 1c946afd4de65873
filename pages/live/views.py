"""The stream a live page follows: ``GET /live/events/?channel=table-12[&channel=…]``, with
``lastEventId`` (the ids the page was rendered with; a reconnecting browser sends its own in the
``Last-Event-ID`` header) and ``key`` (a player's private link, for his tournament's channel).

Served by django-eventstream as server-sent events; only under the ASGI server does a stream
stay open (``make run``, the tests' live server, ``live`` in docker compose)."""

from __future__ import annotations

import re

from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django_eventstream.views import events as event_stream

from pages.live.channels import CHANNEL, MOST, may_follow

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
    refused = [c for c in channels if not may_follow(request, c)]
    if refused:
        message = "this page's visitor may not follow " + ", ".join(refused)
        return _refused(403, "channel", "forbidden", message)
    stream = event_stream(request)
    # under ASGI each request has a thread of its own, and its database connection would stay
    # open as long as the stream (the events come from Redis): 200 pages, 200 connections
    if stream.streaming:
        for connection in connections.all(initialized_only=True):
            if not connection.in_atomic_block:
                connection.close()
    return stream
