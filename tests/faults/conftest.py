"""What the fault tests run on: the real PostgreSQL and Redis, a real worker, a real HTTP server.

They need the services CI gives (``DATABASE_URL`` on PostgreSQL, ``CELERY_BROKER_URL`` on
Redis). Where one is missing they are skipped and say why, except under CI (``CI`` set), where
a missing service fails them: there they must run.

* ``broker_url``: the suite's Redis broker (overrides the worker tests' fixture of that name,
  so ``non_eager_app`` / ``worker`` fail under CI instead of skipping).
* ``postgresql``: the test database's connection settings (a dict), PostgreSQL only.
* ``http_server``: start gunicorn (the production server) on the project in a process of its
  own, with environment variables of the test's choosing; answers its base URL.
* ``run_worker``: start ``celery -A config worker`` in a process of its own on the test
  database and a queue of the test's own.

How those processes are started and stopped: ``tests/processes.py`` (the load run's too).
"""

from __future__ import annotations

import os
import subprocess
import uuid
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.db import connection

from tests.core.test_celery_worker import non_eager_app, outbox_sweeper, worker  # noqa: F401
from tests.processes import (
    NotServing,
    answers,
    database_url,
    free_port,
    gunicorn_command,
    project_env,
    spawn,
    stop,
    wait_serving,
    worker_command,
)


def unavailable(reason: str) -> None:
    """Skip, or under CI fail: these tests must run there."""
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {reason}: the fault tests must run in CI")
    pytest.skip(reason)


@pytest.fixture
def postgresql(transactional_db) -> dict:
    if connection.vendor != "postgresql":
        unavailable("the test database is not PostgreSQL (set DATABASE_URL=postgres://…)")
    return connection.settings_dict


@pytest.fixture
def broker_url() -> str:
    url = settings.CELERY_BROKER_URL if settings.CELERY_BROKER_CONFIGURED else ""
    if not url:
        unavailable("CELERY_BROKER_URL is not set (tasks run eagerly: no broker, no worker)")
    parsed = urlparse(url)
    if parsed.scheme not in {"redis", "rediss"}:
        unavailable(f"the fault tests expect a redis:// broker, not {parsed.scheme}://")
    if not answers(parsed.hostname or "127.0.0.1", parsed.port or 6379):
        unavailable(f"CELERY_BROKER_URL={url} does not answer")
    return url


@pytest.fixture
def http_server(tmp_path):
    """``start(workers=4, **env)`` runs gunicorn on the project (sync workers) and answers its
    base URL once it serves; stopped (and its database connections closed) at the end."""
    started: list[subprocess.Popen] = []

    def start(workers: int = 4, **env: str) -> str:
        port = free_port()
        process = spawn(
            gunicorn_command(port, workers), tmp_path / f"gunicorn-{port}.log", project_env(**env)
        )
        started.append(process)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_serving(f"{url}/api/v1/", process)
        except NotServing as e:
            pytest.fail(f"gunicorn: {e}")
        return url

    yield start
    for process in started:
        stop(process)


@pytest.fixture
def run_worker(tmp_path, postgresql, broker_url):
    """``start(**env)`` runs ``celery -A config worker`` (prefork, one child) in a process
    group of its own on the test database, consuming this test's queue only; answers the
    Popen. Each is stopped at the end (SIGTERM, then SIGKILL)."""
    queue = f"xuezhan-fault-{uuid.uuid4().hex[:12]}"
    started: list[subprocess.Popen] = []

    def start(**env: str) -> subprocess.Popen:
        name = f"fault{len(started)}-{queue}@%h"
        process = spawn(
            worker_command(name, queues=queue),
            tmp_path / f"worker-{len(started)}.log",
            project_env(DATABASE_URL=database_url(postgresql), CELERY_BROKER_URL=broker_url,
                        **env),
        )  # fmt: skip
        started.append(process)
        return process

    start.queue = queue
    yield start
    for process in started:
        stop(process)
