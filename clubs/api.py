"""Clubs API: clubs, members, players, table sessions, final results. Thin views: reads from
``selectors``, writes through ``services``, permissions from ``permissions.authorize``."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import django_filters
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors, services
from clubs.models import Bettor, Club, Membership, Player, Role, Seat, TableSession
from clubs.permissions import authorize
from clubs.serializers import (
    ClubInSerializer,
    ClubOutSerializer,
    ClubPlayerInSerializer,
    ClubPlayerOutSerializer,
    ClubUpdateSerializer,
    MembershipInSerializer,
    MembershipOutSerializer,
    MembershipUpdateSerializer,
    PlayerSessionSerializer,
    ResultInSerializer,
    SessionInSerializer,
    SessionOutSerializer,
    SessionUpdateSerializer,
)
from config.errors import ApiError, flatten_detail
from config.idempotency import IdempotentPostMixin
from config.pagination import StandardPagination
from scoring import services as scoring_services


class ApiView(IdempotentPostMixin, APIView):
    """Access is decided per object (``authorize``); the view only asks anonymous writers to
    log in (401) before any lookup, so a 401 or 404 never tells them whether a club exists."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    def paginate(self, request: Request, items, serializer, **context) -> Response:
        paginator = StandardPagination()
        page = paginator.paginate_queryset(items, request, view=self)
        data = serializer(page, many=True, context={"request": request, **context}).data
        return paginator.get_paginated_response(data)

    @staticmethod
    def valid(serializer_class, request: Request, **kwargs):
        s = serializer_class(data=request.data, **kwargs)
        s.is_valid(raise_exception=True)
        return s.validated_data


def club_for(request: Request, slug: str, role: str | None = None) -> Club:
    club = get_object_or_404(Club.objects.select_related("ruleset"), slug=slug)
    authorize(request, club, role)
    return club


def session_for(request: Request, pk: int, role: str | None = None) -> TableSession:
    session = get_object_or_404(
        TableSession.objects.select_related("club", "ruleset").prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player")),
            Prefetch("bettors", queryset=Bettor.objects.select_related("player")),
        ),
        pk=pk,
    )
    authorize(request, session.club, role)
    return session


def session_response(request: Request, session: TableSession, code=status.HTTP_200_OK):
    totals = {session.pk: selectors.session_totals(session_id=session.pk)}
    context = {"request": request, "totals": totals}
    return Response(SessionOutSerializer(session, context=context).data, status=code)


class ClubListView(ApiView):
    """Clubs you can see (public ones and your own); create a club (you become its owner)."""

    @extend_schema(responses=ClubOutSerializer(many=True))
    def get(self, request: Request) -> Response:
        return self.paginate(request, selectors.clubs_visible_to(request.user), ClubOutSerializer)

    @extend_schema(request=ClubInSerializer, responses={201: ClubOutSerializer})
    def post(self, request: Request) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        data = self.valid(ClubInSerializer, request)
        club = services.club_create(user=request.user, **data)
        return Response(ClubOutSerializer(club, context={"request": request}).data, status=201)


class ClubDetailView(ApiView):
    @extend_schema(responses=ClubOutSerializer)
    def get(self, request: Request, slug: str) -> Response:
        club = club_for(request, slug)
        return Response(ClubOutSerializer(club, context={"request": request}).data)

    @extend_schema(request=ClubUpdateSerializer, responses=ClubOutSerializer)
    def patch(self, request: Request, slug: str) -> Response:
        club = club_for(request, slug, Role.ORGANISER)
        data = self.valid(ClubUpdateSerializer, request, partial=True)
        club = services.club_update(club=club, **data)
        return Response(ClubOutSerializer(club, context={"request": request}).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, slug: str) -> Response:
        services.club_delete(club=club_for(request, slug, Role.OWNER))
        return Response(status=204)


class MemberListView(ApiView):
    """Members and their roles (members of the club only); organisers add members."""

    @extend_schema(responses=MembershipOutSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = club_for(request, slug, Role.MEMBER)
        qs = club.memberships.select_related("player").order_by("player__name", "id")
        return self.paginate(request, qs, MembershipOutSerializer)

    @extend_schema(request=MembershipInSerializer, responses={201: MembershipOutSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = club_for(request, slug, Role.ORGANISER)
        data = self.valid(MembershipInSerializer, request)
        if data["role"] == Role.OWNER:
            authorize(request, club, Role.OWNER)
        m = services.membership_create(club=club, **data)
        return Response(MembershipOutSerializer(m).data, status=201)


class MemberDetailView(ApiView):
    def membership(self, request: Request, slug: str, pk: int, role: str | None) -> Membership:
        club = club_for(request, slug, role)
        return get_object_or_404(club.memberships.select_related("player", "club"), pk=pk)

    @extend_schema(responses=MembershipOutSerializer)
    def get(self, request: Request, slug: str, pk: int) -> Response:
        return Response(
            MembershipOutSerializer(self.membership(request, slug, pk, Role.MEMBER)).data
        )

    @extend_schema(request=MembershipUpdateSerializer, responses=MembershipOutSerializer)
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        m = self.membership(request, slug, pk, Role.ORGANISER)
        data = self.valid(MembershipUpdateSerializer, request, partial=True)
        if Role.OWNER in (m.role, data.get("role")):
            authorize(request, m.club, Role.OWNER)
        m = services.membership_update(membership=m, **data)
        return Response(MembershipOutSerializer(m).data)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        m = self.membership(request, slug, pk, Role.ORGANISER)
        if m.role == Role.OWNER:
            authorize(request, m.club, Role.OWNER)
        services.membership_delete(membership=m)
        return Response(status=204)


class ClubPlayerListView(ApiView):
    """The club's players; organisers add a new player (who joins as a member)."""

    @extend_schema(responses=ClubPlayerOutSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = club_for(request, slug)
        qs = club.memberships.select_related("player").order_by("player__name", "id")
        return self.paginate(request, qs, ClubPlayerOutSerializer)

    @extend_schema(request=ClubPlayerInSerializer, responses={201: ClubPlayerOutSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = club_for(request, slug, Role.ORGANISER)
        m = services.player_create(club=club, **self.valid(ClubPlayerInSerializer, request))
        return Response(ClubPlayerOutSerializer(m).data, status=201)


class SessionFilter(django_filters.FilterSet):
    started_after = django_filters.IsoDateTimeFilter(field_name="started_at", lookup_expr="gte")
    started_before = django_filters.IsoDateTimeFilter(field_name="started_at", lookup_expr="lte")
    date_from = django_filters.DateFilter(field_name="started_at", lookup_expr="date__gte")
    date_to = django_filters.DateFilter(field_name="started_at", lookup_expr="date__lte")
    player = django_filters.NumberFilter(field_name="seats__player")
    status = django_filters.ChoiceFilter(choices=TableSession.Status.choices)

    class Meta:
        model = TableSession
        fields = ["status"]


class SessionListView(ApiView):
    """A club's table sessions (filter: date_from, date_to, started_after, started_before,
    player, status); organisers open a new session."""

    @extend_schema(
        parameters=[
            OpenApiParameter(name, str, description=f.label or name)
            for name, f in SessionFilter.base_filters.items()
        ],
        responses=SessionOutSerializer(many=True),
    )
    def get(self, request: Request, slug: str) -> Response:
        club = club_for(request, slug)
        filtered = SessionFilter(request.query_params, queryset=selectors.sessions_of(club))
        if not filtered.is_valid():
            raise ApiError(flatten_detail(filtered.errors))
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
        club = club_for(request, slug, Role.ORGANISER)
        data = self.valid(SessionInSerializer, request)
        session = services.session_create(club=club, user=request.user, **data)
        return session_response(request, session_for(request, session.pk), status.HTTP_201_CREATED)


class SessionDetailView(ApiView):
    @extend_schema(responses=SessionOutSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return session_response(request, session_for(request, pk))

    @extend_schema(request=SessionUpdateSerializer, responses=SessionOutSerializer)
    def patch(self, request: Request, pk: int) -> Response:
        session = session_for(request, pk, Role.ORGANISER)
        data = self.valid(SessionUpdateSerializer, request, partial=True)
        return session_response(request, services.session_update(session=session, **data))


class SessionCloseView(ApiView):
    """Close a session: its hands and results no longer change (scorers and up)."""

    @extend_schema(request=None, responses=SessionOutSerializer)
    def post(self, request: Request, pk: int) -> Response:
        session = services.session_close(session=session_for(request, pk, Role.SCORER))
        return session_response(request, session_for(request, session.pk))


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
        scoring_services.session_result_enter(
            session=session, totals=data["totals"], user=request.user
        )
        return session_response(request, session)

    put = post


class PlayerDetailView(ApiView):
    """A player: the clubs and sessions you may see, each with his total and running total."""

    @extend_schema(responses=dict)
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(
            Player.objects.prefetch_related(
                Prefetch("memberships", queryset=Membership.objects.select_related("club"))
            ),
            pk=pk,
        )
        clubs = [m for m in player.memberships.all() if selectors.can_read(request.user, m.club)]
        sessions = selectors.player_sessions(player=player, user=request.user)
        if (
            not clubs
            and not sessions
            and not (request.user.is_authenticated and player.user_id == request.user.pk)
        ):
            raise NotFound("no such player")
        return Response(
            {
                "id": player.pk,
                "name": player.name,
                "clubs": [
                    {
                        "slug": m.club.slug,
                        "name": m.club.name,
                        "display_name": m.display_name,
                        "role": m.role,
                    }
                    for m in clubs
                ],  # fmt: skip
                "sessions": PlayerSessionSerializer(sessions, many=True).data,
                "total": sessions[-1]["running_total"] if sessions else 0,
            }
        )
