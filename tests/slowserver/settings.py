"""The site's settings with the test-only URLs of ``tests.slowserver.urls``."""

from tournaments.settings import *  # noqa: F403

ROOT_URLCONF = "tests.slowserver.urls"
