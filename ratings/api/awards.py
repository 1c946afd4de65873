"""``GET /api/v1/clubs/{slug}/awards/``: the awards (奖项) of a club's period, JSON or CSV.

Every award of ``ratings.awards.AWARDS`` is listed, in that order, with its winners (every tied
player; none when nobody earned it). A members-only club is, to anyone else, a club that does
not exist (404).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api.access import club_for
from core.api import CSVCapableView
from ratings.api.common import FORMAT_PARAM, PERIOD_PARAMS, ClubPeriodSerializer
from ratings.awards_selectors import AwardResult, club_awards
from ratings.periods import period_from
from scoring.serializers import NameSerializer


@extend_schema_field(OpenApiTypes.NUMBER)
class NumberField(serializers.Field):
    """A figure as it is: an integer stays an integer, a rate is a float (4 places)."""

    def to_representation(self, value: int | float) -> int | float:
        return value


class AwardHandSerializer(serializers.Serializer):
    session = serializers.IntegerField(source="session_id")
    hand_number = serializers.IntegerField()


class AwardWinnerSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(help_text="the club's name for him, else his own")
    value = NumberField(help_text="the figure he won it with, in the award's unit")
    hand = AwardHandSerializer(allow_null=True, help_text="the hand, for a one-hand award")


class AwardOutSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="stable: grand_slam, iron_wall, …")
    name = NameSerializer()
    description = NameSerializer()
    unit = serializers.CharField(help_text="the figure's unit: wins, kongs, points, …")
    unit_name = NameSerializer()
    winners = AwardWinnerSerializer(many=True, help_text="empty: nobody earned it")


class ClubAwardsOutSerializer(serializers.Serializer):
    period = ClubPeriodSerializer()
    awards = AwardOutSerializer(many=True)


def csv_rows(results: list[AwardResult]) -> list[dict[str, Any]]:
    """One flat row per winner (an award nobody earned: one row without a player)."""
    rows = []
    for result in results:
        award = {
            "award": result.code,
            "award_zh": result.name.zh,
            "award_en": result.name.en,
            "unit": result.unit,
        }
        for w in result.winners or [None]:
            rows.append(
                award
                | {
                    "player": None if w is None else w.player_id,
                    "name": None if w is None else w.name,
                    "value": None if w is None else w.value,
                    "session": None if w is None or w.hand is None else w.hand.session_id,
                    "hand_number": None if w is None or w.hand is None else w.hand.hand_number,
                }
            )
    return rows


class ClubAwardsView(CSVCapableView):
    """The awards of the club's own tables in the period (清一色之王, 杠神, 铁壁, …)."""

    @extend_schema(parameters=[*PERIOD_PARAMS, FORMAT_PARAM], responses=ClubAwardsOutSerializer)
    def get(self, request: Request, slug: str, format=None) -> Response:
        club = club_for(request, slug)
        period = period_from(request.query_params, club.time_zone)
        results = club_awards(club, period)
        if self.wants_csv(request):
            return Response(csv_rows(results))
        data = {"period": period, "awards": results}
        return Response(ClubAwardsOutSerializer(data).data)
