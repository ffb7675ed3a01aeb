"""The speed benchmark behind ``skitgubbe bench`` (no I/O).

It plays complete deals with uniformly random legal actions
(:meth:`~skitgubbe.engine.state.State.random_action`) and measures CPU time of this
process.  Because the machines are shared and noisy it also times a fixed
pure-Python baseline in the same run (shuffling a 52-card list), so results can
be compared between runs as ``games per baseline-second``.

Two engines can play (``engine``): ``"python"``, the reference engine, and ``"compiled"``, the
optional compiled engine (:mod:`skitgubbe.engine.compiled`: the presets and the combinations of
options it plays, whole deals played in C++ with its own random numbers); ``"auto"`` takes the
compiled engine where it plays the rules and the Python engine elsewhere.  Each result names the
engine that ran.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..engine import compiled
from ..engine.rules import Rules
from ..engine.state import State
from ..engine.variants import USUAL_PLAYERS  # re-exported: the table each preset is benchmarked at

__all__ = ["BenchResult", "ENGINES", "bench_random_play", "baseline_shuffles_per_second", "choose_engine",
           "USUAL_PLAYERS"]

ENGINES = ("auto", "python", "compiled")
"""The engines :func:`bench_random_play` may be asked for."""




@dataclass(frozen=True)
class BenchResult:
    """``games`` deals, ``actions`` in all, ``seconds`` of CPU time, played by ``engine``
    (``"python"`` or ``"compiled"``)."""

    rules: str
    players: int
    games: int
    actions: int
    seconds: float
    engine: str = "python"

    @property
    def games_per_second(self) -> float:
        """Complete deals per CPU second."""
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        """Actions per CPU second."""
        return self.actions / self.seconds if self.seconds else 0.0


def choose_engine(rules: Rules, players: int, engine: str = "auto") -> str:
    """The engine that plays ``rules`` at ``players`` seats when ``engine`` (one of :data:`ENGINES`)
    is asked for: ``"python"`` or ``"compiled"``.  Raises ``ValueError`` for an unknown engine and
    :class:`~skitgubbe.engine.compiled.UnsupportedError` (a ``ValueError``, with the reason) when
    ``"compiled"`` is asked for rules or a table it does not play, or is not installed."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "python":
        return engine
    reason = compiled.unsupported(rules, players)
    if reason is None:
        return "compiled"
    if engine == "compiled":
        raise compiled.UnsupportedError(reason)
    return "python"


def bench_random_play(rules: Rules, players: int, games: int, seed: int = 0, *,
                      engine: str = "python") -> BenchResult:
    """Play ``games`` seeded deals with random legal actions; time them (CPU seconds).  ``engine``
    as :func:`choose_engine` takes it; the compiled engine shuffles and draws with its own
    generator from ``seed``.  Raises what :func:`choose_engine` raises."""
    if choose_engine(rules, players, engine) == "compiled":
        start = time.process_time()
        done = compiled.random_playouts(rules, players, games, seed)
        seconds = time.process_time() - start
        return BenchResult(rules.name, players, done.games, done.actions, seconds, "compiled")
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
