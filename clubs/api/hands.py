"""Hands of a table session: record (一局), read, correct, soft-delete, history.

A hand is submitted as the engine's hand record without the session's own fields (ruleset,
base, mode), plus an optional ``number``; the engine settles it before anything is stored.
"""

from __future__ import annotations

from django.db import transaction
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api.access import hand_for, session_for
from clubs.fastpath import lock_session_state
from clubs.models import Hand, Role
from clubs.permissions import authorize
from clubs.selectors import hand_view, hands_of
from clubs.serializers import HandInSerializer, HandOutSerializer, RevisionOutSerializer
from clubs.services import hands as services
from core.api import ApiView
from core.errors import Invalid, NotFound
from core.idempotency import answer_in_write
from core.pagination import StandardPagination


def hand_response(hand: Hand, status: int = 200) -> Response:
    fresh = hands_of(hand.session, deleted=hand.is_deleted).get(pk=hand.pk)
    return Response(HandOutSerializer(hand_view(fresh)).data, status=status)


class HandListView(ApiView):
    """The hands of a session (``?deleted=true`` for soft-deleted ones); scorers record one."""

    pages = True
    #: a hand sent with an Idempotency-Key (a phone always sends one) stores its answer in the
    #: hand's own statement (issue 25: as many queries as without a key)
    idempotent_answer_in_write = True

    @extend_schema(
        parameters=[OpenApiParameter("deleted", bool)], responses=HandOutSerializer(many=True)
    )
    def get(self, request: Request, pk: int) -> Response:
        session = session_for(request, pk)
        deleted = request.query_params.get("deleted") in ("1", "true", "yes")
        paginator = StandardPagination()
        page = paginator.paginate_queryset(hands_of(session, deleted=deleted), request, view=self)
        data = HandOutSerializer([hand_view(h) for h in page], many=True).data
        return paginator.get_paginated_response(data)

    @extend_schema(request=HandInSerializer, responses={201: HandOutSerializer})
    def post(self, request: Request, pk: int) -> Response:
        answer = answer_in_write(request)  # None without an Idempotency-Key
        if answer is not None:
            answer.answers_with(201, lambda view: HandOutSerializer(view).data)
        with transaction.atomic():
            # One query locks the session and reads it with what a new hand depends on and the
            # user's role in its club; the permission check needs them, so it comes second (a
            # refusal rolls back).
            locked, state = lock_session_state(pk, viewer=request.user)
            authorize(request, locked.session.club, Role.SCORER, held=locked.viewer_role)
            view = services.hand_record_locked(
                locked=locked, data=request.data, user=request.user, state=state, answer=answer
            )
        # with a key, the data stored as the answer (the same, worked out once)
        data = answer.data if answer is not None else HandOutSerializer(view).data
        return Response(data, status=201)


class HandDetailView(ApiView):
    """One hand; PUT/PATCH corrects it (re-settled, earlier revision kept); DELETE soft-deletes
    it with a ``reason`` (body or query)."""

    @extend_schema(responses=HandOutSerializer)
    def get(self, request: Request, pk: int, number: int) -> Response:
        return Response(HandOutSerializer(hand_view(hand_for(request, pk, number))).data)

    @extend_schema(request=HandInSerializer, responses=HandOutSerializer)
    def put(self, request: Request, pk: int, number: int) -> Response:
        return self._correct(request, pk, number, merge=False)

    @extend_schema(request=HandInSerializer, responses=HandOutSerializer)
    def patch(self, request: Request, pk: int, number: int) -> Response:
        return self._correct(request, pk, number, merge=True)

    def _correct(self, request: Request, pk: int, number: int, *, merge: bool) -> Response:
        """PUT sends the whole record, PATCH the fields that change; either may give a
        ``reason``, kept with the revision."""
        hand = hand_for(request, pk, number, Role.SCORER)
        if not isinstance(request.data, dict):
            raise Invalid.single("", "invalid_body", "a hand is a JSON object")
        record = {k: v for k, v in request.data.items() if k != "reason"}
        if merge:
            record = {**hand.record, **record}
        hand = services.hand_correct(
            hand=hand, data=record, user=request.user, reason=request.data.get("reason")
        )
        return hand_response(hand)

    @extend_schema(parameters=[OpenApiParameter("reason", str)], responses={200: HandOutSerializer})
    def delete(self, request: Request, pk: int, number: int) -> Response:
        hand = hand_for(request, pk, number, Role.SCORER)
        reason = request.query_params.get("reason") or (
            request.data.get("reason") if isinstance(request.data, dict) else ""
        )
        hand = services.hand_delete(hand=hand, reason=reason, user=request.user)
        return hand_response(hand)


class HandHistoryView(ApiView):
    """Every revision of a hand: who changed it, when, which fields, and why."""

    pages = True

    @extend_schema(responses=RevisionOutSerializer(many=True))
    def get(self, request: Request, pk: int, number: int) -> Response:
        session = session_for(request, pk)
        hands = Hand.objects.filter(session=session, number=number).order_by("-is_deleted", "id")
        hand = hands.filter(is_deleted=False).first() or hands.last()
        if hand is None:
            raise NotFound("no such hand")
        revisions = hand.revisions.select_related("changed_by").order_by("revision")
        return self.paginate(request, revisions, RevisionOutSerializer)
