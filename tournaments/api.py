"""Tournaments API: tournaments, registrations, rounds (seated by a Celery task), table
results, standings (the latest snapshot), and the status of background tasks.

Access follows the tournament's club: its organisers direct (``Role.ORGANISER``), its referees
give and revoke penalties (``Role.REFEREE``), its scorers enter results (``Role.SCORER``); a
public tournament is readable by everyone, another one by
the club's members only (to anyone else it does not exist).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api.sessions import session_response
from clubs.models import Role
from clubs.permissions import authorize
from clubs.selectors import has_role
from clubs.serializers import SessionOutSerializer
from core.api import ApiView, CSVCapableView
from core.errors import NotAuthenticated, NotFound
from core.models import TaskRecord
from tournaments import selectors, services
from tournaments.models import Penalty, Registration, Round, Substitution, Table, Tournament
from tournaments.serializers import (
    ClockExtendInSerializer,
    ClockOutSerializer,
    ClockStartInSerializer,
    DisputeInSerializer,
    DisputeOutSerializer,
    PenaltyInSerializer,
    PenaltyOutSerializer,
    PenaltyRevokeInSerializer,
    RegistrationInSerializer,
    RegistrationOutSerializer,
    RegistrationUpdateSerializer,
    ReseatInSerializer,
    RoundDetailSerializer,
    RoundOutSerializer,
    RoundUnlockOutSerializer,
    StandingsOutSerializer,
    SubstituteInSerializer,
    SubstitutionOutSerializer,
    TableCardOutSerializer,
    TableResultInSerializer,
    TaskAcceptedSerializer,
    TournamentInSerializer,
    TournamentOutSerializer,
    TournamentUpdateSerializer,
    UnlockInSerializer,
    standings_csv_rows,
)

FORMAT_PARAM = OpenApiParameter("format", str, enum=["json", "csv"], description="csv: a table")


def tournament_for(request: Request, slug: str, role: str | None = None) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club", "ruleset"), slug=slug)
    if role is None:
        if not selectors.can_read_tournament(request.user, tournament):
            raise NotFound("no such tournament")
        return tournament
    if not selectors.can_read_tournament(request.user, tournament):
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        raise NotFound("no such tournament")
    authorize(request, tournament.club, role)
    return tournament


def round_for(request: Request, slug: str, number: int, role: str | None = None) -> Round:
    tournament = tournament_for(request, slug, role)
    round_ = get_object_or_404(tournament.round_set, number=number)
    round_.tournament = tournament
    return round_


def table_for(request: Request, slug: str, number: int, table: int, role=None) -> Table:
    """A table addressed within its round (its round and session read with it)."""
    round_ = round_for(request, slug, number, role)
    found = get_object_or_404(
        round_.tables.select_related("session__club", "session__ruleset"), number=table
    )
    found.round = round_
    return found


def accepted(task: TaskRecord, **extra: Any) -> Response:
    body = {"task": f"/api/v1/tasks/{task.pk}", "task_id": str(task.pk), **extra}
    return Response(body, status=202, headers={"Location": body["task"]})


def _annotated(qs):
    return qs.annotate(
        rounds_seated=Count("round_set", filter=Q(round_set__status=Round.Status.SEATED),
                            distinct=True),
        players=Count("registrations", filter=Q(registrations__status="active"), distinct=True),
    ).order_by("-created_at", "-id")  # fmt: skip


class TournamentListView(ApiView):
    """Tournaments you can see; create one (in a club you organise, or with a club of its own)."""

    pages = True

    @extend_schema(responses=TournamentOutSerializer(many=True))
    def get(self, request: Request) -> Response:
        qs = _annotated(selectors.tournaments_visible_to(request.user))
        return self.paginate(request, qs, TournamentOutSerializer)

    @extend_schema(request=TournamentInSerializer, responses={201: TournamentOutSerializer})
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        data = self.valid(TournamentInSerializer, request)
        club = data.pop("club", None)
        if club is not None:
            authorize(request, club, Role.ORGANISER)
        tournament = services.tournament_create(user=request.user, club=club, **data)
        out = _annotated(Tournament.objects.filter(pk=tournament.pk)).get()
        return Response(TournamentOutSerializer(out).data, status=201)


class TournamentDetailView(ApiView):
    @extend_schema(responses=TournamentOutSerializer)
    def get(self, request: Request, slug: str) -> Response:
        tournament = tournament_for(request, slug)
        return Response(
            TournamentOutSerializer(_annotated(Tournament.objects).get(pk=tournament.pk)).data
        )

    @extend_schema(request=TournamentUpdateSerializer, responses=TournamentOutSerializer)
    def patch(self, request: Request, slug: str) -> Response:
        tournament = tournament_for(request, slug, Role.ORGANISER)
        data = self.valid(TournamentUpdateSerializer, request, partial=True)
        services.tournament_update(tournament=tournament, **data)
        return Response(
            TournamentOutSerializer(_annotated(Tournament.objects).get(pk=tournament.pk)).data
        )


class RegistrationListView(ApiView):
    """The players entered; the director enters one (existing by id, or new by name)."""

    pages = True

    @extend_schema(responses=RegistrationOutSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        tournament = tournament_for(request, slug)
        qs = tournament.registrations.select_related("player").order_by("pk")
        status = request.query_params.get("status")
        if status:
            qs = qs.filter(status=status)
        return self.paginate(request, qs, RegistrationOutSerializer)

    @extend_schema(request=RegistrationInSerializer, responses={201: RegistrationOutSerializer})
    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_for(request, slug, Role.ORGANISER)
        data = self.valid(RegistrationInSerializer, request)
        registration = services.registration_create(tournament=tournament, **data)
        return Response(RegistrationOutSerializer(registration).data, status=201)


class RegistrationDetailView(ApiView):
    """One entry, by player id: withdraw (``status: withdrawn``), return, re-rate, pin."""

    def _get(self, request: Request, slug: str, player: int, role=None) -> Registration:
        tournament = tournament_for(request, slug, role)
        return get_object_or_404(
            tournament.registrations.select_related("player"), player_id=player
        )

    @extend_schema(responses=RegistrationOutSerializer)
    def get(self, request: Request, slug: str, player: int) -> Response:
        return Response(RegistrationOutSerializer(self._get(request, slug, player)).data)

    @extend_schema(request=RegistrationUpdateSerializer, responses=RegistrationOutSerializer)
    def patch(self, request: Request, slug: str, player: int) -> Response:
        """An organiser changes an entry; a scorer may tick check-in alone (at the door)."""
        only_check_in = isinstance(request.data, dict) and set(request.data) == {"checked_in"}
        role = Role.SCORER if only_check_in else Role.ORGANISER
        registration = self._get(request, slug, player, role)
        data = self.valid(RegistrationUpdateSerializer, request)
        registration = services.registration_update(registration=registration, **data)
        return Response(RegistrationOutSerializer(registration).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, slug: str, player: int) -> Response:
        """Remove an entry made by mistake (never seated): a player who played is withdrawn."""
        services.registration_delete(registration=self._get(request, slug, player, Role.ORGANISER))
        return Response(status=204)


class RoundListView(ApiView):
    """The rounds so far; POST seats the next one (202: a Celery task does the seating)."""

    @extend_schema(responses=RoundOutSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        tournament = tournament_for(request, slug)
        rounds = list(tournament.round_set.order_by("number"))
        progress = selectors.rounds_progress(tournament, rounds)
        return Response(RoundOutSerializer(progress, many=True).data)

    @extend_schema(request=None, responses={202: TaskAcceptedSerializer})
    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_for(request, slug, Role.ORGANISER)
        round_ = services.round_start(tournament=tournament)
        return accepted(round_.task, round=round_.number)


class RoundDetailView(CSVCapableView):
    """A round's tables: seats in order (seat 0 deals first), each table's session and result."""

    @extend_schema(parameters=[FORMAT_PARAM], responses=RoundDetailSerializer)
    def get(self, request: Request, slug: str, number: int, format=None) -> Response:
        round_ = round_for(request, slug, number)
        if self.wants_csv(request):
            return Response([row._asdict() for row in selectors.seat_rows(round_)])
        return Response(RoundDetailSerializer(selectors.round_detail(round_)).data)


class RoundClockView(ApiView):
    """The round clock: GET it, POST starts it (an organiser), from now."""

    @extend_schema(responses=ClockOutSerializer)
    def get(self, request: Request, slug: str, number: int) -> Response:
        clock = selectors.round_clock(round_for(request, slug, number))
        if clock is None:
            raise NotFound("the round's clock is not started")
        return Response(ClockOutSerializer(clock).data)

    @extend_schema(request=ClockStartInSerializer, responses={201: ClockOutSerializer})
    def post(self, request: Request, slug: str, number: int) -> Response:
        round_ = round_for(request, slug, number, Role.ORGANISER)
        data = self.valid(ClockStartInSerializer, request)
        round_ = services.round_clock_start(round_=round_, minutes=data["minutes"])
        return Response(ClockOutSerializer(selectors.round_clock(round_)).data, status=201)


class RoundClockExtendView(ApiView):
    """Add minutes to a running clock, for every table or one (an organiser)."""

    @extend_schema(request=ClockExtendInSerializer, responses=ClockOutSerializer)
    def post(self, request: Request, slug: str, number: int) -> Response:
        round_ = round_for(request, slug, number, Role.ORGANISER)
        data = self.valid(ClockExtendInSerializer, request)
        round_ = services.round_clock_extend(
            round_=round_, minutes=data["minutes"], table_number=data["table"]
        )
        return Response(ClockOutSerializer(selectors.round_clock(round_)).data)


class RoundReseatView(ApiView):
    """Seat the latest round again (after a withdrawal, say) while nothing is played."""

    @extend_schema(request=ReseatInSerializer, responses={202: TaskAcceptedSerializer})
    def post(self, request: Request, slug: str, number: int) -> Response:
        round_ = round_for(request, slug, number, Role.ORGANISER)
        data = self.valid(ReseatInSerializer, request)
        round_ = services.round_reseat(round_=round_, reason=data["reason"], user=request.user)
        return accepted(round_.task, round=round_.number)


class RoundUnlockView(ApiView):
    """Unlock a round's tables to correct them (they lock when the next round is seated and
    when the tournament is finished); the reason is kept with the round."""

    @extend_schema(request=UnlockInSerializer, responses={201: RoundUnlockOutSerializer})
    def post(self, request: Request, slug: str, number: int) -> Response:
        round_ = round_for(request, slug, number, Role.ORGANISER)
        data = self.valid(UnlockInSerializer, request)
        unlock = services.round_unlock(round_=round_, reason=data["reason"], user=request.user)
        return Response(RoundUnlockOutSerializer(unlock).data, status=201)


class StandingsRevealView(ApiView):
    """Reveal the standings of the hidden last rounds (an organiser): a recompute is queued
    (202), and from it everyone sees them whole."""

    @extend_schema(request=None, responses={202: TaskAcceptedSerializer})
    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_for(request, slug, Role.ORGANISER)
        return accepted(services.standings_reveal(tournament=tournament))


class PenaltyListView(ApiView):
    """The penalties (罚分), revoked ones too; a referee gives one (the standings follow)."""

    @extend_schema(responses=PenaltyOutSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        penalties = selectors.penalties_listed(tournament_for(request, slug))
        return Response(PenaltyOutSerializer(penalties, many=True).data)

    @extend_schema(request=PenaltyInSerializer, responses={201: PenaltyOutSerializer})
    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_for(request, slug, Role.REFEREE)
        data = self.valid(PenaltyInSerializer, request)
        penalty = services.penalty_give(
            tournament=tournament, player_id=data["player"], points=data["points"],
            reason=data["reason"], words=data["words"], round_number=data["round"],
            user=request.user,
        )  # fmt: skip
        return Response(PenaltyOutSerializer(penalty).data, status=201)


class PenaltyRevokeView(ApiView):
    """Revoke a penalty, saying why: it stays in the list, no longer in force."""

    @extend_schema(request=PenaltyRevokeInSerializer, responses=PenaltyOutSerializer)
    def post(self, request: Request, slug: str, pk: int) -> Response:
        tournament = tournament_for(request, slug, Role.REFEREE)
        penalty = get_object_or_404(Penalty, tournament=tournament, pk=pk)
        data = self.valid(PenaltyRevokeInSerializer, request)
        penalty = services.penalty_revoke(penalty=penalty, reason=data["reason"], user=request.user)
        return Response(PenaltyOutSerializer(penalty).data)


class RoundLockView(ApiView):
    """Lock a round's tables again once corrected."""

    @extend_schema(request=None, responses=RoundDetailSerializer)
    def post(self, request: Request, slug: str, number: int) -> Response:
        round_ = round_for(request, slug, number, Role.ORGANISER)
        services.round_lock(round_=round_)
        return Response(RoundDetailSerializer(selectors.round_detail(round_)).data)


class TableResultView(ApiView):
    """A table's result: its session's totals. POST four scores summing to zero (for tables
    that note totals only); hands go to ``/sessions/{session}/hands/`` instead. A table is
    addressed within its round: ``/tournaments/{slug}/rounds/{n}/tables/{k}/result/``."""

    def _table(self, request: Request, slug: str, number: int, table: int, role=None) -> Table:
        return table_for(request, slug, number, table, role)

    @extend_schema(responses=SessionOutSerializer)
    def get(self, request: Request, slug: str, number: int, table: int) -> Response:
        return session_response(request, self._table(request, slug, number, table).session)

    @extend_schema(request=TableResultInSerializer, responses=SessionOutSerializer)
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = self._table(request, slug, number, table, Role.SCORER)
        data = self.valid(TableResultInSerializer, request)
        services.table_result_enter(table=found, scores=data["scores"], user=request.user)
        return session_response(request, found.session)

    put = post


@extend_schema(deprecated=True)
class TableApproveView(ApiView):
    """The scorekeeper approves a done table as it is (an approve gate: it counts from now;
    a later change to it needs approving again). A referee or an organiser."""

    @extend_schema(request=None, responses=SessionOutSerializer)
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = table_for(request, slug, number, table, Role.REFEREE)
        services.table_approve(table=found, user=request.user)
        return session_response(request, found.session)


class TableDisputeView(ApiView):
    """Mark a table disputed for the referee (a scorer): it is not approved until resolved."""

    @extend_schema(request=DisputeInSerializer, responses=DisputeOutSerializer)
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = table_for(request, slug, number, table, Role.SCORER)
        data = self.valid(DisputeInSerializer, request)
        marked = services.table_dispute(table=found, words=data["words"])
        return Response(DisputeOutSerializer(marked).data)


class TableDisputeResolveView(ApiView):
    """The referee resolves a table's dispute, saying how (both are kept)."""

    @extend_schema(request=DisputeInSerializer, responses=DisputeOutSerializer)
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = table_for(request, slug, number, table, Role.REFEREE)
        data = self.valid(DisputeInSerializer, request)
        resolved = services.table_dispute_resolve(table=found, words=data["words"])
        return Response(DisputeOutSerializer(resolved).data)


class TableCardsView(ApiView):
    """The round's table cards (an organiser): each table's link that opens it for its scorer,
    no login, until the round locks (made on first asking)."""

    @extend_schema(responses=TableCardOutSerializer(many=True))
    def get(self, request: Request, slug: str, number: int) -> Response:
        round_ = round_for(request, slug, number, Role.ORGANISER)
        cards = [
            {"number": t.number,
             "url": request.build_absolute_uri(reverse("page-table-card", args=[t.scorer_key]))}
            for t in services.table_cards(round_=round_) if t.scorer_key
        ]  # fmt: skip
        return Response(TableCardOutSerializer(cards, many=True).data)


class SubstituteListView(ApiView):
    """替补: the tournament's substitutes (anyone who reads it); an organiser seats one at a
    table for its absent registered player."""

    @extend_schema(responses=SubstitutionOutSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        tournament = tournament_for(request, slug)
        rows = selectors.substitutes_listed(tournament)
        return Response(SubstitutionOutSerializer(rows, many=True).data)


class TableSubstituteView(ApiView):
    """Seat a substitute at a table for its absent registered player (an organiser): a
    player by id, or a new one by name. Whose result the table is, the tournament's
    ``substitute_counts`` says."""

    @extend_schema(request=SubstituteInSerializer, responses={201: SubstitutionOutSerializer})
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = table_for(request, slug, number, table, Role.ORGANISER)
        data = self.valid(SubstituteInSerializer, request)
        made = services.substitute_seat(
            table=found, absent_id=data["absent"], substitute=data["substitute"],
            name=data["name"], reason=data["reason"], user=request.user,
        )  # fmt: skip
        return Response(SubstitutionOutSerializer(made).data, status=201)


class SubstituteDetailView(ApiView):
    """Undo a substitution (an organiser): the registered player takes his seat back."""

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        tournament = tournament_for(request, slug, Role.ORGANISER)
        found = get_object_or_404(Substitution, table__round__tournament=tournament, pk=pk)
        services.substitute_remove(substitution=found)
        return Response(status=204)


class TableResultByIdView(TableResultView):
    """``/tables/{id}/result/``: the same, by the table's id (kept for existing clients; the
    table's tournament and club are checked as for the address within its round)."""

    def _by_id(self, pk: int) -> tuple[str, int, int]:
        table = get_object_or_404(
            Table.objects.select_related("round__tournament").only(
                "number", "round__number", "round__tournament__slug"
            ),
            pk=pk,
        )
        return table.round.tournament.slug, table.round.number, table.number

    @extend_schema(responses=SessionOutSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return super().get(request, *self._by_id(pk))

    @extend_schema(request=TableResultInSerializer, responses=SessionOutSerializer)
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, *self._by_id(pk))

    put = post


class StandingsView(CSVCapableView):
    """The latest standings snapshot (version and time); POST asks for a recompute (202)."""

    @extend_schema(parameters=[FORMAT_PARAM], responses=StandingsOutSerializer)
    def get(self, request: Request, slug: str, format=None) -> Response:
        tournament = tournament_for(request, slug)
        director = has_role(request.user, tournament.club, Role.REFEREE)
        standings = selectors.latest_standings(tournament, full=director)
        if self.wants_csv(request):
            return Response(standings_csv_rows(standings))
        return Response(StandingsOutSerializer(standings).data)

    @extend_schema(request=None, responses={202: TaskAcceptedSerializer})
    def post(self, request: Request, slug: str, format=None) -> Response:
        tournament = tournament_for(request, slug, Role.ORGANISER)
        return accepted(services.standings_request(tournament_id=tournament.pk, force=True))
