"""Text that fits its place: measured with the font's own widths
(``pdfmetrics.stringWidth``), wrapped at spaces and after hyphens (a word
longer than the line at a syllable's end, by German hyphenation; only a
syllable wider than the line where it must), shrunk down to a floor and,
where a print has a fixed place for a text, cut with a visible "…".

Every print measures what it draws in the language at hand: German headers
("Gegn.-Schnitt") are wider than English ones ("Opp. avg"), and a name or
club may be 200 characters (:data:`tournaments.limits.MAX_NAME`).
"""

from __future__ import annotations

import functools
import re

from reportlab.pdfbase.pdfmetrics import stringWidth

#: the smallest text on paper: read at arm's length on a table
MIN_SIZE = 8
#: a line's height for a font size (DejaVu's glyphs reach 1.16 × the size)
LEADING = 1.2
ELLIPSIS = "…"
#: the hyphenation patterns a word too long for its line is broken by: the
#: names, clubs and places on the prints are German whatever the print's language
HYPHENATION = "de_DE"

# a space, or the place after a hyphen or slash inside a word
_BREAKS = re.compile(r"(\s+)|(?<=[-/–])(?=\w)")


def width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


def widest(texts, font: str, size: float) -> float:
    """The width of the widest of ``texts`` (0 for none)."""
    return max((stringWidth(t, font, size) for t in texts), default=0.0)


def pieces(text: str) -> list[str]:
    """``text`` cut where a line may break: after a space (kept with the
    word before) or after a hyphen ("Übelacker-", "Schönbrunn")."""
    out: list[str] = []
    pos = 0
    for m in _BREAKS.finditer(text):
        end = m.end()
        if end > pos:
            out.append(text[pos:end])
            pos = end
    if pos < len(text):
        out.append(text[pos:])
    return out


def longest_piece(text: str, font: str, size: float) -> float:
    """The width of the widest unbreakable piece of ``text``: the narrowest
    column that holds it without breaking a word."""
    return widest((p.rstrip() for p in pieces(text)), font, size)


@functools.lru_cache(maxsize=4)
def _hyphenator(lang: str):
    import pyphen

    return pyphen.Pyphen(lang=lang)


def syllable_break(word: str, font: str, size: float, room: float, lang: str = HYPHENATION):
    """(head with its hyphen, rest): the longest head of ``word`` that ends
    at a syllable's end (the language's hyphenation patterns, pyphen) and
    fits ``room`` with its hyphen; None where no syllable's end fits."""
    for head, rest in _hyphenator(lang).iterate(word):  # longest head first
        if not head[-1].isalpha() or not rest[0].isalpha():
            continue  # "4-" or "-x": no hyphen between a letter and the rest
        if stringWidth(head + "-", font, size) <= room:
            return head + "-", rest
    return None


def _break_word(word: str, font: str, size: float, room: float) -> list[str]:
    """A word wider than ``room`` in slices that fit: at syllables' ends with
    a hyphen ("Spielgemein-", "schaft"), and only where not even one syllable
    fits, where it must (at least a character a slice)."""
    out = []
    while stringWidth(word, font, size) > room:
        split = syllable_break(word, font, size, room)
        if split is None:
            break
        head, word = split
        out.append(head)
    line = ""
    for ch in word:
        if line and stringWidth(line + ch, font, size) > room:
            out.append(line)
            line = ch
        else:
            line += ch
    if line:
        out.append(line)
    return out


def wrap(
    text: str, font: str, size: float, room: float, *, first: float | None = None
) -> list[str]:
    """``text`` as lines no wider than ``room`` (each at least one character);
    ``first``: a narrower first line (a bold heading runs in before it)."""
    text = " ".join(str(text).split())
    if not text:
        return [""]

    def room_of(k: int) -> float:
        return first if (k == 0 and first is not None) else room

    if stringWidth(text, font, size) <= room_of(0):
        return [text]
    lines: list[str] = []
    line = ""
    for piece in pieces(text):
        candidate = line + piece
        here = room_of(len(lines))
        if stringWidth(candidate.rstrip(), font, size) <= here:
            line = candidate
            continue
        if line:
            lines.append(line.rstrip())
            line = ""
            here = room_of(len(lines))
        if stringWidth(piece.rstrip(), font, size) <= here:
            line = piece
        else:
            *whole, line = _break_word(piece.rstrip(), font, size, here)
            lines += whole
            if piece.endswith(" "):
                line += " "
    if line.strip():
        lines.append(line.rstrip())
    return lines


def cut(text: str, font: str, size: float, room: float) -> str:
    """``text`` on one line of ``room``, cut with "…" when it is wider."""
    if stringWidth(text, font, size) <= room:
        return text
    while text and stringWidth(text.rstrip() + ELLIPSIS, font, size) > room:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def fit_text(text: str, font: str, size: float, room: float, min_size: float = MIN_SIZE):
    """(text, size) on one line of ``room``: shrunk down to ``min_size``, then
    cut with "…"."""
    text = " ".join(str(text).split())
    w = stringWidth(text, font, size)
    if w <= room:
        return text, size
    size = max(min_size, size * room / w)
    return cut(text, font, size, room), size


def fit_lines(
    text: str,
    font: str,
    size: float,
    room: float,
    lines: int,
    min_size: float = MIN_SIZE,
) -> tuple[list[str], float]:
    """(lines, size): ``text`` wrapped into at most ``lines`` lines of
    ``room``, shrunk step by step down to ``min_size``; what still does not
    fit is cut with "…" at the end of the last line."""
    while True:
        wrapped = wrap(text, font, size, room)
        if len(wrapped) <= lines:
            return wrapped, size
        if size <= min_size:
            break
        size = max(min_size, size * 0.9)
    head = wrapped[: lines - 1]
    rest = " ".join(wrapped[lines - 1 :])
    return [*head, cut(rest, font, size, room)], size


def cut_middle(text: str, font: str, size: float, room: float) -> str:
    """``text`` on one line of ``room``: when it is wider, its start and its
    end with "…" between them ("Maximilian Freiherr … Schönbrunn (SC Köln)"):
    names alike at the start still differ where they differ at the end."""
    text = " ".join(str(text).split())
    if stringWidth(text, font, size) <= room:
        return text
    head, tail = text, ""
    keep_tail = True
    while head and stringWidth(head.rstrip() + ELLIPSIS + tail.lstrip(), font, size) > room:
        if keep_tail and len(tail) < len(head):
            tail = head[-1] + tail
            head = head[:-1]
            if stringWidth(ELLIPSIS + tail.lstrip(), font, size) > room / 2:
                keep_tail = False
        else:
            head = head[:-1]
    if not head:
        while tail and stringWidth(ELLIPSIS + tail.lstrip(), font, size) > room:
            tail = tail[1:]
    return head.rstrip() + ELLIPSIS + tail.lstrip()


def fit_box(
    text: str,
    font: str,
    size: float,
    room: float,
    height: float,
    min_size: float = MIN_SIZE,
) -> tuple[list[str], float]:
    """(lines, size): ``text`` wrapped (never inside a syllable) into a box of
    ``room`` by ``height``, the largest size from ``size`` down to
    ``min_size`` (half a point a step) whose lines fit the height. A text
    that does not fit even then (a name of 200 characters) keeps its first
    lines and ends with "…" and the end of the text on the last line, so two
    names alike at the start stay apart."""
    text = " ".join(str(text).split())
    sizes = []
    s = size
    while s > min_size:
        sizes.append(s)
        s -= 0.5
    sizes.append(min_size)
    for s in sizes:
        fits = max(1, int(height // (s * LEADING)))
        wrapped = wrap(text, font, s, room)
        if len(wrapped) <= fits:
            return wrapped, s
    s = min_size
    fits = max(1, int(height // (s * LEADING)))
    wrapped = wrap(text, font, s, room)
    if fits == 1:
        return [cut_middle(text, font, s, room)], s
    head = wrapped[: fits - 1]
    # the last line: "…" and as much of the text's end as fits
    shown = len(" ".join(head))
    rest = text[shown:].lstrip()
    tail = rest
    while tail and stringWidth(ELLIPSIS + tail, font, s) > room:
        tail = tail[1:]
    return [*head, ELLIPSIS + tail.lstrip()], s
