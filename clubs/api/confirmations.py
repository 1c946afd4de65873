"""Confirmations of a hand (issue 24 §2): a seated player confirms or disputes it; the
organiser or referee rules on a disputed (or held) hand.

``GET …/hands/{n}/confirmations/`` answers where the hand stands under its table's rule and
every word said about it; ``POST`` gives the caller's word (his login's player must sit at the
table). ``POST …/hands/{n}/resolution/`` is the ruling: the hand stands as recorded, or (with
``hand``) it is corrected; either way with the reason, and it counts from then on.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api.access import hand_for
from clubs.models import Hand, Role
from clubs.selectors import hand_confirmations, session_standings
from clubs.serializers import (
    ConfirmationInSerializer,
    ConfirmationOutSerializer,
    HandConfirmationsOutSerializer,
    ResolutionInSerializer,
)
from clubs.services import confirmations as services
from clubs.services import hands as hand_services
from core.api import ApiView
from core.errors import Invalid


def confirmations_answer(hand: Hand) -> dict:
    """The hand's standing and words as answered (``HandConfirmationsOutSerializer``)."""
    hand.refresh_from_db()
    found = session_standings(hand.session)[hand.pk]
    return {
        "number": hand.number,
        "revision": hand.revision,
        "rule": found.rule,
        "counts": hand.counts,
        "entry_seat": hand.entry_seat,
        "needed": found.needed,
        "confirmed": list(found.confirmed),
        "disputed": [{"seat": s, "words": w} for s, w in found.disputed],
        "waiting": found.waiting,
        "ruling": found.ruling if found.ruled else None,
        "words": ConfirmationOutSerializer(hand_confirmations(hand), many=True).data,
    }


class HandConfirmationsView(ApiView):
    """Where a hand stands under the table's confirmation rule; a seated player's word on it."""

    @extend_schema(responses=HandConfirmationsOutSerializer)
    def get(self, request: Request, pk: int, number: int) -> Response:
        return Response(confirmations_answer(hand_for(request, pk, number)))

    @extend_schema(
        request=ConfirmationInSerializer, responses={201: HandConfirmationsOutSerializer}
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        hand = hand_for(request, pk, number)  # readers; the service checks the seat
        data = self.valid(ConfirmationInSerializer, request)
        services.hand_confirm(
            hand=hand, verdict=data["verdict"], words=data.get("words", ""),
            user=request.user, seat=data.get("seat"),
        )  # fmt: skip
        return Response(confirmations_answer(hand), status=201)


class HandResolutionView(ApiView):
    """The organiser's or referee's ruling on a disputed or held hand."""

    @extend_schema(request=ResolutionInSerializer, responses={201: HandConfirmationsOutSerializer})
    def post(self, request: Request, pk: int, number: int) -> Response:
        hand = hand_for(request, pk, number, Role.REFEREE)
        data = self.valid(ResolutionInSerializer, request)
        record = data.get("hand")
        if record is not None and not isinstance(record, dict):
            raise Invalid.single("hand", "invalid_body", "a hand is a JSON object")
        hand = hand_services.hand_resolve(
            hand=hand, reason=data["reason"], user=request.user, data=record
        )
        return Response(confirmations_answer(hand), status=201)
