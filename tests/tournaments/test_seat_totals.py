"""The standings read each seat's total with its seat, in one query (issue 25): the same
totals the club's sessions give (``clubs.selectors.sessions_totals``), from hands' payments
or entered totals alike."""

from __future__ import annotations

import pytest

from clubs.models import SessionResult
from clubs.selectors import sessions_totals
from clubs.services.hands import hand_record
from tests.clubs.records import PINGHU, SELFDRAW
from tournaments import selectors

pytestmark = pytest.mark.django_db


def seated(table) -> list[int]:
    return list(table.session.seats.order_by("number").values_list("player_id", flat=True))


def test_seat_totals_are_the_sessions_totals(
    make_tournament, seat, enter, django_capture_on_commit_callbacks, in_process_tasks
):
    t = make_tournament(players=8, rounds=2, hands_per_table=3, mode="single")
    first, second = seat(t).tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        for record in (PINGHU, SELFDRAW, PINGHU):
            hand_record(session=first.session, data=record, user=None)
    enter(second, [3, 1, -1, -3])
    # a seat with a second entered total (as rows added by hand would leave it): both count
    SessionResult.objects.create(session=second.session, player_id=seated(second)[2], total=5)
    read = selectors.tournament_tables(t)
    totals = sessions_totals([first.session_id, second.session_id])
    for table in (first, second):
        book = totals[table.session_id]
        assert read.seats[table.session_id] == tuple((p, book.of_player(p)) for p in seated(table))
    assert [score for _, score in read.seats[second.session_id]] == [3, 1, 4, -3]
    assert any(score for _, score in read.seats[first.session_id])  # the hands paid
    # a round's tables read the same way
    round_read = selectors.tables_read({"round": first.round})
    assert round_read.seats == read.seats
    assert round_read.data_version == read.data_version == selectors.tables_data_version(t.pk)
