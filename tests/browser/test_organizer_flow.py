"""An organizer's first evening: log in, create a tournament, import 24 players
(one bad line rejected with its line number, nothing saved; fixed, all 24
saved), check players in, drop one, and switch the page to German."""

import pytest

from tournaments.models import Player, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def csv_lines(bad_line: int | None = None) -> str:
    lines = ["name,club,rating,birth year"]
    for i in range(1, 25):
        rating = "zwölf" if i == bad_line else str(1000 + i * 10)
        lines.append(f"Spieler {i:02d} Şahin,Club {i % 4},{rating},{1970 + i}")
    return "\n".join(lines) + "\n"


def test_organizer_imports_checks_in_and_drops(page, live_server, organizer, tmp_path):
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "pw-orga-12345")
    page.click("form.card button[type=submit]")
    page.wait_for_url(f"{base}/tournaments/")

    page.click("text=New tournament")
    page.fill("#id_name", "Herbstturnier 2026")
    page.select_option("#id_game", "quartett")
    page.fill("#id_rounds", "5")
    page.fill("#id_round_minutes", "40")
    page.click("button:has-text('Create tournament')")
    page.wait_for_selector("h1:has-text('Herbstturnier 2026')")
    tournament = Tournament.objects.get(name="Herbstturnier 2026")

    # line 9 of the file (player 8) has a bad rating: rejected, nothing saved
    bad = tmp_path / "players.csv"
    bad.write_text(csv_lines(bad_line=8), encoding="utf-8")
    page.goto(f"{base}/tournaments/{tournament.pk}/players/import/")
    page.set_input_files("#id_file", str(bad))
    page.click("button:has-text('Check list')")
    alert = page.locator("[role=alert]")
    assert "Line 9" in alert.inner_text()
    assert "nothing was saved" in alert.inner_text()
    assert Player.objects.filter(tournament=tournament).count() == 0

    good = tmp_path / "players-fixed.csv"
    good.write_text(csv_lines(), encoding="utf-8")
    page.set_input_files("#id_file", str(good))
    page.click("button:has-text('Check list')")
    page.click("button:has-text('Save 24 players')")
    page.wait_for_url(f"{base}/tournaments/{tournament.pk}/players/")
    assert Player.objects.filter(tournament=tournament).count() == 24
    assert page.locator("table.players tbody tr").count() == 24

    # check in three players without reloading (htmx swaps the row)
    for i in (1, 2, 3):
        row = page.locator("tr", has_text=f"Spieler {i:02d} Şahin")
        row.get_by_role("button", name="Check in").click()
        row.get_by_text("Undo check-in").wait_for()
    assert Player.objects.filter(tournament=tournament, checked_in=True).count() == 3

    # drop one (confirm dialog accepted)
    page.once("dialog", lambda dialog: dialog.accept())
    row = page.locator("tr", has_text="Spieler 02 Şahin")
    row.get_by_role("button", name="Drop").click()
    row.get_by_role("button", name="Re-add").wait_for()
    dropped = Player.objects.get(tournament=tournament, name="Spieler 02 Şahin")
    assert dropped.dropped and not dropped.checked_in

    # the page speaks German after the switch
    page.click("button[name=language][value=de]")
    page.wait_for_selector("h2:has-text('Spieler')")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.get_by_role("button", name="Wieder aufnehmen").count() == 1
    page.screenshot(path=str(tmp_path / "players-de.png"), full_page=True)
