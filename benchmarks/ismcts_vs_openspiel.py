"""Our ``ismcts`` bot against OpenSpiel's Python IS-MCTS bot, in full deals of ``python_skitgubbe``.

Every deal is played by OpenSpiel's ``evaluate_bots`` on the OpenSpiel game (explicit chance,
every-seat sluff windows: see ``skitgubbe.adapters.openspiel``):

* OpenSpiel's ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (the Python one: the C++ MCTS and
  IS-MCTS bots crash on Python games in open_spiel 2.0.2) with its Python random rollout
  evaluator (``mcts.RandomRolloutEvaluator``), sampling worlds with the game's
  ``resample_from_infostate``;
* our :class:`skitgubbe.bots.ismcts.ISMCTSBot`, wrapped as an OpenSpiel bot: it gets the seat's
  :class:`~skitgubbe.engine.view.View` from the game state (``SkitgubbeState.view``: the adapter keeps the
  engine State inside its state) and the legal action ids mapped to engine Actions
  (``skitgubbe.adapters.encoding``), and answers with the id of the Action it chooses;
* OpenSpiel's uniform random bot in every other seat.

Both searchers use the same number of iterations (simulations) per move and the same exploration
constant.  Seats rotate: in deal ``g`` OpenSpiel's bot sits at ``g % players``, ours at
``(g + 1) % players``.  Printed: each bot's loser rate with a 95% Wilson interval, and the mean
milliseconds per move it was asked for (a move with a single legal action included).

One difference in what the searchers see: our bot reads the engine's View, whose history holds
only the passes the engine waited for, so under sluffing rules it knows who could sluff, which the
OpenSpiel protocol hides (every seat is asked).  The default preset, ``pagat``, has no sluffing.

Run (it needs the ``openspiel`` extra)::

    .venv/bin/python benchmarks/ismcts_vs_openspiel.py --games 20 --iterations 50
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.bots.uniform_random import UniformRandomBot

import skitgubbe.adapters.openspiel  # noqa: F401  (registers python_skitgubbe)
from skitgubbe.adapters import encoding
from skitgubbe.batch.stats import wilson_interval
from skitgubbe.bots.ismcts import ISMCTSBot


class OurBot(pyspiel.Bot):  # type: ignore[misc]
    """:class:`ISMCTSBot` as an OpenSpiel bot (see the module docstring)."""

    def __init__(self, bot: ISMCTSBot) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player: int, action: int) -> None:
        pass

    def step(self, state: Any) -> int:
        player = state.current_player()
        ids = state.legal_actions(player)
        if len(ids) == 1:
            return int(ids[0])
        legal = [encoding.action_of(i) for i in ids]
        return encoding.action_id(self.bot.choose(state.view(player), legal))


class QuietISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python IS-MCTS bot with the no-op ``restart_at`` and ``inform_action`` that
    ``evaluate_bots`` calls."""

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player: int, action: int) -> None:
        pass


class Timed(pyspiel.Bot):  # type: ignore[misc]
    """Forwards to ``bot`` and adds the time each ``step`` takes to ``clock[name]``."""

    def __init__(self, name: str, bot: Any, clock: dict[str, list[float]]) -> None:
        pyspiel.Bot.__init__(self)
        self.name = name
        self.bot = bot
        self.clock = clock

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player: int, action: int) -> None:
        pass

    def step(self, state: Any) -> int:
        start = time.perf_counter()
        action = int(self.bot.step(state))
        entry = self.clock[self.name]
        entry[0] += time.perf_counter() - start
        entry[1] += 1
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="pagat", help="preset (default pagat)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=6, help="deals (default 6)")
    parser.add_argument("--iterations", type=int, default=50, help="iterations (simulations) per move")
    parser.add_argument("--exploration", type=float, default=0.7, help="UCB constant of both searchers")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    n = args.players
    game = pyspiel.load_game(f"python_skitgubbe(rules={args.rules},players={n})")
    names = ("openspiel-ismcts", "ismcts", "random")
    losses = dict.fromkeys(names, 0)
    seat_games = dict.fromkeys(names, 0)
    clock: dict[str, list[float]] = {name: [0.0, 0.0] for name in names}
    abandoned = 0
    for g in range(args.games):
        seed = args.seed * 100_003 + g
        theirs = QuietISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed)),
            args.exploration,
            args.iterations,
            random_state=np.random.RandomState(seed + 1),
        )
        ours = OurBot(ISMCTSBot(random.Random(seed), iterations=args.iterations,
                                exploration=args.exploration))
        seats: list[tuple[str, Any]] = []
        for s in range(n):
            if s == g % n:
                seats.append(("openspiel-ismcts", theirs))
            elif s == (g + 1) % n:
                seats.append(("ismcts", ours))
            else:
                seats.append(("random", UniformRandomBot(s, np.random.RandomState(seed + 2 + s))))
        bots = [Timed(name, bot, clock) for name, bot in seats]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots,
                                              np.random.RandomState(seed + 99))
        for name, _ in seats:
            seat_games[name] += 1
        if all(r == 0 for r in returns):
            abandoned += 1
        else:
            losses[seats[int(np.argmin(returns))][0]] += 1
        print(f"deal {g + 1}/{args.games}: loser {seats[int(np.argmin(returns))][0]}", flush=True)
    print(f"{args.rules}, {n} players, {args.games} deals, {args.iterations} iterations per move; "
          f"abandoned {abandoned}")
    print(f"{'bot':<18}{'seat-deals':>11}{'losses':>8}{'loser rate':>12}  {'95% interval':<16}{'ms/move':>9}")
    for name in names:
        k, m = losses[name], seat_games[name]
        low, high = wilson_interval(k, m)
        seconds, moves = clock[name]
        ms = 1000 * seconds / moves if moves else 0.0
        print(f"{name:<18}{m:>11}{k:>8}{k / m if m else 0.0:>12.3f}  [{low:.3f}, {high:.3f}]  {ms:>9.1f}")


if __name__ == "__main__":
    main()
