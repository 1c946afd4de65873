"""The demo club's history (``clubs.demo_history``): months of club evenings recorded through
the services, every hand settled by the engine, with the ratings, the statistics' lines and
the awards that follow from them; and ``core.demo.each_task_once``, which runs each follow-up
once."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone

from clubs import signals
from clubs.demo import SLUG
from clubs.demo_history import (
    DAYS,
    NOTE,
    SHOWCASE,
    TEMPLATES,
    transformed,
    variants,
)
from clubs.models import Club, Hand, Payment, TableSession
from clubs.services.hands import hand_record
from clubs.services.sessions import session_close
from core.demo import each_task_once
from core.models import OutboxMessage
from ratings.models import Rating, SessionLine, WinLine
from scoring.engine.settle import settle
from tests.clubs.factories import TableSessionFactory, UserFactory
from tests.clubs.records import PINGHU
from tests.core.test_demo_command import run_demo

CHENGDU = {"ruleset": "chengdu", "base": 1, "mode": "xuezhan"}


@pytest.mark.parametrize("template", TEMPLATES + SHOWCASE, ids=lambda t: t.name)
def test_every_template_is_a_finished_hand_under_every_transformation(template):
    """Rotated to any dealer, with its suits renamed and its ranks mirrored, a template is
    still a hand the engine accepts, and settles the same way: the same patterns, the same
    amounts, each seat's total moved with the seats."""
    base = settle({**CHENGDU, **template.record})
    assert base.finished
    patterns = sorted((w.valuation.pattern, w.amount) for w in base.wins)
    for dealer in range(4):
        for suits, mirror in variants():
            record = transformed(template.record, dealer=dealer, suits=suits, mirror=mirror)
            assert record["dealer"] == dealer
            settled = settle({**CHENGDU, **record})
            assert settled.finished
            assert sorted((w.valuation.pattern, w.amount) for w in settled.wins) == patterns
            moved = [settled.seat_totals[(s + dealer) % 4] for s in range(4)]
            assert moved == list(base.seat_totals)


def test_a_transformation_renames_suits_mirrors_ranks_and_moves_seats():
    record = {
        "dealer": 0,
        "events": [
            {"type": "kong", "seat": 3, "kind": "direct", "tile": "8p", "from": 0},
            {"type": "win", "from": 1, "tile": "2m", "situation": [],
             "winners": [{"seat": 2, "concealed": "13m", "melds": [
                 {"kind": "pung", "tile": "1s", "concealed": False}]}]},
        ],
        "draw": {"hands": {"3": {"declared": "not_ready"}}},
    }  # fmt: skip
    out = transformed(record, dealer=2, suits="spm", mirror=True)
    # m→s, p→p, s→m; 1↔9, 2↔8, 3↔7; seat s → s + 2
    assert out == {
        "dealer": 2,
        "events": [
            {"type": "kong", "seat": 1, "kind": "direct", "tile": "2p", "from": 2},
            {"type": "win", "from": 3, "tile": "8s", "situation": [],
             "winners": [{"seat": 0, "concealed": "97s", "melds": [
                 {"kind": "pung", "tile": "9m", "concealed": False}]}]},
        ],
        "draw": {"hands": {"1": {"declared": "not_ready"}}},
    }  # fmt: skip
    assert len(variants()) == 12  # six renamings of the suits, mirrored or not


@pytest.mark.django_db
def test_the_history_is_months_of_evenings_the_engine_settled(
    api_client, django_capture_on_commit_callbacks, in_process_tasks, demo_clock
):
    with django_capture_on_commit_callbacks(execute=True):  # as when the command commits
        output = run_demo()
    assert "Added the demo club's history:" in output
    club = Club.objects.get(slug=SLUG)
    zone = ZoneInfo(club.time_zone)
    now = timezone.now()
    history = club.sessions.filter(notes__startswith=NOTE)
    # one or two evenings a week for DAYS days (which days depends on today's weekday), two
    # or three tables each
    assert 30 <= history.count() <= 100
    assert not history.filter(status=TableSession.Status.OPEN).exists()
    starts = list(history.values_list("started_at", flat=True))
    assert all(now - timedelta(days=DAYS + 1) < at < now for at in starts)
    evenings = {at.astimezone(zone).date() for at in starts}
    assert len(evenings) >= 14
    today = now.astimezone(zone).date()
    local = [at.astimezone(zone) for at in starts]
    # Tuesday and Friday evenings, Saturday afternoons (a month's first days: one earlier today)
    assert all(at.hour in (14, 19) for at in local if at.date() != today)
    # one table in ten kept only its totals; the others 6–12 hands each
    totals_only = history.filter(results__isnull=False).distinct()
    assert totals_only.count() == (history.count() + 6) // 10
    assert not Hand.objects.filter(session__in=totals_only).exists()
    played = Counter(Hand.objects.filter(session__in=history).values_list("session_id", flat=True))
    assert len(played) == history.count() - totals_only.count()
    assert all(6 <= n <= 12 for n in played.values())

    hands = list(Hand.objects.filter(session__in=history))
    kongs, situations, declared_draws, reasons = set(), set(), set(), set()
    multi_winner = self_draws = declared_wins = draws = 0
    for h in hands:
        # the engine's settlement, stored as it settles the record again; no tile five times
        assert settle(h.record).as_dict() == h.settlement
        for event in h.record["events"]:
            if event["type"] == "kong":
                kongs.add(event["kind"])
                continue
            situations.update(event["situation"])
            multi_winner += len(event["winners"]) > 1
            self_draws += event["from"] is None
            declared_wins += sum("declared" in w for w in event["winners"])
        if h.record.get("draw"):
            draws += 1
            declared_draws.update(
                x["declared"] for x in h.record["draw"]["hands"].values() if "declared" in x
            )
        reasons.update(p["reason"] for p in h.settlement["payments"])
    assert kongs == {"concealed", "direct", "added"}
    assert situations == {"kong_flower", "kong_discard", "robbing_kong"}
    assert declared_draws == {"huazhu", "not_ready", "ready"}
    assert multi_winner >= 5 and self_draws >= 50 and declared_wins >= 30 and draws >= 20
    assert reasons >= {"win", "self_draw", "kong_concealed", "kong_direct", "kong_added",
                       "kong_transfer", "huazhu", "chajiao", "kong_refund"}  # fmt: skip
    assert Payment.objects.filter(hand__in=hands).count() == sum(
        len(h.settlement["payments"]) for h in hands
    )

    # the statistics' lines and the ratings followed, through the queued refreshes
    assert not OutboxMessage.objects.exists()
    finished = club.sessions.filter(
        status=TableSession.Status.CLOSED, tournament_table__isnull=True
    )
    assert SessionLine.objects.filter(club=club, kind="club").count() == 4 * finished.count()
    wins = WinLine.objects.filter(club=club, kind="club")
    assert set(wins.values_list("pattern", flat=True)) == {
        "pinghu", "duiduihu", "qingyise", "qidui", "longqidui", "qingdui", "qingqidui",
        "qinglongqidui",
    }  # fmt: skip
    members = set(club.memberships.values_list("player_id", flat=True))
    assert set(wins.values_list("player_id", flat=True)) == members  # everyone wins sometimes
    assert wins.filter(verified=False).exists() and wins.filter(verified=True).exists()
    club_ratings = Rating.objects.filter(pool__club=club, pool__tournament__isnull=True)
    assert set(club_ratings.values_list("player_id", flat=True)) == members

    ranking = api_client.get(f"/api/v1/clubs/{SLUG}/ranking/").json()
    assert len(ranking["rows"]) == len(members)
    assert all(r["rating"] is not None and r["hands"] > 0 for r in ranking["rows"])
    assert any(not r["provisional"] for r in ranking["rows"])
    first = now.astimezone(zone).date().replace(day=1)
    this_month = api_client.get(f"/api/v1/clubs/{SLUG}/ranking/", {"from": first.isoformat()})
    assert this_month.status_code == 200 and this_month.json()["rows"]
    awards = {
        a["code"]: a for a in api_client.get(f"/api/v1/clubs/{SLUG}/awards/").json()["awards"]
    }
    assert [code for code, a in awards.items() if not a["winners"]] == []
    # the biggest hand of all is a capped hand self-drawn (8 + 1): the history's one 清七对
    # 自摸, and the second table's 杠上花 清一色 1根
    assert {w["value"] for w in awards["grand_slam"]["winners"]} == {9}
    assert all(w["hand"] for w in awards["grand_slam"]["winners"])


SHANGHAI = ZoneInfo("Asia/Shanghai")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "instant",
    [
        datetime(2026, 12, 1, 0, 30, tzinfo=SHANGHAI),  # a month's first minutes
        datetime(2026, 11, 30, 23, 59, tzinfo=SHANGHAI),  # a month's last minute
        datetime(2027, 1, 1, 9, 0, tzinfo=SHANGHAI),  # 1 January: a new year, a new month
        datetime(2026, 12, 6, 15, 0, tzinfo=SHANGHAI),  # a Sunday
        datetime(2026, 12, 5, 23, 59, tzinfo=SHANGHAI),  # 23:59 in the club's zone
        datetime(2026, 12, 5, 16, 30, tzinfo=UTC),  # the same day seen from UTC: 00:30 next day
    ],
    ids=str,
)
def test_the_history_holds_whatever_the_day_it_is_built(
    instant, monkeypatch, api_client, django_capture_on_commit_callbacks, in_process_tasks
):
    """Built on any day, at any hour: every table closed, in the past, within its days, each
    hand as the engine settles it, totals that sum to zero; its ratings, lines and awards
    follow; and the ranking of "this month" in the club's zone has rows (the demo's promise to
    a newcomer)."""
    monkeypatch.setenv("DEMO_DAYS", "21")
    with time_machine.travel(instant, tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            run_demo()
        club = Club.objects.get(slug=SLUG)
        zone = ZoneInfo(club.time_zone)
        now = timezone.now()
        history = club.sessions.filter(notes__startswith=NOTE)
        assert history.exists()
        assert not history.filter(status=TableSession.Status.OPEN).exists()
        starts = list(history.values_list("started_at", flat=True))
        assert all(now - timedelta(days=22) < at < now for at in starts), (now, starts)
        for session in history:
            hands = list(session.hands.all())
            assert all(settle(h.record).as_dict() == h.settlement for h in hands)
            if not hands:  # a table that kept only its totals: they sum to zero
                assert sum(session.results.values_list("total", flat=True)) == 0
        assert not OutboxMessage.objects.exists()
        members = set(club.memberships.values_list("player_id", flat=True))
        rated = Rating.objects.filter(pool__club=club, pool__tournament__isnull=True)
        assert set(rated.values_list("player_id", flat=True)) <= members and rated.exists()
        closed = club.sessions.filter(
            status=TableSession.Status.CLOSED, tournament_table__isnull=True
        )
        assert SessionLine.objects.filter(club=club, kind="club").count() == 4 * closed.count()
        first = now.astimezone(zone).date().replace(day=1)
        this_month = api_client.get(f"/api/v1/clubs/{SLUG}/ranking/", {"from": first.isoformat()})
        assert this_month.status_code == 200 and this_month.json()["rows"]
        assert api_client.get(f"/api/v1/clubs/{SLUG}/awards/").status_code == 200


@pytest.mark.django_db
def test_the_history_comes_once_and_joins_a_demo_club_without_one(monkeypatch, demo_clock):
    monkeypatch.setenv("DEMO_DAYS", "0")
    run_demo()
    club = Club.objects.get(slug=SLUG)
    assert not club.sessions.filter(notes__startswith=NOTE).exists()
    monkeypatch.setenv("DEMO_DAYS", "30")
    output = run_demo()
    assert "Demo club already present" in output and "Added the demo club's history" in output
    count = club.sessions.filter(notes__startswith=NOTE).count()
    assert count > 0
    assert all(
        at > timezone.now() - timedelta(days=31)
        for at in club.sessions.filter(notes__startswith=NOTE).values_list("started_at", flat=True)
    )
    output = run_demo()
    assert "Added the demo club's history" not in output
    assert club.sessions.filter(notes__startswith=NOTE).count() == count


@pytest.mark.django_db
def test_each_task_once_runs_each_follow_up_once_after_the_block(in_process_tasks):
    """Three hands and a close at one table, one hand at another: each table's refresh runs
    once, after the last write, and what it asks for in turn (the ratings' refresh) too."""
    a, b = TableSessionFactory(), TableSessionFactory()
    user = UserFactory()
    seen: list[int] = []

    def follow(*, session_id, **_):
        seen.append(session_id)

    signals.session_changed.connect(follow)
    try:
        with each_task_once():
            for _ in range(3):
                hand_record(session=a, data=PINGHU, user=user)
            hand_record(session=b, data=PINGHU, user=user)
            session_close(session=a)
            assert seen == []  # nothing ran yet: the writes queued their tasks
            # a's four writes share one message (FOLLOW_UP_COALESCE_SECONDS), b's is its own
            assert OutboxMessage.objects.count() == 2
    finally:
        signals.session_changed.disconnect(follow)
    assert seen == [a.pk, b.pk]
    assert not OutboxMessage.objects.exists()
    # the second round: the ratings' refresh of the finished table wrote its lines
    assert SessionLine.objects.filter(session=a).count() == 4
    assert not SessionLine.objects.filter(session=b).exists()  # still open: not finished
