"""PDF downloads and the print page; large rounds go through a Celery task
whose progress the page polls (htmx)."""

from pathlib import Path

from django.contrib import messages
from django.db.models import Count
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring.printing import documents, selectors, tasks
from scoring.printing.models import PrintJob
from scoring.printing.tasks import prints_dir
from scoring.sheet_links import table_sheet_url
from tournaments import addresses, limits
from tournaments.params import parse_int
from tournaments.permissions import tournament_view
from tournaments.problems import problem
from tournaments.views._helpers import round_problem


def _pdf(request, tournament, kind, number, **options):
    try:
        pdf = documents.render(
            kind,
            tournament,
            number,
            url_for_table=lambda table_id: table_sheet_url(table_id, request),
            **options,
        )
    except documents.PrintError as exc:
        messages.error(request, str(exc))
        return redirect("print_center", tournament.pk)
    response = HttpResponse(pdf, content_type="application/pdf")
    name = documents.filename(kind, tournament, number)
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@tournament_view("print")
@require_GET
def print_center(request, tournament):
    rounds = tournament.round_set.order_by("number").annotate(n_tables=Count("tables"))
    limit = documents.async_limit()
    return render(
        request,
        "printing/printing.html",
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "rounds": [
                {"number": r.number, "tables": r.n_tables, "large": r.n_tables > limit}
                for r in rounds
            ],
            "kinds": [(k, documents.KINDS[k]) for k in documents.ROUND_KINDS],
            "jobs": [_labelled(job) for job in selectors.latest_jobs(tournament)],
            "limit": limit,
        },
    )


@tournament_view("print")
@require_GET
def print_round(request, tournament, number, kind):
    get_object_or_404(tournament.round_set, number=number)
    if kind not in documents.ROUND_KINDS:
        raise Http404
    return _pdf(request, tournament, kind, number)


@tournament_view("print")
@require_GET
def print_standings(request, tournament):
    """The standings now, or with ``?round=N`` after round N."""
    value = request.GET.get("round")
    number = None
    if value:
        number = parse_int(value, minimum=1)
        if number is None or not tournament.round_set.filter(number=number).exists():
            return round_problem(request, value)
    return _pdf(request, tournament, "standings", number)


@tournament_view("print")
@require_POST
def print_job_start(request, tournament):
    kind = request.POST.get("kind", "")
    value = request.POST.get("round", "")
    if kind not in documents.KINDS:
        return problem(request, _("Choose what to print."))
    number = None
    if value:
        number = parse_int(value, minimum=1)
        if number is None or not tournament.round_set.filter(number=number).exists():
            return round_problem(request, value)
    busy = _too_many_open(request, tournament)
    if busy:
        return busy
    job = tasks.start(
        tournament=tournament,
        kind=kind,
        round_number=number,
        by=request.user,
        language=get_language(),
        origin=addresses.origin(request),  # never a loopback address
    )
    return redirect("print_job", tournament.pk, job.pk)


@tournament_view("print")
@require_POST
def print_job_retry(request, tournament, job_id):
    """A failed job, tried again from the start."""
    job = get_object_or_404(tournament.print_jobs, pk=job_id)
    busy = _too_many_open(request, tournament)
    if busy:
        return busy
    if not tasks.retry(job):
        messages.info(request, _("This print job has not failed: there is nothing to try again."))
    return redirect("print_job", tournament.pk, job.pk)


def _too_many_open(request, tournament):
    """The refusal when too many of the tournament's jobs are still open."""
    open_jobs = selectors.open_job_count(tournament)
    if open_jobs < limits.MAX_OPEN_PRINT_JOBS:
        return None
    return problem(
        request,
        _("%(n)s print jobs are still being prepared: wait until they are ready.")
        % {"n": open_jobs},
        status=429,
    )


def _labelled(job: PrintJob) -> PrintJob:
    job.label = documents.KINDS.get(job.kind, job.kind)
    job.max_attempts = tasks.MAX_ATTEMPTS
    return job


def _job_page(request, tournament, job):
    template = "printing/printing.html#job" if request.htmx else "printing/print_job.html"
    return render(
        request,
        template,
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "job": _labelled(job),
        },
    )


@tournament_view("print")
@require_GET
def print_job(request, tournament, job_id):
    job = get_object_or_404(tournament.print_jobs, pk=job_id)
    return _job_page(request, tournament, job)


@tournament_view("print")
@require_GET
def print_job_download(request, tournament, job_id):
    """The job's PDF; while it is not ready, its progress page."""
    job = get_object_or_404(tournament.print_jobs, pk=job_id)
    path = Path(job.file) if job.file else None
    if job.status != PrintJob.DONE or path is None or not path.is_file():
        return _job_page(request, tournament, job)
    if prints_dir().resolve() not in path.resolve().parents:
        raise Http404
    name = documents.filename(job.kind, tournament, job.round_number)
    return FileResponse(path.open("rb"), content_type="application/pdf", filename=name)


@tournament_view("print")
@require_GET
def print_final(request, tournament, kind):
    """The final standings (after the last complete round, with clubs) or
    the certificates of the top places (``?places=N``, default 3)."""
    if kind not in ("final", "certificates"):
        raise Http404
    places = request.GET.get("places", "")
    if places and (not places.isdigit() or not 1 <= int(places) <= documents.MAX_CERTIFICATES):
        messages.error(
            request,
            _("Certificates: give a number of places from 1 to %(max)s.")
            % {"max": documents.MAX_CERTIFICATES},
        )
        return redirect("print_center", tournament.pk)
    return _pdf(request, tournament, kind, None, places=int(places) if places else None)
