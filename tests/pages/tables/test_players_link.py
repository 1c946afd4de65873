"""Every player at the table follows it on his own phone: the table's players' link (a QR on the
table page) opens that table — and only it — without a login, in a members-only club too, for
reading; it ends for good when the table closes."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Club, Hand, Role
from clubs.services.sessions import session_close, session_reopen
from tests.clubs.factories import ClubFactory, TableSessionFactory
from tests.helpers import member_login

pytestmark = pytest.mark.django_db

HAND = {"number": "1", "dealer": "0", "w1_seat": "1", "w1_from": "self", "w1_pattern": "pinghu"}


def test_the_players_link_opens_its_table_only_until_it_closes(django_capture_on_commit_callbacks):
    club = ClubFactory(visibility=Club.Visibility.MEMBERS)
    table, other = TableSessionFactory(club=club), TableSessionFactory(club=club)
    scorer = Client(HTTP_ACCEPT_LANGUAGE="en")
    scorer.force_login(member_login(club, Role.SCORER))
    page = scorer.get(f"/sessions/{table.pk}/").content.decode()
    assert "Show the players’ link" in page
    assert scorer.post(f"/sessions/{table.pk}/players-link/").status_code == 302
    table.refresh_from_db()
    page = scorer.get(f"/sessions/{table.pk}/").content.decode()
    assert f"/g/{table.guest_key}/" in page and "<svg" in page

    guest = Client(HTTP_ACCEPT_LANGUAGE="en")  # a player's phone, no login
    assert guest.get(f"/sessions/{table.pk}/").status_code == 404  # members only
    opened = guest.get(f"/g/{table.guest_key}/")
    assert opened.status_code == 302 and opened["Location"] == f"/sessions/{table.pk}/"
    shown = guest.get(f"/sessions/{table.pk}/").content.decode()
    assert table.seats.first().player.name in shown
    assert 'name="w1_seat"' not in shown  # reading, not scoring
    refused = guest.post(f"/sessions/{table.pk}/", HAND)
    assert refused.status_code == 404 and not Hand.objects.exists()
    assert guest.get(f"/sessions/{other.pk}/").status_code == 404  # its own table only

    with django_capture_on_commit_callbacks(execute=True):
        session_close(session=table)
    assert guest.get(f"/sessions/{table.pk}/").status_code == 404
    table.refresh_from_db()
    assert table.guest_key is None
    with django_capture_on_commit_callbacks(execute=True):
        session_reopen(session=table)
    assert guest.get(f"/sessions/{table.pk}/").status_code == 404  # the old link stays dead
