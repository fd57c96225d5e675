"""Tournament points from a table's result (pure: no Django import).

A table result gives per seat a rank (1 = best, ties share, competition style:
``[1, 1, 3, 4]``) and the game's figure. A *scheme* turns it into tournament
points:

``placement`` (default)
    Placement points scaled to the table size. At a table of ``k`` players,
    place ``r`` (1 … k) earns ``top × (k − r) / (k − 1)``, ``top = 3``:

    ====  ==============================
    k     places 1 … k
    ====  ==============================
    2     3, 0
    3     3, 1.5, 0
    4     3, 2, 1, 0
    5     3, 2.25, 1.5, 0.75, 0
    6     3, 2.4, 1.8, 1.2, 0.6, 0
    ====  ==============================

    Why: the winner always earns ``top`` and the last always 0, and every table
    size awards the same average per player (``top / 2``), so a player seated
    at a table of 3 is neither favoured nor punished against one at a table of
    5. At the usual table of 4 it is the familiar 3-2-1-0. Tied players share
    the places they cover: each gets the average of those places' points
    (``[1, 1, 3, 4]`` at a table of 4 → 2.5, 2.5, 1, 0), which keeps the
    table's total and average unchanged.

``win_draw_loss``
    A *win* is a rank 1 held alone, a *draw* a shared rank 1, everything else a
    *loss*; 3 / 1 / 0 points by default (``win``, ``draw``, ``loss``).

``figure``
    The game's own figure (cards held, points, board field) is the points.
    Equal figures earn equal points, so ties share by construction.

Byes: a bye earns ``bye`` points when the scheme sets a fixed amount;
by default (``bye=None``) the average points per seat of a table: for
``placement`` that is exactly ``top / 2`` at every table size (ties included);
for the other schemes it is the average per seat over the tables played in
the bye's round (all rounds if that round has none yet; 0 without any table).

All arithmetic is exact (``int`` and ``fractions.Fraction``, never ``float``);
:func:`as_number` turns a value into an ``int`` or a short ``Decimal`` to print.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from numbers import Rational

from games.i18n import _

SCHEMES = ("placement", "win_draw_loss", "figure")
DEFAULT_SCHEME = "placement"


#: each scheme's label (English; translated where it is shown)
LABELS = {
    "placement": _("Placement points scaled to table size"),
    "win_draw_loss": _("Win / draw / loss"),
    "figure": _("The game's own figure"),
}
PLACEMENT_TOP = 3

Number = int | Fraction


def exact(value) -> Number:
    """``value`` as an exact ``int`` or ``Fraction`` (ints, Fractions, Decimals,
    numeric strings; floats are taken at their exact binary value)."""
    if isinstance(value, bool) or value is None:
        raise ValueError(f"not a number: {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, Rational):
        f = Fraction(value)
    else:
        try:
            f = Fraction(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not a number: {value!r}") from exc
    return f.numerator if f.denominator == 1 else f


def as_number(value, places: int = 3) -> int | Decimal:
    """A value to print: an ``int`` when whole, otherwise a ``Decimal`` with at
    most ``places`` decimals (rounded half away from zero, trailing zeros dropped)."""
    if type(value) is int:
        return value
    value = exact(value)
    if isinstance(value, int):
        return value
    return ratio_number(value.numerator, value.denominator, places)


def format_value(value, decimal_separator: str = ".") -> str:
    """A number as the reader writes it: the active language's decimal
    separator ("6,5" in German, "6.5" in English); integers as they are."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    elif isinstance(value, Decimal):
        text = format(value.normalize(), "f") if value != value.to_integral() else str(int(value))
    else:
        return str(value)
    return text.replace(".", decimal_separator)


def ratio_number(num: int, den: int, places: int = 3) -> int | Decimal:
    """``num / den`` (integers, ``den > 0``) as :func:`as_number` prints it."""
    if num % den == 0:
        return num // den
    scale = 10**places
    units = (abs(num) * scale * 2 + den) // (2 * den)  # half away from zero
    if num < 0:
        units = -units
    if units % scale == 0:
        return units // scale
    return Decimal(units).scaleb(-places).normalize()


def competition_ranks(ranks: Sequence[int]) -> tuple[int, ...]:
    """Normalise ranks to competition style: a seat's rank is 1 + the number of
    seats ranked strictly better (``[1, 1, 2]`` → ``(1, 1, 3)``)."""
    if not ranks:
        raise ValueError("a table needs ranks")
    for r in ranks:
        if isinstance(r, bool) or not isinstance(r, int) or r < 1:
            raise ValueError(f"ranks must be whole numbers from 1: {list(ranks)!r}")
    ordered = sorted(ranks)
    first = {}
    for i, r in enumerate(ordered):
        first.setdefault(r, i + 1)
    return tuple(first[r] for r in ranks)


def placement_points(ranks: Sequence[int], top: Number = PLACEMENT_TOP) -> tuple[Number, ...]:
    """Placement points scaled to table size; tied seats share their places."""
    ranks = competition_ranks(ranks)
    k = len(ranks)
    if k < 2:
        raise ValueError("a table needs at least 2 players")
    top = exact(top)
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    out = []
    for r in ranks:
        m = counts[r]  # places r … r + m − 1; their average is the midpoint
        value = Fraction(top) * (2 * k - 2 * r - m + 1) / (2 * (k - 1))
        out.append(value.numerator if value.denominator == 1 else value)
    return tuple(out)


def win_draw_loss_points(
    ranks: Sequence[int], win: Number = 3, draw: Number = 1, loss: Number = 0
) -> tuple[Number, ...]:
    """Win = rank 1 alone, draw = rank 1 shared, loss = anything else."""
    ranks = competition_ranks(ranks)
    firsts = ranks.count(1)
    best = win if firsts == 1 else draw
    return tuple(exact(best) if r == 1 else exact(loss) for r in ranks)


def figure_points(figures: Sequence) -> tuple[Number, ...]:
    """The game's figure is the points."""
    if figures is None or any(f is None for f in figures):
        raise ValueError("the figure scheme needs every seat's figure")
    figures = tuple(figures)
    if all(type(f) is int for f in figures):
        return figures
    return tuple(exact(f) for f in figures)


@dataclass(frozen=True)
class PointsScheme:
    """A points scheme with its options; see the module docstring.

    ``bye``: fixed points for a bye, or None for the average points per seat.
    """

    name: str = DEFAULT_SCHEME
    top: Number = PLACEMENT_TOP
    win: Number = 3
    draw: Number = 1
    loss: Number = 0
    bye: Number | None = None
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self):
        if self.name not in SCHEMES:
            raise ValueError(f"unknown points scheme {self.name!r}; known: {', '.join(SCHEMES)}")
        for attr in ("top", "win", "draw", "loss"):
            object.__setattr__(self, attr, exact(getattr(self, attr)))
        if self.bye is not None:
            object.__setattr__(self, "bye", exact(self.bye))

    @property
    def uses_figures(self) -> bool:
        return self.name == "figure"

    def table(self, ranks: Sequence[int], figures: Sequence | None = None) -> tuple[Number, ...]:
        """Points per seat for one table (cached by the result's pattern)."""
        if self.uses_figures:  # not cached: figures vary too much
            pts = figure_points(figures)
        else:
            key = tuple(ranks)
            pts = self._cache.get(key)
            if pts is None:
                if self.name == "placement":
                    pts = placement_points(key, self.top)
                else:
                    pts = win_draw_loss_points(key, self.win, self.draw, self.loss)
                self._cache[key] = pts
        if len(pts) != len(ranks):
            raise ValueError("a table needs as many figures as ranks")
        return pts

    def bye_points(self, average_per_seat: Number | None = None) -> Number:
        """A bye's points: the fixed amount, else the average per seat of a table
        (``top / 2`` for placement; ``average_per_seat`` or 0 otherwise)."""
        if self.bye is not None:
            return self.bye
        if self.name == "placement":
            return exact(Fraction(self.top) / 2)
        return exact(average_per_seat) if average_per_seat is not None else 0


def get_scheme(scheme: str | PointsScheme | None = None, **options) -> PointsScheme:
    """A :class:`PointsScheme` from its name (and options) or as given."""
    if isinstance(scheme, PointsScheme):
        if options:
            raise ValueError("pass options either in the PointsScheme or here, not both")
        return scheme
    return PointsScheme(scheme or DEFAULT_SCHEME, **options)


def table_points(
    ranks: Sequence[int],
    figures: Sequence | None = None,
    *,
    scheme: str | PointsScheme = DEFAULT_SCHEME,
    **options,
) -> tuple[Number, ...]:
    """Tournament points per seat for one table result."""
    return get_scheme(scheme, **options).table(ranks, figures)
