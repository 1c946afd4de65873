"""Table cards: each table's printed QR opens that table for whoever scores it — no login —
for its round only; and disputes marked for the referee, who resolves them before approving.

One 普通 table of four (one win a hand), one hand a table. The card's holder records hand 1:
seat 1 平胡 自摸 with the dealer seat 0 — 平胡 is 0番, 1 a point, so each of the three others
pays 1 (base 1): seat 1 +3, the others −1.
"""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Hand
from tests.helpers import client_for
from tournaments import services
from tournaments.models import Table

pytestmark = pytest.mark.django_db

HAND = {"dealer": "0", "w1_seat": "1", "w1_from": "self", "w1_pattern": "pinghu"}


@pytest.fixture
def cup(make_tournament):
    return make_tournament(players=8, rounds=2, mode="single", approve_gate=True)


def test_a_table_card_scores_its_table_until_the_round_locks(
    cup, seat, enter, director_client, django_capture_on_commit_callbacks
):
    one = seat(cup)
    cards = director_client.get(f"/api/v1/tournaments/{cup.slug}/rounds/1/cards/").json()
    assert [c["table"] for c in cards] == [1, 2]
    first, second = one.tables.order_by("number")
    holder = Client(HTTP_ACCEPT_LANGUAGE="en")  # no login
    path = cards[0]["url"].split("testserver", 1)[1]
    opened = holder.get(path)
    assert opened.status_code == 302 and opened["Location"] == f"/sessions/{first.session_id}/"
    page = holder.get(opened["Location"]).content.decode()
    assert 'name="w1_seat"' in page  # the hand form, for the card's holder
    with django_capture_on_commit_callbacks(execute=True):
        saved = holder.post(f"/sessions/{first.session_id}/", HAND)
    assert saved.status_code == 302, saved.content.decode()[:2000]
    hand = Hand.objects.get(session=first.session)
    assert hand.entered_by is None  # by the card, not by a login
    totals = client_for(None).get(f"/api/v1/sessions/{first.session_id}/").json()["totals"]
    assert sorted(p["total"] for p in totals["players"]) == [-1, -1, -1, 3]
    # the card is for its own table only
    other = holder.post(f"/sessions/{second.session_id}/", HAND)
    assert other.status_code == 302 and other["Location"].startswith("/login/")
    assert not Hand.objects.filter(session=second.session).exists()

    # round 2 seated: round 1 locks, its cards stop working for good
    for table in (second,):
        enter(table, [1, 0, 0, -1])
    for table in one.tables.all():
        services.table_approve(table=table, user=None)
    seat(cup)
    assert holder.get(path).status_code == 404
    refused = holder.post(f"/sessions/{first.session_id}/", {**HAND, "dealer": "1"})
    assert refused.status_code == 302 and refused["Location"].startswith("/login/")
    assert Table.objects.get(pk=first.pk).scorer_key is None
    assert Hand.objects.filter(session=first.session).count() == 1


def test_a_disputed_table_waits_for_the_referee(cup, seat, enter, director_client, json_errors):
    one = seat(cup)
    table = one.tables.get(number=1)
    enter(table, [1, 0, 0, -1])
    base = f"/api/v1/tournaments/{cup.slug}/rounds/1/tables/1"
    marked = director_client.post(f"{base}/dispute/", {"words": "not 清一色"}, format="json")
    assert marked.status_code == 200 and marked.json()["disputed"] is True
    refused = director_client.post(f"{base}/approve/")
    assert refused.status_code == 409 and json_errors(refused)[0]["code"] == "table_disputed"
    resolved = director_client.post(f"{base}/dispute/resolve/", {"words": "checked: 清一色"},
                                    format="json")  # fmt: skip
    assert resolved.json() == {"table": 1, "disputed": False, "dispute": "not 清一色",
                               "resolution": "checked: 清一色"}  # fmt: skip
    assert director_client.post(f"{base}/approve/").status_code == 200


def test_the_card_holder_may_delete_a_hand_with_a_reason(
    cup, seat, django_capture_on_commit_callbacks
):
    one = seat(cup)
    table = one.tables.get(number=1)
    [card] = [t for t in services.table_cards(round_=one) if t.number == 1]
    holder = Client(HTTP_ACCEPT_LANGUAGE="en")
    holder.get(f"/t/{card.scorer_key}/")
    with django_capture_on_commit_callbacks(execute=True):
        holder.post(f"/sessions/{table.session_id}/", HAND)
        gone = holder.post(
            f"/sessions/{table.session_id}/hands/1/delete/", {"reason": "wrong table"}
        )
    assert gone.status_code == 302
    assert Hand.objects.get(session=table.session).is_deleted
