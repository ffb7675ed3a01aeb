"""Bots: a small interface (observe a view, choose an action) and the built-in players.

:func:`make_bot` builds a bot by name; :data:`BOT_NAMES` lists the names.
"""

from __future__ import annotations

import random
import re

from ..engine.compiled import available
from .base import Bot
from .compiled_bots import COMPILED_BOTS, PYTHON_FASTER, CompiledBot, compiled_bot_kind
from .counter import CounterBot
from .heuristic import HeuristicBot
from .ismcts import ROLLOUTS, ISMCTSBot
from .learned import LearnedBot
from .randombot import RandomBot
from .selfplay import SelfPlayBot

__all__ = ["Bot", "RandomBot", "HeuristicBot", "CounterBot", "ISMCTSBot", "LearnedBot", "SelfPlayBot",
           "BOT_NAMES",
           "make_bot"]

BOT_NAMES = ("random", "heuristic", "counter", "learned", "selfplay", "ismcts")
_ALIASES = {"easy": "heuristic", "medium": "counter", "hard": "ismcts-1s"}


def make_bot(name: str, rng: random.Random, *, engine: str = "python") -> Bot:
    """A new bot called ``name`` drawing its randomness from ``rng``.

    ``engine``: ``"python"`` (the default, the reference) builds the Python bot; ``"compiled"``
    gives, for a bot of :data:`~skitgubbe.bots.compiled_bots.COMPILED_BOTS`, a
    :class:`~skitgubbe.bots.compiled_bots.CompiledBot` that decides in compiled code from its view
    where the compiled engine plays the rules (the same decisions and random numbers) and is the
    Python bot elsewhere; ``"auto"`` does so only where that is faster (not for the bots of
    :data:`~skitgubbe.bots.compiled_bots.PYTHON_FASTER`, whose Python decision costs less than
    building a world from the view).  Other bots are the same under every engine.  ``ValueError``
    for another engine.

    Names (case and surrounding spaces ignored): ``random``; ``heuristic`` (alias ``easy``);
    ``counter`` (alias ``medium``); ``ismcts`` (200 iterations a move, greedy rollouts); ``hard``
    (ismcts with about one second a move, the same as ``ismcts-1s``).  An ismcts budget may be
    written into the name: ``ismcts-<K>it`` (K iterations a move), ``ismcts-<T>ms`` or
    ``ismcts-<T>s`` (a time budget in milliseconds or seconds), optionally followed by a rollout
    policy, ``-random``, ``-heuristic``, ``-greedy``, ``-mixed`` or ``-heuristic-two``
    (``ismcts-50ms-random``), and by
    ``-unguided`` for a search without the counter bot's guide action (``ismcts-70it-unguided``), and
    by ``-nomodel`` for a search that does not model the other seats in phase two, and by ``-bank``
    for a time budget earned per decision and saved for phase two (``ismcts-50ms-bank``; not with
    an iteration budget), and by ``-python`` for a search whose phase-two playouts run in Python
    even where the compiled engine could run them (``ismcts-50it-python``: the reference, slower;
    ``engine="python"``); see
    :class:`~skitgubbe.bots.ismcts.ISMCTSBot`; ``learned`` (the policy network trained by imitation
    of the counter bot, shipped with the package, :class:`~skitgubbe.bots.learned.LearnedBot`);
    ``selfplay`` (the value network trained by self-play, shipped with the package,
    :class:`~skitgubbe.bots.selfplay.SelfPlayBot`).
    Raises ``ValueError`` naming the known bots for any other name.
    """
    if engine not in ("python", "auto", "compiled"):
        raise ValueError(f"engine must be 'python', 'auto' or 'compiled', not {engine!r}")
    kind = compiled_bot_kind(name)
    if (engine != "python" and kind is not None and available()
            and (engine == "compiled" or COMPILED_BOTS[kind] not in PYTHON_FASTER)):
        return CompiledBot(name, rng, fallback=make_bot(name, rng))
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    if key == "random":
        return RandomBot(rng)
    if key == "heuristic":
        return HeuristicBot(rng)
    if key == "counter":
        return CounterBot(rng)
    if key == "learned":
        return LearnedBot(rng)
    if key == "selfplay":
        return SelfPlayBot(rng)
    m = _ISMCTS_NAME.fullmatch(key)
    if m is not None:
        number, unit, rollout = m.group(1), m.group(2), m.group(3) or "greedy"
        prior = None if m.group(4) else "counter"
        model = None if m.group(5) else "counter"
        bank = bool(m.group(6))
        engine = "python" if m.group(7) else "auto"
        if bank and unit not in ("ms", "s"):
            raise ValueError(f"{name!r}: -bank saves time, so it needs a time budget (ismcts-50ms-bank)")
        if number is None:
            return ISMCTSBot(rng, rollout=rollout, prior=prior, model=model, engine=engine)  # 200 a move
        value = float(number)
        if value > 0 and unit == "it" and value == int(value):
            return ISMCTSBot(rng, iterations=int(value), rollout=rollout, prior=prior, model=model,
                             engine=engine)
        if value > 0 and unit in ("ms", "s"):
            return ISMCTSBot(rng, iterations=None, seconds=value / 1000 if unit == "ms" else value,
                             rollout=rollout, prior=prior, model=model, bank=bank, engine=engine)
    raise ValueError(f"no bot called {name!r}; bots: {', '.join(BOT_NAMES)}, easy, medium, hard, "
                     "ismcts-<K>it, ismcts-<T>ms")


_ISMCTS_NAME = re.compile(
    r"ismcts(?:-([0-9]+(?:\.[0-9]+)?)(it|ms|s))?(?:-(" + "|".join(ROLLOUTS) + r"))?"
    r"(-unguided)?(-nomodel)?(-bank)?(-python)?"
)
