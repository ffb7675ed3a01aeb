"""How often one phase-two playout names the real loser: the measurement behind the ismcts bot's
``heuristic-two`` rollout policy (docs/bots.md, "Rollout policies").

Plays ``--deals`` deals between counter bots, keeps the position where phase two starts, and
plays it out once by each phase-two playout rule (``greedy_two``, ``heuristic_two``; every card
is placed, so each playout is one deterministic line of play).  Prints the share of deals in
which the playout's loser is the deal's real loser (an even guess names it 1/players of the
time)::

    nice -n 10 python benchmarks/loser_prediction.py --rules pagat --players 3 --deals 1500
    nice -n 10 python benchmarks/loser_prediction.py --rules goat --players 3 --deals 1000
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable

from skitgubbe import Action, State, find_variant
from skitgubbe.batch.runner import play_out
from skitgubbe.bots import CounterBot
from skitgubbe.bots.playouts import greedy_two, heuristic_two
from skitgubbe.engine.base import Phase

LIMIT = 2000
"""Most actions in one playout; a longer one names no loser."""


def starts(rules_name: str, players: int, deals: int) -> list[tuple[State, int]]:
    """``(the first phase-two position, the real loser)`` of each deal between counter bots that
    reached phase two and ended with a loser; deal ``d`` is shuffled with seed ``"ev{d}"``."""
    rules = find_variant(rules_name)
    out: list[tuple[State, int]] = []
    for d in range(deals):
        state = State.new(rules, players, seed=f"ev{d}")
        box: list[State] = []

        def step(st: State, seat: int, action: Action, box: list[State] = box) -> None:
            if not box and st.phase == Phase.TWO:
                box.append(st.clone())

        bots = [CounterBot(random.Random(f"{d}:{i}")) for i in range(players)]
        play_out(state, bots, random.Random(d), on_step=step)
        if state.loser is not None and box:
            out.append((box[0], state.loser))
    return out


def playout_loser(start: State, rule: Callable[[State, int], Action]) -> int:
    """The loser when every seat plays ``rule`` from ``start`` (not changed), or -1."""
    st = start.clone()
    for _ in range(LIMIT):
        if st.phase != Phase.TWO:
            break
        st.apply(rule(st, st.to_act), st.to_act, trusted=True)
    return -1 if st.loser is None else st.loser


def main(argv: list[str]) -> None:
    """Print the share of real losers each playout rule names (module docstring)."""
    parser = argparse.ArgumentParser(prog="python benchmarks/loser_prediction.py")
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--deals", type=int, default=500)
    args = parser.parse_args(argv)
    data = starts(args.rules, args.players, args.deals)
    print(f"{args.rules}, {args.players} players, {len(data)} deals between counter bots "
          f"(an even guess: {1 / args.players:.1%})")
    for name, rule in (("greedy_two", greedy_two), ("heuristic_two", heuristic_two)):
        hits = sum(playout_loser(st, rule) == loser for st, loser in data)
        print(f"  {name:14} names the loser in {hits / max(1, len(data)):.1%}")


if __name__ == "__main__":
    main(sys.argv[1:])
