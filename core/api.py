"""The base of every API view: errors in the one shape, idempotent POSTs, pagination, CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.csvcells import safe_row
from core.errors import Invalid, problem
from core.http import as_api_exception, join_path
from core.idempotency import IdempotentPostMixin
from core.pagination import StandardPagination


class BaseView(APIView):
    """Any API view: the project's errors become their HTTP answer before DRF handles them."""

    def handle_exception(self, exc: Exception) -> Response:
        return super().handle_exception(as_api_exception(exc))


class ApiView(IdempotentPostMixin, BaseView):
    """Access is decided per object (the apps' ``authorize``); the view only asks anonymous
    writers to log in (401) before any lookup, so a 401 or 404 never tells them whether a club
    exists."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    #: its GET answers a page (``paginate``), as the schema documents it
    pages = False

    def paginate(self, request: Request, items, serializer, **context) -> Response:
        paginator = StandardPagination()
        page = paginator.paginate_queryset(items, request, view=self)
        data = serializer(page, many=True, context={"request": request, **context}).data
        return paginator.get_paginated_response(data)

    @staticmethod
    def valid(serializer_class, request: Request, **kwargs):
        """The request's data as ``serializer_class`` validates it. A field the serializer does
        not know is refused, never ignored: a misspelt ``rulset`` must not open a table under
        the club's default rules."""
        kwargs.setdefault("context", {"request": request})
        s = serializer_class(data=request.data, **kwargs)
        problems = unknown_fields(request.data, s)
        if problems:
            raise Invalid(problems)
        s.is_valid(raise_exception=True)
        return s.validated_data


def unknown_fields(data: Any, serializer: serializers.Serializer, path: str = "") -> list:
    """A problem for every key of ``data`` (and of the objects nested in it) that
    ``serializer`` has no writable field for."""
    if not isinstance(data, Mapping):
        return []
    fields = {name: f for name, f in serializer.fields.items() if not f.read_only}
    problems = []
    for key in data:
        where = join_path(path, key)
        field = fields.get(key)
        if field is None:
            problems.append(problem(where, "unknown_field", f"unknown field {key!r}"))
        elif isinstance(field, serializers.Serializer):
            problems += unknown_fields(data[key], field, where)
        elif isinstance(field, serializers.ListSerializer) and isinstance(data[key], list):
            for i, item in enumerate(data[key]):
                problems += unknown_fields(item, field.child, join_path(where, i))
    return problems


class CSVRenderer(BaseRenderer):
    """``?format=csv``: a list of flat rows as a spreadsheet opens it (UTF-8 with BOM), every
    text cell neutralised so that no spreadsheet runs it as a formula (``core.csvcells``)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type=None, renderer_context=None) -> bytes:
        rows = data if isinstance(data, list) else [data]
        out = io.StringIO()
        if rows:
            writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(safe_row(row) for row in rows)
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
