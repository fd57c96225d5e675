"""Turnierleiter's Django project package and main app.

Importing this package needs neither Django settings nor Celery, so the pure
seating module ``tournaments.seating`` runs on its own. The Celery app lives
in ``tournaments.celery`` (``celery -A tournaments.celery``).
"""
