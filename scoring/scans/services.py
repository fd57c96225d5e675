"""Writes for scanned score sheets: a pile (one uploaded file: a scanner's
PDF or a photo) is stored by the request and read page by page by a Celery
task (``scoring.read_scan_pile``, :mod:`scoring.scans.tasks`), never by a web
process.

Each page fully read goes through the same path as a typed sheet:
:func:`scoring.services.result_submit` (the engine's check, the versions,
the conflicts), stored as a result "read from scan" that waits for the
pile's one press (:func:`pile_confirm`), or is confirmed as it is read
where the tournament says so ("confirm read sheets at once"); where a
second person must confirm, the uploader's press (or "at once") is only
the author's check and another staff member's press confirms. A page with a field the reader is
unsure of, one the engine refuses, one that differs from a result already
there, or one whose code can't be read, waits for the staff: the entry form
opens pre-filled with what was read, the crop of each doubtful field beside
it. The same sheet twice adds nothing; a sheet of another tournament or
round is refused with its reason.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import cv2
import numpy as np
from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import services
from scoring.models import Confirmation, Submission
from scoring.printing import marks
from scoring.scans import reader
from scoring.scans.models import ScanPage, ScanPile
from scoring.scans.reader import locate
from tournaments import limits as site_limits
from tournaments.models import Round, Seat, Table
from tournaments.services.errors import ServiceError

log = logging.getLogger(__name__)

#: the most a pile takes: what an upload may send, 300 pages, 60 Mpx a page
LIMITS = reader.Limits(max_bytes=site_limits.MAX_IMPORT_BYTES, max_pages=300)
#: a kept page image's longer edge when the sheet was not found (pixels)
KEPT_EDGE = 1600
JPEG_QUALITY = 75
#: piles of one round waiting or being read at once
MAX_OPEN = 5


class PileRefused(ServiceError):
    """The file is refused as a whole: nothing is stored."""

    def __init__(self, reason: str):
        super().__init__(reason_text(reason))
        self.reason = reason


def reason_text(reason: str) -> str:
    """A reader's or this module's reason, for the staff (translated)."""
    mb = site_limits.mb(LIMITS.max_bytes)
    texts = {
        "not_image_or_pdf": _("This file is not a PDF, JPEG or PNG image."),
        "too_large": _("The file or page is too large (at most %(mb)s MB, 60 megapixels a page).")
        % {"mb": mb},
        "too_many_pages": _("The PDF has too many pages (at most %(n)s).")
        % {"n": LIMITS.max_pages},
        "decompression_bomb": _(
            "An image in the file would unpack to far more pixels than a scan has."
        ),
        "unreadable_file": _("The file is damaged or can't be read."),
        "blank_page": _("A blank page."),
        "not_a_sheet": _("No score sheet found on this page."),
        "two_sheets": _("More than one sheet on one page or photo: scan them one by one."),
        "code_unreadable": _("The sheet's code can't be read: choose its table."),
        "not_this_sheet": _(
            "This page is not the sheet of the table chosen for it: choose its table again."
        ),
        "unknown_sheet": _("This sheet names no table of this round."),
        "other_tournament": _("This sheet belongs to another tournament."),
        "other_round": _("This sheet belongs to another round."),
        "layout_mismatch": _("This sheet was printed before the table changed: print it again."),
        "markers_not_found": _("The sheet's corner marks were not found: scan it again."),
        "misaligned": _("The sheet could not be straightened: scan it again."),
        "unreadable": _("Too little contrast to read the marks: scan it again."),
        "unsure": _("Some fields are unclear: check them."),
        "invalid": _("The game's rules refuse what was read: check the fields."),
        "conflict": _("The table has another result: compare and correct if needed."),
        "refused_by_rules": _("The result can't be stored as read."),
        "worker_lost": _("The reading stopped: upload the file again."),
    }
    return texts.get(reason, reason)


def unsure_text(reason: str | None) -> str:
    texts = {
        "two_marks": _("two marks in one column"),
        "faint": _("a faint mark"),
        "crossed_out": _("a crossed-out mark"),
        "stray_mark": _("a stray line"),
        "not_marked": _("written but not marked"),
        "incomplete": _("a digit missing"),
        "out_of_range": _("out of the field's range"),
        "misaligned": _("not where the sheet puts it"),
    }
    return texts.get(reason or "", reason or _("unclear"))


# -- the pile -----------------------------------------------------------------------


def pile_start(*, rnd: Round, by, data: bytes, name: str, language: str) -> ScanPile:
    """A new pile for ``data``; its size, kind and page count are checked
    here, before anything is decoded (:class:`PileRefused`: nothing
    stored). The reading is handed to the worker after the commit."""
    try:
        total = reader.page_count(data, LIMITS)
    except reader.Refused as exc:
        raise PileRefused(exc.reason) from None
    open_piles = ScanPile.objects.filter(
        round=rnd, status__in=[ScanPile.QUEUED, ScanPile.RUNNING]
    ).count()
    if open_piles >= MAX_OPEN:
        raise ServiceError(_("Wait until the piles being read are done, then upload again."))
    pile = ScanPile.objects.create(
        round=rnd,
        by=by if by is not None and by.is_authenticated else None,
        name=(name or "")[:200],
        data=data,
        total=total,
        language=language or "",
    )
    transaction.on_commit(lambda: hand_out(pile.pk))
    return pile


def hand_out(pile_id: int) -> None:
    """The task ``scoring.read_scan_pile``; a broker away fails the pile
    with the reason instead of leaving it waiting."""
    try:
        current_app.send_task("scoring.read_scan_pile", args=[pile_id], expires=3600)
    except Exception:
        log.exception("scan pile %s not handed to the worker", pile_id)
        ScanPile.objects.filter(pk=pile_id).update(
            status=ScanPile.FAILED, reason="worker_lost", data=b""
        )


class _Layouts:
    """``layout_for`` of the reader for one pile: the layout of a table of
    the pile's round, and why a code names none."""

    def __init__(self, rnd: Round):
        self.rnd = rnd
        self.tournament = rnd.tournament
        self.engine = self.tournament.engine
        self.options = self.tournament.game_options or self.engine.default_options()
        self.why: dict[str, str] = {}
        self.tables: dict[str, Table] = {}
        self.layouts: dict[str, marks.Layout] = {}
        self._by_players: dict[int, marks.Layout] = {}

    def of_players(self, n: int) -> marks.Layout:
        if n not in self._by_players:
            self._by_players[n] = marks.sheet_layout(self.engine.sheet_schema(n, self.options), n)
        return self._by_players[n]

    def __call__(self, code: marks.SheetCode):
        text = code.text()
        if code.tournament != self.tournament.pk:
            self.why[text] = "other_tournament"
            return None
        if code.round != self.rnd.number:
            self.why[text] = "other_round"
            return None
        table = Table.objects.filter(round=self.rnd, number=code.table).first()
        if table is None:
            self.why[text] = "unknown_sheet"
            return None
        n = Seat.objects.filter(table=table).count()
        if not self.engine.min_players <= n <= self.engine.max_players:
            self.why[text] = "unknown_sheet"
            return None
        layout = self.of_players(n)
        self.tables[text] = table
        self.layouts[text] = layout
        return layout


def _jpeg(image: np.ndarray, straight: bool, quality: int = JPEG_QUALITY) -> bytes:
    if not straight and max(image.shape) > KEPT_EDGE:
        f = KEPT_EDGE / max(image.shape)
        image = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return buf.tobytes() if ok else b""


def run(pile_id: int) -> str | None:
    """Read pile ``pile_id`` if it is still waiting: page by page, each
    page's outcome stored as it is read (the pile's progress). Returns the
    pile's status (None: not this call's to run)."""
    claimed = ScanPile.objects.filter(pk=pile_id, status=ScanPile.QUEUED).update(
        status=ScanPile.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return None
    pile = ScanPile.objects.select_related("round__tournament", "by").get(pk=pile_id)
    layouts = _Layouts(pile.round)
    status, reason = ScanPile.DONE, ""
    with translation.override(pile.language or settings.LANGUAGE_CODE):
        try:
            pages = reader.read_pages(bytes(pile.data), layouts, LIMITS, keep_image=True)
            for done, page in enumerate(pages, start=1):
                _store_page(pile, page, layouts)
                ScanPile.objects.filter(pk=pile_id).update(done=done)
        except reader.Refused as exc:
            status, reason = ScanPile.FAILED, exc.reason
        except Exception:  # this file's failure is its own
            log.exception("scan pile %s failed", pile_id)
            status, reason = ScanPile.FAILED, "unreadable_file"
    ScanPile.objects.filter(pk=pile_id).update(
        status=status, reason=reason, data=b"", finished_at=timezone.now()
    )
    return status


#: a page whose code can't be read is kept finer: its marks are read from
#: the kept image once the staff name its table
PICK_QUALITY = 92


def _store_page(pile: ScanPile, page: reader.PageResult, layouts: _Layouts) -> ScanPage:
    quality = PICK_QUALITY if page.reason == "code_unreadable" else JPEG_QUALITY
    image = _jpeg(page.image, page.straight, quality) if page.image is not None else b""
    row = ScanPage(
        pile=pile,
        number=page.page,
        code=(page.code or "")[:100],
        image=image,
        straight=page.straight,
        seconds=page.seconds,
    )
    table = layouts.tables.get(page.code or "")
    layout = layouts.layouts.get(page.code or "")
    if page.status == "read":
        row.table = table
        _read_fields(row, page, layout)
        _outcome(row, page, pile)
    elif page.reason == "unknown_sheet" and page.code in layouts.why:
        row.outcome, row.reason = ScanPage.REFUSED, layouts.why[page.code]
    elif page.reason == "code_unreadable":
        row.outcome, row.reason = ScanPage.REVIEW, page.reason
    else:
        row.outcome, row.reason = ScanPage.REFUSED, page.reason or ""
    row.save()
    return row


def _read_fields(row: ScanPage, page: reader.PageResult, layout: marks.Layout) -> None:
    row.fields = {k: r.to_json() for k, r in page.fields.items()}
    for f in layout.fields:
        if f.name in row.fields:
            row.fields[f.name]["box"] = [round(v, 1) for v in f.block]


class NotThisSheet(ServiceError):
    """The page picked for a table is not that table's sheet."""


#: a page waiting for its table: its code unread, or the table named for it
#: before was not its sheet's
PICKABLE = ("code_unreadable", "not_this_sheet")


def _picked_table(rnd, number: int) -> tuple[Table, int]:
    """The round's table ``number`` and its number of players, of a size the
    game allows, else the reason."""
    table = Table.objects.filter(round=rnd, number=number).first()
    players = Seat.objects.filter(table=table).count() if table is not None else 0
    engine = rnd.tournament.engine
    if table is None or not engine.min_players <= players <= engine.max_players:
        raise ServiceError(_("Choose a table of this round."))
    return table, players


def page_pick(*, page: ScanPage, number: int) -> ScanPage:
    """The staff name the table of a page whose code can't be read: the
    page is handed to the worker, which reads its marks as that table's
    sheet (:func:`run_pick`); the pile's page shows it being read. A table
    not of the round, or a page not waiting for its table, is refused
    (:class:`ServiceError`) and nothing changes."""
    _picked_table(page.pile.round, number)
    with transaction.atomic():
        row = ScanPage.objects.select_for_update().get(pk=page.pk)
        if (
            row.outcome != ScanPage.REVIEW
            or row.table_id
            or row.reason not in PICKABLE
            or row.picked_table is not None
        ):
            raise ServiceError(_("This page's table is known already."))
        row.picked_table = number
        row.save(update_fields=["picked_table"])
        transaction.on_commit(lambda: hand_out_pick(row.pk))
    return row


def hand_out_pick(page_id: int) -> None:
    """The task ``scoring.read_picked_page``; a broker away leaves the page
    waiting for its table again (the staff may pick once more)."""
    try:
        current_app.send_task("scoring.read_picked_page", args=[page_id], expires=3600)
    except Exception:
        log.exception("picked scan page %s not handed to the worker", page_id)
        ScanPage.objects.filter(pk=page_id).update(picked_table=None)


def run_pick(page_id: int) -> str:
    """The worker's part of :func:`page_pick`: the page read as the sheet of
    the table named for it (:func:`page_pick_table`). Not that table's sheet:
    the page waits for its table again, saying so; marks that can't be read:
    the page is that table's, to enter from the page beside the form."""
    row = (
        ScanPage.objects.select_related("pile__round")
        .filter(pk=page_id, picked_table__isnull=False)
        .first()
    )
    if row is None:
        return "gone"
    number = row.picked_table
    try:
        _row, unread = page_pick_table(page=row, number=number)
    except NotThisSheet:
        ScanPage.objects.filter(pk=page_id).update(picked_table=None, reason="not_this_sheet")
        return "not_this_sheet"
    except ServiceError:
        ScanPage.objects.filter(pk=page_id).update(picked_table=None)
        return "refused"
    if unread:
        table = Table.objects.get(round=row.pile.round, number=number)
        ScanPage.objects.filter(pk=page_id).update(picked_table=None, table=table, reason=unread)
        return unread
    return "read"


def page_pick_table(*, page: ScanPage, number: int) -> tuple[ScanPage, str]:
    """A page whose code can't be read, its table named by the staff: its
    marks are read as that table's sheet (the layout of the table's game and
    size: :func:`reader.read_as`) and the page goes the way of a read one —
    stored to wait for the pile's press, the same as the table's result, or
    to check in the pre-filled form. Returns the page, and the reason when
    its marks could not be read (the form opens with the page beside it, as
    before). :class:`ServiceError` (nothing changed) for a table not of the
    round or a page not waiting for its table; :class:`NotThisSheet` when
    the page is not a sheet of that table's game and size."""
    rnd = page.pile.round
    table, n = _picked_table(rnd, number)
    layouts = _Layouts(rnd)
    layout = layouts.of_players(n)
    with transaction.atomic():
        row = ScanPage.objects.select_for_update().select_related("pile").get(pk=page.pk)
        if row.outcome != ScanPage.REVIEW or row.table_id or row.reason not in PICKABLE:
            raise ServiceError(_("This page's table is known already."))
        image = None
        if row.image:
            data = np.frombuffer(bytes(row.image), np.uint8)
            image = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
        if image is None:
            return row, "unreadable"
        read = reader.read_as(image, layout, row.number, keep_image=True)
        if read.reason == "layout_mismatch":
            raise NotThisSheet(
                ngettext(
                    "This page is not the sheet of table %(table)s (%(game)s for %(n)s "
                    "player): choose its table again.",
                    "This page is not the sheet of table %(table)s (%(game)s for %(n)s "
                    "players): choose its table again.",
                    n,
                )
                % {"table": number, "game": layouts.engine.name, "n": n}
            )
        if read.status != "read":
            return row, read.reason or "unreadable"
        row.table = table
        row.picked_table = None
        row.image = _jpeg(read.image, True)
        row.straight = True
        row.reason = ""
        _read_fields(row, read, layout)
        _outcome(row, read, row.pile)
        row.save()
    return row, ""


def _outcome(row: ScanPage, page: reader.PageResult, pile: ScanPile) -> None:
    """A read page through the result path: stored, the same, or to review."""
    if not page.complete:
        row.outcome, row.reason = ScanPage.REVIEW, "unsure"
        return
    sheet = page.values()
    latest = Submission.objects.filter(table=row.table).order_by("-version").first()
    counted = Submission.objects.filter(table=row.table, status=Submission.CONFIRMED).first()
    live = [s for s in (counted, latest) if s is not None and s.status != Submission.REJECTED]
    live = [s for s in live if s.status in (Submission.CONFIRMED, Submission.PENDING)]
    if any(s.sheet == sheet for s in live):
        same = next(s for s in live if s.sheet == sheet)
        row.outcome, row.reason, row.submission = ScanPage.SAME, "", same
        return
    if live:
        other = live[0]
        row.outcome, row.reason = ScanPage.REVIEW, "conflict"
        row.problems = [
            _("Version %(version)s of this table's result (%(status)s) differs from this sheet.")
            % {"version": other.version, "status": other.get_status_display()}
        ]
        return
    try:
        sub = services.result_submit(
            table=row.table,
            sheet=sheet,
            by=pile.by,
            source=services.SCAN_SOURCE,
            expected_version=latest.version if latest else None,
            hold=True,
        )
    except services.ResultInvalid as exc:
        row.outcome, row.reason = ScanPage.REVIEW, "invalid"
        row.problems = [str(p) for p in exc.problems]
    except services.ResultConflict as exc:
        row.outcome, row.reason, row.problems = ScanPage.REVIEW, "conflict", [str(exc)]
    except ServiceError as exc:
        row.outcome, row.reason, row.problems = ScanPage.REVIEW, "refused_by_rules", [str(exc)]
    else:
        row.outcome, row.submission = ScanPage.STORED, sub
        if pile.round.tournament.scans_at_once:
            _at_once(sub, pile)


def _at_once(sub: Submission, pile: ScanPile) -> None:
    """The tournament's setting "confirm read sheets at once": the uploader's
    press, made for him as the page is read (the same service as the pile's
    press, so the history names him). Where a second person must confirm,
    the result still waits for one."""
    try:
        services.result_confirm(submission=sub, by=pile.by)
    except ServiceError:  # an uploader gone, a result replaced meanwhile
        log.info("scan page of pile %s left for the pile's press", pile.pk, exc_info=True)
    sub.refresh_from_db(fields=["status"])


@dataclass
class Pressed:
    """What the pile's press did: results confirmed, results checked by
    their author that now wait for a second person, and why any could not."""

    confirmed: int = 0
    checked: int = 0
    problems: list[str] = field(default_factory=list)


def pile_confirm(*, pile: ScanPile, by) -> Pressed:
    """The pile's one press: every result it stored that still waits is
    confirmed — or, where the tournament wants a second person, checked by
    its uploader (it waits) and then confirmed by someone else. The
    uploader's press on results he checked already is refused as a whole
    (:class:`ServiceError`), nothing changes."""
    pressed = Pressed()
    pages = list(
        pile.pages.filter(outcome=ScanPage.STORED, submission__status=Submission.PENDING)
        .select_related("submission", "table")
        .order_by("number")
    )
    by_id = by.pk if by is not None and by.is_authenticated else None
    mine = [p for p in pages if by_id is not None and p.submission.by_id == by_id]
    if (
        pages
        and len(mine) == len(pages)
        and pile.round.tournament.confirmation_required
        and Confirmation.objects.filter(
            submission__in=[p.submission for p in mine], by_id=by_id
        ).count()
        == len(mine)
    ):
        raise ServiceError(second_person_text())
    for page in pages:
        try:
            sub = services.result_confirm(submission=page.submission, by=by)
        except ServiceError as exc:
            pressed.problems.append(
                _("Table %(table)s: %(why)s") % {"table": page.table.number, "why": exc}
            )
            continue
        if sub.status == Submission.CONFIRMED:
            pressed.confirmed += 1
        else:
            pressed.checked += 1
    ScanPile.objects.filter(pk=pile.pk).update(confirmed_at=timezone.now())
    return pressed


def second_person_text() -> str:
    return _(
        "You checked these results read from the scan yourself: another scorekeeper "
        "or the Turnierleitung must confirm them."
    )


def page_fixed(*, page: ScanPage, submission: Submission) -> None:
    """A page reviewed: the staff saved its table's result from the form."""
    ScanPage.objects.filter(pk=page.pk).update(
        outcome=ScanPage.FIXED, submission=submission, table=submission.table
    )


def crop(page: ScanPage, name: str, *, margin: float = 6.0) -> bytes | None:
    """A field's part of the straightened page image (PNG), or None."""
    box = (page.fields.get(name) or {}).get("box")
    if not (page.straight and page.image and box):
        return None
    image = cv2.imdecode(np.frombuffer(bytes(page.image), np.uint8), cv2.IMREAD_GRAYSCALE)
    if image is None:
        return None
    s = locate.SCALE
    x0, y0, x1, y1 = box
    h, w = image.shape
    a = (max(0, int((x0 - margin) * s)), max(0, int((y0 - margin) * s)))
    b = (min(w, int((x1 + margin) * s)), min(h, int((y1 + margin) * s)))
    if b[0] <= a[0] or b[1] <= a[1]:
        return None
    ok, buf = cv2.imencode(".png", image[a[1] : b[1], a[0] : b[0]])
    return buf.tobytes() if ok else None
