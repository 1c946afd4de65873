"""The round trip: a club exported, imported into an empty database, exported again gives the
same file (``exported_at`` apart), and what the file does not carry (payments, ratings,
standings) comes out the same too.

The 10,000-hand round trip is ``make bench`` (``tests/bench/bench_exchange.py``, which prints its
time); here a generated club of 1,008 hands and the demo club with a correction, a deletion and
an unlocked round.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Club, Hand, HandRevision, Payment, Player
from ratings.services import club_recompute
from tests.exchange.conftest import derived, round_trip, without_moment
from tests.ratings.generate import generated_club

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_generated_club_of_a_thousand_hands_comes_back_the_same():
    # 63 sessions of 16 hands (1,008 hands) and 12 entered as totals, 40 players
    gen = generated_club(
        players=40, sessions=75, hands_per_session=16, hand_sessions=63, slug="generated"
    )
    club_recompute(club_id=gen.club.pk)
    before = derived("generated")
    assert len(before["payments"]) > 1008 and before["ratings"]

    first, second, report = round_trip(gen.club)

    assert without_moment(second) == without_moment(first)
    assert derived("generated") == before
    assert report.counts["hands"] == report.counts["hands_settled"] == 1008
    assert sum(len(s["results"]) for s in first["sessions"]) == 12 * 4
    assert report.rating_note == ""


def test_the_demo_club_comes_back_the_same_with_its_tournament_and_history(demo_club):
    before = derived(demo_club.slug)
    deleted = Hand.objects.filter(session__club=demo_club, is_deleted=True).count()
    corrected = HandRevision.objects.filter(
        hand__session__club=demo_club, action="corrected"
    ).count()
    assert deleted == 1 and corrected == 2

    first, second, report = round_trip(demo_club)

    assert without_moment(second) == without_moment(first)
    assert derived(demo_club.slug) == before
    club = Club.objects.get(slug=demo_club.slug)
    assert Hand.objects.filter(session__club=club, is_deleted=True).count() == deleted
    assert HandRevision.objects.filter(hand__session__club=club, action="corrected").count() == 2
    # a deleted hand has no payments, its history stays
    assert not Payment.objects.filter(hand__session__club=club, hand__is_deleted=True).exists()
    tournament = first["tournaments"][0]
    assert [u["reason"] for u in tournament["rounds_played"][0]["unlocks"]] == [
        "a wrong tile at table 2"
    ]
    assert report.counts["tournaments"] == 1
    # a revision whose record is the hand's is written without it: the deleted hand's too;
    # the two corrected hands' first versions are written with theirs
    hands = [h for s in first["sessions"] for h in s["hands"]]
    kept = [r for h in hands for r in h["revisions"] if "record" in r]
    assert [(r["revision"], r["action"]) for r in kept] == [(1, "created")] * 2


def test_logins_come_as_usernames_without_a_password(demo_club):
    first, _, _ = round_trip(demo_club)
    assert [u["username"] for u in first["logins"]] == ["admin"]
    admin = get_user_model().objects.get(username="admin")
    assert not admin.has_usable_password()
    assert not admin.is_superuser and not admin.is_staff
    owner = Club.objects.get(slug=demo_club.slug).memberships.get(role="owner").player
    assert owner.user == admin


def test_public_only_leaves_out_logins_and_the_organisers_notes(demo_club):
    notes = demo_club.sessions.exclude(notes="").count()
    assert notes
    first, second, _ = round_trip(demo_club, public_only=True)
    assert without_moment(second) == without_moment(first)
    assert first["public_only"] is True and first["logins"] == []
    assert all(p["login"] is None for p in first["players"])
    sessions = first["sessions"]
    assert all(s["notes"] == "" and s["created_by"] is None for s in sessions)
    hands = [h for s in sessions for h in s["hands"]]
    assert all(h["entered_by"] is None and h["deleted_reason"] == "" for h in hands)
    assert all(r["reason"] == "" and r["changed_by"] is None for h in hands for r in h["revisions"])
    unlocks = [u for t in first["tournaments"] for r in t["rounds_played"] for u in r["unlocks"]]
    assert unlocks and all(u["reason"] == "" and u["unlocked_by"] is None for u in unlocks)
    assert not get_user_model().objects.exists()
    assert Player.objects.filter(user__isnull=False).count() == 0
