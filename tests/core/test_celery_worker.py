"""Celery for real: a worker thread consumes from the Redis broker (not eager)."""

import socket
import uuid
from urllib.parse import urlparse

import pytest
from celery.result import AsyncResult, EagerResult
from django.conf import settings

from config.celery import app
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


@pytest.mark.django_db(transaction=True)
def test_ping_round_trip_through_real_worker(non_eager_app):
    from celery.contrib.testing.worker import start_worker

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
