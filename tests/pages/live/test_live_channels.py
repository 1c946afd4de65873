"""Who may follow which live channel, and what an event carries (issue: live updates).

A stream (``GET /live/events/?channel=…``) opens (200, ``text/event-stream``) only for a
visitor who may read the page the channel tells about: a members-only club's tables and open
tables to its members; a table to whoever holds its table card or its players' link (kept in his
browser's session) while that works; a private tournament to its club's members and to a player
holding his private link (``?key=``), a public one to everyone. One channel refused refuses the
stream (403, in the API's error shape). An event says only which thing changed and its version.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from clubs.models import Club, Role
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close, session_guest_link
from core.live import club_channel, table_channel, tournament_channel
from tests.clubs.factories import ClubFactory, TableSessionFactory
from tests.helpers import assert_error_shape, login, member_login
from tests.scoring.engine.records import PINGHU
from tournaments import services as tournament_services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


def follows(client: Client, *channels: str, **query: str) -> int:
    """The status of the stream ``client`` asks for (an opened stream is left unread: its
    events are read in the tests below; closing it here would end the test's transaction)."""
    params = [("channel", c) for c in channels] + list(query.items())
    response = client.get("/live/events/", params)
    if response.status_code == 200:
        assert response["Content-Type"].startswith("text/event-stream")
    else:
        assert_error_shape(response.json())
    return response.status_code


def client_as(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def clubs():
    members = ClubFactory(visibility=Club.Visibility.MEMBERS)
    other = ClubFactory(visibility=Club.Visibility.MEMBERS)
    public = ClubFactory()
    return {
        "members": (members, TableSessionFactory(club=members)),
        "other": (other, TableSessionFactory(club=other)),
        "public": (public, TableSessionFactory(club=public)),
    }


def test_a_members_only_club_is_followed_by_its_members_only(clubs):
    club, table = clubs["members"]
    other, other_table = clubs["other"]
    member = client_as(member_login(club, Role.MEMBER))
    for visitor in (client_as(), client_as(login())):  # signed out; signed in, not a member
        assert follows(visitor, table_channel(table.pk)) == 403
        assert follows(visitor, club_channel(club.pk)) == 403
    assert follows(member, table_channel(table.pk)) == 200
    assert follows(member, club_channel(club.pk)) == 200
    # another club's table, alone or beside his own: refused as a whole
    assert follows(member, table_channel(other_table.pk)) == 403
    assert follows(member, club_channel(other.pk)) == 403
    assert follows(member, table_channel(table.pk), table_channel(other_table.pk)) == 403


def test_a_public_club_is_followed_by_everyone(clubs):
    club, table = clubs["public"]
    assert follows(client_as(), table_channel(table.pk), club_channel(club.pk)) == 200


def test_the_players_link_reaches_its_table_only_and_only_while_it_is_open(clubs):
    club, table = clubs["members"]
    _, other_table = clubs["other"]
    guest = client_as()
    assert guest.get(f"/g/{session_guest_link(session=table)}/").status_code == 302
    assert follows(guest, table_channel(table.pk)) == 200
    assert follows(guest, table_channel(other_table.pk)) == 403
    assert follows(guest, club_channel(club.pk)) == 403  # the club's page is not his
    session_close(session=table)
    assert follows(guest, table_channel(table.pk)) == 403


def test_a_table_card_reaches_its_table_only(clubs):
    club, _ = clubs["members"]
    owner = member_login(club, Role.OWNER)
    cup = tournament_services.tournament_create(
        name="Cup", slug="cup", user=owner, club=club, rounds=1, is_public=False
    )
    for i in range(8):
        tournament_services.registration_create(tournament=cup, name=f"选手{i}", new_player=True)
    round_ = tournament_services.round_start(tournament=cup)
    tournament_services.round_seat(round_id=round_.pk)
    one, two = tournament_services.table_cards(round_=round_)
    holder = client_as()
    assert holder.get(f"/t/{one.scorer_key}/").status_code == 302
    assert follows(holder, table_channel(one.session_id)) == 200
    assert follows(holder, table_channel(two.session_id)) == 403
    assert follows(holder, tournament_channel(cup.pk)) == 403  # a private tournament


def test_a_private_tournament_is_followed_by_members_and_by_its_players_links(clubs):
    club, _ = clubs["members"]
    other, _ = clubs["other"]
    owner = member_login(club, Role.OWNER)
    cups = {}
    for slug, public, home in (
        ("private", False, club),
        ("open", True, club),
        ("far", False, other),
    ):
        cups[slug] = tournament_services.tournament_create(
            name=slug, slug=slug, user=owner, club=home, rounds=1, is_public=public
        )
        tournament_services.registration_create(tournament=cups[slug], name=f"{slug} 1")
        tournament_services.private_keys(tournament=cups[slug])
    key = Registration.objects.get(tournament=cups["private"]).private_key
    far_key = Registration.objects.get(tournament=cups["far"]).private_key
    private, public = tournament_channel(cups["private"].pk), tournament_channel(cups["open"].pk)
    assert follows(client_as(), private) == 403
    assert follows(client_as(login()), private) == 403
    assert follows(client_as(member_login(club, Role.MEMBER)), private) == 200
    assert follows(client_as(), private, key=key) == 200
    assert follows(client_as(), private, key=far_key) == 403  # another tournament's player
    assert follows(client_as(), public) == 200  # public, though its club is members-only


@pytest.mark.parametrize(
    "query",
    [
        [],
        [("channel", "table")],
        [("channel", "tables-1")],
        [("channel", "table-0")],
        [("channel", "table-1"), ("channel", "club-1"), ("channel", "club-2"),
         ("channel", "club-3"), ("channel", "club-4")],
        [("channel", "table-1"), ("lastEventId", "table-1:x")],
        [("channel", "table-1"), ("lastEventId", "../../etc")],
    ],
)  # fmt: skip
def test_a_stream_asked_for_wrongly_is_refused_in_the_error_shape(clubs, query):
    response = Client().get("/live/events/", query)
    assert response.status_code == 400
    assert assert_error_shape(response.json())[0]["path"] in {"channel", "lastEventId"}


def test_an_unknown_thing_is_refused_like_one_not_readable():
    assert follows(client_as(), table_channel(987654)) == 403
    assert follows(client_as(), tournament_channel(987654)) == 403


def test_a_stream_is_only_read():
    response = Client().post("/live/events/?channel=club-1")
    assert response.status_code == 405
    assert_error_shape(response.json())


class Heard:
    """What the channels' pages hear: the events kept for a reconnecting stream, read from
    django-eventstream's store (with Redis, as CI runs), or else those queued for a stream of
    this process (one registered as the library's own streams register)."""

    def __init__(self, channels: list[str]) -> None:
        import asyncio

        from django_eventstream.utils import get_storage
        from django_eventstream.views import Listener, get_listener_manager

        self.channels, self.store = channels, get_storage()
        if self.store is not None:
            self.since = {c: self.store.get_current_id(c) for c in channels}
            return
        self.listener = Listener()
        self.listener.loop = asyncio.new_event_loop()
        self.listener.channels = set(channels)
        get_listener_manager().add_listener(self.listener)

    def events(self, channel: str) -> list[dict]:
        if self.store is not None:
            kept = self.store.get_events(channel, self.since[channel])
        else:
            kept = self.listener.channel_items.get(channel, [])
        return [json.loads(e.data) for e in kept]  # as the stream sends it: JSON

    def close(self) -> None:
        if self.store is None:
            from django_eventstream.views import get_listener_manager

            get_listener_manager().remove_listener(self.listener)
            self.listener.loop.close()


def test_an_event_carries_ids_and_a_version_never_what_changed(
    clubs, django_capture_on_commit_callbacks
):
    club, table = clubs["members"]
    heard = Heard([table_channel(table.pk), club_channel(club.pk)])
    try:
        with django_capture_on_commit_callbacks(execute=True):
            hand_record(session=table, data=PINGHU, user=None)
        table.refresh_from_db()
        for channel in heard.channels:
            [event] = heard.events(channel)  # one event for the hand's transaction
            assert event == {"kind": "table", "table": table.pk, "version": table.data_version}
    finally:
        heard.close()


def test_a_rolled_back_write_tells_no_one(clubs):
    from django.db import transaction

    club, table = clubs["members"]
    heard = Heard([table_channel(table.pk)])
    try:
        with transaction.atomic():
            hand_record(session=table, data=PINGHU, user=None)
            transaction.set_rollback(True)
        assert heard.events(table_channel(table.pk)) == []
    finally:
        heard.close()


def test_under_wsgi_the_stream_answers_what_happened_and_ends(
    clubs, django_capture_on_commit_callbacks
):
    """A WSGI server (gunicorn alone) cannot hold a stream: it answers the events since the
    page's last id and the ids to go on from, with ``retry``; the browser asks again."""
    _, table = clubs["public"]
    channel = table_channel(table.pk)
    first = Client().get("/live/events/", {"channel": channel})
    body = first.content.decode()
    assert body.startswith("retry: ")
    assert "event: stream-poll" in body
    with django_capture_on_commit_callbacks(execute=True):
        hand_record(session=table, data=PINGHU, user=None)
    last = [line[4:] for line in body.splitlines() if line.startswith("id: ")]
    if not last:  # no store (no Redis): nothing kept to catch up from
        return
    again = Client().get("/live/events/", {"channel": channel, "lastEventId": last[-1]})
    table.refresh_from_db()
    events = [json.loads(line[6:]) for line in again.content.decode().splitlines()
              if line.startswith("data: {")]  # fmt: skip
    assert events == [{"kind": "table", "table": table.pk, "version": table.data_version}]
