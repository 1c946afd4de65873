"""A full recompute reads and writes a chunk of sessions at a time: its queries do not grow
with the number of sessions (issue 25: no N+1), and the chunks' seams change nothing."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings import services
from ratings.models import RatingChange, SessionLine, WinLine
from tests.ratings.generate import generated_club

pytestmark = pytest.mark.django_db


def recompute_queries(club_id: int, *, lines: bool = True) -> int:
    with CaptureQueriesContext(connection) as queries:
        services.club_recompute(club_id=club_id, lines=lines)
    return len(queries)


def club_of(sessions: int, slug: str):
    # half the sessions played hand by hand (lines with wins), half entered as totals
    return generated_club(
        players=12, sessions=sessions, hands_per_session=3, hand_sessions=sessions // 2, slug=slug
    )


def test_a_full_recompute_costs_the_same_queries_for_5_and_50_sessions():
    few, many = club_of(5, "few"), club_of(50, "many")
    for gen in (few, many):  # the first one creates the pool and the rating system
        services.club_recompute(club_id=gen.club.pk)
    assert recompute_queries(few.club.pk) == recompute_queries(many.club.pk)
    assert recompute_queries(few.club.pk, lines=False) == recompute_queries(
        many.club.pk, lines=False
    )
    assert SessionLine.objects.filter(club=many.club).count() == 200
    assert WinLine.objects.filter(club=many.club).exists()


def test_more_chunks_cost_more_queries_and_give_the_same_lines(monkeypatch):
    gen = club_of(50, "chunked")
    services.club_recompute(club_id=gen.club.pk)
    whole = recompute_queries(gen.club.pk)

    def written():
        return {
            "lines": sorted(
                SessionLine.objects.filter(club=gen.club).values_list(
                    "session_id", "player_id", "seat", "score", "place", "tied", "hands",
                    "wins", "self_draws", "deal_ins", "win_total", "kong_net", "exchanged",
                )
            ),
            "wins": sorted(
                WinLine.objects.filter(club=gen.club).values_list(
                    "session_id", "player_id", "hand_number", "pattern", "amount", "order"
                )
            ),
            "changes": sorted(
                RatingChange.objects.filter(pool__club=gen.club).values_list(
                    "session_id", "player_id", "number", "mu_after", "sigma_after"
                )
            ),
        }  # fmt: skip

    before = written()
    monkeypatch.setattr(services, "LINES_CHUNK", 7)  # 8 chunks, the last one short
    chunked = recompute_queries(gen.club.pk)
    assert written() == before
    # each chunk adds its own few reads, one delete of each kind and the COPYs
    assert whole < chunked <= whole + 7 * 16
