"""Static checks of docker/ (no Docker engine is needed)."""

import re
from pathlib import Path

import pytest
import yaml

DOCKER = Path(__file__).resolve().parents[2] / "docker"


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((DOCKER / "docker-compose.yml").read_text())


@pytest.fixture(scope="module")
def services(compose) -> dict:
    return compose["services"]


def env_of(service: dict) -> dict:
    env = service.get("environment", {})
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return env


def test_services(services):
    assert {"web", "live", "proxy", "worker", "beat", "postgres", "redis"} <= set(services)


@pytest.mark.parametrize("name", ["web", "worker", "beat", "postgres", "redis"])
def test_every_service_has_a_healthcheck(services, name):
    healthcheck = services[name]["healthcheck"]
    assert healthcheck["test"]
    assert not healthcheck.get("disable", False)


def test_web_health_does_not_wait_for_the_workers(services):
    """The workers wait for web to be healthy (it migrates): web's health check asks about its
    database alone, or neither would ever start."""
    assert services["worker"]["depends_on"]["web"]["condition"] == "service_healthy"
    probe = " ".join(services["web"]["healthcheck"]["test"])
    assert "/healthz?check=database'" in probe


def test_database_volume(compose, services):
    assert "pgdata" in compose["volumes"]
    assert any(v.startswith("pgdata:") for v in services["postgres"]["volumes"])


def test_redis_keeps_its_queues_across_a_restart(compose, services):
    """Redis ran without persistence: a restart lost every queued follow-up. It keeps an
    append-only file on a volume of its own."""
    command = services["redis"]["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert "redisdata" in compose["volumes"]
    assert any(v.startswith("redisdata:/data") for v in services["redis"]["volumes"])


@pytest.mark.parametrize("name", ["web", "live", "worker", "beat"])
def test_app_env_wiring(services, name):
    env = env_of(services[name])
    assert re.match(r"postgres(ql)?://[^@]+@postgres:5432/\w+$", env["DATABASE_URL"])
    assert env["CELERY_BROKER_URL"].startswith("redis://redis:6379/")
    assert env["DJANGO_ENV"] == "production"
    assert env["SECRET_KEY"]


@pytest.mark.parametrize("name", ["web", "live", "worker", "beat"])
def test_app_waits_for_healthy_backends(services, name):
    depends = services[name]["depends_on"]
    for backend in ("postgres", "redis"):
        assert depends[backend]["condition"] == "service_healthy"


def test_web_migrates_and_serves_with_gunicorn(services):
    command = services["web"]["command"]
    command = " ".join(command) if isinstance(command, list) else command
    assert "manage.py migrate" in command
    assert "gunicorn config.wsgi" in command
    assert services["web"]["expose"] == ["8000"]  # reached through the proxy


def test_the_proxy_sends_the_live_streams_to_the_asgi_server(services):
    """Port 8000 is the proxy's: ``/live/`` (the event streams, held open, unbuffered) goes to
    uvicorn, the rest to gunicorn."""
    assert services["proxy"]["ports"] == ["8000:80"]
    live = " ".join(services["live"]["command"])
    assert "uvicorn config.asgi:application" in live and "--port 8001" in live
    conf = (DOCKER / "nginx.conf").read_text()
    streams = conf.split("location /live/")[1].split("}")[0]
    assert "proxy_pass http://live:8001;" in streams
    assert "proxy_buffering off;" in streams
    rest = conf.split("location / ")[1].split("}")[0]
    assert "proxy_pass http://web:8000;" in rest
    mounted = services["proxy"]["volumes"][0]
    assert mounted.startswith("./nginx.conf:/etc/nginx/conf.d/default.conf")


def test_worker_is_scalable(services):
    worker = services["worker"]
    assert "container_name" not in worker
    assert "ports" not in worker
    command = worker["command"]
    command = " ".join(command) if isinstance(command, list) else command
    assert "celery -A config worker" in command


def test_dockerfile():
    text = (DOCKER / "Dockerfile").read_text()
    instructions = [line.strip() for line in text.splitlines() if line.strip()]
    assert any(re.match(r"FROM python:3\.11-slim", line) for line in instructions)
    users = [line.split()[1] for line in instructions if line.startswith("USER ")]
    assert users and users[-1] not in {"root", "0", "0:0"}
    assert "pip install --require-hashes -r requirements.lock" in text
    assert "debian-packages.txt" in text
    assert "collectstatic" in text
    assert "gunicorn config.wsgi" in text


def test_one_beat_sweeps_the_outbox(services):
    beat = services["beat"]
    command = " ".join(beat["command"]) if isinstance(beat["command"], list) else beat["command"]
    assert "celery -A config beat" in command
    assert beat["healthcheck"]["test"][-3:] == ["outbox", "--check", "30"]
