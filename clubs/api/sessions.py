"""Table sessions of a club: list and open them, change, close and reopen them, and enter
final results for clubs that note totals only."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import django_filters
from django.db.models import Q
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import selectors
from clubs.api.access import club_for, session_for
from clubs.models import Role, TableSession
from clubs.serializers import (
    ResultInSerializer,
    SeatRepairInSerializer,
    SeatRepairOutSerializer,
    SessionInSerializer,
    SessionOutSerializer,
    SessionUpdateSerializer,
)
from clubs.services import sessions as services
from core.api import ApiView
from core.errors import Invalid, problem
from core.fields import within_years
from core.pagination import StandardPagination


def session_response(request: Request, session: TableSession, code=status.HTTP_200_OK):
    """A session as answered: its seats, bettors and totals."""
    totals = {session.pk: selectors.session_totals(session_id=session.pk)}
    context = {"request": request, "totals": totals}
    return Response(SessionOutSerializer(session, context=context).data, status=code)


class SessionFilter(django_filters.FilterSet):
    # within 1900–2200, as every date the API reads (9999-12-31T23:59-14:00 has no UTC: a 500)
    started_after = django_filters.IsoDateTimeFilter(
        field_name="started_at", lookup_expr="gte", validators=[within_years]
    )
    started_before = django_filters.IsoDateTimeFilter(
        field_name="started_at", lookup_expr="lte", validators=[within_years]
    )
    date_from = django_filters.DateFilter(
        field_name="started_at", lookup_expr="date__gte", validators=[within_years]
    )
    date_to = django_filters.DateFilter(
        field_name="started_at", lookup_expr="date__lte", validators=[within_years]
    )
    player = django_filters.NumberFilter(method="sat_or_bet", label="a player who sat or bet")
    status = django_filters.ChoiceFilter(choices=TableSession.Status.choices)

    class Meta:
        model = TableSession
        fields = ["status"]

    def sat_or_bet(self, queryset, name: str, value: int):
        return queryset.filter(Q(seats__player=value) | Q(bettors__player=value))


#: what each filter reads, for the schema (a client, or a fuzzer, then sends a date as a date)
FILTER_TYPES = {
    "started_after": OpenApiTypes.DATETIME,
    "started_before": OpenApiTypes.DATETIME,
    "date_from": OpenApiTypes.DATE,
    "date_to": OpenApiTypes.DATE,
    "player": OpenApiTypes.INT,
}


class SessionListView(ApiView):
    """A club's table sessions (filter: date_from, date_to, started_after, started_before,
    player, status); organisers open a new session."""

    pages = True

    @extend_schema(
        parameters=[
            OpenApiParameter(
                name,
                FILTER_TYPES.get(name, str),
                description=f.label or name,
                enum=TableSession.Status.values if name == "status" else None,
            )  # fmt: skip
            for name, f in SessionFilter.base_filters.items()
        ],
        responses=SessionOutSerializer(many=True),
    )
    def get(self, request: Request, slug: str) -> Response:
        club = club_for(request, slug)
        filtered = SessionFilter(request.query_params, queryset=selectors.sessions_of(club))
        if not filtered.is_valid():
            raise Invalid(
                problem(name, error["code"] or "invalid", error["message"])
                for name, errors in filtered.errors.get_json_data().items()
                for error in errors
            )
        paginator = StandardPagination()
        with timezone.override(ZoneInfo(club.time_zone)):  # dates are the club's own days
            page = paginator.paginate_queryset(filtered.qs.distinct(), request, view=self)
        totals = selectors.sessions_totals([s.pk for s in page])
        data = SessionOutSerializer(
            page, many=True, context={"request": request, "totals": totals}
        ).data
        return paginator.get_paginated_response(data)

    @extend_schema(request=SessionInSerializer, responses={201: SessionOutSerializer})
    def post(self, request: Request, slug: str) -> Response:
        # a table's scorer opens it (PRODUCT §1): scorers and up
        club = club_for(request, slug, Role.SCORER)
        data = self.valid(SessionInSerializer, request)
        session = services.session_create(club=club, user=request.user, **data)
        return session_response(request, session_for(request, session.pk), status.HTTP_201_CREATED)


class SessionDetailView(ApiView):
    """A session; PATCH changes its time and notes, and its seats, bettors, base and mode
    while nothing was played; DELETE removes a session nothing was played at (organisers)."""

    @extend_schema(responses=SessionOutSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return session_response(request, session_for(request, pk))

    @extend_schema(request=SessionUpdateSerializer, responses=SessionOutSerializer)
    def patch(self, request: Request, pk: int) -> Response:
        session = session_for(request, pk, Role.ORGANISER)
        data = self.valid(SessionUpdateSerializer, request, partial=True)
        services.session_update(session=session, **data)
        return session_response(request, session_for(request, pk))

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        services.session_delete(session=session_for(request, pk, Role.ORGANISER))
        return Response(status=204)


class SessionCloseView(ApiView):
    """Close a session: its hands and results no longer change (scorers and up)."""

    @extend_schema(request=None, responses=SessionOutSerializer)
    def post(self, request: Request, pk: int) -> Response:
        session = services.session_close(session=session_for(request, pk, Role.SCORER))
        return session_response(request, session_for(request, session.pk))


class SeatRepairView(ApiView):
    """Repair a table's seats in one step, with a reason (organisers): the hands stay with
    their seats, the payments and totals follow the players (201: the repair as kept)."""

    @extend_schema(request=SeatRepairInSerializer, responses={201: SeatRepairOutSerializer})
    def post(self, request: Request, pk: int) -> Response:
        session = session_for(request, pk, Role.ORGANISER)
        data = self.valid(SeatRepairInSerializer, request)
        repair = services.seats_repair(
            session=session, order=data["order"], reason=data["reason"], user=request.user
        )
        return Response(SeatRepairOutSerializer(repair).data, status=status.HTTP_201_CREATED)


class SessionReopenView(ApiView):
    """Reopen a closed session for corrections (organisers only)."""

    @extend_schema(request=None, responses=SessionOutSerializer)
    def post(self, request: Request, pk: int) -> Response:
        session = services.session_reopen(session=session_for(request, pk, Role.ORGANISER))
        return session_response(request, session_for(request, session.pk))


class SessionResultView(ApiView):
    """Final-result entry (for clubs that only note totals): one total per seated player and
    per bettor, summing to zero. Such a session has no hands."""

    @extend_schema(responses=SessionOutSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return session_response(request, session_for(request, pk))

    @extend_schema(request=ResultInSerializer, responses=SessionOutSerializer)
    def post(self, request: Request, pk: int) -> Response:
        session = session_for(request, pk, Role.SCORER)
        data = self.valid(ResultInSerializer, request)
        services.session_result_enter(session=session, totals=data["totals"], user=request.user)
        return session_response(request, session)

    put = post
