"""The final stage's page: its settings (until seated), who qualifies and
why, "Seat the final", who went on from the semi-finals, the finalists'
places and what settled them."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.finals import services
from tournaments.finals.forms import FinalStageForm
from tournaments.finals.selectors import final_page, stage_settings
from tournaments.permissions import STAFF, tournament_view
from tournaments.views._helpers import service_error_as_message


def _render(request, tournament, form=None, status=200):
    context = final_page(tournament)
    context.update(
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "form": form or FinalStageForm(instance=context["stage"]),
        }
    )
    return render(request, "finals/final.html", context, status=status)


@tournament_view(STAFF)
def final_stage(request, tournament):
    return _render(request, tournament)


@tournament_view("settings")
@require_POST
def final_stage_settings(request, tournament):
    form = FinalStageForm(request.POST, instance=stage_settings(tournament))
    if not form.is_valid():
        return _render(request, tournament, form, status=400)
    values = {name: form.cleaned_data[name] for name in form.Meta.fields}
    with service_error_as_message(request, form=form):
        services.final_stage_save(tournament=tournament, by=request.user, **values)
        messages.success(request, _("The final stage's settings are saved."))
        return redirect("final_stage", tournament.pk)
    return _render(request, tournament, form, status=400)


@tournament_view("seat")
@require_POST
def final_stage_seat(request, tournament):
    with service_error_as_message(request):
        rnd = services.final_seat(tournament=tournament, by=request.user)
        messages.success(
            request,
            _("Round %(n)s is seated: print the sheets and start its clock.") % {"n": rnd.number},
        )
        return redirect("round_detail", tournament.pk, rnd.number)
    return redirect("final_stage", tournament.pk)
