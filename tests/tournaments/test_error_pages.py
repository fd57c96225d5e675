"""403, 404 and 500 are real pages in the site's layout that say what
happened and where to go, not the bare defaults."""

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation


@pytest.mark.django_db
def test_403_is_a_page_in_the_site_layout(client, tournament, other_user):
    client.force_login(other_user)
    response = client.get(reverse("tournament_edit", args=[tournament.pk]))
    assert response.status_code == 403
    html = response.content.decode()
    assert 'class="brand"' in html and "You can't open this page" in html
    assert reverse("tournament_list") in html and "scorekeeper" in html


@pytest.mark.django_db
def test_403_and_404_in_german(client, tournament, other_user):
    client.force_login(other_user)
    client.cookies["django_language"] = "de"
    html = client.get(reverse("tournament_edit", args=[tournament.pk])).content.decode()
    assert "Diese Seite können Sie nicht öffnen" in html
    response = client.get("/t/99999/")
    assert response.status_code == 404
    assert "Seite nicht gefunden" in response.content.decode()


@pytest.mark.django_db
def test_404_is_a_page_in_the_site_layout(client):
    response = client.get("/t/99999/")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'class="brand"' in html and "Page not found" in html


def test_500_renders_without_a_request_or_database():
    with translation.override("de"):
        html = render_to_string("500.html")
    assert "Etwas ist schiefgegangen" in html and "css/site.css" in html


@pytest.mark.django_db
def test_a_stale_form_gets_a_page_that_says_what_to_do(organizer, tournament):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(organizer)
    response = client.post(reverse("player_add", args=[tournament.pk]), {"name": "Anna"})
    assert response.status_code == 403
    html = response.content.decode()
    assert 'class="brand"' in html and "Please send the form again" in html
    assert tournament.players.count() == 0
