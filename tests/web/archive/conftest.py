"""The browser fixtures of tests/web/test_browser.py (Chromium, a page per session), shared here,
and a fresh Academy job queue for every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from amigos.web.archive.services import academy_jobs
from tests.web.test_browser import chromium, open_page  # noqa: F401


@pytest.fixture(autouse=True)
def fresh_academy_queue(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Jobs are kept by (player, match, position): the test databases reuse ids, so a job finished
    in one test must not answer for another test's different match of the same id."""
    monkeypatch.setattr(academy_jobs, "registry", academy_jobs.JobRegistry(academy_jobs._processes))
    yield
