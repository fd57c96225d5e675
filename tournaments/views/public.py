"""Pages anyone may see (for tournaments whose public pages are on)."""

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from tournaments import panels, selectors
from tournaments.permissions import public_tournament


def home(request):
    tournaments = selectors.public_tournaments()
    return render(request, "tournaments/home.html", {"tournaments": tournaments})


def tournament_public(request, tournament_id):
    tournament = public_tournament(tournament_id)
    players = [p for p in selectors.players_by_name(tournament) if not p.dropped]
    rounds = selectors.published_rounds(tournament)
    return render(
        request,
        "tournaments/public.html",
        {
            "tournament": tournament,
            "players": players,
            "rounds": rounds,
            **panels.panels("public", tournament),  # has_season: the mirror's
        },
    )


#: the icon browsers and other tools ask for at the site's root (the pages
#: name it, and the SVG beside it, in ``components/head_icons.html``)
FAVICON = settings.BASE_DIR / "tournaments" / "static" / "img" / "favicon.ico"


@require_safe
@cache_control(public=True, max_age=86400)
def favicon(request):
    return HttpResponse(FAVICON.read_bytes(), content_type="image/x-icon")
