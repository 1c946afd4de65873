"""The wall clock in seating: it may stop a seating with an error, never change one.

Every search budget counts moves (see ``seat.py``), so a seating depends only on its inputs and
a slow worker answers the same tables as a fast one. The clock only guards against a worker so
starved or stuck that it should give up: past the time limit, ``seat_round`` raises
``SeatingError("seating_timeout", …)`` instead of answering a seating the search had no time
to finish.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .model import SeatingError

#: The clock seating reads, in seconds. Looked up here at every check, so a test can patch it
#: (a clock that runs slow, or jumps) without touching the search.
clock: Callable[[], float] = time.perf_counter

#: How long one round may take before seating gives up. The move budgets bound the work: the
#: slowest round measured here, 1,023 players balanced, takes about 2 s (a tight 32 x 10 plan
#: under 1 s), and a loaded 2-core machine took 6.0 s for it, about 3 times as long. 20 s
#: leaves ten times the figure here, and still ends before gunicorn's 30 s worker timeout, so
#: a round seated inside a request (Celery eager mode) answers the error, not a killed worker.
#: At 4,096 players balanced the slowest round (re-planned, then placed pass by pass) costs
#: about 8 s of CPU on that loaded machine: a worker starved to a third of a core gives up.
#: Every long loop looks at the clock often enough to stop within a few percent of the limit
#: (tests/bench/bench_seating.py).
TIME_LIMIT_S = 20.0


class TimeLimit:
    """The end of the time one round's seating may take, started when it is made."""

    __slots__ = ("seconds", "ends")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.ends = clock() + seconds

    def check(self) -> None:
        """Raise ``seating_timeout`` once the time is up; otherwise do nothing at all."""
        if clock() > self.ends:
            raise SeatingError(
                "seating_timeout",
                f"seating the round took longer than its time limit of {self.seconds:g} s",
            )
