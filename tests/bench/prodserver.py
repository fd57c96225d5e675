"""The production configuration for a bench, on loopback.

The web server as ``docker/Dockerfile`` starts it, PostgreSQL (a database of
the bench's own, created at the start and dropped at the end), Redis as the
cache (the bench's database number, flushed at the start and the end),
DEBUG off, static files collected into a temporary folder. A bench makes one
:class:`Production`, calls :meth:`Production.setup` (False: the services are
not there, the bench is not run), fills the database, :meth:`Production.start`
the server, and calls :meth:`Production.stop` in its ``finally``.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlparse

from tests.bench.bench_venue import wait_for

ROOT = Path(__file__).resolve().parents[2]
_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"


class Production:
    """One bench's production server and the database and cache it runs on."""

    def __init__(self, name: str, *, redis_url: str, env: dict[str, str] | None = None):
        self.name = name
        self.db_name = f"tl_{name}"
        self.server_url = os.environ.get("BENCH_POSTGRES", _POSTGRES)
        self.redis_url = os.environ.get("BENCH_REDIS", redis_url)
        self.extra_env = env or {}
        self.env: dict[str, str] = {}
        self.proc: subprocess.Popen | None = None
        self._tmp: tempfile.TemporaryDirectory | None = None
        self._redis = None

    def setup(self) -> bool:
        """Create the database, flush the cache, switch this process to the
        production settings and migrate; False (and says why) when
        PostgreSQL or Redis is not there."""
        import psycopg
        import redis

        try:
            with psycopg.connect(self.server_url, autocommit=True, connect_timeout=3) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {self.db_name} WITH (FORCE)")
                conn.execute(f"CREATE DATABASE {self.db_name}")
            redis.Redis.from_url(self.redis_url, socket_connect_timeout=3).ping()
        except (psycopg.Error, redis.RedisError) as exc:
            print(f"{self.name} not run: needs PostgreSQL and Redis ({exc})")
            return False
        self._redis = redis.Redis.from_url(self.redis_url)
        self._redis.flushdb()
        self._tmp = tempfile.TemporaryDirectory(prefix=f"tl-{self.name.replace('_', '-')}-")
        database_url = urlparse(self.server_url)._replace(path=f"/{self.db_name}").geturl()
        kept = {k: v for k, v in os.environ.items() if k not in ("CACHE_URL", "CELERY_BROKER_URL")}
        self.env = (
            kept
            | {
                "DJANGO_SETTINGS_MODULE": "tournaments.settings",
                "DATABASE_URL": database_url,
                "REDIS_URL": self.redis_url,
                "DEBUG": "0",
                "SECRET_KEY": f"{self.name.replace('_', '-')}-secret-key-not-for-production",
                "ALLOWED_HOSTS": "127.0.0.1",
                "TURNIERLEITER_VAR": self._tmp.name,
                "STATIC_ROOT": str(Path(self._tmp.name) / "static"),
                "LOG_LEVEL": "WARNING",
            }
            | self.extra_env
        )
        os.environ.clear()
        os.environ.update(self.env)
        os.chdir(ROOT)
        try:
            import django

            django.setup()
            from django.core.management import call_command

            call_command("migrate", "--noinput", verbosity=0)
            call_command("collectstatic", "--noinput", verbosity=0)
        except BaseException:
            self.stop()
            raise
        return True

    @property
    def log_path(self) -> Path:
        return Path(self._tmp.name) / "web.log"

    def start(self, cmd: list[str], port: int) -> subprocess.Popen:
        """Start the server with ``cmd`` (its output into the bench's log)
        and wait until it answers on ``port``."""
        print("server:", shlex.join(cmd[2:]))
        log = open(self.log_path, "w")  # noqa: SIM115 - the server writes to it until stop()
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        wait_for(port, self.proc)
        return self.proc

    def stop(self) -> None:
        """Stop the server (showing the end of its log), drop the database,
        flush the cache and remove the temporary folder."""
        if self.proc is not None:
            self.proc.terminate()
            tail = self.log_path.read_text().splitlines()[-8:]
            if tail:
                print("   server log (last lines):", *tail, sep="\n   ")
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.proc = None
        try:
            from django.db import connections

            connections.close_all()
        except Exception:
            pass
        import psycopg

        with psycopg.connect(self.server_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {self.db_name} WITH (FORCE)")
        if self._redis is not None:
            self._redis.flushdb()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
