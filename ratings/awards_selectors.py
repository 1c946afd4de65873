"""A club's awards over a period: the players' figures read from the statistics' lines, and
the rules of ``ratings.awards`` applied to them.

Four queries whatever the size of the club: the lines added up per player
(``ratings.club_lines``), the wins counted per player and base pattern, each player's biggest
win (a window over :class:`WinLine`, so a page can link to that hand), and the display names.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, F, Window
from django.db.models.functions import RowNumber

from clubs.models import Club, TableSession
from core.names import Name
from ratings.awards import UNITS, Award, HandRef, PlayerFigures, Winner, awards_for
from ratings.club_lines import club_line_totals, display_names
from ratings.models import WinLine
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
