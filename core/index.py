"""The ``/api/v1/`` root: a data-driven index of the API.

Every *named* route included under ``/api/v1/`` that can be reversed without arguments
(list/collection endpoints, actions such as ``engine/evaluate``) is listed automatically:
adding an endpoint to the index is just adding a named ``path()`` to an app's ``urls.py``.
Detail routes (with ``<pk>``) are skipped.

``API_ROOT_LINKS`` adds links that live outside ``/api/v1/`` (schema, docs, health, admin);
``API_ROOT_HIDDEN`` hides route names that should not be advertised.
"""

from __future__ import annotations

from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import BaseView

# label -> URL name, for links outside /api/v1/.
API_ROOT_LINKS: dict[str, str] = {
    "schema": "schema",
    "docs": "swagger-ui",
    "health": "healthz",
    "admin": "admin:index",
}

# URL names under /api/v1/ that are not listed.
API_ROOT_HIDDEN: set[str] = {"api-root"}

# The URL prefix (as written in the root URLconf) whose routes the index lists.
API_V1_PREFIX = "api/v1/"


def _named_patterns(patterns, namespace: str | None = None):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            ns = entry.namespace
            if ns and namespace:
                ns = f"{namespace}:{ns}"
            ns = ns or namespace
            yield from _named_patterns(entry.url_patterns, ns)
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{namespace}:{entry.name}" if namespace else entry.name


def _api_v1_resolvers():
    """Every resolver mounted at ``API_V1_PREFIX`` in the active root URLconf."""
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and str(entry.pattern) == API_V1_PREFIX:
            yield entry


def api_v1_endpoints(request: Request | None = None) -> dict[str, str]:
    """``{url name: URL}`` for every argument-less named route under ``/api/v1/``."""
    endpoints: dict[str, str] = {}
    for name in _named_patterns(_api_v1_resolvers()):
        if name in API_ROOT_HIDDEN or name in endpoints:
            continue
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue  # needs arguments (detail routes)
        endpoints[name] = request.build_absolute_uri(url) if request is not None else url
    return dict(sorted(endpoints.items()))


def api_root_links(request: Request | None = None) -> dict[str, str]:
    links: dict[str, str] = {}
    for label, name in API_ROOT_LINKS.items():
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        links[label] = request.build_absolute_uri(url) if request is not None else url
    return links


class ApiRootSerializer(serializers.Serializer):
    name = serializers.CharField()
    version = serializers.CharField()
    endpoints = serializers.DictField(child=serializers.URLField(), help_text="url name: URL")
    links = serializers.DictField(child=serializers.URLField(), help_text="schema, docs, …")


class ApiRootView(BaseView):
    """Index of the API: endpoints under /api/v1/ plus schema, docs and health links."""

    permission_classes = [AllowAny]

    @extend_schema(responses=ApiRootSerializer, operation_id="api_v1_root")
    def get(self, request: Request) -> Response:
        return Response(
            {
                "name": "Xuezhan API",
                "version": "v1",
                "endpoints": api_v1_endpoints(request),
                "links": api_root_links(request),
            }
        )
