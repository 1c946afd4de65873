"""Invitations and password-reset links of a club (organisers), and accepting an invitation."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import selectors
from clubs.api.access import club_for
from clubs.models import Invitation, Role
from clubs.serializers import (
    AcceptedOutSerializer,
    InvitationInSerializer,
    InvitationOutSerializer,
)
from clubs.services import invitations as services
from core.api import ApiView
from core.errors import NotFound


class InvitationListView(ApiView):
    """The club's open links (invitations and password-reset links), newest first; create one.

    Organisers only; a password-reset link is listed only to its creator and the club's owner.
    An invitation gives the role ``scorer`` or ``member`` and may name a player
    of the club who has no login yet; a reset link names a member who has one."""

    pages = True

    @extend_schema(responses=InvitationOutSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = club_for(request, slug, Role.ORGANISER)
        return self.paginate(
            request, selectors.open_invitations(club, request.user), InvitationOutSerializer
        )

    @extend_schema(request=InvitationInSerializer, responses={201: InvitationOutSerializer})
    def post(self, request: Request, slug: str) -> Response:
        club = club_for(request, slug, Role.ORGANISER)
        data = self.valid(InvitationInSerializer, request)
        membership = None
        if "player" in data:
            membership = selectors.members_of(club).filter(player_id=data["player"]).first()
            if membership is None:
                raise NotFound("no such player in the club", path="player")
        if data["kind"] == Invitation.Kind.RESET:
            inv = services.reset_link_create(membership=membership, by=request.user)
        else:
            inv = services.invitation_create(
                club=club,
                by=request.user,
                role=data["role"],
                player=membership.player if membership else None,
            )
        out = InvitationOutSerializer(inv, context={"request": request})
        return Response(out.data, status=201)


class InvitationDetailView(ApiView):
    @extend_schema(responses={204: None})
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        """Revoke a link: it no longer opens. A used one cannot be revoked (409)."""
        club = club_for(request, slug, Role.ORGANISER)
        inv = selectors.invitation_of(club, pk)
        if inv is None:
            raise NotFound("no such invitation")
        services.invitation_revoke(invitation=inv)
        return Response(status=204)


class InvitationAcceptView(ApiView):
    """Accept an invitation with the login you are using: your login is linked to the invited
    player (or keeps its own player, or gets one named after you) and you hold at least the
    invited role in the club. A link works once: used, revoked or expired it answers 409."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=AcceptedOutSerializer)
    def post(self, request: Request, token: str) -> Response:
        m = services.invitation_accept(token=token, user=request.user)
        return Response(AcceptedOutSerializer(m).data)
