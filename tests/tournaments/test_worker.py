"""Seating and standings on a real Celery worker consuming from Redis (not eager): POST a
round, poll its task, read the seating; enter results in a burst, count the recomputes."""

from __future__ import annotations

import time

import pytest

from clubs.models import Role
from config.celery import app
from core.models import TaskRecord
from tests.clubs.factories import ClubFactory
from tests.core.test_celery_worker import (  # noqa: F401 (fixtures)
    broker_url,
    non_eager_app,
    outbox_sweeper,
    worker,
)
from tests.helpers import client_for, member_login
from tournaments import services
from tournaments.models import StandingsSnapshot

pytestmark = pytest.mark.django_db(transaction=True)


def poll(client, url: str, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(url).json()
        if body["state"] in ("SUCCESS", "FAILURE") or time.monotonic() > deadline:
            return body
        time.sleep(0.1)


def test_round_seated_and_standings_computed_by_a_worker(worker):  # noqa: F811
    assert not app.conf.task_always_eager
    host = ClubFactory(slug="worker-host")
    director = member_login(host, Role.ORGANISER, "worker-director")
    client = client_for(director)
    t = services.tournament_create(name="W", slug="w", user=director, club=host, rounds=3,
                                   hands_per_table=1)  # fmt: skip
    for i in range(40):
        services.registration_create(tournament=t, name=f"W{i}")

    r = client.post(f"/api/v1/tournaments/{t.slug}/rounds/")
    assert r.status_code == 202
    task = poll(client, r.json()["task"])
    assert task["state"] == "SUCCESS", task
    seating = client.get(f"/api/v1/tournaments/{t.slug}/rounds/1/").json()
    assert seating["status"] == "seated" and len(seating["tables"]) == 10

    # ten tables report in a burst: at most two recomputes (one queued by the first result,
    # one more if a result lands while it runs)
    before = TaskRecord.objects.filter(name="tournaments.compute_standings").count()
    for table in seating["tables"]:
        scores = [{"player": s["player"], "score": v}
                  for s, v in zip(table["seats"], (6, 2, -2, -6), strict=True)]  # fmt: skip
        assert client.post(f"/api/v1/tables/{table['id']}/result/", {"scores": scores},
                           format="json").status_code == 200  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        snapshot = StandingsSnapshot.objects.filter(tournament=t).first()
        if snapshot and snapshot.tables_counted == 10:
            break
        time.sleep(0.2)
    recomputes = TaskRecord.objects.filter(name="tournaments.compute_standings").count() - before
    assert 1 <= recomputes <= 2
    standings = client.get(f"/api/v1/tournaments/{t.slug}/standings/").json()
    assert standings["tables_counted"] == 10 and standings["rounds_complete"] == 1
    # ten table winners on 4 points each, then ten on 2, ten on 1, ten on 0
    assert [row["placement_points"] for row in standings["standings"]].count("4") == 10
