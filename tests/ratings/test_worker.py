"""Ratings on a real Celery worker consuming from Redis (not eager): a scorer enters a table's
totals and closes it over the API; the worker, fed by the outbox sweep, rates it; the ranking
shows it. Reopened, the table leaves the ranking again."""

from __future__ import annotations

import time

import pytest

from clubs.models import Role
from config.celery import app
from ratings.models import Rating
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.core.test_celery_worker import (  # noqa: F401 (fixtures)
    broker_url,
    non_eager_app,
    outbox_sweeper,
    worker,
)
from tests.helpers import client_for, member_login

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def _tasks_in_process():
    """Not here: the worker runs the tasks."""


def wait_for(condition, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_a_closed_table_is_rated_by_the_worker(worker):  # noqa: F811
    assert not app.conf.task_always_eager
    club = ClubFactory(slug="worker-club")
    scorer = member_login(club, Role.ORGANISER, "worker-scorer")
    client = client_for(scorer)
    players = [MembershipFactory(club=club).player.pk for _ in range(4)]
    r = client.post(f"/api/v1/clubs/{club.slug}/sessions/", {"players": players}, format="json")
    assert r.status_code == 201, r.content
    session = r.json()["id"]
    totals = [{"player": p, "total": t} for p, t in zip(players, (24, 8, -8, -24), strict=True)]
    r = client.post(f"/api/v1/sessions/{session}/result/", {"totals": totals}, format="json")
    assert r.status_code == 200, r.content
    assert client.post(f"/api/v1/sessions/{session}/close/").status_code == 200
    assert wait_for(lambda: Rating.objects.count() == 4)
    ranking = client.get(f"/api/v1/clubs/{club.slug}/ranking/").json()
    by_player = {row["player"]: row for row in ranking["rows"]}
    assert by_player[players[0]]["total"] == 24
    assert by_player[players[0]]["rating"] > by_player[players[3]]["rating"]

    assert client.post(f"/api/v1/sessions/{session}/reopen/").status_code == 200
    assert wait_for(lambda: Rating.objects.count() == 0)
