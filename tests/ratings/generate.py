"""A generated club: many players, many finished sessions, some played hand by hand.

Rows are written in bulk, as a club's history would stand in the database after years of
evenings: sessions closed, seats, and either entered totals (zero-sum) or hands whose record
and settlement come from three hands the engine settled (the ``qq`` hands of
``tests/ratings/test_facts.py``), with their payments. Nothing here computes a rating or a
statistic: the code under test does that from these rows.

Players are drawn from "tables of friends" so that a player has frequent opponents, and a few
regulars play far more than the others (a player with 2,000 hands for the profile figure).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from clubs.models import (
    Club,
    Hand,
    Membership,
    Payment,
    Player,
    Seat,
    SessionResult,
    TableSession,
)
from scoring.engine.settle import settle
from tests.clubs.factories import ClubFactory
from tests.ratings.test_facts import DOUBLE_HAND, DRAW_HAND, KONG_HAND

START = datetime.fromisoformat("2025-01-01T19:00:00+08:00")


def _templates(base: int) -> list[tuple[dict, dict]]:
    out = []
    for record in (KONG_HAND, DOUBLE_HAND, DRAW_HAND):
        full = {"ruleset": "qq", "base": base, "mode": "xuezhan", **record}
        out.append((record, settle(full).as_dict()))
    return out


def _zero_sum(rnd: random.Random) -> list[int]:
    a, b, c = (rnd.randint(-60, 60) for _ in range(3))
    return [a, b, c, -(a + b + c)]


@dataclass
class Generated:
    club: Club
    players: list[Player]
    sessions: list[TableSession]
    regular: Player  # the player who plays most

    @property
    def session_ids(self) -> list[int]:
        return [s.pk for s in self.sessions]


def generated_club(
    *,
    players: int,
    sessions: int,
    hands_per_session: int = 0,
    hand_sessions: int | None = None,
    seed: int = 13,
    slug: str | None = None,
) -> Generated:
    """``sessions`` closed sessions of ``players`` players; the first ``hand_sessions`` of them
    (all, by default, when ``hands_per_session`` > 0) played hand by hand, the rest entered as
    totals. Start times are an evening apart, shuffled against the ids (tables are not always
    entered in the order they were played)."""
    rnd = random.Random(seed)
    club = ClubFactory(**({"slug": slug} if slug else {}))
    people = Player.objects.bulk_create(Player(name=f"玩家{i:04d}") for i in range(players))
    Membership.objects.bulk_create(Membership(club=club, player=p) for p in people)
    regular = people[0]
    times = [START + timedelta(hours=6 * i) for i in range(sessions)]
    rnd.shuffle(times)
    groups = max(1, players // 8)
    tables = []
    for _ in range(sessions):
        group = rnd.randrange(groups)
        pool = people[group * 8 : group * 8 + 8] or people
        four = rnd.sample(pool, 4) if len(pool) >= 4 else rnd.sample(people, 4)
        if rnd.random() < 0.1 and regular not in four:  # the regular sits in one table in ten
            four[rnd.randrange(4)] = regular
        tables.append(four)
    rows = TableSession.objects.bulk_create(
        TableSession(
            club=club, started_at=at, ruleset=club.ruleset, base=1,
            status=TableSession.Status.CLOSED, closed_at=at + timedelta(hours=3),
        )
        for at in times
    )  # fmt: skip
    Seat.objects.bulk_create(
        Seat(session=s, number=n, player=p)
        for s, four in zip(rows, tables, strict=True)
        for n, p in enumerate(four)
    )
    n_hand_sessions = (
        (sessions if hand_sessions is None else hand_sessions) if hands_per_session else 0
    )
    templates = _templates(1)
    hands = []
    for s, four in zip(rows[:n_hand_sessions], tables, strict=False):
        for number in range(1, hands_per_session + 1):
            record, settlement = templates[rnd.randrange(len(templates))]
            hands.append((Hand(
                session=s, number=number, record=record, settlement=settlement,
                ruleset_fingerprint=club.ruleset.fingerprint, dealer=0,
            ), settlement, four))  # fmt: skip
    Hand.objects.bulk_create([h for h, _, _ in hands], batch_size=2000)
    Payment.objects.bulk_create(
        (
            Payment(
                hand=h,
                position=i,
                payer_player=four[int(p["payer"][1])],
                payee_player=four[int(p["payee"][1])],
                amount=p["amount"],
                reason=p["reason"],
                event=p["event"],
            )  # fmt: skip
            for h, settlement, four in hands
            for i, p in enumerate(settlement["payments"])
        ),
        batch_size=5000,
    )
    SessionResult.objects.bulk_create(
        (
            SessionResult(session=s, player=p, total=t)
            for s, four in zip(rows[n_hand_sessions:], tables[n_hand_sessions:], strict=True)
            for p, t in zip(four, _zero_sum(rnd), strict=True)
        ),
        batch_size=5000,
    )
    return Generated(club, people, rows, regular)
