"""The wall clock in seating (tournaments/seating/timing.py): it may end a round with
``seating_timeout``, never change the seating.

The clock is patched through ``timing.clock``, the one clock the seating reads.
"""

from __future__ import annotations

import random
import sys
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


# --- a large round: every long loop looks at the clock --------------------------------------------
def large_case(method: str) -> dict:
    """The unit suite's large round (test_seat.py): 1,023 players after three random rounds, so
    a balanced plan is searched, numbered against the history and improved pass by pass."""
    rng = random.Random(3)
    ids = list(range(1, 1024))
    history = [random_round(ids, rng) for _ in range(3)]
    return {"method": method, "players": ids, "history": history, "total_rounds": 10}


def readers(monkeypatch, then: float | None = None, inside: str = "") -> set[str]:
    """Patch the clock to note which functions read it; it reads 0, or ``then`` once a function
    named ``inside`` has read it."""
    names: set[str] = set()

    def clock() -> float:
        caller = sys._getframe(2).f_code.co_name  # the function that called TimeLimit.check
        names.add(caller)
        return then if then is not None and inside in names else 0.0

    monkeypatch.setattr(timing, "clock", clock)
    return names


def test_a_large_balanced_round_looks_at_the_clock_in_every_long_loop(monkeypatch) -> None:
    names = readers(monkeypatch)
    seat_round(seed=1, **large_case("balanced"))
    # the meeting table, the greedy fill, the table numbers, every pass over the plan and the
    # improvement of each round in it (the loop that once ran for a minute at 4,096 players
    # without a look)
    assert {"_reset", "fill_groups", "place_round", "place_plan", "_improve_round"} <= names


@pytest.mark.parametrize("method", ["swiss", "random"])
def test_a_large_swiss_round_looks_at_the_clock_in_every_long_loop(method: str, monkeypatch):
    names = readers(monkeypatch)
    seat_round(seed=1, **large_case(method))
    assert {"_reset", "fill_groups", "settle", "place_round"} <= names


@pytest.mark.parametrize("inside", ["_improve_round", "place_plan", "fill_groups", "_reset"])
def test_a_limit_reached_while_a_plan_is_placed_is_an_error(inside: str, monkeypatch) -> None:
    # The clock jumps past the limit the first time it is read in that loop: the round is
    # refused there, not finished late and not finished differently.
    readers(monkeypatch, then=TIME_LIMIT_S + 1, inside=inside)
    with pytest.raises(SeatingError) as caught:
        seat_round(seed=1, **large_case("balanced"))
    assert caught.value.code == "seating_timeout"


def test_a_limit_of_zero_is_an_error_before_any_search(monkeypatch) -> None:
    names: set[str] = set()
    ticks = iter(range(10**9))

    def clock() -> float:  # a clock that moves on a nanosecond at every look
        names.add(sys._getframe(2).f_code.co_name)
        return next(ticks) * 1e-9

    monkeypatch.setattr(timing, "clock", clock)
    with pytest.raises(SeatingError) as caught:
        seat_round(seed=1, time_limit=0, **large_case("balanced"))
    assert caught.value.code == "seating_timeout"
    # refused at the first look, before the plan's search or its table numbers began
    assert not names & {"tabu_search", "anneal", "place_plan", "_improve_round"}
