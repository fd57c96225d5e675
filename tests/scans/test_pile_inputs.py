"""Bad input to a scan pile gets its reason and changes nothing: a file
that is no image or PDF, one too large, a 500-page PDF and a decompression
bomb are refused before anything is decoded (no pile stored); a blank page,
a photo of something else and two sheets on one photo are refused page by
page with their reason, and no result is stored from them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scoring.models import Submission
from scoring.scans import services as scans
from scoring.scans.models import ScanPage, ScanPile
from tests.scans.filled import filled_pages, pdf, png, valid_values
from tests.scans.test_reader import many_pages, pdf_with_image, png_header
from tests.scoring import handmade

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(tournament, organizer):
    return handmade.build(tournament, organizer)


def start(tournament, organizer, data: bytes) -> ScanPile:
    rnd = tournament.round_set.get(number=3)
    return scans.pile_start(rnd=rnd, by=organizer, data=data, name="x", language="de")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"Name;Verein\nAnna;SC\n", "not_image_or_pdf"),
        (b"GIF89a" + b"\0" * 100, "not_image_or_pdf"),
        (b"\xff\xd8\xff\xe0" + b"\0" * (50 * 1024 * 1024), "too_large"),
        (many_pages(500), "too_many_pages"),
        (b"%PDF-1.4 broken", "unreadable_file"),
    ],
    ids=["csv", "gif", "50MB", "500-pages", "pdf-broken"],
)
def test_a_file_refused_as_a_whole_stores_no_pile(tournament, organizer, made, data, reason):
    with pytest.raises(scans.PileRefused) as refused:
        start(tournament, organizer, data)
    assert refused.value.reason == reason
    assert str(refused.value) == scans.reason_text(reason) != reason
    assert not ScanPile.objects.exists()


def test_a_decompression_bomb_is_refused_before_it_is_decoded(tournament, organizer, made):
    """A PNG bomb is refused by its header; a PDF whose page holds a bomb
    image: that page is refused, nothing decoded, no result stored."""
    pile = start(tournament, organizer, png_header(40_000, 40_000))
    scans.run(pile.pk)
    pile.refresh_from_db()
    assert (pile.status, pile.reason) == (ScanPile.FAILED, "decompression_bomb")
    assert not pile.pages.exists()
    pile = start(tournament, organizer, pdf_with_image(60_000, 60_000))
    scans.run(pile.pk)
    (page,) = ScanPage.objects.filter(pile=pile)
    assert (page.outcome, page.reason) == (ScanPage.REFUSED, "decompression_bomb")
    assert not Submission.objects.filter(source="scan").exists()


def photo_of_something_else() -> np.ndarray:
    rng = np.random.default_rng(2)
    photo = np.full((1500, 2000), 120, np.uint8)
    for _ in range(40):
        p = rng.integers(0, 2000, 2)
        q = p + rng.integers(20, 300, 2)
        cv2.rectangle(photo, tuple(map(int, p)), tuple(map(int, q)), int(rng.integers(255)), -1)
    cv2.putText(photo, "Speisekarte", (300, 700), cv2.FONT_HERSHEY_SIMPLEX, 4, 20, 8)
    return photo


def test_a_blank_page_another_photo_and_two_sheets_are_refused_with_their_reason(
    tournament, organizer, made
):
    values = valid_values("quartett", 4)
    a, b = filled_pages(tournament, 3, {1: values, 2: values})
    h = min(a.shape[0], b.shape[0])
    both = np.hstack([a[:h], np.full((h, 40), 230, np.uint8), b[:h]])
    blank = np.full((1654, 1169), 245, np.uint8)
    pile = start(tournament, organizer, pdf([blank, photo_of_something_else(), both]))
    scans.run(pile.pk)
    reasons = list(ScanPage.objects.filter(pile=pile).values_list("outcome", "reason"))
    assert reasons == [
        (ScanPage.REFUSED, "blank_page"),
        (ScanPage.REFUSED, "not_a_sheet"),
        (ScanPage.REFUSED, "two_sheets"),
    ]
    assert not Submission.objects.filter(source="scan").exists()
    for _outcome, reason in reasons:
        assert scans.reason_text(reason) != reason


def test_a_sheet_of_another_tournament_is_refused_with_its_reason(
    tournament, organizer, made, django_user_model
):
    from tournaments import services as tservices

    values = valid_values("quartett", 4)
    data = png(filled_pages(tournament, 3, {2: values})[0])
    other_owner = django_user_model.objects.create_user("o2", password="pw-o2-123456789")
    other = tservices.tournament_create(owner=other_owner, name="Anderes", game="quartett")
    other_round = handmade.build(other, other_owner) and other.round_set.get(number=3)
    pile = scans.pile_start(rnd=other_round, by=other_owner, data=data, name="x", language="de")
    scans.run(pile.pk)
    (page,) = ScanPage.objects.filter(pile=pile)
    assert (page.outcome, page.reason) == (ScanPage.REFUSED, "other_tournament")
    assert not Submission.objects.filter(source="scan").exists()
