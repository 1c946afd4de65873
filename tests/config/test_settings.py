"""Settings from the environment, and the production mode."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.helpers import run_python as run
from tests.helpers import show_settings as show

REAL_KEY = "k3y-" + "x9Qp7Lm2Vr8Tn4Wb6Zc1Yd5Fg0Hj3Ks" * 2  # 68 characters, many distinct


def test_development_defaults():
    result = show("DEBUG", "TIME_ZONE", "LANGUAGE_CODE", "LANGUAGES", "PRODUCTION", DATABASE_URL="")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "True"
    assert lines[1] == "'Asia/Shanghai'"
    assert lines[2] == "'en'"
    assert "zh-hans" in lines[3]
    assert lines[4] == "False"


def test_database_url_default_is_sqlite_in_project():
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "d = s.DATABASES['default']; print(d['ENGINE']); print(d['NAME'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    engine, name = result.stdout.splitlines()
    assert engine == "django.db.backends.sqlite3"
    assert Path(name) == ROOT / "db.sqlite3"


def test_environment_overrides():
    result = show(
        "TIME_ZONE",
        "LANGUAGE_CODE",
        "REST_FRAMEWORK['DEFAULT_THROTTLE_RATES']",
        "DATABASES['default']['ENGINE']",
        TIME_ZONE="UTC",
        LANGUAGE_CODE="zh-hans",
        THROTTLE_ANON="5/min",
        THROTTLE_USER="7/min",
        THROTTLE_ENGINE="9/min",
        DATABASE_URL="postgres://u@db.example:5432/x",
    )
    assert result.returncode == 0, result.stderr
    tz, lang, rates, engine = result.stdout.splitlines()
    assert tz == "'UTC'" and lang == "'zh-hans'"
    assert rates == "{'anon': '5/min', 'user': '7/min', 'engine': '9/min'}"
    assert engine == "'django.db.backends.postgresql'"


def test_throttle_defaults():
    result = show(
        "REST_FRAMEWORK['DEFAULT_THROTTLE_RATES']",
        "REST_FRAMEWORK['DEFAULT_THROTTLE_CLASSES']",
    )
    assert result.returncode == 0, result.stderr
    rates, classes = result.stdout.splitlines()
    assert rates == "{'anon': '600/min', 'user': '6000/min', 'engine': '1200/min'}"
    assert "core.throttling.ScopedRateThrottle" in classes


def test_test_mode_hashes_fast_and_does_not_throttle():
    """``DJANGO_ENV=test`` (the suite's own mode): development, with a fast password hasher
    and throttle rates no test reaches by accident."""
    result = show(
        "TESTING",
        "DEBUG",
        "PASSWORD_HASHERS",
        "REST_FRAMEWORK['DEFAULT_THROTTLE_RATES']",
        DJANGO_ENV="test",
    )
    assert result.returncode == 0, result.stderr
    testing, debug, hashers, rates = result.stdout.splitlines()
    assert testing == "True" and debug == "True"
    assert hashers == "['django.contrib.auth.hashers.MD5PasswordHasher']"
    assert rates == ("{'anon': '1000000/min', 'user': '1000000/min', 'engine': '1000000/min'}")


def test_the_suite_runs_in_test_mode(settings):
    assert settings.DJANGO_ENV == "test" and settings.TESTING


@pytest.mark.parametrize(
    "celery_env, eager",
    [
        ({"CELERY_BROKER_URL": ""}, True),
        ({"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}, False),
    ],
)
def test_celery_eager_without_broker(celery_env, eager):
    result = show(
        "CELERY_TASK_ALWAYS_EAGER",
        "CELERY_BROKER_CONFIGURED",
        "CELERY_RESULT_BACKEND",
        **celery_env,
    )
    assert result.returncode == 0, result.stderr
    always_eager, configured, backend = result.stdout.splitlines()
    assert always_eager == repr(eager)
    assert configured == repr(not eager)
    if not eager:
        assert backend == "'redis://127.0.0.1:6379/0'"


@pytest.mark.parametrize(
    "secret_key",
    [
        None,  # the development default
        "too-short-but-real-0123456789",
        "a" * 60,  # not enough distinct characters
        "django-insecure-" + "x9Qp7Lm2Vr8Tn4Wb6Zc1Yd5Fg0Hj3Ks" * 2,
    ],
)
def test_production_refuses_weak_secret_key(secret_key):
    env = {"DJANGO_ENV": "production", "ALLOWED_HOSTS": "xuezhan.example.com"}
    if secret_key is not None:
        env["SECRET_KEY"] = secret_key
    result = run(["manage.py", "check"], **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY" in result.stderr


def test_production_requires_allowed_hosts():
    result = run(["manage.py", "check"], DJANGO_ENV="production", SECRET_KEY=REAL_KEY)
    assert result.returncode != 0
    assert "ALLOWED_HOSTS" in result.stderr


def test_unknown_django_env_is_refused():
    result = run(["manage.py", "check"], DJANGO_ENV="staging")
    assert result.returncode != 0
    assert "DJANGO_ENV" in result.stderr


def test_production_passes_check_deploy_without_warnings():
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DJANGO_ENV="production",
        SECRET_KEY=REAL_KEY,
        ALLOWED_HOSTS="xuezhan.example.com",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_development_fails_check_deploy():
    """Sanity check of the test above: development settings are not deployable."""
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"])
    assert result.returncode != 0


def test_production_security_settings():
    result = show(
        "DEBUG",
        "SECURE_SSL_REDIRECT",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS",
        "STORAGES['staticfiles']['BACKEND']",
        DJANGO_ENV="production",
        SECRET_KEY=REAL_KEY,
        ALLOWED_HOSTS="xuezhan.example.com",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "False",
        "True",
        "True",
        "True",
        "31536000",
        "'whitenoise.storage.CompressedManifestStaticFilesStorage'",
    ]


def test_production_env_overrides():
    result = show(
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        DJANGO_ENV="production",
        SECRET_KEY=REAL_KEY,
        ALLOWED_HOSTS="xuezhan.example.com",
        SECURE_SSL_REDIRECT="false",
        SECURE_HSTS_SECONDS="0",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["False", "0"]


def test_postgresql_connect_and_statement_timeouts():
    """Bounded by default; each bound from the environment; 0 switches it off. The wait for an
    answer on an open connection (``core.db``) is bounded by both, unless set apart; the
    connection starts in UTC (nothing to set before that bound is in place)."""
    settings = "DATABASES['default']['OPTIONS']", "DB_ANSWER_TIMEOUT"
    url = "postgres://u@db.example:5432/x"
    cases = [
        ({}, {"connect_timeout": 5, "options": "-c TimeZone=UTC -c statement_timeout=10000"},
         15.0),
        ({"DB_CONNECT_TIMEOUT": "2", "DB_STATEMENT_TIMEOUT": "0.5"},
         {"connect_timeout": 2, "options": "-c TimeZone=UTC -c statement_timeout=500"}, 2.5),
        ({"DB_STATEMENT_TIMEOUT": "10", "DB_ANSWER_TIMEOUT": "30"},
         {"connect_timeout": 5, "options": "-c TimeZone=UTC -c statement_timeout=10000"}, 30.0),
        ({"DB_CONNECT_TIMEOUT": "0", "DB_STATEMENT_TIMEOUT": "0"},
         {"options": "-c TimeZone=UTC"}, 0.0),
    ]  # fmt: skip
    for env, options, answer in cases:
        result = show(*settings, DATABASE_URL=url, **env)
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines() == [repr(options), repr(answer)], env


def test_no_postgresql_options_on_sqlite():
    result = show("DATABASES['default']['OPTIONS']", DATABASE_URL="sqlite:////tmp/x.sqlite3")
    assert result.returncode == 0, result.stderr
    assert "connect_timeout" not in result.stdout and "statement_timeout" not in result.stdout


@pytest.mark.parametrize(
    "env, location",
    [
        ({"CELERY_BROKER_URL": "redis://cache.example:6380/4"}, "redis://cache.example:6380/5"),
        ({"CELERY_BROKER_URL": "redis://:pw@h:6379/15"}, "redis://:pw@h:6379/0"),
        ({"CELERY_BROKER_URL": "redis://h:6379"}, "redis://h:6379/1"),
        ({"CELERY_BROKER_URL": "redis://h/0", "CACHE_URL": "redis://other:6379/9"},
         "redis://other:6379/9"),
        ({"CELERY_BROKER_URL": ""}, "xuezhan"),
        ({"CELERY_BROKER_URL": "redis://h:6379/0", "DJANGO_ENV": "test"}, "xuezhan"),
    ],
)  # fmt: skip
def test_the_cache_is_the_broker_s_redis(env, location):
    """Throttle counters are shared by every process: with a Redis broker the default cache is
    that server's next database (never the broker's own: clearing a cache flushes it)."""
    result = show("CACHES['default']['LOCATION']", "CACHES['default']['BACKEND']",
                  **env)  # fmt: skip
    assert result.returncode == 0, result.stderr
    found, backend = result.stdout.splitlines()
    assert found == repr(location)
    # Redis as the cache fails open (core.cache)
    assert backend.split(".")[-1] in ("FailOpenRedisCache'", "LocMemCache'")
