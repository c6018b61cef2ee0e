"""A socket's frames held for a command's answer (`SiteSocket.hold_frames`): whatever happens in
between, every frame leaves once, in order, and nothing stays held once the command is answered."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from amigos.web.realtime.consumer import SiteSocket
from amigos.web.realtime.outgoing import HELD_LIMIT, OUTBOX_LIMIT


class Wire:
    """The transport as `send_texts_now` sees it: each call is one write of its frames, refused
    while the transport is full (then the socket's writer, modelled by `drain`, sends them)."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.full = False

    def __call__(self, texts: list[str]) -> bool:
        if self.full:
            return False
        self.writes.append(list(texts))
        return True


def quiet_socket(wire: Wire) -> SiteSocket:
    """A socket as `websocket_connect` leaves it, writing to ``wire``; its writer task is not
    started (the test plays the writer's part in `drain`)."""
    socket = SiteSocket()
    socket.seq = 0
    socket._closed = False
    socket._close_code = 1000
    socket.outbox = []
    socket._writing = False
    socket._answering = False
    socket._held = None
    socket._send_now = wire

    def no_task(work: Coroutine[Any, Any, None]) -> None:
        work.close()

    socket._spawn = no_task  # type: ignore[method-assign]
    return socket


def drain(socket: SiteSocket, wire: Wire) -> None:
    """The writer's part once the transport takes bytes again: the queued frames, one by one."""
    for text in socket.outbox:
        assert text is not None
        wire.writes.append([text])
    socket.outbox.clear()
    socket._writing = False


def frame(n: int) -> str:
    """The n-th frame a test pushes (numbered from 0; its seq is n + 1)."""
    return f'{{"type":"x.event","seq":{n + 1},"payload":{{"n":{n}}}}}'


def sent(wire: Wire) -> list[str]:
    return [text for write in wire.writes for text in write]


def test_outside_a_command_holding_does_nothing() -> None:
    wire = Wire()
    socket = quiet_socket(wire)
    socket.hold_frames()
    socket.push_json("x.one", "{}")
    assert socket._held is None and len(wire.writes) == 1


def test_held_frames_leave_with_the_answer_in_one_write() -> None:
    wire = Wire()
    socket = quiet_socket(wire)
    socket._answering = True
    socket.hold_frames()
    for n in range(3):
        socket.push_json("x.event", f'{{"n":{n}}}')
    assert wire.writes == []
    socket.push_json("ack", '{"reply_to":1}')
    socket._answering = False
    socket._release_held()
    assert len(wire.writes) == 1 and len(wire.writes[0]) == 4
    assert '"ack"' in wire.writes[0][-1]


def test_a_full_hold_lets_its_frames_go_in_order() -> None:
    wire = Wire()
    socket = quiet_socket(wire)
    socket._answering = True
    socket.hold_frames()
    for n in range(HELD_LIMIT + 1):
        socket.push_json("x.event", f'{{"n":{n}}}')
    assert [len(write) for write in wire.writes] == [HELD_LIMIT, 1]
    assert sent(wire) == [frame(n) for n in range(HELD_LIMIT + 1)]


def test_closing_sends_the_held_frames_before_the_close() -> None:
    wire = Wire()
    socket = quiet_socket(wire)
    wire.full = True
    socket._answering = True
    socket.hold_frames()
    socket.push_json("x.event", "{}")
    socket._finish(4401)
    assert socket._held is None
    assert socket.outbox[-1] is None and len(socket.outbox) == 2


def test_a_slow_clients_close_drops_the_held_frames_too() -> None:
    wire = Wire()
    socket = quiet_socket(wire)
    socket._answering = True
    socket.hold_frames()
    socket.push_json("x.event", "{}")
    socket._finish(4408, drop_queue=True)
    assert socket._held is None and socket.outbox == [None] and wire.writes == []


@given(st.data())
def test_every_frame_leaves_once_and_in_order(data: st.DataObject) -> None:
    wire = Wire()
    socket = quiet_socket(wire)
    pushed: list[str] = []
    steps = data.draw(st.lists(st.sampled_from(["push", "command", "hold", "answer", "full", "free"])))
    for step in steps:
        if step == "push":
            # a burst, up to more than a hold keeps (`HELD_LIMIT`)
            for _ in range(data.draw(st.integers(1, HELD_LIMIT + 2))):
                if len(socket.outbox) >= OUTBOX_LIMIT:
                    break
                before = len(wire.writes)
                at_once = socket._held is None and not wire.full and not socket._writing
                socket.push_json("x.event", f'{{"n":{len(pushed)}}}')
                pushed.append(frame(len(pushed)))
                if at_once:
                    assert len(wire.writes) == before + 1  # nothing held or queued: written at once
        elif step == "command" and not socket._answering:
            socket._answering = True
        elif step == "hold":
            socket.hold_frames()
        elif step == "answer" and socket._answering:
            socket._answering = False
            socket._release_held()
            assert socket._held is None
        elif step == "full":
            wire.full = True
        elif step == "free":
            wire.full = False
            drain(socket, wire)
        if not socket._answering:
            assert socket._held is None
        held = socket._held or []
        assert sent(wire) + [text for text in socket.outbox if text is not None] + held == pushed
    socket._answering = False
    socket._release_held()
    wire.full = False
    drain(socket, wire)
    assert sent(wire) == pushed
