"""The Django side's size figures: files over 600 lines, functions over 80
lines or of a cyclomatic complexity over 25 (radon), in ``tournaments/`` and
``scoring/`` without migrations. ``make complexity`` prints them;
``python tests/bench/code_size.py [ROOT]`` too (ROOT: another checkout)."""

from __future__ import annotations

import sys
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

MAX_FILE_LINES, MAX_FUNCTION_LINES, MAX_COMPLEXITY = 600, 80, 25


def functions(blocks):
    """Every function and method, nested ones included (each once)."""
    for block in blocks:
        if isinstance(block, Function):
            yield block
            yield from functions(block.closures)
        elif isinstance(block, Class):
            yield from functions(block.inner_classes)


def figures(root: Path) -> dict[str, list[tuple[int, str]]]:
    out = {"files": [], "long": [], "complex": []}
    for package in ("tournaments", "scoring"):
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            name = str(path.relative_to(root))
            if len(text.splitlines()) > MAX_FILE_LINES:
                out["files"].append((len(text.splitlines()), name))
            # cc_visit lists a class's methods both in the class and on their own
            for f in {(f.lineno, f.fullname): f for f in functions(cc_visit(text))}.values():
                where = f"{name}:{f.lineno} {f.fullname}"
                if f.endline - f.lineno + 1 > MAX_FUNCTION_LINES:
                    out["long"].append((f.endline - f.lineno + 1, where))
                if f.complexity > MAX_COMPLEXITY:
                    out["complex"].append((f.complexity, where))
    return {k: sorted(v, reverse=True) for k, v in out.items()}


def main(root: Path) -> None:
    found = figures(root)
    titles = {
        "files": f"files over {MAX_FILE_LINES} lines",
        "long": f"functions over {MAX_FUNCTION_LINES} lines",
        "complex": f"functions of complexity over {MAX_COMPLEXITY}",
    }
    for key, title in titles.items():
        print(f"{title}: {len(found[key])}")
        for value, where in found[key]:
            print(f"  {value:4}  {where}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
