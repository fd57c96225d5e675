"""A draft seating in the browser, on a phone and on a
desktop: a player who checked in late joins the draft, and a draft is thrown
away and seated again."""

import pytest

from tournaments import services
from tournaments.models import Bye, Round, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}
NAMES = ["Anna Şahin", "Bernd Łukasz", "Clara Weiß", "Dieter", "Emil", "Frida", "Gustav", "Hanna"]


def _setup(page, live_server, organizer, size):
    page.set_viewport_size(SIZES[size])
    t = services.tournament_create(
        owner=organizer, name="Vereinsabend", game="quartett", rounds=3, allowed_sizes=[3, 4, 5]
    )
    for name in NAMES:
        p = services.player_add(tournament=t, by=organizer, name=name)
        services.player_set_checked_in(player=p, by=organizer, checked_in=True)
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill('input[name="username"]', "orga")
    page.fill('input[name="password"]', "pw-orga-12345")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{base}/tournaments/{t.pk}/rounds/")
    page.get_by_role("button", name="Seat round 1").click()
    page.wait_for_url("**/rounds/1/seating/")
    return t, base


def _no_sideways_scroll(page):
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_late_arrival_joins_the_draft(page, live_server, organizer, size):
    t, base = _setup(page, live_server, organizer, size)
    assert page.locator(".seating-counts").inner_text().startswith("8 players")
    late = services.player_add(tournament=t, by=organizer, name="Zoë Spät")
    services.player_set_checked_in(player=late, by=organizer, checked_in=True)
    page.reload()
    form = page.locator("form.seating-add")
    form.locator('select[name="player"]').select_option(label="Zoë Spät")
    form.get_by_role("button", name="Add to the draft").click()
    page.get_by_text("Zoë Spät joined the draft at table").wait_for()
    rnd = Round.objects.get(tournament=t, number=1)
    assert Seat.objects.filter(table__round=rnd, player=late).exists()
    table = Seat.objects.get(table__round=rnd, player=late).table.number
    assert "Zoë Spät" in page.locator(f"#table-{table}").inner_text()
    assert page.locator(".seating-counts").inner_text().startswith("9 players")
    # nobody left to add: the form is gone
    assert page.locator("form.seating-add").count() == 0
    _no_sideways_scroll(page)
    page.screenshot(path=f"var/seating-late-{size}.png", full_page=True)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_draft_is_discarded_and_seated_again(page, live_server, organizer, size):
    t, base = _setup(page, live_server, organizer, size)
    first = Round.objects.get(tournament=t, number=1)
    late = services.player_add(tournament=t, by=organizer, name="Zoë Spät")
    services.player_set_checked_in(player=late, by=organizer, checked_in=True)
    page.reload()
    _no_sideways_scroll(page)
    page.get_by_role("button", name="Discard draft and seat again").click()
    page.wait_for_url("**/rounds/")
    page.get_by_text("The draft of round 1 was discarded").wait_for()
    assert not Round.objects.filter(pk=first.pk).exists()
    page.get_by_role("button", name="Seat round 1").click()
    page.wait_for_url("**/rounds/1/seating/")
    again = Round.objects.get(tournament=t, number=1)
    seated = (
        Seat.objects.filter(table__round=again).count() + Bye.objects.filter(round=again).count()
    )
    assert seated == 9
    assert "Zoë Spät" in page.locator(".seating-tables").inner_text()
    assert page.locator(".seating-counts").inner_text().startswith("9 players")
