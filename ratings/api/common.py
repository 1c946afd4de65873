"""What the ratings endpoints share: the period and format parameters, the period's answer and
a rounded number."""

from __future__ import annotations

from datetime import date
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from ratings.periods import Period

FORMAT_PARAM = OpenApiParameter("format", str, enum=["json", "csv"], description="csv: a table")
PERIOD_PARAMS = [
    OpenApiParameter(
        "from", OpenApiTypes.DATE, description="first day, in the club's time zone (1900–2200)"
    ),
    OpenApiParameter("to", OpenApiTypes.DATE, description="last day (included)"),
]


class ClubPeriodSerializer(serializers.Serializer):
    """The period asked for: ``from`` and ``to`` (null: open), in the club's time zone."""

    def get_fields(self) -> dict[str, serializers.Field]:
        # "from" is a Python keyword: the fields are declared here rather than as attributes
        return {
            "from": serializers.DateField(source="first_day", allow_null=True),
            "to": serializers.DateField(source="last_day", allow_null=True),
            "time_zone": serializers.CharField(source="zone"),
        }


def _day(day: date | None) -> str | None:
    return None if day is None else day.isoformat()


def period_data(period: Period) -> dict[str, Any]:
    """The period as :class:`ClubPeriodSerializer` writes it."""
    return {"from": _day(period.first_day), "to": _day(period.last_day), "time_zone": period.zone}
