"""The code lies in floors: no import cycle between the project's modules
(imports inside functions count), and games/ and the pure algorithms import
no Django."""

from __future__ import annotations

import ast
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
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


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
    # what the docs have always promised pure must be on the list
    for name in ("games", "tournaments.seating", "scoring.printing", "scoring.standings"):
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
