"""Who makes a pile of read sheets count: the tournament's setting "confirm
read sheets at once" confirms a sheet read fully and accepted by the rules
as it is read (its uploader's press, made for him; unclear sheets still
wait); with second-person confirmation the uploader's press is only the
author's check — the pile says it waits for a second person, another staff
member's press confirms, and the uploader's second press is refused with a
message and changes nothing. "At once" never skips the second person."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import selectors as result_selectors
from scoring.models import Confirmation, Submission
from scoring.scans import services as scans
from scoring.scans.models import ScanPage, ScanPile
from tests.scans.filled import filled_pages, pdf, valid_values
from tests.scoring import handmade
from tests.scoring.test_result_entry import add_keeper
from tournaments.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(tournament, organizer):
    return handmade.build(tournament, organizer)


@pytest.fixture
def keeper(tournament, django_user_model):
    return add_keeper(tournament, django_user_model, "keeper2")


def setting(tournament, **values):
    for name, value in values.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=list(values))


def read_pile(tournament, by, fill: dict[int, dict]) -> ScanPile:
    """Round 3's sheets of the tables in ``fill`` uploaded by ``by`` and read."""
    rnd = tournament.round_set.get(number=3)
    data = pdf(filled_pages(tournament, 3, fill))
    pile = scans.pile_start(rnd=rnd, by=by, data=data, name="stapel.pdf", language="en")
    assert scans.run(pile.pk) == ScanPile.DONE
    pile.refresh_from_db()
    return pile


def table2(tournament) -> Table:
    return Table.objects.get(round__tournament=tournament, round__number=3, number=2)


def results(tournament):
    return result_selectors.results_data(tournament)


def state(tournament):
    """Everything a press could change."""
    return (
        sorted(Submission.objects.values_list("pk", "status")),
        sorted(Confirmation.objects.values_list("pk", flat=True)),
        sorted(ScanPile.objects.values_list("pk", "confirmed_at")),
        len(results(tournament)),
    )


# -- 1. confirm read sheets at once ---------------------------------------------------


def test_at_once_a_fully_read_sheet_counts_as_it_is_read(tournament, organizer, made):
    setting(tournament, scans_at_once=True)
    values = valid_values("quartett", 4)
    pile = read_pile(tournament, organizer, {2: values})
    (page,) = pile.pages.all()
    sub = page.submission
    assert page.outcome == ScanPage.STORED
    assert (sub.status, sub.source, sub.by) == (Submission.CONFIRMED, "scan", organizer)
    # the history names the uploader as the one who confirmed it
    assert list(sub.confirmations.values_list("by", flat=True)) == [organizer.pk]
    assert table2(tournament).status == Table.DONE


def test_without_the_setting_a_read_sheet_waits_for_the_press(tournament, organizer, made):
    pile = read_pile(tournament, organizer, {2: valid_values("quartett", 4)})
    (page,) = pile.pages.all()
    assert page.submission.status == Submission.PENDING
    assert not Confirmation.objects.filter(submission=page.submission).exists()


def test_at_once_an_unsure_or_refused_sheet_still_waits(tournament, organizer, made):
    setting(tournament, scans_at_once=True)
    values = valid_values("quartett", 4)
    first, field = [k for k, v in values.items() if k.endswith("_out_order") and v][:2]
    wrong = {**values, field: values[first]}  # the rules refuse it
    pile = read_pile(tournament, organizer, {2: wrong})
    (page,) = pile.pages.all()
    assert (page.outcome, page.reason) == (ScanPage.REVIEW, "invalid")
    assert not Submission.objects.filter(table=page.table).exists()


def test_at_once_with_a_second_person_the_sheet_still_waits_for_one(
    tournament, organizer, keeper, made
):
    setting(tournament, scans_at_once=True, confirmation_required=True)
    pile = read_pile(tournament, organizer, {2: valid_values("quartett", 4)})
    (page,) = pile.pages.all()
    sub = page.submission
    assert sub.status == Submission.PENDING  # not counted: nobody else looked
    assert list(sub.confirmations.values_list("by", flat=True)) == [organizer.pk]
    with pytest.raises(scans.ServiceError, match="another scorekeeper"):
        scans.pile_confirm(pile=pile, by=organizer)
    pressed = scans.pile_confirm(pile=pile, by=keeper)
    assert pressed.confirmed == 1
    sub.refresh_from_db()
    assert sub.status == Submission.CONFIRMED


# -- 2. the second person --------------------------------------------------------------


def test_with_a_second_person_the_uploaders_press_only_checks(tournament, organizer, keeper, made):
    setting(tournament, confirmation_required=True)
    pile = read_pile(
        tournament, organizer, {1: valid_values("quartett", 4), 2: valid_values("quartett", 4, 9)}
    )
    pressed = scans.pile_confirm(pile=pile, by=organizer)
    assert (pressed.confirmed, pressed.checked, pressed.problems) == (0, 1, [])
    sub = table2(tournament).submissions.get(source="scan")
    assert sub.status == Submission.PENDING
    assert (3, 2) not in {(e["round"], e.get("table")) for e in results(tournament)}
    # the uploader's second press: refused, nothing changes
    before = state(tournament)
    with pytest.raises(scans.ServiceError) as refused:
        scans.pile_confirm(pile=pile, by=organizer)
    assert "another scorekeeper or the Turnierleitung" in str(refused.value)
    assert state(tournament) == before
    # another staff member's press confirms
    pressed = scans.pile_confirm(pile=pile, by=keeper)
    assert (pressed.confirmed, pressed.checked, pressed.problems) == (1, 0, [])
    sub.refresh_from_db()
    assert sub.status == Submission.CONFIRMED
    assert set(sub.confirmations.values_list("by", flat=True)) == {organizer.pk, keeper.pk}


def test_the_same_rule_holds_for_one_results_confirmation(tournament, organizer, made):
    """The results service itself: the uploader confirming one read result
    (not through the pile) checks it once, then is refused."""
    setting(tournament, confirmation_required=True)
    pile = read_pile(tournament, organizer, {2: valid_values("quartett", 4)})
    sub = pile.pages.get().submission
    scans.services.result_confirm(submission=sub, by=organizer)
    sub.refresh_from_db()
    assert sub.status == Submission.PENDING
    with pytest.raises(scans.ServiceError, match="yourself"):
        scans.services.result_confirm(submission=sub, by=organizer)
    assert sub.confirmations.count() == 1


def test_a_second_person_may_confirm_before_the_uploader_looked(
    tournament, organizer, keeper, made
):
    setting(tournament, confirmation_required=True)
    pile = read_pile(tournament, organizer, {2: valid_values("quartett", 4)})
    assert scans.pile_confirm(pile=pile, by=keeper).confirmed == 1
    assert (3, 2) in {(e["round"], e.get("table")) for e in results(tournament)}


# -- the pile's page ----------------------------------------------------------------------


def press(client, tournament, pile):
    url = reverse("scan_pile_confirm", args=[tournament.pk, 3, pile.pk])
    return client.post(url, follow=True).content.decode()


def test_the_pile_page_says_it_waits_for_a_second_person(
    client, tournament, organizer, keeper, made
):
    setting(tournament, confirmation_required=True)
    pile = read_pile(tournament, organizer, {2: valid_values("quartett", 4)})
    url = reverse("scan_pile", args=[tournament.pk, 3, pile.pk])
    client.force_login(organizer)
    assert "Confirm 1 result read from the scan" in client.get(url).content.decode()
    html = press(client, tournament, pile)
    assert "1 result read from the scans checked: it counts once a second person" in html
    assert "1 result waits for a second person" in html
    assert "waiting for a second person" in html
    assert "Confirm 1 result read from the scan" not in html  # nothing left for him to press
    # a stale page or a double click: the second press says why, nothing changes
    before = state(tournament)
    html = press(client, tournament, pile)
    assert "You checked these results read from the scan yourself" in html
    assert state(tournament) == before
    # another scorekeeper sees the press and confirms
    client.force_login(keeper)
    html = client.get(url).content.decode()
    assert "1 result waits for a second person" in html
    assert "Confirm 1 result read from the scan" in html
    html = press(client, tournament, pile)
    assert "1 result read from the scans confirmed." in html
    assert table2(tournament).submissions.get(source="scan").status == Submission.CONFIRMED
    assert "waits for a second person" not in html


def test_the_refusal_speaks_german(client, tournament, organizer, made):
    setting(tournament, confirmation_required=True)
    pile = read_pile(tournament, organizer, {2: valid_values("quartett", 4)})
    scans.pile_confirm(pile=pile, by=organizer)
    client.force_login(organizer)
    url = reverse("scan_pile_confirm", args=[tournament.pk, 3, pile.pk])
    html = client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Sie haben diese vom Scan gelesenen Ergebnisse selbst geprüft" in html
    assert "wartet auf eine zweite Person" in html


def test_the_settings_form_offers_confirm_at_once_and_says_it_keeps_the_second_person(
    client, organizer, tournament
):
    client.force_login(organizer)
    url = reverse("tournament_edit", args=[tournament.pk])
    html = client.get(url).content.decode()
    assert 'name="scans_at_once"' in html
    assert "second-person confirmation" in html.lower()
    data = {
        "name": tournament.name,
        "game": tournament.game,
        "rounds": 4,
        "round_minutes": 40,
        "points_scheme": tournament.points_scheme,
        "public": "on",
        "scans_at_once": "on",
    }
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert tournament.scans_at_once


def test_the_tables_confirm_press_by_the_uploader_does_not_say_confirmed(
    client, tournament, organizer, made
):
    """The same press on the table's result page: the uploader's check is
    not called a confirmation; his second press is refused."""
    setting(tournament, confirmation_required=True)
    pile = read_pile(tournament, organizer, {2: valid_values("quartett", 4)})
    sub = pile.pages.get().submission
    client.force_login(organizer)
    url = reverse("result_confirm", args=[tournament.pk, 3, 2, sub.version])
    html = client.post(url, follow=True).content.decode()
    assert "it counts once someone else confirms it" in html
    assert "version 1 confirmed" not in html.lower()
    sub.refresh_from_db()
    assert sub.status == Submission.PENDING
    html = client.post(url, follow=True).content.decode()
    assert "You checked this result read from the scan yourself" in html
    assert sub.confirmations.count() == 1


def test_at_once_the_pile_page_shows_the_results_confirmed_and_no_press(
    client, tournament, organizer, made
):
    setting(tournament, scans_at_once=True)
    pile = read_pile(tournament, organizer, {2: valid_values("quartett", 4)})
    client.force_login(organizer)
    html = client.get(reverse("scan_pile", args=[tournament.pk, 3, pile.pk])).content.decode()
    assert "read · confirmed" in html
    assert "/confirm/" not in html and "second person" not in html


def test_second_person_switched_off_meanwhile_the_uploader_may_press_again(
    client, tournament, organizer, made
):
    setting(tournament, confirmation_required=True)
    pile = read_pile(tournament, organizer, {2: valid_values("quartett", 4)})
    scans.pile_confirm(pile=pile, by=organizer)
    setting(tournament, confirmation_required=False)
    client.force_login(organizer)
    url = reverse("scan_pile", args=[tournament.pk, 3, pile.pk])
    assert "Confirm 1 result read from the scan" in client.get(url).content.decode()
    pile = ScanPile.objects.get(pk=pile.pk)  # as the next request reads it
    assert scans.pile_confirm(pile=pile, by=organizer).confirmed == 1
