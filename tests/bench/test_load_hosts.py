"""`bench/load.py --hosts` counts the tables that changed hands from what the hosts log (issue 40:
tables changed hands at start-up and nobody counted them), and a seat whose join is answered `busy`
asks again later each time instead of every second."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from websockets.client import ClientProtocol
from websockets.uri import parse_uri

from tests.bench.test_load_clients import load_bench


class Host:
    def __init__(self, name: str, log: Path) -> None:
        self.name, self.log, self.url = name, log, "http://127.0.0.1:1"


def line(message: str) -> str:
    return json.dumps({"time": "2026-11-29T03:00:00+00:00", "level": "WARNING", "message": message})


def test_the_changes_of_hands_are_counted_per_table_from_the_hosts_logs(tmp_path: Path) -> None:
    load = load_bench()
    first, second = tmp_path / "h0.log", tmp_path / "h1.log"
    first.write_text(
        "Amigos por el Dominó: http://10.0.0.10:8000/\n"
        + "\n".join(
            [
                line("table 7: its lease went to vm:2:b:x; its actor here stops"),
                line("table 8: another process holds its lease; its actor here stops"),
                line("table 9: could not store its log entries; it will be rebuilt"),
            ]
        )
    )
    second.write_text(line("table 7: another process holds its lease; its actor here stops") + "\n")

    found = load.handovers(SimpleNamespace(hosts=[Host("h0", first), Host("h1", second)]))
    assert {key: found[key] for key in ("changes", "tables", "most_for_one_table")} == {
        "changes": 3,
        "tables": 2,
        "most_for_one_table": 2,
    }
    assert found["adopted_by_host"] == {"h0": None, "h1": None}  # nobody answers /metrics here


async def test_a_seat_refused_busy_asks_again_later_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    load = load_bench()
    plan = load.Plan(port=0, players={}, delay=1.0, seconds=1.0, command_rate=10.0, command_burst=10.0)
    protocol = ClientProtocol(parse_uri("ws://127.0.0.1:1/ws/"))
    seat = load.SeatSocket(
        plan,
        load.Place(table=7, seat=0),
        load.Pace(10.0, 10.0),
        load.Stats(),
        [True],
        protocol,
        protocol.connect(),
    )
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def send(kind: str, payload: dict[str, Any]) -> None:
        pass

    monkeypatch.setattr(load.random, "uniform", lambda low, high: 1.0)
    monkeypatch.setattr(load.asyncio, "sleep", sleep)
    monkeypatch.setattr(seat, "send_paced", send)
    for _ in range(7):
        await seat._join_again({"table_id": 7, "since": None})
    assert waits == [1.0, 2.0, 4.0, 8.0, 16.0, 16.0, 16.0]
