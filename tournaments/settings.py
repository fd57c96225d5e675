"""Django settings, read from environment variables.

| variable | default | meaning |
| --- | --- | --- |
| DATABASE_URL | sqlite:///var/turnierleiter.sqlite3 | any dj-database-url URL |
| REDIS_URL / CELERY_BROKER_URL | Celery's filesystem broker under var/ | broker |
| SECRET_KEY | a development key (refused when DEBUG is off); the laptop: one made once in var/ | |
| DEBUG | on (make run / runall: off) | "0"/"false" turns it off |
| TURNIERLEITER_LAPTOP | off (make run / runall: on) | plain HTTP on the venue's network |
| ALLOWED_HOSTS | localhost,127.0.0.1,[::1] (+ * when DEBUG) | comma separated; the laptop: see VenueHostMiddleware |
| CSRF_TRUSTED_ORIGINS | none | comma separated origins behind a proxy |
| SECURE_SSL_REDIRECT, SECURE_HSTS_SECONDS | on / 1 year when DEBUG is off (not on the laptop) | behind TLS in production |
| REQUEST_TIME_BUDGET | 30 | seconds a request may take (tournaments/middleware.py) |
| DATABASE_STATEMENT_TIMEOUT | REQUEST_TIME_BUDGET | PostgreSQL: seconds one statement may take (0: none) |
| SITE_URL | none | the address printed in QR codes and links (else the LAN address) |
| CACHE_URL | REDIS_URL, else a file cache in var/cache | the shared cache (tournaments/live.py) |
| TRUSTED_PROXIES | none | comma separated addresses or networks of the proxies in front; only their X-Forwarded-For is believed |
| REGISTRATION_LIMIT, REGISTRATION_WINDOW | 100 per 3600 s | players' registrations per address |
| REGISTRATION_PERSON_LIMIT | 10 per REGISTRATION_WINDOW | registrations per name and per e-mail address |
| REGISTRATION_MIN_SECONDS | 3 | a registration form sent back sooner is refused (bots) |
| EMAIL_HOST (EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, DEFAULT_FROM_EMAIL) | none: no mail | SMTP for mailing a registration's personal link |
"""

import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("TURNIERLEITER_VAR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [x.strip() for x in os.environ.get(name, default).split(",") if x.strip()]


def laptop_secret_key(path: Path) -> str:
    """The laptop's key: made once (on the first start) and kept in ``path``.
    Web, worker and beat start together: whoever is first writes it whole
    (a link is atomic), the others read that one."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(50))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return path.read_text().strip()


DEBUG = env_bool("DEBUG", True)
#: the laptop at the venue (make run / runall set it): plain HTTP on the venue's
#: network, no proxy and no TLS in front; phones reach it by its LAN address
LAPTOP = env_bool("TURNIERLEITER_LAPTOP", False)
_DEV_KEY = "django-insecure-turnierleiter-development-only"
SECRET_KEY = os.environ.get("SECRET_KEY") or ""
if not SECRET_KEY and LAPTOP and not DEBUG:
    SECRET_KEY = laptop_secret_key(VAR_DIR / "secret_key")
SECRET_KEY = SECRET_KEY or _DEV_KEY
if not DEBUG and SECRET_KEY == _DEV_KEY:
    raise ImproperlyConfigured("Set SECRET_KEY when DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
#: the laptop: the names it answers besides IP addresses (VenueHostMiddleware)
VENUE_HOSTS = list(ALLOWED_HOSTS)
if DEBUG or LAPTOP:
    ALLOWED_HOSTS.append("*")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")


def trusted_proxies(name: str) -> list[str]:
    """The proxies in front of the site (addresses or networks, comma
    separated): only a connection from one of them has its
    ``X-Forwarded-For`` believed (tournaments/asgi.py). A wrong entry stops
    the start instead of trusting nobody, or somebody else, without a word."""
    import ipaddress

    proxies = env_list(name)
    for entry in proxies:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {entry!r} is not an IP address or network (e.g. 10.0.0.5, 172.18.0.0/16)"
            ) from None
    return proxies


#: empty (the laptop, a site without a proxy): a request's address is its
#: connection's (tournaments.addresses.client_address)
TRUSTED_PROXIES = trusted_proxies("TRUSTED_PROXIES")

#: the project's apps in their import order, lowest first: an app imports only
#: the apps before it (``games/``, below them all, imports none of them);
#: tests/test_architecture.py checks it. ``tournaments`` and ``scoring`` are
#: the core (the tournament, its players, rounds, tables and clock; the results).
PROJECT_APPS = [
    "tournaments",
    "scoring",
    "scoring.standings",
    "scoring.printing",
    "scoring.scans",
    "tournaments.play",
    "tournaments.push",
    "tournaments.finals",
    "tournaments.registrations",
    "scoring.exchange",
    "scoring.season",
    "tournaments.mirror",
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    *PROJECT_APPS,
]

MIDDLEWARE = [
    # first: an oversized body is refused from its headers, before anything reads it
    "tournaments.middleware.BodySizeLimitMiddleware",
    # around everything that reads the database: no request runs unbounded
    "tournaments.middleware.RequestBudgetMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "tournaments.middleware.SecurityHeadersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # last: turns a locked-out login into the "try again at ..." page
    "axes.middleware.AxesMiddleware",
]

if LAPTOP and not DEBUG:
    # which Host headers the laptop answers (ALLOWED_HOSTS is "*" there)
    MIDDLEWARE.insert(0, "tournaments.middleware.VenueHostMiddleware")

ROOT_URLCONF = "tournaments.urls"
WSGI_APPLICATION = "tournaments.wsgi.application"
ASGI_APPLICATION = "tournaments.asgi.application"  # what the web server runs

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

if not os.environ.get("DATABASE_URL"):
    VAR_DIR.mkdir(parents=True, exist_ok=True)  # the embedded default lives here
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'turnierleiter.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        # a kept connection is checked before a request reuses it, so a
        # database restarted on tournament day costs no failed page
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The embedded default: the web server's threads, the worker and beat write
    # the same file at once (tournaments/sqlite/). WAL: readers never block the
    # writer nor it them; synchronous NORMAL is safe with WAL (a power cut may
    # lose the last commits, never the file). IMMEDIATE: every transaction takes
    # the write lock when it begins, so it waits there (the busy timeout, in
    # seconds) instead of being refused when a read is followed by a write.
    DATABASES["default"]["ENGINE"] = "tournaments.sqlite"
    DATABASES["default"]["OPTIONS"] = {
        **DATABASES["default"].get("OPTIONS", {}),
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # tests in memory, as with Django's own engine (pytest-django knows that
    # one by its name only)
    DATABASES["default"]["TEST"] = {**DATABASES["default"].get("TEST", {}), "NAME": ":memory:"}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "tournaments" / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# -- time budget ---------------------------------------------------------------
#: seconds a request may take (tournaments.middleware.RequestBudgetMiddleware);
#: past it, it answers the 503 page and starts no further query. 0: no budget.
REQUEST_TIME_BUDGET = float(os.environ.get("REQUEST_TIME_BUDGET", "30"))
if "postgresql" in DATABASES["default"]["ENGINE"]:
    _pg = DATABASES["default"].setdefault("OPTIONS", {})
    # no statement runs longer than a request may (also in workers and commands)
    _statement_timeout = float(
        os.environ.get("DATABASE_STATEMENT_TIMEOUT") or REQUEST_TIME_BUDGET or 0
    )
    if _statement_timeout > 0:
        _pg["options"] = " ".join(
            [_pg.get("options", ""), f"-c statement_timeout={int(_statement_timeout * 1000)}"]
        ).strip()

# -- request size (tournaments/limits.py has the numbers) ------------------------
# BodySizeLimitMiddleware refuses larger bodies from their Content-Length;
# these are Django's own checks behind it.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024  # a form without its files
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024  # larger uploads go to a temp file
DATA_UPLOAD_MAX_NUMBER_FIELDS = 4000
# a form's files: above the scan upload's own limit (scoring/scans/views.py
# MAX_FILES), so a few photos too many get its message, not a bare 400
DATA_UPLOAD_MAX_NUMBER_FILES = 20

# -- login throttling (django-axes) ----------------------------------------------
# After AXES_FAILURE_LIMIT wrong passwords for one username from one address,
# that username is locked from that address for AXES_COOLOFF_TIME; the
# lockout page says until when. Its owner still logs in from elsewhere, and
# the others behind the same address (a club's or a venue's Wi-Fi, NAT) log
# in as before. A successful login resets the count. The address is the one
# every limit reads (tournaments.addresses.client_address: behind a proxy,
# the client's, see TRUSTED_PROXIES).
AUTHENTICATION_BACKENDS = [
    "tournaments.auth_backends.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "20"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "tournaments.addresses.client_address"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "tournaments.views.accounts.locked_out"
AXES_VERBOSE = False
#: signups: at most SIGNUP_LIMIT accounts per address per SIGNUP_WINDOW seconds
SIGNUP_LIMIT = int(os.environ.get("SIGNUP_LIMIT", "10"))
SIGNUP_WINDOW = int(os.environ.get("SIGNUP_WINDOW", "3600"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament_list"
LOGOUT_REDIRECT_URL = "home"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# -- security (production: DEBUG off, behind TLS) ------------------------------
# The laptop at the venue serves plain HTTP on the local network (no TLS): no
# HTTPS redirect, no secure-only cookies, no HSTS there.
_TLS = not DEBUG and not LAPTOP
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", _TLS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", _TLS)
# database sessions, saved again on a fresh connection when the request's
# connection died after its write (tournaments/sessions.py)
SESSION_ENGINE = "tournaments.sessions"
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", _TLS)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if _TLS else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = [
    # A venue server answers on one host; subdomain HSTS/preload is the
    # operator's decision (SECURE_HSTS_INCLUDE_SUBDOMAINS / _PRELOAD).
    "security.W005",
    "security.W021",
]

#: the address printed in QR codes and seat links, e.g. https://turnier.example.org.
#: Unset (a laptop at the venue): the host the organizer uses, a loopback one
#: replaced by the laptop's LAN address (tournaments/addresses.py origin()).
SITE_URL = os.environ.get("SITE_URL", "").rstrip("/")

# -- cache ----------------------------------------------------------------------
# What every viewer of a round sees alike (the clock status) is computed once
# per change or per second and served from here (tournaments/live.py). Every
# web process must share it: Redis when REDIS_URL is set (production, several
# boxes), else a file cache under var/ (the embedded default: the server's
# processes on one laptop all read the same files). CACHE_URL overrides
# ("locmem://" for a single process, "redis://...", "file:///path").
_cache_url = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL") or ""
#: the Redis backend: one connection pool per process (Django's own makes one
#: per request context)
CACHES_REDIS_BACKEND = "tournaments.cache.SharedRedisCache"
if _cache_url.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {
        "default": {
            "BACKEND": CACHES_REDIS_BACKEND,
            "LOCATION": _cache_url,
            "KEY_PREFIX": "tl",
        }
    }
elif _cache_url.startswith("locmem://"):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    _cache_dir = _cache_url.removeprefix("file://") or str(VAR_DIR / "cache")
    CACHES = {
        "default": {
            "BACKEND": "tournaments.cache.FileCache",
            "LOCATION": _cache_dir,
            # one entry per round and per seat link seen: culling (a directory
            # scan) only in events far bigger than a club's
            "OPTIONS": {"MAX_ENTRIES": 20000},
        }
    }

# -- push ----------------------------------------------------------------------
# A change committed anywhere (a web process, the worker's bots, the clock)
# reaches the web processes holding live screens (tournaments/push/): Redis
# pub/sub when REDIS_URL is set (every web box subscribes), else a datagram
# to each web process of this machine, which leave their port in PUSH_DIR.
PUSH_REDIS_URL = os.environ.get("PUSH_URL") or os.environ.get("REDIS_URL") or ""
PUSH_DIR = VAR_DIR / "push"

# -- Celery ------------------------------------------------------------------
_broker = os.environ.get("CELERY_BROKER_URL") or os.environ.get("REDIS_URL")
if _broker:
    CELERY_BROKER_URL = _broker
    # A task scheduled for a round's deadline (eta) is held unacknowledged by
    # a worker until then; Redis hands an unacknowledged message to another
    # worker after the visibility timeout. Keep it above the longest round
    # (12 h) so a scheduled close is never delivered twice early. If the worker
    # holding it dies, the message waits that long — the clock sweep (below)
    # closes the round within a second of any clock worker running.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 12 * 3600}
else:
    # kombu's filesystem transport, each message written in full before a
    # consumer can see it and an unreadable one set aside (tournaments/broker.py)
    _queue = VAR_DIR / "broker"
    for _sub in ("out", "processed", "control", "unreadable"):
        (_queue / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT = "tournaments.broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue / "out"),
        "data_folder_out": str(_queue / "out"),
        # where a consumer claims a message (a rename within var/broker)
        "processed_folder": str(_queue / "processed"),
        "unreadable_folder": str(_queue / "unreadable"),
        # the worker's remote-control mailboxes (else "control/" in the cwd)
        "control_folder": str(_queue / "control"),
        "store_processed": False,
        # how often an idle worker looks for new messages (kombu: 1 s): a
        # bot's move or a close waits at most this long for its worker
        "polling_interval": 0.2,
    }
#: runall's state of the laptop's processes (tournaments/supervisor.py), read
#: by the organizer's overview, and the workers' heartbeat files
RUN_DIR = VAR_DIR / "run"
PROCESS_STATUS_FILE = RUN_DIR / "processes.json"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# The round clock (tournaments/services/clock.py): its tasks run on their own
# queue so print jobs never delay a close; the beat sweeps every second
# (closes overdue rounds/tables, starts scheduled rounds, finishes digital
# tables after the grace period). TURNIERLEITER_CLOCK_QUEUE: tests use their own.
CLOCK_QUEUE = os.environ.get("TURNIERLEITER_CLOCK_QUEUE", "clock")
CELERY_TASK_ROUTES = {"clock.*": {"queue": CLOCK_QUEUE}}
CELERY_BEAT_SCHEDULE = {
    "clock-sweep": {
        "task": "clock.sweep",
        "schedule": 1.0,
        # a sweep that waited longer is replaced by the next one
        "options": {"queue": CLOCK_QUEUE, "expires": 10},
    },
    # bots in seats of digital tables (tournaments/play/bots.py): a bot
    # whose wake-up call was lost (a worker restart) moves within seconds
    # the mirror (tournaments/mirror/): what waits for the online site is
    # sent again, with backoff after a failure
    "mirror-sweep": {
        "task": "mirror.sweep",
        "schedule": 2.0,
        "options": {"expires": 10},
    },
    "bot-sweep": {
        "task": "clock.bot_sweep",
        "schedule": 5.0,
        "options": {"queue": CLOCK_QUEUE, "expires": 10},
    },
}
#: digital tables: the bot's pause before its move (seconds; a human-like
#: rhythm at the table; 0 plays bot moves at once), and after how long
#: without a move a player's seat counts as idle on the organizer's round page
DIGITAL_BOT_DELAY = float(os.environ.get("TURNIERLEITER_BOT_DELAY", "1.5"))
DIGITAL_IDLE_SECONDS = int(os.environ.get("TURNIERLEITER_IDLE_SECONDS", "90"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # the clock's sweep runs every second: its "sent / received / succeeded"
    # lines would bury everything else (closes are logged by tournaments.*)
    "loggers": {
        name: {"level": os.environ.get("CELERY_TASK_LOG_LEVEL", "WARNING")}
        for name in ("celery.beat", "celery.app.trace", "celery.worker.strategy")
    }
    # django-axes logs every login at INFO; lockouts are WARNING
    | {"axes": {"level": os.environ.get("AXES_LOG_LEVEL", "WARNING")}},
}

#: players' registrations: at most REGISTRATION_LIMIT per address (high
#: enough for a club's members on one Wi-Fi) and REGISTRATION_PERSON_LIMIT
#: per name and per e-mail address per REGISTRATION_WINDOW seconds; a form
#: sent back sooner than REGISTRATION_MIN_SECONDS after it was handed out is
#: refused (bots)
REGISTRATION_LIMIT = int(os.environ.get("REGISTRATION_LIMIT", "100"))
REGISTRATION_PERSON_LIMIT = int(os.environ.get("REGISTRATION_PERSON_LIMIT", "10"))
REGISTRATION_WINDOW = int(os.environ.get("REGISTRATION_WINDOW", "3600"))
REGISTRATION_MIN_SECONDS = int(os.environ.get("REGISTRATION_MIN_SECONDS", "3"))
#: mail: only where an SMTP host is configured (EMAIL_HOST & co.); without
#: one the personal link is shown (and kept as a QR code), nothing is mailed
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = os.environ.get("EMAIL_USE_TLS", "1") == "1"
    DEFAULT_FROM_EMAIL = os.environ.get(
        "DEFAULT_FROM_EMAIL", EMAIL_HOST_USER or "turnierleiter@localhost"
    )
REGISTRATION_MAIL = bool(os.environ.get("EMAIL_HOST"))
#: how an organizer account is confirmed before it may create a publishing
#: key (tournaments/mirror/keys.py): "mail" (a link mailed to the address
#: given) or "admin" (the site admin approves it in the admin); default:
#: mail where the site sends mail, else the admin
ORGANIZER_CONFIRMATION = os.environ.get("ORGANIZER_CONFIRMATION") or (
    "mail" if os.environ.get("EMAIL_HOST") else "admin"
)
