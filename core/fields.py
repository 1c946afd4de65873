"""Input fields whose values stay within what the service can store and show."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

#: the years a date may fall in: year 296 has no time zone offset anyone would recognise
YEARS = (1900, 2200)


def within_years(value: date | datetime) -> None:
    """A form field's validator (a query's filter): a day or a time between 1900 and 2200.
    (A time near year 1 or 9999 given with an offset cannot even be converted to UTC.)"""
    if not YEARS[0] <= value.year <= YEARS[1]:
        raise DjangoValidationError(
            f"a date between {YEARS[0]} and {YEARS[1]}", code="out_of_range"
        )


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
