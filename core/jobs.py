"""Background jobs (Celery tasks) as the API reports them: one ``TaskRecord`` per job.

A service creates the record and asks for the task by its name (:func:`job_queue`, through
the outbox), with the record's id as the Celery task id, so a service never imports the task
module that calls it; the task body runs through :func:`run_job`, which reports
the state, the result or the refusal. A job may be about an object of an app above the kernel
(a tournament): the app registers that model with :func:`register_subject`, saying what the
job's answer calls it and who may read it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models

from core.errors import ServiceError, problem
from core.models import TaskRecord
from core.outbox import enqueue


@dataclass(frozen=True)
class JobSubject:
    """A model whose objects jobs are about: the job's answer names it ``field: label(obj)``,
    and the job is readable by whoever may read the object."""

    model: type[models.Model]
    field: str
    label: Callable[[Any], str]
    readable: Callable[[Any, Any], bool]  # (user, object) -> bool


_SUBJECTS: dict[type[models.Model], JobSubject] = {}


def register_subject(
    model: type[models.Model],
    *,
    field: str,
    label: Callable[[Any], str],
    readable: Callable[[Any, Any], bool],
) -> None:
    """Called from an app's ``ready()``."""
    _SUBJECTS[model] = JobSubject(model, field, label, readable)


def subjects() -> list[JobSubject]:
    return sorted(_SUBJECTS.values(), key=lambda s: s.field)


def subject_of(model: type[models.Model]) -> JobSubject | None:
    return _SUBJECTS.get(model)


def job_create(name: str, subject: models.Model | None = None) -> TaskRecord:
    record = TaskRecord(name=name)
    if subject is not None:
        record.subject_type = ContentType.objects.get_for_model(subject)
        record.subject_id = subject.pk
    record.save(force_insert=True)
    return record


def job_queue(record: TaskRecord, *args: Any, countdown: float | None = None) -> None:
    """Ask for the record's task (by its name) with ``args``, through the outbox: sent once the
    current transaction commits, whether or not the broker is up then."""
    enqueue(record.name, *args, task_id=str(record.pk), countdown=countdown)


def job_started(task_id: str) -> None:
    TaskRecord.objects.filter(pk=task_id).update(state=TaskRecord.State.STARTED, progress=0.1)


def job_succeeded(task_id: str, result: dict[str, Any]) -> None:
    TaskRecord.objects.filter(pk=task_id).update(
        state=TaskRecord.State.SUCCESS, progress=1, result=result
    )


def job_failed(task_id: str, errors: list[dict[str, str]]) -> None:
    TaskRecord.objects.filter(pk=task_id).update(
        state=TaskRecord.State.FAILURE, progress=1, error={"errors": errors}
    )


def run_job(
    task_id: str, work: Callable[[], dict[str, Any]], on_failure: Callable[[], None] | None = None
) -> dict[str, Any]:
    """Run a job's body and report it. A refusal (``ServiceError``: a round that has results,
    a pin that cannot be honoured) is reported and not retried; anything else is reported and
    raised, so Celery sees the failure."""
    job_started(task_id)
    try:
        result = work()
    except ServiceError as e:
        if on_failure:
            on_failure()
        job_failed(task_id, e.problems)
        return {"errors": e.problems}
    except Exception as e:
        if on_failure:
            on_failure()
        job_failed(task_id, [problem("", "internal_error", f"{type(e).__name__}: {e}")])
        raise
    job_succeeded(task_id, result)
    return result
