"""Incremental ratings equal ratings from scratch, on a generated club of 2,000 sessions.

The club's sessions are refreshed one by one as a worker would after each was finished: in play
order, except twenty that were entered days late (each re-rates everything after it). Then
ten sessions are corrected through the services (reopened, totals changed, closed again) and
a hand of a played session is corrected. ``manage.py ratings_recompute`` then rebuilds it all
from nothing; every rating and every history row must be the same, to the last bit of the
float.
"""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import call_command

from clubs.models import Hand
from clubs.services.hands import hand_correct
from clubs.services.sessions import session_close, session_reopen, session_result_enter
from ratings.models import Rating, RatingChange, SessionLine, WinLine
from ratings.services import session_refresh
from tests.helpers import login
from tests.ratings.generate import generated_club
from tests.ratings.test_facts import DOUBLE_HAND

pytestmark = pytest.mark.django_db


def snapshot() -> dict[str, list[tuple]]:
    return {
        "ratings": sorted(
            Rating.objects.values_list(
                "pool__tournament_id", "player_id", "mu", "sigma", "rating", "sessions"
            )  # fmt: skip
        ),
        "changes": sorted(
            RatingChange.objects.values_list(
                "session_id",
                "player_id",
                "number",
                "place",
                "score",
                "expected_place",
                "expected_probability",
                "mu_before",
                "sigma_before",
                "mu_after",
                "sigma_after",
                "rating_before",
                "rating_after",
            )
        ),  # fmt: skip
        "lines": sorted(
            SessionLine.objects.values_list(
                "session_id", "player_id", "score", "place", "hands", "wins", "deal_ins", "kong_net"
            )  # fmt: skip
        ),
        "wins": sorted(
            WinLine.objects.values_list(
                "session_id", "player_id", "hand_number", "pattern", "amount", "order"
            )
        ),  # fmt: skip
    }


def test_incremental_and_from_scratch_give_identical_numbers(django_capture_on_commit_callbacks):
    rnd = random.Random(2026)
    g = generated_club(players=40, sessions=2000, hands_per_session=3, hand_sessions=60)
    by_time = sorted(g.sessions, key=lambda s: (s.started_at, s.pk))
    late = set(rnd.sample(range(100, len(by_time)), 20))
    order = [s for i, s in enumerate(by_time) if i not in late]
    for i in sorted(late):  # entered a few sessions after they were played
        order.insert(min(len(order), i + rnd.randint(3, 30)), by_time[i])
    for s in order:
        session_refresh(session_id=s.pk)
    assert RatingChange.objects.count() == 4 * 2000

    user = login()
    for s in rnd.sample(g.sessions[60:], 10):  # totals corrected: reopened, entered, closed
        with django_capture_on_commit_callbacks(execute=True):
            session_reopen(session=s)
        players = list(s.seats.order_by("number").values_list("player_id", flat=True))
        totals = [-40, -10, 20, 30]
        rnd.shuffle(totals)
        with django_capture_on_commit_callbacks(execute=True):
            session_result_enter(
                session=s,
                totals=[{"player": p, "total": t} for p, t in zip(players, totals, strict=True)],
                user=user,
            )
        with django_capture_on_commit_callbacks(execute=True):
            session_close(session=s)
    played = g.sessions[5]  # a hand of a played session corrected
    with django_capture_on_commit_callbacks(execute=True):
        session_reopen(session=played)
    with django_capture_on_commit_callbacks(execute=True):
        hand_correct(
            hand=Hand.objects.get(session=played, number=1), data=DOUBLE_HAND, user=user,
            reason="wrong hand entered",
        )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        session_close(session=played)

    incremental = snapshot()
    assert len(incremental["changes"]) == 4 * 2000
    call_command("ratings_recompute", "--club", g.club.slug, stdout=io.StringIO())
    assert snapshot() == incremental
