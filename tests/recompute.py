"""What the workers keep, and what a computation from scratch gives: equal, or a worker is wrong.

The read models the workers write after each change (a tournament's standings snapshots, the
ratings and the statistics' lines, the award holders) are compared with the same figures
worked out again from the results as they are. Shared by the fault tests and the load run.
"""

from __future__ import annotations

from typing import NamedTuple

from clubs.models import Player
from ratings.models import AwardHolder, Rating, RatingChange, SessionLine, WinLine
from tournaments import selectors
from tournaments.models import StandingsSnapshot, Tournament
from tournaments.readmodels import snapshot_rows, standings_json


def ratings_state() -> dict[str, list[tuple]]:
    """Every rating, history row and statistics line, to the last bit of each float."""
    return {
        "ratings": sorted(
            Rating.objects.values_list(
                "pool__club_id", "pool__tournament_id", "player_id", "mu", "sigma", "rating",
                "sessions",
            ),
            key=repr,
        ),
        "changes": sorted(
            RatingChange.objects.values_list(
                "pool__tournament_id", "session_id", "player_id", "number", "place", "score",
                "expected_place", "expected_probability", "mu_before", "sigma_before",
                "mu_after", "sigma_after", "rating_before", "rating_after",
            ),
            key=repr,
        ),
        "lines": sorted(
            SessionLine.objects.values_list(
                "session_id", "player_id", "tournament_id", "score", "place", "tied", "hands",
                "wins", "self_draws", "deal_ins", "win_total", "entered", "exchanged",
            ),
            key=repr,
        ),
        "wins": sorted(
            WinLine.objects.values_list("session_id", "player_id", "hand_number", "amount")
        ),
    }  # fmt: skip


def awards_state() -> list[tuple]:
    """Every award holder of every season (``ratings.AwardHolder``)."""
    return sorted(
        AwardHolder.objects.values_list(
            "club_id", "season", "code", "order", "player_id", "value", "session_id",
            "hand_number",
        ),
        key=repr,
    )  # fmt: skip


class Standings(NamedTuple):
    """A tournament's standings as a snapshot holds them (its rows read back, in either of
    the layouts a snapshot may have)."""

    rows: tuple
    points_scale: int
    rounds_complete: int
    tables_counted: int


def standings_from_scratch(tournament: Tournament) -> Standings:
    """The standings from the tournament's results as they are now."""
    standings, complete, counted = selectors.standings_now(tournament)
    names = dict(Player.objects.filter(entries__tournament=tournament).values_list("pk", "name"))
    scale, rows = standings_json(standings, names)
    return Standings(snapshot_rows(rows, scale), scale, complete, counted)


def snapshot_standings(snapshot: StandingsSnapshot) -> Standings:
    """What a stored snapshot says."""
    return Standings(
        snapshot_rows(snapshot.rows, snapshot.points_scale), snapshot.points_scale,
        snapshot.rounds_complete, snapshot.tables_counted,
    )  # fmt: skip
