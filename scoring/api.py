"""Stateless rules-engine endpoints: evaluate a win, list waits, settle a hand, show rulesets.

No login needed; throttled under the ``engine`` scope. Input is parsed by the engine itself, so
every refusal carries the engine's code and a path into the submitted JSON; the serializers
in ``scoring.serializers`` document the request and response shapes in the OpenAPI schema.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from core.api import BaseView, unknown_fields
from core.errors import Invalid, NotFound
from core.pagination import StandardPagination
from scoring.engine import (
    PRESETS,
    EngineError,
    declaration_menu,
    evaluate,
    option_schema,
    parse_waiting_hand,
    parse_winning_hand,
    readiness,
    resolve_ruleset,
)
from scoring.engine.rulesets import DEFAULT_PRESET
from scoring.engine.settle import settle
from scoring.serializers import (
    EvaluateInputSerializer,
    EvaluateOutputSerializer,
    HandRecordSerializer,
    PresetListSerializer,
    PresetSerializer,
    ResolvedRulesetSerializer,
    ResolveInputSerializer,
    SettlementSerializer,
    WaitsInputSerializer,
    WaitsOutputSerializer,
)


def engine_call(fn, *args: Any) -> Any:
    """Run an engine function; its refusals become a 400 in the project's error shape."""
    try:
        return fn(*args)
    except EngineError as e:
        raise Invalid(e.as_dicts()) from e


def request_object(request: Request, shape: type[Serializer] | None = None) -> dict[str, Any]:
    """The request's JSON object; with ``shape``, a field ``shape`` does not know is refused (a
    misspelt ``self_draw`` would otherwise evaluate a win on a discard)."""
    if not isinstance(request.data, dict):
        raise Invalid.single("", "invalid_body", "the request body must be a JSON object")
    if shape is not None and (problems := unknown_fields(request.data, shape())):
        raise Invalid(problems)
    return request.data


class EngineView(BaseView):
    permission_classes = [AllowAny]
    throttle_scope = "engine"


class EvaluateView(EngineView):
    """Evaluate a win (胡牌): pattern, roots, value and a line-by-line explanation."""

    @extend_schema(
        request=EvaluateInputSerializer,
        responses=EvaluateOutputSerializer,
        examples=[
            OpenApiExample(
                "清一色 with a kong",
                request_only=True,
                value={
                    "ruleset": "qq",
                    "concealed": "123567234s7s",
                    "melds": [{"kind": "kong", "tile": "8s", "concealed": False}],
                    "winning_tile": "7s",
                    "self_draw": False,
                    "situation": [],
                    "declared_void": "m",
                },
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = request_object(request, EvaluateInputSerializer)
        ruleset = engine_call(resolve_ruleset, data.get("ruleset"))
        hand = engine_call(parse_winning_hand, data)
        return Response(engine_call(evaluate, hand, ruleset).as_dict())


class WaitsView(EngineView):
    """Waits of a waiting hand (下叫/听牌), each with its value; 查叫 value; 花猪."""

    @extend_schema(request=WaitsInputSerializer, responses=WaitsOutputSerializer)
    def post(self, request: Request) -> Response:
        data = request_object(request, WaitsInputSerializer)
        ruleset = engine_call(resolve_ruleset, data.get("ruleset"))
        concealed, melds, void, visible = engine_call(parse_waiting_hand, data)
        result = engine_call(readiness, concealed, ruleset, melds, void, visible)
        return Response({**result.as_dict(), "ruleset": ruleset.fingerprint})


def describe_preset(name: str) -> dict[str, Any]:
    r = resolve_ruleset(name)
    return {
        **r.as_dict(),
        "name": name,
        "default": name == DEFAULT_PRESET,
        "fingerprint": r.fingerprint,
        "declarations": declaration_menu(r).as_dict(),
    }


class RulesetListView(EngineView):
    """Every preset with its full pattern table, extras, options and the toggles' schema."""

    @extend_schema(operation_id="rulesets_list", responses=PresetListSerializer)
    def get(self, request: Request) -> Response:
        presets = [describe_preset(name) for name in PRESETS]
        paginator = StandardPagination()
        page = paginator.paginate_queryset(presets, request, view=self)
        response = paginator.get_paginated_response(page)
        response.data["options"] = option_schema()
        return response


class RulesetDetailView(EngineView):
    """One preset, fully described."""

    @extend_schema(responses=PresetSerializer)
    def get(self, request: Request, name: str) -> Response:
        if name not in PRESETS:
            raise NotFound(f"no preset {name!r}", code="unknown_preset", path="name")
        return Response(describe_preset(name))


class RulesetResolveView(EngineView):
    """Check a ruleset spec and return its complete description and fingerprint."""

    @extend_schema(request=ResolveInputSerializer, responses=ResolvedRulesetSerializer)
    def post(self, request: Request) -> Response:
        data = request_object(request, ResolveInputSerializer)
        ruleset = engine_call(resolve_ruleset, data.get("ruleset"))
        return Response(
            {
                "spec": ruleset.to_spec(),
                "fingerprint": ruleset.fingerprint,
                **ruleset.as_dict(),
                "declarations": declaration_menu(ruleset).as_dict(),
            }
        )


class SettleView(EngineView):
    """Settle a whole hand record: every payment (kongs, wins, 呼叫转移, 查花猪, 查叫, 退税,
    叫马 bettors), the totals (zero-sum), the draw analysis and the next dealer."""

    @extend_schema(
        request=HandRecordSerializer,
        responses=SettlementSerializer,
        examples=[
            OpenApiExample(
                "一炮多响 in single mode with a bettor",
                request_only=True,
                value={
                    "ruleset": "qq",
                    "base": 1,
                    "mode": "single",
                    "dealer": 0,
                    "events": [
                        {
                            "type": "win",
                            "from": 2,
                            "tile": "4p",
                            "situation": [],
                            "winners": [{"seat": 1, "concealed": "123m456m789m11p23p"}],
                        }
                    ],
                    "bettors": [{"name": "老王", "tile": "6s"}],
                },
            )
        ],
    )
    def post(self, request: Request) -> Response:
        return Response(engine_call(settle, request_object(request)).as_dict())
