"""Hands of a table session: record (一局), read, correct, soft-delete, history.

A hand is submitted as the engine's hand record without the session's own fields (ruleset,
base, mode), plus an optional ``number``; the engine settles it before anything is stored.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api import ApiView, session_for
from clubs.models import Role, TableSession
from clubs.permissions import authorize
from config.errors import ApiError
from config.pagination import StandardPagination
from scoring import services
from scoring.models import Hand, HandRevision, Payment


class PartySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["player", "bettor"])
    id = serializers.IntegerField()
    name = serializers.CharField()


def _party(player, bettor) -> dict:
    if player is not None:
        return {"kind": "player", "id": player.pk, "name": player.name}
    return {"kind": "bettor", "id": bettor.pk, "name": bettor.name}


class PaymentOutSerializer(serializers.Serializer):
    """The shape of a payment in a hand (documentation; built by ``get_payments``)."""

    payer = PartySerializer()
    payee = PartySerializer()
    amount = serializers.IntegerField()
    reason = serializers.CharField()
    event = serializers.IntegerField(allow_null=True)


#: how a hand's times are written (in the current time zone, as DRF's model serializer does)
_DATETIME = serializers.DateTimeField()


class HandOutSerializer(serializers.ModelSerializer):
    session = serializers.IntegerField(source="session_id")
    payments = serializers.SerializerMethodField()
    entered_by = serializers.CharField(source="entered_by.username", default=None)

    class Meta:
        model = Hand
        fields = ["session", "number", "dealer", "next_dealer", "revision", "is_deleted",
                  "deleted_reason", "record", "settlement", "payments", "ruleset_fingerprint",
                  "entered_by", "entered_at", "updated_at"]  # fmt: skip

    def to_representation(self, hand: Hand) -> dict:
        # What the declared fields give (they stay the reference, and the schema's source),
        # written out directly: building a model serializer's fields for each response costs
        # more than the rest of it. tests/clubs/test_hand_api.py checks the two agree.
        user = hand.entered_by
        return {
            "session": hand.session_id,
            "number": hand.number,
            "dealer": hand.dealer,
            "next_dealer": hand.next_dealer,
            "revision": hand.revision,
            "is_deleted": hand.is_deleted,
            "deleted_reason": hand.deleted_reason,
            "record": hand.record,
            "settlement": hand.settlement,
            "payments": self.get_payments(hand),
            "ruleset_fingerprint": hand.ruleset_fingerprint,
            "entered_by": None if user is None else user.username,
            "entered_at": _DATETIME.to_representation(hand.entered_at),
            "updated_at": _DATETIME.to_representation(hand.updated_at),
        }

    @extend_schema_field(PaymentOutSerializer(many=True))
    def get_payments(self, hand: Hand) -> list[dict]:
        # Plain dicts: a hand has dozens of payments and a serializer per row costs more than
        # the engine's whole settlement. A hand just written carries its payments with their
        # parties; one read from the database prefetches them.
        written = getattr(hand, "written_payments", None)
        if written is not None:
            return [
                {
                    "payer": p.payer._asdict(),
                    "payee": p.payee._asdict(),
                    "amount": p.amount,
                    "reason": p.reason,
                    "event": p.event,
                }
                for p in written
            ]
        return [
            {
                "payer": _party(p.payer_player, p.payer_bettor),
                "payee": _party(p.payee_player, p.payee_bettor),
                "amount": p.amount,
                "reason": p.reason,
                "event": p.event,
            }
            for p in hand.payments.all()
        ]


class HandInSerializer(serializers.Serializer):
    """The hand record (see the engine's settle contract) without ruleset/base/mode."""

    number = serializers.IntegerField(min_value=1, required=False)
    dealer = serializers.IntegerField(min_value=0, max_value=3, required=False)
    declared_void = serializers.JSONField(required=False)
    events = serializers.JSONField()
    draw = serializers.JSONField(required=False)
    bettors = serializers.JSONField(required=False)
    session = serializers.JSONField(required=False)


class RevisionOutSerializer(serializers.ModelSerializer):
    changed_by = serializers.CharField(source="changed_by.username", default=None)

    class Meta:
        model = HandRevision
        fields = ["revision", "action", "changes", "reason", "changed_by", "changed_at",
                  "record", "settlement"]  # fmt: skip


def hands_of(session: TableSession, *, deleted: bool = False):
    payments = Payment.objects.select_related(
        "payer_player", "payer_bettor__player", "payee_player", "payee_bettor__player"
    )
    return (
        Hand.objects.filter(session=session, is_deleted=deleted)
        .select_related("entered_by")
        .prefetch_related(Prefetch("payments", queryset=payments))
        .order_by("number", "id")
    )


def hand_for(request: Request, session_pk: int, number: int, role: str | None = None) -> Hand:
    session = session_for(request, session_pk, role)
    hand = get_object_or_404(hands_of(session), number=number)
    hand.session = session
    return hand


def hand_response(hand: Hand, status: int = 200) -> Response:
    fresh = hands_of(hand.session, deleted=hand.is_deleted).get(pk=hand.pk)
    return Response(HandOutSerializer(fresh).data, status=status)


class HandListView(ApiView):
    """The hands of a session (``?deleted=true`` for soft-deleted ones); scorers record one."""

    @extend_schema(
        parameters=[OpenApiParameter("deleted", bool)], responses=HandOutSerializer(many=True)
    )
    def get(self, request: Request, pk: int) -> Response:
        session = session_for(request, pk)
        deleted = request.query_params.get("deleted") in ("1", "true", "yes")
        paginator = StandardPagination()
        page = paginator.paginate_queryset(hands_of(session, deleted=deleted), request, view=self)
        return paginator.get_paginated_response(HandOutSerializer(page, many=True).data)

    @extend_schema(request=HandInSerializer, responses={201: HandOutSerializer})
    def post(self, request: Request, pk: int) -> Response:
        with transaction.atomic():
            # One query locks the session and reads it with what a new hand depends on and the
            # user's role in its club; the permission check needs them, so it comes second (a
            # refusal rolls back).
            session = services.session_for_new_hand(pk, viewer=request.user)
            authorize(request, session.club, Role.SCORER, held=session.viewer_role)
            hand = services.hand_record(
                session=session, data=request.data, user=request.user, locked=True
            )
        return Response(HandOutSerializer(hand).data, status=201)


class HandDetailView(ApiView):
    """One hand; PUT/PATCH corrects it (re-settled, earlier revision kept); DELETE soft-deletes
    it with a ``reason`` (body or query)."""

    @extend_schema(responses=HandOutSerializer)
    def get(self, request: Request, pk: int, number: int) -> Response:
        return Response(HandOutSerializer(hand_for(request, pk, number)).data)

    @extend_schema(request=HandInSerializer, responses=HandOutSerializer)
    def put(self, request: Request, pk: int, number: int) -> Response:
        hand = hand_for(request, pk, number, Role.SCORER)
        data = request.data
        if not isinstance(data, dict):
            raise ApiError.single("", "invalid_body", "a hand is a JSON object")
        reason = data.get("reason", "") if isinstance(data.get("reason", ""), str) else ""
        record = {k: v for k, v in data.items() if k != "reason"}
        hand = services.hand_correct(hand=hand, data=record, user=request.user, reason=reason)
        return hand_response(hand)

    @extend_schema(request=HandInSerializer, responses=HandOutSerializer)
    def patch(self, request: Request, pk: int, number: int) -> Response:
        hand = hand_for(request, pk, number, Role.SCORER)
        if not isinstance(request.data, dict):
            raise ApiError.single("", "invalid_body", "a hand is a JSON object")
        reason = request.data.get("reason", "")
        changes = {k: v for k, v in request.data.items() if k != "reason"}
        hand = services.hand_correct(
            hand=hand,
            data={**hand.record, **changes},
            user=request.user,
            reason=reason if isinstance(reason, str) else "",
        )
        return hand_response(hand)

    @extend_schema(parameters=[OpenApiParameter("reason", str)], responses={200: HandOutSerializer})
    def delete(self, request: Request, pk: int, number: int) -> Response:
        hand = hand_for(request, pk, number, Role.SCORER)
        reason = request.query_params.get("reason") or (
            request.data.get("reason") if isinstance(request.data, dict) else ""
        )
        hand = services.hand_delete(hand=hand, reason=reason or "", user=request.user)
        return hand_response(hand)


class HandHistoryView(ApiView):
    """Every revision of a hand: who changed it, when, which fields, and why."""

    @extend_schema(responses=RevisionOutSerializer(many=True))
    def get(self, request: Request, pk: int, number: int) -> Response:
        session = session_for(request, pk)
        hands = Hand.objects.filter(session=session, number=number).order_by("-is_deleted", "id")
        hand = hands.filter(is_deleted=False).first() or hands.last()
        if hand is None:
            raise NotFound("no such hand")
        revisions = hand.revisions.select_related("changed_by").order_by("revision")
        return self.paginate(request, revisions, RevisionOutSerializer)
