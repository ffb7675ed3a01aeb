"""What a card in the phase-two starting hand is worth: the measurement behind the counter bot's
phase-one card worths (docs/bots.md, "counter").

Plays ``--deals`` deals between heuristic bots, keeps every seat's hand when phase two starts,
and fits a logistic regression of "this seat lost" on the number of non-trump and of trump cards
of each rank in that hand (plus "this seat leads phase two").  A positive coefficient is a card
that makes losing more likely.  Needs numpy (any of the project's research extras installs it)::

    nice -n 10 python benchmarks/card_worth.py --rules pagat --players 3 --deals 12000
    nice -n 10 python benchmarks/card_worth.py --rules goat --players 3 --deals 8000
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np

from skitgubbe import State, find_variant
from skitgubbe.batch.runner import play_out
from skitgubbe.bots import HeuristicBot
from skitgubbe.engine.base import Phase


def collect(rules_name: str, players: int, deals: int) -> tuple[np.ndarray, np.ndarray]:
    """Features (one row per seat and deal: 13 non-trump ranks, 13 trump ranks, leads, 1) and
    labels (1.0 for the loser)."""
    rules = find_variant(rules_name)
    rows: list[list[float]] = []
    labels: list[float] = []
    for d in range(deals):
        state = State.new(rules, players, seed=f"c{d}")
        start: dict[str, object] = {}

        def step(st: State, seat: int, action: object, start: dict[str, object] = start) -> None:
            if not start and st.phase == Phase.TWO:
                start.update(hands=list(st.hands), trump=st.trump_suit, lead=st.to_act)

        bots = [HeuristicBot(random.Random(f"{d}:{i}")) for i in range(players)]
        play_out(state, bots, random.Random(d), on_step=step)
        if state.loser is None or not start:
            continue
        hands = start["hands"]
        assert isinstance(hands, list)
        for s, hand in enumerate(hands):
            x = [0.0] * 28
            for c in range(52):
                if hand >> c & 1:
                    x[c % 13 + (13 if c // 13 == start["trump"] else 0)] += 1.0
            x[26] = 1.0 if start["lead"] == s else 0.0
            x[27] = 1.0
            rows.append(x)
            labels.append(1.0 if state.loser == s else 0.0)
    return np.array(rows), np.array(labels)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression by Newton's method (a tiny ridge keeps it defined)."""
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        hess = (x * (p * (1.0 - p))[:, None]).T @ x + 1e-3 * np.eye(len(w))
        w += np.linalg.solve(hess, x.T @ (y - p))
    return w


def main(argv: list[str]) -> None:
    """Print the coefficients per rank (module docstring)."""
    parser = argparse.ArgumentParser(prog="python benchmarks/card_worth.py")
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--deals", type=int, default=2000)
    args = parser.parse_args(argv)
    x, y = collect(args.rules, args.players, args.deals)
    w = fit(x, y)
    deals = len(y) // args.players
    print(f"{args.rules}, {args.players} players, {deals} deals: log-odds of losing per card")
    print("rank        " + " ".join(f"{r:>5}" for r in "23456789TJQKA"))
    print("non-trump   " + " ".join(f"{v:+.2f}" for v in w[:13]))
    print("trump       " + " ".join(f"{v:+.2f}" for v in w[13:26]))
    print(f"leads phase two {w[26]:+.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
