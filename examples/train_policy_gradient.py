"""Masked REINFORCE against random bots: a minimal policy-gradient example for the Gymnasium adapter.

One seat of ``pagat`` with three players learns; the two other seats are ``random`` bots.  The
policy is linear in the observation, one weight row per action id, and the softmax runs over the
*legal* actions only (``info["action_mask"]``), so an illegal action is never chosen and only the
rows of legal actions are ever computed or updated::

    logits[a] = W[a] . x + b[a]          for each legal action id a; x = observation (OBS_SIZE,)
    pi = softmax(logits over the legal ids)

The return of a deal is the adapter's final reward (-1 for the loser, +1/2 otherwise); every step of
the deal is pushed towards its action by ``(return - baseline)``, the baseline being a running mean
of returns.  The weights start at zero, which plays uniformly at random among the legal actions:
the first printed block, played before any update, shows what such a seat scores (about 1/3,
like every random seat); the loser rate then falls block by block.

Run (needs ``gymnasium`` and ``numpy``; about two minutes on two cores)::

    python examples/train_policy_gradient.py                  # 4000 deals, blocks of 400
    python examples/train_policy_gradient.py --games 200 --block 50 --seed 3
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np

from skitgubbe.adapters import encoding
from skitgubbe.adapters.gymnasium import SkitgubbeEnv


class LinearPolicy:
    """A softmax policy over the legal action ids, linear in the observation.

    Attributes: ``w`` float32 ``(NUM_ACTIONS, OBS_SIZE)``, ``b`` float32 ``(NUM_ACTIONS,)``.
    """

    def __init__(self) -> None:
        self.w = np.zeros((encoding.NUM_ACTIONS, encoding.OBS_SIZE), dtype=np.float32)
        self.b = np.zeros(encoding.NUM_ACTIONS, dtype=np.float32)

    def probabilities(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Probabilities (float64, shape ``(len(legal),)``) of the legal ids ``legal`` (int array)
        given the observation ``obs`` (float32, shape ``(OBS_SIZE,)``)."""
        logits = (self.w[legal] @ obs + self.b[legal]).astype(np.float64)
        logits -= logits.max()
        p: np.ndarray = np.exp(logits)
        p /= p.sum()
        return p

    def update(self, steps: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray, int]], scale: float) -> None:
        """Gradient ascent on ``scale * sum log pi(chosen)`` over ``steps`` of
        ``(obs, legal ids, probabilities, index of the chosen id in legal)``."""
        for obs, legal, p, k in steps:
            g = -p
            g[k] += 1.0  # d log pi(chosen) / d logits, on the legal ids only
            g *= scale
            self.w[legal] += np.outer(g, obs).astype(np.float32)
            self.b[legal] += g.astype(np.float32)


def main(argv: Sequence[str] | None = None) -> list[float]:
    """Train and print the learner's loser rate per block of games, after one block played by the
    untrained (uniformly random) policy; returns the rates, the untrained block first."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4000, help="training deals (default 4000)")
    ap.add_argument("--block", type=int, default=400, help="deals per printed block (default 400)")
    ap.add_argument("--lr", type=float, default=0.002, help="learning rate (default 0.002)")
    ap.add_argument("--seed", type=int, default=0, help="seeds the deals, the bots and the policy")
    args = ap.parse_args(argv)

    env = SkitgubbeEnv(rules="pagat", players=3, seat=0, opponents="random")
    env.reset(seed=args.seed)
    policy = LinearPolicy()
    rng = np.random.default_rng(args.seed)
    baseline = 0.0
    start = time.perf_counter()

    def play(learn: bool) -> tuple[bool, int]:
        """One deal; returns (the learner lost, its number of decisions)."""
        nonlocal baseline
        obs, info = env.reset()
        trajectory = []
        while True:
            legal = np.flatnonzero(info["action_mask"])
            p = policy.probabilities(obs, legal)
            k = int(rng.choice(len(legal), p=p))
            trajectory.append((obs, legal, p, k))
            obs, reward, terminated, truncated, info = env.step(int(legal[k]))
            if terminated or truncated:
                break
        if learn:
            ret = float(reward)
            policy.update(trajectory, args.lr * (ret - baseline))
            baseline += 0.01 * (ret - baseline)
        return info.get("loser") == env.seat, len(trajectory)

    print("masked REINFORCE, linear policy: pagat, 3 players, seat 0 against 2 random bots")
    rates: list[float] = []
    blocks = [("untrained", False)] + [
        (f"games {i + 1}-{min(i + args.block, args.games)}", True) for i in range(0, args.games, args.block)
    ]
    for b, (label, learn) in enumerate(blocks):
        n = args.block if not learn else min(args.block, args.games - (b - 1) * args.block)
        results = [play(learn) for _ in range(n)]
        rate = sum(lost for lost, _ in results) / n
        rates.append(rate)
        decisions = sum(k for _, k in results) / n
        print(f"{label:>17}: loser rate {rate:.3f}, {decisions:5.1f} decisions per deal, "
              f"{time.perf_counter() - start:6.1f} s", flush=True)
    return rates


if __name__ == "__main__":
    main()
