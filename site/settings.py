"""Django settings for Baithak.

Local defaults need nothing: SQLite, the in-memory channel layer, DEBUG on. Production
reads the environment: SECRET_KEY, DEBUG, ALLOWED_HOSTS, DATABASE_URL (PostgreSQL),
REDIS_URL (channels-redis and the cache), EMAIL_* and DEFAULT_FROM_EMAIL (SMTP).
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent  # the repository root


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = _env_bool("DEBUG", True)
# A fixed key is only acceptable while DEBUG is on; production must set SECRET_KEY.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-local-development-key-not-for-production"

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "daphne",  # must precede staticfiles so `runserver` is the ASGI one
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "channels",
    "django_htmx",
    "game",
    "game.courtpiece",  # each game registers itself with the tables (game.tables.registry)
    "game.backgammon",
    "tutorials",
    "allauth",  # accounts: sign-up, login, verification, reset (see the ACCOUNT_* block)
    "allauth.account",
    "accounts",
    "guide",
    "csp",  # django-csp: its system checks (the policy itself is CONTENT_SECURITY_POLICY)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After WhiteNoise: the pages get the headers, static files need none.
    "csp.middleware.CSPMiddleware",
    "baithak.headers.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: a signed-in player's stored language for URLs without one.
    "accounts.middleware.PreferredLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "baithak.urls"

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
                "django.template.context_processors.i18n",
                "baithak.context_processors.languages",
            ],
        },
    },
]

ASGI_APPLICATION = "baithak.asgi.application"
WSGI_APPLICATION = "baithak.wsgi.application"

# Under ASGI, Django's persistent connections are not reused across the thread pool
# (they leak instead), so CONN_MAX_AGE stays 0 and PostgreSQL uses psycopg's own pool.
DATABASES = {
    "default": dj_database_url.config(default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN", "1")),
        "max_size": int(os.environ.get("DB_POOL_MAX", "10")),
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Live tables write from many requests and sockets at once. SQLite's default deferred
    # transactions fail at once with "database is locked" when two of them upgrade to a
    # write lock; IMMEDIATE takes the lock up front so the busy timeout can wait for it,
    # and WAL lets readers go on while one writes.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "game.tables.transport.layers.RedisChannelLayer",
            # redis-py 8 reads with a 5 s socket timeout by default, which breaks the
            # layer's blocking receive (BZPOPMIN) on every idle socket: no timeout here
            # (django/channels_redis#422).
            # redis-py's pool allows 100 connections at once by default; a process with
            # a thousand sockets joining groups and sending at once needs more
            # (MaxConnectionsError under load in bench/load.py).
            # Every socket of a process shares that process's one inbox in Redis, and
            # the layer drops a group message for an inbox holding `capacity` messages
            # (100 by default): with a thousand sockets, a burst of moves overflowed it
            # and players missed moves (bench/load.py --backend postgres).
            "CONFIG": {
                "capacity": int(os.environ.get("REDIS_CHANNEL_CAPACITY", "5000")),
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": None,
                        "max_connections": int(os.environ.get("REDIS_MAX_CONNECTIONS", "1000")),
                    }
                ]
            },
        }
    }
else:
    # One process only: fine for `make run` and tests, not for several workers.
    CHANNEL_LAYERS = {"default": {"BACKEND": "game.tables.transport.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Urdu first: it is the language most of our players read the rules in.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("ur", _("Urdu")),
    ("hi", _("Hindi")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG  # serve straight from static/ while developing

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Content-Security-Policy (django-csp 4): everything from our own origin only. A <script>
# or <style> element in a page runs only with the request's nonce (`{{ request.csp_nonce }}`,
# a fresh one per response), so no injected markup can run; style="" attributes are refused
# too (the SVG figures say direction="ltr" as an attribute instead). 'self' in connect-src
# covers the table's own ws:// or wss:// socket. Django's own debug pages (DEBUG, 404/500)
# are left without the header by django-csp, so their inline styles work.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# --- Accounts (django-allauth 65) -------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",  # the admin's username login
    "allauth.account.auth_backends.AuthenticationBackend",  # username or email
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"  # the adapter sends players to home in their own language
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
# A seat at a live table needs a working address: no login until it is confirmed.
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
# Confirming is a POST from the page the link opens, so mail scanners that follow links
# confirm nothing; the browser that signed up is then signed in.
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGOUT_ON_GET = False  # logging out is a POST (a link cannot log anyone out)
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_USER_DISPLAY = "accounts.templatetags.accounts_tags.display_name"  # "signed in as …"
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"  # links in emails
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link works for one day, then expires
# allauth's rate limits (kept in CACHES), stated here so README can cite them:
# "N/period/what", what = ip | key (the username or email tried) | user.
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    "login_failed": "10/m/ip,5/5m/key",  # 5 wrong passwords for one account in 5 minutes
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip",
    "change_password": "5/m/user",
    "manage_email": "10/m/user",
    "confirm_email": "1/3m/key",  # resending a confirmation email
}

# Rate-limit counters must be shared by every worker in production: Redis there.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Live tables (game.tables): a bot's human-like pause before it moves, "min,max" seconds,
# and the grace period after a disconnect before the bot plays the seat. The calling
# timers of CP-SS-4 (20 s, 10 s in a first game) are rules, not settings.
TABLES_BOT_PAUSE = tuple(
    float(x) for x in os.environ.get("TABLES_BOT_PAUSE", "0.6,1.2").split(",", 1)
)
# After a trick is won a bot waits this long before it leads (seconds), so the people at
# the table see the four cards and who won them before the next trick begins.
TABLES_TRICK_PAUSE = float(os.environ.get("TABLES_TRICK_PAUSE", "1.8"))
# ... and after a hand has ended, before its first move of the next (the result is read).
TABLES_HAND_PAUSE = float(os.environ.get("TABLES_HAND_PAUSE", "6"))
TABLES_GRACE_SECONDS = float(os.environ.get("TABLES_GRACE_SECONDS", "30"))
# Compute each finished hand's (and backgammon game's) analysis as soon as it ends, in a
# background thread of the process that played the ending move (game.tables.ahead), so
# the replay's first request finds it stored. Off: only when it is first asked for.
TABLES_ANALYSIS_AHEAD = os.environ.get("TABLES_ANALYSIS_AHEAD", "on").lower() not in (
    "off", "0", "false", "no"
)
# PostgreSQL: threads serving the sockets' and the clock's database calls (game/db.py;
# at most half of DB_POOL_MAX). SQLite always uses one.
TABLES_DB_THREADS = int(os.environ.get("TABLES_DB_THREADS", "4"))
# A player's common move runs on the event loop with a connection of its own
# (game/fastmoves.py); off, every move goes through the threads above.
TABLES_FAST_MOVES = os.environ.get("TABLES_FAST_MOVES", "on").lower() not in (
    "off", "0", "false", "no"
)
# PostgreSQL: how many asynchronous connections those moves share (each process). A move
# holds one for its two round trips, each a turn of a busy event loop: under load eight
# were all taken in a burst, and moves then waited for one (bench/load.py --backend
# postgres); sixteen leave room. Each is a server connection:
# keep processes x (this + DB_POOL_MAX) under PostgreSQL's max_connections (100).
TABLES_FAST_CONNECTIONS = int(os.environ.get("TABLES_FAST_CONNECTIONS", "16"))
# PostgreSQL: how those moves commit (its synchronous_commit, for their connections only).
# "on" (the default): each move waits for the disk's flush before anyone hears of it, so
# no move a player saw is lost. "off": a move is still committed, and seen by every
# process, before anyone hears of it, but it reaches the disk only with the WAL writer's
# next rounds: a crash of PostgreSQL (any of its processes) or of the machine may lose up
# to 3 x wal_writer_delay (600 ms by default) of moves players saw, and the server
# processes must then be restarted, as their caches may hold versions that were lost
# (game.tables.store.replay keys states by version; the rows in memory by revision).
# That wait was most of the slowest moves' time (docs/PERFORMANCE.md). Django's
# connections, which write results, ratings and accounts, keep the server's own setting.
TABLES_MOVES_SYNCHRONOUS_COMMIT = os.environ.get(
    "TABLES_MOVES_SYNCHRONOUS_COMMIT", "on"
).lower()
if TABLES_MOVES_SYNCHRONOUS_COMMIT not in ("off", "local", "remote_write", "on", "remote_apply"):
    raise ImproperlyConfigured(
        "TABLES_MOVES_SYNCHRONOUS_COMMIT must be one of PostgreSQL's synchronous_commit "
        f"values (off, local, remote_write, on, remote_apply), not "
        f"{TABLES_MOVES_SYNCHRONOUS_COMMIT!r}"
    )
# A server process that has not renewed its heartbeat for this long counts as gone: its
# sockets are closed for it (a process killed with SIGKILL cannot close them itself).
TABLES_PROCESS_TIMEOUT = float(os.environ.get("TABLES_PROCESS_TIMEOUT", "30"))
# The caps on table sockets (game.tables.limits), counted in the database across every
# process: a table's sockets, and a client's over every table. A watcher past either is
# refused with "forbidden"; a player's socket to their own seat never is.
TABLES_SOCKETS_PER_TABLE = int(os.environ.get("TABLES_SOCKETS_PER_TABLE", "200"))
TABLES_SOCKETS_PER_CLIENT = int(os.environ.get("TABLES_SOCKETS_PER_CLIENT", "20"))

# Email: printed to the console unless EMAIL_HOST is set (then SMTP).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = _env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Baithak <noreply@localhost>")
# Where players write to us: shown on /<lang>/contact/ and at the foot of every email.
CONTACT_EMAIL = os.environ.get("CONTACT_EMAIL", "contact@baithak.localhost")

if not DEBUG:
    # Behind a TLS-terminating proxy that sets X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = _env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the load balancer's probe speaks plain HTTP
    # HSTS cannot be taken back once browsers have cached it: the operator opts in.
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = _env_bool("SECURE_HSTS_PRELOAD", False)
