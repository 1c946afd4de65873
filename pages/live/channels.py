"""Who may follow which channel: the same rules as the pages that show it.

A channel's events carry only ids and versions, but even those are not sent to a visitor who
may not read the page: a stream asking for a channel its visitor may not follow is refused as a
whole, before it opens (403, ``pages.live.views``). The visitor is the request's: its
login, the table cards and players' links its browser opened (kept in its session), and a
player's private link (``?key=``) for his tournament.
"""

from __future__ import annotations

import re

from django.http import HttpRequest
from django_eventstream.channelmanager import ChannelManagerBase

from clubs import selectors as club_selectors
from tournaments import selectors as tournament_selectors

#: a channel's name: what it is about and its id (``core.live``)
CHANNEL = re.compile(r"^(table|club|tournament)-([1-9][0-9]{0,17})$")
#: channels one page follows at most
MOST = 4


def may_follow(request: HttpRequest, channel: str) -> bool:
    """``request``'s visitor may read the page this channel tells about."""
    from pages.tables.views import carries_card, follows_table  # the table page's own rules

    matched = CHANNEL.match(channel)
    if matched is None:
        return False
    kind, pk = matched.group(1), int(matched.group(2))
    user = request.user
    if kind == "table":
        session = club_selectors.session_with_club(pk)
        return session is not None and (
            club_selectors.can_read(user, session.club)
            or carries_card(request, session)
            or follows_table(request, session)
        )
    if kind == "club":
        club = club_selectors.club_by_pk(pk)
        return club is not None and club_selectors.can_read(user, club)
    tournament = tournament_selectors.tournament_by_pk(pk)
    if tournament is None:
        return False
    if tournament_selectors.can_read_tournament(user, tournament):
        return True
    entry = tournament_selectors.entry_by_key(request.GET.get("key", ""))
    return entry is not None and entry.tournament_id == tournament.pk


class PageChannels(ChannelManagerBase):
    """django-eventstream's channel manager: the channels a stream asks for (``?channel=``).
    Who may follow them was checked by the stream's view (``pages.live.views.events``), with the
    whole request, before the library reads them here: checking again would open a database
    connection the stream's thread then holds as long as the stream."""

    def get_channels_for_request(self, request: HttpRequest, view_kwargs) -> set[str]:
        return set(request.GET.getlist("channel"))

    def can_read_channel(self, user, channel: str) -> bool:
        # checked with the whole request (its links, not only its login) when the stream
        # opened; a page whose access ended finds out when it reads itself again
        return True

    def is_channel_reliable(self, channel: str) -> bool:
        return True
