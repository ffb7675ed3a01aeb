"""The small game (research preset ``mini``) through OpenSpiel: a finite tree, CFR+ lowering
``nash_conv``, and bots as proper policies (skitgubbe.adapters.small_game)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
cfr = pytest.importorskip("open_spiel.python.algorithms.cfr")
exploitability = pytest.importorskip("open_spiel.python.algorithms.exploitability")

from skitgubbe.adapters.small_game import BotPolicy, count_tree, load_mini  # noqa: E402
from skitgubbe.engine.variants import RESEARCH_PRESETS  # noqa: E402


@pytest.fixture(scope="module")
def game() -> Any:
    return load_mini()


def decisions(game: Any) -> Iterator[Any]:
    """Every decision node of the tree."""
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            # chance outcomes are card numbers, of the short pack only
            assert all(RESEARCH_PRESETS["mini"].pack >> a & 1 for a, _ in outcomes)
            stack.extend(state.child(a) for a, _ in outcomes)
        else:
            yield state
            stack.extend(state.child(a) for a in state.legal_actions())


def test_the_tree_is_finite_and_no_deal_reaches_the_turn_cap(game: Any) -> None:
    size = count_tree(game)
    assert size.truncated == 0 and size.terminals > 0
    assert size.depth < game.max_game_length() + 4 * 2  # (deals are chance outcomes too)
    assert count_tree(load_mini(8)) == size  # every deal ends within 8 decisions
    capped = count_tree(load_mini(6))
    assert capped.truncated > 0  # a tighter cap ends some deals at 0 for both
    with pytest.raises(ValueError, match="more than 100 states"):
        count_tree(game, limit=100)


def test_a_few_cfr_plus_iterations_lower_nash_conv(game: Any) -> None:
    solver = cfr.CFRPlusSolver(game)
    solver.evaluate_and_update_policy()
    first = exploitability.nash_conv(game, solver.average_policy())
    for _ in range(4):
        solver.evaluate_and_update_policy()
    later = exploitability.nash_conv(game, solver.average_policy())
    assert later < first / 2
    assert later >= 0


@pytest.mark.parametrize(("bot", "seeds"), [("random", 1), ("heuristic", 1), ("counter", 1), ("learned", 1),
                                            ("ismcts-10it", 1), ("ismcts-10it", 3)])
def test_a_bot_policy_is_a_distribution_over_the_legal_actions(game: Any, bot: str, seeds: int) -> None:
    policy = BotPolicy(game, bot, seeds=seeds)
    for state in decisions(game):
        probs = policy.action_probabilities(state)
        assert set(probs) == set(state.legal_actions())
        assert all(p >= 0 for p in probs.values()) and math.isclose(sum(probs.values()), 1.0)
        if bot != "random":  # a share of the seeded bots
            assert all(math.isclose(p * seeds, round(p * seeds)) for p in probs.values())
    conv = exploitability.nash_conv(game, policy)
    assert 0 <= conv <= 4  # two players, returns in -1..1


def test_bot_policy_refusals(game: Any) -> None:
    with pytest.raises(ValueError, match="seeds must be at least 1"):
        BotPolicy(game, "counter", seeds=0)
    with pytest.raises(ValueError):
        BotPolicy(game, "no-such-bot")
    with pytest.raises(ValueError, match="not at a chance or terminal node"):
        BotPolicy(game, "counter").action_probabilities(game.new_initial_state())


def test_the_documented_quick_command_runs() -> None:
    # docs/research.md, "A small game to solve": the quick command, as written there
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    command = "python benchmarks/small_game_cfr.py --iterations 5 --seconds 10 --ismcts-iterations 10"
    assert command in (root / "docs" / "research.md").read_text(encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, *command.split()[1:]], cwd=root, env=env, capture_output=True,
                         text=True, check=True).stdout
    assert "1009 states, 604 information states" in out
    for row in ("| random | 0.73611 |", "| counter | ", "| ismcts-10it | ", "| CFR+ (5 iterations) | "):
        assert row in out
