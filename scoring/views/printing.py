"""PDF downloads and the print page; large rounds go through a Celery task
whose progress the page polls (htmx)."""

from pathlib import Path

from django.contrib import messages
from django.db import transaction
from django.db.models import Count
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring import links, prints
from scoring.links import table_sheet_url
from scoring.models import PrintJob
from scoring.tasks import prints_dir, render_print_job
from tournaments.permissions import STAFF, tournament_view


def _pdf(request, tournament, kind, number):
    try:
        pdf = prints.render(
            kind,
            tournament,
            number,
            url_for_table=lambda table_id: table_sheet_url(table_id, request),
        )
    except prints.PrintError as exc:
        messages.error(request, str(exc))
        return redirect("print_center", tournament.pk)
    response = HttpResponse(pdf, content_type="application/pdf")
    name = prints.filename(kind, tournament, number)
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@tournament_view(STAFF)
@require_GET
def print_center(request, tournament):
    rounds = tournament.round_set.order_by("number").annotate(n_tables=Count("tables"))
    limit = prints.async_limit()
    return render(
        request,
        "scoring/printing.html",
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "rounds": [
                {"number": r.number, "tables": r.n_tables, "large": r.n_tables > limit}
                for r in rounds
            ],
            "kinds": [(k, prints.KINDS[k]) for k in prints.ROUND_KINDS],
            "jobs": [_labelled(job) for job in tournament.print_jobs.all()[:10]],
            "limit": limit,
        },
    )


@tournament_view(STAFF)
@require_GET
def print_round(request, tournament, number, kind):
    get_object_or_404(tournament.round_set, number=number)
    if kind not in prints.ROUND_KINDS:
        raise Http404
    return _pdf(request, tournament, kind, number)


@tournament_view(STAFF)
@require_GET
def print_standings(request, tournament):
    """The standings now, or with ``?round=N`` after round N."""
    number = request.GET.get("round")
    if number:
        if not number.isdigit():
            raise Http404
        number = get_object_or_404(tournament.round_set, number=int(number)).number
    return _pdf(request, tournament, "standings", number or None)


@tournament_view(STAFF)
@require_POST
def print_job_start(request, tournament):
    kind = request.POST.get("kind", "")
    number = request.POST.get("round", "")
    if kind not in prints.KINDS or (number and not number.isdigit()):
        raise Http404
    number = int(number) if number else None
    if number is not None:
        get_object_or_404(tournament.round_set, number=number)
    job = PrintJob.objects.create(
        tournament=tournament,
        kind=kind,
        round_number=number,
        total=max(1, prints.table_count(tournament, number)),
        by=request.user,
    )
    origin = links.origin(request)  # never a loopback address
    language = get_language()

    def enqueue():
        try:
            render_print_job.delay(job.pk, language, origin)
        except Exception as exc:  # broker down: say so instead of waiting forever
            PrintJob.objects.filter(pk=job.pk).update(
                status=PrintJob.FAILED,
                error=_("The background worker can't be reached: %(e)s") % {"e": exc},
            )

    transaction.on_commit(enqueue)
    return redirect("print_job", tournament.pk, job.pk)


def _labelled(job: PrintJob) -> PrintJob:
    job.label = prints.KINDS.get(job.kind, job.kind)
    return job


def _job_page(request, tournament, job):
    template = "scoring/printing.html#job" if request.htmx else "scoring/print_job.html"
    return render(
        request,
        template,
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "job": _labelled(job),
        },
    )


@tournament_view(STAFF)
@require_GET
def print_job(request, tournament, job_id):
    job = get_object_or_404(tournament.print_jobs, pk=job_id)
    return _job_page(request, tournament, job)


@tournament_view(STAFF)
@require_GET
def print_job_download(request, tournament, job_id):
    """The job's PDF; while it is not ready, its progress page."""
    job = get_object_or_404(tournament.print_jobs, pk=job_id)
    path = Path(job.file) if job.file else None
    if job.status != PrintJob.DONE or path is None or not path.is_file():
        return _job_page(request, tournament, job)
    if prints_dir().resolve() not in path.resolve().parents:
        raise Http404
    name = prints.filename(job.kind, tournament, job.round_number)
    return FileResponse(path.open("rb"), content_type="application/pdf", filename=name)
