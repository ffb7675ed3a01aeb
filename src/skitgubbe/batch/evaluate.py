"""The evaluation harness: one agent against a fixed ladder of bots on a fixed set of deals (no I/O;
``skitgubbe evaluate`` formats the results).

**The deal set** (version :data:`DEAL_SET_VERSION`).  Deal ``k`` (0-based) of preset ``P`` is the deck
``deck_from_seed(f"evaluate-v1:{P}:{k}")`` (``P`` the rules' name, so an alias gives the preset's
deals) with dealer ``k % players``.  The first :data:`DEFAULT_DEALS` deals of every preset are the
published set; ``--deals K`` plays the first ``K`` of them, so a quick run is a prefix of the full
one.  :func:`deal_set_digest` hashes the decks, and ``tests/test_evaluate.py`` pins the digest of
every preset's 1,000 deals: the set cannot change without that test failing (a new set gets a new
version).

**Seatings.**  Every deal is played once per seat of the agent (every seat rotation): in rotation
``r`` the agent sits at seat ``r`` and the rung's bot at every other seat.  So each rung gets
``deals * players`` games, and every agent faces the same cards in the same seats.  Decisions follow
the engine's sequential protocol with every seat asked in every sluff window (``ask_every_seat``, as
in the PettingZoo and Gymnasium environments), so who is asked shows no hidden card.

**Seeding.**  In deal ``k``, rung ``b``, rotation ``r``, the bot at seat ``i`` draws from
``random.Random(f"evaluate-v1:{P}:{k}:{b}:{r}:{i}")`` (the agent keeps its own randomness), and
chance (the dreck shuffle, Koira's split, a trick dealt round) from
``random.Random(f"evaluate-v1:{P}:{k}:chance")``.  The ladder bots are deterministic given their
generator (the ismcts rung has an iteration budget, not a time budget), so a rung's results depend on
the agent only, never on the machine's load.

**The ladder** (:data:`LADDER`): ``random``, ``heuristic``, ``counter`` and ``ismcts-50it`` (IS-MCTS
with 50 iterations a move).  Any bot name of :func:`skitgubbe.bots.make_bot` can be a rung.

**Figures per rung** (:class:`RungResult`): the agent's losses over its finished games, its loser
rate with the 95% Wilson interval (:func:`~skitgubbe.batch.stats.wilson_interval`; the games of one
deal share its cards, so the interval is a little narrow), and the *rating above the rung*
(:func:`rating_above`): Elo points in a model where, at a table of ``n`` seats, the chance that a
seat is the loser is proportional to its weakness, ``P(agent loses) = w_a / (w_a + (n - 1) w_b)``;
the rating is ``400 * log10(w_b / w_a) = 400 * log10((1 - p) / ((n - 1) p))``.  It is 0 when the
agent loses its fair share ``1/n`` as often as the rung's bot does, positive when it loses less
(+400: ten times less likely to be the loser than a rung seat).  The interval of the rating is the
rating of the Wilson interval's ends.  A loser rate of 0 or 1 is taken as ``0.5/games`` from it,
so the rating stays finite.  Because the ladder and the deals are fixed and versioned, these
figures can be compared between papers that name the deal-set version, preset and seat count.

**Agents** are :class:`~skitgubbe.bots.base.Bot` objects (``name``, ``choose(view, legal)``);
:func:`agent_bot` also takes a plain callable ``(view, legal) -> Action`` or ``view -> Action``.
Framework agents (an OpenSpiel ``rl_agent``, a ``pyspiel.Bot``, a PettingZoo policy) are turned
into bots by :func:`skitgubbe.adapters.agents.as_bot`.  The result names the agent and its
``kind`` (the bot's ``kind`` attribute: ``"bot"`` when it has none).

**Following the deal** (for adapters).  An agent bot with a method ``start_game(state, seat)`` is
told of every game before its first action: ``state`` is the harness's own
:class:`~skitgubbe.engine.state.State` (the true deal: every card) and ``seat`` the agent's seat.
It returns ``None`` or an observer ``(state, seat, action)`` called after every action of the
game, chance included (the ``on_step`` of :func:`~skitgubbe.batch.runner.play_out`).  This is how
:class:`skitgubbe.adapters.rl_agents.OpenSpielAgentBot` plays the same deal in the OpenSpiel game to
give an OpenSpiel agent its information-state tensor; an adapter must hand the agent only what
its seat may see.
"""

from __future__ import annotations

import hashlib
import math
import pickle
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..bots import make_bot
from ..bots.base import Bot
from ..bots.compiled_bots import (
    COMPILED_BOTS,
    PYTHON_FASTER,
    compiled_bot_kind,
    compiled_bots_unsupported,
)
from ..engine.actions import Action
from ..engine.compiled import UnsupportedError
from ..engine.rules import Rules
from ..engine.state import State, deck_from_seed
from ..engine.view import View
from .backend import Backend
from .runner import play_out
from .stats import wilson_interval

__all__ = [
    "DEAL_SET_VERSION",
    "DEFAULT_DEALS",
    "LADDER",
    "CallableBot",
    "EvaluationResult",
    "RungResult",
    "agent_bot",
    "deal_seed",
    "deal_set",
    "deal_set_digest",
    "evaluate",
    "positional_arguments",
    "rating_above",
]

DEAL_SET_VERSION = "evaluate-v1"
"""The version of the deal set and seeding scheme (module docstring)."""

DEFAULT_DEALS = 1_000
"""Deals of the published set per preset."""

LADDER = ("random", "heuristic", "counter", "ismcts-50it")
"""The default rungs, weakest first: bot names of :func:`skitgubbe.bots.make_bot`."""


# -- agents ------------------------------------------------------------------------------


class CallableBot:
    """A plain callable ``(view, legal) -> Action`` (``view -> Action`` with ``view_only``) as a
    :class:`~skitgubbe.bots.base.Bot` called ``name``; ``kind`` is what the result reports
    (``"callable"``, or ``"bot"`` for a bot's ``choose`` given another name).  :meth:`choose` raises
    ``ValueError`` if the callable returns an action that is not in ``legal``."""

    def __init__(self, fn: Callable[..., Action], name: str = "agent", *, view_only: bool = False,
                 kind: str = "callable") -> None:
        self.fn = fn
        self.name = name
        self.view_only = view_only
        self.kind = kind

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """``fn(view, legal)`` (``fn(view)`` with ``view_only``), checked to be one of ``legal``."""
        action = self.fn(view) if self.view_only else self.fn(view, legal)
        if action not in legal:
            raise ValueError(f"agent {self.name!r} returned {action!r}, which is not one of the legal "
                             f"actions {[str(a) for a in legal]}")
        return action


def agent_bot(agent: object, *, name: str | None = None) -> Bot:
    """``agent`` as a :class:`~skitgubbe.bots.base.Bot`.

    Allowed: a bot (an object with a callable ``choose(view, legal)``: given back as it is, or,
    if ``name`` is given or it has no ``name`` text, wrapped in a :class:`CallableBot` of that
    name) or a callable ``(view, legal) -> Action``, or ``view -> Action`` if it has exactly one
    positional parameter (:func:`positional_arguments`; wrapped in :class:`CallableBot`;
    ``view.legal`` holds the legal actions).  Raises ``TypeError`` naming these for anything else
    (an OpenSpiel agent, a ``pyspiel.Bot`` or a PettingZoo policy needs
    :func:`skitgubbe.adapters.agents.as_bot`).
    """
    choose = getattr(agent, "choose", None)
    if callable(choose):
        own = getattr(agent, "name", None)
        if name is None and isinstance(own, str):
            return agent  # type: ignore[return-value]
        bot_name = name or (own if isinstance(own, str) else type(agent).__name__)
        return CallableBot(choose, bot_name, kind="bot")
    if callable(agent):
        label = name or getattr(agent, "__name__", None)
        return CallableBot(agent, label if isinstance(label, str) else "agent",
                           view_only=positional_arguments(agent) == 1)
    raise TypeError(f"{agent!r:.80} is not an agent: give a bot (an object with choose(view, legal)) or a "
                    "callable (view, legal) -> Action or view -> Action; for an OpenSpiel agent, a "
                    "pyspiel.Bot or a PettingZoo policy use skitgubbe.adapters.agents.as_bot")


def positional_arguments(fn: object) -> int | None:
    """How many positional arguments ``fn`` can take: the count of its positional parameters,
    with a default or not (``None`` if it takes ``*args`` or its signature cannot be read, as for
    some builtins).  A callable ``f(view, legal=())`` counts 2, so it is given both."""
    import inspect

    try:
        params = inspect.signature(fn).parameters.values()  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return None
    return sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


# -- the deal set ------------------------------------------------------------------------


def deal_seed(rules: Rules, k: int) -> str:
    """The seed text of deal ``k`` of ``rules``' set: ``"evaluate-v1:<rules.name>:<k>"``."""
    return f"{DEAL_SET_VERSION}:{rules.name}:{k}"


def deal_set(rules: Rules, deals: int = DEFAULT_DEALS) -> list[tuple[int, ...]]:
    """The decks of the first ``deals`` deals of ``rules``' set (each 52 cards, or 104 with two
    packs, first card dealt first).  Raises ``ValueError`` for ``deals < 1``."""
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    return [deck_from_seed(deal_seed(rules, k), decks=rules.decks, pack=rules.pack) for k in range(deals)]


def deal_set_digest(rules: Rules, deals: int = DEFAULT_DEALS) -> str:
    """SHA-256 (hex) of the decks of :func:`deal_set`, one line of card numbers per deal."""
    text = "\n".join(" ".join(map(str, deck)) for deck in deal_set(rules, deals))
    return hashlib.sha256(text.encode()).hexdigest()


# -- results -----------------------------------------------------------------------------


def rating_above(loser_rate: float, players: int, games: int) -> float:
    """Elo points of the agent above a rung's bot from its loser rate against it at ``players``
    seats (module docstring): ``400 * log10((1 - p) / ((players - 1) * p))``, with ``p`` kept
    ``0.5/games`` away from 0 and 1.  Raises ``ValueError`` for ``players < 2`` or ``games < 1``."""
    if players < 2 or games < 1:
        raise ValueError(f"a rating needs at least 2 players and 1 game, not {players} and {games}")
    eps = 0.5 / games
    p = min(max(loser_rate, eps), 1 - eps)
    return 400.0 * math.log10((1 - p) / ((players - 1) * p))


@dataclass(frozen=True)
class RungResult:
    """The agent against one rung: ``rung`` (a bot name), ``games`` (finished games), ``losses``,
    ``abandoned`` (games stopped at the action limit: counted nowhere else), ``loser_rate`` with its
    95% Wilson interval ``low``..``high``, ``rating`` (Elo above the rung) with ``rating_low``..
    ``rating_high``, ``agent_ms`` (the agent's mean milliseconds a decision: a measurement, not
    compared) and ``engine`` (``"compiled"`` when the rung's bots decided in compiled code,
    :class:`~skitgubbe.bots.compiled_bots.CompiledBot`, else ``"python"``; not compared: the figures
    are the same)."""

    rung: str
    games: int
    losses: int
    abandoned: int
    loser_rate: float
    low: float
    high: float
    rating: float
    rating_low: float
    rating_high: float
    agent_ms: float = field(compare=False, default=0.0)
    engine: str = field(compare=False, default="python")

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON (without the timing; with the engine)."""
        d = dict(self.__dict__)
        d.pop("agent_ms")
        return d


@dataclass(frozen=True)
class EvaluationResult:
    """Everything :func:`evaluate` found: the agent's name, the rules, ``players``, ``deals``, the
    deal-set ``version`` and ``digest`` (:func:`deal_set_digest` of the deals played), one
    :class:`RungResult` per rung in ladder order, and the agent's ``kind`` (``"bot"``,
    ``"callable"``, ``"policy"``, ``"pettingzoo"``, ``"openspiel"``, ``"pyspiel"``)."""

    agent: str
    rules: Rules
    players: int
    deals: int
    version: str
    digest: str
    rungs: tuple[RungResult, ...]
    kind: str = "bot"

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON output (without timings)."""
        return {
            "agent": self.agent,
            "agent_kind": self.kind,
            "rules": self.rules.name,
            "players": self.players,
            "deals": self.deals,
            "games_per_rung": self.deals * self.players,
            "deal_set": self.version,
            "digest": self.digest,
            "fair_loser_rate": 1 / self.players,
            "interval": "95% Wilson over games",
            "rating": "Elo above the rung: 400*log10((1-p)/((players-1)*p))",
            "rungs": [r.to_dict() for r in self.rungs],
        }


# -- playing -----------------------------------------------------------------------------


class _Timed:
    """Times every decision of ``bot``."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0
        self.decisions = 0

    def start_game(self, state: State, seat: int) -> Callable[[Any, int, Action], None] | None:
        start = getattr(self.bot, "start_game", None)
        return start(state, seat) if callable(start) else None

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, legal)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


def rung_engine(rules: Rules, players: int, rung: str, engine: str) -> str:
    """The engine that plays the bots of ``rung`` at ``players`` seats of ``rules`` under
    ``engine`` (``"auto"``, ``"python"`` or ``"compiled"``): ``"compiled"`` where the compiled
    engine plays the rules and the bot (:func:`~skitgubbe.bots.compiled_bots.compiled_bots_unsupported`)
    and ``engine`` is ``"compiled"``, or ``"auto"`` and the bot is not one of
    :data:`~skitgubbe.bots.compiled_bots.PYTHON_FASTER`; else ``"python"``.  Raises ``ValueError`` for another
    engine, and :class:`~skitgubbe.engine.compiled.UnsupportedError` (a ``ValueError``) with the
    reason when ``engine`` is ``"compiled"`` and the compiled engine does not play them."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "python":
        return "python"
    kind = compiled_bot_kind(rung)
    if engine == "auto" and kind is not None and COMPILED_BOTS[kind] in PYTHON_FASTER:
        return "python"  # its Python decision costs less than a world built from the view
    reason = compiled_bots_unsupported(rules, players, [rung])
    if reason is None:
        return "compiled"
    if engine == "compiled":
        raise UnsupportedError(reason)
    return "python"


ENGINES = ("auto", "python", "compiled")
"""The values of :func:`evaluate`'s ``engine``."""


def _play_deals(agent: Bot, rules: Rules, players: int, rung: str, first: int, last: int,
                engine: str = "python") -> tuple[int, int, int, float, int]:
    """Deals ``first..last-1`` against ``rung``, its bots on ``engine`` (:func:`rung_engine`'s
    answer): ``(games, losses, abandoned, seconds, decisions)``."""
    mode = "compiled" if engine == "compiled" else "python"
    timed = _Timed(agent)
    games = losses = abandoned = 0
    for k in range(first, last):
        seed = deal_seed(rules, k)
        deck = deck_from_seed(seed, decks=rules.decks, pack=rules.pack)
        for r in range(players):
            state = State.new(rules, players, dealer=k % players, deck=deck, ask_every_seat=True)
            bots: list[Any] = [timed if i == r else make_bot(rung, random.Random(f"{seed}:{rung}:{r}:{i}"),
                                                                engine=mode)
                               for i in range(players)]
            play_out(state, bots, random.Random(f"{seed}:chance"), on_step=timed.start_game(state, r))
            if state.loser is None:
                abandoned += 1
            else:
                games += 1
                losses += state.loser == r
    return games, losses, abandoned, timed.seconds, timed.decisions


def _play_span(task: tuple[Bot, Rules, int, str, int, int, str]) -> tuple[int, int, int, float, int]:
    """:func:`_play_deals` of one block, as a backend's task (one picklable argument)."""
    return _play_deals(*task)


def evaluate(
    agent: object,
    rules: Rules,
    players: int,
    *,
    deals: int = DEFAULT_DEALS,
    ladder: Sequence[str] = LADDER,
    jobs: int = 1,
    progress: Callable[[str, int], None] | None = None,
    backend: Backend | None = None,
    engine: str = "auto",
) -> EvaluationResult:
    """Play ``agent`` (see :func:`agent_bot`) on the first ``deals`` deals of ``rules``' set, in every
    seat, against each rung of ``ladder`` (module docstring), and gather the results.

    ``jobs`` > 1 plays blocks of deals in that many processes (the agent is then pickled into each:
    every block starts from a copy of it); ``backend`` plays the blocks there instead
    (:mod:`skitgubbe.batch.backend`, such as a Ray cluster; the agent is pickled likewise).  The
    figures are the same either way.  ``progress(rung, deals_done)`` is called after each block.
    ``engine`` (``"auto"``, ``"python"`` or ``"compiled"``): where the rungs' bots decide
    (:func:`rung_engine`; each rung's :class:`RungResult` says which): the compiled bots decide
    from their views with the Python bots' decisions, so the figures are the same under each.
    Raises ``ValueError`` for a seat count outside the rules, ``deals < 1``, ``jobs < 1``,
    an empty ladder or a rung that is no bot, ``TypeError`` for an agent that is not one (or, with
    ``jobs > 1``, cannot be pickled), :func:`rung_engine`'s errors, and whatever the agent
    raises (``ValueError`` for an action
    that is not legal).
    """
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, "
                         f"not {players}")
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    rungs = [name.strip() for name in ladder]
    if not rungs:
        raise ValueError("give at least one rung (a bot name)")
    for name in rungs:
        make_bot(name, random.Random(0))  # raises ValueError naming the known bots
    engines = {rung: rung_engine(rules, players, rung, engine) for rung in rungs}
    bot = agent_bot(agent)
    if jobs > 1 or backend is not None:
        try:
            pickle.dumps(bot)
        except Exception as exc:
            raise TypeError(f"with jobs > 1 or a backend the agent is copied into each process, but it "
                            f"cannot be pickled ({exc}); use jobs=1") from exc
    block = max(1, min(50, -(-deals // jobs)))
    results: list[RungResult] = []
    for rung in rungs:
        spans = [(k, min(k + block, deals)) for k in range(0, deals, block)]
        parts: list[tuple[int, int, int, float, int]] = []
        if backend is not None:
            tasks = [(bot, rules, players, rung, a, b, engines[rung]) for a, b in spans]

            def done(i: int, _part: tuple[int, int, int, float, int], rung: str = rung,
                     spans: list[tuple[int, int]] = spans) -> None:
                if progress is not None:
                    progress(rung, spans[i][1])

            parts = backend.map(_play_span, tasks, done)
        elif jobs == 1 or len(spans) == 1:
            for first, last in spans:
                parts.append(_play_deals(bot, rules, players, rung, first, last, engines[rung]))
                if progress is not None:
                    progress(rung, last)
        else:
            with ProcessPoolExecutor(max_workers=min(jobs, len(spans))) as pool:
                futures = [pool.submit(_play_deals, bot, rules, players, rung, a, b, engines[rung])
                           for a, b in spans]
                for (_, last), future in zip(spans, futures, strict=True):
                    parts.append(future.result())
                    if progress is not None:
                        progress(rung, last)
        games = sum(p[0] for p in parts)
        losses = sum(p[1] for p in parts)
        seconds = sum(p[3] for p in parts)
        decisions = sum(p[4] for p in parts)
        rate = losses / games if games else 0.0
        low, high = wilson_interval(losses, games)
        n = max(games, 1)
        results.append(RungResult(
            rung=rung, games=games, losses=losses, abandoned=sum(p[2] for p in parts),
            loser_rate=rate, low=low, high=high,
            rating=rating_above(rate, players, n),
            rating_low=rating_above(high, players, n),
            rating_high=rating_above(low, players, n),
            agent_ms=1000.0 * seconds / decisions if decisions else 0.0, engine=engines[rung],
        ))
    kind = getattr(bot, "kind", "bot")
    return EvaluationResult(agent=bot.name, rules=rules, players=players, deals=deals,
                            version=DEAL_SET_VERSION, digest=deal_set_digest(rules, deals),
                            rungs=tuple(results), kind=kind if isinstance(kind, str) else "bot")
