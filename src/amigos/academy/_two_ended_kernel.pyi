# The compiled kernel's interface (see _two_ended_kernel.c); built by `pip install`, optional.
from collections.abc import Sequence

class Kernel:
    entries: int
    def __init__(
        self,
        players: int,
        suit_masks: Sequence[int],
        halves: Sequence[tuple[int, int]],
        pips: Sequence[int],
        rank: Sequence[int],
        scoring: int,
        tie_winner: int,
        horizon: int,
        estimate: Sequence[int],
    ) -> None: ...
    def search(
        self,
        hands: tuple[int, ...],
        a: int,
        b: int,
        seat: int,
        alpha: int,
        beta: int,
        nodes: int,
        budget: int,
    ) -> tuple[int | None, int]: ...
