"""Players of a tournament: register, import, check in, drop, teams."""

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import selectors, services
from tournaments.collation import fold
from tournaments.forms import PlayerForm, PlayerImportForm, TeamForm
from tournaments.permissions import STAFF, may, tournament_view
from tournaments.player_import import LineError, parse_players
from tournaments.roster import EXACT
from tournaments.services import players as player_services
from tournaments.services import roster as roster_services
from tournaments.views._helpers import service_error_as_message
from tournaments.views._player_rows import player_rows
from tournaments.views._ratings import unconfirmed_text

SORTS = ("name", "surname")


def _page_context(request, tournament) -> dict:
    """What every players page needs once: the role and the players' base URL."""
    return {
        "tournament": tournament,
        "role": request.tournament_role,
        "base": reverse("player_list", args=[tournament.pk]),
    }


def _late_context(request, tournament) -> dict:
    """The notice of the check-in page while the next round is a draft: the
    checked-in players not in it, each added with one press (the organizer)."""
    rnd, late = selectors.draft_late_arrivals(tournament)
    return {
        "late_round": rnd,
        "late": late,
        "may_seat": may(request.tournament_role, "seat"),
    }


@tournament_view(STAFF)
def player_list(request, tournament):
    """The list at the door: sorted by name or surname (German order), filtered
    as you type (static/js/players.js; ``?q=`` without JavaScript), check in one,
    a selection or everyone."""
    sort = request.GET.get("sort")
    sort = sort if sort in SORTS else "name"
    players = selectors.players_by_name(tournament, by_surname=sort == "surname")
    query = request.GET.get("q", "").strip()[:100]
    shown = players
    if query:
        needle = fold(query)
        shown = [p for p in players if needle in fold(f"{p.name} {p.club}")]
    checked_in = sum(1 for p in players if p.checked_in and not p.dropped)
    waiting = sum(1 for p in players if not p.checked_in and not p.dropped)
    context = _page_context(request, tournament)
    context |= {
        "rows": player_rows(
            shown,
            base=context["base"],
            owner=context["role"] == "owner",
            team_mode=tournament.team_mode,
        ),
        "total": len(players),
        "checked_in": checked_in,
        "waiting": waiting,
        "sort": sort,
        "query": query,
        **_late_context(request, tournament),
    }
    unconfirmed = sum(1 for p in players if p.rating is not None and not p.rating_confirmed)
    if unconfirmed and context["role"] == "owner":
        context |= {"unconfirmed": unconfirmed, "unconfirmed_text": unconfirmed_text(unconfirmed)}
    return render(request, "tournaments/players.html", context)


@tournament_view(STAFF)
@require_POST
def players_check_in(request, tournament):
    """Check in the ticked players, or with ``all`` everyone still missing."""
    if request.POST.get("all"):
        ids = None
    else:
        try:
            ids = sorted({int(v) for v in request.POST.getlist("player")})
        except ValueError:
            ids = []
        if not ids:
            messages.error(request, _("Tick the players to check in first."))
            return redirect("player_list", tournament.pk)
    count = services.players_check_in(tournament=tournament, player_ids=ids, by=request.user)
    if count:
        messages.success(
            request,
            ngettext("%(count)s player checked in.", "%(count)s players checked in.", count)
            % {"count": count},
        )
    else:
        messages.info(request, _("Nobody was left to check in."))
    return redirect("player_list", tournament.pk)


def _row(request, tournament, player, error=None):
    """The htmx answer to a change on one player: the player's table row."""
    html = player_rows(
        [player],
        base=reverse("player_list", args=[tournament.pk]),
        owner=request.tournament_role == "owner",
        team_mode=tournament.team_mode,
        error=error,
    )
    # the counts above the list follow (an out-of-band swap; <template> keeps
    # it intact next to a table row)
    counts = selectors.player_counts(tournament)
    context = {
        "oob": True,
        "tournament": tournament,
        "checked_in": counts["checked_in"],
        "waiting": counts["total"] - counts["checked_in"] - counts["dropped"],
        **_late_context(request, tournament),
    }
    header = render_to_string("tournaments/players_counts.html", context, request)
    bulk = render_to_string("tournaments/players_bulk.html", context, request)
    late = render_to_string("tournaments/players_late.html", context, request)
    return HttpResponse(f"{html}<template>{header}{bulk}{late}</template>")


def _player_action(service, action):
    @tournament_view(action)
    @require_POST
    def view(request, tournament, player_id):
        player = get_object_or_404(tournament.players, pk=player_id)
        error = None
        try:
            player = service(request, player)
        except services.ServiceError as exc:
            error = str(exc)
        if request.htmx:
            return _row(request, tournament, player, error)
        if error:
            messages.error(request, error)
        return redirect("player_list", tournament.pk)

    return view


player_check_in = _player_action(
    lambda r, p: services.player_set_checked_in(player=p, checked_in=True, by=r.user), "check_in"
)
player_check_out = _player_action(
    lambda r, p: services.player_set_checked_in(player=p, checked_in=False, by=r.user),
    "check_in",
)
# dropping re-seats rounds that have not started: the organizer's decision
player_drop = _player_action(lambda r, p: services.player_drop(player=p, by=r.user), "drop_players")
player_readd = _player_action(
    lambda r, p: services.player_readd(player=p, by=r.user), "drop_players"
)


def _rating_confirm(request, player):
    player_services.players_rating_confirm(
        tournament=player.tournament, player_ids=[player.pk], by=request.user
    )
    player.refresh_from_db()
    return player


# a rating the player typed counts once the organizer confirms it
player_rating_confirm = _player_action(_rating_confirm, "manage_players")


@tournament_view("manage_players")
@require_POST
def players_rating_confirm(request, tournament):
    """Confirm every rating players typed themselves, in one press."""
    count = player_services.players_rating_confirm(
        tournament=tournament, player_ids=None, by=request.user
    )
    messages.success(
        request,
        ngettext("%(count)s rating confirmed.", "%(count)s ratings confirmed.", count)
        % {"count": count},
    )
    return redirect("player_list", tournament.pk)


@tournament_view("manage_players")
@require_http_methods(["GET", "POST"])
def player_add(request, tournament):
    """Enter a player by hand; "Save and add another" comes back to an empty
    form (its first field focused) for the next one."""
    form = PlayerForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data.items())
        with service_error_as_message(request, form=form):
            player = services.player_add(tournament=tournament, by=request.user, **data)
            messages.success(request, _("%(name)s registered.") % {"name": player.name})
            if request.POST.get("then") == "another":
                return redirect("player_add", tournament.pk)
            return redirect("player_list", tournament.pk)
    first = next(iter(form.fields.values()), None)
    if first is not None:
        first.widget.attrs["autofocus"] = True
    return render(
        request,
        "tournaments/player_form.html",
        {"tournament": tournament, "form": form, "adding": True},
    )


@tournament_view("manage_players")
@require_http_methods(["GET", "POST"])
def player_edit(request, tournament, player_id):
    player = get_object_or_404(tournament.players, pk=player_id)
    form = PlayerForm(request.POST or None, instance=player, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                form.save()
        except IntegrityError:  # registered meanwhile under the same name and club
            form.add_error(None, _("%(name)s is already registered.") % {"name": player.name})
        else:
            messages.success(request, _("%(name)s saved.") % {"name": player.name})
            return redirect("player_list", tournament.pk)
    return render(
        request,
        "tournaments/player_form.html",
        {"tournament": tournament, "form": form, "player": player},
    )


@tournament_view("manage_players")
@require_POST
def player_remove(request, tournament, player_id):
    player = get_object_or_404(tournament.players, pk=player_id)
    with service_error_as_message(request):
        services.player_remove(player=player, by=request.user)
        messages.success(request, _("%(name)s removed.") % {"name": player.name})
    return redirect("player_list", tournament.pk)


@tournament_view("manage_players")
@require_http_methods(["GET", "POST"])
def player_import(request, tournament):
    """Upload or paste → preview with line-numbered errors → confirm.
    Nothing is saved until the whole list is valid and confirmed."""
    form = PlayerImportForm(request.POST or None, request.FILES or None)
    context = {"tournament": tournament, "form": form}
    if request.method == "POST" and form.is_valid():
        content = form.cleaned_data["content"]
        rows, errors = parse_players(content, selectors.registered_names(tournament))
        context.update(rows=rows, errors=errors, content=content)
        if rows and not errors:
            context["roster"] = _roster_preview(request, tournament, rows)
        if not errors and request.POST.get("confirm"):
            choices = {r.line: request.POST.get(f"roster-{r.line}", "") for r in rows}
            try:
                created = roster_services.players_import_with_people(
                    tournament=tournament, rows=rows, choices=choices, by=request.user
                )
            except services.ServiceError as exc:
                context["errors"] = [LineError(0, str(exc))]
            else:
                messages.success(
                    request,
                    ngettext("%(n)s player imported.", "%(n)s players imported.", len(created))
                    % {"n": len(created)},
                )
                return redirect("player_list", tournament.pk)
    return render(request, "tournaments/player_import.html", context)


def _roster_preview(request, tournament, rows) -> list[dict]:
    """Per preview row its roster matches and the choice shown: an exact
    match is offered ready to link, a near match only as a choice; a new name
    can be added to the roster. The organizer confirms them all with Save."""
    found = selectors.roster_matches(tournament.owner, [(r.name, r.club) for r in rows])
    preview = []
    for row, (kind, people) in zip(rows, found, strict=True):
        posted = request.POST.get(f"roster-{row.line}")
        default = f"p{people[0].pk}" if kind == EXACT and len(people) == 1 else ""
        chosen = posted if posted is not None and request.POST.get("confirm") else default
        options = [("", _("don't link"))]
        options += [(f"p{p.pk}", _("Link to %(person)s") % {"person": p}) for p in people]
        options.append(("new", _("Add as a new person")))
        preview.append(
            {
                "row": row,
                "kind": kind,
                "options": [(value, label, value == chosen) for value, label in options],
            }
        )
    return preview


@tournament_view("manage_players")
@require_http_methods(["GET", "POST"])
def team_add(request, tournament):
    form = TeamForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        with service_error_as_message(request, form=form):
            team = services.team_register(
                tournament=tournament,
                name=form.cleaned_data["name"],
                members=[form.cleaned_data["first"], form.cleaned_data["second"]],
            )
            messages.success(request, _("Team %(name)s registered.") % {"name": team.name})
            return redirect("player_list", tournament.pk)
    return render(request, "tournaments/team_form.html", {"tournament": tournament, "form": form})
