"""Fixtures of the export and import tests: a club with everything a club's history holds (the
demo, with a fortnight of evenings, its tournament, and a correction, a deletion and an unlock
made through the services), and the round trip through an emptied database."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import call_command

from clubs.models import Club, Hand, Payment, TableSession
from clubs.services.hands import hand_correct, hand_delete
from exchange.club_export import club_export
from exchange.club_import import club_import
from ratings.models import Rating
from tournaments.models import Round, StandingsSnapshot
from tournaments.readmodels import snapshot_rows
from tournaments.services import round_unlock

DEMO_SLUG = "chengdu-teahouse"


@pytest.fixture
def demo_club(monkeypatch, in_process_tasks, demo_clock) -> Club:
    """``manage.py demo`` with 14 days of evenings (its ratings follow in this process), then
    a hand corrected and another deleted at the open table, and round 1 of the tournament
    unlocked with a reason and one of its hands corrected."""
    monkeypatch.setenv("DEMO_DAYS", "14")
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get(slug=DEMO_SLUG)
    admin = club.memberships.get(role="owner").player.user
    open_table = club.sessions.filter(status=TableSession.Status.OPEN, kind="club").first()
    first, second = open_table.hands.order_by("number")[:2]
    record = {**first.record, "dealer": (first.record["dealer"] + 1) % 4}
    hand_correct(hand=first, data=record, user=admin, reason="the dealer was wrong")
    hand_delete(hand=second, reason="entered twice", user=admin)
    round_1 = Round.objects.get(tournament__club=club, number=1)
    round_unlock(round_=round_1, reason="a wrong tile at table 2", user=admin)
    hand = Hand.objects.filter(session__tournament_table__round=round_1).order_by("pk").first()
    record = {**hand.record, "dealer": (hand.record["dealer"] + 1) % 4}
    hand_correct(hand=hand, data=record, user=admin, reason="the dealer was wrong")
    return club


def round_trip(club: Club, **options) -> tuple[dict[str, Any], dict[str, Any], Any]:
    """Export the club, empty the database, import the file (as JSON text), export again."""
    first = club_export(club, **options)
    text = json.dumps(first, ensure_ascii=False)
    call_command("flush", interactive=False, verbosity=0)
    report = club_import(json.loads(text))
    second = club_export(Club.objects.get(slug=club.slug), **options)
    return first, second, report


def without_moment(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "exported_at"}


def derived(slug: str) -> dict[str, Any]:
    """What the file does not carry, by names rather than ids: every payment of every live
    hand, the ratings of each pool, the latest standings of each tournament."""
    club = Club.objects.get(slug=slug)

    def party(player, bettor) -> str:
        return player.name if player else f"bettor {bettor.name}"

    payments = sorted(
        (
            p.hand.session.started_at.isoformat(), p.hand.number, p.position,
            party(p.payer_player, p.payer_bettor), party(p.payee_player, p.payee_bettor),
            p.amount, p.reason, p.event,
        )
        for p in Payment.objects.filter(hand__session__club=club).select_related(
            "hand__session", "payer_player", "payee_player", "payer_bettor__player",
            "payee_bettor__player",
        )
    )  # fmt: skip
    ratings = sorted(
        (r.pool.tournament.slug if r.pool.tournament else "", r.player.name, r.mu, r.sigma,
         r.rating, r.sessions)
        for r in Rating.objects.filter(pool__club=club).select_related("pool__tournament", "player")
    )  # fmt: skip
    standings = {}
    for tournament in club.tournaments.all():
        latest = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-version")
        snapshot = latest.first()
        rows = snapshot_rows(snapshot.rows, snapshot.points_scale) if snapshot else ()
        standings[tournament.slug] = [r._replace(player=None) for r in rows]
    return {"payments": payments, "ratings": ratings, "standings": standings}
