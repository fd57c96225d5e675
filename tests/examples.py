"""How many examples a property test tries: ``examples(n)``.

A full run (``make test``, CI) tries ``n``; ``make test-fast`` loads the
Hypothesis profile ``quick`` (``--hypothesis-profile=quick``, registered in
``tests/conftest.py``), which tries a quarter of that — at least 5, or ``n``
when it is fewer — so the quick loop still runs every property over a
spread of inputs and the full run keeps its depth. Hypothesis keeps the
examples that failed before (``.hypothesis/``) and tries them first either way.
"""

from __future__ import annotations

from hypothesis import settings

#: Hypothesis's own default, which a full run keeps
FULL = 100


def examples(n: int) -> int:
    """``n`` in a full run, scaled like the loaded profile's default."""
    return max(min(n, 5), n * settings.default.max_examples // FULL)
