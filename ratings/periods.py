"""A period of play asked for by ``?from=&to=``: dates (YYYY-MM-DD), both included, in the
club's own time zone (a session at 23:30 in Chengdu belongs to that evening)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import Q

from core.errors import Invalid, problem
from core.fields import YEARS


@dataclass(frozen=True)
class Period:
    """[start, end) instants; either may be open (None)."""

    first_day: date | None = None
    last_day: date | None = None
    zone: str = "Asia/Shanghai"

    @property
    def start(self) -> datetime | None:
        if self.first_day is None:
            return None
        return datetime.combine(self.first_day, time.min, tzinfo=ZoneInfo(self.zone))

    @property
    def end(self) -> datetime | None:
        if self.last_day is None:
            return None
        return datetime.combine(
            self.last_day + timedelta(days=1), time.min, tzinfo=ZoneInfo(self.zone)
        )

    def q(self, field: str = "started_at") -> Q:
        """The filter of rows whose ``field`` lies in the period."""
        where = Q()
        if self.start is not None:
            where &= Q(**{f"{field}__gte": self.start})
        if self.end is not None:
            where &= Q(**{f"{field}__lt": self.end})
        return where

    def contains(self, moment: datetime) -> bool:
        return (self.start is None or moment >= self.start) and (
            self.end is None or moment < self.end
        )


def _day(value: Any, name: str, problems: list) -> date | None:
    if value in (None, ""):
        return None
    try:
        day = date.fromisoformat(str(value))
    except ValueError:
        problems.append(problem(name, "invalid_date", f"{name} is a date: YYYY-MM-DD"))
        return None
    # (the day after 9999-12-31, where the period ends, is no date: a 500)
    if not YEARS[0] <= day.year <= YEARS[1]:
        message = f"{name} is a day between {YEARS[0]} and {YEARS[1]}"
        problems.append(problem(name, "out_of_range", message))
        return None
    return day


def period_from(params: Any, zone: str = "Asia/Shanghai") -> Period:
    """``from`` and ``to`` of a query string (either may be missing); refuses what is not a
    date, or a period that ends before it starts."""
    problems: list = []
    first, last = _day(params.get("from"), "from", problems), _day(params.get("to"), "to", problems)
    if not problems and first and last and last < first:
        problems.append(problem("to", "period_reversed", "to is before from"))
    if problems:
        raise Invalid(problems)
    return Period(first, last, zone)
