"""``seat_round`` (tournaments/seating/seat.py): balanced plans, re-planning, byes, pins, swiss and
random rounds, the errors. Plain Python, no database.

Events are played through ``seat_round`` the way the Celery task does it (``helpers.play``).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.seating.helpers import check_round, event_repeats, play, random_round
from tournaments.seating import (
    METHODS,
    RoundSeating,
    SeatingError,
    greedy_swiss,
    quality,
    seat_round,
)


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


# --- a large round -----------------------------------------------------------------------------
@pytest.mark.parametrize("method", METHODS)
def test_a_large_round_repeats_no_pair(method: str) -> None:
    # How long it takes (the target: 5 s) is printed by tests/bench/bench_seating.py.
    rng = random.Random(3)
    ids = list(range(1, 1024))  # 1023: no design fits, three byes
    history = [random_round(ids, rng) for _ in range(3)]
    result = seat_round(method=method, players=ids, history=history, total_rounds=10, seed=1)
    check_round(result.round, ids)
    assert result.quality.repeated_pairs_round == 0
