"""Every page type, in German and English, is HTML a browser and a screen
reader can rely on: no id used twice on a page (a label, an aria reference
or a script would find the wrong element), no ``<label for="">`` and no
label pointing at an id the page does not have, no ``aria-describedby`` or
``aria-labelledby`` naming an id the page does not have (a field's help text
a screen reader would never read), and every page names its icon (no 404
for a favicon on every page)."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest
from django.test import Client

from tests import page_types
from tournaments.services import deadlines

pytestmark = pytest.mark.django_db


class Ids(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: Counter[str] = Counter()
        self.label_for: list[str] = []
        #: (attribute, id) of every aria reference
        self.aria_refs: list[tuple[str, str]] = []
        self.icons: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids[attrs["id"] or ""] += 1
        if tag == "label" and "for" in attrs:
            self.label_for.append(attrs["for"] or "")
        for name in ("aria-describedby", "aria-labelledby"):
            self.aria_refs += [(name, ref) for ref in (attrs.get(name) or "").split()]
        if tag == "link" and "icon" in (attrs.get("rel") or "").split():
            self.icons.append(attrs.get("href") or "")

    handle_startendtag = handle_starttag


def problems(html: str) -> list[str]:
    parsed = Ids()
    parsed.feed(html)
    parsed.close()
    found = [f"id {k!r} {n} times" for k, n in parsed.ids.items() if n > 1]
    found += ["an empty id"] * parsed.ids[""]
    for target in parsed.label_for:
        if not target.strip():
            found.append('<label for="">')
        elif target not in parsed.ids:
            found.append(f'<label for="{target}"> names no element of the page')
    for name, ref in parsed.aria_refs:
        if ref not in parsed.ids:
            found.append(f'{name}="{ref}" names no element of the page')
    if not parsed.icons:
        found.append("no <link rel=icon>")
    return found


@pytest.fixture(autouse=True)
def _no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def test_every_page_type_has_unique_ids_and_labels_that_point_somewhere(organizer):
    pages = page_types.build(organizer)
    staff, anyone = Client(), Client()
    staff.force_login(organizer)
    found = {}
    for language in ("de", "en"):
        for page in pages:
            client = staff if page.staff else anyone
            response = client.get(page.path, HTTP_ACCEPT_LANGUAGE=language, follow=True)
            bad = problems(response.content.decode())
            if response.status_code != page.status:
                bad.append(f"status {response.status_code}")
            if bad:
                found[f"{page.name} ({language}) {page.path}"] = bad
    assert not found, "\n".join(f"{where}: {', '.join(bad)}" for where, bad in found.items())


def test_the_check_finds_what_it_looks_for():
    html = (
        '<html><head></head><body><svg><path id="qr-path"/></svg><svg><path id="qr-path"/>'
        '</svg><label for="">Name</label><label for="missing">x</label>'
        '<input aria-describedby="qr-path id_x_helptext"></body></html>'
    )
    assert problems(html) == [
        "id 'qr-path' 2 times",
        '<label for="">',
        '<label for="missing"> names no element of the page',
        'aria-describedby="id_x_helptext" names no element of the page',
        "no <link rel=icon>",
    ]
