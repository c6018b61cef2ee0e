"""The pure table run beside every actor in the tests (`actor_model`, `AMIGOS_TABLE_MODEL_CHECK`):
it follows the actor's table, it catches a rule that drifted, and it forgives only what it says.

Every other test of the site runs with the check on and fails on a disagreement (the fixture
`model_agrees` in tests/web/conftest.py); these tests show that the check can fail, and how.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from amigos.table import Invitation, Notice, Phase
from amigos.web.accounts.models import User
from amigos.web.tables import actor_model, socket_keys
from amigos.web.tables.actor import TableActor
from tests.web.tables.support import FakeClock, Recorder
from tests.web.tables.test_actor import against_computers, play_of, turn_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fake_clock")]


def held(actor: TableActor) -> Any:
    return actor.model_state


async def same_hand(actor: TableActor) -> None:
    """Inside the actor (a job: the computer players' moves are jobs too), its hand in play is
    the one the model beside it holds."""
    state = held(actor)
    assert state.phase is Phase.PLAYING
    assert actor.game.hand is not None and state.hand is not None
    assert state.hand.state == actor.game.hand


async def test_the_model_follows_the_table_through_plays(make_player: Callable[..., User]) -> None:
    """Each play reaches the pure table beside the actor: its hand is the actor's, move by move."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    for _ in range(3):
        version, legal = await turn_in(me, actor, "any")
        await actor.call(lambda v=version, e=legal[0]: actor.play(user.pk, v, play_of(e)))
        await actor.call(lambda: same_hand(actor))
    assert actor_model.DISAGREEMENTS == []


async def test_a_rule_that_drifts_is_caught(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model that forgets to tell that a seat went away (its `Notice` effects dropped) writes
    no ``disconnected`` row where the actor stored one when the player's page closed: the check
    reports it, with both lists of rows, at the next job both store (the page back). (Moves and
    the turn's clock are the model's own to decide, `actor_decide`: a page closing is an input
    the actor still decides beside it.)"""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    await turn_in(me, actor, "any")
    assert actor_model.DISAGREEMENTS == []  # none before the drift
    real = actor_model.advance

    def forgetful(state: Any, given: Any, now: float) -> Any:
        after, effects = real(state, given, now)
        return after, [effect for effect in effects if not isinstance(effect, Notice)]

    monkeypatch.setattr(actor_model, "advance", forgetful)
    key = socket_keys.key_of(me)
    await actor.call(lambda: actor.detach(key, 0))
    monkeypatch.undo()
    await actor.call(lambda: actor.attach(key, 0))
    found = list(actor_model.DISAGREEMENTS)
    actor_model.DISAGREEMENTS.clear()  # caught on purpose: the fixture must not fail this test
    assert found and found[0].table_id == actor.id
    assert "disconnected" in [kind for kind, _ in found[0].actor]
    assert "disconnected" not in [kind for kind, _ in found[0].model]


async def test_a_state_that_drifts_is_caught(make_player: Callable[..., User]) -> None:
    """Rows that agree are not enough: once they do, what each table holds is compared too. A
    model that thinks a seated player's invitation is still open is reported at the next job."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    version, legal = await turn_in(me, actor, "any")
    assert actor_model.DISAGREEMENTS == []
    seats = held(actor).seats

    async def set_invitation(invitation: Invitation) -> None:
        state = held(actor)
        actor.model_state = replace(state, seats=(replace(seats[0], invitation=invitation), *state.seats[1:]))

    await actor.call(lambda: set_invitation(Invitation.PENDING))
    await actor.call(lambda: actor.play(user.pk, version, play_of(legal[0])))
    await actor.call(lambda: set_invitation(Invitation.ACCEPTED))
    found = list(actor_model.DISAGREEMENTS)
    actor_model.DISAGREEMENTS.clear()  # caught on purpose
    assert found and found[0].actor == found[0].model == ()
    assert "seat 0 invitation: actor Invitation.ACCEPTED, model Invitation.PENDING" in found[0].state


async def test_a_write_that_drifts_is_caught(
    make_player: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a job changes in the table row is compared too: a model whose step would not write
    the turn's deadline the actor wrote is reported."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    version, legal = await turn_in(me, actor, "any")
    assert actor_model.DISAGREEMENTS == []
    real = actor_model.write_of

    def no_deadline(*args: Any) -> Any:
        step = real(*args)
        step.write.deadline = (None, "")
        return step

    monkeypatch.setattr(actor_model, "write_of", no_deadline)
    await actor.call(lambda: actor.play(user.pk, version, play_of(legal[0])))
    monkeypatch.undo()
    found = list(actor_model.DISAGREEMENTS)
    actor_model.DISAGREEMENTS.clear()  # caught on purpose
    assert found and found[0].state and found[0].state[0].startswith("writes: actor")


async def test_a_late_deadline_is_read_again_not_compared(
    make_player: Callable[..., User], fake_clock: FakeClock
) -> None:
    """The clock jumps past the turn's deadline and its cards without the timer firing: the
    actor carries them out when it fires, at that moment, the model at the moments they fell
    due. The job is not compared; the model reads the table back from the database instead, and
    follows it again from there."""
    user, actor = await against_computers(make_player, "amigos-100")
    me = Recorder(user.pk)
    await actor.call(lambda: actor.join(me, True, None))
    await turn_in(me, actor, "any")
    fake_clock.advance(90)
    assert actor.heard_at_once(0)
    await actor.fire_deadline()
    await actor.call(lambda: same_hand(actor))
    assert actor_model.DISAGREEMENTS == []


def test_moments_a_few_milliseconds_apart_are_alike_and_others_are_not() -> None:
    """The actor reads its clock several times in a job, the model once per input."""
    row = {"seat": 1, "at": "2026-11-22T20:00:00.000Z", "legal": [{"tile": "6-6"}]}
    close = {"seat": 1, "at": "2026-11-22T20:00:00.015Z", "legal": [{"tile": "6-6"}]}
    far = {"seat": 1, "at": "2026-11-22T20:00:02.000Z", "legal": [{"tile": "6-6"}]}
    other = {"seat": 1, "at": "2026-11-22T20:00:00.000Z", "legal": [{"tile": "6-5"}]}
    assert actor_model._alike(row, close)
    assert not actor_model._alike(row, far)
    assert not actor_model._alike(row, other)
    assert not actor_model._alike(row, {"seat": 1, "at": row["at"]})
    assert not actor_model._alike("6-6", "6-5")
