"""Fixtures of the tournaments tests: a host club with its director and scorer, a way to run
the tasks queued on commit in-process, and helpers to seat rounds and enter results."""

from __future__ import annotations

import pytest

from clubs.models import Role
from tests.clubs.factories import ClubFactory
from tests.helpers import client_for, member_login
from tournaments import services
from tournaments.models import Tournament


@pytest.fixture
def host(db):
    return ClubFactory(slug="host", name="Host club")


@pytest.fixture
def director(host):
    return member_login(host, Role.ORGANISER, "director")


@pytest.fixture
def scorer(host):
    return member_login(host, Role.SCORER, "scorer")


@pytest.fixture
def director_client(director):
    return client_for(director)


@pytest.fixture
def scorer_client(scorer):
    return client_for(scorer)


@pytest.fixture
def make_tournament(host, director):
    def make(players: int = 16, **fields) -> Tournament:
        fields.setdefault("rounds", 5)
        fields.setdefault("hands_per_table", 1)
        t = services.tournament_create(
            name=fields.pop("name", "Open"), slug=fields.pop("slug", "open"), user=director,
            club=fields.pop("club", host), **fields,
        )  # fmt: skip
        for i in range(players):
            services.registration_create(tournament=t, name=f"P{i + 1:02d}", seed_rating=2000 - i)
        return t

    return make


@pytest.fixture
def enter(django_capture_on_commit_callbacks, in_process_tasks, director):
    """Enter a table's totals (in seat order) through the service, running what it queues."""

    def run(table, totals: list[int]) -> None:
        seats = list(table.session.seats.order_by("number"))
        scores = [{"player": s.player_id, "score": t} for s, t in zip(seats, totals, strict=True)]
        with django_capture_on_commit_callbacks(execute=True):
            services.table_result_enter(table=table, scores=scores, user=director)

    return run
