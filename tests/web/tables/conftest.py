"""Browser fixtures for the table screen: the site's own Chromium fixtures, shared."""

from __future__ import annotations

from tests.web.test_browser import chromium, open_page

__all__ = ["chromium", "open_page"]
