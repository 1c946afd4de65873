"""Shared fixtures for the whole suite.

* ``api_client``: anonymous ``rest_framework.test.APIClient``.
* ``user`` / ``auth_client``: a plain user, and an APIClient authenticated with its token.
* ``admin_user`` (pytest-django) / ``admin_api_client``: a superuser and a client logged in as it.
* ``json_errors``: helper that asserts the error shape and returns the ``errors`` list.
* ``silent_port``: a port where connections are accepted and never answered.
* ``in_process_tasks``: Celery tasks run in this process, even where a broker is configured.
* ``seat``: seat a tournament's next round through the service and its task.
* ``demo_clock``: the clock stands at ``DEMO_INSTANT`` (and runs on from there) for the test:
  the demo's history is built back from "today", and a test must not depend on which day
  the suite runs (tests/clubs/test_demo_history.py builds it at several other instants).

The suite runs in the settings' test mode (``DJANGO_ENV=test``, set in ``pyproject.toml``): a
fast password hasher, and throttle rates no test reaches by accident; a test that checks
throttling sets its own rate. Throttle history (the cache) is cleared around every test.
"""

from __future__ import annotations

import socket
import threading
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.celery import app
from core import readcache
from scoring.services import stored_settlements_forget
from tests.helpers import assert_error_shape
from tournaments.selectors import sessions_read_forget

#: a Wednesday evening in the middle of a month, in the demo club's zone
DEMO_INSTANT = datetime(2026, 3, 18, 21, 0, tzinfo=ZoneInfo("Asia/Shanghai"))


@pytest.fixture
def demo_clock():
    with time_machine.travel(DEMO_INSTANT, tick=True):
        yield DEMO_INSTANT


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    readcache.forget_local()  # what a process kept of the cache goes with it
    stored_settlements_forget()  # hands read back, by id: ids start again in a flushed database
    sessions_read_forget()  # tables' sessions read, by id, alike
    yield
    cache.clear()
    readcache.forget_local()
    stored_settlements_forget()
    sessions_read_forget()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def user(db, django_user_model):
    return django_user_model.objects.create_user(
        username="player", email="player@example.com", password="pl4yer-pass-word"
    )


@pytest.fixture
def auth_client(user) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def admin_api_client(admin_user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user=admin_user)
    return client


@pytest.fixture
def json_errors():
    """``json_errors(response)`` -> list of error items (asserts the shape)."""

    def check(response) -> list[dict]:
        assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
        return assert_error_shape(response.json())

    return check


@pytest.fixture
def silent_port():
    """A port on 127.0.0.1 where a server accepts connections and never says a word (a
    database or a broker that hangs): a thread accepts them and holds them open."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


@pytest.fixture
def in_process_tasks():
    """Celery tasks run in this process (its eager mode), even where CI configures a broker:
    these tests are about what the tasks write. ``test_worker.py`` runs them on a worker."""
    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture
def seat(django_capture_on_commit_callbacks, in_process_tasks):
    """Seat the next round through the service and its task; returns the seated round."""
    from tournaments import services
    from tournaments.models import Round

    def run(tournament):
        with django_capture_on_commit_callbacks(execute=True):
            round_ = services.round_start(tournament=tournament)
        round_.refresh_from_db()
        assert round_.status == Round.Status.SEATED, round_.task.error
        return round_

    return run
