"""A hand sent by the table page's queue (offline first, ``pages/static/pages/offline.js``).

The page keeps a hand saved with no connection in the browser (IndexedDB) under an
``Idempotency-Key`` of its own and sends it here when the connection is back: the hand form's
fields, answered in JSON. A hand is stored once whatever happens to the answer: sent again with
its key (the answer was lost when the connection dropped mid-send), it gets the first answer
again; and its number is the table's, so even a send that raced with its own retry cannot store
it twice. A refusal is in the one error shape, in the page's language (the engine's words, as
the form shows them), with the table's next hand number (``next_number``) and, when another
phone stored that number first, what it stored (``race``) — for the page to offer the fix.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from clubs import selectors
from clubs.enums import Role
from clubs.services import hands as hand_services
from core.errors import Conflict, ServiceError
from core.http import service_error_items
from core.idempotency import HEADER, form_answer, form_answer_store, form_digest
from pages.base import ERROR_TEXT
from pages.tables import forms
from pages.tables.views import _race, _same_hand, author, table_view

if TYPE_CHECKING:
    from clubs.models import TableSession


def _refused(status: int, items: list[dict], session: TableSession, **extra) -> JsonResponse:
    next_number = selectors.table_sheet(session).next_number
    body = {"errors": items, "next_number": next_number, **extra}
    return JsonResponse(body, status=status)


def _item(path: str, code: str, message: str) -> dict[str, str]:
    return {"path": path, "code": code, "message": str(ERROR_TEXT.get(code, message))}


@table_view(read=None, write=Role.SCORER, card=True, methods=("POST",))
def hand_send(request: HttpRequest, session: TableSession) -> JsonResponse:
    """``POST /sessions/<id>/hands/send/`` with the hand form's fields and an
    ``Idempotency-Key``: 201 ``{"number", "url"}``, or the refusal (see the module)."""
    key = request.headers.get(HEADER, "").strip()
    if not key or len(key) > 100:
        item = _item(HEADER, "idempotency_key_required", _("A queued hand needs its key."))
        return _refused(400, [item], session)
    scoped = f"page-hand:{session.pk}:{key}"
    fields = [(name, value) for name, values in request.POST.lists() for value in values]
    digest = form_digest(request.path, fields)
    try:
        answered = form_answer(request.user, scoped, digest)
    except Conflict as e:
        return _refused(409, [_item(HEADER, e.code, e.message)], session)
    if answered is not None:
        response = JsonResponse(answered[1], status=answered[0])
        response["Idempotent-Replayed"] = "true"
        return response
    names = [b.name for b in session.bettors.all()]
    record, problems, _places = forms.read_hand_form(request.POST, bettors=names)
    if problems:
        return _refused(400, [_item(p.field, "invalid", p.message) for p in problems], session)
    try:
        with transaction.atomic():
            view = hand_services.hand_record(session=session, data=record, user=author(request))
            number = view.hand.number
            body = {"number": number, "url": reverse("page-hand", args=[session.pk, number])}
            form_answer_store(request.user, scoped, request.path, digest, 201, body)
    except ServiceError as e:
        number = record.get("number")
        if e.code == "hand_exists" and number:
            again = form_answer(request.user, scoped, digest)  # its own twin, sent at once
            if again is not None:
                return JsonResponse(again[1], status=again[0])
            if _same_hand(session, number, record):  # the same hand, from another phone
                url = reverse("page-hand", args=[session.pk, number])
                return JsonResponse({"number": number, "url": url, "same": True}, status=200)
            race = _race(session, number)
            items = [_item("number", e.code, e.message)]
            return _refused(409, items, session, race=race)
        items = [_item(i["path"], i["code"], i["message"]) for i in service_error_items(e)]
        return _refused(e.status if e.status < 500 else 400, items, session)
    return JsonResponse(body, status=201)
