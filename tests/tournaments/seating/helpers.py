"""Helpers of the seating tests: play a whole event, check a round, draw a random one.

Events are played through ``seat_round`` the way the Celery task does it: each result's round is
appended to the history and its plan handed back for the next round.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from tournaments.seating import RoundSeating, SeatingResult, seat_round
from tournaments.seating.quality import meetings


def check_round(
    rnd: RoundSeating, players: Sequence[int], pinned: Mapping[int, int] | None = None
) -> None:
    """Every active player seated exactly once or on a bye; tables 1..T of four."""
    tables = len(players) // 4
    assert [t.number for t in rnd.tables] == list(range(1, tables + 1))
    assert all(len(t.players) == 4 for t in rnd.tables)
    assert len(rnd.byes) == len(players) % 4
    everyone = [p for t in rnd.tables for p in t.players] + list(rnd.byes)
    assert sorted(everyone) == sorted(players)
    for p, number in (pinned or {}).items():
        if p in players:
            assert p not in rnd.byes
            assert p in rnd.tables[number - 1].players


def play(
    players: Sequence[int],
    rounds: int,
    *,
    method: str = "balanced",
    seed: int = 1,
    pinned: Mapping[int, int] | None = None,
    changes: Mapping[int, Callable[[list[int]], list[int]]] | None = None,
    standings: Callable[[list[int], int], list[int]] | None = None,
) -> tuple[list[RoundSeating], SeatingResult]:
    """Seat a whole event; ``changes[r]`` edits the player list before round r (0-based)."""
    players = list(players)
    history: list[RoundSeating] = []
    plan: tuple[RoundSeating, ...] = ()
    result = None
    for r in range(rounds):
        if changes and r in changes:
            players = changes[r](players)
        if standings:
            players = standings(players, r)
        result = seat_round(
            method=method,
            players=players,
            history=history,
            total_rounds=rounds,
            seed=seed,
            pinned=pinned,
            plan=plan,
        )
        check_round(result.round, players, pinned)
        history.append(result.round)
        plan = result.plan
    assert result is not None
    return history, result


def event_repeats(history: Sequence[RoundSeating]) -> int:
    return sum(m - 1 for m in meetings(history).values() if m > 1)


def random_round(players: Sequence[int], rng: random.Random) -> RoundSeating:
    order = list(players)
    rng.shuffle(order)
    seated = len(order) - len(order) % 4
    groups = [order[i : i + 4] for i in range(0, seated, 4)]
    return RoundSeating.from_groups(groups, order[seated:])
