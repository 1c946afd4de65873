"""The project's own processes, started for real: gunicorn, a Celery worker, Celery beat.

Shared by the fault tests (``tests/faults/conftest.py``) and the load run (``tests/load/``).
Plain Python (no Django, no pytest), so a script may use it before it sets Django up.

Every process is started in a process group of its own (``start_new_session``), its output
to a log file, and stopped with its whole group (:func:`stop`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

# Settings a subprocess does not inherit from the suite's environment: it starts from the
# defaults, plus what a test gives it.
MODE_VARIABLES = {"DJANGO_ENV", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT",
                  "SECURE_HSTS_SECONDS", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
                  "THROTTLE_ANON", "THROTTLE_USER", "THROTTLE_ENGINE", "CACHE_URL",
                  # set by the browser tests' conftest for Playwright's thread, never deployed
                  "DJANGO_ALLOW_ASYNC_UNSAFE"}  # fmt: skip


class NotServing(Exception):
    """A server that exited, or did not answer in time (the message says which, with its
    log)."""


def answers(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError:
        return False
    return True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def project_env(**overrides: str) -> dict[str, str]:
    """This environment minus the settings' mode (as ``tests.helpers.run_python``), in the
    suite's mode unless ``overrides`` say otherwise, plus ``overrides``."""
    env = {k: v for k, v in os.environ.items() if k not in MODE_VARIABLES}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DJANGO_ENV="test", PYTHONUNBUFFERED="1")
    env.update(overrides)
    return env


def database_url(db: dict, host: str | None = None, port: int | None = None) -> str:
    """A ``DATABASE_URL`` for another process from Django's connection settings ``db``, maybe
    through a proxy (``host``, ``port``)."""
    user = db["USER"] or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{user}{password}@{host or db['HOST'] or '127.0.0.1'}:"
        f"{port or db['PORT'] or 5432}/{db['NAME']}"
    )


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def stop(process: subprocess.Popen, timeout: float = 15) -> None:
    """Stop a process group started here (``start_new_session``): SIGTERM, and SIGKILL to
    whatever is left of it after ``timeout``; returns once every process of it is gone (so
    are their database sessions, soon after)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while group_alive(process.pid) and time.monotonic() < deadline:
        process.poll()  # reaps the leader
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout)


def spawn(args: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen:
    """Start ``args`` in the project, in a process group of its own, its output to ``log``
    (``process.log``)."""
    with open(log, "w") as out:  # the child has its own copy
        process = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    process.log = log
    return process


def gunicorn_command(port: int, workers: int, *extra: str) -> list[str]:
    """gunicorn on the project (sync workers) on a loopback port."""
    return [str(BIN / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
            "--workers", str(workers), "--timeout", "60", "--graceful-timeout", "5",
            "--no-control-socket", *extra]  # fmt: skip


def uvicorn_command(port: int) -> list[str]:
    """The ASGI server on the project (``make run``'s, the live pages' streams)."""
    return [str(BIN / "python"), "-m", "uvicorn", "config.asgi:application", "--host",
            "127.0.0.1", "--port", str(port), "--no-access-log", "--timeout-graceful-shutdown",
            "2"]  # fmt: skip


def worker_command(hostname: str, *, concurrency: int = 1, queues: str | None = None) -> list[str]:
    """``celery -A config worker`` (prefork), without the chatter between workers."""
    return [str(BIN / "celery"), "-A", "config", "worker", "--pool", "prefork",
            "--concurrency", str(concurrency), *(["--queues", queues] if queues else []),
            "--hostname", hostname, "--loglevel", "INFO", "--without-mingle",
            "--without-gossip", "--without-heartbeat"]  # fmt: skip


def beat_command(schedule: Path) -> list[str]:
    """``celery -A config beat``, its schedule file where the caller says (not the project)."""
    return [str(BIN / "celery"), "-A", "config", "beat", "--schedule", str(schedule),
            "--loglevel", "INFO"]  # fmt: skip


def wait_serving(url: str, process: subprocess.Popen, timeout: float = 30) -> None:
    """Return once ``url`` answers; :class:`NotServing` if the process exits first or
    ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise NotServing(f"{process.args[0]} exited: {Path(process.log).read_text()}")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise NotServing(f"{url} did not answer within {timeout:g} s") from None
            time.sleep(0.1)


def redis_command(port: int, workdir: Path, *extra: str) -> list[str]:
    """A Redis server of a test's own on a loopback port (no persistence unless ``extra``
    asks for it), its files in ``workdir``."""
    return [
        "redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
        "--appendonly", "no", "--dir", str(workdir), *extra,
    ]  # fmt: skip


def wait_answering(port: int, timeout: float = 10) -> None:
    """Return once something listens on ``port`` (127.0.0.1)."""
    deadline = time.monotonic() + timeout
    while not answers("127.0.0.1", port):
        if time.monotonic() > deadline:
            raise NotServing(f"nothing answers on port {port} within {timeout:g} s")
        time.sleep(0.05)
