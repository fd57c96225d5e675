"""The project as shipped: deploy checks, migrations, lint."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args, env=None):
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_deploy_check_has_no_warnings_with_production_settings():
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DEBUG": "0",
        "SECRET_KEY": "x" * 20 + "production-like-secret-key-for-the-check-0123456789",
        "ALLOWED_HOSTS": "turnier.example.org",
        "DATABASE_URL": "sqlite:///:memory:",
    }
    result = run("manage.py", "check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_the_development_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    env.update(DEBUG="0", DATABASE_URL="sqlite:///:memory:")
    result = run("manage.py", "check", env=env)
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_migrations_are_complete():
    env = {**os.environ, "DATABASE_URL": "sqlite:///:memory:"}
    result = run("manage.py", "makemigrations", "--check", "--dry-run", env=env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_is_clean():
    lint = run("-m", "ruff", "check", ".")
    assert lint.returncode == 0, lint.stdout
    fmt = run("-m", "ruff", "format", "--check", ".")
    assert fmt.returncode == 0, fmt.stdout


def test_games_never_import_django():
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "games").rglob("*.py")
        if "import django" in p.read_text() or "from django" in p.read_text()
    ]
    assert offenders == []
