"""A tournament's standings rules (tournaments/standings/rules.py): defaults, validation.

Every expected value is worked out by hand beside it (the defaults: see helpers.py).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tournaments.standings import (
    DEFAULT_PLACEMENT_POINTS,
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    StandingsError,
    StandingsRules,
    mean_placement_points,
)


def test_defaults():
    assert DEFAULT_PLACEMENT_POINTS == (4, 2, 1, 0)
    assert DEFAULT_TIEBREAKS == (
        "placement_points",
        "table_score",
        "first_places",
        "best_table_score",
        "head_to_head",
    )
    # the default chain uses every tiebreak there is, each once
    assert frozenset(DEFAULT_TIEBREAKS) == frozenset(TIEBREAKS)
    # (4 + 2 + 1 + 0) / 4 = 7/4, the default bye
    assert mean_placement_points() == F(7, 4)
    assert StandingsRules().bye_points == F(7, 4)


def test_unknown_and_duplicate_tiebreak():
    with pytest.raises(StandingsError) as err:
        StandingsRules(tiebreaks=("placement_points", "coin_flip"))
    assert err.value.code == "unknown_tiebreak"
    assert "coin_flip" in err.value.message
    with pytest.raises(StandingsError) as err:
        StandingsRules(tiebreaks="table_score_total")
    assert err.value.code == "unknown_tiebreak"
    with pytest.raises(StandingsError) as err:
        StandingsRules(tiebreaks=("table_score", "table_score"))
    assert err.value.code == "duplicate_tiebreak"


def test_rules_refuse_bad_points_and_bye():
    with pytest.raises(StandingsError) as err:
        StandingsRules(placement_points=(4, 2, 1))
    assert err.value.code == "invalid_placement_points"
    with pytest.raises(StandingsError) as err:
        StandingsRules(placement_points=(4, 2, 0.5, 0))
    assert err.value.code == "invalid_placement_points"
    with pytest.raises(StandingsError) as err:
        StandingsRules(bye_points=1.75)
    assert err.value.code == "invalid_bye_score"
    with pytest.raises(StandingsError) as err:
        StandingsRules(bye_table_score=F(1, 2))
    assert err.value.code == "invalid_bye_score"
    # lists are accepted and kept as tuples, so rules stay hashable
    rules = StandingsRules(placement_points=[3, 2, 1, 0], tiebreaks=["table_score"])
    assert rules.placement_points == (3, 2, 1, 0)
    assert rules.tiebreaks == ("table_score",)
    assert hash(rules)
