"""The code lies in floors: no import cycle between the project's modules
(imports inside functions count), and games/ and the pure algorithms import
no Django."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "tournaments", "scoring")


def modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules a module imports, anywhere in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            # "from a import b": the module a.b when it is one, else a itself
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    """Every project module and the project modules it imports (a copy: the
    files are parsed once per test run)."""
    return {name: set(targets) for name, targets in _graph().items()}


@functools.cache
def _graph() -> dict[str, frozenset[str]]:
    mods = modules()
    known = set(mods)
    return {name: frozenset(imports_of(name, path, known)) for name, path in mods.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle():
    found = cycles(graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_games_import_no_django():
    for name, path in modules().items():
        if name.startswith("games"):
            text = path.read_text(encoding="utf-8")
            assert "django" not in {
                n.split(".")[0]
                for node in ast.walk(ast.parse(text))
                for n in (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else []
                )
            }, name


# -- the floors docs/architecture.md names -------------------------------------

ARCHITECTURE_DOC = ROOT / "docs" / "architecture.md"


def floor_modules(number: int) -> list[str]:
    """The modules and packages docs/architecture.md's "The floors" lists in floor
    ``number`` (every backticked ``.py`` file or folder of the project)."""
    text = ARCHITECTURE_DOC.read_text(encoding="utf-8")
    section = text[text.index("## The floors") :]
    item = re.search(rf"^{number}\. \*\*.*?(?=^\d\. \*\*|^\S)", section, re.S | re.M).group(0)
    out = []
    for path in re.findall(r"`([\w/]+(?:\.py|/))`", item):
        if not path.startswith(PACKAGES):
            continue
        name = path.removesuffix("/").removesuffix(".py").replace("/", ".")
        assert (ROOT / path).exists(), f"docs/architecture.md names {path}, which does not exist"
        out.append(name)
    return out


def members(names: list[str], known) -> set[str]:
    """The modules ``names`` stand for (a package: every module in it)."""
    return {m for m in known for n in names if m == n or m.startswith(n + ".")}


def django_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "django"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "django":
            found.append(node.module)
    return found


def test_the_pure_floor_imports_no_django_and_only_itself():
    mods, edges = modules(), graph()
    pure = members(floor_modules(1), mods)
    # what the docs have always promised pure must be on the list: the printing
    # app's drawing modules (its Django side, the documents, views and print
    # jobs, sits beside them)
    drawing = [
        f"scoring.printing.{m}"
        for m in (
            "sheets",
            "lists",
            "certificates",
            "slips",
            "season",
            "marks",
            "fit",
            "fonts",
            "qr",
        )
    ]
    for name in ("games", "tournaments.seating", *drawing, "scoring.standings.compute"):
        assert name in pure, f"{name} is missing from the pure floor in docs/architecture.md"
    assert {"tournaments.clock", "tournaments.roster"} <= pure
    for name in sorted(pure):
        assert not django_imports(mods[name]), f"{name} (pure) imports {django_imports(mods[name])}"
        above = sorted(edges[name] - pure)
        assert not above, f"{name} (pure) imports {above}, which is not pure"


def test_the_data_floor_imports_nothing_above_it():
    mods, edges = modules(), graph()
    pure = members(floor_modules(1), mods)
    data = members(floor_modules(2), mods)
    assert {"tournaments.models", "scoring.models", "tournaments.live"} <= data
    for name in sorted(data):
        above = sorted(edges[name] - pure - data)
        assert not above, f"{name} (data) imports {above}, above the data floor"
    # the lowest data module: the pure floor and data modules that import no
    # project module (the limits), never the other models or the cache
    leaves = {name for name in data if not edges[name]}
    above = sorted(edges["tournaments.models"] - pure - leaves)
    assert not above, f"tournaments.models, the lowest data module, imports {above}"


# -- the apps' import order (settings.PROJECT_APPS) ---------------------------

#: the project's wiring, above every app: the settings, the URL root, the
#: ASGI and WSGI entry points
WIRING = {"tournaments.settings", "tournaments.urls", "tournaments.asgi", "tournaments.wsgi"}


def project_apps() -> list[str]:
    from django.conf import settings

    return list(settings.PROJECT_APPS)


def app_of(module: str, apps: list[str]) -> str | None:
    """The app a module belongs to (the longest app name it is in), "games"
    for the engines (below every app), None for the project's wiring."""
    if module in WIRING:
        return None
    if module == "games" or module.startswith("games."):
        return "games"
    inside = [a for a in apps if module == a or module.startswith(a + ".")]
    return max(inside, key=len) if inside else None


def app_imports() -> tuple[list[str], list[tuple[str, str]]]:
    """The order (games first) and every import between modules of two apps."""
    apps = project_apps()
    order = ["games", *apps]
    found = []
    for name, targets in graph().items():
        for target in targets:
            a, b = app_of(name, apps), app_of(target, apps)
            if a and b and a != b:
                found.append((name, target))
    return order, found


def upward(order, found) -> set[tuple[str, str]]:
    apps = order[1:]
    rank = {a: i for i, a in enumerate(order)}
    return {(m, t) for m, t in found if rank[app_of(t, apps)] > rank[app_of(m, apps)]}


def mutual_pairs(order, found) -> set[tuple[str, str]]:
    apps = order[1:]
    arrows = {(app_of(m, apps), app_of(t, apps)) for m, t in found}
    rank = {a: i for i, a in enumerate(order)}
    return {tuple(sorted(p, key=rank.get)) for p in arrows if (p[1], p[0]) in arrows}


def test_the_apps_are_installed_in_their_import_order():
    from django.conf import settings

    apps = project_apps()
    assert apps[:2] == ["tournaments", "scoring"], "the core comes first"
    installed = [a for a in settings.INSTALLED_APPS if a in apps]
    assert installed == apps
    for name in apps:
        assert (ROOT / name.replace(".", "/") / "apps.py").exists(), f"{name} has no apps.py"


def test_no_app_imports_an_app_above_it():
    order, found = app_imports()
    up = sorted(upward(order, found))
    assert not up, (
        "imports of an app above in settings.PROJECT_APPS (a signal, or the core's "
        "providers or panels registry):\n" + "\n".join(f"{m} -> {t}" for m, t in up)
    )


def test_games_import_no_app():
    apps = project_apps()
    for name, targets in graph().items():
        if app_of(name, apps) == "games":
            assert all(app_of(t, apps) == "games" for t in targets), name


def test_no_two_apps_import_each_other():
    order, found = app_imports()
    pairs = sorted(mutual_pairs(order, found))
    assert not pairs, f"apps importing each other: {pairs}"


def test_the_order_checks_catch_an_upward_import_and_a_mutual_pair():
    """The two checks above are not empty: one import up the order (the core
    importing the results app) is caught, and with it the pair of apps that
    now import each other."""
    order, found = app_imports()
    planted = [*found, ("tournaments.selectors", "scoring.selectors")]
    assert ("tournaments.selectors", "scoring.selectors") in upward(order, planted)
    assert ("tournaments", "scoring") in mutual_pairs(order, planted)
    assert not mutual_pairs(order, found)


if __name__ == "__main__":  # the figures: python tests/test_architecture.py
    import os
    import sys

    import django

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
    django.setup()
    order, found = app_imports()
    apps = order[1:]
    arrows = {(app_of(m, apps), app_of(t, apps)) for m, t in found}
    up = upward(order, found)
    print(f"app arrows {len(arrows)} ({len(found)} module imports)")
    print(
        f"up: {len({(app_of(m, apps), app_of(t, apps)) for m, t in up})} app arrows, {len(up)} module imports"
    )
    print(f"apps importing each other: {len(mutual_pairs(order, found))} pairs")
