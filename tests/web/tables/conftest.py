"""Fixtures shared by the table server's tests: the registry's actors stopped after each test, the
fake clock the actors read, and the site's own Chromium fixtures for the table screen.

A module whose every test needs one says so once: ``pytestmark = [..., pytest.mark.usefixtures(
"fresh_registry")]`` (or ``"fake_clock"``, which brings the other with it)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from amigos.web.tables import forwarding, registry
from tests.web.tables.support import FakeClock, PublishedHub
from tests.web.test_browser import chromium, open_page

__all__ = ["chromium", "fake_clock", "fresh_registry", "hub", "open_page", "screen_clock"]


@pytest.fixture
async def fresh_registry() -> AsyncIterator[None]:
    """The actors of this test's loop read the real clock, and none outlives the test, even a failed
    one (it would hold the database during teardown)."""
    registry.use_clock(None)
    yield
    await registry.stop_all()
    registry.use_clock(None)


@pytest.fixture
def fake_clock(fresh_registry: None) -> FakeClock:
    """The clock of the actors this test builds: it moves only when the test advances it. The
    actors are stopped after the test (`fresh_registry`)."""
    clock = FakeClock()
    registry.use_clock(clock)
    return clock


@pytest.fixture
def screen_clock() -> Iterator[FakeClock]:
    """`fake_clock` for a browser test: the actors run in the test server's loop (which stops
    them), and nobody's time runs out while browsers share the machine's cores."""
    clock = FakeClock()
    registry.use_clock(clock)
    yield clock
    registry.use_clock(None)


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> PublishedHub:
    """What `forwarding` publishes, kept instead of sent."""
    fake = PublishedHub()
    monkeypatch.setattr(forwarding, "get_hub", lambda: fake)
    return fake
