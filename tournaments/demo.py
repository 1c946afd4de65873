"""Demo data for ``manage.py demo``: a public 16-player tournament hosted by the demo club.

Round 1 is played hand by hand (two hands per table, settled by the engine), round 2 by
table totals, and round 3 is seated, so a newcomer sees standings at once. Seating and
standings are run in-process here (the demo must not wait for a worker); the tasks queued on
commit find the work done. Idempotent: nothing is created when the slug exists.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from clubs.demo import PLAYERS as CLUB_PLAYERS
from clubs.demo import SLUG as CLUB_SLUG
from clubs.demo import TABLE_ONE, TABLE_THREE
from clubs.models import Club
from clubs.services.hands import hand_record
from clubs.services.sessions import seats_repair
from core.demo import DemoReport
from core.jobs import job_succeeded
from tournaments import services
from tournaments.models import Round, Tournament

SLUG = "chengdu-open-2026"
NAME = "2026 成都血战公开赛"
#: eight guests join the demo club's eight players
GUESTS = ("周杰", "吴婷", "徐涛", "孙丽", "马超", "朱琳", "胡军", "郭敏")
#: round 2 table totals, rotated from table to table (each sums to zero)
TOTALS = (36, 8, -12, -32)
#: round 1: the hands each table plays (seat-based records, so any four players can play them)
ROUND_ONE = (
    [TABLE_ONE[0], TABLE_THREE[0]],
    [TABLE_THREE[1], TABLE_ONE[1]],
    [TABLE_ONE[1], TABLE_THREE[0]],
    [TABLE_THREE[0], TABLE_ONE[0]],
)


@dataclass
class TournamentSummary:
    tournament: Tournament | None
    rounds: int = 0
    hands: int = 0

    def __str__(self) -> str:
        if self.tournament is None:
            return "Demo tournament already present (or no demo club): nothing added."
        return (
            f"Created demo tournament {self.tournament.name} ({self.tournament.slug}): "
            f"16 players, {self.rounds} rounds seated, {self.hands} hands recorded."
        )


def _seat(round_: Round) -> Round:
    result = services.round_seat(round_id=round_.pk)
    job_succeeded(str(round_.task_id), result)
    round_.refresh_from_db()
    return round_


@transaction.atomic
def demo_tournament_create(*, username: str) -> TournamentSummary:
    club = Club.objects.filter(slug=CLUB_SLUG).first()
    if club is None or Tournament.objects.filter(slug=SLUG).exists():
        return TournamentSummary(tournament=None)
    user = get_user_model().objects.get(username=username)
    tournament = services.tournament_create(
        name=NAME, slug=SLUG, user=user, club=club, rounds=4, hands_per_table=2,
        seating=Tournament.Seating.BALANCED, seed=2026,
    )  # fmt: skip
    # the club's eight founding players (its history's regulars stay home) and eight guests
    members = club.memberships.select_related("player").order_by("pk")[: len(CLUB_PLAYERS)]
    for i, membership in enumerate(members):
        services.registration_create(
            tournament=tournament, player=membership.player, seed_rating=1600 - 10 * i
        )
    for name in GUESTS:
        services.registration_create(tournament=tournament, name=name)
    summary = TournamentSummary(tournament=tournament)

    one = _seat(services.round_start(tournament=tournament))
    for table, hands in zip(one.tables.select_related("session"), ROUND_ONE, strict=True):
        for data in hands:
            hand_record(session=table.session, data=data, user=user)
            summary.hands += 1

    two = _seat(services.round_start(tournament=tournament))
    for k, table in enumerate(two.tables.select_related("session").order_by("number")):
        seats = list(table.session.seats.order_by("number"))
        scores = [{"player": s.player_id, "score": TOTALS[(k + s.number) % 4]} for s in seats]
        services.table_result_enter(table=table, scores=scores, user=user)

    three = _seat(services.round_start(tournament=tournament))
    # two players sat down at each other's places before the first tile: the seats put right
    first = three.tables.select_related("session").get(number=1).session
    seats_repair(session=first, order=[1, 0, 2, 3], reason="入座时东南两家坐反了", user=user)
    summary.rounds = 3
    services.standings_compute(tournament_id=tournament.pk)
    return summary


def build_demo(*, username: str) -> DemoReport:
    """``manage.py demo``'s step for this app (see ``core.demo``)."""
    summary = demo_tournament_create(username=username)
    t = summary.tournament
    links = (("standings", f"/api/v1/tournaments/{t.slug}/standings/"),) if t else ()
    return DemoReport(str(summary), created=t is not None, links=links)
