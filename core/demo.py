"""Demo data for ``make run``: each app that has some says so in a ``demo`` module.

An app's ``demo.py`` defines ``build_demo(*, username: str) -> DemoReport``; ``manage.py demo``
runs them in the order of ``INSTALLED_APPS`` (clubs before the tournaments they host), like
Django's admin discovers ``admin.py``, so the kernel never imports an app above it.

:func:`each_task_once`: a demo step that writes hundreds of hands in one go asks for the same
follow-up (a session's refresh) once per hand; without a broker it runs each one once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

from celery import current_app
from django.apps import apps
from django.conf import settings
from django.db.models import Max
from django.utils.module_loading import module_has_submodule

from core.models import OutboxMessage, TaskRecord


@dataclass(frozen=True)
class DemoReport:
    """What one app's demo step did: a line to print and the pages to open."""

    message: str
    created: bool
    links: tuple[tuple[str, str], ...] = ()


def demo_modules() -> Iterator[ModuleType]:
    for config in apps.get_app_configs():
        if module_has_submodule(config.module, "demo"):
            module = import_module(f"{config.name}.demo")
            if hasattr(module, "build_demo"):
                yield module


@contextmanager
def each_task_once() -> Iterator[None]:
    """The tasks the block's writes ask for (``core.outbox``), run once each when it ends, in
    the caller's transaction.

    Without a broker (Celery eager), every write's task runs as its transaction commits: a
    demo step recording 400 hands would refresh their sessions 400 times, each the same
    work. Inside this block the writes only queue their messages; at its end each distinct
    message (task, arguments, job id) runs once, in the order it was first asked for, as a
    worker sweeping the outbox would serve them: every task here is safe to repeat and reads
    what is stored when it runs, so once after the last write is enough. What those tasks ask
    for in turn is served the same way, round after round, until nothing is left. With a
    broker nothing changes: the workers serve the outbox.
    """
    app = current_app
    if not app.conf.task_always_eager or settings.JOBS_DELIVERY == "direct":
        yield
        return
    served = OutboxMessage.objects.aggregate(top=Max("pk"))["top"] or 0
    app.conf.task_always_eager = False  # a write's task is queued, not run on commit
    try:
        yield
        while queued := list(OutboxMessage.objects.filter(pk__gt=served).order_by("pk")):
            seen = set()  # once a round: a task asked for again by a later round runs again
            # a job's message is its own (its record waits for it); the others' ids are theirs
            # alone and say nothing of the work
            jobs = set(
                TaskRecord.objects.filter(pk__in=[m.task_id for m in queued]).values_list(
                    "pk", flat=True
                )
            )
            for message in queued:
                job = message.task_id if message.task_id in jobs else None
                key = (message.task, json.dumps(message.args), job)
                if key not in seen:
                    seen.add(key)
                    task_id = None if message.task_id is None else str(message.task_id)
                    app.tasks[message.task].apply(args=message.args, task_id=task_id, throw=True)
            served = queued[-1].pk
            OutboxMessage.objects.filter(pk__in=[m.pk for m in queued]).delete()
    finally:
        app.conf.task_always_eager = True
