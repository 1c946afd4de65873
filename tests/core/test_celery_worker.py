"""Celery for real: a worker thread consumes from the Redis broker (not eager)."""

import socket
import threading
import uuid
from urllib.parse import urlparse

import pytest
from celery.contrib.testing.worker import start_worker
from celery.result import AsyncResult, EagerResult
from django.conf import settings
from django.db import connections

from config.celery import app
from core import outbox
from core.tasks import ping


@pytest.mark.django_db
def test_eager_mode_runs_in_process():
    """``apply()`` runs in-process (what every ``delay()`` does when no broker is set)."""
    result = ping.apply()
    assert isinstance(result, EagerResult)
    assert result.get() == "pong"


@pytest.fixture
def broker_url() -> str:
    url = settings.CELERY_BROKER_URL if settings.CELERY_BROKER_CONFIGURED else ""
    if not url:
        pytest.skip("CELERY_BROKER_URL is not set: tasks run eagerly, no broker to test against")
    parsed = urlparse(url)
    if parsed.scheme not in {"redis", "rediss"}:
        pytest.skip(f"worker test expects a redis:// broker, got {parsed.scheme}://")
    host, port = parsed.hostname or "127.0.0.1", parsed.port or 6379
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError as exc:
        pytest.skip(f"CELERY_BROKER_URL={url} does not answer: {exc}")
    return url


@pytest.fixture
def non_eager_app(broker_url):
    saved = {
        "task_always_eager": app.conf.task_always_eager,
        "broker_url": app.conf.broker_url,
        "result_backend": app.conf.result_backend,
    }
    app.conf.task_always_eager = False
    app.conf.broker_url = broker_url
    if not str(app.conf.result_backend or "").startswith(("redis://", "rediss://")):
        app.conf.result_backend = broker_url
    yield app
    for key, value in saved.items():
        setattr(app.conf, key, value)


@pytest.fixture
def outbox_sweeper():
    """What Celery beat does in production: sweep the outbox to the broker, here every 0.1 s
    from a thread of the test (its own database connection)."""
    stop, thread = sweeping(0.1)
    yield
    stop.set()
    thread.join(10)


def sweeping(every: float) -> tuple[threading.Event, threading.Thread]:
    """A thread sweeping the outbox every ``every`` seconds until its event is set."""
    stop = threading.Event()

    def sweep():
        try:
            while not stop.wait(every):
                outbox.deliver()
        finally:
            connections.close_all()

    thread = threading.Thread(target=sweep, daemon=True)
    thread.start()
    return stop, thread


@pytest.fixture
def worker(non_eager_app, outbox_sweeper):
    """A real worker on a queue of this test's own (tasks other tests left in Redis never
    reach it), fed by the outbox sweep as beat feeds one in production."""
    queue = f"xuezhan-test-{uuid.uuid4().hex[:12]}"
    saved = non_eager_app.conf.task_default_queue
    non_eager_app.conf.task_default_queue = queue
    with start_worker(
        non_eager_app, pool="solo", concurrency=1, queues=[queue], perform_ping_check=False,
        loglevel="WARNING", shutdown_timeout=15,
    ):  # fmt: skip
        yield
    non_eager_app.conf.task_default_queue = saved


@pytest.mark.django_db(transaction=True)
def test_ping_round_trip_through_real_worker(non_eager_app):
    queue = f"xuezhan-test-{uuid.uuid4().hex[:12]}"
    with start_worker(
        non_eager_app,
        pool="solo",
        concurrency=1,
        queues=[queue],
        perform_ping_check=False,
        loglevel="WARNING",
        shutdown_timeout=15,
    ):
        result = ping.apply_async(queue=queue)
        assert isinstance(result, AsyncResult) and not isinstance(result, EagerResult)
        assert result.get(timeout=30) == "pong"
        assert result.status == "SUCCESS"


def test_eager_exactly_when_no_broker(settings):
    """No CELERY_BROKER_URL: delay() runs in-process; with one, tasks go to workers."""
    assert app.conf.task_always_eager is (not settings.CELERY_BROKER_CONFIGURED)
