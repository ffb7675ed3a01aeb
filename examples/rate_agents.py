"""Agents of every kind the evaluation harness rates, for ``skitgubbe evaluate --agent
examples/rate_agents.py:NAME`` (docs/research.md, "Evaluating your agent").

* ``openspiel_random``: a factory ``player_id -> agent`` of OpenSpiel's ``RandomAgent`` (needs the
  ``openspiel`` extra; give ``--agent-kind openspiel``: a factory is never guessed);
* ``openspiel_agents``: a list of OpenSpiel agents, one per player (3), each reading its
  information-state tensor as OpenSpiel's DQN does (found by ``--agent-kind auto``);
* ``pettingzoo_policy``: a PettingZoo policy, a callable given the AEC observation dict
  (``--agent-kind pettingzoo``; needs ``numpy``);
* ``PettingZooActor``: a PettingZoo policy object with ``act(observation)`` (auto);
* ``first_legal``: a plain callable ``view -> Action`` (auto; no extra).
"""

from __future__ import annotations

from typing import Any


def openspiel_random(player_id: int) -> Any:
    """OpenSpiel's uniform random rl agent for ``player_id`` (551 action ids), seeded by the seat."""
    import numpy as np
    from open_spiel.python.algorithms.random_agent import RandomAgent

    np.random.seed(player_id)  # RandomAgent draws from numpy's global generator
    return RandomAgent(player_id, num_actions=551)


class InfoStateAgent:
    """A tiny ``rl_agent``-style agent: it reads ``info_state`` and ``legal_actions`` of its
    ``player_id`` and plays the legal id with the highest score of a fixed linear function of
    the tensor (a stand-in for a trained network)."""

    def __init__(self, player_id: int) -> None:
        self.player_id = player_id

    def step(self, time_step: Any, is_evaluation: bool = False) -> Any:
        """``StepOutput(action, probs)`` for the agent's turn (``None`` at the end of a game)."""
        from open_spiel.python import rl_agent

        if time_step.last():
            return None
        tensor = time_step.observations["info_state"][self.player_id]
        legal = time_step.observations["legal_actions"][self.player_id]
        held = sum(tensor[-8 * 52 * 2 - 52:-8 * 52 * 2])  # the cards it has held, from the tensor's tail
        action = legal[int(held) % len(legal)]
        return rl_agent.StepOutput(action=action, probs=None)


openspiel_agents = [InfoStateAgent(p) for p in range(3)]


def pettingzoo_policy(observation: dict[str, Any]) -> int:
    """The first legal action of the AEC observation ``{"observation", "action_mask"}``."""
    import numpy as np

    return int(np.flatnonzero(observation["action_mask"])[0])


class PettingZooActor:
    """A PettingZoo policy object: ``act(observation)`` answers the last legal action."""

    name = "last-legal"

    def act(self, observation: dict[str, Any]) -> int:
        """The last legal action of the AEC observation dict."""
        import numpy as np

        return int(np.flatnonzero(observation["action_mask"])[-1])


def first_legal(view: Any) -> Any:
    """A plain callable: the first legal action of the seat's view."""
    return view.legal[0]
