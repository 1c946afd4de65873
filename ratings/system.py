"""The rating model (openskill's Weng–Lin Bradley–Terry, full pairing) and one rated table.

Why ``BradleyTerryFull`` and not openskill's default ``PlackettLuce``: in openskill 6.2.0
Plackett–Luce rates a tie for first so that the player in third ends level with the two tied
winners (two on +10 and one on 0 all come out at μ 25.93), which no player would accept as the
result of a table; Bradley–Terry compares every pair, so the tied winners gain alike and the
third gains less (``tests/ratings/test_system.py`` keeps both checks, so an upgrade that changes
either fails loudly).

A table is ranked by the places of its session outcome (ties share the better place). The
display rating is ``ordinal(z=3, alpha=200/σ₀, target=1500)``: a new player (μ 25, σ 25/3)
shows 1500, and a point of display rating is the same everywhere.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any, NamedTuple

from openskill.models import BradleyTerryFull

MODEL_NAME = "BradleyTerryFull"
LIBRARY_VERSION = version("openskill")
MU = 25.0
SIGMA = MU / 3
Z = 3.0
ALPHA = 200 / SIGMA
TARGET = 1500.0

_MODEL = BradleyTerryFull(mu=MU, sigma=SIGMA)

#: what every rating row records of the model that computed it
PARAMETERS: dict[str, Any] = {
    "mu": MU,
    "sigma": SIGMA,
    "beta": _MODEL.beta,
    "kappa": _MODEL.kappa,
    "tau": _MODEL.tau,
    "limit_sigma": _MODEL.limit_sigma,
    "balance": _MODEL.balance,
    "ranked_by": "place",
    "display": {"z": Z, "alpha": ALPHA, "target": TARGET},
}


def system_key() -> str:
    text = json.dumps([MODEL_NAME, PARAMETERS, LIBRARY_VERSION], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Skill:
    """A player's skill estimate: mean μ and uncertainty σ."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def display(self) -> float:
        return ALPHA * ((self.mu - Z * self.sigma) + TARGET / ALPHA)


@dataclass(frozen=True)
class RatedSeat:
    before: Skill
    after: Skill
    place: int
    expected_place: int
    expected_probability: float


def rate_table(skills: list[Skill], table_places: list[int]) -> list[RatedSeat]:
    """Rate one table: each player's skill before, his place (1–4, ties shared); answers
    what the model expected of each and where each stands after."""
    teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    expected = _MODEL.predict_rank(teams)
    rated = _MODEL.rate(teams, ranks=list(table_places))
    return [
        RatedSeat(
            before=s,
            after=Skill(team[0].mu, team[0].sigma),
            place=place,
            expected_place=rank,
            expected_probability=probability,
        )
        for s, team, place, (rank, probability) in zip(
            skills, rated, table_places, expected, strict=True
        )
    ]


# --- the same model in plain floats ----------------------------------------------------------

#: the openskill release :func:`rate_seats` repeats, operation for operation
LEAN_VERSION = "6.2.0"
_BETA_SQUARED_TWICE = 2 * _MODEL.beta**2
_TAU_SQUARED = _MODEL.tau * _MODEL.tau
_KAPPA = _MODEL.kappa
_SQRT2 = math.sqrt(2.0)  # as ``statistics.NormalDist.cdf`` divides by it


class SeatRated(NamedTuple):
    """One seat of a table rated by :func:`rate_seats`: what the model expected of it and
    where its player stands after."""

    expected_place: int
    expected_probability: float
    mu: float
    sigma: float


def display(mu: float, sigma: float) -> float:
    """:attr:`Skill.display` of a skill held as two floats (the same expression)."""
    return ALPHA * ((mu - Z * sigma) + TARGET / ALPHA)


def rate_seats(before: Sequence[tuple[float, float]], places: Sequence[int]) -> list[SeatRated]:
    """:func:`rate_table` in plain floats, for a recompute that rates tens of thousands of
    tables: openskill's ``predict_rank`` and ``rate`` spend most of their time building,
    deep-copying and naming (``uuid4``) rating objects, a few times the arithmetic itself.

    The arithmetic is openskill 6.2.0's ``BradleyTerryFull`` for teams of one player with
    ranks and no weights, scores nor margin, step by step and in its order — the same
    operations on the same floats (``x ** 2`` where it squares by a power, ``x * x`` where it
    multiplies, sums in its order), so every result is the same to the last bit
    (``tests/ratings/test_system.py`` compares both on many random tables). Any other release
    of the library is rated by the library itself."""
    if LIBRARY_VERSION != LEAN_VERSION:
        rated = rate_table([Skill(mu, sigma) for mu, sigma in before], list(places))
        return [
            SeatRated(r.expected_place, r.expected_probability, r.after.mu, r.after.sigma)
            for r in rated
        ]
    n = len(before)
    # predict_rank, on the skills as they stand: a team's μ and σ² as openskill sums them
    team_mu = [0.0 + mu * 1.0 for mu, _ in before]
    team_var = [0.0 + (sigma * 1.0) ** 2 for _, sigma in before]
    wins = []
    for i in range(n):
        p = 0.0
        for j in range(n):
            if i != j:
                x = (team_mu[i] - team_mu[j]) / math.sqrt(
                    _BETA_SQUARED_TWICE + team_var[i] + team_var[j]
                )
                p += 0.5 * (1.0 + math.erf((x - 0.0) / (1.0 * _SQRT2)))
        wins.append(p / (n - 1))
    total = sum(wins)
    probabilities = [p / total for p in wins]
    by_chance = sorted(enumerate(probabilities), key=lambda x: x[1], reverse=True)
    expected = [0] * n
    rank = 1
    for k, (seat, _) in enumerate(by_chance):
        if k > 0 and by_chance[k][1] < by_chance[k - 1][1]:
            rank = k + 1
        expected[seat] = rank

    # rate: σ widened by τ, the seats taken in order of place (a stable sort, as openskill's)
    sigmas = [math.sqrt(sigma * sigma + _TAU_SQUARED) for _, sigma in before]
    order = sorted(range(n), key=lambda i: places[i])
    var = [0.0 + (sigma * 1.0) ** 2 for sigma in sigmas]
    mu_after = [0.0] * n
    sigma_after = [0.0] * n
    for i in order:
        omega = 0.0
        delta = 0.0
        mu_i, var_i, place_i = team_mu[i], var[i], places[i]
        for q in order:
            if q == i:
                continue
            c_iq = math.sqrt(var_i + var[q] + _BETA_SQUARED_TWICE)
            piq = 1 / (1 + math.exp(((team_mu[q] - mu_i) / 1.0) / c_iq))
            var_to_ciq = var_i / c_iq
            s = 1.0 if places[q] > place_i else 0.5 if places[q] == place_i else 0.0
            omega += var_to_ciq * (s - piq)
            gamma = math.sqrt(var_i) / c_iq
            delta += ((gamma * var_to_ciq) / c_iq) * piq * (1 - piq)
        mu, sigma = before[i][0], sigmas[i]
        share = sigma**2 / var_i
        if omega >= 0:
            mu += share * omega * 1.0
            sigma *= math.sqrt(max(1 - share * delta * 1.0, _KAPPA))
        else:
            mu += share * omega / 1.0
            sigma *= math.sqrt(max(1 - share * delta / 1.0, _KAPPA))
        mu_after[i], sigma_after[i] = mu, sigma
    # openskill 6.2.0 then moves each tied group by its average change, measured against the
    # players it has already updated in place: the average is 0.0, and adding it changes
    # nothing but a −0.0
    tied = [i for i in range(n) if places.count(places[i]) > 1]
    for i in tied:
        mu_after[i] = mu_after[i] + 0.0
    return [SeatRated(expected[i], probabilities[i], mu_after[i], sigma_after[i]) for i in range(n)]
