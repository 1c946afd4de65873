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
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

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
