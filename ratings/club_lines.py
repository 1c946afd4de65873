"""A club's statistics' lines added up per player over a period: what the ranking and the
awards read.

One ``GROUP BY player`` over :class:`SessionLine` (the club's own tables, ``kind="club"``,
whose ``started_at`` lies in the period), so a ranking over 20,000 hands adds up a few thousand
lines in the database and never reads a hand's settlement. A tournament table of the club does
not count here: its scores are points of a competition, not the club's game.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, Max, Q, QuerySet, Sum

from clubs.models import Club, Membership, TableSession
from ratings.models import SessionLine
from ratings.periods import Period


@dataclass(frozen=True)
class LineTotals:
    """One player's lines of the period added up."""

    player_id: int
    player_name: str
    sessions: int
    hands: int
    total: int
    wins: int
    self_draws: int
    deal_ins: int
    win_total: int
    win_max: int
    first_wins: int
    kongs: int
    places: tuple[int, int, int, int]  # how often 1st, 2nd, 3rd, 4th (ties share the better)


def club_lines_of(club: Club, period: Period) -> QuerySet[SessionLine]:
    """The lines of the club's own tables played in the period."""
    return SessionLine.objects.filter(club=club, kind=TableSession.Kind.CLUB).filter(
        period.q("started_at")
    )


def _n(value: int | None) -> int:
    return value or 0


def club_line_totals(club: Club, period: Period) -> list[LineTotals]:
    """Every player with a line in the period, his lines added up (one query)."""
    rows = (
        club_lines_of(club, period)
        .values("player_id", "player__name")
        .annotate(
            n_sessions=Count("id"),
            n_hands=Sum("hands"),
            n_total=Sum("score"),
            n_wins=Sum("wins"),
            n_self_draws=Sum("self_draws"),
            n_deal_ins=Sum("deal_ins"),
            n_win_total=Sum("win_total"),
            n_win_max=Max("win_max"),
            n_first_wins=Sum("first_wins"),
            n_kongs=Sum(F("kongs_concealed") + F("kongs_direct") + F("kongs_added")),
            **{f"n_place_{k}": Count("id", filter=Q(place=k)) for k in range(1, 5)},
        )
        .order_by()
    )
    return [
        LineTotals(
            player_id=r["player_id"],
            player_name=r["player__name"],
            sessions=r["n_sessions"],
            hands=_n(r["n_hands"]),
            total=_n(r["n_total"]),
            wins=_n(r["n_wins"]),
            self_draws=_n(r["n_self_draws"]),
            deal_ins=_n(r["n_deal_ins"]),
            win_total=_n(r["n_win_total"]),
            win_max=_n(r["n_win_max"]),
            first_wins=_n(r["n_first_wins"]),
            kongs=_n(r["n_kongs"]),
            places=tuple(r[f"n_place_{k}"] for k in range(1, 5)),
        )
        for r in rows
    ]


def display_names(club: Club) -> dict[int, str]:
    """The names the club gave its players (a membership's display name), by player id; a
    player without one is known by his own name (one query)."""
    return dict(
        Membership.objects.filter(club=club)
        .exclude(display_name="")
        .order_by()
        .values_list("player_id", "display_name")
    )
