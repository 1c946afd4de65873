"""Background jobs (``core.jobs``): a record per job, queued by name on commit, reporting its
state; a job about a registered subject is readable by whoever may read the subject."""

from __future__ import annotations

import pytest

from config.celery import app
from core.errors import Conflict
from core.jobs import job_create, job_queue, run_job, subjects
from core.jobs_api import TaskOutSerializer
from core.models import OutboxMessage, TaskRecord
from tests.helpers import assert_shape

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager():
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


def test_a_job_is_asked_for_by_its_name_and_runs_once_the_transaction_commits(
    eager, django_capture_on_commit_callbacks
):
    """``xuezhan.ping`` is found by name (the service never imports the task's module): its
    outbox message carries the record's id as the Celery task id, and (eagerly, no broker)
    the task runs when the transaction commits, its message then gone."""
    record = job_create("xuezhan.ping")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        job_queue(record)
    [message] = OutboxMessage.objects.all()
    assert (message.task, str(message.task_id)) == ("xuezhan.ping", str(record.pk))
    assert len(callbacks) == 1
    callbacks[0]()
    assert not OutboxMessage.objects.exists()


def test_run_job_reports_success_a_refusal_and_a_crash():
    done, refused, crashed = (job_create(name) for name in ("a", "b", "c"))
    assert run_job(str(done.pk), lambda: {"seated": 4}) == {"seated": 4}

    def refuse() -> dict:
        raise Conflict("round_has_results", "round 2 has results")

    failed = []
    out = run_job(str(refused.pk), refuse, lambda: failed.append("b"))
    problem = {"path": "", "code": "round_has_results", "message": "round 2 has results"}
    assert out == {"errors": [problem]} and failed == ["b"]

    def crash() -> dict:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):  # raised again, so Celery sees the failure
        run_job(str(crashed.pk), crash, lambda: failed.append("c"))
    assert failed == ["b", "c"]

    states = {r.name: r for r in TaskRecord.objects.all()}
    assert (states["a"].state, states["a"].progress, states["a"].result) == (
        "SUCCESS", 1, {"seated": 4},
    )  # fmt: skip
    assert states["b"].state == "FAILURE" and states["b"].error == {"errors": [problem]}
    assert states["c"].state == "FAILURE"
    assert states["c"].error["errors"][0]["code"] == "internal_error"


def test_a_job_about_nothing_is_readable_by_anyone(api_client):
    record = job_create("xuezhan.ping")
    data = api_client.get(f"/api/v1/tasks/{record.pk}").json()
    assert data["id"] == str(record.pk) and data["state"] == "PENDING"
    assert_shape(data, TaskOutSerializer())
    # every registered subject is a field of the answer: null for a job about something else
    assert [s.field for s in subjects()] == ["tournament"] and data["tournament"] is None
    assert api_client.get(f"/api/v1/tasks/{record.pk}/").json() == data
