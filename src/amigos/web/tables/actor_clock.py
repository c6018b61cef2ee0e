"""The turn clock's words: how the protocol names a clock's situation, and how the table row stores
the kind of the clock's deadline.

What a turn's clock is and what its running out does are the pure table's rules
(`amigos.table.clock`), carried out by the model itself (`actor_decide`); `effect_entries` writes
a clock started as the protocol's `turn_clock` row with these words, and `effect_writes` stores its
deadline under these names.
"""

from __future__ import annotations

from amigos.table import DeadlineKind, Situation

#: The protocol's name for each situation (docs/protocol.md, "The turn clock").
WORDS: dict[Situation, str] = {
    Situation.BLOCKING: "blocking",
    Situation.SINGLE: "single",
    Situation.OPEN: "normal",
    Situation.TIMED: "timed",
    Situation.COMPUTER: "computer",
    Situation.CORRESPONDENCE: "correspondence",
}

#: The stored deadline's kind for each of the clock's deadlines (a correspondence day run out is
#: stored as "abandon"; logs of older versions may also hold "overdue" and "default_move").
STORED: dict[DeadlineKind, str] = {
    DeadlineKind.CARD: "card",
    DeadlineKind.SYSTEM_PLAY: "system_play",
    DeadlineKind.TURN: "abandon",
}
