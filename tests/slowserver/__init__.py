"""A test-only server configuration: the site's URLs plus pages that run past
the request time budget. Loaded only by the server process a test starts
(``DJANGO_SETTINGS_MODULE=tests.slowserver.settings``), never in production."""
