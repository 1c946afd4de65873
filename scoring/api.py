"""Stateless rules-engine endpoints: evaluate a win, list waits, show the rulesets.

No login needed; throttled under the ``engine`` scope. Input is parsed by the engine itself, so
every refusal carries the engine's code and a path into the submitted JSON; the serializers
here document the request and response shapes in the OpenAPI schema.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import ApiError
from config.pagination import StandardPagination
from scoring.engine import (
    PRESETS,
    SITUATIONS,
    EngineError,
    evaluate,
    option_schema,
    parse_waiting_hand,
    parse_winning_hand,
    readiness,
    resolve_ruleset,
)
from scoring.engine.settle import settle


def engine_call(fn, *args: Any) -> Any:
    """Run an engine function; its refusals become a 400 in the project's error shape."""
    try:
        return fn(*args)
    except EngineError as e:
        raise ApiError(e.as_dicts()) from e


def request_object(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise ApiError.single("", "invalid_body", "the request body must be a JSON object")
    return request.data


class MeldSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["pung", "kong"])
    tile = serializers.CharField(help_text='one tile, e.g. "5p" or "5筒"')
    concealed = serializers.BooleanField(default=False, help_text="暗杠 (concealed kong)")


class RulesetField(serializers.JSONField):
    """A preset name ("qq", "chengdu", "additive", "xuezhan9") or {"preset", "options"}."""


class EvaluateInputSerializer(serializers.Serializer):
    ruleset = RulesetField(required=False, help_text='preset name or {"preset", "options"}')
    concealed = serializers.CharField(help_text="concealed tiles before the winning tile")
    melds = MeldSerializer(many=True, required=False)
    winning_tile = serializers.CharField()
    self_draw = serializers.BooleanField(default=False)
    situation = serializers.ListField(
        child=serializers.ChoiceField(choices=list(SITUATIONS)), required=False
    )
    declared_void = serializers.ChoiceField(
        choices=["m", "p", "s"], required=False, allow_null=True
    )


class LineSerializer(serializers.Serializer):
    code = serializers.CharField()
    zh = serializers.CharField()
    en = serializers.CharField()
    fan = serializers.IntegerField(required=False, help_text="fan presets: fan of this line")
    multiple = serializers.IntegerField(
        required=False, help_text="chengdu: the base multiple, then a factor per extra (×2)"
    )
    points = serializers.IntegerField(required=False, help_text="additive: points of this line")
    value = serializers.IntegerField(
        required=False, help_text="self-draw bonus added to the value after the cap"
    )


class EvaluateOutputSerializer(serializers.Serializer):
    win = serializers.BooleanField()
    reason = serializers.CharField(required=False, help_text="why the hand is not a win")
    pattern = serializers.CharField(required=False)
    patterns = serializers.ListField(child=serializers.CharField(), required=False)
    roots = serializers.IntegerField()
    fan = serializers.IntegerField(allow_null=True, required=False)
    unit = serializers.CharField(required=False)
    total = serializers.IntegerField(required=False)
    value = serializers.IntegerField(required=False)
    capped = serializers.BooleanField(required=False)
    lines = LineSerializer(many=True, required=False)
    ruleset = serializers.CharField(required=False, help_text="fingerprint of the ruleset")


class WaitsInputSerializer(serializers.Serializer):
    ruleset = RulesetField(required=False)
    concealed = serializers.CharField(help_text="13 effective tiles with the melds")
    melds = MeldSerializer(many=True, required=False)
    declared_void = serializers.ChoiceField(
        choices=["m", "p", "s"], required=False, allow_null=True
    )
    visible = serializers.CharField(
        required=False, help_text="tiles seen elsewhere (discards, others' melds), for 死叫/绝张"
    )


class WaitSerializer(serializers.Serializer):
    tile = serializers.CharField()
    pattern = serializers.CharField()
    roots = serializers.IntegerField()
    fan = serializers.IntegerField(allow_null=True)
    value = serializers.IntegerField()
    self_draw_value = serializers.IntegerField()
    remaining = serializers.IntegerField(allow_null=True)
    dead = serializers.BooleanField()


class WaitsOutputSerializer(serializers.Serializer):
    ready = serializers.BooleanField()
    huazhu = serializers.BooleanField()
    waits = WaitSerializer(many=True)
    chajiao_value = serializers.IntegerField(allow_null=True)
    ruleset = serializers.CharField()


class EngineView(APIView):
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
        data = request_object(request)
        ruleset = engine_call(resolve_ruleset, data.get("ruleset"))
        hand = engine_call(parse_winning_hand, data)
        return Response(engine_call(evaluate, hand, ruleset).as_dict())


class WaitsView(EngineView):
    """Waits of a waiting hand (下叫/听牌), each with its value; 查叫 value; 花猪."""

    @extend_schema(request=WaitsInputSerializer, responses=WaitsOutputSerializer)
    def post(self, request: Request) -> Response:
        data = request_object(request)
        ruleset = engine_call(resolve_ruleset, data.get("ruleset"))
        concealed, melds, void, visible = engine_call(parse_waiting_hand, data)
        result = engine_call(readiness, concealed, ruleset, melds, void, visible)
        return Response({**result.as_dict(), "ruleset": ruleset.fingerprint})


def describe_preset(name: str) -> dict[str, Any]:
    r = resolve_ruleset(name)
    return {**r.as_dict(), "name": name, "default": name == "qq", "fingerprint": r.fingerprint}


class RulesetListView(EngineView):
    """Every preset with its full pattern table, extras, options and the toggles' schema."""

    @extend_schema(operation_id="rulesets_list", responses={200: dict})
    def get(self, request: Request) -> Response:
        presets = [describe_preset(name) for name in PRESETS]
        paginator = StandardPagination()
        page = paginator.paginate_queryset(presets, request, view=self)
        response = paginator.get_paginated_response(page)
        response.data["options"] = option_schema()
        return response


class RulesetDetailView(EngineView):
    """One preset, fully described."""

    @extend_schema(responses={200: dict})
    def get(self, request: Request, name: str) -> Response:
        if name not in PRESETS:
            raise ApiError.single("name", "unknown_preset", f"no preset {name!r}", status=404)
        return Response(describe_preset(name))


class RulesetResolveView(EngineView):
    """Check a ruleset spec and return its complete description and fingerprint."""

    @extend_schema(request=dict, responses={200: dict})
    def post(self, request: Request) -> Response:
        data = request_object(request)
        ruleset = engine_call(resolve_ruleset, data.get("ruleset"))
        return Response(
            {"spec": ruleset.to_spec(), "fingerprint": ruleset.fingerprint, **ruleset.as_dict()}
        )


class SettleView(EngineView):
    """Settle a whole hand record: every payment (kongs, wins, 呼叫转移, 查花猪, 查叫, 退税,
    叫马 bettors), the totals (zero-sum), the draw analysis and the next dealer."""

    @extend_schema(
        request=dict,
        responses={200: dict},
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
