"""What the apps above the core add to the core's pages: each registers, in
its ``AppConfig.ready``, a panel — a name in a page's template context and
the read that fills it from the page's subject (the tournament; a round for
a round's page) — so the core's and the results app's views show them
without importing those apps.

Pages: ``"overview"`` (the organizer's overview of a tournament: the results
app's next step, the registrations that left by themselves, the mirror's
state), ``"public"`` (a tournament's public page: whether it has a
season) and ``"round_results"`` (a round's results page, of a round: its
scanned piles).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_panels: dict[str, dict[str, Callable[[Any], Any]]] = {}


def register(page: str, name: str, read: Callable[[Any], Any]) -> None:
    """Show ``read(subject)`` as ``name`` on ``page``."""
    _panels.setdefault(page, {})[name] = read


def panels(page: str, subject) -> dict[str, Any]:
    """Every registered panel of ``page``, read for ``subject`` (its
    tournament, or its round)."""
    return {name: read(subject) for name, read in _panels.get(page, {}).items()}
