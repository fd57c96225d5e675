"""A pile of scanned sheets through the result path: a page read for sure is
stored as a result "read from scan" waiting for the pile's one press; the
same sheet twice adds nothing; a differing result, an unsure field, another
round's sheet each say why; a bad file stores nothing."""

from __future__ import annotations

import pytest

from scoring.models import Submission
from scoring.scans import services as scans
from scoring.scans.models import ScanPage, ScanPile
from tests.scans.filled import filled_pages, pdf, png, valid_values
from tests.scoring import handmade
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(tournament, organizer):
    return handmade.build(tournament, organizer)


def upload(tournament, organizer, data: bytes, round_no: int = 3) -> ScanPile:
    rnd = tournament.round_set.get(number=round_no)
    pile = scans.pile_start(rnd=rnd, by=organizer, data=data, name="pile.pdf", language="en")
    assert scans.run(pile.pk) == ScanPile.DONE
    pile.refresh_from_db()
    return pile


def test_a_read_sheet_waits_for_the_piles_press_then_counts(tournament, organizer, made):
    values = valid_values("quartett", 4)
    pile = upload(tournament, organizer, pdf(filled_pages(tournament, 3, {2: values})))
    (page,) = pile.pages.all()
    assert (page.outcome, page.table.number) == (ScanPage.STORED, 2)
    sub = page.submission
    assert (sub.source, sub.status, sub.sheet) == ("scan", Submission.PENDING, values)
    assert bytes(page.image)[:3] == b"\xff\xd8\xff" and page.straight
    assert pile.data == b"" or bytes(pile.data) == b""
    pressed = scans.pile_confirm(pile=pile, by=organizer)
    assert (pressed.confirmed, pressed.checked, pressed.problems) == (1, 0, [])
    sub.refresh_from_db()
    assert sub.status == Submission.CONFIRMED


def test_the_same_sheet_twice_adds_nothing(tournament, organizer, made):
    values = valid_values("quartett", 4)
    data = png(filled_pages(tournament, 3, {2: values})[0])
    upload(tournament, organizer, data)
    again = upload(tournament, organizer, data)
    (page,) = again.pages.all()
    assert page.outcome == ScanPage.SAME
    assert Submission.objects.filter(table=page.table).count() == 1


def test_a_sheet_that_differs_from_the_tables_result_is_a_conflict_to_review(
    tournament, organizer, made
):
    values = valid_values("quartett", 4)
    pile = upload(tournament, organizer, png(filled_pages(tournament, 3, {1: values})[0]))
    (page,) = pile.pages.all()
    assert (page.outcome, page.reason) == (ScanPage.REVIEW, "conflict")
    assert page.problems and page.values() == values
    assert not Submission.objects.filter(table=page.table, source="scan").exists()


def test_a_sheet_of_another_round_is_refused_with_its_reason(tournament, organizer, made):
    values = valid_values("quartett", 4)
    data = png(filled_pages(tournament, 2, {2: values})[0])
    pile = upload(tournament, organizer, data, round_no=3)
    (page,) = pile.pages.all()
    assert (page.outcome, page.reason) == (ScanPage.REFUSED, "other_round")
    assert "another round" in scans.reason_text(page.reason)
    assert not Submission.objects.filter(source="scan").exists()


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"just some text, not a scan", "not_image_or_pdf"),
        (b"%PDF-1.4 broken", "unreadable_file"),
    ],
)
def test_a_bad_file_is_refused_and_nothing_is_stored(tournament, organizer, made, data, reason):
    rnd = tournament.round_set.get(number=3)
    with pytest.raises(scans.PileRefused) as refused:
        scans.pile_start(rnd=rnd, by=organizer, data=data, name="x", language="en")
    assert refused.value.reason == reason and str(refused.value)
    assert not ScanPile.objects.exists()


def test_a_sheet_the_engine_refuses_waits_for_review_with_the_rules_reason(
    tournament, organizer, made, client
):
    """Read for sure but impossible by the game's rules: the same check as a
    typed sheet refuses it, nothing is stored, and the review opens the form
    pre-filled with what was read and the engine's problems."""
    from django.urls import reverse
    from django.utils.html import escape

    values = valid_values("quartett", 4)
    first, field = [k for k, v in values.items() if k.endswith("_out_order") and v][:2]
    wrong = {**values, field: values[first]}  # two players out in the same place
    pile = upload(tournament, organizer, png(filled_pages(tournament, 3, {2: wrong})[0]))
    (page,) = pile.pages.all()
    assert (page.outcome, page.reason) == (ScanPage.REVIEW, "invalid")
    assert page.values() == wrong and page.problems
    assert not Submission.objects.filter(table=page.table).exists()
    client.force_login(organizer)
    form = client.get(
        reverse("result_entry", args=[tournament.pk, 3, 2]) + f"?scan={page.pk}"
    ).content.decode()
    assert f'name="sheet-{field}"' in form and f'value="{wrong[field]}"' in form
    assert escape(scans.reason_text("invalid")) in form and escape(page.problems[0]) in form


def a_table_of_three(made) -> int:
    """Round 3 gets a third table, of three players (the late ones)."""
    from tournaments.models import Seat, Table

    table = Table.objects.create(round=made["rounds"][3], number=3)
    for pos, k in enumerate("ZOD"):
        Seat.objects.create(table=table, player=made["players"][k], position=pos)
    return table.number


def test_a_sheet_whose_code_cant_be_read_is_read_once_staff_pick_its_table(
    tournament, organizer, made
):
    values = valid_values("quartett", 4)
    data = png(filled_pages(tournament, 3, {2: values}, blotted={2})[0])
    pile = upload(tournament, organizer, data)
    (page,) = pile.pages.all()
    assert (page.outcome, page.reason, page.table) == (ScanPage.REVIEW, "code_unreadable", None)
    page, unread = scans.page_pick_table(page=page, number=2)
    assert unread == ""
    page.refresh_from_db()
    assert (page.outcome, page.table.number, page.values()) == (ScanPage.STORED, 2, values)
    assert page.straight and scans.crop(page, next(iter(values)))  # a crop for the form
    sub = page.submission
    assert (sub.source, sub.status, sub.sheet) == ("scan", Submission.PENDING, values)
    pressed = scans.pile_confirm(pile=pile, by=organizer)
    assert (pressed.confirmed, pressed.problems) == (1, [])


def test_a_picked_table_of_another_size_is_refused_with_its_reason_and_nothing_changes(
    tournament, organizer, made
):
    three = a_table_of_three(made)
    values = valid_values("quartett", 3)
    data = png(filled_pages(tournament, 3, {three: values}, blotted={three})[0])
    pile = upload(tournament, organizer, data)
    (page,) = pile.pages.all()
    assert page.reason == "code_unreadable"
    with pytest.raises(scans.NotThisSheet) as refused:
        scans.page_pick_table(page=page, number=2)
    assert "not the sheet of table 2" in str(refused.value) and "4 players" in str(refused.value)
    page.refresh_from_db()
    assert (page.outcome, page.reason, page.table, page.fields) == (
        ScanPage.REVIEW,
        "code_unreadable",
        None,
        {},
    )
    assert not Submission.objects.filter(source="scan").exists()
    page, unread = scans.page_pick_table(page=page, number=three)
    assert (unread, page.outcome, page.values()) == ("", ScanPage.STORED, values)


def test_a_picked_table_not_of_the_round_or_a_page_already_placed_is_refused(
    tournament, organizer, made
):
    values = valid_values("quartett", 4)
    pile = upload(tournament, organizer, png(filled_pages(tournament, 3, {2: values})[0]))
    (read,) = pile.pages.all()
    with pytest.raises(ServiceError):
        scans.page_pick_table(page=read, number=1)  # its code named its table: 2
    data = png(filled_pages(tournament, 3, {2: values}, blotted={2})[0])
    (page,) = upload(tournament, organizer, data).pages.all()
    with pytest.raises(ServiceError):
        scans.page_pick_table(page=page, number=9)
    page.refresh_from_db()
    assert (page.outcome, page.table) == (ScanPage.REVIEW, None)
