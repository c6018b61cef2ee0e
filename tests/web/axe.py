"""axe-core in the browser tests: the serious and critical accessibility findings of a page.

axe-core's script ships inside the ``axe-playwright-python`` wheel, so the check needs no network
once the dev dependencies are installed. Playwright injects it through the DevTools protocol,
which the site's Content-Security-Policy does not apply to, so the page under test is exactly what
a player gets (no policy loosened for the test).

Only "serious" and "critical" findings fail a test: those block or mislead a keyboard or
screen-reader user. "moderate" and "minor" ones are advice, and a test that failed on them would
be switched off rather than obeyed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from axe_playwright_python.sync_playwright import Axe

FAILING_IMPACTS = frozenset({"serious", "critical"})
# Viewports every page is checked at: a common phone and a small laptop.
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

_AXE = Axe()
# axe's "preload" re-reads every stylesheet to look for a CSS orientation lock, and it inlines the
# ones a sheet @imports (Django's admin does) as <style> elements, which the site's CSP rightly
# blocks; the browser tests fail on any CSP report, so the preload is off. The site has no
# orientation lock to find, and the other rules do not use the preload.
OPTIONS = {"resultTypes": ["violations"], "preload": False}


@dataclass(frozen=True)
class Finding:
    """One failing axe rule on one page, with the elements that break it (CSS selectors)."""

    rule: str
    impact: str
    help: str
    targets: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.rule} ({self.impact}): {self.help} -> {', '.join(self.targets[:5])}"


def findings(page: Any) -> list[Finding]:
    """The serious and critical axe-core violations of the page as it is now (after its scripts)."""
    results = _AXE.run(page, options=OPTIONS)
    found = []
    for violation in results.response["violations"]:
        if violation.get("impact") not in FAILING_IMPACTS:
            continue
        targets = tuple(" ".join(map(str, node["target"])) for node in violation["nodes"])
        found.append(Finding(violation["id"], violation["impact"], violation["help"], targets))
    return found


def assert_accessible(page: Any, known: frozenset[str] = frozenset()) -> None:
    """Fail with a readable list unless every serious/critical finding's rule is in ``known``.

    ``known`` exists for pages another branch owns and is fixing; an empty set (the default) means
    the page must be clean.
    """
    unexpected = [finding for finding in findings(page) if finding.rule not in known]
    assert unexpected == [], f"{page.url}:\n" + "\n".join(map(str, unexpected))
