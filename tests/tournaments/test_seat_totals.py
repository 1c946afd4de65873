"""The standings read each seat's total with its seat, in one query (issue 25): the same
totals the club's sessions give (``clubs.selectors.sessions_totals``), from hands' payments
or entered totals alike."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import SessionResult
from clubs.selectors import sessions_totals
from clubs.services.hands import hand_record
from clubs.tasks import follow_session
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
    # (a write to a session, counted as every write is: clubs.tasks.follow_session)
    SessionResult.objects.create(session=second.session, player_id=seated(second)[2], total=5)
    follow_session(second.session_id)
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


def sessions_statements(read) -> list[str]:
    """The statements that read tables' sessions (hands, entered totals, seats) during
    ``read()``."""
    with CaptureQueriesContext(connection) as queries:
        read()
    return [q["sql"] for q in queries.captured_queries if "entered AS (" in q["sql"]]


def test_a_tables_session_is_read_again_only_once_it_changed(
    make_tournament, seat, enter, django_capture_on_commit_callbacks, in_process_tasks
):
    """The standings are computed again after every result: the tables' sessions read before
    are kept in the process by their data version, and only a session written since is read
    again — the others as they were, the changed one as it is now (issue 25)."""
    t = make_tournament(players=8, rounds=2, hands_per_table=3, mode="single")
    first, second = seat(t).tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        for record in (PINGHU, SELFDRAW):
            hand_record(session=first.session, data=record, user=None)
    enter(second, [3, 1, -1, -3])
    # the first read of this process reads every session (the standings' own follow-ups above
    # read them already: forgotten, to start from nothing)
    selectors.sessions_read_forget()
    reads = []
    assert len(sessions_statements(lambda: reads.append(selectors.tournament_tables(t)))) == 1
    # nothing written since: no session read
    assert sessions_statements(lambda: reads.append(selectors.tournament_tables(t))) == []
    assert reads[1] == reads[0]
    # a third hand, its follow-ups (which would compute the standings) held back
    with django_capture_on_commit_callbacks(execute=False):
        hand_record(session=first.session, data=PINGHU, user=None)
    selectors_read = sessions_statements(lambda: reads.append(selectors.tournament_tables(t)))
    # the first table's session alone, read as it is now: three hands, the new totals
    assert len(selectors_read) == 1 and f"t.session_id IN ({first.session_id})" in selectors_read[0]
    new = reads[2]
    book = sessions_totals([first.session_id])[first.session_id]
    assert new.seats[first.session_id] == tuple((p, book.of_player(p)) for p in seated(first))
    assert new.seats[first.session_id] != reads[0].seats[first.session_id]
    assert new.seats[second.session_id] == reads[0].seats[second.session_id]
    hands = {row[0]: row[5] for row in new.tables}
    assert hands == {first.pk: 3, second.pk: 0}
    assert new.data_version == selectors.tables_data_version(t.pk) == reads[0].data_version + 1
    # a round's tables share what was kept
    assert sessions_statements(lambda: selectors.tables_read({"round": first.round})) == []
