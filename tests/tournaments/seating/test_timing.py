"""The wall clock in seating (tournaments/seating/timing.py): it may end a round with
``seating_timeout``, never change the seating.

The clock is patched through ``timing.clock``, the one clock the seating reads.
"""

from __future__ import annotations

import random
import time

import pytest

from tests.tournaments.seating.helpers import random_round
from tournaments.seating import TIME_LIMIT_S, SeatingError, seat_round, timing


def tight_cases() -> list[dict]:
    """Rounds whose search runs for real (spends moves), one per method.

    17 players over 5 rounds balanced (a bye each round, no design fits); 16 players after five
    random rounds, where no swiss or random round can avoid every repeat.
    """
    rng = random.Random(5)
    ids = list(range(1, 17))
    history = [random_round(ids, rng) for _ in range(5)]
    return [
        {"method": "balanced", "players": range(1, 18), "history": [], "total_rounds": 5},
        {"method": "swiss", "players": ids, "history": history, "total_rounds": 9},
        {"method": "random", "players": ids, "history": history, "total_rounds": 9},
    ]


@pytest.mark.parametrize("case", tight_cases(), ids=lambda c: c["method"])
def test_a_slow_clock_gives_the_same_seating(case: dict, monkeypatch) -> None:
    fast = seat_round(seed=1, **case)
    reads = 0

    def slow() -> float:  # a worker 100 times slower than this one
        nonlocal reads
        reads += 1
        return 100 * time.perf_counter()

    monkeypatch.setattr(timing, "clock", slow)
    # with a time limit to match, so that only the speed differs
    again = seat_round(seed=1, time_limit=100 * TIME_LIMIT_S, **case)
    assert again == fast  # the tables, the plan and the quality
    # the search did look at the clock (more than at the start and the end of the round)
    assert reads > 2


#: 16 x 5 balanced is a design (AG(2, 4)): no search runs at all.
DESIGN_CASE = {"method": "balanced", "players": range(16), "history": [], "total_rounds": 5}


@pytest.mark.parametrize(
    "case", [*tight_cases(), DESIGN_CASE], ids=["balanced", "swiss", "random", "design"]
)
def test_a_clock_past_the_limit_is_an_error(case: dict, monkeypatch) -> None:
    # The clock jumps past the limit right after the round starts: inside the search where one
    # runs, at the end of the round where none is needed (16 x 5 is a design).
    readings = iter([0.0])
    monkeypatch.setattr(timing, "clock", lambda: next(readings, TIME_LIMIT_S + 1))
    with pytest.raises(SeatingError) as caught:
        seat_round(seed=1, **case)
    assert caught.value.code == "seating_timeout"


def test_the_time_limit_is_a_parameter(monkeypatch) -> None:
    # A clock that reads 0 when the round starts and 5 s at every later look.
    case = tight_cases()[0]
    expected = seat_round(seed=1, **case)
    readings = iter([0.0])
    monkeypatch.setattr(timing, "clock", lambda: next(readings, 5.0))
    assert seat_round(seed=1, time_limit=10, **case) == expected  # 5 s < 10 s: the same seating
    readings = iter([0.0])
    with pytest.raises(SeatingError) as caught:
        seat_round(seed=1, time_limit=4, **case)  # 5 s > 4 s
    assert caught.value.code == "seating_timeout"
