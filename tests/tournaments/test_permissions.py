"""Every organizer view refuses anonymous visitors and users of other
tournaments — checked over the whole URL list, not a hand-picked few."""

from dataclasses import dataclass

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring.printing.models import PrintJob
from scoring.scans.models import ScanPage, ScanPile
from tests.factories import PlayerFactory, seated_round
from tests.mirror.mirror_helpers import approved_key
from tournaments import services
from tournaments.permissions import may
from tournaments.registrations import services as registration_services
from tournaments.registrations.models import Registration

#: views anyone may open (public pages of a public tournament, signed links)
PUBLIC = {
    "home",
    # the site's icon, asked for by every browser
    "favicon",
    "tournament_public",
    "signup",
    "login",
    "logout",
    "set_language",
    "sheet_link",
    "seat_link",
    "seat_play",
    "seat_move",
    "seat_clock",
    "standings_public",
    # the round and its clock (public when the tournament is)
    "round_public",
    "round_public_status",
    "round_projector",
    # a digital table's spectator view and public replay
    "table_watch",
    "table_watch_board",
    "table_review_public",
    "round_projector_tables",
    # the push streams of a seat and of the spectator view
    "seat_stream",
    "table_watch_stream",
    # a series' season page (public when the organizer makes it so), and a
    # public tournament's (its public series' standings)
    "season_public",
    "tournament_season",
    # players register themselves: the announcement, the door, the personal
    # link (its token is the key), leaving from a seat link
    "announcement_public",
    "registration_door",
    "registration_link",
    "registration_change",
    "registration_withdraw",
    "registration_check_in",
    "registration_leave",
    "seat_leave",
    # a helper's one-time invitation (its secret is the key): test_helper_invites.py
    "helper_join",
}
#: the organizer's own pages outside a tournament: the club roster and series
OWN = {
    "roster",
    "person_detail",
    "person_merge",
    "person_merge_undo",
    "club_export",
    "club_import",
    "series_list",
    "series_detail",
    "series_tournament_add",
    "series_tournament_remove",
    "series_person",
    "series_csv",
    "series_pdf",
    # follow from home: the account's publishing keys (online), the laptop's link
    "mirror_keys",
    "mirror_key_revoke",
    "mirror_link",
    # a tournament import's progress and outcome
    "tournament_import_job",
}
#: what a paired laptop calls: its publishing key decides, never a session
KEY_API = {"mirror_api_hello", "mirror_api_publish", "mirror_api_entries", "mirror_api_outcome"}
PASSWORD_RESET = {
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
}


@dataclass(frozen=True)
class Route:
    """A named URL with its whole route (the prefixes of its include()s too)."""

    name: str
    pattern: str
    callback: object


def named_patterns(resolver=None, prefix=""):
    resolver = resolver or get_resolver()
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            if p.namespace == "admin":
                continue
            yield from named_patterns(p, prefix + str(p.pattern))
        elif isinstance(p, URLPattern) and p.name:
            yield Route(p.name, prefix + str(p.pattern), p.callback)


def tournament_patterns():
    return [
        p for p in named_patterns() if "tournament_id" in str(p.pattern) and p.name not in PUBLIC
    ]


def _page_image() -> bytes:
    """A straightened page's image as the pile keeps it (a JPEG)."""
    import cv2
    import numpy as np

    return cv2.imencode(".jpg", np.full((400, 300), 255, np.uint8))[1].tobytes()


@pytest.fixture
def world(tournament, organizer, other_user, django_user_model):
    anna, *_others = (
        PlayerFactory(tournament=tournament, name=name) for name in ("Anna", "Bernd", "Clara")
    )
    keeper = django_user_model.objects.create_user("keeper", password="pw-keeper-12345")
    services.scorekeeper_add(tournament=tournament, username="keeper")
    other_t = services.tournament_create(owner=other_user, name="Fremd", game="quartett")
    # round 1 seated through the services, a draft: Anna at table 1
    rnd = seated_round(tournament, publish=False)
    table = rnd.tables.get(number=1)
    # announced, with one player waiting (not a player of the tournament yet)
    registration_services.announcement_save(tournament=tournament, by=organizer, cap=1)
    waiting = Registration.objects.create(
        tournament=tournament, token_hash="0" * 64, name="Wartend", status="waitlisted", position=1
    )
    # a scanned pile of the round with one page to review
    pile = ScanPile.objects.create(round=rnd, name="scan.pdf", status=ScanPile.DONE, total=1)
    page = ScanPage.objects.create(
        pile=pile,
        number=1,
        outcome=ScanPage.REVIEW,
        table=table,
        fields={"s0_cards": {"status": "unsure", "box": [10, 10, 40, 30]}},
        image=_page_image(),
        straight=True,
    )
    return {
        "t": tournament,
        "player": anna,
        "keeper": keeper,
        "other_t": other_t,
        "round": rnd,
        "table": table,
        "extra_kwargs": {
            "version": 1,
            "job_id": PrintJob.objects.create(
                tournament=tournament, kind="sheets", round_number=1
            ).pk,
            "what": "players",
            "fmt": "csv",
            "kind": "seating",
            "position": 0,
            "registration_id": waiting.pk,
            "action": "up",
            "pile_id": pile.pk,
            "page_id": page.pk,
            "name": "s0_cards",
            "invite_id": services.invite_create(tournament=tournament, by=organizer, name="Moni")[
                0
            ].pk,
        },
    }


def url_for(pattern, world):
    kwargs = {"tournament_id": world["t"].pk}
    route = str(pattern.pattern)
    if "player_id" in route:
        kwargs["player_id"] = world["player"].pk
    if "user_id" in route:
        kwargs["user_id"] = world["keeper"].pk
    if "<int:number>" in route:
        kwargs["number"] = world["round"].number
    if "<int:table>" in route:
        kwargs["table"] = world["table"].number
    for name, value in world.get("extra_kwargs", {}).items():
        if f":{name}>" in route:
            kwargs[name] = value
    return reverse(pattern.name, kwargs=kwargs)


def test_the_url_list_is_covered():
    names = {p.name for p in tournament_patterns()}
    assert {
        "tournament_detail",
        "tournament_edit",
        "player_list",
        "player_import",
        "player_drop",
        "scorekeepers",
    } <= names
    every = {p.name for p in named_patterns()}
    unchecked = (
        every
        - names
        - PUBLIC
        - PASSWORD_RESET
        - {"tournament_list", "tournament_create", "password_change", "password_change_done"}
        - {"tournament_import"}
        - {"mirror_confirm"}  # a signed link: tests/mirror/test_mirror_confirm.py
        - OWN
        - KEY_API
    )
    assert not unchecked, f"views without a permission test: {unchecked}"


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post"])
def test_anonymous_visitors_go_to_login(client, world, method):
    for pattern in tournament_patterns():
        url = url_for(pattern, world)
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response.url.startswith(reverse("login")), url
    for name in ("tournament_list", "tournament_create", "tournament_import"):
        response = getattr(client, method)(reverse(name))
        assert response.status_code == 302 and response.url.startswith(reverse("login"))


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post"])
def test_users_of_other_tournaments_are_refused(client, world, other_user, method):
    client.force_login(other_user)
    for pattern in tournament_patterns():
        url = url_for(pattern, world)
        response = getattr(client, method)(url)
        assert response.status_code == 403, url
    assert world["t"].players.count() == 3  # Anna, Bernd and Clara, as before
    assert world["t"].scorekeepers.count() == 1


#: documents of a finished event: before any round is complete they send the
#: user back to the print page with the reason
NEEDS_A_COMPLETE_ROUND = {"print_final", "print_certificates"}


#: views that answer a GET by sending on within the tournament (none now: the
#: scanned page's table is picked by a POST, which reads its marks)
SENDS_ON: set[str] = set()


def reached(response, pattern, world) -> bool:
    if pattern.name in NEEDS_A_COMPLETE_ROUND and response.status_code == 302:
        return response.url == reverse("print_center", args=[world["t"].pk])
    if pattern.name in SENDS_ON and response.status_code == 302:
        return response.url.startswith(f"/tournaments/{world['t'].pk}/")
    return response.status_code in (200, 405)


@pytest.mark.django_db
def test_scorekeeper_reaches_staff_views_but_not_owner_views(client, world):
    client.force_login(world["keeper"])
    for pattern in tournament_patterns():
        url = url_for(pattern, world)
        response = client.get(url)
        owner_only = not may("scorekeeper", pattern.callback.required_action)
        if owner_only:
            assert response.status_code == 403, url
        else:
            assert reached(response, pattern, world), url


@pytest.mark.django_db
def test_scorekeeper_of_a_is_refused_in_b(client, world, django_user_model):
    client.force_login(world["keeper"])
    other = world["other_t"]
    for name in ("tournament_detail", "player_list"):
        assert client.get(reverse(name, args=[other.pk])).status_code == 403


@pytest.mark.django_db
def test_owner_reaches_every_view(client, world, organizer):
    client.force_login(organizer)
    for pattern in tournament_patterns():
        url = url_for(pattern, world)
        assert reached(client.get(url), pattern, world), url


@pytest.mark.django_db
def test_hidden_tournament_has_no_public_page(client, tournament):
    url = reverse("tournament_public", args=[tournament.pk])
    assert client.get(url).status_code == 200
    tournament.public = False
    tournament.save()
    assert client.get(url).status_code == 404


@pytest.fixture
def own_world(organizer, tournament):
    from scoring.season.models import Series
    from tournaments.roster_models import Person, PersonMerge

    person = Person.objects.create(owner=organizer, name="Anna")
    merged = Person.objects.create(owner=organizer, name="Anna B", merged_into=person)
    series = Series.objects.create(owner=organizer, name="Saison", game="quartett")
    series.tournaments.add(tournament)
    merge = PersonMerge.objects.create(kept=person, merged=merged, by=organizer)

    key, _shown = approved_key(user=organizer)
    from scoring.exchange.models import ImportJob

    job = ImportJob.objects.create(owner=organizer, status=ImportJob.FAILED)
    return {
        "job_id": job.pk,
        "series_id": series.pk,
        "person_id": person.pk,
        "merge_id": merge.pk,
        "key_id": key.pk,
    }


def own_urls(own_world):
    for p in named_patterns():
        if p.name in OWN:
            route = str(p.pattern)
            kwargs = {k: v for k, v in own_world.items() if f":{k}>" in route}
            yield reverse(p.name, kwargs=kwargs)


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post"])
def test_roster_and_series_pages_are_the_organizers_own(client, own_world, other_user, method):
    urls = list(own_urls(own_world))
    assert len(urls) == len(OWN)
    for url in urls:
        response = getattr(client, method)(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login")), url
    client.force_login(other_user)
    for url in urls:
        response = getattr(client, method)(url)
        # another organizer finds nothing of mine (the lists show his own, empty)
        if url in (
            reverse("roster"),
            reverse("series_list"),
            reverse("person_merge"),
            reverse("club_export"),
            reverse("club_import"),
            reverse("mirror_keys"),
            reverse("mirror_link"),
        ):
            assert response.status_code in (200, 302, 405), url
        else:
            assert response.status_code in (404, 405), url
    from scoring.season.models import Series
    from tournaments.roster_models import Person, PersonMerge

    assert PersonMerge.objects.get().undone_at is None
    assert Person.objects.filter(merged_into__isnull=False).count() == 1
    assert Series.objects.get().tournaments.count() == 1
    assert not Person.objects.filter(owner=other_user).exists()
    from tournaments.mirror.models import PublishingKey

    assert PublishingKey.objects.get(pk=own_world["key_id"]).revoked_at is None


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post"])
def test_the_laptops_api_answers_only_a_publishing_key(client, tournament, organizer, method):
    """A session, even the owner's, is no key: 401 (or 405 for the wrong method)."""
    urls = [
        reverse(
            p.name,
            kwargs={"online_id": tournament.pk}
            if "online_id" in str(p.pattern)
            else {"received_id": 1}
            if "received_id" in str(p.pattern)
            else {},
        )
        for p in named_patterns()
        if p.name in KEY_API
    ]
    assert len(urls) == len(KEY_API)
    for logged_in in (False, True):
        if logged_in:
            client.force_login(organizer)
        for url in urls:
            response = getattr(client, method)(url)
            assert response.status_code in (401, 405), url
            if response.status_code == 401:
                assert response.json()["error"]
