"""The hot paths' counters move with the work they count: a person's play, a computer player's
move, and the computer players' searches under way."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from prometheus_client import REGISTRY

from amigos.web.accounts.models import User
from amigos.web.tables import registry, thinking
from tests.web.tables.support import Recorder, play_of
from tests.web.tables.test_actor import SAFETY, against_computers, turn_in, until

pytestmark = pytest.mark.django_db(transaction=True)


def plays(by: str) -> float:
    return REGISTRY.get_sample_value("amigos_plays_total", {"by": by}) or 0.0


@pytest.fixture(autouse=True)
async def fresh_registry() -> Any:
    registry.use_clock(None)
    yield
    await registry.stop_all()


async def test_a_play_counts_once_for_its_maker(make_player: Callable[..., User]) -> None:
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    version, legal = await turn_in(me, actor, "any")
    people, computers = plays("person"), plays("computer")
    assert computers >= 1 or actor.game.to_move == 0  # the computers before me played, or I lead
    await actor.call(lambda: actor.play(user.pk, version, play_of(legal[0])))
    assert plays("person") == people + 1
    await until(lambda: plays("computer") > computers)  # the next seat is a computer player
    await turn_in(me, actor, "any")  # every computer player has answered
    assert REGISTRY.get_sample_value("amigos_bot_searches") == 0


async def test_a_computer_players_search_counts_while_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()

    def slow_choice(view: Any, level: str, seed: int) -> str:
        release.wait(SAFETY)
        return "chosen"

    def searches() -> float:
        return REGISTRY.get_sample_value("amigos_bot_searches") or 0.0

    monkeypatch.setattr(thinking, "choose", slow_choice)
    before = searches()
    task = asyncio.create_task(thinking.think(None, "easy"))  # type: ignore[arg-type]
    await until(lambda: searches() == before + 1)
    release.set()
    assert await task == "chosen"
    assert searches() == before
