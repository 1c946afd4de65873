"""The objects a request names, loaded and checked against the caller's rights in their club."""

from __future__ import annotations

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from rest_framework.request import Request

from clubs.models import Bettor, Club, Hand, Seat, TableSession
from clubs.permissions import authorize
from clubs.selectors import hands_of


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


def hand_for(request: Request, session_pk: int, number: int, role: str | None = None) -> Hand:
    session = session_for(request, session_pk, role)
    hand = get_object_or_404(hands_of(session), number=number)
    hand.session = session
    return hand
