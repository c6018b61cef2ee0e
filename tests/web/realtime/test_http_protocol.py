"""The site's HTTP protocol (amigos.web.realtime.http_protocol): a connection that becomes a
WebSocket leaves its HTTP half to reference counting, not to the cycle collector."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from amigos.web.realtime.http_protocol import SiteHttpProtocol
from tests.web.conftest import ServerThread, SignedIn
from tests.web.test_socket import connect, of_type


@pytest.fixture
def no_automatic_collection() -> Iterator[None]:
    """With the collector on, a cycle could be freed by chance before the test looks."""
    enabled = gc.isenabled()
    gc.disable()
    yield
    if enabled:
        gc.enable()


def test_uvicorn_still_drops_the_parser_the_same_way() -> None:
    """The subclass does at the upgrade what uvicorn's `connection_lost` does: a new uvicorn that
    stopped keeping the parser in `parser` would need another change."""
    assert "parser" in HttpToolsProtocol.connection_lost.__code__.co_names
    assert "handle_websocket_upgrade" in HttpToolsProtocol.data_received.__code__.co_names


@pytest.mark.django_db(transaction=True)
async def test_an_upgraded_connection_leaves_no_cycle(
    site_server: ServerThread,
    sign_in: Callable[..., SignedIn],
    monkeypatch: pytest.MonkeyPatch,
    no_automatic_collection: None,
) -> None:
    made: list[weakref.ref[SiteHttpProtocol]] = []
    original = SiteHttpProtocol.__init__

    def watched(self: SiteHttpProtocol, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        made.append(weakref.ref(self))

    monkeypatch.setattr(SiteHttpProtocol, "__init__", watched)
    player = await sync_to_async(sign_in)()
    peer = await connect(site_server, player)
    await peer.expect(of_type("welcome"))
    assert made, "the server did not use the site's HTTP protocol"
    assert [ref for ref in made if ref() is not None] == []
    await peer.connection.close()
