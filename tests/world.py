"""A small world of real objects for the fuzzers (tests/core/test_api_fuzz.py,
tests/pages/test_page_fuzz.py): what a path may name, so that a generated id hits something.

It is the demo (``manage.py demo`` without its months of evenings: the public club
成都茶馆麻将社 with its players, closed and open tables, hands of every kind, 叫马 bettors, a
drawn hand; the public tournament with a round played by hands, one by totals, one seated),
and beside it a members-only club with a table, a hand and a private tournament (round 1
seated); in the demo club an open table with a corrected and a deleted hand, open invitations
and logins of every role. The callers run the demo's follow-ups in process
(``in_process_tasks``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from io import StringIO

from django.core.management import call_command

from clubs.demo import SLUG as CLUB_SLUG
from clubs.models import Club, Hand, Invitation, Membership, Player, Role, TableSession
from clubs.selectors import session_day
from clubs.services.hands import hand_correct, hand_delete, hand_record
from clubs.services.invitations import invitation_create, reset_link_create
from clubs.services.sessions import session_guest_link
from core.models import TaskRecord
from scoring.engine import PRESETS
from tests.clubs.factories import ClubFactory, TableSessionFactory
from tests.helpers import login, member_login
from tests.scoring.engine.records import PINGHU
from tournaments import services as tournament_services
from tournaments.demo import SLUG as TOURNAMENT_SLUG
from tournaments.models import Penalty, Registration, Round, Substitution, Table, Tournament


@dataclass
class World:
    """The objects, and the values a URL may use to name them."""

    club: Club
    private_club: Club
    tournament: Tournament
    logins: dict[str, object]  # role -> user (and "outsider")
    #: what a path may name -> the real values (slugs, ids, numbers, tokens, days)
    names: dict[str, list] = field(default_factory=dict)


def numbers(values) -> list[int]:
    return sorted({v for v in values if v is not None})


def build_world(monkeypatch) -> World:
    monkeypatch.setenv("DEMO_DAYS", "0")
    call_command("demo", stdout=StringIO())
    club = Club.objects.get(slug=CLUB_SLUG)
    tournament = Tournament.objects.get(slug=TOURNAMENT_SLUG)
    logins = {role: member_login(club, role, f"fuzz-{role}") for role in Role.values}
    logins["outsider"] = login("fuzz-outsider")
    organiser = logins[Role.ORGANISER]

    # an open table of the club's players (普通 mode): a hand corrected (its history), one
    # deleted (?deleted=)
    players = [m.player for m in club.memberships.order_by("pk")[:4]]
    open_table = TableSessionFactory(club=club, seated=players)
    for _ in range(3):
        hand_record(session=open_table, data=PINGHU, user=organiser)
    first, _, last = open_table.hands.order_by("number")
    hand_correct(hand=first, data=PINGHU, reason="fuzz: the same again", user=organiser)
    hand_delete(hand=last, reason="fuzz: entered twice", user=organiser)

    private_club = ClubFactory(slug="fuzz-private", visibility=Club.Visibility.MEMBERS)
    private_table = TableSessionFactory(club=private_club)
    private_owner = member_login(private_club, Role.OWNER, "fuzz-private-owner")
    hand_record(session=private_table, data=PINGHU, user=private_owner)
    private_cup = tournament_services.tournament_create(
        name="Fuzz cup", slug="fuzz-cup", user=private_owner, club=private_club, rounds=2,
        is_public=False,
    )  # fmt: skip
    for i in range(4):
        tournament_services.registration_create(tournament=private_cup, name=f"guest {i}")
    tournament_services.round_seat(
        round_id=tournament_services.round_start(tournament=private_cup).pk
    )
    tournament_services.private_keys(tournament=private_cup)
    # a penalty given and one revoked, on the private cup
    for revoked in (False, True):
        penalty = tournament_services.penalty_give(
            tournament=private_cup, player_id=private_cup.registrations.first().player_id,
            points=1, reason="late", words="fuzz", round_number=1, user=private_owner,
        )  # fmt: skip
        if revoked:
            tournament_services.penalty_revoke(penalty=penalty, reason="fuzz", user=private_owner)

    # the private cup's table card
    tournament_services.table_cards(round_=private_cup.round_set.get())
    # a substitute at the private cup's table
    tournament_services.substitute_seat(
        table=private_cup.round_set.get().tables.get(),
        absent_id=private_cup.registrations.last().player_id, name="fuzz reserve",
        user=private_owner,
    )  # fmt: skip

    invitation_create(club=club, by=organiser, role=Role.SCORER)
    member = Membership.objects.get(club=club, player__user=logins[Role.MEMBER])
    reset_link_create(membership=member, by=organiser)

    sessions = list(TableSession.objects.values_list("pk", flat=True))
    world = World(club, private_club, tournament, logins)
    world.names = {
        "club": [club.slug, private_club.slug],
        "tournament": [tournament.slug, private_cup.slug],
        "session": sessions,
        "hand": numbers(Hand.objects.values_list("number", flat=True)),
        "player": list(Player.objects.values_list("pk", flat=True)),
        "membership": list(Membership.objects.values_list("pk", flat=True)),
        "invitation": list(Invitation.objects.values_list("pk", flat=True)),
        "invitation_token": list(Invitation.objects.values_list("token", flat=True)),
        "registration": numbers(Registration.objects.values_list("player_id", flat=True)),
        "penalty": list(Penalty.objects.values_list("pk", flat=True)),
        "substitution": list(Substitution.objects.values_list("pk", flat=True)),
        "icon_size": [180, 192, 512],
        "guest_key": [session_guest_link(session=open_table)],
        "table_key": list(
            Table.objects.exclude(scorer_key=None).values_list("scorer_key", flat=True)
        ),
        "private_key": list(
            Registration.objects.exclude(private_key=None).values_list("private_key", flat=True)
        ),
        "round": numbers(Round.objects.values_list("number", flat=True)),
        "table": numbers(Table.objects.values_list("number", flat=True)),
        "tournament_table": list(Table.objects.values_list("pk", flat=True)),
        "task": [str(t) for t in TaskRecord.objects.values_list("pk", flat=True)],
        "ruleset": list(PRESETS),
        # the evenings, in each club's own time zone
        "date": sorted({session_day(s).isoformat() for s in TableSession.objects.all()}),
    }
    return world
