"""Replay a whole match record and produce what `amigos replay` must print.

`referee_replay(record)` returns the JSON object of the record format's replay section, or raises
RefereeError naming the hand and the move (both from 1; 0 when the fault is not in one move).
"""

from __future__ import annotations

import json
from typing import Any

from .hand import HandPlay, MoveRefused
from .rules import RECORD_FORMAT, Rules, Tile, UnknownVariantError, full_set, norm, parse_tile, rules_for


class RefereeError(ValueError):
    def __init__(self, hand: int, move: int, reason: str) -> None:
        super().__init__(f"hand {hand}, move {move}: {reason}")
        self.hand = hand
        self.move = move
        self.reason = reason


class MatchTally:
    """Running totals and the end of the match, hand after hand."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.score = [0] * rules.sides
        self.complete = False
        self.winner: int | None = None
        self.last_winner: int | None = None
        self.first_leader_side: int | None = None
        self.facts: set[str] = set()

    def tie_side(self, leader: int) -> int | None:
        if self.rules.family != "cuban":
            return None
        if self.first_leader_side is None:
            return self.rules.side_of(leader)
        return self.last_winner

    def start(self, leader: int) -> None:
        if self.first_leader_side is None:
            self.first_leader_side = self.rules.side_of(leader)

    def add_hand(self, play: HandPlay) -> dict[str, Any]:
        for side, points in enumerate(play.play_points):
            self.score[side] += points
        result = play.result
        if result is None:
            return {"end": "unfinished", "winner": None, "points": 0, "score": list(self.score)}
        if result["winner"] is not None:
            self.score[result["winner"]] += result["points"]
        if "cuban-tie" in play.facts:
            self.facts.add("cuban-tie-first-hand" if self.last_winner is None else "cuban-tie-later-hand")
        if self.rules.family == "cuban" or result["winner"] is not None:
            self.last_winner = result["winner"]
        self._check_end()
        return {
            "end": result["end"],
            "winner": result["winner"],
            "points": result["points"],
            "score": list(self.score),
        }

    def _check_end(self) -> None:
        rules, score = self.rules, self.score
        if rules.target is None:  # juegos ganados: at least four hands won and a lead of two
            low, high = sorted(score)
            if low == 3 and high == 3:
                self.facts.add("hands-60-60")
            if high >= 4 and high - low == 1:
                self.facts.add("hands-ventaja")
            if low >= 4 and low == high:
                self.facts.add("hands-back-to-60-60")
            if high >= 4 and high - low >= 2:
                self.complete, self.winner = True, score.index(high)
            return
        best = max(score)
        if best < rules.target:
            return
        leaders = [side for side, points in enumerate(score) if points == best]
        if len(leaders) == 1:
            self.complete, self.winner = True, leaders[0]
        else:
            self.facts.add("tie-for-first-at-target")


def referee_replay(record: object) -> dict[str, Any]:
    output, _facts = replay_with_facts(record)
    return output


def replay_with_facts(record: object) -> tuple[dict[str, Any], set[str]]:
    """The replay output and the set of notable situations met (for steering the corpus)."""
    if isinstance(record, str | bytes):
        try:
            record = json.loads(record)
        except (ValueError, UnicodeDecodeError) as exc:
            raise RefereeError(0, 0, f"not JSON: {exc}") from None
    if not isinstance(record, dict):
        raise RefereeError(0, 0, "the record is not a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RefereeError(0, 0, "missing or unknown format")
    name, players, hands = record.get("variant"), record.get("players"), record.get("hands")
    if not isinstance(name, str):
        raise RefereeError(0, 0, "variant is not text")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RefereeError(0, 0, "players is not a list of names")
    if not isinstance(hands, list):
        raise RefereeError(0, 0, "hands is not a list")
    try:
        rules = rules_for(name, len(players))
    except UnknownVariantError as exc:
        raise RefereeError(0, 0, str(exc)) from None
    tally = MatchTally(rules)
    entries: list[dict[str, Any]] = []
    facts: set[str] = set()
    last_moves = 0
    for number, hand in enumerate(hands, 1):
        if entries and entries[-1]["end"] == "unfinished":
            # The record format lets a record stop inside a hand, not skip the rest of one: the
            # fault is the missing move of the unfinished hand.
            raise RefereeError(
                number - 1, last_moves + 1, "the hand stops before its end, yet a hand follows"
            )
        play, last_moves = _replay_hand(rules, tally, number, hand)
        entries.append(tally.add_hand(play))
        facts |= play.facts
    facts |= tally.facts
    if entries and entries[-1]["end"] == "unfinished":
        facts.add("unfinished-hand")
    elif not tally.complete:
        facts.add("unfinished-match")
    output = {
        "variant": name,
        "hands": entries,
        "complete": tally.complete,
        "winner": tally.winner,
        "score": list(tally.score),
    }
    return output, facts


def _replay_hand(rules: Rules, tally: MatchTally, number: int, hand: object) -> tuple[HandPlay, int]:
    """The replayed hand and its number of written moves."""
    if not isinstance(hand, dict):
        raise RefereeError(number, 0, "the hand is not a JSON object")
    deal, pile, leader, moves = _read_hand(rules, number, hand)
    if tally.complete:
        # Moves after the end of the match: the first one is the fault (a bare deal, the hand).
        raise RefereeError(number, 1 if moves else 0, "a hand after the end of the match")
    tie_side = tally.tie_side(leader)
    tally.start(leader)
    play = HandPlay(rules, deal, pile, leader, tie_side)
    for index, move in enumerate(moves, 1):
        if not isinstance(move, str):
            raise RefereeError(number, index, "a move is not text")
        try:
            play.play_text(move)
        except MoveRefused as exc:
            raise RefereeError(number, index, str(exc)) from None
    return play, len(moves)


def _read_hand(
    rules: Rules, number: int, hand: dict[str, Any]
) -> tuple[list[list[Tile]], list[Tile], int, list[Any]]:
    deal, pile, leader, moves = hand.get("deal"), hand.get("boneyard"), hand.get("leader"), hand.get("moves")
    if not isinstance(deal, list) or len(deal) != rules.players:
        raise RefereeError(number, 0, f"the deal must list {rules.players} hands")
    if not isinstance(pile, list):
        raise RefereeError(number, 0, "boneyard is not a list")
    if type(leader) is not int or not 0 <= leader < rules.players:
        raise RefereeError(number, 0, "leader is not a seat")
    if not isinstance(moves, list):
        raise RefereeError(number, 0, "moves is not a list")
    seen: list[Tile] = []

    def tiles_of(texts: object, size: int, what: str) -> list[Tile]:
        if not isinstance(texts, list) or len(texts) != size:
            raise RefereeError(number, 0, f"{what} must hold {size} tiles")
        result = []
        for text in texts:
            halves = parse_tile(text, rules.max_pip) if isinstance(text, str) else None
            if halves is None:
                raise RefereeError(number, 0, f"{what}: {text!r} is not a tile of this set")
            result.append(norm(*halves))
        seen.extend(result)
        return result

    hands = [tiles_of(texts, rules.hand_size, f"seat {seat}") for seat, texts in enumerate(deal)]
    boneyard = tiles_of(pile, rules.pile_size, "the boneyard")
    if sorted(seen) != sorted(full_set(rules.max_pip)):
        raise RefereeError(number, 0, "a tile is dealt twice or not at all")
    return hands, boneyard, leader, moves
