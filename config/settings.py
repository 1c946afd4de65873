"""Django settings for Xuezhan, read from the environment with django-environ.

Three modes, chosen by ``DJANGO_ENV``:

* ``development`` (default): DEBUG on, a built-in insecure SECRET_KEY, SQLite by default.
* ``test`` (set for pytest in ``pyproject.toml``): development, plus a fast password hasher and
  throttles off (a test that checks throttling turns its own rate on); Celery runs eagerly
  unless ``CELERY_BROKER_URL`` names a broker.
* ``production``: DEBUG off, a real ``SECRET_KEY`` (>= 50 characters, not the development
  default) and ``ALLOWED_HOSTS`` are required (ImproperlyConfigured otherwise), HTTPS-only
  cookies, HSTS and SSL redirect are on, so ``manage.py check --deploy`` is clean.

See README.md for the table of environment variables.
"""

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# Optional .env file at the project root (never required).
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")

DJANGO_ENV = env.str("DJANGO_ENV", default="development").strip().lower()
if DJANGO_ENV not in {"development", "test", "production"}:
    raise ImproperlyConfigured(
        f"DJANGO_ENV must be 'development', 'test' or 'production', not {DJANGO_ENV!r}."
    )
PRODUCTION = DJANGO_ENV == "production"
TESTING = DJANGO_ENV == "test"

# --- Core -------------------------------------------------------------------------------------

DEV_SECRET_KEY = "django-insecure-xuezhan-development-only-key-do-not-use-in-production"
SECRET_KEY = env.str("SECRET_KEY", default=DEV_SECRET_KEY)
DEBUG = env.bool("DEBUG", default=not PRODUCTION)
ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS", default=[] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]", "testserver"]
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

if PRODUCTION:
    if (
        SECRET_KEY == DEV_SECRET_KEY
        or len(SECRET_KEY) < 50
        or len(set(SECRET_KEY)) < 5
        or SECRET_KEY.startswith("django-insecure-")
    ):
        raise ImproperlyConfigured(
            "DJANGO_ENV=production needs a real SECRET_KEY: at least 50 characters, "
            "at least 5 distinct ones, not the development default and not 'django-insecure-*'."
        )
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DJANGO_ENV=production needs ALLOWED_HOSTS (comma-separated).")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    # Third party
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    # Project apps, lowest layer first (imports run one way: see pyproject's import-linter
    # contract); ``manage.py demo`` runs their demo steps in this order
    "core",
    "scoring",
    "clubs",
    "tournaments",
    "ratings",
    "exchange",
    "pages",
]

MIDDLEWARE = [
    # First, so it sees every answer: JSON errors under /api/ whatever DEBUG says.
    "core.middleware.ApiErrorsMiddleware",
    "core.middleware.ContentSecurityPolicyMiddleware",
    "core.middleware.RequestBodyLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # after CSRF: a forged form is refused as such, not read
    "core.middleware.ControlCharactersMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # after the login: its page shows who is signed in, as every page does
    "pages.middleware.ControlCharactersMiddleware",
    "pages.middleware.LoginRequiredMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # the CSRF token masked once per answer (Django's own masks it at each use)
                "pages.frame.csrf",
            ],
        },
    },
]

# --- Database & cache ---------------------------------------------------------------------------

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# SQLite (the quick start): a write transaction takes the database's write lock when it begins
# (BEGIN IMMEDIATE), and waits up to DB_BUSY_TIMEOUT seconds for another writer to finish;
# the default (deferred) transaction fails at once when two writers meet.
DB_BUSY_TIMEOUT = env.int("DB_BUSY_TIMEOUT", default=10)
if DATABASES["default"].get("ENGINE") == "django.db.backends.sqlite3":
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options.setdefault("transaction_mode", "IMMEDIATE")
    _options.setdefault("timeout", DB_BUSY_TIMEOUT)
# PostgreSQL: a database that accepts connections but never answers must not hold a request (or
# a worker) until gunicorn kills it: connecting and each statement are bounded (seconds; 0 = no
# limit).
DB_CONNECT_TIMEOUT = env.int("DB_CONNECT_TIMEOUT", default=5)
DB_STATEMENT_TIMEOUT = env.float("DB_STATEMENT_TIMEOUT", default=10.0)
# ...and a connection that goes silent with a statement or a commit in flight (the network
# dropped, the server froze: the server's timer cannot help) fails after this long (core.db)
DB_ANSWER_TIMEOUT = env.float(
    "DB_ANSWER_TIMEOUT",
    default=DB_STATEMENT_TIMEOUT + DB_CONNECT_TIMEOUT if DB_STATEMENT_TIMEOUT else 0.0,
)
if DATABASES["default"].get("ENGINE") == "django.db.backends.postgresql":
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    if DB_CONNECT_TIMEOUT:
        _options.setdefault("connect_timeout", DB_CONNECT_TIMEOUT)
    # the connection starts in UTC (USE_TZ), so Django has nothing to set before the bound on
    # answers is in place (core.db), and a request saves a round trip
    _server = "-c TimeZone=UTC"
    if DB_STATEMENT_TIMEOUT:
        _server += f" -c statement_timeout={round(DB_STATEMENT_TIMEOUT * 1000)}"
    _options["options"] = f"{_options.get('options', '')} {_server}".strip()


def _shared_cache_default(broker_url: str) -> str:
    """Throttle counters must be shared by every process (four gunicorn workers must not each
    allow the limit): with a Redis broker, the cache is that Redis server's next database (the
    cache's ``clear()`` flushes a whole database, never the broker's queues). The suite's own
    mode keeps its cache in memory: it clears the cache around every test."""
    parts = urlsplit(broker_url)
    if TESTING or parts.scheme not in {"redis", "rediss"}:
        return "locmemcache://xuezhan"
    database = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(database + 1) % 16}", query=""))


CACHES = {
    "default": env.cache_url(
        "CACHE_URL", default=_shared_cache_default(env.str("CELERY_BROKER_URL", default=""))
    )
}
# Redis as the cache fails open: unreachable, it reads as empty and the request goes on
# (core.cache); /healthz says it is down
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    CACHES["default"]["BACKEND"] = "core.cache.FailOpenRedisCache"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth ---------------------------------------------------------------------------------------

# A signed-in page reads its session from the cache (Redis in production), the table only when
# the cache does not have it; every write goes to both, so a sign-out or a new password ends the
# session at once (issue 25: a logged-in GET read the session table every time)
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Every password checked is counted first, whichever door it comes through (core.logins)
AUTHENTICATION_BACKENDS = ["core.logins.ThrottledModelBackend"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    # Hashing a password the real way costs 0.3 s; tests make hundreds of logins.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# --- I18N ---------------------------------------------------------------------------------------

LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="en")
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
# One catalogue for the project (the pages and the templates hold nearly every string).
LOCALE_PATHS = [BASE_DIR / "pages" / "locale"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
TIME_ZONE = env.str("TIME_ZONE", default="Asia/Shanghai")
USE_I18N = True
USE_TZ = True

# --- Static files -------------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed files in production (needs collectstatic, done in the Dockerfile).
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        ),
    },
}

# Development: whitenoise serves straight from the app/static finders (no collectstatic needed,
# even with DEBUG off); production serves only the collected, hashed files.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = DEBUG and not PRODUCTION

# --- Content Security Policy --------------------------------------------------------------------

# The pages load scripts and styles from this site only and run nothing inline (no inline
# script, no style attribute): an injected tag or handler does nothing. Tiles, charts and QR
# codes are inline SVG elements, allowed as markup; data: images are the favicon's and the
# QR codes' only other form.
CSP_PAGES = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# The admin and the API's browsable pages and docs are rendered by Django and the API's
# libraries with inline script and style: this site only, inline allowed.
CSP_TOOLS = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
CSP_TOOLS_PREFIXES = ["/admin/", "/api/"]

# --- Request limits -----------------------------------------------------------------------------

# Nothing a stranger sends may cost more than its size: bodies (the API answers 413 beyond this,
# the admin's forms 400), and the nesting of a JSON body (400 too_deep beyond JSON_MAX_DEPTH).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("REQUEST_MAX_BYTES", default=256 * 1024)
JSON_MAX_DEPTH = env.int("JSON_MAX_DEPTH", default=32)

# --- Django REST framework ----------------------------------------------------------------------

# Tests never get throttled by accident: a test that checks throttling sets its own rate.
_UNTHROTTLED = "1000000/min"
THROTTLE_ANON = env.str("THROTTLE_ANON", default=_UNTHROTTLED if TESTING else "600/min")
THROTTLE_USER = env.str("THROTTLE_USER", default=_UNTHROTTLED if TESTING else "6000/min")
THROTTLE_ENGINE = env.str("THROTTLE_ENGINE", default=_UNTHROTTLED if TESTING else "1200/min")
# Passwords tried (token, pages, admin; core.logins): per username from one address, per
# username from anywhere, and per address whatever the username — far higher, since many
# people share one address behind a proxy or a router (set NUM_PROXIES behind a proxy).
THROTTLE_LOGIN = env.str("THROTTLE_LOGIN", default=_UNTHROTTLED if TESTING else "10/min")
THROTTLE_LOGIN_USERNAME = env.str(
    "THROTTLE_LOGIN_USERNAME", default=_UNTHROTTLED if TESTING else "30/min"
)
THROTTLE_LOGIN_ADDRESS = env.str(
    "THROTTLE_LOGIN_ADDRESS", default=_UNTHROTTLED if TESTING else "300/min"
)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so unauthenticated requests get 401 with "WWW-Authenticate: Token".
        # DRF's, its lookup one prepared statement (core.tokens)
        "core.tokens.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "core.pagination.StandardPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "core.throttling.AnonRateThrottle",
        "core.throttling.UserRateThrottle",
        "core.throttling.ScopedRateThrottle",
    ],
    # Behind N proxies that set X-Forwarded-For, the address the first of them saw.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=None),
    "DEFAULT_THROTTLE_RATES": {
        "anon": THROTTLE_ANON,
        "user": THROTTLE_USER,
        # Views opt in with ``throttle_scope = "engine"``.
        "engine": THROTTLE_ENGINE,
    },
    # JSON bounded in depth and number length (core.parsers); bodies in size (core.middleware).
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # pages and error answers documented (core.schema)
    "DEFAULT_SCHEMA_CLASS": "core.schema.AutoSchema",
    "EXCEPTION_HANDLER": "core.http.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Xuezhan API",
    "DESCRIPTION": "REST service for Sichuan mahjong (xuezhan daodi) clubs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v[0-9]+",
    # Swagger UI / ReDoc assets come from drf-spectacular-sidecar: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # several models have a "status": each choice set gets its own schema name
    "ENUM_NAME_OVERRIDES": {
        "SeatingMethodEnum": "tournaments.models.Tournament.Seating",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "RegistrationStatusEnum": "tournaments.models.Registration.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "SessionStatusEnum": "clubs.models.TableSession.Status",
        "ModeEnum": "clubs.models.TableSession.Mode",
        "TablePartEnum": ["seat", "bettor"],
        "MembershipRoleEnum": "clubs.models.Role",
        "InvitationKindEnum": "clubs.models.Invitation.Kind",
        "InvitationStateEnum": "clubs.models.Invitation.State",
        "InvitedRoleEnum": ["scorer", "member"],
        "ConfirmationRuleEnum": "clubs.models.ConfirmationRule",
        "PaymentReasonEnum": "scoring.engine.settle.result.REASON_NAMES",
        # (the penalties' reasons keep the name they had while they were the only ones)
        "ReasonEnum": "tournaments.models.Penalty.Reason",
    },
}

# --- Invitations ---------------------------------------------------------------------------------

# Seconds an invitation or password-reset link stays open (clubs.services.invitations): 7 days.
INVITATION_TTL = env.int("INVITATION_TTL", default=7 * 24 * 3600)

# --- Idempotency keys ---------------------------------------------------------------------------

# Hours a stored answer is replayed for; expired ones are purged (core.idempotency).
IDEMPOTENCY_KEY_HOURS = env.int("IDEMPOTENCY_KEY_HOURS", default=24)

# --- Celery -------------------------------------------------------------------------------------

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
if CELERY_BROKER_URL:
    CELERY_TASK_ALWAYS_EAGER = False
    CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL)
else:
    # No broker configured: run tasks in-process, synchronously.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
    CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="cache+memory://")
CELERY_BROKER_CONFIGURED = CELERY_BROKER_URL != "memory://"
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 3,
    # a broker that takes the connection and then never answers fails a publish (the outbox
    # sweep keeps the message and tries again) instead of holding it, and the sweep's
    # transaction, forever
    "socket_timeout": 5,
    # a task a worker took and never acknowledged (the worker was killed) goes back to the
    # queue after this long: every task here is short (a seating stops at 20 s) and safe to
    # repeat, and they are acknowledged when done (acks_late)
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=120),
    # ...when a worker starts, or at a running worker's look for such tasks, every 10 s (kombu
    # looks only every 10th time by default: 100 s)
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 1,
}
# What a write asks of the workers is written to the outbox in the write's own transaction and
# sent by Celery beat's sweep (core.outbox): run beat once (`celery -A config beat`, or a worker
# with -B). "direct" publishes on commit instead: make bench's reference only.
JOBS_DELIVERY = env.str("JOBS_DELIVERY", default="outbox")
# An outbox message stays until its task is done; one sent this long ago (seconds) and still
# not done is sent again (the broker lost it: Redis restarted without its data). Longer than
# the visibility timeout, after which the broker itself gives an unacknowledged task back.
OUTBOX_REDELIVER_SECONDS = env.float("OUTBOX_REDELIVER_SECONDS", default=180.0)
# A table's follow-ups (its totals, then its ratings and lines) wait this long (seconds) and
# what is asked again meanwhile joins them: one task per busy table, not one per hand.
FOLLOW_UP_COALESCE_SECONDS = env.float("FOLLOW_UP_COALESCE_SECONDS", default=1.0)
# The second net: what is computed from a session (its lines, ratings and awards; a
# tournament's standings) records the version of the session's data it read. Every
# RECONCILE_SECONDS a check asks again for what has lagged more than RECONCILE_AFTER_SECONDS
# (longer than a busy evening's follow-ups take, past the outbox's first re-sends).
RECONCILE_SECONDS = env.float("RECONCILE_SECONDS", default=300.0)
RECONCILE_AFTER_SECONDS = env.float("RECONCILE_AFTER_SECONDS", default=600.0)
if JOBS_DELIVERY not in {"outbox", "direct"}:
    raise ImproperlyConfigured(f"JOBS_DELIVERY must be 'outbox' or 'direct', not {JOBS_DELIVERY!r}")
CELERY_BEAT_SCHEDULE = {
    "deliver-the-outbox": {
        "task": "core.deliver_outbox",
        "schedule": env.float("OUTBOX_SWEEP_SECONDS", default=1.0),
        "options": {"expires": 10},
    },
    "purge-idempotency-keys": {"task": "core.purge_idempotency_keys", "schedule": 3600.0},
    "reconcile-ratings": {
        "task": "ratings.reconcile",
        "schedule": RECONCILE_SECONDS,
        "options": {"expires": RECONCILE_SECONDS},
    },
    "reconcile-standings": {
        "task": "tournaments.reconcile_standings",
        "schedule": RECONCILE_SECONDS,
        "options": {"expires": RECONCILE_SECONDS},
    },
}

# Named queues, the tables' work first: a table's totals and a tournament's standings and
# seatings ("tables") before ratings, statistics and awards ("ratings"), the sweep and the rest
# on Celery's default queue. A worker consumes them as `-Q tables,celery,ratings`, and takes
# from the first queue that has work (``queue_order_strategy: priority``). Off by default: a
# worker started without -Q (the quick start, the tests) serves the default queue only.
CELERY_NAMED_QUEUES = env.bool("CELERY_NAMED_QUEUES", default=False)
if CELERY_NAMED_QUEUES:
    CELERY_TASK_ROUTES = {
        "clubs.*": {"queue": "tables"},
        "tournaments.*": {"queue": "tables"},
        "ratings.*": {"queue": "ratings"},
    }
    CELERY_BROKER_TRANSPORT_OPTIONS["queue_order_strategy"] = "priority"


# --- Live pages ---------------------------------------------------------------------------------

# Server-sent events (django-eventstream; pages/live/). A write says "this changed" once it has
# committed (core.live); the event carries ids and a version, never what changed. With Redis the
# event is kept (a day) under an id per channel, so a page that reconnects is sent what it missed,
# and published, so the ASGI server holding the streams hears writes from any process (gunicorn,
# a worker). Without Redis (the demo on SQLite, no broker) one process serves pages and streams.
LIVE_REDIS_URL = env.str(
    "LIVE_REDIS_URL",
    default=CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else "",
)
EVENTSTREAM_CHANNELMANAGER_CLASS = "pages.live.channels.PageChannels"
if LIVE_REDIS_URL:
    _live = urlsplit(LIVE_REDIS_URL)
    EVENTSTREAM_REDIS = {
        "host": _live.hostname or "127.0.0.1",
        "port": _live.port or 6379,
        "db": int(_live.path.strip("/") or 0),
        "password": _live.password,
        "ssl": _live.scheme == "rediss",
        # a write's request must not wait on a Redis that does not answer: the event goes to
        # the outbox instead (core.live)
        "socket_connect_timeout": 0.5,
        "socket_timeout": 1.0,
    }
    EVENTSTREAM_STORAGE_CLASS = "django_eventstream.storage.RedisStorage"
    EVENTSTREAM_STORAGE_CONNECTION = EVENTSTREAM_REDIS
# seconds a process sends its events through the outbox after Redis failed to take one
LIVE_BACKOFF_SECONDS = env.float("LIVE_BACKOFF_SECONDS", default=5.0)

# --- Health check -------------------------------------------------------------------------------

# Seconds /healthz waits for the broker's connection, then for a worker to answer a ping.
HEALTHZ_BROKER_TIMEOUT = env.float("HEALTHZ_BROKER_TIMEOUT", default=2.0)
HEALTHZ_WORKER_TIMEOUT = env.float("HEALTHZ_WORKER_TIMEOUT", default=1.0)

# --- Security (production) ----------------------------------------------------------------------

if PRODUCTION:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    # Load balancers / compose health checks probe over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
    if env.bool("SECURE_PROXY_SSL_HEADER", default=False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Logging ------------------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
