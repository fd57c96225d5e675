"""Hypothesis strategies that break a valid export document the way a
person editing it by hand (or an attacker) would: a value of another type,
a number out of range, a string where a number belongs, a list item
doubled, dropped or moved, a key deleted — at any place of the document.

Places are drawn evenly over the document's *kinds* of place (``rounds[*].
tables[*].submissions[*].ranks[*]`` is one kind however many results the
file holds), then one concrete place of that kind, so the few settings are
hit as often as the many timestamps.
"""

from __future__ import annotations

import copy

from hypothesis import strategies as st

ODD_TEXTS = [
    "",
    "x",
    "1",
    "-1",
    "points",
    "confirmed",
    "digital",
    "player",
    "%(name)s",
    "{seat}",
    "2026-01-01T00:00:00+00:00",
    "2026-13-45",
    "Ø" * 250,
]
ODD_NUMBERS = [-1, 0, 1, 2, 3, 7, 99, 2**15, 2**31, 2**63, 10**20, -(10**20), 0.5, 1e300]

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(ODD_NUMBERS),
    st.integers(-5, 40),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(ODD_TEXTS),
    st.text(max_size=6),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(ODD_TEXTS), inner, max_size=2)
    ),
    max_leaves=5,
)


def places(doc, path=()):
    """Every place of ``doc`` (a path of keys and indexes), the root excluded."""
    if isinstance(doc, dict):
        items = doc.items()
    elif isinstance(doc, list):
        items = enumerate(doc)
    else:
        return
    for key, value in items:
        yield (*path, key)
        yield from places(value, (*path, key))


def kind(path) -> tuple:
    return tuple("*" if isinstance(k, int) else k for k in path)


def _parent(doc, path):
    target = doc
    for key in path[:-1]:
        target = target[key]
    return target


def _near(draw, value):
    """A value next to ``value``: of its type but off, or of another type."""
    if isinstance(value, bool):
        return draw(st.sampled_from([not value, 1, 0, "true", None, [value]]))
    if isinstance(value, int | float):
        return draw(
            st.sampled_from(
                [value + 1, value - 1, -value, 0, -1, value * 1000, str(value), [value], None]
            )
            | st.sampled_from(ODD_NUMBERS)
        )
    if isinstance(value, str):
        return draw(
            st.sampled_from([value + "x", value[:1], value.upper(), 1, [value], {"x": value}, None])
            | st.sampled_from(ODD_TEXTS)
        )
    if isinstance(value, list):
        options = [[], [value], None, "x"]
        if value:
            i = draw(st.integers(0, len(value) - 1))
            options += [
                value + [copy.deepcopy(value[i])],
                value[:i] + value[i + 1 :],
                list(reversed(value)),
                [copy.deepcopy(value[i])] * 2,
                value[: max(len(value) - 1, 0)],
            ]
        return draw(st.sampled_from(options))
    if isinstance(value, dict):
        options = [{}, [value], None, "x"]
        if value:
            key = draw(st.sampled_from(sorted(value, key=str)))
            options += [
                {k: v for k, v in value.items() if k != key},
                {**value, "unknown": copy.deepcopy(value[key])},
            ]
        return draw(st.sampled_from(options))
    return draw(st.sampled_from([0, "", [], {}, "x", False]))


@st.composite
def mutation(draw, doc):
    """One change to ``doc`` (changed in place); returns what was done."""
    by_kind: dict[tuple, list] = {}
    for path in places(doc):
        by_kind.setdefault(kind(path), []).append(path)
    path = draw(st.sampled_from(by_kind[draw(st.sampled_from(sorted(by_kind, key=str)))]))
    parent, key = _parent(doc, path), path[-1]
    siblings = len(parent) if isinstance(parent, list) else 0
    op = draw(st.sampled_from(["near", "near", "any", "delete", "swap", "copy"]))
    if op == "delete":
        del parent[key]
    elif op in ("swap", "copy") and siblings >= 2:
        other = draw(st.integers(0, siblings - 1))
        if op == "swap":
            parent[key], parent[other] = parent[other], parent[key]
        else:
            parent[key] = copy.deepcopy(parent[other])
    elif op == "any":
        parent[key] = draw(JSON)
    else:
        op = "near"
        parent[key] = _near(draw, parent[key])
    return op, path


@st.composite
def mutated(draw, doc, most: int = 3):
    """A copy of ``doc`` with one to ``most`` changes, and the changes."""
    doc = copy.deepcopy(doc)
    done = [draw(mutation(doc)) for _ in range(draw(st.integers(1, most)))]
    return doc, done
