"""axe-core, the accessibility checker, on every page type of the site in
German, on a phone (390×844) and a laptop (1280×800), the projector and
spectator pages also at 1920×1080: no violation of
impact "critical" or "serious" (colour contrast, names of buttons and
links, labels, keyboard access, ...), nor of the rules about landmarks,
headings and table headers.

axe-core is the npm package pinned in ``tests/browser/axe/package.json``
(its lock file fixes the exact version; ``npm ci --prefix tests/browser/axe``,
which ``.ci/run`` and ``make test`` run). It is evaluated in each page as a
script of Playwright's, beside the site's Content-Security-Policy."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import page_types
from tests.browser import sessions
from tests.conftest import missing_service
from tournaments.services import deadlines

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
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
}

RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map(n => n.target.join(' ') + (n.failureSummary ?
      ' — ' + n.failureSummary.split('\\n').slice(1).join(' ').trim() : '')),
  }));
}"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        missing_service("axe-core (npm ci --prefix tests/browser/axe)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def _no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def violations(page, axe_source) -> list[dict]:
    # the page's CSP refuses inline script (add_script_tag's content): the
    # context bypasses it, and the source runs as Playwright's own script
    page.evaluate(axe_source)
    return page.evaluate(RUN)


def report(found: dict[str, list[dict]]) -> str:
    lines = []
    for where, items in found.items():
        for v in items:
            lines.append(f"{where}: {v['id']} ({v['impact']}) {v['help']}")
            lines.extend(f"    {t}" for t in v["targets"][:6])
    return "\n".join(lines)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_every_page_type_has_no_serious_accessibility_violation(
    axe_source, browser, live_server, organizer, viewport
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
    try:
        for spec in pages:
            context = staff if spec.staff else anyone
            page = context.new_page()
            page.set_default_timeout(15_000)
            response = page.goto(live_server.url + spec.path)
            assert response.status == spec.status, spec
            assert page.evaluate("document.documentElement.lang") == "de", spec
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
    assert not found, "\n" + report(found)
