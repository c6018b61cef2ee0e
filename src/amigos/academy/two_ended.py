"""Exact perfect-information search for the two-ended games (Amigos, Cuban).

In these games the line of play has exactly two open ends and no boneyard is
ever drawn, so everything that matters for the rest of a hand is: which tiles
each seat holds, the two end values (as an unordered pair, since the arms are
interchangeable for what can still happen), and whose turn it is.  Passes are
forced (a seat passes exactly when it holds nothing that fits), so they need no
search.  That makes the state tiny: one packed integer of hands, two small
ends and a seat, which is what the transposition table is keyed on.

Seats alternate between the two sides in every supported table (partners sit
opposite; in 1v1 the two seats alternate), so this is a two-sided zero-sum game
and a negamax alpha-beta is exact.  Values are point margins for the side of
the seat to move: the end-of-hand award of the scoring in use, positive when
that side wins it, negative when the other side does (see ``HandScoring``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field

from amigos.academy.compact import TileSet, tile_set_for

try:  # the compiled kernel, built by `pip install` when a C compiler is there (see docs/bots.md)
    from amigos.academy._two_ended_kernel import Kernel
except ImportError:  # pragma: no cover - depends on the machine's build
    Kernel = None  # type: ignore[assignment,misc]

INFINITY = 1_000_000
#: Whether this installation has the compiled kernel (False: every search runs in Python).
COMPILED = Kernel is not None
#: The kernel's code for each scoring (the order of ``SCORING_*`` in _two_ended_kernel.c).
_KERNEL_SCORING = {"losers": 0, "all": 1, "hands": 2}
#: "No budget": a node count no search reaches (the kernel counts in 64 bits).
_UNLIMITED = 1 << 62
#: What the horizon's estimate (``TwoEndedSolver.estimate``) reads of a position, in the order of
#: ``HorizonEstimate.weights``; ``seat`` has just played, "next" moves after it, "other" is the
#: next's partner (both absent, so 0, between two players). The compiled kernel reads the same.
ESTIMATE_FEATURES = (
    "even",  # 1
    "tempo",  # the fewest tiles a seat of the other side holds, less the fewest of the seat's side
    "next_can",  # 1 if the next seat holds a tile that fits an end
    "other_can",
    "partner_can",
    "own_can",
    "next_fits",  # how many of the next seat's tiles fit an end
    "other_fits",
    "partner_fits",
    "own_fits",
    "own_minus_next_tiles",  # the seat's tile count less the next seat's
    "partner_minus_other_tiles",
    "pip_lead",  # the other side's pips less the seat's side's
    "tie",  # 1 if the seat's side wins a block with equal pips
    "doubles",  # the doubles the seat's side holds less the other side's
)


@dataclass(frozen=True)
class HorizonEstimate:
    """How the horizon scores a hand not over: an expected award.

    The chance that the side that has just played wins the hand, in ten-thousandths, is the sum of
    ``weights`` times the position's features (``ESTIMATE_FEATURES``), kept within ``lowest`` and
    10,000 - ``lowest``; the estimate is the other side's pips times that chance less the side's own
    pips times the rest (floored). Integers throughout, so the compiled kernel computes the same.
    """

    weights: tuple[int, ...]
    lowest: int = 500

    def __post_init__(self) -> None:
        if len(self.weights) != len(ESTIMATE_FEATURES):
            raise ValueError(f"a horizon estimate has {len(ESTIMATE_FEATURES)} weights")
        if not 0 <= self.lowest <= 5_000:
            raise ValueError("lowest is a chance in ten-thousandths, at most even")

    def award(self, features: Sequence[int], mine: int, theirs: int) -> int:
        """The expected award for the side that has just played, holding ``mine`` pips against
        ``theirs``, in a position with these ``features`` (floored, as the kernel does)."""
        chance = sum(weight * feature for weight, feature in zip(self.weights, features, strict=True))
        chance = max(self.lowest, min(10_000 - self.lowest, chance))
        return (chance * theirs - (10_000 - chance) * mine) // 10_000


#: A constant 45% chance for the side that has just played: fitted to the exact values of 573
#: Cuban 2v2 positions with 12 to 26 tiles in the hands (mean squared error 1,294, against 1,400
#: for an estimate of 0); the tile counts made it worse. Amigos (amigos-100) keeps it.
PIPS_ESTIMATE = HorizonEstimate((4_500,) + (0,) * (len(ESTIMATE_FEATURES) - 1))
#: Cuban 2v2's estimate: every feature, fitted by least squares to the exact values of 21,691
#: positions with 12 to 26 tiles in the hands, one side having just played (normal against normal,
#: 1,500 deals of seeds 11 and 12). Mean squared error: 958, against 1,191 for ``PIPS_ESTIMATE``
#: and 1,394 for an estimate of 0; fitted on one seed, 952 and 978 on the other
#: (``bench/horizon.py --seeds 11 12 --deals 1500`` refits it). What it reads, the other features
#: held: who can follow matters most (each tile of the next seat that fits an end costs the side
#: that played 5.8%), each double more than the other side costs 3.5%, and each tile fewer than
#: the next seat holds 2.6%.
CUBAN_ESTIMATE = HorizonEstimate(
    (5_050, 152, 182, -30, -78, -79, -583, -117, 301, 126, 261, 325, 15, 32, -349)
)


class HandScoring(enum.Enum):
    """How the end of a hand is scored; the search maximizes this award as a margin."""

    LOSERS = "losers"  # the winners score the losing side's remaining pips (amigos-100, Cuban)
    ALL = "all"  # the winners score every remaining pip, their own side's too (amigos-200)
    HANDS = "hands"  # a domino is worth 1, a block nothing (amigos-hands)


@dataclass(frozen=True)
class TwoEndedRules:
    """The rules of a two-ended game as far as the search needs them."""

    max_pip: int
    players: int  # 4 (partners opposite) or 2 (one against one)
    scoring: HandScoring
    # The side that wins a block with equal pips (Cuban's tie rules); None: a tied block scores nothing.
    tie_winner: int | None = None

    def __post_init__(self) -> None:
        if self.players not in (2, 4):
            raise ValueError("two-ended search supports 2 or 4 seats")

    @property
    def estimable(self) -> bool:
        """Whether the horizon's estimate (`TwoEndedSolver.estimate`) models this scoring's award.
        It weighs the other side's pips if the side wins against its own if it loses: the losers'
        pips (amigos-100, Cuban). amigos-200 scores every pip on the table and amigos-hands one a
        domino, so a horizon there would compare estimates and exact values on different scales."""
        return self.scoring is HandScoring.LOSERS


@dataclass(frozen=True)
class Position:
    """A fully known two-ended position.

    ``hands[seat]`` is a tile mask (see ``amigos.academy.compact``); ``ends`` is
    ``None`` before the lead, otherwise the two open end values in any order.
    """

    hands: tuple[int, ...]
    ends: tuple[int, int] | None
    to_move: int


@dataclass(frozen=True, order=True)
class Move:
    """A play in compact form: the tile index and the open ends it leaves (low, high)."""

    tile: int
    ends_after: tuple[int, int]


@dataclass
class SearchStats:
    """Counters of one solver's work, for benchmarks and node budgets."""

    nodes: int = 0


class BudgetExceeded(Exception):
    """Raised inside a search when its node budget runs out."""


@dataclass
class TwoEndedSolver:
    """Alpha-beta with a transposition table over packed two-ended positions.

    One solver may be reused for many positions of the same hand: its table
    only ever holds true bounds, so positions reached again are answered at once.
    ``node_budget`` (None: unlimited) makes a search raise ``BudgetExceeded``
    after that many nodes, which keeps time-bounded callers deterministic.

    ``compiled`` (default: whenever this installation has it) runs the null-window searches in the
    C kernel (``_two_ended_kernel.c``), which visits the same nodes in the same order as the
    Python search below, stores the same bounds and counts nodes the same way: values, node counts
    and therefore budgeted answers are identical, about twenty times faster. ``compiled=False`` is
    the pure-Python reference the kernel is tested against.
    """

    rules: TwoEndedRules
    node_budget: int | None = None
    compiled: bool = COMPILED
    # 0: exact. Otherwise a play that leaves at most this many tiles in the hands (and does not end
    # the hand) is not searched further but scored by ``estimate``: a depth-limited search whose
    # horizon is a property of the position (its number of tiles), so the table stays consistent.
    horizon: int = 0
    # How the horizon scores a position (``horizon`` 0: never used).
    estimator: HorizonEstimate = PIPS_ESTIMATE
    stats: SearchStats = field(default_factory=SearchStats)
    _table: dict[int, tuple[int, int, int]] = field(default_factory=dict, repr=False)
    # (fitting tiles, ends) -> plays in trial order; shared by every position with that hand and ends.
    _orders: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.tiles: TileSet = tile_set_for(self.rules.max_pip)
        self._shift = self.tiles.size
        self._full = (1 << self._shift) - 1
        # The Python search is a closure that refers back to this solver (a reference cycle that
        # only the garbage collector frees); the compiled path does without it, so a solver with
        # the kernel, and the kernel's table, are freed as soon as they are dropped.
        self._search_fn = None if self.compiled else self._make_search()
        # Sort rank of each tile: heavier tiles first, doubles first among equals.
        order = sorted(range(self.tiles.size), key=lambda i: (-self.tiles.pips[i], -self._is_double(i)))
        self._doubles = sum(1 << i for i, (high, low) in enumerate(self.tiles.halves) if high == low)
        self._rank = [0] * self.tiles.size
        for position, index in enumerate(order):
            self._rank[index] = position
        self._kernel: Kernel | None = None
        if self.compiled:
            if Kernel is None:
                raise RuntimeError("the compiled two-ended kernel is not built in this installation")
            self._kernel = Kernel(
                self.rules.players,
                self.tiles.suit_masks,
                self.tiles.halves,
                self.tiles.pips,
                self._rank,
                _KERNEL_SCORING[self.rules.scoring.value],
                -1 if self.rules.tie_winner is None else self.rules.tie_winner,
                self.horizon,
                (*self.estimator.weights, self.estimator.lowest),
            )

    # -- public API -------------------------------------------------------------------------------------
    def value(self, position: Position) -> int:
        """Exact margin of the position for the side of the seat to move."""
        packed = self._pack(position.hands)
        if position.ends is None:
            return max(self.action_values(position).values())
        a, b = sorted(position.ends)
        remaining = 0
        for hand in position.hands:
            remaining |= hand
        if not remaining & (self.tiles.suit_masks[a] | self.tiles.suit_masks[b]):
            # Nobody can lay a tile: the hand is already blocked (never reached through play).
            return self._block_value(list(position.hands), position.to_move)
        return self._mtdf(packed, a, b, position.to_move, 0)

    def moves(self, position: Position) -> list[Move]:
        """Every distinct play of the seat to move (empty when it must pass)."""
        hand = position.hands[position.to_move]
        return [move for move, _ in self._children(hand, position.ends)]

    def action_values(self, position: Position, only: Collection[Move] | None = None) -> dict[Move, int]:
        """The exact margin, for the mover's side, of every play of the seat to move.

        A seat that must pass has no choice to value: the result is empty. ``only``: value just
        those plays (a caller that has ruled the others out saves their search).
        """
        packed = self._pack(position.hands)
        seat = position.to_move
        out: dict[Move, int] = {}
        guess = 0
        for move, bit in self._children(position.hands[seat], position.ends):
            if only is not None and move not in only:
                continue
            guess = out[move] = self._after_play(packed ^ (bit << (self._shift * seat)), move, seat, guess)
        return out

    # -- internals --------------------------------------------------------------------------------------
    def _pack(self, hands: tuple[int, ...]) -> int:
        if len(hands) != self.rules.players:
            raise ValueError(f"expected {self.rules.players} hands, got {len(hands)}")
        packed = 0
        for seat, hand in enumerate(hands):
            packed |= hand << (self._shift * seat)
        return packed

    def _children(self, hand: int, ends: tuple[int, int] | None) -> Iterator[tuple[Move, int]]:
        halves = self.tiles.halves
        if ends is None:
            fitting = hand
        else:
            a, b = ends
            fitting = hand & (self.tiles.suit_masks[a] | self.tiles.suit_masks[b])
        while fitting:
            low = fitting & -fitting
            fitting ^= low
            index = low.bit_length() - 1
            x, y = halves[index]
            if ends is None:
                yield Move(index, (y, x)), low
                continue
            a, b = ends
            seen: set[tuple[int, int]] = set()
            for here, there in ((a, b), (b, a)):
                if here in (x, y):
                    other = y if x == here else x
                    after = (min(other, there), max(other, there))
                    if after not in seen:
                        seen.add(after)
                        yield Move(index, after), low

    def _after_play(self, packed: int, move: Move, seat: int, guess: int) -> int:
        """Margin for ``seat``'s side once ``move`` has been laid (``packed`` already updated)."""
        a, b = move.ends_after
        terminal = self._terminal(packed, a, b, seat)
        if terminal is not None:
            return terminal
        if self.horizon and packed.bit_count() <= self.horizon:
            return self.estimate(self._hands(packed), seat, a, b)
        return -self._mtdf(packed, a, b, (seat + 1) % self.rules.players, -guess)

    def _mtdf(self, packed: int, a: int, b: int, seat: int, guess: int) -> int:
        """Exact value by a series of null-window searches converging from ``guess`` (MTD(f)).

        Null windows prune far more than one wide window; the table keeps what
        each probe proved, so later probes mostly re-read it.  Siblings tend to
        have close values, so the previous sibling's value is a good guess.
        """
        lower, upper = -INFINITY, INFINITY
        value = guess
        while lower < upper:
            beta = value + 1 if value == lower else value
            value = self._search(packed, a, b, seat, beta - 1, beta)
            if value < beta:
                upper = value
            else:
                lower = value
        return value

    def _is_double(self, index: int) -> int:
        high, low = self.tiles.halves[index]
        return 1 if high == low else 0

    def _hands(self, packed: int) -> list[int]:
        full = (1 << self._shift) - 1
        return [(packed >> (self._shift * seat)) & full for seat in range(self.rules.players)]

    def _terminal(self, packed: int, a: int, b: int, seat: int) -> int | None:
        """The award margin for ``seat``'s side if the hand just ended after its play, else None."""
        hands = self._hands(packed)
        if hands[seat] == 0:
            return self._domino_value(hands, seat)
        remaining = 0
        for hand in hands:
            remaining |= hand
        suits = self.tiles.suit_masks
        if remaining & (suits[a] | suits[b]):
            return None
        return self._block_value(hands, seat)

    def side_pips(self, hands: list[int], seat: int) -> tuple[int, int]:
        """(pips of ``seat``'s side, pips of the other side)."""
        side_masks = [0, 0]
        for other, hand in enumerate(hands):
            side_masks[other % 2] |= hand  # hands are disjoint: one mask per side
        pip_sum = self.tiles.pip_sum
        mine, theirs = pip_sum(side_masks[seat % 2]), pip_sum(side_masks[1 - seat % 2])
        return mine, theirs

    def _domino_value(self, hands: list[int], seat: int) -> int:
        mine, theirs = self.side_pips(hands, seat)
        return self._domino_award(mine, theirs)

    def _block_value(self, hands: list[int], seat: int) -> int:
        mine, theirs = self.side_pips(hands, seat)
        return self._block_award(mine, theirs, seat)

    def _domino_award(self, mine: int, theirs: int) -> int:
        """Margin for the side that just went out, holding ``mine`` pips against ``theirs``."""
        scoring = self.rules.scoring
        if scoring is HandScoring.HANDS:
            return 1
        return theirs + mine if scoring is HandScoring.ALL else theirs

    def _block_award(self, mine: int, theirs: int, seat: int) -> int:
        """Margin for ``seat``'s side in a blocked hand, its side holding ``mine`` pips."""
        scoring = self.rules.scoring
        if scoring is HandScoring.HANDS:
            return 0
        if mine == theirs:
            winner = self.rules.tie_winner
            if winner is None:
                return 0
            won = winner == seat % 2
        else:
            won = mine < theirs
        award = mine + theirs if scoring is HandScoring.ALL else (theirs if won else mine)
        return award if won else -award

    def estimate(self, hands: list[int], seat: int, a: int, b: int) -> int:
        """The horizon's score of a hand not over, for ``seat``'s side, ``seat`` having just played
        and left the ends ``a`` and ``b`` (see ``HorizonEstimate``)."""
        mine, theirs = self.side_pips(hands, seat)
        return self.estimator.award(self._features(hands, seat, a, b, mine, theirs), mine, theirs)

    def estimate_features(self, hands: list[int], seat: int, a: int, b: int) -> list[int]:
        """The values of ``ESTIMATE_FEATURES`` after ``seat``'s play (the order is the weights')."""
        return self._features(hands, seat, a, b, *self.side_pips(hands, seat))

    def _features(self, hands: list[int], seat: int, a: int, b: int, mine: int, theirs: int) -> list[int]:
        """``estimate_features`` with the sides' pips (``side_pips``) already counted."""
        players = self.rules.players
        fit = self.tiles.suit_masks[a] | self.tiles.suit_masks[b]

        def at(offset: int) -> int:
            return hands[(seat + offset) % players] if offset < players else 0

        own, following, partner, other = at(0), at(1), at(2), at(3)
        counts = [hand.bit_count() for hand in (own, partner, following, other)]
        fits = [(hand & fit).bit_count() for hand in (following, other, partner, own)]
        own_side = counts[:2] if players == 4 else counts[:1]
        other_side = counts[2:] if players == 4 else counts[2:3]
        tie = self.rules.tie_winner
        doubles = self._doubles
        return [
            1,
            min(other_side) - min(own_side),
            *(1 if count else 0 for count in fits),
            *fits,
            counts[0] - counts[2],
            counts[1] - counts[3],
            theirs - mine,
            1 if tie is not None and tie == seat % 2 else 0,
            ((own | partner) & doubles).bit_count() - ((following | other) & doubles).bit_count(),
        ]

    def _search(self, packed: int, a: int, b: int, seat: int, alpha: int, beta: int) -> int:
        """Negamax value for ``seat``'s side with ends ``a <= b`` (see ``_make_search``)."""
        kernel = self._kernel
        if kernel is not None:
            budget = self.node_budget if self.node_budget is not None else _UNLIMITED
            value, self.stats.nodes = kernel.search(
                tuple(self._hands(packed)), a, b, seat, alpha, beta, self.stats.nodes, budget
            )
            if value is None:
                raise BudgetExceeded
            return value
        remaining = 0
        rest = packed
        for _ in range(self.rules.players):
            remaining |= rest & self._full
            rest >>= self._shift
        assert self._search_fn is not None
        return self._search_fn(packed, remaining, a, b, seat, alpha, beta)

    def _make_search(self) -> Callable[[int, int, int, int, int, int, int], int]:
        """Build the recursive search as a closure over constants (fail-soft alpha-beta + table).

        The table keeps (lower bound, upper bound, best tile) per position; the
        best tile of an earlier visit is tried first, then heavier tiles first.
        ``remaining`` (every tile still in a hand) is passed down so that the
        block test after a play is one mask operation.  Everything the inner
        loop touches is a local or closure variable: attribute look-ups cost
        more than the search itself in CPython.
        """
        stats = self.stats
        table = self._table
        orders = self._orders
        shift = self._shift
        players = self.rules.players
        suits = self.tiles.suit_masks
        full = self._full
        ordered = self._ordered
        domino_award = self._domino_award
        block_award = self._block_award
        pip_sum = self.tiles.pip_sum
        four = players == 4

        def side_pips(packed: int, seat: int) -> tuple[int, int]:
            """(pips of ``seat``'s side, of the other side), straight from the packed hands."""
            if four:
                even = (packed & full) | ((packed >> (2 * shift)) & full)
                odd = ((packed >> shift) & full) | (packed >> (3 * shift))
            else:
                even, odd = packed & full, packed >> shift
            if seat & 1:
                return pip_sum(odd), pip_sum(even)
            return pip_sum(even), pip_sum(odd)

        bound = self._bound
        budget = self.node_budget if self.node_budget is not None else 1 << 62
        lowest = -INFINITY
        horizon = self.horizon
        estimate = self.estimate
        hands_of = self._hands

        def search(packed: int, remaining: int, a: int, b: int, seat: int, alpha: int, beta: int) -> int:
            stats.nodes += 1
            if stats.nodes > budget:
                raise BudgetExceeded
            key = (((packed << 4 | a) << 4 | b) << 2) | seat
            entry = table.get(key)
            best_first = -1
            if entry is not None:
                lower, upper, best_first = entry
                if lower >= beta:
                    return lower
                if upper <= alpha:
                    return upper
                if lower == upper:
                    return lower
                if lower > alpha:
                    alpha = lower
                if upper < beta:
                    beta = upper
            offset = shift * seat
            hand = (packed >> offset) & full
            fitting = hand & (suits[a] | suits[b])
            following = seat + 1 if seat + 1 < players else 0
            if not fitting:
                value = -search(packed, remaining, a, b, following, -beta, -alpha)
                table[key] = bound(value, alpha, beta, entry, -1)
                return value
            order_key = (fitting << 8) | (a << 4) | b
            candidates = orders.get(order_key)
            if candidates is None:
                candidates = orders[order_key] = ordered(fitting, a, b)
            if best_first >= 0 and len(candidates) > 1 and candidates[0][0] != best_first:
                candidates = [c for c in candidates if c[0] == best_first] + [
                    c for c in candidates if c[0] != best_first
                ]
            best = lowest
            best_tile = -1
            window_alpha = alpha
            for index, new_a, new_b in candidates:
                bit = 1 << index
                child = packed ^ (bit << offset)
                if hand == bit:
                    score = domino_award(*side_pips(child, seat))
                else:
                    left = remaining ^ bit
                    if left & (suits[new_a] | suits[new_b]):
                        if horizon and left.bit_count() <= horizon:
                            score = estimate(hands_of(child), seat, new_a, new_b)
                        else:
                            score = -search(child, left, new_a, new_b, following, -beta, -window_alpha)
                    else:
                        mine, theirs = side_pips(child, seat)
                        score = block_award(mine, theirs, seat)
                if score > best:
                    best = score
                    best_tile = index
                    if score > window_alpha:
                        window_alpha = score
                        if window_alpha >= beta:
                            break
            # Store what this search proved (inlined ``_bound``: it runs at every node).
            if entry is None:
                lower, upper = lowest, INFINITY
            else:
                lower, upper = entry[0], entry[1]
            if best <= alpha:
                table[key] = (lower, best if best < upper else upper, best_tile)
            elif best >= beta:
                table[key] = (best if best > lower else lower, upper, best_tile)
            else:
                table[key] = (best, best, best_tile)
            return best

        return search

    @staticmethod
    def _bound(
        value: int, alpha: int, beta: int, entry: tuple[int, int, int] | None, best_tile: int
    ) -> tuple[int, int, int]:
        """Merge what a search with window (alpha, beta) proved into the stored bounds."""
        lower, upper, old_best = entry if entry is not None else (-INFINITY, INFINITY, -1)
        if best_tile < 0:
            best_tile = old_best
        if value <= alpha:
            return lower, min(upper, value), best_tile
        if value >= beta:
            return max(lower, value), upper, best_tile
        return value, value, best_tile

    def _ordered(self, fitting: int, a: int, b: int) -> list[tuple[int, int, int]]:
        """Distinct plays (tile, new low end, new high end), heaviest tiles first.

        Laying heavy tiles first is what good players do and is usually best,
        so trying those first makes most cut-offs happen on the first child.
        """
        halves = self.tiles.halves
        out: list[tuple[int, int, int]] = []
        while fitting:
            high_bit = fitting.bit_length() - 1
            fitting ^= 1 << high_bit
            x, y = halves[high_bit]
            if x == a or y == a:
                other = y if x == a else x
                out.append((high_bit, other, b) if other <= b else (high_bit, b, other))
            if a != b and (x == b or y == b):
                other = y if x == b else x
                item = (high_bit, other, a) if other <= a else (high_bit, a, other)
                if not out or out[-1] != item:
                    out.append(item)
        if len(out) > 1:
            rank = self._rank
            out.sort(key=lambda item: rank[item[0]])
        return out
