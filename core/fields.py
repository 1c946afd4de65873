"""Input fields whose values stay within what the service can store and show."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from rest_framework import serializers

#: the years a date may fall in: year 296 has no time zone offset anyone would recognise
YEARS = (1900, 2200)


class DateTimeField(serializers.DateTimeField):
    """A time between 1900 and 2200."""

    def to_internal_value(self, value) -> datetime:
        parsed = super().to_internal_value(value)
        if not YEARS[0] <= parsed.year <= YEARS[1]:
            raise serializers.ValidationError(
                f"a time between {YEARS[0]} and {YEARS[1]}", code="out_of_range"
            )
        return parsed


class TimeZoneField(serializers.CharField):
    """An IANA time zone name (``Asia/Shanghai``)."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("max_length", 64)
        super().__init__(**kwargs)

    def to_internal_value(self, value) -> str:
        name = super().to_internal_value(value)
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError) as e:
            raise serializers.ValidationError(
                f"{name!r} is not a time zone (say e.g. Asia/Shanghai)", code="invalid_time_zone"
            ) from e
        return name
