"""Seating lists, table cards, standings and a round's results as PDFs.

Plain data in, PDF bytes out (no Django). Tables are ``{"number": 7,
"players": [{"name": ..., "club": ...}, ...]}`` in seat order (seats print
1..n). Long lists flow over pages with their header row repeated (platypus
``LongTable`` with ``repeatRows=1``); the players of one table stay together
(``NOSPLIT``). Every text is DejaVu Sans; labels are English and go through
the optional ``gettext`` callable.

Every column is as wide as its header and values measure in the language at
hand (:mod:`scoring.printing.fit`); names and clubs share what is left and
wrap inside their cell. A player is printed with the club ("Thomas Müller
(SC Köln)"), so two players of the same name can tell their lines apart.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, LongTable, PageTemplate, TableStyle

from scoring.printing import fit
from scoring.printing.fonts import register_fonts
from scoring.printing.sheets import _player_name, binary_streams
from scoring.printing.slips import draw_slip, slip_label
from tournaments.collation import name_key, surname_key
from tournaments.points import format_value

Gettext = Callable[[str], str] | None
#: ``ngettext(singular, plural, n)``: the language's plural form for ``n``
Ngettext = Callable[[str, str, int], str] | None

MARGIN = 15 * mm
GAP = 8 * mm  # between the columns of a two-column list
PAD = 4  # a cell's padding left and right
#: more room right of a text column (a name, a club): its last word never
#: runs into the number beside it ("TSV Blau-Weiß" | "0")
TEXT_GAP = 3 * mm
SIZE = 9  # the lists' text
TITLE = 13
#: the seating lists hang on a wall: read from two metres (a capital letter
#: of 18 pt DejaVu is 4.6 mm tall), two columns on landscape A4
WALL_SIZE = 18
WALL_TITLE = 24
#: a seating list's name and club in at most so many lines of wall type
#: (a longer one is set smaller, so a table still fits a column)
WALL_LINES = 4


def _identity(text: str) -> str:
    return text


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


# alphabetical as on every page: "Şahin" next to "Sahin", case ignored
sort_key = name_key


def player_label(player) -> str:
    """A player as lists print them: the name, and the club in brackets."""
    name = _player_name(player)
    club = player.get("club") if isinstance(player, dict) else ""
    return f"{name} ({club})" if club else name


# -- which rounds a print counts ---------------------------------------------------


def round_list(numbers) -> str:
    """Round numbers for people: "1–4", "1–2, 4", "1–3, 5", "2"."""
    numbers = sorted(set(numbers))
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in spans)


def _complete(r: dict) -> bool:
    return bool(r.get("complete", r["tables"] > 0 and r["done"] >= r["tables"]))


def stages_phrase(counts: dict, gettext: Gettext = None, ngettext: Ngettext = None) -> str:
    """With a final stage among the complete rounds counted: the rounds as
    rounds and the stages by name, "3 rounds, the semi-final and the final"
    (in German the dative the title's "nach" asks for: "3 Runden, dem
    Halbfinale und dem Finale"); "" without a complete stage round. A round
    carries its ``stage`` ("semi", "final", "" for a qualifying round)."""
    _ = gettext or _identity
    ngettext = ngettext or _english_plural
    rounds = [r for r in counts.get("rounds") or [] if _complete(r)]
    stages = [r["stage"] for r in rounds if r.get("stage")]
    if not stages:
        return ""
    n = sum(1 for r in rounds if not r.get("stage"))
    parts = []
    if n:
        # "einer Runde" / "3 Runden": the dative after "nach"
        parts.append(ngettext("one round", "{n} rounds", n).format(n=n))
    names = {"semi": _("the semi-final"), "final": _("the final")}
    for stage in ("semi", "final"):
        if stage in stages:
            parts.append(names[stage])
    if len(parts) == 1:
        return parts[0]
    head = ", ".join(parts[:-1])
    return _("{first} and {last}").format(first=head, last=parts[-1])


def standings_title(
    counts: dict, *, final: bool, gettext: Gettext = None, ngettext: Ngettext = None
) -> str:
    """ "Standings after round 4 of 4", "Final standings after round 4 of 4",
    "Standings during round 5 of 6". ``counts``: ``{"planned": rounds the
    tournament plans, "rounds": [{"number", "tables", "done"[, "complete"]}]}``
    (the rounds the standings count from; ``done``: tables with a result)."""
    _ = gettext or _identity
    rounds = counts.get("rounds") or []
    staged = stages_phrase(counts, _, ngettext)
    if staged:
        if final:
            return _("Final standings after {what}").format(what=staged)
        return _("Standings after {what}").format(what=staged)
    last = max((r["number"] for r in rounds), default=0)
    of = max(counts.get("planned") or 0, last)
    whole = [r["number"] for r in rounds if _complete(r)]
    partial = [r["number"] for r in rounds if not _complete(r) and r["done"]]
    if final:
        if not last:
            return _("Final standings")
        return _("Final standings after round {round} of {rounds}").format(round=last, rounds=of)
    if partial:
        return _("Standings during round {round} of {rounds}").format(round=max(partial), rounds=of)
    if whole:
        return _("Standings after round {round} of {rounds}").format(round=max(whole), rounds=of)
    return _("Standings")


def counts_note(counts: dict, gettext: Gettext = None) -> str:
    """Which results a standings print counts: "Counts rounds 1–4.", "Counts
    rounds 1–3; 12 of 18 tables of round 4.", and what it leaves out
    (``counts["left_out"]``, rounds after the last complete one)."""
    _ = gettext or _identity
    rounds = counts.get("rounds") or []
    whole = [r["number"] for r in rounds if _complete(r) and not r.get("stage")]
    stages = {r["stage"] for r in rounds if _complete(r) and r.get("stage")}
    parts = []
    if whole:
        label = _("round {rounds}") if len(whole) == 1 else _("rounds {rounds}")
        parts.append(label.format(rounds=round_list(whole)))
    # a final stage's rounds by name: "rounds 1–3, semi-final and final"
    named = [
        name for key, name in (("semi", _("semi-final")), ("final", _("final"))) if key in stages
    ]
    if named:
        items = [", ".join(parts)] if parts else []
        items += named
        head = ", ".join(items[:-1])
        parts = [_("{first} and {last}").format(first=head, last=items[-1]) if head else items[0]]
    for r in rounds:
        if not _complete(r) and r["done"]:
            parts.append(
                _("{done} of {tables} tables of round {round}").format(
                    done=r["done"], tables=r["tables"], round=r["number"]
                )
            )
    text = _("Counts {what}.").format(what="; ".join(parts)) if parts else _("No results yet.")
    left = [r for r in counts.get("left_out") or () if r["done"]]
    if left:
        what = "; ".join(
            _("round {round} (tables with a result: {done} of {tables})").format(
                round=r["number"], done=r["done"], tables=r["tables"]
            )
            for r in left
        )
        text += " " + _("Not counted: {what}.").format(what=what)
    return text


# -- page and table ----------------------------------------------------------------


def _doc(buf, title, lines, *, columns=1, landscape=False, size=SIZE, title_size=TITLE):
    """A list document: on every page the title and the lines under it
    (wrapped, never cut), the page number at the foot; ``columns`` frames
    side by side. Returns (doc, frame width)."""
    font, bold = register_fonts()
    pagesize = (A4[1], A4[0]) if landscape else A4
    w, h = pagesize
    room = w - 2 * MARGIN
    title_lines, title_size = fit.fit_lines(title, bold, title_size, room, 2, min_size=10)
    head = [(line, bold, title_size) for line in title_lines]
    for text in lines:
        if text:
            head += [(line, font, size) for line in fit.wrap(text, font, size, room)]
    head_h = sum(size * fit.LEADING for _l, _f, size in head) + 4 * mm
    fw = (room - GAP * (columns - 1)) / columns
    frame_h = h - 2 * MARGIN - head_h
    frames = [
        Frame(
            MARGIN + i * (fw + GAP),
            MARGIN,
            fw,
            frame_h,
            id=f"c{i}",
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
        )
        for i in range(columns)
    ]

    def on_page(canvas, doc):
        canvas.saveState()
        y = h - MARGIN
        for line, face, size in head:
            canvas.setFont(face, size)
            canvas.drawString(MARGIN, y - 0.85 * size, line)
            y -= size * fit.LEADING
        canvas.setFont(font, SIZE)
        canvas.drawRightString(w - MARGIN, MARGIN - 6 * mm, str(doc.page))
        canvas.restoreState()

    doc = BaseDocTemplate(buf, pagesize=pagesize, title=title, author=" · ".join(lines[:1]))
    doc.addPageTemplates([PageTemplate(id="list", frames=frames, onPage=on_page)])
    return doc, fw


def _share(rest: float, flexible: dict[int, float], natural: dict[int, float]) -> dict[int, float]:
    """``rest`` split among the flexible columns by their shares, none wider
    than it needs while another still wants room."""
    out: dict[int, float] = {}
    open_cols = dict(flexible)
    while open_cols:
        total = sum(open_cols.values())
        offer = {c: rest * s / total for c, s in open_cols.items()}
        capped = {c: natural[c] for c in open_cols if natural[c] < offer[c]}
        if not capped or len(capped) == len(open_cols):
            if len(capped) == len(open_cols):  # all fit: the last takes the slack
                out.update(capped)
                last = max(capped)
                out[last] += rest - sum(capped.values())
            else:
                out.update(offer)
            return out
        out.update(capped)
        rest -= sum(capped.values())
        for c in capped:
            del open_cols[c]
    return out


def column_widths(rows, room: float, flexible: dict[int, float], *, size=SIZE, text=()):
    """(widths, fits): every column but the ``flexible`` ones (index →
    share) as wide as its widest value and its header (bold); when that
    leaves the flexible ones less than their minimum, headers wrap at spaces
    and hyphens. The flexible columns share the rest. ``fits`` is False when
    even then they get less than their minimum (the caller turns the page).
    ``text``: the columns of words (left-aligned), each with
    :data:`TEXT_GAP` more room on its right."""
    font, bold = register_fonts()
    header, body = rows[0], rows[1:]
    n = len(header)
    pad = 2 * PAD + 0.5  # and a hair, so that a measured text fits its own width
    fixed = [c for c in range(n) if c not in flexible]
    values = {c: fit.widest((str(r[c]) for r in body), font, size) for c in range(n)}
    minimum = {c: share * 12 * mm * size / SIZE for c, share in flexible.items()}

    def need(c, wrap_header):
        head = (fit.longest_piece if wrap_header else fit.width)(str(header[c]), bold, size)
        return max(values[c], head) + pad + (TEXT_GAP if c in text else 0)

    widths = {c: need(c, False) for c in fixed}
    if sum(widths.values()) + sum(minimum.values()) > room:
        widths = {c: need(c, True) for c in fixed}
    rest = room - sum(widths.values())
    fits = rest >= sum(minimum.values()) - 0.01
    natural = {c: need(c, False) for c in flexible}
    widths.update(_share(max(rest, sum(minimum.values())), flexible, natural))
    return [widths[c] for c in range(n)], fits


def _cell(text, font, size, width, gap=0.0) -> str:
    return "\n".join(fit.wrap(str(text), font, size, width - 2 * PAD - gap))


def _table(rows, widths, *, size=SIZE, right=(), groups=(), text=(), max_lines=None):
    """A long table of ``rows`` (the first is the header) with every cell
    wrapped to its column; ``groups``: (first, last) rows that stay together
    on one page and column, a rule above each. The columns in ``text`` (the
    words: names, clubs) keep :data:`TEXT_GAP` free on their right.
    ``max_lines``: a cell that wraps to more lines is set smaller (down to
    :data:`SIZE`), so that a row of a 200-character name still fits a page."""
    font, bold = register_fonts()
    gaps = [TEXT_GAP if c in text else 0.0 for c in range(len(widths))]
    smaller = []  # (column, row, size) of the cells set smaller
    cells = []
    for r, row in enumerate(rows):
        line = []
        for c, value in enumerate(row):
            face, here = (bold if r == 0 else font), size
            cell = _cell(value, face, here, widths[c], gaps[c])
            while max_lines and r and cell.count("\n") >= max_lines and here > SIZE:
                here = max(SIZE, here - 2)
                cell = _cell(value, face, here, widths[c], gaps[c])
            if here != size:
                smaller.append((c, r, here))
            line.append(cell)
        cells.append(line)
    style = [
        ("FONT", (0, 0), (-1, -1), font, size, size * fit.LEADING),
        ("FONT", (0, 0), (-1, 0), bold, size, size * fit.LEADING),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.9, 0.9, 0.9)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("LEFTPADDING", (0, 0), (-1, -1), PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    for col in right:
        style.append(("ALIGN", (col, 0), (col, -1), "RIGHT"))
    for col, gap in enumerate(gaps):
        if gap:
            style.append(("RIGHTPADDING", (col, 0), (col, -1), PAD + gap))
    for col, row, here in smaller:
        style.append(("FONT", (col, row), (col, row), font, here, here * fit.LEADING))
    for first, last in groups:
        if first > 1:
            style.append(("LINEABOVE", (0, first), (-1, first), 0.5, colors.grey))
        if last > first:
            style.append(("NOSPLIT", (0, first), (-1, last)))
    table = LongTable(cells, colWidths=widths, repeatRows=1, style=TableStyle(style))
    table.hAlign = "LEFT"
    return table


def _build(doc, story) -> bytes:
    with binary_streams():
        doc.build(story)
    return doc.filename.getvalue()


def _subtitle(tournament, round_no, _):
    parts = [tournament.get("name", "")]
    if round_no is not None:
        parts.append(_("Round {round}").format(round=round_no))
    return " · ".join(p for p in parts if p)


def _groups(starts: list[int], end: int) -> list[tuple[int, int]]:
    return [(a, b - 1) for a, b in zip(starts, [*starts[1:], end], strict=False)]


# -- the lists -------------------------------------------------------------------


def render_seating_by_table(
    tournament: dict, round_no: int, tables: list[dict], *, gettext: Gettext = None
) -> bytes:
    """Every table with its players in seat order; a table never splits
    over two columns or pages."""
    _ = gettext or _identity
    buf = io.BytesIO()
    doc, fw = _wall_doc(buf, _("Seating by table"), [_subtitle(tournament, round_no, _)])
    rows = [[_("Table"), _("Seat"), _("Player")]]
    starts = []
    for table in sorted(tables, key=lambda t: t["number"]):
        starts.append(len(rows))
        seats = [(p.get("seat", k), player_label(p)) for k, p in enumerate(table["players"], 1)]
        seats += [(seat, _("Bot")) for seat in table.get("bot_seats", ())]  # empty seats
        for k, (seat, name) in enumerate(sorted(seats, key=lambda s: s[0])):
            rows.append([str(table["number"]) if k == 0 else "", str(seat), name])
    widths, _fits = column_widths(rows, fw, {2: 1}, size=WALL_SIZE, text=(2,))
    table = _table(
        rows,
        widths,
        size=WALL_SIZE,
        right=(0, 1),
        groups=_groups(starts, len(rows)),
        text=(2,),
        max_lines=WALL_LINES,
    )
    return _build(doc, [table])


def render_seating_by_name(
    tournament: dict, round_no: int, tables: list[dict], *, gettext: Gettext = None
) -> bytes:
    """Every player by surname in German order (:mod:`tournaments.collation`:
    "Şahin" by "Sahin", "Müller" as "Muller"), written "Surname, Given" with
    the club, table and seat ("find your table"), in type read on a wall."""
    _ = gettext or _identity
    buf = io.BytesIO()
    doc, fw = _wall_doc(buf, _("Seating by name"), [_subtitle(tournament, round_no, _)])
    entries = []
    for t in tables:
        for k, p in enumerate(t["players"], 1):
            p = p if isinstance(p, dict) else {"name": p}
            entries.append((_player_name(p), p.get("club") or "", t["number"], p.get("seat", k)))
    entries.sort(key=lambda e: (surname_key(e[0]), sort_key(e[1]), e[2]))
    rows = [[_("Player"), _("Table"), _("Seat")]]
    rows += [
        [player_label({"name": surname_first(name), "club": club}), str(number), str(seat)]
        for name, club, number, seat in entries
    ]
    widths, _fits = column_widths(rows, fw, {0: 1}, size=WALL_SIZE, text=(0,))
    table = _table(rows, widths, size=WALL_SIZE, right=(1, 2), text=(0,), max_lines=WALL_LINES)
    return _build(doc, [table])


def surname_first(name: str) -> str:
    """ "Thomas Müller" as a list by surname writes it: "Müller, Thomas"."""
    given, _sep, last = name.strip().rpartition(" ")
    return f"{last}, {given}" if given else last


def _wall_doc(buf, title, lines):
    """A seating list's document: landscape, two columns, wall-sized type."""
    return _doc(buf, title, lines, columns=2, landscape=True, size=14, title_size=WALL_TITLE)


#: the standings' columns of words, left-aligned (every other is a number)
TEXT_COLUMNS = ("name", "club", "final")


def render_standings(
    tournament: dict,
    rows: list[dict],
    *,
    columns: list[tuple[str, str]] | None = None,
    round_no: int | None = None,
    gettext: Gettext = None,
    ngettext: Ngettext = None,
    final: bool = False,
    counts: dict | None = None,
    decimal_separator: str = ".",
) -> bytes:
    """The standings as a long table; ``columns`` are ``(key, header)`` pairs
    (default rank, name, points); values are read from each row by key. The
    names (``name``, ``club``) share the width the numbers leave.
    ``counts`` (see :func:`standings_title`): which rounds the standings
    count, said in the title and the line under it. ``final``: the
    tournament's final standings; the subtitle then also carries
    ``tournament["date"]`` and ``["venue"]`` when given."""
    _ = gettext or _identity
    columns = columns or [("rank", _("Place")), ("name", _("Player")), ("points", _("Points"))]
    if counts is not None:
        title = standings_title(counts, final=final, gettext=_, ngettext=ngettext)
    elif final:
        title = _("Final standings")
        if round_no is not None:
            title = _("Final standings after round {round}").format(round=round_no)
    elif round_no is not None:
        title = _("Standings after round {round}").format(round=round_no)
    else:
        title = _("Standings")
    subtitle = " · ".join(p for p in (tournament.get(k) for k in ("name", "date", "venue")) if p)
    lines = [subtitle] + ([counts_note(counts, _)] if counts is not None else [])
    data = [[_(header) for _key, header in columns]]
    for row in rows:
        data.append([format_value(row.get(key), decimal_separator) for key, _header in columns])
    share = {"name": 3, "club": 2}
    flexible = {i: share[key] for i, (key, _h) in enumerate(columns) if key in share}
    words = {i for i, (key, _h) in enumerate(columns) if key in TEXT_COLUMNS}
    right = [i for i in range(len(columns)) if i not in words]
    for landscape in (False, True):
        buf = io.BytesIO()
        doc, fw = _doc(buf, title, lines, landscape=landscape)
        widths, fits = column_widths(data, fw, flexible, text=words)
        if fits:
            break
    return _build(doc, [_table(data, widths, right=right, text=words)])


def render_round_results(
    tournament: dict,
    round_no: int,
    tables: list[dict],
    *,
    figure_label: str = "figure",
    gettext: Gettext = None,
    decimal_separator: str = ".",
) -> bytes:
    """A round's results: per table its players in seat order with rank, the
    game's figure and tournament points. A player dict may carry ``rank``,
    ``figure`` and ``points``; a table without a result prints "no result".
    The line under the title says how many tables have a result."""
    _ = gettext or _identity
    rows = [[_("Table"), _("Seat"), _("Player"), _("Rank"), _(figure_label), _("Points")]]
    starts = []
    done = 0
    for table in sorted(tables, key=lambda t: t["number"]):
        starts.append(len(rows))
        has = any(isinstance(p, dict) and p.get("rank") is not None for p in table["players"])
        done += has
        for seat, p in enumerate(table["players"], 1):
            p = p if isinstance(p, dict) else {"name": p}
            rows.append(
                [
                    str(table["number"]) if seat == 1 else "",
                    str(p.get("seat", seat)),
                    player_label(p),
                    format_value(p.get("rank"), decimal_separator)
                    if has
                    else (_("no result") if seat == 1 else ""),
                    format_value(p.get("figure"), decimal_separator),
                    format_value(p.get("points"), decimal_separator),
                ]
            )
    note = _("Tables with a result: {done} of {tables}.").format(done=done, tables=len(tables))
    buf = io.BytesIO()
    doc, fw = _doc(
        buf,
        _("Results of round {round}").format(round=round_no),
        [tournament.get("name", ""), note],
    )
    widths, _fits = column_widths(rows, fw, {2: 1}, text=(2,))
    table = _table(
        rows, widths, right=(0, 1, 3, 4, 5), groups=_groups(starts, len(rows)), text=(2,)
    )
    return _build(doc, [table])


# -- table cards -------------------------------------------------------------------


def _lines_down(c, lines, font, size, cx, y) -> float:
    """Centred lines from ``y`` downwards; returns the y under the last."""
    c.setFont(font, size)
    for line in lines:
        c.drawCentredString(cx, y - 0.85 * size, line)
        y -= size * fit.LEADING
    return y


def render_table_cards(
    tournament: dict, tables: list[dict] | list[int], *, gettext: Gettext = None
) -> bytes:
    """One A4 page per table, folded across the middle into a tent card: the
    big table number reads upright on both sides. A table whose players carry
    a ``"url"`` (their seat link: digital tables, self-report) gets a second
    page with one QR code slip per seat, the player's name on it."""
    _ = gettext or _identity
    font, bold = register_fonts()
    numbers = sorted(t["number"] if isinstance(t, dict) else int(t) for t in tables)
    seat_slips = {
        t["number"]: t
        for t in tables
        if isinstance(t, dict) and any(isinstance(p, dict) and p.get("url") for p in t["players"])
    }
    w, h = A4
    room = w - 40 * mm
    buf = io.BytesIO()
    with binary_streams():
        c = Canvas(buf, pagesize=A4, pageCompression=1)
        c.setTitle(_("Table cards"))
        name = tournament.get("name", "")
        name_lines, name_size = fit.fit_lines(name, font, 14, room, 3, min_size=10)
        word, word_size = fit.fit_text(_("Table"), bold, 30, room)
        for number in numbers:
            for rotate in (False, True):
                c.saveState()
                if rotate:  # the upper half, seen from the other side of the table
                    c.translate(w, h)
                    c.rotate(180)
                y = _lines_down(c, name_lines, font, name_size, w / 2, h / 2 - 14 * mm)
                y = _lines_down(c, [word], bold, word_size, w / 2, y - 6 * mm)
                label = str(number)
                bottom = 15 * mm  # the paper's edge, seen from this half
                size = min(
                    200,
                    (w - 30 * mm) / fit.width(label, bold, 1),
                    (y - 5 * mm - bottom) / fit.LEADING,
                )
                _lines_down(c, [label], bold, size, w / 2, y - 5 * mm)
                c.restoreState()
            c.setDash(3, 3)
            c.setLineWidth(0.3)
            c.line(10 * mm, h / 2, w - 10 * mm, h / 2)  # fold here
            c.setDash()
            c.showPage()
            if number in seat_slips:
                table = seat_slips[number]
                _draw_seat_slips(
                    c,
                    name,
                    number,
                    table["players"],
                    _,
                    table.get("round"),
                    tournament.get("round_name", ""),
                )
                c.showPage()
        c.save()
    return buf.getvalue()


def _draw_seat_slips(
    c,
    tournament_name: str,
    number: int,
    players: list,
    _,
    round_no: int | None = None,
    round_name: str = "",
) -> None:
    """Up to six slips (two columns, three rows) to cut apart: per seat the
    player's name and the QR code of the seat link (which holds for one
    round: the slip names it, a final stage's round by ``round_name``)."""
    w, h = A4
    cols, rows = 2, 3
    sw, sh = w / cols, h / rows
    c.setDash(3, 3)
    c.setLineWidth(0.3)
    for col in range(1, cols):
        c.line(col * sw, 8 * mm, col * sw, h - 8 * mm)
    for row in range(1, rows):
        c.line(8 * mm, row * sh, w - 8 * mm, row * sh)
    c.setDash()
    for k, player in enumerate(players[: cols * rows]):
        url = player.get("url") if isinstance(player, dict) else None
        if not url:
            continue
        col, row = k % cols, k // cols
        seat = player.get("seat", k + 1)
        label = slip_label(_, round_number=round_no, table=number, seat=seat, round_name=round_name)
        draw_slip(
            c,
            (col * sw, h - (row + 1) * sh, sw, sh),
            tournament=tournament_name,
            label=label,
            name=player_label(player),
            url=url,
            qr_max=50 * mm,
            gettext=_,
        )


def notes(texts: list[str], width: float, *, size: float = fit.MIN_SIZE) -> LongTable:
    """Lines of small print under a table (wrapped, never cut)."""
    font, _bold = register_fonts()
    rows = [["\n".join(fit.wrap(text, font, size, width))] for text in texts]
    table = LongTable(
        rows,
        colWidths=[width],
        style=TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), font, size, size * fit.LEADING),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        ),
    )
    table.hAlign = "LEFT"
    return table
