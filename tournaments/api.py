"""Tournaments API: tournaments, registrations, rounds (seated by a Celery task), table
results, standings (the latest snapshot), and the status of background tasks.

Access follows the tournament's club: its organisers direct (``Role.ORGANISER``), its scorers
enter results (``Role.SCORER``); a public tournament is readable by everyone, another one by
the club's members only (to anyone else it does not exist).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api import ApiView, session_response
from clubs.models import Club, Role, Seat
from clubs.permissions import authorize
from tournaments import selectors, services
from tournaments.models import Registration, Round, Table, TaskRecord, Tournament
from tournaments.serializers import (
    RegistrationInSerializer,
    RegistrationOutSerializer,
    RegistrationUpdateSerializer,
    RoundOutSerializer,
    TableResultInSerializer,
    TaskAcceptedSerializer,
    TaskOutSerializer,
    TournamentInSerializer,
    TournamentOutSerializer,
    TournamentUpdateSerializer,
)

FORMAT_PARAM = OpenApiParameter("format", str, enum=["json", "csv"], description="csv: a table")


class CSVRenderer(BaseRenderer):
    """``?format=csv``: a list of flat rows as a spreadsheet opens it (UTF-8 with BOM)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type=None, renderer_context=None) -> bytes:
        rows = data if isinstance(data, list) else [data]
        out = io.StringIO()
        if rows:
            writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        return ("\ufeff" + out.getvalue()).encode()


class CSVCapableView(ApiView):
    renderer_classes = [JSONRenderer, BrowsableAPIRenderer, CSVRenderer]

    def handle_exception(self, exc):
        # errors keep the project's JSON shape even when a CSV file was asked for
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = JSONRenderer.media_type
        return super().handle_exception(exc)

    @staticmethod
    def wants_csv(request: Request) -> bool:
        return getattr(request.accepted_renderer, "format", None) == "csv"


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

    @extend_schema(responses=TournamentOutSerializer(many=True))
    def get(self, request: Request) -> Response:
        qs = _annotated(selectors.tournaments_visible_to(request.user))
        return self.paginate(request, qs, TournamentOutSerializer)

    @extend_schema(request=TournamentInSerializer, responses={201: TournamentOutSerializer})
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        data = self.valid(TournamentInSerializer, request)
        club = None
        if data.pop("club", None):
            club = get_object_or_404(Club, slug=request.data["club"])
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
        data = self.valid(TournamentUpdateSerializer, request)
        services.tournament_update(tournament=tournament, **data)
        return Response(
            TournamentOutSerializer(_annotated(Tournament.objects).get(pk=tournament.pk)).data
        )


class RegistrationListView(ApiView):
    """The players entered; the director enters one (existing by id, or new by name)."""

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
        registration = self._get(request, slug, player, Role.ORGANISER)
        data = self.valid(RegistrationUpdateSerializer, request)
        registration = services.registration_update(registration=registration, **data)
        return Response(RegistrationOutSerializer(registration).data)


def _with_progress(tournament: Tournament, rounds: list[Round]) -> list[Round]:
    progress = selectors.rounds_progress(tournament, rounds)
    for r in rounds:
        r.table_count = progress[r.pk]["tables"]
        r.tables_with_result = progress[r.pk]["tables_with_result"]
    return rounds


class RoundListView(ApiView):
    """The rounds so far; POST seats the next one (202: a Celery task does the seating)."""

    @extend_schema(responses=RoundOutSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        tournament = tournament_for(request, slug)
        rounds = list(tournament.round_set.order_by("number"))
        return Response(RoundOutSerializer(_with_progress(tournament, rounds), many=True).data)

    @extend_schema(request=None, responses={202: TaskAcceptedSerializer})
    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_for(request, slug, Role.ORGANISER)
        round_ = services.round_start(tournament=tournament)
        return accepted(round_.task, round=round_.number)


def seating_rows(round_: Round) -> list[dict[str, Any]]:
    """One row per seat of the round (and one per bye), in table order."""
    tables = {t.session_id: t for t in round_.tables.all()}
    seats = Seat.objects.filter(session_id__in=tables).select_related("player")
    scores = {
        pk: dict(result.scores)
        for pk, result in selectors.table_results(round_.tournament, round_).items()
    }
    rows = []
    for seat in sorted(seats, key=lambda s: (tables[s.session_id].number, s.number)):
        table = tables[seat.session_id]
        table_scores = scores.get(table.pk)
        rows.append(
            {"round": round_.number, "table": table.number, "table_id": table.pk,
             "session": seat.session_id, "seat": seat.number, "player": seat.player_id,
             "name": seat.player.name, "first_dealer": seat.number == 0,
             "score": None if table_scores is None else table_scores[seat.player_id]}
        )  # fmt: skip
    names = dict(Registration.objects.filter(
        tournament_id=round_.tournament_id, player_id__in=round_.byes
    ).values_list("player_id", "player__name"))  # fmt: skip
    for p in round_.byes:
        rows.append(
            {"round": round_.number, "table": None, "table_id": None, "session": None,
             "seat": None, "player": p, "name": names.get(p, ""), "first_dealer": False,
             "score": round_.tournament.bye_table_score}
        )  # fmt: skip
    return rows


class RoundDetailView(CSVCapableView):
    """A round's tables: seats in order (seat 0 deals first), each table's session and result."""

    @extend_schema(parameters=[FORMAT_PARAM], responses=dict)
    def get(self, request: Request, slug: str, number: int, format=None) -> Response:
        round_ = round_for(request, slug, number)
        rows = seating_rows(round_) if round_.status == Round.Status.SEATED else []
        if self.wants_csv(request):
            return Response(rows)
        tables: dict[int, dict[str, Any]] = {}
        for row in rows:
            if row["table"] is None:
                continue
            table = tables.setdefault(row["table"], {
                "number": row["table"], "id": row["table_id"], "session": row["session"],
                "has_result": row["score"] is not None, "seats": [],
            })  # fmt: skip
            table["seats"].append(
                {"seat": row["seat"], "player": row["player"], "name": row["name"],
                 "score": row["score"]}
            )  # fmt: skip
        body = RoundOutSerializer(_with_progress(round_.tournament, [round_])[0]).data
        body["tables"] = list(tables.values())
        body["byes"] = [{"player": r["player"], "name": r["name"]} for r in rows
                        if r["table"] is None]  # fmt: skip
        return Response(body)


class RoundReseatView(ApiView):
    """Seat the latest round again (after a withdrawal, say) while nothing is played."""

    @extend_schema(request=None, responses={202: TaskAcceptedSerializer})
    def post(self, request: Request, slug: str, number: int) -> Response:
        round_ = round_for(request, slug, number, Role.ORGANISER)
        round_ = services.round_reseat(round_=round_)
        return accepted(round_.task, round=round_.number)


class TableResultView(ApiView):
    """A table's result: its session's totals. POST four scores summing to zero (for tables
    that note totals only); hands go to ``/sessions/{session}/hands/`` instead."""

    def _table(self, request: Request, pk: int, role=None) -> Table:
        table = get_object_or_404(
            Table.objects.select_related("round__tournament__club", "session__club",
                                         "session__ruleset"),
            pk=pk,
        )  # fmt: skip
        tournament_for(request, table.round.tournament.slug, role)
        return table

    @extend_schema(responses=dict)
    def get(self, request: Request, pk: int) -> Response:
        table = self._table(request, pk)
        return session_response(request, table.session)

    @extend_schema(request=TableResultInSerializer, responses=dict)
    def post(self, request: Request, pk: int) -> Response:
        table = self._table(request, pk, Role.SCORER)
        data = self.valid(TableResultInSerializer, request)
        services.table_result_enter(table=table, scores=data["scores"], user=request.user)
        return session_response(request, table.session)

    put = post


class StandingsView(CSVCapableView):
    """The latest standings snapshot (version and time); POST asks for a recompute (202)."""

    @extend_schema(parameters=[FORMAT_PARAM], responses=dict)
    def get(self, request: Request, slug: str, format=None) -> Response:
        tournament = tournament_for(request, slug)
        snapshot = selectors.latest_standings(tournament)
        rows = snapshot.rows if snapshot else []
        if self.wants_csv(request):
            return Response([
                {k: v for k, v in row.items() if k != "rounds"}
                | {f"R{e['round']}": "bye" if e["bye"] else e["table_score"]
                   for e in row["rounds"]}
                for row in rows
            ])  # fmt: skip
        if snapshot is None:
            return Response({"version": 0, "computed_at": None, "rounds_complete": 0,
                             "tables_counted": 0, "standings": []})  # fmt: skip
        return Response(
            {"version": snapshot.version, "computed_at": snapshot.computed_at,
             "rounds_complete": snapshot.rounds_complete,
             "tables_counted": snapshot.tables_counted, "standings": rows}
        )  # fmt: skip

    @extend_schema(request=None, responses={202: TaskAcceptedSerializer})
    def post(self, request: Request, slug: str, format=None) -> Response:
        tournament = tournament_for(request, slug, Role.ORGANISER)
        task = services.standings_request(tournament_id=tournament.pk)
        if task is None:
            task = tournament.tasks.filter(name="tournaments.compute_standings").first()
        return accepted(task)


class TaskDetailView(ApiView):
    """A background task: state (PENDING, STARTED, SUCCESS, FAILURE), progress, result or error."""

    @extend_schema(responses=TaskOutSerializer)
    def get(self, request: Request, task_id: str) -> Response:
        task = get_object_or_404(TaskRecord.objects.select_related("tournament"), pk=task_id)
        if task.tournament is not None:
            tournament_for(request, task.tournament.slug)
        return Response(TaskOutSerializer(task).data)


@extend_schema(exclude=True)
class TaskDetailSlashView(TaskDetailView):
    """``/tasks/{id}/`` answers like ``/tasks/{id}`` (listed once in the schema)."""
