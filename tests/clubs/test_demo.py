"""The demo club (``clubs.demo``): eight players, three tables, hands the engine settled (its
history of club evenings, ``clubs.demo_history``, is tested in ``test_demo_history.py``)."""

import pytest
from django.contrib.auth import get_user_model

from clubs.demo import PLAYERS, SLUG
from clubs.demo_history import NOTE, REGULARS
from clubs.models import (
    Bettor,
    Club,
    Hand,
    HandRevision,
    Membership,
    Payment,
    Player,
    Role,
    Seat,
    TableSession,
)
from scoring.engine.settle import settle
from scoring.models import RulesetSnapshot
from tests.core.test_demo_command import run_demo

pytestmark = pytest.mark.django_db


def three_tables(club):
    """The demo club's own three tables (not its history, not the tournament's)."""
    return club.sessions.filter(tournament_table__isnull=True).exclude(notes__startswith=NOTE)


def demo_counts() -> dict[str, int]:
    models = (Club, Player, Membership, TableSession, Seat, Bettor, Hand, HandRevision, Payment,
              RulesetSnapshot)  # fmt: skip
    return {m.__name__: m.objects.count() for m in models}


def test_demo_creates_the_public_club():
    output = run_demo()
    club = Club.objects.get(slug=SLUG)
    assert club.is_public and club.name == "成都茶馆麻将社" and club.ruleset.preset == "chengdu"
    assert f"Created demo club {club.name}" in output
    # its eight players and the six regulars of its evenings
    names = set(club.memberships.values_list("player__name", flat=True))
    assert names == {*PLAYERS, *REGULARS}
    owner = club.memberships.get(role=Role.OWNER)
    assert owner.player.user.username == "admin"
    # the demo tournament it hosts adds eight guests: the eight play there, the regulars not
    assert Player.objects.count() == 8 + 6 + 8
    assert set(Player.objects.filter(entries__isnull=True).values_list("name", flat=True)) == set(
        REGULARS
    )
    sessions = three_tables(club)
    assert sessions.count() == 3
    assert sessions.filter(status=TableSession.Status.CLOSED).count() == 2
    open_session = sessions.get(status=TableSession.Status.OPEN)
    assert open_session.hands.count() >= 2
    for session in sessions:
        assert session.seats.count() == 4
        assert session.hands.exists()


def test_demo_hands_are_settled_by_the_engine_and_varied():
    run_demo()
    hands = Hand.objects.filter(session__in=three_tables(Club.objects.get(slug=SLUG)))
    assert hands.count() == 7
    kongs, multi_winner, draws = set(), 0, 0
    for h in hands:
        # the stored settlement is the engine's, and it replays identically
        assert settle(h.record).as_dict() == h.settlement
        assert h.payments.count() == len(h.settlement["payments"])
        assert h.revisions.get().action == "created"
        for event in h.record["events"]:
            if event["type"] == "kong":
                kongs.add(event["kind"])
            elif len(event["winners"]) > 1:
                multi_winner += 1
        if h.record.get("draw"):
            draws += 1
            reasons = {p["reason"] for p in h.settlement["payments"]}
            assert "chajiao" in reasons
    assert kongs == {"concealed", "direct", "added"}
    assert multi_winner >= 1  # 一炮多响
    assert draws >= 1
    assert Payment.objects.filter(reason="huazhu").exists()
    bettor_payments = Payment.objects.filter(reason="bettor")  # only these tables bet
    assert bettor_payments.exists()
    assert bettor_payments.filter(payee_bettor__isnull=False).exists()
    assert bettor_payments.filter(payer_bettor__isnull=False).exists()
    # both kinds of 叫马 bettor: a player of the service and a guest
    bettor_session = hands.filter(record__bettors__isnull=False).first().session
    kinds = {b.player_id is not None for b in bettor_session.bettors.all()}
    assert kinds == {True, False}


def test_demo_club_is_created_once():
    run_demo()
    before = demo_counts()
    output = run_demo()
    assert demo_counts() == before
    assert "nothing added" in output


def test_demo_club_uses_an_existing_player_of_the_admin():
    user = get_user_model().objects.create_user(username="admin", password="x")
    Player.objects.create(name="管理员", user=user)
    run_demo()
    club = Club.objects.get(slug=SLUG)
    assert club.memberships.get(role="owner").player.name == "管理员"
    assert club.memberships.count() == 8 + len(REGULARS)
