"""Clubs, their members and players, and a player's history across the clubs you may see."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import selectors
from clubs.api.access import club_for
from clubs.models import Membership, Player, Role
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
    PlayerOutSerializer,
)
from clubs.services import clubs as services
from core.api import ApiView
from core.errors import NotAuthenticated, NotFound


class ClubListView(ApiView):
    """Clubs you can see (public ones and your own); create a club (you become its owner)."""

    pages = True

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

    pages = True

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

    pages = True

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


class PlayerDetailView(ApiView):
    """A player: the clubs and sessions you may see, each with his total and running total."""

    @extend_schema(responses=PlayerOutSerializer)
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        history = selectors.player_history(player=player, user=request.user)
        if history is None:
            raise NotFound("no such player")
        return Response(PlayerOutSerializer(history).data)
