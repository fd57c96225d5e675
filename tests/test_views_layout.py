"""The views stay thin: no view module imports another (shared page data
comes from the selectors, shared responses from the views' ``_`` helper
modules), and a tournament's round is loaded one way."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VIEW_PACKAGES = (
    "tournaments.views",
    "scoring.views",
    "tournaments.play.views",
    "tournaments.registrations.views",
    "tournaments.mirror.views",
    "scoring.standings.views",
)
#: the apps whose views are one module (``views.py``)
VIEW_MODULES = ("scoring.printing.views", "scoring.scans.views")


def view_modules() -> dict[str, Path]:
    out = {}
    for package in VIEW_PACKAGES:
        folder = ROOT.joinpath(*package.split("."))
        for path in folder.glob("*.py"):
            if path.stem != "__init__":
                out[f"{package}.{path.stem}"] = path
    for name in VIEW_MODULES:
        path = ROOT.joinpath(*name.split(".")).with_suffix(".py")
        assert path.is_file(), name
        out[name] = path
    return out


def imported(path: Path) -> set[str]:
    """Every module name an import in ``path`` names (inside functions too)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_no_view_module_imports_another_view_module():
    modules = view_modules()
    views = {name for name in modules if not name.rpartition(".")[2].startswith("_")}
    offenders = {name: sorted(imported(path) & (views - {name})) for name, path in modules.items()}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_views_load_a_round_through_the_one_selector():
    pattern = re.compile(r"get_object_or_404\(\s*Round\b")
    offenders = [
        name for name, path in view_modules().items() if pattern.search(path.read_text("utf-8"))
    ]
    assert offenders == []


def test_a_refused_service_call_becomes_a_message_through_the_one_helper():
    pattern = re.compile(
        r"except (?:\w+\.)?ServiceError as exc:\s*\n\s*messages\.error\(request, str\(exc\)\)"
    )
    offenders = [
        name for name, path in view_modules().items() if pattern.search(path.read_text("utf-8"))
    ]
    assert offenders == []
