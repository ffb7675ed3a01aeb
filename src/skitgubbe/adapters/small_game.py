"""The small game (the research preset ``mini``) through OpenSpiel: its tree, and bots as policies.

``mini`` (docs/presets/mini.md) is ``pagat`` at two seats on a short pack of four cards, small
enough for OpenSpiel's tabular algorithms (CFR, CFR+, exact best responses and ``nash_conv``)::

    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability
    from skitgubbe.adapters.small_game import BotPolicy, load_mini

    game = load_mini()
    solver = cfr.CFRPlusSolver(game)
    for _ in range(50):
        solver.evaluate_and_update_policy()
    print(exploitability.nash_conv(game, solver.average_policy()))
    print(exploitability.nash_conv(game, BotPolicy(game, "counter")))

Everything here uses the ``python_skitgubbe`` game through the pyspiel API only
(``pyspiel.load_game``, ``state.child``, ``chance_outcomes``, ``information_state_string``,
``legal_actions``) and the state's ``view(seat)`` (what the acting seat sees), so it does not depend
on how the adapter is built.  Needs ``open_spiel`` (the ``openspiel`` extra).
"""

from __future__ import annotations

import random
import zlib
from typing import Any, NamedTuple

import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from open_spiel.python import policy as os_policy  # type: ignore[import-not-found, import-untyped, unused-ignore]

from ..bots import make_bot
from . import encoding
from . import openspiel as _registers  # noqa: F401  (registers python_skitgubbe)

__all__ = ["MINI_MAX_TURNS", "BotPolicy", "TreeSize", "count_tree", "load_mini"]

MINI_MAX_TURNS = 20
"""The turn cap (decisions) of :func:`load_mini`.  No deal of ``mini`` needs more than 8 decisions,
so no deal reaches it (:func:`count_tree` counts the deals that do: none); a deal that did would be
abandoned and score 0 for both seats (the adapter's rule)."""


def load_mini(max_turns: int = MINI_MAX_TURNS, **params: Any) -> Any:
    """The ``python_skitgubbe`` game of the ``mini`` preset at two seats (a ``pyspiel.Game``), with
    ``max_turns`` and any other game parameters ``params`` (``rules`` and ``players`` may be
    overridden: a short pack of another size, say).  Raises what ``pyspiel.load_game`` raises for a
    bad parameter (``ValueError`` for an unknown preset or a seat count it does not allow)."""
    return pyspiel.load_game("python_skitgubbe", {"rules": "mini", "players": 2, "max_turns": max_turns,
                                                  **params})


class TreeSize(NamedTuple):
    """The size of a game tree (:func:`count_tree`).

    Attributes:
        states: every history, chance and terminal nodes included.
        terminals: the terminal histories.
        info_states: the distinct information states of the deciding seats.
        truncated: terminal histories ended by the turn cap (every return 0) rather than by a loser.
        depth: the most actions (chance outcomes included) from the root to a terminal.
    """

    states: int
    terminals: int
    info_states: int
    truncated: int
    depth: int


def count_tree(game: Any, limit: int = 1_000_000) -> TreeSize:
    """Walk the whole tree of ``game`` (a ``pyspiel.Game`` with explicit chance) depth first and
    count it (:class:`TreeSize`).  Raises ``ValueError`` once more than ``limit`` states have been
    seen (the tree is too large, or not finite, to count this way)."""
    states = terminals = truncated = depth = 0
    infos: set[str] = set()
    stack = [(game.new_initial_state(), 0)]
    while stack:
        state, d = stack.pop()
        states += 1
        if states > limit:
            raise ValueError(f"the tree has more than {limit} states: too large to count (raise limit)")
        if state.is_terminal():
            terminals += 1
            depth = max(depth, d)
            if not any(state.returns()):
                truncated += 1
            continue
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            infos.add(state.information_state_string())
            actions = state.legal_actions()
        stack.extend((state.child(a), d + 1) for a in actions)
    return TreeSize(states, terminals, len(infos), truncated, depth)


def _seed_of(info: str, seed: int) -> int:
    """A seed for the bot at one information state: the same for every state of it."""
    return zlib.crc32(info.encode()) ^ (seed * 0x9E3779B1)


class BotPolicy(os_policy.Policy):  # type: ignore[misc]
    """A skitgubbe bot as an OpenSpiel policy (``open_spiel.python.policy.Policy``) of a
    ``python_skitgubbe`` game, for ``exploitability.nash_conv`` and best responses.

    :meth:`action_probabilities` asks the bot with the acting seat's view (``state.view(seat)``, its
    ``legal`` the state's legal actions): nothing the seat has not seen.  A policy must be a function
    of the information state, so the bot's randomness is fixed per information state: for each of
    ``seeds`` seeds ``k`` (``seed``, ``seed + 1``, ...) a new bot is made with ``random.Random`` seeded
    from the information state string and ``k``; the policy is the share of the seeds that chose each
    action (``seeds = 1``: a deterministic policy given ``seed``).  ``random`` is given exactly: uniform
    over the legal actions.  Answers are cached per information state.

    Args:
        game: the ``python_skitgubbe`` game (full action ids, not ``compact_actions``).
        bot: a bot name of :func:`skitgubbe.bots.make_bot` (``"counter"``, ``"ismcts-200it"``, ...).
        seeds: how many seeded bots to average (at least 1).
        seed: the first seed.

    Raises ``ValueError`` for an unknown bot name or ``seeds`` below 1; :meth:`action_probabilities`
    raises ``ValueError`` at a chance or terminal node, or if the bot answers an illegal action.
    """

    def __init__(self, game: Any, bot: str, *, seeds: int = 1, seed: int = 0) -> None:
        if seeds < 1:
            raise ValueError(f"seeds must be at least 1, not {seeds}")
        make_bot(bot, random.Random(0))  # an unknown name raises here
        super().__init__(game, list(range(game.num_players())))
        self.bot = bot
        self.seeds = seeds
        self.seed = seed
        self.cache: dict[str, dict[int, float]] = {}

    def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
        """``{action id: probability}`` over the legal actions of the seat to act in ``state``."""
        if state.is_chance_node() or state.is_terminal():
            raise ValueError("a policy is asked only where a seat decides, not at a chance or terminal node")
        player = state.current_player() if player_id is None else player_id
        info = state.information_state_string(player)
        probs = self.cache.get(info)
        if probs is not None:
            return probs
        ids = [int(i) for i in state.legal_actions(player)]
        if self.bot == "random":
            probs = {a: 1.0 / len(ids) for a in ids}
        else:
            legal = [encoding.action_of(i) for i in ids]
            view = state.view(player)._replace(legal=tuple(legal))
            counts = dict.fromkeys(ids, 0)
            for k in range(self.seeds):
                choice = make_bot(self.bot, random.Random(_seed_of(info, self.seed + k))).choose(view, legal)
                if choice not in legal:
                    raise ValueError(f"bot {self.bot!r} chose {choice}, not a legal action")
                counts[ids[legal.index(choice)]] += 1
            probs = {a: n / self.seeds for a, n in counts.items()}
        self.cache[info] = probs
        return probs
