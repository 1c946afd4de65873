"""The award rules of ``ratings.awards``, each on figures written by hand: the winner, a tie
(every tied player wins), and nobody when nobody earned it."""

from __future__ import annotations

import pytest

from core.names import Name
from ratings.awards import (
    AWARDS,
    AWARDS_BY_CODE,
    IRON_WALL_MIN_HANDS,
    ONE_SUIT_PATTERNS,
    SEVEN_PAIRS_PATTERNS,
    UNITS,
    HandRef,
    PlayerFigures,
    Winner,
    awards_for,
)


def p(pid: int, name: str | None = None, **figures) -> PlayerFigures:
    return PlayerFigures(player_id=pid, name=name or f"P{pid}", **figures)


def winners(code: str, players: list[PlayerFigures]) -> list[tuple[int, int | float]]:
    return [(w.player_id, w.value) for w in AWARDS_BY_CODE[code].winners(players)]


def test_every_award_is_named_in_both_languages_and_has_a_unit():
    codes = [a.code for a in AWARDS]
    assert len(codes) == len(set(codes)) == len(AWARDS_BY_CODE)
    assert {"qingyise_king", "kong_god", "iron_wall", "big_spender", "quick_draw",
            "grand_slam", "self_draw_king", "regular"} <= set(codes)  # fmt: skip
    for award in AWARDS:
        assert isinstance(award.name, Name) and isinstance(award.description, Name)
        assert all([award.name.zh, award.name.en, award.description.zh, award.description.en])
        assert award.unit in UNITS


def test_nobody_wins_anything_among_nobody():
    assert all(w == [] for _, w in awards_for([]))


# --- 清一色之王 and 七对达人: the pattern families -----------------------------------------------


def test_the_one_suit_family_is_read_from_the_engine():
    assert {"qingyise", "qingdui", "qingqidui", "qingyaojiu",
                                 "qinglongqidui"} == ONE_SUIT_PATTERNS  # fmt: skip
    assert {"qidui", "longqidui", "qingqidui", "qinglongqidui"} == SEVEN_PAIRS_PATTERNS


def test_qingyise_king_counts_the_family():
    """P1: 清一色 ×2 = 2; P2: 清对 + 清七对 = 2 (tied); P3: 平胡 ×5 counts nothing."""
    players = [
        p(1, pattern_counts={"qingyise": 2, "pinghu": 1}),
        p(2, pattern_counts={"qingdui": 1, "qingqidui": 1}),
        p(3, pattern_counts={"pinghu": 5}),
    ]
    assert winners("qingyise_king", players) == [(1, 2), (2, 2)]
    assert winners("qingyise_king", players[:1]) == [(1, 2)]


def test_qingyise_king_needs_one():
    assert winners("qingyise_king", [p(1, pattern_counts={"pinghu": 9}), p(2)]) == []


def test_seven_pairs():
    """P1: 七对 + 龙七对 = 2; P2: 清七对 = 1 (it is of both families)."""
    players = [p(1, pattern_counts={"qidui": 1, "longqidui": 1}),
               p(2, pattern_counts={"qingqidui": 1})]  # fmt: skip
    assert winners("seven_pairs", players) == [(1, 2)]
    assert winners("qingyise_king", players) == [(2, 1)]
    assert winners("seven_pairs", [p(1, pattern_counts={"duiduihu": 3})]) == []


# --- the "most" awards ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "figure"),
    [
        ("kong_god", "kongs"),
        ("big_spender", "deal_ins"),
        ("quick_draw", "first_wins"),
        ("self_draw_king", "self_draws"),
        ("most_wins", "wins"),
        ("regular", "sessions"),
        ("top_scorer", "total"),
    ],
)
def test_most(code, figure):
    """The largest figure wins; a tie shares it (in name order: 'Ann' before 'Zed' whatever
    the ids); nobody when everyone has 0."""
    assert winners(code, [p(1, **{figure: 3}), p(2, **{figure: 5}), p(3)]) == [(2, 5)]
    tied = [p(1, "Zed", **{figure: 4}), p(2, "Ann", **{figure: 4}), p(3, **{figure: 1})]
    assert winners(code, tied) == [(2, 4), (1, 4)]
    assert winners(code, [p(1), p(2)]) == []


def test_top_scorer_needs_a_total_above_zero():
    """Everyone lost (a table of guests won): no 大赢家."""
    assert winners("top_scorer", [p(1, total=-3), p(2, total=-1)]) == []
    assert winners("top_scorer", [p(1, total=-3), p(2, total=1)]) == [(2, 1)]


# --- 铁壁: the fewest deal-ins per hand, with a minimum of hands -------------------------------


def test_iron_wall_fewest_deal_ins_per_hand():
    """P1: 3 in 60 = 0.05; P2: 5 in 200 = 0.025 (fewer per hand, though more in all); P3: 0 in
    40 has too few hands to count."""
    assert IRON_WALL_MIN_HANDS == 50
    players = [p(1, hands=60, deal_ins=3), p(2, hands=200, deal_ins=5), p(3, hands=40)]
    assert winners("iron_wall", players) == [(2, 0.025)]


def test_iron_wall_ties_are_exact_and_zero_wins():
    """3/60 and 4/80 are both 1/20 exactly: tied. A clean sheet over 50 hands beats them."""
    players = [p(1, hands=60, deal_ins=3), p(2, hands=80, deal_ins=4)]
    assert winners("iron_wall", players) == [(1, 0.05), (2, 0.05)]
    assert winners("iron_wall", [*players, p(3, hands=50)]) == [(3, 0.0)]


def test_iron_wall_minimum_is_inclusive_and_needed():
    assert winners("iron_wall", [p(1, hands=49), p(2, hands=10, deal_ins=1)]) == []
    assert winners("iron_wall", [p(1, hands=50, deal_ins=1)]) == [(1, 0.02)]


def test_iron_wall_rounds_the_figure_shown():
    """1 in 70 = 0.0142857…: shown 0.0143."""
    assert winners("iron_wall", [p(1, hands=70, deal_ins=1)]) == [(1, 0.0143)]


# --- 大满贯: the biggest single hand, with where it was ------------------------------------------


def test_grand_slam_gives_the_hand():
    at = HandRef(session_id=7, hand_number=3)
    players = [p(1, biggest_hand=16, biggest_hand_at=at), p(2, biggest_hand=8,
               biggest_hand_at=HandRef(5, 1)), p(3)]  # fmt: skip
    assert AWARDS_BY_CODE["grand_slam"].winners(players) == [Winner(1, "P1", 16, at)]


def test_grand_slam_tie_and_nobody():
    a, b = HandRef(1, 2), HandRef(3, 4)
    tied = [p(2, "Bo", biggest_hand=32, biggest_hand_at=b),
            p(1, "Al", biggest_hand=32, biggest_hand_at=a)]  # fmt: skip
    assert AWARDS_BY_CODE["grand_slam"].winners(tied) == [
        Winner(1, "Al", 32, a), Winner(2, "Bo", 32, b),
    ]  # fmt: skip
    assert AWARDS_BY_CODE["grand_slam"].winners([p(1, hands=30), p(2)]) == []
