"""A standings recompute reads its tournament in a fixed number of lean queries: as many for
40 players as for 8 (issue 25: no N+1, no list of ids growing with the field)."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Player, Seat, SessionResult
from tournaments import selectors, services
from tournaments.models import Registration, Round

pytestmark = pytest.mark.django_db


def played(make_tournament, players: int, slug: str, rounds: int = 3):
    """A tournament of ``players`` entries, its rounds seated and every table's totals
    entered (in bulk: the rows as the services leave them)."""
    t = make_tournament(players=0, rounds=rounds, slug=slug, seating="random")
    made = Player.objects.bulk_create(Player(name=f"{slug}-{i}") for i in range(players))
    Registration.objects.bulk_create(Registration(tournament=t, player=p) for p in made)
    rnd = random.Random(players)
    for _ in range(rounds):
        round_ = services.round_start(tournament=t)
        services.round_seat(round_id=round_.pk)
        by_session: dict[int, list[int]] = {}
        for session_id, player_id in (
            Seat.objects.filter(session__tournament_table__round=round_)
            .order_by("session_id", "number")
            .values_list("session_id", "player_id")
        ):
            by_session.setdefault(session_id, []).append(player_id)
        rows = []
        for session_id, four in by_session.items():
            a, b, c = (rnd.randint(-30, 30) for _ in range(3))
            rows += [
                SessionResult(session_id=session_id, player_id=p, total=v)
                for p, v in zip(four, (a, b, c, -a - b - c), strict=True)
            ]
        SessionResult.objects.bulk_create(rows)
        assert Round.objects.get(pk=round_.pk).status == Round.Status.SEATED
    return t


def compute_queries(t) -> int:
    with CaptureQueriesContext(connection) as queries:
        services.standings_compute(tournament_id=t.pk)
    return len(queries)


def test_standings_cost_the_same_queries_for_8_and_40_players(make_tournament):
    small, large = played(make_tournament, 8, "small"), played(make_tournament, 42, "large")
    assert compute_queries(small) == compute_queries(large)
    latest = selectors.latest_standings(large)
    assert len(latest.rows) == 42 and latest.rounds_complete == 3
    # the lean reading gives what the results say, table by table
    results = selectors.table_results(large)
    assert len(results) == 3 * 10
    assert all(sum(score for _, score in r.scores) == 0 for r in results.values())


def test_hidden_rounds_read_the_tables_once(make_tournament):
    t = played(make_tournament, 16, "hidden", rounds=3)
    shown = compute_queries(t)
    t.hide_last_rounds = 1
    t.save(update_fields=["hide_last_rounds"])
    hidden = compute_queries(t)
    latest = selectors.latest_standings(t)
    assert latest.hidden_after == 2
    # the standings the players see are computed again, from the tables already read
    tables_reads = 2  # the tables and their seats
    assert hidden - shown < tables_reads + 4
