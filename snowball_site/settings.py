"""Settings, read from environment variables.

With nothing set, the site runs in one process on SQLite with the in-memory channel
layer and the in-process coordinator. DATABASE_URL switches to PostgreSQL (or any
dj-database-url URL) and REDIS_URL switches the channel layer and the coordinator
to Redis, as docker compose does.
"""
from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = _env_bool("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = [h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "snowball_site.urls"
# A form sent without the page's security token gets the site's own page, saying what to do.
CSRF_FAILURE_VIEW = "games.views.csrf_failure"

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
            ],
        },
    },
]

ASGI_APPLICATION = "snowball_site.asgi.application"

REDIS_URL = os.environ.get("REDIS_URL", "").strip() or None

# Database connections: none is kept between calls (Django's advice under ASGI). On PostgreSQL
# they come from psycopg's pools, at most SNOWBALL_DB_POOL_SIZE per worker (the event loop's
# and Django's together, SNOWBALL_LOOP_DB_CONNECTIONS below), and closing one gives it back
# to its pool. Database calls from websockets run on as many threads as Django's pool has
# connections (games/calls.py), so they never wait for one another thread of theirs holds.
SNOWBALL_DB_POOL_SIZE = int(os.environ.get("SNOWBALL_DB_POOL_SIZE", "10"))
# Seconds a game's lock may be held by a live worker (its lease renewed meanwhile), and the
# lease: with Redis, how long a dead worker can hold up a game.
SNOWBALL_GAME_LOCK_SECONDS = float(os.environ.get("SNOWBALL_GAME_LOCK_SECONDS", "3"))
SNOWBALL_GAME_LOCK_LEASE_SECONDS = float(os.environ.get("SNOWBALL_GAME_LOCK_LEASE_SECONDS", "1"))
# Where a game's lock is taken: in this process (the default: nginx sends every socket of a
# game to one worker, and the database's row lock and the move's conditional write order
# the rare writers on two workers), or in Redis ("1"; docs/performance.md has both measured).
SNOWBALL_GAME_LOCK_IN_REDIS = os.environ.get("SNOWBALL_GAME_LOCK_IN_REDIS", "0") == "1"
# A move on a game this process already holds (its row and state, from its last move here or
# its sockets' last read) is computed on what it holds and written guarded on the row's version,
# without reading the row first ("0": every move reads it; games/services/play.py).
SNOWBALL_HELD_MOVES = os.environ.get("SNOWBALL_HELD_MOVES", "1") == "1"
# With SQLite in the process and no Redis (make run's shape), such a move is made on the event
# loop when nothing it needs is taken, instead of on a database thread ("0": always on a
# thread; games/calls.py).
SNOWBALL_MOVES_ON_THE_LOOP = os.environ.get("SNOWBALL_MOVES_ON_THE_LOOP", "1") == "1"

# Of a worker's SNOWBALL_DB_POOL_SIZE connections on PostgreSQL, those its event loop keeps for
# the moves it writes itself (games/loop_database.py); its database threads have the others.
SNOWBALL_LOOP_DB_CONNECTIONS = 0

_default_sqlite = BASE_DIR / "db.sqlite3"
DATABASES = {"default": dj_database_url.parse(os.environ.get("DATABASE_URL") or f"sqlite:///{_default_sqlite}",
                                               conn_max_age=0)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # a file, not a server: each thread keeps its connection (it closes when the thread ends)
    DATABASES["default"]["CONN_MAX_AGE"] = None
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        # shorter than a game's lock lives, so a move stuck behind another process's write
        # gives up (busy) before its lock could pass to another worker
        "timeout": max(0.5, SNOWBALL_GAME_LOCK_SECONDS - 1) if REDIS_URL else 5,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    if os.environ.get("SNOWBALL_TEST_DB_NAME"):
        DATABASES["default"]["TEST"] = {"NAME": os.environ["SNOWBALL_TEST_DB_NAME"]}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    if SNOWBALL_MOVES_ON_THE_LOOP and not SNOWBALL_GAME_LOCK_IN_REDIS:
        SNOWBALL_LOOP_DB_CONNECTIONS = 2
    if SNOWBALL_DB_POOL_SIZE <= SNOWBALL_LOOP_DB_CONNECTIONS:
        raise ImproperlyConfigured(f"SNOWBALL_DB_POOL_SIZE must be more than the event loop's "
                                   f"{SNOWBALL_LOOP_DB_CONNECTIONS} connections, not {SNOWBALL_DB_POOL_SIZE}")
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1, "max_size": SNOWBALL_DB_POOL_SIZE - SNOWBALL_LOOP_DB_CONNECTIONS, "timeout": 10}
    # a move waiting for a game's row held by another worker gives up (busy) as a wait for
    # the game's lock would
    DATABASES["default"]["OPTIONS"].setdefault(
        "options", f"-c lock_timeout={int(2 * SNOWBALL_GAME_LOCK_SECONDS * 1000)}")

# Redis connections: each pool of a worker (the fan-out's, the coordinator's) holds at most
# this many; a caller past that waits for one to come back instead of opening another.
SNOWBALL_REDIS_CONNECTIONS = int(os.environ.get("SNOWBALL_REDIS_CONNECTIONS", "16"))

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.channel_layers.RedisFanoutLayer",
            # at most SNOWBALL_REDIS_CONNECTIONS per pool; a burst waits for a free one
            "CONFIG": {"hosts": [REDIS_URL], "pool_size": SNOWBALL_REDIS_CONNECTIONS, "capacity": 1000,
                       "expiry": 30},
        }
    }
    # what every worker must count alike (the password-reset e-mails an address was sent)
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": "snowball-cache"}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "games.channel_layers.InMemoryLayer", "CONFIG": {"capacity": 1000}}}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
# The site is in English only. With translation on, every number a template prints asked the
# active language of the thread (an asgiref Local, slow from the database threads a socket
# renders on): a quarter of a What a Snowball! page socket's CPU a move (docs/performance.md).
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = _env_bool("DJANGO_SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

# Websocket limits: frames larger than this are refused; a socket sending faster than
# the rate (with the burst allowance) gets errors, and is closed if it keeps going.
SNOWBALL_MAX_FRAME_BYTES = int(os.environ.get("SNOWBALL_MAX_FRAME_BYTES", "4096"))
SNOWBALL_SOCKET_RATE = float(os.environ.get("SNOWBALL_SOCKET_RATE", "20"))
SNOWBALL_SOCKET_BURST = int(os.environ.get("SNOWBALL_SOCKET_BURST", "10"))
SNOWBALL_SOCKET_STRIKES = int(os.environ.get("SNOWBALL_SOCKET_STRIKES", "5"))
# Seconds after a close for flooding (4008) during which the same token, session or address
# has its new sockets closed with 4008 at once; each such socket starts the wait again.
SNOWBALL_FLOOD_COOLDOWN_SECONDS = float(os.environ.get("SNOWBALL_FLOOD_COOLDOWN_SECONDS", "10"))
# Open websockets one client address may hold in one worker; the address is the peer's, or
# the last of X-Forwarded-For when a proxy in front appends it (and only then).
SNOWBALL_MAX_SOCKETS_PER_CLIENT = int(os.environ.get("SNOWBALL_MAX_SOCKETS_PER_CLIENT", "50"))
SNOWBALL_TRUST_X_FORWARDED_FOR = _env_bool("SNOWBALL_TRUST_X_FORWARDED_FOR", False)
# Seconds between presence heartbeats; a connection not seen for 30 s (the coordinator's
# presence_ttl, three beats at the default) is gone.
SNOWBALL_PRESENCE_HEARTBEAT = float(os.environ.get("SNOWBALL_PRESENCE_HEARTBEAT", "10"))
# Seconds between two sweeps of overdue prompts by each worker (games/deadline_sweep.py).
SNOWBALL_SWEEP_SECONDS = float(os.environ.get("SNOWBALL_SWEEP_SECONDS", "5"))
# Seconds a live game's player may be gone before its seat's prompts get their defaults at once.
SNOWBALL_ABSENCE_GRACE = float(os.environ.get("SNOWBALL_ABSENCE_GRACE", "60"))
# Seconds a seat may have no connection (a reload) before the others are told its player left.
SNOWBALL_ABSENCE_NOTICE_DELAY = float(os.environ.get("SNOWBALL_ABSENCE_NOTICE_DELAY", "5"))

# E-mail (turn reminders, password resets): the console in development; SMTP from the
# environment when EMAIL_HOST is set. An empty EMAIL_HOST, EMAIL_PORT, DEFAULT_FROM_EMAIL or
# SNOWBALL_SITE_URL (docker compose passes them all through) counts as unset. The site's
# address in the e-mails' links is SNOWBALL_SITE_URL, else where `make run` serves it.
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT") or "587")
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = _env_bool("EMAIL_USE_TLS", True)
    # seconds before a silent SMTP server fails the sending (a reset request waits for it)
    EMAIL_TIMEOUT = 10
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL") or "Snowball <snowball@localhost>"


def _served_at() -> str:
    """The address ``make run`` serves, from its HOST and PORT (127.0.0.1 and 8000 unless
    given; an address that listens everywhere, such as 0.0.0.0, as 127.0.0.1)."""
    host = os.environ.get("HOST") or "127.0.0.1"
    if host in {"0.0.0.0", "::", "[::]"}:
        host = "127.0.0.1"
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{os.environ.get('PORT') or '8000'}"


SNOWBALL_SITE_URL = (os.environ.get("SNOWBALL_SITE_URL") or _served_at()).rstrip("/")
# Seconds between two full collections of the cyclic collector in a server (0: only when
# its thresholds say; snowball_site/tuning.py).
SNOWBALL_FULL_COLLECTION_SECONDS = float(os.environ.get("SNOWBALL_FULL_COLLECTION_SECONDS", "300"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"hide_secrets": {"()": "snowball_site.access_log.HideSecrets"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["hide_secrets"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {"daphne": {"level": "WARNING"}, "django.channels.server": {"level": "WARNING"}},
}
