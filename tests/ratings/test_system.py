"""The rating model and why it is Bradley–Terry (``ratings/system.py``).

These pin the library's behaviour: an openskill upgrade that changes how a tie is rated fails
here, loudly, before it moves anyone's rating.
"""

from __future__ import annotations

import random
from importlib.metadata import version

import pytest
from openskill.models import PlackettLuce

from ratings import system


def test_openskill_is_the_pinned_version():
    assert version("openskill") == "6.2.0" == system.LIBRARY_VERSION


def test_plackett_luce_rates_a_tie_for_first_level_with_the_third():
    """Why not the default model: two new players tied on +10 and one on 0 (the fourth on
    −20) all come out at μ 25.93 under PlackettLuce in openskill 6.2.0: the player in third
    gains exactly what the two winners gain."""
    model = PlackettLuce()
    teams = [[model.rating()] for _ in range(4)]
    rated = model.rate(teams, scores=[10, 10, 0, -20])
    mus = [round(t[0].mu, 2) for t in rated]
    assert mus[:3] == [25.93, 25.93, 25.93]
    assert mus[3] < 25


def test_bradley_terry_rates_the_tied_winners_alike_and_above_the_third():
    new = system.Skill()
    rated = system.rate_table([new] * 4, [1, 1, 3, 4])
    after = [r.after.mu for r in rated]
    assert after[0] == after[1]
    assert after[0] > after[2] > after[3]
    # the winners gain what the last loses, near enough: the model is symmetric
    assert after[0] - 25 > 25 - after[2] > 0


def test_a_new_player_shows_1500_and_a_point_is_the_same_everywhere():
    # ordinal = α·(μ − 3σ) + target, α = 200/σ₀: μ 25, σ 25/3 → 200/(25/3)·0 + 1500
    assert system.Skill().display == pytest.approx(1500)
    # one σ₀ of μ is 200 points
    assert system.Skill(mu=25 + system.SIGMA).display == pytest.approx(1700)


def test_the_expected_places_come_from_predict_rank():
    strong, new, weak = system.Skill(mu=35, sigma=3), system.Skill(), system.Skill(mu=15, sigma=3)
    rated = system.rate_table([strong, new, new, weak], [4, 2, 3, 1])
    assert [r.expected_place for r in rated] == [1, 2, 2, 4]
    # a strong player who came last loses more than the new players move
    assert rated[0].after.mu < strong.mu
    assert rated[3].after.mu > weak.mu
    assert all(0 < r.expected_probability < 1 for r in rated)


def test_the_parameters_are_recorded_with_the_model():
    assert system.MODEL_NAME == "BradleyTerryFull"
    assert system.PARAMETERS["mu"] == 25 and system.PARAMETERS["ranked_by"] == "place"
    assert len(system.system_key()) == 64


def test_the_plain_float_model_is_openskill_to_the_last_bit():
    """``rate_seats`` (what a recompute rates with) against openskill's own ``rate_table`` on
    random tables of two to four: new and seasoned players, ties of every shape; every
    expected place, probability, μ and σ equal, not approximately."""
    rnd = random.Random(25)
    for _ in range(20_000):
        n = rnd.choice((2, 3, 4, 4, 4))
        if rnd.random() < 0.1:
            skills = [system.Skill()] * n
        else:
            skills = [
                system.Skill(rnd.uniform(-5, 60), rnd.uniform(0.01, 12))
                if rnd.random() < 0.85
                else system.Skill()
                for _ in range(n)
            ]
        scores = [rnd.randint(-2, 2) for _ in range(n)]  # ties share the better place
        places = [1 + sum(other > mine for other in scores) for mine in scores]
        library = [
            (r.expected_place, r.expected_probability, r.after.mu, r.after.sigma)
            for r in system.rate_table(skills, places)
        ]
        plain = system.rate_seats([(s.mu, s.sigma) for s in skills], places)
        assert [tuple(seat) for seat in plain] == library, (skills, places)
        assert all(isinstance(seat.expected_place, int) for seat in plain)


def test_the_display_of_plain_floats_is_the_skills():
    rnd = random.Random(7)
    for _ in range(1000):
        skill = system.Skill(rnd.uniform(0, 50), rnd.uniform(0.1, 9))
        assert system.display(skill.mu, skill.sigma) == skill.display
