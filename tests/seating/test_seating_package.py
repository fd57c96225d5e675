"""The seating package stays pure: no Django, nothing of the web side, no
import cycle among its modules (imports inside functions count)."""

import ast
from pathlib import Path

import tournaments.seating

PACKAGE = Path(tournaments.seating.__file__).parent


def _imports(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_no_django_and_nothing_from_above():
    for path in PACKAGE.glob("*.py"):
        for name in _imports(path):
            assert not name.startswith("django"), (path.name, name)
            if name.startswith("tournaments") or name.startswith("scoring"):
                assert name.startswith("tournaments.seating"), (path.name, name)


def test_no_import_cycle_between_its_modules():
    graph = {}
    for path in PACKAGE.glob("*.py"):
        deps = set()
        for name in _imports(path):
            if name.startswith("tournaments.seating."):
                deps.add(name.split(".")[2])
        graph[path.stem] = deps
    done, stack = set(), []

    def visit(m):
        assert m not in stack, f"import cycle: {' -> '.join([*stack, m])}"
        if m in done:
            return
        stack.append(m)
        for d in graph.get(m, ()):
            visit(d)
        stack.pop()
        done.add(m)

    for m in graph:
        if m != "__init__":
            visit(m)


def test_each_decision_has_its_module():
    names = {p.stem for p in PACKAGE.glob("*.py")}
    assert {"request", "sizes", "pairs", "groups", "mixing", "reseat", "late", "reasons"} <= names
    assert {"seat_round", "errors", "designs", "order"} <= names
