"""axe-core, the accessibility checker, on every page type of the site in
German, on a phone (390×844) and a laptop (1280×800), the projector and
spectator pages also at 1920×1080: no violation of
impact "critical" or "serious" (colour contrast, names of buttons and
links, labels, keyboard access, touch targets of at least 24×24 CSS pixels
(``target-size``, off in axe by default), ...), nor of the rules about
landmarks, headings and table headers.

The same walk saves each page's HTML as the server sent it and runs the Nu
HTML Checker (vnu, the W3C's validator) once over the folder: no error but
the ones ``NU_ALLOWED`` lists with their reason.

axe-core and vnu.jar are the npm packages pinned in
``tests/browser/axe/package.json`` (its lock file fixes the exact versions;
``npm ci --prefix tests/browser/axe``, which ``.ci/run`` and ``make axe``
run); vnu runs on the machine's Java (11 or later). axe is evaluated in each
page as a script of Playwright's, beside the site's Content-Security-Policy."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests import page_types
from tests.browser import sessions
from tests.conftest import missing_service
from tournaments.services import deadlines

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MODULES = Path(__file__).parent / "axe" / "node_modules"

VNU = MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
VIEWPORTS = {
    "phone": {"width": 390, "height": 844},
    "laptop": {"width": 1280, "height": 800},
    "projector": {"width": 1920, "height": 1080},
}
#: the pages of a screen in the hall, the only ones checked at 1920×1080
HALL = ("projector", "spectator")
#: the impacts that fail the test
BLOCKING = ("critical", "serious")
#: and these rules whatever their impact: the ones a screen reader user of
#: this site ran into (two navigations of one name, a projector and a
#: spectator view without a heading, empty column headers, ...)
ALSO = {
    "landmark-unique",
    "landmark-one-main",
    "region",
    "page-has-heading-one",
    "empty-table-header",
    "heading-order",
    "target-size",
}

#: the Nu checker's errors that are not faults, each with its reason
NU_ALLOWED = {
    # htmx's attributes (hx-get, hx-post, hx-target, hx-swap, hx-trigger,
    # ...): the page's behaviour, which the HTML standard does not know
    "htmx attributes": re.compile(r"^Attribute “hx-[a-z-]+” not allowed on element"),
}

RUN = """async () => {
  const result = await axe.run(document, {
    resultTypes: ['violations'], rules: {'target-size': {enabled: true}},
  });
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map(n => n.target.join(' ') + (n.failureSummary ?
      ' — ' + n.failureSummary.split('\\n').slice(1).join(' ').trim() : '')),
  }));
}"""


@pytest.fixture(scope="module")
def vnu() -> list[str]:
    """The command that runs the Nu HTML Checker."""
    java = shutil.which("java")
    if java is None:
        missing_service("Java 11+ for the Nu HTML Checker (apt-get install default-jre-headless)")
    if not VNU.exists():
        missing_service("vnu.jar (npm ci --prefix tests/browser/axe)")
    return [java, "-jar", str(VNU)]


@pytest.fixture(autouse=True)
def _no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def violations(page, axe_source) -> list[dict]:
    # the page's CSP refuses inline script (add_script_tag's content): the
    # context bypasses it, and the source runs as Playwright's own script
    page.evaluate(axe_source)
    return page.evaluate(RUN)


def nu_errors(vnu: list[str], folder: Path) -> list[dict]:
    """The Nu checker's errors in the HTML files of the folder, run once for
    all of them, but the allowed ones."""
    run = subprocess.run(
        [*vnu, "--format", "json", "--errors-only", "--exit-zero-always", str(folder)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    messages = json.loads(run.stderr or run.stdout)["messages"]
    return [
        m
        for m in messages
        if m.get("type") != "info"
        and not any(rule.search(m.get("message", "")) for rule in NU_ALLOWED.values())
    ]


def nu_report(errors: list[dict], names: dict[str, str]) -> str:
    lines = []
    for m in errors:
        where = names.get(Path(m.get("url", "")).name, m.get("url", ""))
        lines.append(f"{where}:{m.get('lastLine', '?')}: {m.get('message')}")
        if m.get("extract"):
            lines.append(f"    {m['extract'].strip()[:160]}")
    return "\n".join(lines)


def report(found: dict[str, list[dict]]) -> str:
    lines = []
    for where, items in found.items():
        for v in items:
            lines.append(f"{where}: {v['id']} ({v['impact']}) {v['help']}, {len(v['targets'])}×")
            lines.extend(f"    {t}" for t in v["targets"][:6])
    return "\n".join(lines)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_every_page_type_has_no_serious_accessibility_violation(
    axe_source, vnu, browser, live_server, organizer, viewport, tmp_path
):
    pages = page_types.build(organizer)
    if viewport == "projector":
        pages = [p for p in pages if p.name.startswith(HALL)]
    size = VIEWPORTS[viewport]
    staff = sessions.logged_in_context(
        browser, live_server, organizer, locale="de-DE", viewport=size, bypass_csp=True
    )
    anyone = browser.new_context(locale="de-DE", viewport=size, bypass_csp=True)
    found: dict[str, list[dict]] = {}
    checked = 0
    #: the HTML is the server's whatever the viewport: the Nu checker reads the
    #: phone walk's (which visits every page type)
    saved: dict[str, str] = {}
    try:
        for spec in pages:
            context = staff if spec.staff else anyone
            page = context.new_page()
            page.set_default_timeout(15_000)
            response = page.goto(live_server.url + spec.path)
            assert response.status == spec.status, spec
            assert page.evaluate("document.documentElement.lang") == "de", spec
            if viewport == "phone":
                name = f"{len(saved):03d}.html"
                (tmp_path / name).write_text(response.text(), encoding="utf-8")
                saved[name] = f"{spec.name} {spec.path}"
            bad = [
                v
                for v in violations(page, axe_source)
                if v["impact"] in BLOCKING or v["id"] in ALSO
            ]
            if bad:
                found[f"{spec.name} {spec.path}"] = bad
            checked += 1
            page.close()
    finally:
        staff.close()
        anyone.close()
    assert checked == len(pages) >= (9 if viewport == "projector" else 50)
    errors = nu_errors(vnu, tmp_path) if saved else []
    elements = sum(len(v["targets"]) for items in found.values() for v in items)
    assert not found and not errors, (
        f"\naxe: {elements} elements on {len(found)} pages\n{report(found)}"
        f"\nNu: {len(errors)} errors\n{nu_report(errors, saved)}"
    )


def test_the_nu_checker_reports_what_the_walk_must_not_let_through(vnu, tmp_path):
    """The filter lets htmx's attributes through, and nothing else: a
    ``<time>`` whose text is no date and a list inside ``<small>`` fail."""
    (tmp_path / "page.html").write_text(
        '<!DOCTYPE html><html lang="de"><head><meta charset="utf-8"><title>x</title></head>'
        '<body><div hx-get="/x" hx-trigger="every 1s">a</div>'
        "<p><time>28.11.2026 22:33</time></p><small><ul><li>b</li></ul></small></body></html>",
        encoding="utf-8",
    )
    messages = [m["message"] for m in nu_errors(vnu, tmp_path)]
    assert len(messages) == 2, messages
    assert "“time”" in messages[0] and "“ul”" in messages[1], messages


def test_a_field_is_described_by_its_help_text(browser, live_server):
    """A screen reader reads a field's help text with the field: the sign-up
    form in German on a phone, the password's rules a list."""
    from playwright.sync_api import expect

    context = browser.new_context(locale="de-DE", viewport=VIEWPORTS["phone"], bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/accounts/signup/")
        expect(page.locator("#id_username")).to_have_accessible_description(
            re.compile("150 Zeichen oder weniger")
        )
        password = page.locator("#id_password1")
        expect(password).to_have_accessible_description(re.compile("mindestens 8 Zeichen"))
        assert page.locator("#id_password1_helptext li").count() >= 2
    finally:
        context.close()
