"""Train OpenSpiel's PyTorch DQN on ``python_skitgubbe`` for a few seconds, then rate it with the
evaluation harness on the versioned deal set (docs/research.md, "Evaluating your agent").

Needs the ``openspiel`` extra, PyTorch and ``dm-tree`` (OpenSpiel's PyTorch DQN imports ``tree``)::

    pip install "skitgubbe[openspiel]" torch dm-tree
    python examples/openspiel_dqn.py --seconds 40 --deals 30

One DQN per seat learns by self-play in ``open_spiel.python.rl_environment`` (the information-state
tensor, compact action ids, forced moves taken by the game); the three are then rated as a list
of agents, one per OpenSpiel player, with the same options.  A few seconds of training is far
from a strong agent: the script shows the path from an OpenSpiel training loop to the harness.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
import torch
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import dqn

import skitgubbe.adapters.openspiel  # noqa: F401  (registers python_skitgubbe)
from skitgubbe.adapters.agents import as_bot
from skitgubbe.batch.evaluate import evaluate
from skitgubbe.engine.variants import find_variant


def train(rules: str, players: int, seconds: float, seed: int) -> tuple[list[dqn.DQN], int]:
    """DQN agents (one per player) trained by self-play for ``seconds``; and the episodes played."""
    np.random.seed(seed)
    torch.set_num_threads(1)
    game = pyspiel.load_game(f"python_skitgubbe(rules={rules},players={players},compact_actions=True,"
                             "auto_forced=True)")
    env = rl_environment.Environment(game, seed=seed)
    size = env.observation_spec()["info_state"]
    actions = env.action_spec()["num_actions"]
    agents = [dqn.DQN(player_id=p, state_representation_size=size[0], num_actions=actions,
                      hidden_layers_sizes=(128,), replay_buffer_capacity=20_000, batch_size=64,
                      learning_rate=0.01, min_buffer_size_to_learn=500, epsilon_decay_duration=20_000,
                      epsilon_end=0.05, seed=seed + p)
              for p in range(players)]
    start = time.perf_counter()
    episodes = 0
    while time.perf_counter() - start < seconds:
        step = env.reset()
        while not step.last():
            p = step.observations["current_player"]
            step = env.step([agents[p].step(step).action])
        for agent in agents:
            agent.step(step)  # the episode's end: the rewards
        episodes += 1
    return agents, episodes


def main() -> None:
    """Train, rate and print the rungs."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="pagat")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=40.0, help="training time; default 40")
    ap.add_argument("--deals", type=int, default=30, help="deals of the set to rate on; default 30")
    ap.add_argument("--ladder", default="random,heuristic")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    agents, episodes = train(args.rules, args.players, args.seconds, args.seed)
    print(f"trained {episodes} self-play episodes in {args.seconds:.0f} s")
    bot = as_bot(agents, compact_actions=True, auto_forced=True, name="dqn")
    result = evaluate(bot, find_variant(args.rules), args.players, deals=args.deals,
                      ladder=args.ladder.split(","))
    print(f"{result.agent} ({result.kind}) on {args.rules}, {args.players} players, deals "
          f"0..{args.deals - 1} of {result.version} in every seat (digest {result.digest[:12]})")
    for r in result.rungs:
        print(f"  {r.rung:10} {r.losses:4}/{r.games:<4} loser rate {r.loser_rate:6.1%} "
              f"[{r.low:.1%}, {r.high:.1%}]  rating {r.rating:+.0f} "
              f"[{r.rating_low:+.0f}, {r.rating_high:+.0f}]  {r.agent_ms:.2f} ms/move")


if __name__ == "__main__":
    main()
