"""The load run's world, built through the project's services on a fresh database.

A public club (``load-teahouse``, the run's preset) with its players and weeks of closed
tables behind it (ratings, statistics and awards to read); a login for each scorer, with its
API token: a table of its own for most, one table for each pair of scorers (they race for the
same hand numbers), one table of the tournament each for the rest; logins for the readers;
the club's tournament (``load-cup``) with its players registered and round 1 seated. The
tasks the services queue run in this process as the world is built (no broker yet); from the
run on, the worker does them.

The hands the scorers post are made here too, before the clock starts (the clients only pick
one): random 血战 hands under the preset (``tests/scoring/engine/records.py``), shown with
their tiles, declared (RULES §6) or some of each, every one settled here first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.authtoken.models import Token

from clubs.models import Club, Hand, Player, Role, TableSession
from clubs.services.clubs import club_create, membership_update, player_create
from clubs.services.hands import SESSION_FIELDS, hand_record
from clubs.services.sessions import session_close, session_create
from core.live import club_channel, tournament_channel
from scoring.engine.settle import settle
from tests.load.config import Config
from tests.scoring.engine.records import declared_twin, random_record
from tournaments import services as tournaments
from tournaments.models import Round, Tournament

CLUB = "load-teahouse"
TOURNAMENT = "load-cup"
#: the 叫马 bettors behind a table that has them (the records name them so)
BETTORS = ("bettor0", "bettor1")


@dataclass(frozen=True)
class Scorer:
    """One scorer's login and where it scores: ``solo`` (its own club table, ``session``),
    ``pair`` (the table ``session`` shared with the other scorer of pair ``pair``) or
    ``tournament`` (table ``table`` of each round)."""

    username: str
    token: str
    kind: str
    session: int | None = None
    bettors: bool = False
    pair: int | None = None
    table: int | None = None


@dataclass
class World:
    club: str
    tournament: str
    organiser: str  # the owner's token: starts the tournament's rounds
    scorers: list[Scorer]
    readers: list[str]  # tokens
    players: list[int]  # the club players a new club table seats
    tournament_players: list[int]
    sessions: list[int]  # club tables a reader may look at
    records: list[dict]  # hands for a table without bettors
    bettor_records: list[dict]  # hands for a table with them
    scorer_users: set[int] = field(default_factory=set)
    #: the live channels the club's and the tournament's pages follow (core.live)
    channels: tuple[str, ...] = ()


def login(username: str):
    user = get_user_model().objects.create_user(username=username)  # no password: a token
    return user, Token.objects.create(user=user).key


def table_records(rnd: random.Random, preset: str, n: int, bettors: bool) -> list[dict]:
    """``n`` finished hands that pay something, a third of them shown, a third declared,
    a third mixed; without the session's own fields (the table supplies them)."""
    out: list[dict] = []
    while len(out) < n:
        shown = random_record(rnd, preset, bettors=rnd.randrange(3) if bettors else 0)
        kind = len(out) % 3
        if kind == 0:
            record = shown
        elif kind == 1:
            record = declared_twin(shown, rnd, share=1.0)
        else:
            record = declared_twin(shown, rnd, share=0.5, draw_share=0.5)
        settled = settle(record)
        if not settled.finished or not settled.payments:
            continue  # a table stores finished hands; and a hand that pays nobody says little
        out.append({k: v for k, v in record.items() if k not in SESSION_FIELDS})
    return out


def build(config: Config) -> World:
    rnd = random.Random(config.seed)
    owner, organiser_token = login("load-owner")
    club = club_create(
        name="负载茶馆 Load teahouse", slug=CLUB, user=owner, ruleset=config.preset,
        visibility=Club.Visibility.PUBLIC,
    )  # fmt: skip
    people = [
        player_create(club=club, name=f"牌友{n:03d}").player
        for n in range(config.club_players + 4 * config.tournament_tables)
    ]
    players, guests = people[: config.club_players], people[config.club_players :]

    records = table_records(rnd, config.preset, config.records, bettors=False)
    bettor_records = table_records(rnd, config.preset, config.bettor_records, bettors=True)

    # weeks of club evenings behind the club: each a closed table of a few hands
    now = timezone.now()
    history = []
    for i in range(config.history_tables):
        with_bettors = rnd.random() < config.bettor_tables
        session = session_create(
            club=club, players=rnd.sample(players, 4), user=owner,
            started_at=now - timedelta(days=2 * (config.history_tables - i), hours=3),
            bettors=[{"guest_name": name} for name in BETTORS] if with_bettors else None,
        )  # fmt: skip
        for _ in range(rnd.randint(4, 8)):
            pool = bettor_records if with_bettors else records
            hand_record(session=session, data=rnd.choice(pool), user=owner)
        session_close(session=session)
        history.append(session.pk)

    scorers: list[Scorer] = []
    scorer_users: set[int] = set()

    def scorer_login(n: int) -> tuple[str, str]:
        username = f"scorer{n:02d}"
        user, token = login(username)
        membership = player_create(club=club, name=username, user=user)
        membership_update(membership=membership, role=Role.SCORER)
        scorer_users.add(user.pk)
        return username, token

    # club tables: seats of their own (a table opened later seats whoever is free)
    seats = iter(players)
    opened = []

    def open_table(with_bettors: bool) -> TableSession:
        session = session_create(
            club=club, players=[next(seats) for _ in range(4)], user=owner,
            bettors=[{"guest_name": name} for name in BETTORS] if with_bettors else None,
        )  # fmt: skip
        opened.append(session.pk)
        return session

    for _ in range(config.solo_scorers):
        with_bettors = rnd.random() < config.bettor_tables
        session = open_table(with_bettors)
        username, token = scorer_login(len(scorers))
        scorers.append(Scorer(username, token, "solo", session.pk, with_bettors))
    for pair in range(config.pairs):
        session = open_table(False)
        for _ in range(2):
            username, token = scorer_login(len(scorers))
            scorers.append(Scorer(username, token, "pair", session.pk, pair=pair))

    # the tournament: its players registered, round 1 seated (here, in process)
    cup = tournaments.tournament_create(
        name="负载杯 Load cup", slug=TOURNAMENT, user=owner, club=club, rounds=config.rounds,
        hands_per_table=config.hands_per_table, mode=TableSession.Mode.XUEZHAN,
    )  # fmt: skip
    for guest in guests:
        tournaments.registration_create(tournament=cup, player=guest)
    first = tournaments.round_start(tournament=cup)
    first.refresh_from_db()
    if first.status != Round.Status.SEATED or first.tables.count() != config.tournament_tables:
        raise RuntimeError(f"round 1 of {TOURNAMENT} was not seated: {first.status}")
    for table in range(1, config.tournament_tables + 1):
        username, token = scorer_login(len(scorers))
        scorers.append(Scorer(username, token, "tournament", table=table))

    readers = []
    for n in range(config.readers):
        user, token = login(f"reader{n:02d}")
        player_create(club=club, name=f"reader{n:02d}", user=user)
        readers.append(token)

    return World(
        club=CLUB, tournament=TOURNAMENT, organiser=organiser_token, scorers=scorers,
        readers=readers, players=[p.pk for p in players],
        tournament_players=[p.pk for p in guests], sessions=history + opened, records=records,
        bettor_records=bettor_records, scorer_users=scorer_users,
        channels=(club_channel(Club.objects.get(slug=CLUB).pk),
                  tournament_channel(Tournament.objects.get(slug=TOURNAMENT).pk)),
    )  # fmt: skip


def sizes() -> dict[str, int]:
    """How big the world is (printed with the figures)."""
    return {
        "players": Player.objects.count(),
        "tables": TableSession.objects.count(),
        "hands": Hand.objects.count(),
    }
