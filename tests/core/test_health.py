"""``/healthz``: database, broker and workers each ``ok`` or ``down`` (``eager`` without a
broker); 503 when the service cannot do its job; what failed and where told to staff only;
bounded when everything hangs."""

from __future__ import annotations

import re
import time
import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from django.db import connections
from django.db.backends.postgresql.base import DatabaseWrapper as PostgreSQL

from core import health
from tests.core.test_celery_worker import broker_url, non_eager_app  # noqa: F401 (fixtures)
from tests.helpers import client_for, login

pytestmark = pytest.mark.django_db

REFUSING = "redis://127.0.0.1:1/0"  # nothing listens there


@pytest.fixture
def staff():
    return client_for(login(superuser=True))


@pytest.fixture
def eager(settings):
    settings.CELERY_BROKER_CONFIGURED = False


@pytest.fixture
def broker_at(settings):
    """Point the health check at a broker URL, with short bounds."""

    def point(url: str, worker_timeout: float = 1.0) -> None:
        settings.CELERY_BROKER_CONFIGURED = True
        settings.CELERY_BROKER_URL = url
        settings.HEALTHZ_BROKER_TIMEOUT = 1.0
        settings.HEALTHZ_WORKER_TIMEOUT = worker_timeout

    return point


def database_at(monkeypatch, port: int, vendor_settings: dict | None = None) -> None:
    """The health check's database: a PostgreSQL server at ``port`` (none there, or silent)."""
    settings_dict = {
        **connections["default"].settings_dict, "ENGINE": "django.db.backends.postgresql",
        "NAME": "xuezhan", "USER": "postgres", "PASSWORD": "", "HOST": "127.0.0.1",
        "PORT": str(port), "OPTIONS": {"connect_timeout": 2},
    }  # fmt: skip
    broken = PostgreSQL(settings_dict, alias="broken")
    monkeypatch.setattr(health, "connections", {"default": broken})


def test_eager_mode_is_healthy_without_a_broker(client, eager):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok", "database": "ok", "broker": "eager", "workers": "eager", "cache": "local"
    }  # fmt: skip


def test_a_broker_down_is_503_and_anonymous_callers_see_no_details(client, broker_at):
    broker_at(REFUSING)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "down", "database": "ok", "broker": "down", "workers": "down", "cache": "local"
    }  # fmt: skip
    assert b"127.0.0.1" not in response.content and b"Error" not in response.content


def test_staff_see_what_failed(staff, broker_at):
    broker_at(REFUSING)
    body = staff.get("/healthz").json()
    assert body["broker"] == "down"
    assert "OperationalError" in body["details"]["broker"]
    assert "127.0.0.1:1" in body["details"]["broker"]
    assert set(body["details"]) == {"broker", "workers"}


def test_a_database_down_is_503(client, staff, monkeypatch, eager):
    database_at(monkeypatch, 1)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "down", "database": "down", "broker": "eager", "workers": "eager",
        "cache": "local",
    }  # fmt: skip
    details = staff.get("/healthz").json()["details"]
    assert details["database"].startswith("OperationalError")


def test_when_everything_hangs_the_answer_still_comes(client, monkeypatch, broker_at, silent_port):
    """A database and a broker that accept connections and never answer: both down, within
    the bounds (2 s to connect to the database, 1 s per broker operation), not hung."""
    database_at(monkeypatch, silent_port)
    broker_at(f"redis://127.0.0.1:{silent_port}/0")
    start = time.monotonic()
    response = client.get("/healthz")
    assert time.monotonic() - start < 10
    assert response.status_code == 503
    assert response.json() == {
        "status": "down", "database": "down", "broker": "down", "workers": "down", "cache": "local"
    }  # fmt: skip


def test_a_broker_without_workers_is_503(client, staff, broker_at, broker_url):  # noqa: F811
    broker_at(broker_url)  # the suite's broker: its workers run only inside worker tests
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "status": "down", "database": "ok", "broker": "ok", "workers": "down", "cache": "local"
    }  # fmt: skip
    assert "no worker answered" in staff.get("/healthz").json()["details"]["workers"]


@pytest.mark.django_db(transaction=True)
def test_a_broker_with_a_worker_is_healthy(client, staff, broker_at, non_eager_app):  # noqa: F811
    broker_at(non_eager_app.conf.broker_url, worker_timeout=3.0)  # a worker just started
    queue = f"xuezhan-test-{uuid.uuid4().hex[:12]}"
    with start_worker(
        non_eager_app, pool="solo", concurrency=1, queues=[queue], perform_ping_check=False,
        loglevel="WARNING", shutdown_timeout=15,
    ):  # fmt: skip
        response = client.get("/healthz")
        details = staff.get("/healthz").json()["details"]
    assert response.status_code == 200, response.json()
    assert response.json()["workers"] == "ok"
    assert re.match(r"\d+ answering: \S+@", details["workers"]), details


def test_check_names_what_to_check(client, broker_at, json_errors):
    """docker compose asks web about its database alone (the workers wait for web)."""
    broker_at(REFUSING)
    response = client.get("/healthz?check=database")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    both = client.get("/healthz?check=broker,database")
    assert both.status_code == 503
    assert both.json() == {"status": "down", "database": "ok", "broker": "down"}
    for wrong in ("disk", "", "database,disk"):
        refused = client.get(f"/healthz?check={wrong}")
        assert refused.status_code == 400
        assert json_errors(refused)[0]["code"] == "invalid_check"


def test_healthz_get_only(client):
    assert client.post("/healthz").status_code == 405
