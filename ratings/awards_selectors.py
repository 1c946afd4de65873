"""A club's awards over a period: the players' figures read from the statistics' lines, and
the rules of ``ratings.awards`` applied to them.

Four queries whatever the size of the club: the lines added up per player
(``ratings.club_lines``), the wins counted per player and base pattern, each player's biggest
win (a window over :class:`WinLine`, so a page can link to that hand), and the display names.
That is the whole club's lines: the API computes it live for any period it is asked.

A player's page reads the awards of whole seasons (a year of the club's, all time) from their
read model instead, :class:`~ratings.models.AwardHolder` (:func:`held_awards`, one query),
which ``ratings.services.club_awards_refresh`` rewrites from :func:`club_awards` of the season
(:func:`season_period`) after every write that moves the club's lines.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple
from zoneinfo import ZoneInfo

from django.db.models import Count, F, Q, Window
from django.db.models.functions import ExtractYear, RowNumber

from clubs.models import Club, TableSession
from core.names import Name
from ratings.awards import (
    AWARDS_BY_CODE,
    UNITS,
    Award,
    HandRef,
    PlayerFigures,
    Winner,
    awards_for,
)
from ratings.club_lines import club_line_totals, club_lines_of, display_names
from ratings.models import ALL_TIME, AwardHolder, WinLine
from ratings.periods import Period


@dataclass(frozen=True)
class AwardResult:
    """One award of the period and its winners (none: nobody earned it)."""

    code: str
    name: Name
    description: Name
    unit: str
    unit_name: Name
    winners: tuple[Winner, ...]

    @classmethod
    def of(cls, award: Award, winners: list[Winner]) -> AwardResult:
        unit = award.unit
        return cls(award.code, award.name, award.description, unit, UNITS[unit], tuple(winners))


def _club_wins(club: Club, period: Period):
    return WinLine.objects.filter(club=club, kind=TableSession.Kind.CLUB).filter(
        period.q("started_at")
    )


def _pattern_counts(club: Club, period: Period) -> dict[int, dict[str, int]]:
    counts: dict[int, dict[str, int]] = defaultdict(dict)
    rows = (
        _club_wins(club, period)
        .values("player_id", "pattern")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("player_id", "pattern", "n")
    )
    for player_id, pattern, n in rows:
        counts[player_id][pattern] = n
    return counts


def _biggest_wins(club: Club, period: Period) -> dict[int, tuple[int, HandRef]]:
    """Each player's biggest win: its value and its hand (of equal ones, the first played)."""
    first = Window(
        RowNumber(),
        partition_by=[F("player_id")],
        order_by=[F("amount").desc(), "started_at", "session_id", "hand_number", "order"],
    )
    rows = (
        _club_wins(club, period)
        .annotate(n=first)
        .filter(n=1)
        .order_by()
        .values_list("player_id", "amount", "session_id", "hand_number")
    )
    return {pid: (amount, HandRef(sid, number)) for pid, amount, sid, number in rows}


def player_figures(club: Club, period: Period) -> list[PlayerFigures]:
    """Every player with a session of the club's own tables in the period, and his figures."""
    patterns, biggest = _pattern_counts(club, period), _biggest_wins(club, period)
    names = display_names(club)
    figures = []
    for t in club_line_totals(club, period):
        amount, at = biggest.get(t.player_id, (0, None))
        figures.append(
            PlayerFigures(
                player_id=t.player_id,
                name=names.get(t.player_id) or t.player_name,
                sessions=t.sessions,
                hands=t.hands,
                wins=t.wins,
                self_draws=t.self_draws,
                deal_ins=t.deal_ins,
                first_wins=t.first_wins,
                kongs=t.kongs,
                total=t.total,
                biggest_hand=amount,
                biggest_hand_at=at,
                pattern_counts=patterns.get(t.player_id, {}),
            )
        )
    return figures


def club_awards(club: Club, period: Period) -> list[AwardResult]:
    """Every award of the club's period (in ``AWARDS`` order), each with its winners."""
    return [AwardResult.of(a, w) for a, w in awards_for(player_figures(club, period))]


# --- whole seasons, and their read model --------------------------------------------------------


def season_period(club: Club, season: int) -> Period:
    """A season of the club as a period: the year's 1 January to 31 December in the club's
    time zone, or all time (:data:`~ratings.models.ALL_TIME`)."""
    if season == ALL_TIME:
        return Period(zone=club.time_zone)
    return Period(date(season, 1, 1), date(season, 12, 31), club.time_zone)


def club_seasons(club: Club) -> list[int]:
    """The years the club's own tables were played in, in its time zone (one query)."""
    years = (
        club_lines_of(club, Period(zone=club.time_zone))
        .annotate(year=ExtractYear("started_at", tzinfo=ZoneInfo(club.time_zone)))
        .order_by("year")
        .values_list("year", flat=True)
        .distinct()
    )
    return list(years)


class HeldAward(NamedTuple):
    """An award a player holds in a club's season (shared, when others are level with him)."""

    club_id: int
    season: int  # a year; ALL_TIME: all time
    award: Award  # its code, names and unit
    value: int | float  # his figure, in the award's unit
    hand: HandRef | None  # the hand of a one-hand award

    @property
    def unit_name(self) -> Name:
        return UNITS[self.award.unit]


def _figure(value: float) -> int | float:
    """A stored figure as the rule gave it: a count stays an integer (16, not 16.0)."""
    return int(value) if value.is_integer() else value


def held_awards(player_id: int, clubs: Mapping[int, int]) -> list[HeldAward]:
    """The awards the player holds in these clubs (club id → the year asked for) that year and
    of all time, read from their read model (one query): by club, the year before all time,
    each season's in ``AWARDS`` order."""
    if not clubs:
        return []
    where = Q(pk__in=[])
    for club_id, year in clubs.items():
        where |= Q(club_id=club_id, season__in=[year, ALL_TIME])
    rows = (
        AwardHolder.objects.filter(where, player_id=player_id)
        .order_by("club_id", "-season", "order")
        .values_list("club_id", "season", "code", "value", "session_id", "hand_number")
    )
    return [
        HeldAward(
            club_id,
            season,
            AWARDS_BY_CODE[code],
            _figure(value),
            None if session_id is None else HandRef(session_id, hand_number),
        )
        for club_id, season, code, value, session_id, hand_number in rows
        if code in AWARDS_BY_CODE  # an award withdrawn since the last refresh: not shown
    ]
