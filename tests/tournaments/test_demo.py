"""``manage.py demo`` adds a public 16-player tournament: two rounds played (one by hands,
one by table totals), the third seated, standings computed. Its players are the demo club's
eight and eight guests (the regulars of the club's evenings stay home)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.demo import SLUG
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def run_demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_demo_tournament(api_client):
    output = run_demo()
    t = Tournament.objects.get(slug=SLUG)
    assert "Created demo tournament" in output
    assert t.is_public and t.registrations.count() == 16
    rounds = list(t.round_set.order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3]
    assert all(r.status == Round.Status.SEATED for r in rounds)
    one, two, three = rounds
    # round 1 by hands (two per table), round 2 by table totals, round 3 seated, unplayed
    assert all(tb.session.hands.filter(is_deleted=False).count() == 2 for tb in one.tables.all())
    assert all(tb.session.results.count() == 4 for tb in two.tables.all())
    assert all(not tb.session.hands.exists() and not tb.session.results.exists()
               for tb in three.tables.all())  # fmt: skip
    body = api_client.get(f"/api/v1/tournaments/{SLUG}/standings/").json()
    assert body["rounds_complete"] == 2 and body["tables_counted"] == 8
    assert len(body["standings"]) == 16
    # two rounds: 4 tables × (4+2+1+0) placement points each = 56 in all
    from fractions import Fraction

    assert sum(Fraction(r["placement_points"]) for r in body["standings"]) == 56
    assert sum(r["table_score"] for r in body["standings"]) == 0
    # balanced seating: nobody met anyone twice in three rounds
    assert all(r.quality["repeated_pairs"] == 0 for r in rounds)


def test_demo_tournament_is_created_once(monkeypatch):
    monkeypatch.setenv("DEMO_DAYS", "0")  # the club's history does not matter here
    run_demo()
    output = run_demo()
    assert "Demo tournament already present" in output
    assert Tournament.objects.count() == 1
