"""The seating package (tournaments/seating): plain Python, no database.

Events are played through ``seat_round`` the way the Celery task does it: each result's round is
appended to the history and its plan handed back for the next round.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    METHODS,
    TIME_LIMIT_S,
    RoundSeating,
    SeatingError,
    SeatingResult,
    TableSeating,
    greedy_swiss,
    quality,
    seat_round,
    timing,
)
from tournaments.seating.assign import balanced_seats
from tournaments.seating.constructions import construct, design_rounds
from tournaments.seating.gf import GF, prime_power
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


# --- the figures that must hold ------------------------------------------------------------------
@pytest.mark.parametrize(("players", "rounds"), [(16, 5), (64, 10), (32, 8), (48, 10)])
def test_balanced_events_repeat_no_pair(players: int, rounds: int) -> None:
    # (how long these take is printed by tests/bench/bench_seating.py, never asserted here)
    history, result = play(range(1, players + 1), rounds)
    assert event_repeats(history) == 0
    assert result.quality.repeated_pairs == 0
    assert result.quality.max_meetings == 1


def test_balanced_is_reproducible_from_the_seed() -> None:
    a, _ = play(range(1, 49), 10, seed=7)
    b, _ = play(range(1, 49), 10, seed=7)
    assert a == b


def test_balanced_plan_is_served_a_round_at_a_time() -> None:
    first = seat_round(method="balanced", players=range(16), history=[], total_rounds=5, seed=3)
    assert len(first.plan) == 4
    second = seat_round(
        method="balanced", players=range(16), history=[first.round], total_rounds=5, seed=3,
        plan=first.plan,
    )  # fmt: skip
    assert second.round == first.plan[0]
    assert second.plan == first.plan[1:]
    # the plan survives a JSON round trip
    restored = [RoundSeating.from_dict(r.as_dict()) for r in first.plan]
    assert restored == list(first.plan)


def test_balanced_seats_and_table_numbers_are_spread() -> None:
    _, result = play(range(1, 33), 8)
    assert result.quality.seat_spread == 0  # everyone was first dealer exactly twice
    assert result.quality.table_spread <= 1
    _, result = play(range(1, 17), 5)
    assert result.quality.seat_spread == 1


# --- re-planning -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "rounds", "changes"),
    [
        (16, 5, {2: lambda ps: ps[1:]}),  # one drops out after round 2
        (16, 5, {2: lambda ps: [*ps, 99]}),  # one arrives late
        (64, 10, {3: lambda ps: ps[1:]}),
        (48, 10, {4: lambda ps: [*ps, 101, 102]}),
    ],
)
def test_replanning_after_a_dropout_or_late_entry_keeps_pairs_fresh(
    players: int, rounds: int, changes: dict
) -> None:
    history, result = play(range(1, players + 1), rounds, changes=changes)
    assert event_repeats(history) == 0
    assert result.quality.repeated_pairs == 0


def test_plan_that_no_longer_fits_is_replaced() -> None:
    first = seat_round(method="balanced", players=range(16), history=[], total_rounds=5, seed=3)
    # a pin that the plan does not honour: the groups stay, the numbers follow the pin
    pinned = {5: 3}
    second = seat_round(
        method="balanced", players=range(16), history=[first.round], total_rounds=5, seed=3,
        plan=first.plan, pinned=pinned,
    )  # fmt: skip
    check_round(second.round, range(16), pinned)
    for rnd in second.plan:
        check_round(rnd, range(16), pinned)
    assert {frozenset(t.players) for t in second.round.tables} == {
        frozenset(t.players) for t in first.plan[0].tables
    }
    # a plan for other players is not used
    other = seat_round(
        method="balanced", players=range(1, 17), history=[first.round], total_rounds=5, seed=3,
        plan=first.plan,
    )  # fmt: skip
    check_round(other.round, range(1, 17))


# --- byes --------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", METHODS)
def test_byes_go_to_different_players_while_possible(method: str) -> None:
    shuffle = random.Random(5)

    def standings(players: list[int], r: int) -> list[int]:
        shuffle.shuffle(players)
        return players

    history, _ = play(range(1, 19), 5, method=method, standings=standings)  # 2 byes a round
    byes = [p for rnd in history for p in rnd.byes]
    assert len(byes) == 10
    assert len(set(byes)) == 10  # 18 players, 10 byes: nobody sits out twice
    history, _ = play(range(1, 8), 6, method=method, standings=standings)  # 3 byes a round
    counts = Counter(p for rnd in history for p in rnd.byes)
    assert sorted(counts.values()) == [2, 2, 2, 3, 3, 3, 3]  # 18 byes over 7 players, even


def test_swiss_byes_go_to_the_lowest_standing_among_those_with_fewest() -> None:
    players = list(range(1, 19))
    first = seat_round(method="swiss", players=players, history=[], total_rounds=4, seed=1)
    had_bye = set(first.round.byes)
    standings = sorted(players, key=lambda p: (p in had_bye, p))  # the round-1 byes rank last
    second = seat_round(
        method="swiss", players=standings, history=[first.round], total_rounds=4, seed=1
    )
    expected = [p for p in standings if p not in had_bye][-2:]
    assert sorted(second.round.byes) == sorted(expected)


def test_pinned_players_never_get_a_bye_unless_unavoidable() -> None:
    pinned = {1: 1, 2: 2, 3: 3, 4: 4}
    for method in METHODS:
        history, _ = play(range(1, 19), 5, pinned=pinned, method=method)  # 2 byes a round
        assert not {1, 2, 3, 4} & {p for rnd in history for p in rnd.byes}
    # 7 players, one table, 4 pinned to it: the three others must sit out
    rnd = seat_round(
        method="random", players=range(1, 8), history=[], total_rounds=1, seed=1,
        pinned={1: 1, 2: 1, 3: 1, 4: 1},
    ).round  # fmt: skip
    assert sorted(rnd.byes) == [5, 6, 7]


# --- pins --------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", METHODS)
def test_pinned_players_sit_at_their_table(method: str) -> None:
    pinned = {3: 2, 9: 4, 10: 4, 17: 1}
    standings = random.Random(2)

    def order(players: list[int], r: int) -> list[int]:
        standings.shuffle(players)
        return players

    history, _ = play(range(1, 22), 3, method=method, pinned=pinned, standings=order)
    for rnd in history:
        check_round(rnd, range(1, 22), pinned)


def test_a_pin_costs_no_repeats_where_the_design_allows() -> None:
    history, _ = play(range(1, 65), 10, pinned={5: 2, 6: 3, 7: 1})
    assert event_repeats(history) == 0
    history, _ = play(range(1, 33), 8, pinned={5: 2, 6: 3, 7: 1})
    assert event_repeats(history) == 0


# --- swiss -------------------------------------------------------------------------------------
def test_swiss_round_one_is_drawn_like_random() -> None:
    def first(method: str) -> RoundSeating:
        return seat_round(
            method=method, players=range(1, 19), history=[], total_rounds=3, seed=4
        ).round

    assert first("swiss") == first("random")
    assert first("swiss").tables[0].players != (1, 2, 3, 4)


def test_an_extra_round_past_the_planned_ones_is_seated() -> None:
    history, _ = play(range(1, 17), 2)
    result = seat_round(
        method="balanced", players=range(1, 17), history=history, total_rounds=2, seed=1
    )
    check_round(result.round, range(1, 17))
    assert result.plan == ()


def test_swiss_keeps_leaders_together() -> None:
    round1 = RoundSeating.from_groups(
        [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    )
    # the top four come from four different tables: they make table 1
    standings = [1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 16]
    rnd = seat_round(
        method="swiss", players=standings, history=[round1], total_rounds=3, seed=1
    ).round
    assert [set(t.players) for t in rnd.tables] == [
        set(standings[i : i + 4]) for i in range(0, 16, 4)
    ]
    # 1 and 2 met: the leader's table takes the next best player instead of 2
    standings = [1, 2, 5, 9, 13, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 16]
    rnd = seat_round(
        method="swiss", players=standings, history=[round1], total_rounds=3, seed=1
    ).round
    assert set(rnd.tables[0].players) == {1, 5, 9, 13}
    assert quality([round1], rnd).repeated_pairs == 0


def random_round(players: Sequence[int], rng: random.Random) -> RoundSeating:
    order = list(players)
    rng.shuffle(order)
    seated = len(order) - len(order) % 4
    groups = [order[i : i + 4] for i in range(0, seated, 4)]
    return RoundSeating.from_groups(groups, order[seated:])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=8, max_value=40),
    rounds=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_swiss_never_repeats_more_than_the_greedy_reference(
    players: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    ids = list(range(100, 100 + players))
    history = [random_round(ids, rng) for _ in range(rounds)]
    rng.shuffle(ids)
    ours = seat_round(method="swiss", players=ids, history=history, total_rounds=9, seed=seed)
    reference = quality(history, greedy_swiss(ids, history))
    assert ours.quality.repeated_pairs_round <= reference.repeated_pairs_round
    check_round(ours.round, ids)


@pytest.mark.parametrize(("players", "rounds"), [(16, 5), (32, 8), (100, 8)])
def test_swiss_event_beats_the_greedy_event(players: int, rounds: int) -> None:
    rng = random.Random(players)
    ids = list(range(1, players + 1))
    ours: list[RoundSeating] = []
    greedy: list[RoundSeating] = []
    for _ in range(rounds):
        rng.shuffle(ids)
        result = seat_round(method="swiss", players=ids, history=ours, total_rounds=rounds, seed=1)
        reference = greedy_swiss(ids, ours)
        assert result.quality.repeated_pairs_round <= quality(ours, reference).repeated_pairs_round
        ours.append(result.round)
        greedy.append(greedy_swiss(ids, greedy))
    assert event_repeats(ours) < event_repeats(greedy)


# --- random ------------------------------------------------------------------------------------
def test_random_is_reproducible_and_depends_on_the_seed() -> None:
    def draw(seed: int) -> RoundSeating:
        return seat_round(
            method="random", players=range(1, 30), history=[], total_rounds=3, seed=seed
        ).round

    assert draw(11) == draw(11)
    assert draw(11) != draw(12)
    assert draw(11).byes != draw(12).byes or draw(11).tables != draw(12).tables


def test_random_avoids_repeats_when_it_can() -> None:
    history, _ = play(range(1, 41), 6, method="random")
    assert event_repeats(history) == 0


# --- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"players": [1, 2, 3]}, "too_few_players"),
        ({"pinned": {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}}, "pin_conflict"),
        ({"pinned": {1: 3}}, "pin_conflict"),  # 8 players: tables 1 and 2 only
        ({"pinned": {1: 0}}, "pin_conflict"),
        ({"method": "alphabetical"}, "unknown_method"),
        ({"players": [1, 2, 3, 4, 4]}, "duplicate_players"),
    ],
)
def test_errors_have_stable_codes(kwargs: dict, code: str) -> None:
    args = {
        "method": "balanced", "players": list(range(1, 9)), "history": [],
        "total_rounds": 3, "seed": 1, **kwargs,
    }  # fmt: skip
    with pytest.raises(SeatingError) as caught:
        seat_round(**args)
    assert caught.value.code == code
    assert isinstance(caught.value, ValueError)


def test_pins_of_players_not_playing_are_ignored() -> None:
    result = seat_round(
        method="balanced", players=range(1, 17), history=[], total_rounds=2, seed=1,
        pinned={99: 7},
    )  # fmt: skip
    check_round(result.round, range(1, 17))


# --- quality, reference, constructions ---------------------------------------------------------
def test_quality_figures() -> None:
    r1 = RoundSeating((TableSeating(1, (1, 2, 3, 4)), TableSeating(2, (5, 6, 7, 8))))
    r2 = RoundSeating((TableSeating(1, (1, 2, 5, 6)), TableSeating(2, (3, 4, 7, 8))))
    r3 = RoundSeating((TableSeating(1, (1, 2, 7, 8)), TableSeating(2, (3, 4, 5, 6))))
    q = quality([r1, r2], r3)
    # 1-2, 3-4, 5-6 and 7-8 meet in every round: two repeats each, one of them in round 3
    assert q.repeated_pairs == 8
    assert q.repeated_pairs_round == 4
    assert q.max_meetings == 3
    assert q.seat_spread == 3  # player 1 was first dealer three times, never in seats 1-3
    assert q.table_spread == 2  # player 1 sat at table 1 three times
    assert quality([r1, r2], r3, pinned={1, 2}).table_spread == 1
    assert set(q.as_dict()) == {
        "repeated_pairs", "repeated_pairs_round", "max_meetings", "seat_spread", "table_spread",
    }  # fmt: skip


def test_greedy_swiss_reference() -> None:
    r1 = RoundSeating.from_groups([[1, 2, 3, 4], [5, 6, 7, 8]])
    rnd = greedy_swiss([1, 2, 5, 6, 3, 4, 7, 8, 9], [r1])
    assert rnd.byes == (9,)
    # 1 takes 5, nobody else is new to both; then simply the next in order
    assert [t.players for t in rnd.tables] == [(1, 5, 2, 6), (3, 7, 4, 8)]
    round2 = RoundSeating.from_groups([[1, 5, 9, 13], [2, 6, 10, 14]])
    rnd = greedy_swiss(list(range(1, 17)), [round2])
    assert [t.players for t in rnd.tables] == [
        (1, 2, 3, 4),
        (5, 6, 7, 8),
        (9, 10, 11, 12),
        (13, 14, 15, 16),
    ]


@pytest.mark.parametrize("n", [16, 20, 28, 32, 36, 64, 100, 128, 256])
def test_constructions_are_repeat_free(n: int) -> None:
    rounds = construct(n, 50, random.Random(n))
    assert len(rounds) == min(50, design_rounds(n))
    seen: set[tuple[int, int]] = set()
    for rnd in rounds:
        assert sorted(p for t in rnd for p in t) == list(range(n))
        for t in rnd:
            for pair in itertools.combinations(sorted(t), 2):
                assert pair not in seen
                seen.add(pair)


def test_constructions_keep_pinned_points_apart() -> None:
    for n, keep in [(16, 3), (64, 4), (32, 8)]:
        for rnd in construct(n, 50, random.Random(1), keep_apart=keep):
            assert all(len(set(range(keep)) & set(t)) <= 1 for t in rnd)


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(min_value=4, max_value=41),
    rounds=st.integers(min_value=1, max_value=12),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_plan_seats_are_exactly_balanced(players: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    groups = [
        [list(t.players) for t in random_round(range(players), rng).tables] for _ in range(rounds)
    ]
    seated = balanced_seats(groups, rng)
    seats: dict[int, list[int]] = {}
    for rnd, orders in zip(groups, seated, strict=True):
        for group, order in zip(rnd, orders, strict=True):
            assert sorted(order) == sorted(group)
            for seat, p in enumerate(order):
                seats.setdefault(p, [0, 0, 0, 0])[seat] += 1
    for counts in seats.values():
        assert max(counts) - min(counts) <= (1 if sum(counts) % 4 else 0)


def test_finite_fields() -> None:
    assert prime_power(8) == (2, 3)
    assert prime_power(12) is None
    for q in (4, 8, 9, 25):
        f = GF(q)
        for a, b, c in itertools.product(range(q), repeat=3):
            assert f.mul[a][f.add[b][c]] == f.add[f.mul[a][b]][f.mul[a][c]]
        assert all(any(f.mul[a][b] == 1 for b in range(q)) for a in range(1, q))


@pytest.mark.parametrize("method", METHODS)
def test_a_large_round_repeats_no_pair(method: str) -> None:
    # How long it takes (the target: 5 s) is printed by tests/bench/bench_seating.py.
    rng = random.Random(3)
    ids = list(range(1, 1024))  # 1023: no design fits, three byes
    history = [random_round(ids, rng) for _ in range(3)]
    result = seat_round(method=method, players=ids, history=history, total_rounds=10, seed=1)
    check_round(result.round, ids)
    assert result.quality.repeated_pairs_round == 0


# --- the clock ---------------------------------------------------------------------------------
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
