"""The round clock as the pages show it (the live tables, the projector, the round desk and a
tournament table's page): what is left, worked out from the stored times when the page is
served; ``pages/static/pages/clock.js`` counts down from there."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tournaments.readmodels import RoundClock


@dataclass(frozen=True)
class ClockShown:
    """A clock as a page shows it: the round, when it ends (for this table, if one), what is
    left as text (1:05:03, 45:00, 0:00) and whether time is up; ``clock.js`` counts down from
    ``ends_at``."""

    round: int
    ends_at: datetime
    left: str
    over: bool


def clock_shown(
    clock: RoundClock | None, now: datetime, table: int | None = None
) -> ClockShown | None:
    if clock is None:
        return None
    seconds = clock.seconds_left(now, table)
    hours, rest = divmod(seconds, 3600)
    left = f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
    return ClockShown(clock.round, clock.ends_at(table), left, seconds == 0)
