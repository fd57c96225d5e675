"""A seated round's next step names its prints: the overview and the round
page link to the round's score sheets and seating list (the print page's
URLs), and those links deliver the PDFs."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import seated_round

pytestmark = pytest.mark.django_db


def _prints(tournament, number):
    return [
        reverse("print_round", args=[tournament.pk, number, kind]) for kind in ("sheets", "seating")
    ]


def test_the_overview_and_the_round_page_link_a_seated_rounds_prints(client, tournament, organizer):
    rnd = seated_round(tournament, players=8)
    client.force_login(organizer)
    overview = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    page = client.get(reverse("round_detail", args=[tournament.pk, rnd.number])).content.decode()
    assert "start its clock" in page
    for url in _prints(tournament, rnd.number):
        assert f'href="{url}"' in overview
        assert f'href="{url}"' in page
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


def test_a_running_round_page_no_longer_asks_to_print(client, tournament, organizer):
    rnd = seated_round(tournament, players=8, start=True)
    client.force_login(organizer)
    page = client.get(reverse("round_detail", args=[tournament.pk, rnd.number])).content.decode()
    assert 'id="round-prints"' not in page
