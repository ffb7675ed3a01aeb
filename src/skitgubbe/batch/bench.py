"""The speed benchmark behind ``skitgubbe bench`` (no I/O).

It plays complete deals with uniformly random legal actions
(:meth:`~skitgubbe.engine.state.State.random_action`) and measures CPU time of this
process.  Because the machines are shared and noisy it also times a fixed
pure-Python baseline in the same run (shuffling a 52-card list), so results can
be compared between runs as ``games per baseline-second``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..engine.rules import Rules
from ..engine.state import State
from ..engine.variants import USUAL_PLAYERS  # re-exported: the table each preset is benchmarked at

__all__ = ["BenchResult", "bench_random_play", "baseline_shuffles_per_second", "USUAL_PLAYERS"]




@dataclass(frozen=True)
class BenchResult:
    """``games`` deals, ``actions`` in all, ``seconds`` of CPU time."""

    rules: str
    players: int
    games: int
    actions: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Complete deals per CPU second."""
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        """Actions per CPU second."""
        return self.actions / self.seconds if self.seconds else 0.0


def bench_random_play(rules: Rules, players: int, games: int, seed: int = 0) -> BenchResult:
    """Play ``games`` seeded deals with random legal actions; time them (CPU seconds)."""
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    for g in range(games):
        state = State.new(rules, players, seed=f"{seed}:{g}")
        step = state.step
        pick = state.random_action
        while not state.is_over:
            step(pick(rng), state.to_act)
        actions += len(state.history)
    seconds = time.process_time() - start
    return BenchResult(rules.name, players, games, actions, seconds)


def baseline_shuffles_per_second(rounds: int = 20_000) -> float:
    """A machine-speed baseline: 52-card ``random.shuffle`` calls per CPU second."""
    rng = random.Random(0)
    deck = list(range(52))
    start = time.process_time()
    for _ in range(rounds):
        rng.shuffle(deck)
    seconds = time.process_time() - start
    return rounds / seconds if seconds else 0.0
