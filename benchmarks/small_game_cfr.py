"""Solve the small game (the research preset ``mini``) with CFR+ and measure how far each bot is from
an equilibrium (its ``nash_conv``).

    python benchmarks/small_game_cfr.py                           # CFR+ for up to 200 iterations / 120 s
    python benchmarks/small_game_cfr.py --iterations 20 --seconds 30 --ismcts-iterations 50

Prints the game tree's size, then CFR+ (OpenSpiel's ``open_spiel.python.algorithms.cfr``,
``CFRPlusSolver``) iteration by iteration with the ``nash_conv`` of its average policy every
``--every`` iterations, then a table: the ``nash_conv`` of each bot as a policy
(:class:`skitgubbe.adapters.small_game.BotPolicy`: the bot asked with the acting seat's view at every
information state; deterministic given the seed with ``--seeds 1``, else the share of ``--seeds``
seeded bots choosing each action; ``random`` exactly uniform) and of the CFR+ average policy, with
the CPU seconds each took.

``nash_conv`` is the sum over the players of what a best response to the others' policies gains over
the policy itself: 0 at an equilibrium, and in the units of the game's returns (-1 for the loser, +1
for the winner at two seats), so a ``nash_conv`` of 0.5 means the two best responses gain half a
deal's stake between them.  CPU time: ``time.process_time``.  Needs ``open_spiel``.
"""

from __future__ import annotations

import argparse
import time

from open_spiel.python.algorithms import cfr, exploitability  # type: ignore[import-not-found, import-untyped, unused-ignore]

from skitgubbe.adapters.small_game import MINI_MAX_TURNS, BotPolicy, count_tree, load_mini

BOTS = ("random", "heuristic", "counter", "learned", "ismcts")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--iterations", type=int, default=200, help="most CFR+ iterations (default 200)")
    p.add_argument("--seconds", type=float, default=120.0,
                   help="stop CFR+ after this many CPU seconds (default 120)")
    p.add_argument("--every", type=int, default=5,
                   help="print nash_conv every this many iterations (default 5)")
    p.add_argument("--ismcts-iterations", type=int, default=200,
                   help="the ismcts bot's iterations a decision (default 200)")
    p.add_argument("--seeds", type=int, default=1,
                   help="seeded bots averaged into each bot's policy (default 1: deterministic per seed)")
    p.add_argument("--max-turns", type=int, default=MINI_MAX_TURNS,
                   help=f"the game's turn cap in decisions (default {MINI_MAX_TURNS}; a capped deal "
                        "scores 0)")
    args = p.parse_args()
    if args.iterations < 1 or args.seconds <= 0 or args.every < 1:
        p.error("--iterations and --every must be at least 1, --seconds above 0")

    game = load_mini(args.max_turns)
    t = time.process_time()
    size = count_tree(game)
    print(f"mini, 2 seats, max_turns {args.max_turns}: {size.states} states, {size.info_states} information "
          f"states, {size.terminals} terminal ({size.truncated} at the turn cap), depth {size.depth} "
          f"({time.process_time() - t:.1f} s)", flush=True)

    start = time.process_time()
    solver = cfr.CFRPlusSolver(game)
    done = 0
    conv = float("nan")
    while done < args.iterations and time.process_time() - start < args.seconds:
        solver.evaluate_and_update_policy()
        done += 1
        if done % args.every == 0 or done == 1:
            conv = exploitability.nash_conv(game, solver.average_policy())
            print(f"CFR+ iteration {done:4d}: nash_conv {conv:.5f}  ({time.process_time() - start:.1f} s)",
                  flush=True)
    if done % args.every:
        conv = exploitability.nash_conv(game, solver.average_policy())
        print(f"CFR+ iteration {done:4d}: nash_conv {conv:.5f}  ({time.process_time() - start:.1f} s)")
    cfr_seconds = time.process_time() - start

    rows = []
    for name in BOTS:
        bot = f"ismcts-{args.ismcts_iterations}it" if name == "ismcts" else name
        t = time.process_time()
        policy = BotPolicy(game, bot, seeds=args.seeds)
        rows.append((bot, exploitability.nash_conv(game, policy), time.process_time() - t))
    rows.append((f"CFR+ ({done} iterations)", conv, cfr_seconds))
    seeds = "deterministic per seed" if args.seeds == 1 else f"averaged over {args.seeds} seeds"
    print(f"\n| policy | nash_conv | CPU s |\n|---|---:|---:|   (bots: {seeds})")
    for label, value, seconds in rows:
        print(f"| {label} | {value:.5f} | {seconds:.1f} |")


if __name__ == "__main__":
    main()
