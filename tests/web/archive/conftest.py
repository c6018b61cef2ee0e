"""The browser fixtures of tests/web/test_browser.py (Chromium, a page per session), shared here."""

from __future__ import annotations

from tests.web.test_browser import chromium, open_page  # noqa: F401
