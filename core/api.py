"""The base of every API view: errors in the one shape, idempotent POSTs, pagination, CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.http import as_api_exception
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


class CSVRenderer(BaseRenderer):
    """``?format=csv``: a list of flat rows as a spreadsheet opens it (UTF-8 with BOM)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type=None, renderer_context=None) -> bytes:
        rows = data if isinstance(data, list) else [data]
        out = io.StringIO()
        if rows:
            writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
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
