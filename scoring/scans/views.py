"""Scanned score sheets: the upload on a round's results page, a pile's
page (its progress while the worker reads it, then each page's outcome and
the pile's one press), a page's image and the crop of a doubtful field.
The review of a page is the table's entry form, opened with ``?scan=<page>``
(:mod:`scoring.views.entry`, with what :mod:`scoring.scans.review` hands it).

Views are thin: the pile is stored and read by ``scoring.scans.services``.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from scoring.scans import selectors as scan_selectors
from scoring.scans import services as scans
from scoring.scans.models import ScanPage, ScanPile
from tournaments.permissions import tournament_view
from tournaments.selectors import round_or_404
from tournaments.services.errors import ServiceError
from tournaments.views._helpers import service_error_as_message

#: files of one upload (Django's DATA_UPLOAD_MAX_NUMBER_FILES, above it,
#: refuses a request with many more before any view)
MAX_FILES = 5


def _pile_or_404(tournament, number, pile_id) -> ScanPile:
    return get_object_or_404(
        ScanPile.objects.select_related("round"),
        pk=pile_id,
        round__tournament=tournament,
        round__number=number,
    )


@tournament_view("enter_results")
@require_POST
def scan_upload(request, tournament, number):
    """A scanner's PDF or photos of sheets: each file a pile, read by the
    worker; a file refused as a whole stores nothing and says why."""
    rnd = round_or_404(tournament, number)
    files = request.FILES.getlist("files")
    back = reverse("round_results", args=[tournament.pk, number])
    if not files:
        messages.error(request, _("Choose a scanned PDF or photos of the sheets."))
        return redirect(back)
    if len(files) > MAX_FILES:
        messages.error(
            request,
            _("At most %(n)s files at once: put the pages in one PDF.") % {"n": MAX_FILES},
        )
        return redirect(back)
    piles = []
    for f in files:
        if f.size > scans.LIMITS.max_bytes:
            messages.error(request, f"{f.name}: {scans.reason_text('too_large')}")
            continue
        try:
            piles.append(
                scans.pile_start(
                    rnd=rnd,
                    by=request.user,
                    data=f.read(),
                    name=f.name,
                    language=translation.get_language(),
                )
            )
        except ServiceError as exc:
            messages.error(request, f"{f.name}: {exc}")
    if len(piles) == 1:
        return redirect("scan_pile", tournament.pk, number, piles[0].pk)
    return redirect(back + "#scans")


def _rows(pile: ScanPile, tournament, number, second=frozenset()) -> list[dict]:
    rows = []
    for page in pile.pages.select_related("table", "submission").defer("image"):
        entry_url = None
        if page.table_id:
            entry_url = reverse("result_entry", args=[tournament.pk, number, page.table.number])
            if page.outcome == ScanPage.REVIEW:
                entry_url += f"?scan={page.pk}"
        rows.append(
            {
                "page": page,
                "entry_url": entry_url,
                "reason": scans.reason_text(page.reason) if page.reason else "",
                "second": page.submission_id in second,
                "pick_table": page.outcome == ScanPage.REVIEW
                and not page.table_id
                and page.picked_table is None,
                "unsure": [
                    {
                        "field": name,
                        "why": scans.unsure_text(why),
                        "crop": reverse("scan_crop", args=[tournament.pk, number, page.pk, name]),
                    }
                    for name, why in page.unsure().items()
                ],
                "image": reverse("scan_page_image", args=[tournament.pk, number, page.pk])
                if page.outcome != ScanPage.REFUSED
                else None,
            }
        )
    return rows


@tournament_view("enter_results")
@require_GET
def scan_pile(request, tournament, number, pile_id):
    """A pile: its progress while it is read (the page asks again every
    second), then every page's outcome and the one press that confirms the
    results it read."""
    pile = _pile_or_404(tournament, number, pile_id)
    busy = pile.status in (ScanPile.QUEUED, ScanPile.RUNNING)
    waiting = {"waiting": 0, "second": 0, "second_ids": set(), "press": False}
    if not busy:
        waiting = scan_selectors.pile_waiting(pile, request.user)
    context = {
        "tournament": tournament,
        "role": request.tournament_role,
        "round": pile.round,
        "pile": pile,
        "busy": busy,
        # a page read as the table the staff named: the page asks again
        "picking": not busy and pile.pages.filter(picked_table__isnull=False).exists(),
        "rows": [] if busy else _rows(pile, tournament, number, waiting["second_ids"]),
        "waiting": waiting["waiting"] if waiting["press"] else 0,
        "second": waiting["second"],
        "pile_reason": scans.reason_text(pile.reason) if pile.reason else "",
        "tables": list(pile.round.tables.order_by("number").values_list("number", flat=True)),
    }
    template = "scans/pile.html#pile" if request.htmx else "scans/pile.html"
    return render(request, template, context)


@tournament_view("enter_results")
@require_POST
def scan_pile_confirm(request, tournament, number, pile_id):
    """The pile's one press: the results it read and stored count — or,
    where a second person must confirm, the uploader's press checks them
    and another's confirms them."""
    pile = _pile_or_404(tournament, number, pile_id)
    with service_error_as_message(request):
        _pressed_messages(request, scans.pile_confirm(pile=pile, by=request.user))
    return redirect("scan_pile", tournament.pk, number, pile.pk)


def _pressed_messages(request, pressed: scans.Pressed) -> None:
    if pressed.confirmed:
        messages.success(
            request,
            ngettext(
                "%(n)s result read from the scans confirmed.",
                "%(n)s results read from the scans confirmed.",
                pressed.confirmed,
            )
            % {"n": pressed.confirmed},
        )
    if pressed.checked:
        messages.success(
            request,
            ngettext(
                "%(n)s result read from the scans checked: it counts once a second "
                "person confirms it.",
                "%(n)s results read from the scans checked: they count once a second "
                "person confirms them.",
                pressed.checked,
            )
            % {"n": pressed.checked},
        )
    for problem in pressed.problems:
        messages.error(request, problem)


@tournament_view("enter_results")
@require_POST
def scan_page_table(request, tournament, number, page_id):
    """A page whose code can't be read: the staff name its table, and the
    worker reads its marks as that table's sheet while the pile's page
    shows it being read (then stored, the same, or to check in the form
    beside the page)."""
    page = get_object_or_404(
        ScanPage.objects.select_related("pile__round"),
        pk=page_id,
        pile__round__tournament=tournament,
        pile__round__number=number,
    )
    try:
        table = int(request.POST.get("table", ""))
    except ValueError:
        table = 0
    with service_error_as_message(request):
        scans.page_pick(page=page, number=table)
        messages.info(
            request,
            _("Page %(page)s is being read as the sheet of table %(table)s.")
            % {"page": page.number, "table": table},
        )
    return redirect("scan_pile", tournament.pk, number, page.pile_id)


def _page_or_404(tournament, number, page_id) -> ScanPage:
    return get_object_or_404(
        ScanPage, pk=page_id, pile__round__tournament=tournament, pile__round__number=number
    )


@tournament_view("enter_results")
@require_GET
def scan_page_image(request, tournament, number, page_id):
    page = _page_or_404(tournament, number, page_id)
    if not page.image:
        raise Http404
    response = HttpResponse(bytes(page.image), content_type="image/jpeg")
    response["Cache-Control"] = "private, max-age=3600"
    return response


@tournament_view("enter_results")
@require_GET
def scan_crop(request, tournament, number, page_id, name):
    page = _page_or_404(tournament, number, page_id)
    png = scans.crop(page, name)
    if png is None:
        raise Http404
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = "private, max-age=3600"
    return response
