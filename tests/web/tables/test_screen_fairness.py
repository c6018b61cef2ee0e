"""The "verify" link's arithmetic (static/tables/fairness.js) against the engine's, in Chromium.

A player checks a deal in the browser with WebCrypto; these tests make sure the browser computes
exactly the commitment and the deal that amigos.engine.deal computes, and that it notices a key
that does not explain the hand that was played.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from amigos.engine.codec import view_json
from amigos.engine.deal import commitment, deal_from_key, shuffled_set
from amigos.engine.state import HandState
from amigos.engine.variants import find_variant
from amigos.engine.view import replay_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FAIRNESS = "/static/tables/fairness.js"


def played_hand(key: str, variant_name: str, players: int | None = None) -> dict[str, Any]:
    """A whole hand dealt by ``key``, played with each seat's first legal action."""
    variant = find_variant(variant_name, players)
    deal = deal_from_key(key, variant)
    state = HandState.start(variant, deal.hands, leader=0, boneyard=deal.boneyard)
    while not state.is_over:
        # the engine checks whose move it is (branch rules): the seat in turn makes it
        state = state.apply(state.legal_actions()[0], state.to_move)
    view = view_json(replay_view(state))
    return {
        "key": key,
        "max_pip": variant.max_pip,
        "players": variant.players,
        "hand_size": variant.hand_size,
        "revealed": view["revealed"],
        "history": view["history"],
    }


@pytest.fixture
def page(open_page: Callable[..., Any]) -> Any:
    page = open_page()
    page.goto("/accounts/sign-in/")
    return page


def test_commitment_and_shuffle_match_the_engine(page: Any) -> None:
    keys = [str(uuid.uuid4()) for _ in range(6)] + ["6F9619FF-8B86-4D01-B42D-00CF4FC964FF"]
    hand_id = "table:12:match:1:hand:3"
    computed = page.evaluate(
        """async ([url, keys, handId]) => {
            const f = await import(url);
            const out = [];
            for (const key of keys) {
                const six = await f.shuffledSet(key, 6);
                out.push([await f.commitment(key, handId), six, await f.shuffledSet(key, 9)]);
            }
            return out;
        }""",
        [FAIRNESS, keys, hand_id],
    )
    for key, (commit, six, nine) in zip(keys, computed, strict=True):
        assert commit == commitment(key, hand_id)
        assert six == [str(tile) for tile in shuffled_set(key, 6)]
        assert nine == [str(tile) for tile in shuffled_set(key, 9)]


def test_verify_accepts_the_real_key_and_refuses_any_other(page: Any) -> None:
    key, other = str(uuid.uuid4()), str(uuid.uuid4())
    hand_id = "table:7:match:2:hand:1"
    published = commitment(key, hand_id)
    answers = page.evaluate(
        """async ([url, key, other, handId, published]) => {
            const f = await import(url);
            return [
                await f.verifyCommitment(key, handId, published),
                await f.verifyCommitment(key.toUpperCase(), handId, published.toUpperCase()),
                await f.verifyCommitment(other, handId, published),
                await f.verifyCommitment(key, handId + "x", published),
                await f.verifyCommitment("not-a-key", handId, published),
            ];
        }""",
        [FAIRNESS, key, other, hand_id, published],
    )
    assert answers == [True, True, False, False, False]


@pytest.mark.parametrize(
    ("variant", "players"), [("amigos-100", None), ("cuban-2v2", None), ("all-fives-100", 2)]
)
def test_the_key_explains_the_hand_played_and_another_key_does_not(
    page: Any, variant: str, players: int | None
) -> None:
    hand = played_hand(str(uuid.uuid4()), variant, players)
    answers = page.evaluate(
        """async ([url, hand, otherKey]) => {
            const f = await import(url);
            const deal = await f.dealFromKey(hand.key, hand.max_pip, hand.players, hand.hand_size);
            const wrong = await f.dealFromKey(otherKey, hand.max_pip, hand.players, hand.hand_size);
            const check = (d) => f.dealMatches(d, hand.revealed, hand.history);
            return [check(deal), check(wrong)];
        }""",
        [FAIRNESS, hand, str(uuid.uuid4())],
    )
    assert answers == [True, False]
