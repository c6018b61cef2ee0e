"""A real `amigos serve` killed with SIGKILL mid-hand: started again, the same hand goes on, with no
accepted move lost or repeated, the same turn deadline, and computer players moving again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

from tests.web.conftest import free_port
from tests.web.tables.support import flat_events

SETUP = """
import json, time
from django.test import Client
from amigos.web.accounts.models import User
from amigos.web.accounts import sessions
from amigos.web.tables import services
user = User.objects.create_user(email="ana@example.org", display_name="Ana", password="dominó-seguro-2024")
client = Client()
client.force_login(user)
key = client.cookies["sessionid"].value
sessions.touch(key, user.pk, time.time())
table = services.play_against_computer(user=user, variant="amigos-100", level="easy")
print(json.dumps({"session": key, "table": table.pk}))
"""


def environment(tmp_path: Path) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("AMIGOS_") and k != "DJANGO_SETTINGS_MODULE"
    }
    env["AMIGOS_DATA_DIR"] = str(tmp_path)
    env["AMIGOS_TABLE_BOT_DELAY_MS"] = "0"
    env["AMIGOS_TABLE_HAND_PAUSE_SECONDS"] = "0"
    env["AMIGOS_BOT_PROCESSES"] = "1"  # the real process pool
    return env


AMIGOS = [sys.executable, "-m", "amigos.cli"]

#: A page's heartbeat while it waits (the table judges a seat away after 30 s of silence).
HEARTBEAT_SECONDS = 5
#: Only a guard against a hang (never a pass or fail on speed): CI shares two cores with browsers.
GUARD_SECONDS = 120


def serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    """Start a server; what it logs goes to ``server-<n>.log`` in the data folder (shown on failure)."""
    logs = Path(env["AMIGOS_DATA_DIR"])
    log_file = logs / f"server-{len(list(logs.glob('server-*.log')))}.log"
    server = subprocess.Popen(
        [*AMIGOS, "serve", "--port", str(port), "--log-level", "warning"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log_file.open("wb"),
        start_new_session=True,  # its own process group: the server and its computer players' workers
    )
    for _ in range(300):  # returns as soon as the server answers
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/sign-in/", timeout=2):
                return server
        except OSError:
            time.sleep(0.2)
    kill_all(server)
    raise RuntimeError("the server did not start")


def kill_all(server: subprocess.Popen[bytes]) -> None:
    """SIGKILL the server's whole process group (a crash takes its worker processes too)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)
    server.wait(timeout=30)


class Seat:
    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.next_id = 0
        self.received: list[dict[str, Any]] = []

    async def send(self, kind: str, payload: dict[str, Any]) -> int:
        self.next_id += 1
        await self.connection.send(json.dumps({"type": kind, "id": self.next_id, "payload": payload}))
        return self.next_id

    async def until(self, predicate: Any) -> dict[str, Any]:
        """The next envelope that matches. While waiting, the seat sends a heartbeat every few
        seconds of silence, as a page does: a seat silent for 30 s is judged away and the table
        pauses, which on a loaded machine (computer players slow to answer) stalled this test."""

        async def wait() -> dict[str, Any]:
            while True:
                try:
                    text = await asyncio.wait_for(self.connection.recv(), HEARTBEAT_SECONDS)
                except TimeoutError:
                    await self.send("heartbeat", {})
                    continue
                envelope = json.loads(text)
                self.received.append(envelope)
                if predicate(envelope):
                    return envelope

        try:
            return await asyncio.wait_for(wait(), GUARD_SECONDS)
        except TimeoutError:
            last = [(e["type"], e["payload"].get("kind")) for e in self.received[-8:]]
            raise AssertionError(f"nothing matched in {GUARD_SECONDS} s; last envelopes: {last}") from None

    def table_events(self) -> list[dict[str, Any]]:
        return [event for e in self.received for event in flat_events(e["type"], e["payload"])]


def my_turn(envelope: dict[str, Any]) -> dict[str, Any] | None:
    payload = envelope["payload"]
    if envelope["type"] == "table.snapshot" and payload["turn"] and payload["turn"]["seat"] == 0:
        return {"version": payload["version"], **payload["turn"]}
    clocks = [event for event in flat_events(envelope["type"], payload) if event["kind"] == "clock"]
    if clocks and clocks[-1]["data"]["seat"] == 0:
        return {"version": clocks[-1]["version"], **clocks[-1]["data"]}
    return None


async def connect(port: int, session: str) -> Seat:
    connection = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/",
        additional_headers={"Origin": f"http://127.0.0.1:{port}", "Cookie": f"sessionid={session}"},
    )
    return Seat(connection)


async def play_turns(seat: Seat, table: int, count: int) -> dict[str, Any]:
    """Play ``count`` of my turns, then return my next turn without playing it."""
    turn: dict[str, Any] | None = None
    for played in range(count + 1):
        envelope = await seat.until(lambda e: my_turn(e) is not None or e["type"] == "table.snapshot")
        turn = my_turn(envelope)
        while turn is None:
            envelope = await seat.until(lambda e: my_turn(e) is not None)
            turn = my_turn(envelope)
        if played == count:
            break
        entry = turn["legal"][0]
        ident = await seat.send(
            "table.play",
            {
                "table_id": table,
                "version": turn["version"],
                "tile": entry["tile"],
                "arm": entry["arms"][0] if entry["arms"] else None,
                "lead_left": entry["lead_left"][0] if entry["lead_left"] else None,
            },
        )
        ack = await seat.until(
            lambda e, i=ident: e["type"] in ("ack", "error") and e["payload"].get("reply_to") == i
        )
        assert ack["type"] == "ack", ack
    assert turn is not None
    return turn


def test_a_killed_server_resumes_the_same_hand(tmp_path: Path) -> None:
    env = environment(tmp_path)
    migrated = subprocess.run(
        [*AMIGOS, "manage", "migrate", "--noinput"], env=env, capture_output=True, timeout=180
    )
    assert migrated.returncode == 0, migrated.stderr
    made = subprocess.run(
        [*AMIGOS, "manage", "shell", "-c", SETUP], env=env, capture_output=True, timeout=120
    )
    assert made.returncode == 0, made.stderr
    setup = json.loads(made.stdout.decode().strip().splitlines()[-1])
    port = free_port()
    server = serve(env, port)
    try:
        asyncio.run(_before_and_after(env, port, setup, server))
    except BaseException:
        # What the servers logged, for the reader of a failure (a computer player that never moved).
        for log_file in sorted(tmp_path.glob("server-*.log")):
            print(f"--- {log_file.name}\n{log_file.read_text(errors='replace')[-6000:]}")
        raise
    finally:
        kill_all(server)


async def _before_and_after(env: dict[str, str], port: int, setup: dict[str, Any], server: Any) -> None:
    table = setup["table"]
    seat = await connect(port, setup["session"])
    await seat.send("table.join", {"table_id": table, "since": None})
    turn = await play_turns(seat, table, 3)
    versions = [event["version"] for event in seat.table_events()]
    last = max([turn["version"], *versions])
    events = seat.table_events()
    starts = [index for index, event in enumerate(events) if event["kind"] == "hand_started"]
    this_hand = events[starts[-1] :] if starts else events
    seen_moves = [event for event in this_hand if event["kind"] in ("played", "passed")]
    kill_all(server)

    again = serve(env, port)
    try:
        seat = await connect(port, setup["session"])
        ident = await seat.send("table.join", {"table_id": table, "since": last})
        ack = await seat.until(
            lambda e: e["type"] in ("ack", "error") and e["payload"].get("reply_to") == ident
        )
        # nothing lost, nothing replayed: the only events since the last one seen are the notice that
        # the player in turn gets fresh time, and that fresh clock
        assert ack["type"] == "ack" and ack["payload"]["mode"] == "events"
        missed = seat.table_events()
        assert [event["kind"] for event in missed] == ["notice", "clock"]
        assert (
            [event["version"] for event in missed]
            == [last + 1, last + 2]
            == [last + 1, ack["payload"]["version"]]
        )
        assert missed[0]["data"] == {"code": "fresh_time", "seat": 0}
        assert missed[1]["data"]["seat"] == 0 and missed[1]["data"]["legal"] == turn["legal"]
        ident = await seat.send("table.join", {"table_id": table, "since": None})
        snapshot = await seat.until(lambda e: e["type"] == "table.snapshot")
        payload = snapshot["payload"]
        assert payload["turn"]["seat"] == 0 and payload["turn"]["deadline"] == missed[1]["data"]["deadline"]
        history = [move for move in payload["hand"]["view"]["history"] if move["type"] in ("play", "pass")]
        assert not [event for event in missed if event["kind"] == "hand_started"]
        # the same hand: every play seen before the kill is on the line, once
        laid = [placement["tile"] for placement in payload["hand"]["view"]["line"]["placements"]]
        before = [move["data"]["tile"] for move in seen_moves if move["kind"] == "played"]
        assert set(before) <= set(laid) and len(laid) == len(set(laid))
        assert len(history) >= len(laid)
        # and it goes on: my play is accepted and the computer players answer
        entry = payload["turn"]["legal"][0]
        ident = await seat.send(
            "table.play",
            {
                "table_id": table,
                "version": payload["version"],
                "tile": entry["tile"],
                "arm": entry["arms"][0] if entry["arms"] else None,
                "lead_left": entry["lead_left"][0] if entry["lead_left"] else None,
            },
        )
        ack = await seat.until(
            lambda e: e["type"] in ("ack", "error") and e["payload"].get("reply_to") == ident
        )
        assert ack["type"] == "ack", ack
        await seat.until(
            lambda e: any(
                event["kind"] in ("played", "passed", "hand_ended") and event["data"].get("seat") != 0
                for event in flat_events(e["type"], e["payload"])
            )
        )
        await seat.connection.close()
    finally:
        kill_all(again)
