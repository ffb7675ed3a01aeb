"""The search bot's speed and strength in one command (``python -m skitgubbe.batch.searchspeed``).

Plays deals with one :class:`~skitgubbe.bots.ismcts.ISMCTSBot` against another bot in every other
seat, seats rotated, and prints iterations and determinizations per second, milliseconds per
searched move (in all and per phase) and the search bot's loser rate with a 95% interval.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from ..bots import make_bot
from ..bots.compiled_model import compiled_model
from ..bots.determinize import Determinizer
from ..bots.ismcts import ENGINES, ROLLOUTS, ISMCTSBot
from ..engine.actions import Action
from ..engine.base import Phase
from ..engine.state import State
from ..engine.variants import find_variant
from ..engine.view import view_of
from ..engine.worlds import world_from_view
from .runner import play_out
from .stats import wilson_interval

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m skitgubbe.batch.searchspeed [--rules R] [--players N] [--games G] [--iterations K]
    [--rollout greedy|random|heuristic|mixed|heuristic-two] [--against BOT] [--seed S]
    [--engine auto|compiled|python]``: search speed
    (iterations and determinizations per second, ms per searched move, in all and per phase) and the
    ismcts bot's loser rate in G deals against the other bot in every other seat, seats rotated,
    with 95% intervals."""
    parser = argparse.ArgumentParser(prog="python -m skitgubbe.batch.searchspeed")
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--rollout", default="greedy", choices=ROLLOUTS)
    parser.add_argument("--against", default="random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", default="auto", choices=ENGINES,
                        help="where the rollouts and phase-two rules run (default auto: compiled if it can)")
    args = parser.parse_args(argv)
    rules = find_variant(args.rules)
    n = args.players
    losses = abandoned = 0
    moves = iterations = 0
    seconds = 0.0
    samples = 0
    sample_seconds = 0.0
    per_phase: dict[int, list[float]] = {}  # Phase -> [searches, iterations, seconds]
    for g in range(args.games):
        me = g % n
        state = State.new(rules, n, dealer=g % n, seed=f"{args.seed}:{g}:deck")
        bot = ISMCTSBot(random.Random(f"{args.seed}:{g}:ismcts"), iterations=args.iterations,
                        rollout=args.rollout, engine=args.engine)
        bots = [bot if s == me else make_bot(args.against, random.Random(f"{args.seed}:{g}:{s}"))
                for s in range(n)]

        phase_before = [state.phase]
        counted = [0]

        def sample_speed(st: State, seat: int, action: Action, me: int = me, bot: ISMCTSBot = bot,
                         phase_before: list[int] = phase_before, counted: list[int] = counted) -> None:
            nonlocal samples, sample_seconds
            if seat == me and bot.searches > counted[0]:  # this decision was searched
                row = per_phase.setdefault(phase_before[0], [0, 0, 0.0])
                row[0] += 1
                row[1] += bot.last_iterations
                row[2] += bot.last_seconds
                counted[0] = bot.searches
            phase_before[0] = st.phase
            if st.to_act == me and len(st.history) % 5 == 0:
                det = Determinizer(world_from_view(view_of(st, me)), me)
                rng = random.Random(len(st.history))
                t = time.perf_counter()
                for _ in range(50):
                    det.sample(rng)
                sample_seconds += time.perf_counter() - t
                samples += 50

        play_out(state, bots, random.Random(f"{args.seed}:{g}:chance"), on_step=sample_speed)
        if state.loser is None:
            abandoned += 1
        elif state.loser == me:
            losses += 1
        moves += bot.searches
        iterations += bot.iterations
        seconds += bot.seconds
    low, high = wilson_interval(losses, args.games)
    engine = "Python" if args.engine == "python" or compiled_model(rules, n) is None else "compiled code"
    print(f"{rules.name}, {n} players, {args.games} deals, ismcts ({args.iterations} iterations, "
          f"{args.rollout} rollouts in {engine}) against {args.against}")
    print(f"  ismcts loser rate {losses / max(1, args.games):.3f} [{low:.3f}, {high:.3f}] "
          f"(even share {1 / n:.3f}); abandoned {abandoned}")
    if seconds:
        print(f"  {iterations / seconds:,.0f} iterations/s, {1000 * seconds / max(1, moves):.1f} ms per "
              f"searched move ({moves} searched moves)")
    for phase, (searches, its, secs) in sorted(per_phase.items()):
        if secs:
            print(f"  {Phase.NAMES[phase]}: {its / secs:,.0f} iterations/s, "
                  f"{1000 * secs / searches:.1f} ms per searched move ({searches:.0f} searched moves)")
    if sample_seconds:
        print(f"  {samples / sample_seconds:,.0f} determinizations/s")


if __name__ == "__main__":
    main()
