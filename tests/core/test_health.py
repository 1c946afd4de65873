import pytest
from django.db import connections

from core import health

pytestmark = pytest.mark.django_db


def test_healthz_ok(client, settings):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    expected_broker = "ok" if settings.CELERY_BROKER_CONFIGURED else "eager"
    assert body["broker"] == expected_broker


def test_healthz_reports_eager_without_broker(client, settings):
    settings.CELERY_BROKER_CONFIGURED = False
    assert client.get("/healthz").json()["broker"] == "eager"


def test_healthz_reports_unreachable_broker(client, settings):
    # A real connection attempt to a port where nothing listens.
    settings.CELERY_BROKER_CONFIGURED = True
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    settings.HEALTHZ_BROKER_TIMEOUT = 1.0
    body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["broker"].startswith("error: ")


@pytest.fixture
def broken_connection():
    """A real, separate database connection whose server/file cannot be reached."""
    default = connections["default"]
    settings_dict = dict(default.settings_dict)
    if default.vendor == "sqlite":
        settings_dict["NAME"] = "/nonexistent-dir/xuezhan/db.sqlite3"
    else:
        settings_dict.update(HOST="127.0.0.1", PORT="1")
    settings_dict.setdefault("OPTIONS", {})
    if default.vendor == "postgresql":
        settings_dict["OPTIONS"] = {**settings_dict["OPTIONS"], "connect_timeout": 2}
    conn = default.__class__(settings_dict, alias="broken")
    yield conn
    conn.close()


def test_healthz_503_when_database_down(client, monkeypatch, broken_connection):
    monkeypatch.setattr(health, "connections", {"default": broken_connection})
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["database"].startswith("error: OperationalError")
    assert "broker" in body


def test_healthz_get_only(client):
    assert client.post("/healthz").status_code == 405
