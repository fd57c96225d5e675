"""A small line chart of a rating's history as SVG (pure; numbers in, markup
out: nothing from the user is written into it, so it is safe to inline)."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def one_decimal(value: float) -> str:
    return f"{value:.1f}"


def rating_svg(
    values: Sequence[float],
    *,
    width: int = 480,
    height: int = 120,
    label: str = "",
    number: Callable[[float], str] = one_decimal,
) -> str:
    """The values as a polyline, scaled to the box, with the first and last
    value written at the ends by ``number`` (the page passes the formatter of
    its rating figures, so the chart says "15,8" where the page does); an
    empty string for fewer than two values."""
    if len(values) < 2:
        return ""
    pad = 18
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    step = (width - 2 * pad) / (len(values) - 1)

    def y(v: float) -> float:
        return height - pad - (v - lo) / span * (height - 2 * pad)

    points = " ".join(f"{pad + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    zero = ""
    if lo < 0 < hi:
        zero = (
            f'<line x1="{pad}" x2="{width - pad}" y1="{y(0):.1f}" y2="{y(0):.1f}" '
            'stroke="#bbb" stroke-dasharray="3 3"/>'
        )
    title = "".join(c for c in label if c.isprintable() and c not in "<>&\"'")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{title}">'
        f"{zero}"
        f'<polyline fill="none" stroke="#1d5fa8" stroke-width="2" points="{points}"/>'
        f'<text x="{pad}" y="{y(values[0]) - 4:.1f}" font-size="11">{_text(number(values[0]))}</text>'
        f'<text x="{width - pad}" y="{y(values[-1]) - 4:.1f}" font-size="11" '
        f'text-anchor="end">{_text(number(values[-1]))}</text>'
        "</svg>"
    )


def _text(text: str) -> str:
    """A formatted number as SVG text: only what a number is written with."""
    return "".join(c for c in str(text) if c.isdigit() or c in "+-−.,  ")
