"""Play many seeded deals between bots and count who loses (no I/O), for either game: the two-phase
family under given rules, or Single Hand Skitgubbe (:data:`skitgubbe.singlehand.SINGLE_HAND`).

Deal ``g`` of a run with seed ``S`` is fully determined by ``S`` and ``g``: its
deck is shuffled with ``random.Random(f"{S}:{g}:deck")``, seat ``i`` uses a bot
seeded with ``f"{S}:{g}:{i}"``, the dreck shuffle uses ``f"{S}:{g}:chance"``, and
the dealer rotates (``g % players``), so the same seed gives the same result.  The deals are cut
into chunks of :data:`CHUNK` that a :class:`~skitgubbe.batch.backend.Backend` may play anywhere
(``jobs`` local processes, a Ray cluster) and that are merged in deal order, so the result is also
the same for any backend and number of workers.

**Engines.**  When every seat is a ``random`` bot, the rules are rules the compiled engine plays (a
preset, or options it plays: :func:`skitgubbe.engine.compiled.unsupported`) and no records are
kept, the deals can be played by the compiled engine (``engine="compiled"``, or ``"auto"``, the
default, which picks it whenever it can).  It plays each chunk of deals in one call of
:func:`~skitgubbe.engine.compiled.random_bots_deals`, which draws every random number a
:class:`~skitgubbe.bots.randombot.RandomBot` and :meth:`State.chance_action
<skitgubbe.engine.state.State.chance_action>` would draw, from the same seeds (a C++ copy of
Python's Mersenne Twister), and makes the Python engine's decisions (``tests/test_compiled.py``,
``tests/test_compiled_random.py``), so the result is the same deal for deal, about a hundred
times faster (docs/performance.md, "simulate").  When the seats hold other bots the compiled engine
plays (:data:`~skitgubbe.bots.compiled_bots.COMPILED_BOTS`: the heuristic bot), each chunk is played
by :func:`~skitgubbe.bots.compiled_bots.bot_deals` with the same seeds and the Python bots'
decisions (``tests/test_compiled_bots.py``).  :func:`simulation_engine` says which engine a run
uses and, for ``"compiled"``, why it cannot.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..bots.compiled_bots import COMPILED_BOTS, BotGame, bot_deals, compiled_bot_kind, compiled_deck
from ..engine.compiled import UnsupportedError, random_bots_deals
from ..engine.record import Record, record_of
from ..engine.rules import Rules
from ..engine.state import State
from .backend import Backend, LocalBackend, chunks
from .bench import ENGINES, choose_engine
from .runner import Game, play_out, standard
from .stats import wilson_interval

__all__ = ["CHUNK", "SimulationResult", "simulate", "simulation_engine", "seat_bots"]

CHUNK = 25
"""Deals per task handed to a backend."""



def seat_bots(bot_names: Sequence[str], players: int) -> list[str]:
    """The bot name of every seat: ``bot_names`` repeated cyclically.  Raises ``ValueError``
    if it is empty."""
    if not bot_names:
        raise ValueError("give at least one bot name")
    return [bot_names[i % len(bot_names)] for i in range(players)]


@dataclass
class SimulationResult:
    """Counts from :func:`simulate`.

    ``rules``: the rules played, or None for another game (Single Hand); ``game``: its name;
    ``engine``: the engine that played the deals, ``"python"`` or ``"compiled"``.
    ``losses[i]``: deals lost by seat i; ``abandoned``: deals with no loser;
    ``actions`` / ``tricks``: totals over all deals (Single Hand has no tricks); ``longest``: the
    most actions in one deal.
    """

    rules: Rules | None
    players: int
    bots: list[str]
    seed: int | str
    games: int = 0
    losses: list[int] = field(default_factory=list)
    abandoned: int = 0
    actions: int = 0
    tricks: int = 0
    longest: int = 0
    game: str = ""
    engine: str = "python"

    def __post_init__(self) -> None:
        if not self.game:
            self.game = self.rules.name if self.rules is not None else "?"

    def seat_rate(self, seat: int) -> tuple[float, float, float]:
        """Loser rate of ``seat`` with its 95% Wilson interval: ``(rate, low, high)``."""
        k, n = self.losses[seat], self.games
        low, high = wilson_interval(k, n)
        return (k / n if n else 0.0), low, high

    def bot_rates(self) -> dict[str, tuple[int, int, float, float, float]]:
        """Per bot name: ``(seat-deals, losses, rate, low, high)``; a bot in two seats
        counts two seat-deals per deal."""
        out: dict[str, tuple[int, int, float, float, float]] = {}
        for name in dict.fromkeys(self.bots):
            seats = [i for i, b in enumerate(self.bots) if b == name]
            n = self.games * len(seats)
            k = sum(self.losses[i] for i in seats)
            low, high = wilson_interval(k, n)
            out[name] = (n, k, (k / n if n else 0.0), low, high)
        return out

    def partner_losses(self) -> list[int]:
        """Under 3-player confusion, deals lost by each of the three players (both hands
        counted: seats p and p + 3); else an empty list."""
        if self.rules is None or not self.rules.confusion:
            return []
        return [self.losses[p] + self.losses[p + 3] for p in range(3)]

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON output (no timings, so equal seeds give equal dicts, the ``engine``
        that played them aside); under
        3-player confusion also ``partners``: each player's losses over its two hands."""
        out: dict[str, object] = {
            "rules": self.game,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "engine": self.engine,
            "games": self.games,
            "abandoned": self.abandoned,
            "mean_actions": self.actions / self.games if self.games else 0.0,
            "mean_tricks": self.tricks / self.games if self.games else 0.0,
            "longest": self.longest,
            "seats": [
                dict(zip(("rate", "low", "high"), self.seat_rate(i), strict=True),
                     seat=i, bot=self.bots[i], losses=self.losses[i])
                for i in range(self.players)
            ],
            "bots_summary": {
                name: {"seat_games": n, "losses": k, "rate": r, "low": lo, "high": hi}
                for name, (n, k, r, lo, hi) in self.bot_rates().items()
            },
        }
        if self.rules is not None and self.rules.confusion:
            out["partners"] = [{"player": p, "seats": [p, p + 3], "losses": k}
                               for p, k in enumerate(self.partner_losses())]
        return out


@dataclass(frozen=True)
class _Chunk:
    """Deals ``start .. start + count - 1`` of a run (module docstring: seeding)."""

    game: Game
    players: int
    names: tuple[str, ...]
    seed: int | str
    start: int
    count: int
    records: bool
    compiled: Rules | None = None  # the rules, when the compiled engine plays these deals
    bots_compiled: bool = False  # played by bot_deals (a seat is not a random bot)


@dataclass
class _Part:
    """What one chunk found: per deal ``(loser or -1, actions, tricks)`` and the records kept."""

    deals: list[tuple[int, int, int]]
    records: list[Record]


def _play_chunk(task: _Chunk) -> _Part:
    """Play one chunk of deals (a module-level function, so a worker process or Ray can run it)."""
    game, seed, players = task.game, task.seed, task.players
    part = _Part([], [])
    if task.compiled is not None and task.bots_compiled:  # compiled bots, one call for the chunk
        plays = [BotGame(task.names, compiled_deck(f"{seed}:{g}:deck"), g % players,
                         [f"{seed}:{g}:{i}" for i in range(players)], f"{seed}:{g}:chance")
                 for g in range(task.start, task.start + task.count)]
        part.deals.extend((-1 if d.loser is None else d.loser, d.actions, d.tricks)
                          for d in bot_deals(task.compiled, players, plays))
        return part
    if task.compiled is not None:  # the whole chunk in one call, with Python's random numbers
        deals = random_bots_deals(task.compiled, players, seed, task.start, task.count)
        part.deals.extend((d.loser, d.actions, d.tricks) for d in deals)
        return part
    for g in range(task.start, task.start + task.count):
        deck_seed = f"{seed}:{g}:deck"
        state = game.deal(players, deck_seed, g % players)
        bots = [game.bot(name, random.Random(f"{seed}:{g}:{i}")) for i, name in enumerate(task.names)]
        play_out(state, bots, random.Random(f"{seed}:{g}:chance"), view=game.view)
        tricks = 0
        if isinstance(state, State):
            tricks = state.tricks
            if task.records:
                part.records.append(record_of(state, seed=deck_seed))
        part.deals.append((-1 if state.loser is None else state.loser, len(state.history), tricks))
    return part


def simulation_engine(rules: Rules | Game, players: int, bot_names: Sequence[str], *,
                      records: bool = False, engine: str = "auto") -> str:
    """The engine :func:`simulate` plays with: ``"compiled"`` or ``"python"``.

    ``engine``: one of :data:`~skitgubbe.batch.bench.ENGINES`.  ``"python"`` is always the Python
    engine; ``"auto"`` is the compiled engine when it can play the run (every seat a bot of
    :data:`~skitgubbe.bots.compiled_bots.COMPILED_BOTS`,
    ``rules`` rules it plays at ``players`` seats, no ``records`` kept), else the Python engine;
    ``"compiled"`` is the compiled engine or an error.  Raises ``ValueError`` for another ``engine``
    value, and :class:`~skitgubbe.engine.compiled.UnsupportedError` (a ``ValueError``) for
    ``"compiled"`` when the compiled engine cannot play the run, saying why (not installed, rules it
    does not play, a seat whose bot it does not play, records asked for)."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "python":
        return "python"
    names = seat_bots(bot_names, players)
    if not isinstance(rules, Rules):
        reason = f"the compiled engine plays the Skitgubbe presets, not {rules.name}"
    elif any(compiled_bot_kind(name) is None for name in names):
        reason = (f"the compiled engine plays the bots {', '.join(COMPILED_BOTS)} only: these seats are "
                  + ", ".join(sorted({n for n in names if compiled_bot_kind(n) is None})))
    elif records:
        reason = "records are written by the Python engine: leave out --record to use the compiled engine"
    else:
        return choose_engine(rules, players, engine)
    if engine == "compiled":
        raise UnsupportedError(reason)
    return "python"


def simulate(
    rules: Rules | Game,
    players: int,
    games: int,
    bot_names: Sequence[str],
    seed: int | str,
    *,
    progress: Callable[[int], None] | None = None,
    keep: Callable[[Record], None] | None = None,
    jobs: int = 1,
    backend: Backend | None = None,
    engine: str = "auto",
) -> SimulationResult:
    """Play ``games`` deals (see the module docstring for seeding) and count the losers.

    ``rules``: the rules of the two-phase game, or a :class:`~skitgubbe.batch.runner.Game`
    (:data:`skitgubbe.singlehand.SINGLE_HAND`).  ``progress(g)`` is called after each deal;
    ``keep(record)`` receives each deal's record (the two-phase game only), in deal order.
    ``backend``: where the deals are played (:mod:`skitgubbe.batch.backend`); by default ``jobs``
    local processes (1: this process).  ``engine``: ``"auto"``, ``"python"`` or ``"compiled"``
    (:func:`simulation_engine`; the module docstring).  The result does not depend on the backend or
    the engine, but its ``engine`` field names the engine used.  Raises ``ValueError`` for a bad
    player count, bot name, ``games < 0``, ``jobs < 1`` or ``engine`` (and, for ``"compiled"``,
    a run the compiled engine cannot play).
    """
    if games < 0:
        raise ValueError(f"games must be 0 or more, not {games}")
    names = seat_bots(bot_names, players)
    game = standard(rules) if isinstance(rules, Rules) else rules
    for name in dict.fromkeys(names):
        game.bot(name, random.Random(0))  # an unknown name fails here, before any deal
    used = simulation_engine(rules, players, names, records=keep is not None, engine=engine)
    result = SimulationResult(rules if isinstance(rules, Rules) else None, players, names, seed,
                              losses=[0] * players, game=game.name, engine=used)
    compiled = rules if used == "compiled" and isinstance(rules, Rules) else None
    bots_compiled = any(name.strip().lower() != "random" for name in names)
    tasks = [_Chunk(game, players, tuple(names), seed, start, count, keep is not None, compiled,
                    bots_compiled)
             for start, count in chunks(games, CHUNK)]
    finished: dict[int, _Part] = {}
    next_kept = 0

    def on_done(i: int, part: _Part) -> None:
        nonlocal next_kept
        finished[i] = part
        if progress is not None:
            for g in range(tasks[i].start, tasks[i].start + tasks[i].count):
                progress(g)
        while keep is not None and next_kept in finished:
            for record in finished[next_kept].records:
                keep(record)
            finished[next_kept].records.clear()
            next_kept += 1

    runner = backend if backend is not None else LocalBackend(jobs)
    for part in runner.map(_play_chunk, tasks, on_done):
        for loser, actions, tricks in part.deals:
            result.games += 1
            result.actions += actions
            result.longest = max(result.longest, actions)
            result.tricks += tricks
            if loser < 0:
                result.abandoned += 1
            else:
                result.losses[loser] += 1
    return result
