"""The hard level: sample the hidden hands, solve each sample, take the best weighted average.

This is perfect-information Monte Carlo: the bot reads what the view proves
about the hidden tiles (hand sizes, and the suits each seat passed or drew on,
see ``amigos.bots.knowledge``), deals the unseen tiles at random in ways that
fit that knowledge, and for each such world asks the Academy's solver for the
value of every legal action.  In Amigos and Cuban the worlds are drawn by how
likely they make the plays already seen (``amigos.bots.likelihood``: the
opponents read as players of the normal level's rules, the partner as one who
lays heavy tiles first; a pool of worlds is sampled and weighed, and the worlds
solved are drawn from it by weight); the action with the best average value
wins.

Time is bounded by a *node budget* per decision, not by the clock, so the
choice depends only on the view and the random generator: the same view and
the same generator state always give the same action, on any machine, and no
hidden tile can influence it (the bot never sees one).  The budgets are sized
so that a decision takes well under the goal times on one core (see
docs/bots.md for the measured figures).

* Two-ended games (Amigos, Cuban): each world is searched by the compact
  solver (its compiled kernel), sharing one transposition table across the
  worlds of a decision, from the hand's first tile on.  With more than
  ``exact_tiles`` in the hands (an Amigos hand's first four tiles, Cuban's
  first half) each world is searched ``horizon_depth`` tiles deep, and the
  positions reached there are scored by the solver's estimate of the award
  (``TwoEndedSolver.horizon``): a world of an Amigos lead searched to the end
  takes about half a million nodes, so a few thousand buy many more worlds.
  Where the estimate does not model the scoring (amigos-200, amigos-hands)
  every world is searched to the end.  When the budget runs out before
  ``min_worlds`` worlds were solved the normal level decides.  In Cuban 2v2
  the estimate is Cuban's own (``CUBAN_ESTIMATE``) and the normal level also
  chooses among the plays valued within ``defer_margin`` of the best: the
  worlds there are rough guesses, and a world's search cannot see what a play
  tells a partner.
* Draw and fives games: each world (hidden hands and boneyard order) is built
  with ``SeatView.determinize`` and searched by ``SpinnerSearch``: with three
  or four players to the end of the hand when that fits a small budget (late
  in a hand it does, and the value is then exact for that world), otherwise to
  a fixed depth.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal, NamedTuple

from amigos.academy.compact import tile_set_for
from amigos.academy.solve import compact_move, is_two_ended, rules_for
from amigos.academy.spinner_search import Rivals, SpinnerSearch
from amigos.academy.two_ended import (
    CUBAN_ESTIMATE,
    PIPS_ESTIMATE,
    BudgetExceeded,
    HorizonEstimate,
    Move,
    Position,
    TwoEndedSolver,
)
from amigos.bots.base import options
from amigos.bots.knowledge import BONEYARD, Knowledge, infer, sample_world
from amigos.bots.likelihood import (
    FollowModel,
    PastChoice,
    PipsModel,
    past_choices,
    relative_weights,
    systematic_resample,
)
from amigos.bots.normal import NormalBot
from amigos.engine import Action, Play, Tile, Variant
from amigos.engine.view import SeatView

#: How the hard level reads the other players' past plays (`HardSettings.play_model`).
PlayModel = Literal["pips", "follow", "opponents"]


@dataclass(frozen=True)
class HardSettings:
    """Budgets of the hard level (nodes of search per decision, number of sampled worlds).

    The two-ended budgets count nodes of the compiled kernel (about 5 M nodes a second on one core
    of the development machine); the spinner budgets count nodes of the Python ``SpinnerSearch``
    (about 40 k a second).
    """

    lead_nodes: int = 1_100_000  # the hand's first tile: an Amigos world takes about 0.46 M nodes
    early_nodes: int = 500_000  # other decisions before the 8th tile (fewer than 7 tiles laid)
    late_nodes: int = 150_000  # from the 8th tile on
    max_worlds: int = 40
    min_worlds: int = 2  # fewer exact worlds than this: the shallow search below (or normal) decides
    # Exact worlds are tried only with at most this many tiles in the hands (an Amigos lead has 28).
    exact_tiles: int = 24
    # With more tiles in the hands than ``exact_tiles``: 0, no search of the worlds (the shallow
    # search below or the normal level decides); else each world is searched this many tiles deep
    # by the same solver, the positions at that depth scored by its estimate (``horizon``), where
    # the estimate models the scoring (`TwoEndedRules.estimable`; elsewhere worlds are exact).
    # In amigos-100 the first four tiles so searched matched searching them to the end against
    # normal (900 paired deals, seeds 102, 7 and 2026: +0.12, +0.04 and +0.31 a hand) with under
    # half the thinking time (p95 75 to 83 ms a decision against 183 to 198): more worlds fit.
    horizon_depth: int = 12
    # How the positions at that depth are scored (``amigos.academy.two_ended.HorizonEstimate``).
    horizon_estimate: HorizonEstimate = PIPS_ESTIMATE
    # Plays whose searched value is within this many points of the best are ranked by the normal
    # level's rules of thumb (0: only exact ties). A world is perfect information, so the search
    # cannot see what a play tells a partner or costs against a seat that passed; where its worlds
    # are rough guesses (Cuban: 15 tiles set aside, never seen) those rules rank near-equal plays
    # better, and the search vetoes the plays it values well below the best (docs/bots.md).
    defer_margin: float = 0.0
    play_inference: bool = True  # weight worlds by the likelihood of the plays seen
    # The model of the other players behind that weighting (``amigos.bots.likelihood``): "pips"
    # (heavy tiles first, ``play_beta`` a pip), "follow" (the normal level's rules of thumb,
    # ``follow_beta``, for every other seat) or "opponents" (the rules for the opponents, pips for
    # the partner, whose plays answer a search rather than rules). The rules without their public
    # part (partner's suits, voids) and on every seat lost 2.24 a hand to "pips" (105 paired
    # Amigos deals); with it, on the opponents and with worlds drawn from ``world_pool`` below,
    # they gained (docs/bots.md).
    play_model: PlayModel = "opponents"
    play_beta: float = 0.3
    follow_beta: float = 1.0
    # Worlds drawn for a decision where plays were seen: this many are sampled, weighed by the
    # model, and ``max_worlds`` of them drawn in proportion to their weights (systematic
    # resampling), then solved with equal weights. Weighing the solved worlds instead lets a
    # sharp model leave a few worlds to decide (of 200 weighed worlds, a median of 63 counted with
    # the rules at beta 0.6 and 35 at beta 1.5, 125 with pips: 190 decisions of 60 deals of normal
    # players); 0: weigh the solved worlds.
    world_pool: int = 400
    # Before the 8th tile, search only this many of the plays the normal level scores best (0: all),
    # so that the budget covers more worlds where a world is dear. 3 was no better against normal
    # (180 paired Amigos deals: -0.92, interval -2.92 to +1.08), so it is off.
    early_actions: int = 0
    # When no exact world fits (Cuban's opening: 40 tiles in the hands), a determinized search
    # ``shallow_depth`` actions deep over ``shallow_worlds`` worlds, ``shallow_nodes`` in all; 0
    # worlds: the normal level's rules decide there. Off by default: in Cuban 2v2 against normal
    # it cost 4.1 points a hand with Cuban's budgets (300 deals: -3.43, 95% interval -6.38 to
    # -0.48, against +0.66 without it; docs/bots.md).
    shallow_depth: int = 4
    shallow_worlds: int = 0
    shallow_nodes: int = 12_000
    # Draw and fives games: with at least ``exact_min_players`` players, each world is first searched
    # to the end of the hand within ``exact_nodes``; when that does not finish (or with fewer
    # players), ``spinner_depth`` actions deep within ``spinner_nodes``. Between two players the
    # search to the end lost 2.25 points a hand to the depth-limited one (60 deals of All Fives,
    # interval -4.8 to +0.3): a world's boneyard order is known to it, and the further it looks the
    # more it plays for draws it cannot foresee (docs/bots.md).
    exact_nodes: int = 3_000
    exact_min_players: int = 3
    spinner_depth: int = 4
    spinner_worlds: int = 12
    spinner_nodes: int = 12_000
    # With ``exact_min_players`` or more, a world not searched to the end is searched
    # ``group_depth`` actions deep within ``group_nodes``, over ``group_worlds`` worlds: deeper
    # and over fewer worlds than between two. Four actions are one round of the table, which leaves
    # the reply to the seat's next tile unseen. Against normal, seed 5: All Fives +4.90 (interval
    # +1.36 to +8.44, 200 deals) where four actions over 12 worlds read +0.10; the draw game +6.13
    # (300 deals, +6.08 before) and Fives and Threes -1.55 (200 deals, -1.44 before) unchanged;
    # about 1.6 times the thinking time (docs/bots.md).
    group_depth: int = 6
    group_worlds: int = 8
    group_nodes: int = 40_000
    # At a table of three or four, each for themselves, a world's value is the seat's gain minus
    # the mean gain of the others ("mean"), not minus the best of them ("best", what the Academy
    # shows). Against normal, seed 5, 200 deals: Fives and Threes +2.21 (interval -1.89 to +6.31)
    # against -1.55 with "best" (on 400 deals +3.29, +0.51 to +6.08), All Fives +6.01 (+2.29 to
    # +9.74) against +4.90, the draw game +5.98 (300 deals) against +6.13; the same nodes searched
    # (docs/bots.md). Against the best rival alone, every other seat's play looks aimed
    # at the root seat, and the search gave up points to keep one rival from scoring.
    spinner_rivals: Rivals = "mean"

    def spinner_budget(self, players: int) -> SpinnerBudget:
        """How a draw or fives game's worlds are searched at a table of ``players``: from
        ``exact_min_players`` on, each first to the end of the hand and otherwise ``group_depth``
        deep; with fewer, ``spinner_depth`` deep only."""
        if players >= self.exact_min_players:
            return SpinnerBudget(
                self.group_worlds, self.exact_nodes, self.group_depth, self.group_nodes, self.spinner_rivals
            )
        return SpinnerBudget(
            self.spinner_worlds, 0, self.spinner_depth, self.spinner_nodes, self.spinner_rivals
        )


class SpinnerBudget(NamedTuple):
    """A decision's search of the draw and fives games (`HardSettings.spinner_budget`): how many
    ``worlds``, the nodes each may take to the end of the hand (``exact_nodes``, 0: not tried),
    the ``depth`` and ``nodes`` of its depth-limited search otherwise, and whom a margin is
    measured against (``rivals``, see ``SpinnerSearch``)."""

    worlds: int
    exact_nodes: int
    depth: int
    nodes: int
    rivals: Rivals


#: The expert level: the same search with two to four times the budgets, for players who can wait
#: a little longer per decision (see docs/bots.md for the measured times).
EXPERT_SETTINGS = HardSettings(
    lead_nodes=3_000_000,
    early_nodes=1_200_000,
    late_nodes=400_000,
    max_worlds=80,
    min_worlds=3,
    exact_tiles=36,
    exact_nodes=12_000,
    spinner_worlds=24,
    spinner_nodes=12_000,
    group_worlds=16,
)


#: Cuban's budgets. Searched to the end, a Cuban world fits a decision's budget only from about
#: 28 tiles in the hands (the last third of a hand): with budgets that searched only there (110,000
#: nodes before the 8th tile, 8,000 after) hard played the normal level's rules for most of a hand
#: and was even with normal in Cuban 2v2 (+0.66 a hand, 95% interval -1.80 to +3.11, 300 deals;
#: Amigos' budgets -1.41, a shallow Python search where no world fits -3.43). So above 20 tiles in
#: the hands each world is searched 12 tiles deep (a few thousand kernel nodes) to a horizon scored
#: by the solver's estimate; docs/bots.md has the runs.
#: The highest pip of the double-nine set, whose games (Cuban) search on :data:`CUBAN_SETTINGS`.
DOUBLE_NINE = 9
#: Cuban reads the other players by pips, not by the rules: with the opponents read by the rules
#: and worlds drawn from a pool of 400, Cuban 2v2 read +2.53 a hand against +3.23 (-0.69 paired,
#: -4.69 to +3.30, 300 deals of seed 5), thinking p95 54.5 ms a decision from the 8th tile
#: against 14.3 (docs/bots.md). Its horizon is scored by
#: Cuban's own estimate, and plays within 6 points of the best are ranked by the normal level's
#: rules: together +3.03 a hand (+0.79 to +5.26, paired over 1,000 deals of seed 5) over the level
#: without either. With Cuban's estimate, worlds are searched to the end only from 20 tiles in the
#: hands (24 before): +1.56 (+0.32 to +2.79) paired on the same deals, +1.01 on 600 of seed 11
#: (18 and 16 tiles: no better than 20). Then the worlds, read by pips as before, drawn from a
#: pool of 400 sampled and weighed (as in Amigos) instead of the solved worlds weighed: +2.30 a
#: hand (+0.32 to +4.28) paired over the 1,000 deals of seed 5, +2.74 (+0.18 to +5.30) over 600
#: of seed 11 (``amigos arena-compare``). Weighing the solved worlds let a few of them decide (a
#: sharper model, pips at 0.6 a pip, lost 3.31); the pool keeps 40 in play. Its 400 worlds are
#: sampled and weighed at every decision, affordable once both were made faster (``PipsModel``,
#: ``Knowledge.options``): p95 25 ms a decision from the 8th tile, against 45 ms before.
CUBAN_SETTINGS = HardSettings(
    lead_nodes=500_000,
    early_nodes=300_000,
    late_nodes=80_000,
    min_worlds=3,
    exact_tiles=20,
    horizon_depth=12,
    horizon_estimate=CUBAN_ESTIMATE,
    defer_margin=6.0,
    play_model="pips",
    world_pool=400,
)
#: Cuban 1v1 keeps the budgets above had before the horizon: its hands hold 20 tiles, so every
#: world is searched to the end from the first tile. With Cuban 2v2's budgets it was slower (p95
#: 173 ms against 39) and no stronger (40 deals: +9.25 against +13.46 a hand); docs/bots.md. Like
#: Cuban 2v2 it reads the other player by pips (the rules model was not measured there).
CUBAN_1V1_SETTINGS = HardSettings(
    lead_nodes=110_000,
    early_nodes=110_000,
    late_nodes=8_000,
    min_worlds=3,
    exact_tiles=40,
    play_model="pips",
    world_pool=0,
)


class HardBot:
    """Perfect-information Monte Carlo over the Academy's solvers (see the module docstring)."""

    name = "hard"

    def __init__(
        self,
        settings: HardSettings | None = None,
        name: str = "hard",
        cuban: HardSettings | None = None,
    ) -> None:
        self.settings = settings or HardSettings()
        # Cuban's budgets: CUBAN_SETTINGS (2v2) and CUBAN_1V1_SETTINGS for the default bot; a bot
        # given settings uses them in every game unless it is given Cuban's too (then in both
        # Cuban games; tests give small budgets everywhere).
        self.cuban = cuban or (CUBAN_SETTINGS if settings is None else self.settings)
        self.cuban_1v1 = cuban or (CUBAN_1V1_SETTINGS if settings is None else self.settings)
        self.name = name
        self._heuristic = NormalBot()

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        actions = options(view)
        if len(actions) == 1:
            return actions[0]
        knowledge = infer(view)
        totals: dict[Action, float] | None = None
        # The double-nine set (Cuban) deals worlds too big to search to the end early: its own budgets.
        settings = self.settings
        if view.variant.max_pip >= DOUBLE_NINE:
            settings = self.cuban if view.variant.players == 4 else self.cuban_1v1
        if is_two_ended(view.variant):
            hidden = sum(size for slot, size in knowledge.sizes.items() if slot != BONEYARD)
            in_hands = len(view.hand) + hidden
            # A scoring the horizon's estimate does not model (amigos-200, amigos-hands) is searched
            # to the end whatever ``exact_tiles`` says, as before the horizon.
            estimable = rules_for(view.variant, view.tie_winner).estimable
            if in_hands <= settings.exact_tiles or (settings.horizon_depth > 0 and not estimable):
                totals = self._two_ended_totals(view, knowledge, actions, rng, settings)
            elif settings.horizon_depth > 0:
                horizon = max(0, in_hands - settings.horizon_depth)
                totals = self._two_ended_totals(view, knowledge, actions, rng, settings, horizon)
            if totals is None and settings.shallow_worlds > 0:  # no exact world fitted
                totals = self._determinized_totals(
                    view,
                    knowledge,
                    rng,
                    worlds=settings.shallow_worlds,
                    exact_nodes=0,
                    depth=settings.shallow_depth,
                    nodes=settings.shallow_nodes,
                    shared=True,
                    rivals=settings.spinner_rivals,
                )
        else:
            budget = settings.spinner_budget(view.variant.players)
            totals = self._determinized_totals(
                view,
                knowledge,
                rng,
                worlds=budget.worlds,
                exact_nodes=budget.exact_nodes,
                depth=budget.depth,
                nodes=budget.nodes,
                shared=False,
                rivals=budget.rivals,
            )
        if totals is None:
            # No world fitted (Cuban's opening, unless ``shallow_worlds`` is set; tiny test budgets):
            # the normal level's rules of thumb answer.
            return self._heuristic.choose(view, rng)
        best = max(totals.values())
        near = best - settings.defer_margin - 1e-9
        top = [action for action in actions if totals.get(action, -float("inf")) >= near]
        if len(top) == 1:
            return top[0]
        # Equal values (or within ``defer_margin``): the normal level's rules of thumb choose.
        heuristic = self._heuristic.scores(view)
        return max(top, key=lambda action: heuristic.get(action, 0.0))

    def _two_ended_totals(
        self,
        view: SeatView,
        knowledge: Knowledge,
        actions: list[Action],
        rng: random.Random,
        settings: HardSettings,
        horizon: int = 0,
    ) -> dict[Action, float] | None:
        variant = view.variant
        seat = view.seat
        assert seat is not None
        laid = len(view.line.placements)
        if laid == 0:
            budget = settings.lead_nodes
        else:
            budget = settings.early_nodes if laid < 7 else settings.late_nodes
        solver = TwoEndedSolver(
            rules_for(variant, view.tie_winner),
            node_budget=budget,
            horizon=horizon,
            estimator=settings.horizon_estimate,
        )
        moves: dict[Action, Move] = {
            action: compact_move(view.line, action, variant.max_pip)
            for action in actions
            if isinstance(action, Play)
        }
        tiles = tile_set_for(variant.max_pip)
        own = tiles.mask_of(view.hand)
        ends: tuple[int, int] | None = None
        if not view.line.is_empty:
            a, b = view.line.open_ends()
            ends = (a, b)
        choices = past_choices(view) if settings.play_inference else []
        weigh = self._weigher(choices, variant, seat, settings)
        only: set[Move] | None = None
        if settings.early_actions and laid < 7 and len(moves) > settings.early_actions:
            heuristic = self._heuristic.scores(view)
            ranked = sorted(moves, key=lambda action: -heuristic.get(action, 0.0))
            moves = {action: moves[action] for action in ranked[: settings.early_actions]}
            only = set(moves.values())
        drawn = self._drawn_worlds(knowledge, rng, settings, weigh if choices else None)
        solved: list[tuple[float, dict[Move, int]]] = []
        known: dict[tuple[int, ...], dict[Move, int]] = {}
        for weight, world in drawn:
            hands = tuple(
                own if other == seat else tiles.mask_of(world[other]) for other in range(variant.players)
            )
            values = known.get(hands)
            if values is None:
                try:
                    values = known[hands] = solver.action_values(Position(hands, ends, seat), only)
                except BudgetExceeded:
                    break
            solved.append((weight, values))
        if len(solved) < settings.min_worlds:
            return None
        # Weight each world by how well it explains the plays seen (see amigos.bots.likelihood).
        weights = relative_weights([weight for weight, _ in solved])
        norm = sum(weights)
        return {
            action: sum(w * values[move] for w, (_, values) in zip(weights, solved, strict=True)) / norm
            for action, move in moves.items()
        }

    @staticmethod
    def _drawn_worlds(
        knowledge: Knowledge,
        rng: random.Random,
        settings: HardSettings,
        weigh: Callable[[dict[int, list[Tile]]], float] | None,
    ) -> Iterator[tuple[float, dict[int, list[Tile]]]]:
        """The worlds a decision solves, each with its log-weight, lazily (the budget may stop the
        solving early). Without ``weigh`` (no play seen yet) they are sampled as they fit the
        voids and all weigh the same; with it, from a pool of ``world_pool`` sampled and
        weighed, ``max_worlds`` are drawn in proportion to their weights and weigh the same; with
        no pool, each sampled world is weighed and solved."""
        count = settings.max_worlds
        if weigh is None or settings.world_pool <= count:
            for _ in range(count):
                world = sample_world(knowledge, rng)
                yield (0.0 if weigh is None else weigh(world)), world
            return
        pool = [sample_world(knowledge, rng) for _ in range(settings.world_pool)]
        for index in systematic_resample([weigh(world) for world in pool], count, rng):
            yield 0.0, pool[index]

    @staticmethod
    def _weigher(
        choices: list[PastChoice], variant: Variant, seat: int, settings: HardSettings
    ) -> Callable[[dict[int, list[Tile]]], float]:
        """The log-likelihood of the plays seen in a world, under the settings' model of players."""
        beta = settings.play_beta
        if settings.play_model == "pips":
            return PipsModel(choices, beta).log_likelihood
        if settings.play_model == "follow":
            return FollowModel(choices, variant.max_pip, settings.follow_beta).log_likelihood
        team = variant.team_of(seat)
        partners = [choice for choice in choices if variant.team_of(choice.seat) == team]
        rules = FollowModel(
            [choice for choice in choices if variant.team_of(choice.seat) != team],
            variant.max_pip,
            settings.follow_beta,
        )
        pips = PipsModel(partners, beta)
        return lambda world: pips.log_likelihood(world) + rules.log_likelihood(world)

    def _determinized_totals(
        self,
        view: SeatView,
        knowledge: Knowledge,
        rng: random.Random,
        *,
        worlds: int,
        exact_nodes: int,
        depth: int,
        nodes: int,
        shared: bool,
        rivals: Rivals,
    ) -> dict[Action, float] | None:
        """Average, over sampled worlds, of each action's value by ``SpinnerSearch``.

        Each world (hidden hands and the boneyard's order, from ``SeatView.determinize``) is first
        searched to the end of the hand within ``exact_nodes`` (0: not tried); when that does not
        finish, ``depth`` actions deep within ``nodes`` (and so are the decision's later worlds).
        ``shared``: ``nodes`` is the budget of the whole decision (a world that does not fit ends
        the sampling), else of each world (a world that does not fit is skipped). ``rivals``: whom
        each world's margin is measured against (``SpinnerSearch``).
        """
        totals: dict[Action, float] = {}
        solved = 0
        spent = 0
        to_the_end = exact_nodes > 0
        for _ in range(worlds):
            world = sample_world(knowledge, rng)
            others = {slot: tiles for slot, tiles in world.items() if slot != BONEYARD}
            state = view.determinize(others, world.get(BONEYARD, []))
            values: dict[Action, float] | None = None
            if to_the_end:
                try:
                    values = SpinnerSearch(depth=None, node_budget=exact_nodes, rivals=rivals).action_values(
                        state
                    )
                except BudgetExceeded:
                    # The worlds of one decision are alike in size: if this one does not finish,
                    # the others would not either, so the rest go straight to the depth-limited search.
                    to_the_end = False
            if values is None:
                limit = nodes - spent if shared else nodes
                search = SpinnerSearch(depth=depth, node_budget=limit, rivals=rivals)
                try:
                    values = search.action_values(state)
                except BudgetExceeded:
                    if shared:
                        break
                    continue
                finally:
                    spent += search.nodes
            for action, value in values.items():
                totals[action] = totals.get(action, 0.0) + value
            solved += 1
        if solved == 0:
            return None
        return {action: total / solved for action, total in totals.items()}
