"""The documents name only what exists: every file path written in the
README and in docs/ (links, images, backticked paths such as
`tournaments/clock.py`, dotted names such as `scoring.services.round_close`)
is there, and the README stays short enough to read in ten minutes."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# a backticked word is taken for a path of the repository when it starts here
TOP = ("games/", "tournaments/", "scoring/", "tests/", "docs/", "docker/", "templates/", ".ci/")
ROOT_FILES = ("Makefile", "pyproject.toml", "manage.py", "README.md")
PACKAGES = ("games", "tournaments", "scoring")

_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_SRC = re.compile(r"""<img\s[^>]*\bsrc=["']([^"']+)["']""")
_CODE = re.compile(r"`([^`\n]+)`")
_DOTTED = re.compile(r"^(?:games|tournaments|scoring)(?:\.\w+)+$")


def links(text: str) -> list[str]:
    """Link and image targets that are files of the repository (no web
    address, no mail, no anchor of the same page)."""
    out = []
    for target in [*_LINK.findall(text), *_SRC.findall(text)]:
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue
        out.append(target.split("#", 1)[0])
    return out


def code_paths(text: str) -> list[str]:
    """Backticked words that look like files or folders of the repository.
    A word with a placeholder (``<id>``) is a URL or a pattern, not a path;
    ``tournaments/<id>/`` is a URL."""
    out = []
    for word in _CODE.findall(text):
        word = word.strip()
        if " " in word or "<" in word or "{" in word:
            continue
        if word.startswith(TOP) or word in ROOT_FILES:
            out.append(word)
    return out


def dotted_names(text: str) -> list[str]:
    return [w for w in _CODE.findall(text) if _DOTTED.match(w.strip())]


@cache
def defined_names(path: Path) -> set[str]:
    """What a module defines at its top level (functions, classes, names,
    imports) — a dotted name in a document may point at any of them."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def dotted_problem(name: str) -> str | None:
    """None when ``name`` is a module of the project, or a module and a name
    it defines (``scoring.services.round_close_when_done``); else why not."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:cut])
        module = base.with_suffix(".py") if base.with_suffix(".py").exists() else None
        if module is None and (base / "__init__.py").exists():
            module = base / "__init__.py"
        if module is None:
            continue
        rest = parts[cut:]
        if not rest:
            return None
        if rest[0] in defined_names(module):
            return None
        return f"{'.'.join(parts[:cut])} defines no {rest[0]}"
    return "no such module"


def missing(doc: Path) -> list[str]:
    text = doc.read_text(encoding="utf-8")
    problems = []
    for target in links(text):
        if not (doc.parent / target).exists():
            problems.append(f"link {target}")
    for word in code_paths(text):
        found = list(ROOT.glob(word)) if "*" in word else (ROOT / word).exists()
        if not found:
            problems.append(f"path {word}")
    for word in dotted_names(text):
        why = dotted_problem(word)
        if why:
            problems.append(f"name {word}: {why}")
    return problems


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(ROOT)) for d in DOCS])
def test_every_path_a_document_names_exists(doc):
    assert not missing(doc), f"{doc.relative_to(ROOT)} names what does not exist"


def test_the_readme_is_short_and_points_into_docs():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200
    for doc in ("user-guide", "operations", "architecture", "benchmarks"):
        assert f"(docs/{doc}.md)" in text, doc
    # its picture is one of ours, and small
    pictures = [t for t in links(text) if t.endswith(".png")]
    assert pictures and all(t.startswith("docs/img/") for t in pictures)
    assert all((ROOT / t).stat().st_size < 200_000 for t in pictures)


def test_every_benchmark_is_in_benchmarks_md():
    text = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    for bench in sorted((ROOT / "tests" / "bench").glob("*.py")):
        if bench.name != "__init__.py":
            assert f"tests/bench/{bench.name}" in text, bench.name


def test_the_check_catches_what_is_gone(tmp_path):
    doc = tmp_path / "x.md"
    doc.write_text(
        "The links are made in `scoring/links.py`, see [the old guide](old.md),"
        " ![a picture](img/none.png), `tournaments.selectors.no_such_function`"
        " and `scoring.links.make`; `tournaments/<id>/` is a URL and"
        " `tournaments/clock.py`, `tests/bench/bench_*.py`, `scoring.services` exist.",
        encoding="utf-8",
    )
    assert missing(doc) == [
        "link old.md",
        "link img/none.png",
        "path scoring/links.py",
        "name tournaments.selectors.no_such_function:"
        " tournaments.selectors defines no no_such_function",
        "name scoring.links.make: scoring defines no links",
    ]
