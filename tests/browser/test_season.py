"""A club season in the browser: two tournaments in a series, a player of the
second linked to the roster person of the first by the organizer, and the
public season page (phone size) counting both tournaments for that person."""

import pytest

from scoring.season import services as series_services
from scoring.season.models import Series
from tests.season.test_season import play
from tournaments import services
from tournaments.services import roster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_series_links_a_person_across_tournaments_and_shows_the_public_season(
    browser, live_server, organizer, tmp_path
):
    t1 = services.tournament_create(owner=organizer, name="Januar-Turnier", game="quartett")
    t2 = services.tournament_create(owner=organizer, name="Februar-Turnier", game="quartett")
    p1, _ = play(t1, organizer, ["Jürgen Groß", "Anna Şahin"], [[["Jürgen Groß", "Anna Şahin"]]])
    play(t2, organizer, ["Juergen Gross", "Anna Sahin"], [[["Juergen Gross", "Anna Sahin"]]])
    for player in p1.values():
        roster.person_from_player(player=player, by=organizer)
    series = series_services.series_save(
        series=Series(owner=organizer, name="Quartett-Jahreswertung 2027", game="quartett")
    )
    for t in (t1, t2):
        series_services.series_add_tournament(series=series, tournament=t, by=organizer)

    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "pw-orga-12345")
    page.click("form.card button[type=submit]")
    page.wait_for_url(f"{base}/tournaments/")

    # the second tournament's players beside the roster: near matches, nothing linked yet
    page.goto(f"{base}/tournaments/{t2.pk}/players/roster/")
    row = page.locator("tr", has_text="Juergen Gross")
    assert row.get_by_text("similar name").is_visible()
    row.get_by_role("button", name="Link to Jürgen Groß").click()
    page.locator("tr", has_text="Anna Sahin").get_by_role(
        "button", name="Link to Anna Şahin"
    ).click()
    assert page.locator("tr", has_text="Juergen Gross").get_by_text("linked").is_visible()

    # the series: both tournaments count for the linked people; make it public
    page.goto(f"{base}/series/{series.pk}/")
    jurgen = page.locator("table.season tbody tr", has_text="Jürgen Groß")
    assert jurgen.locator("td").nth(3).inner_text() == "2"  # played
    page.check("input[name=public]")
    page.get_by_role("button", name="Save").last.click()
    page.screenshot(path=str(tmp_path / "series.png"), full_page=True)
    context.close()

    # the public season page on a phone, without logging in
    phone = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844})
    public = phone.new_page()
    public.goto(f"{base}/season/{series.pk}/")
    rows = public.locator("table.season tbody tr")
    assert rows.count() == 2
    first = rows.first.locator("td")
    assert first.nth(1).inner_text().startswith("Jürgen Groß")
    assert first.nth(2).inner_text() == "4"  # 2 + 2 season points (won both fields of 2)
    assert public.evaluate("document.documentElement.scrollWidth") <= 390
    public.screenshot(path=str(tmp_path / "season-phone.png"), full_page=True)
    phone.close()
