"""The evaluation harness rates OpenSpiel rl agents, PettingZoo policies and plain callables on the
versioned deal set (skitgubbe.adapters.rl_agents, skitgubbe.adapters.agents)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import rl_agent  # noqa: E402
from open_spiel.python.algorithms.random_agent import RandomAgent  # noqa: E402

import skitgubbe.adapters.openspiel  # noqa: E402, F401  (registers python_skitgubbe)
from skitgubbe.adapters import encoding  # noqa: E402
from skitgubbe.adapters.agents import PettingZooBot, as_bot  # noqa: E402
from skitgubbe.adapters.rl_agents import OpenSpielAgentBot, SeatOnly, check_same  # noqa: E402
from skitgubbe.batch.evaluate import CallableBot, evaluate  # noqa: E402
from skitgubbe.bots import make_bot  # noqa: E402
from skitgubbe.engine.actions import Action  # noqa: E402
from skitgubbe.engine.rules import Rules  # noqa: E402
from skitgubbe.engine.state import State  # noqa: E402
from skitgubbe.engine.variants import find_variant  # noqa: E402
from skitgubbe.engine.view import View, view_of  # noqa: E402
from skitgubbe.play.cli import load_rules, main  # noqa: E402

PAGAT = find_variant("pagat")
GOAT = find_variant("goat")
LADDER = ["random", "heuristic"]
DOUBLE = Path(__file__).resolve().parents[2] / "examples" / "double-deck.toml"


class Lowest(rl_agent.AbstractAgent):  # type: ignore[misc]
    """A tiny agent reading its observations as OpenSpiel's agents do: the lowest legal id, and a
    record of what it was given (with the harness's OpenSpiel state, for the checks)."""

    def __init__(self, bot: OpenSpielAgentBot | None = None) -> None:
        self.bot = bot
        self.seen: list[tuple[int, list[float], list[int], list[int]]] = []

    def step(self, time_step: Any, is_evaluation: bool = False) -> Any:
        assert is_evaluation and not time_step.last()
        p = time_step.current_player()
        tensor = list(time_step.observations["info_state"][p])
        ids = list(time_step.observations["legal_actions"][p])
        if self.bot is not None:
            self.seen.append((p, tensor, ids, [int(a) for a in self.bot.state.history()]))
        return rl_agent.StepOutput(action=min(ids), probs=None)


def lowest(view: View, legal: list[Action]) -> Action:
    """The callable making the same decisions as :class:`Lowest`."""
    return min(legal, key=encoding.action_id)


def counts(result: Any) -> list[tuple[str, int, int, int]]:
    return [(r.rung, r.games, r.losses, r.abandoned) for r in result.rungs]


# -- OpenSpiel agents ------------------------------------------------------------------------------


@pytest.mark.parametrize("make", ["factory", "list"])
def test_an_openspiel_random_agent_is_rated(make: str) -> None:
    np.random.seed(0)
    agent: Any = (lambda p: RandomAgent(p, encoding.NUM_ACTIONS)) if make == "factory" else \
        [RandomAgent(p, encoding.NUM_ACTIONS) for p in range(3)]
    bot = as_bot(agent, kind="openspiel" if make == "factory" else "auto")
    assert isinstance(bot, OpenSpielAgentBot)
    result = evaluate(bot, PAGAT, 3, deals=3, ladder=LADDER)
    assert result.kind == "openspiel" and result.to_dict()["agent_kind"] == "openspiel"
    assert result.agent == ("openspiel" if make == "factory" else "RandomAgent")
    for r in result.rungs:
        assert r.games + r.abandoned == 9 and 0 <= r.losses <= r.games


@pytest.mark.parametrize(("rules", "players"), [(PAGAT, 3), (GOAT, 4), (find_variant("koira"), 3),
                                                (find_variant("mas"), 2)])
def test_an_openspiel_agent_plays_the_games_a_bot_making_its_decisions_plays(rules: Rules,
                                                                             players: int) -> None:
    # the same decisions as the callable: the same games, so the same loser counts on every rung
    through_openspiel = evaluate(as_bot(Lowest()), rules, players, deals=2, ladder=LADDER)
    direct = evaluate(lowest, rules, players, deals=2, ladder=LADDER)
    assert through_openspiel.rungs == direct.rungs
    assert through_openspiel.kind == "openspiel" and direct.kind == "callable"


def test_an_openspiel_agent_is_copied_into_processes() -> None:
    one = evaluate(as_bot(Lowest()), PAGAT, 3, deals=2, ladder=["random"])
    assert evaluate(as_bot(Lowest()), PAGAT, 3, deals=2, ladder=["random"], jobs=2).rungs == one.rungs


def test_the_tensor_is_the_openspiel_games_information_state_of_that_player_at_that_state() -> None:
    agent = Lowest()
    bot = OpenSpielAgentBot(agent, name="lowest")
    agent.bot = bot
    evaluate(bot, GOAT, 4, deals=2, ladder=["heuristic"])
    game = pyspiel.load_game("python_skitgubbe(rules=goat,players=4)")
    assert len(agent.seen) > 100
    players = {p for p, *_ in agent.seen}
    assert players == {0, 1, 2, 3}  # over the rotations the agent sits in every OpenSpiel seat
    for p, tensor, ids, history in agent.seen[::7]:
        state = game.new_initial_state()
        for a in history:
            state.apply_action(a)
        assert state.current_player() == p
        assert tensor == pytest.approx(state.information_state_tensor(p))
        assert len(tensor) == skitgubbe.adapters.openspiel.INFO_SIZE
        assert ids == state.legal_actions(p)


def test_a_pyspiel_bot_reads_the_information_state_an_rl_agent_gets() -> None:
    tensors: list[list[float]] = []

    class InfoBot(pyspiel.Bot):  # type: ignore[misc]
        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)

        def step(self, state: Any) -> int:
            p = state.current_player()
            tensors.append(list(state.information_state_tensor(p)))
            with pytest.raises(ValueError, match="view only"):
                state.information_state_tensor((p + 1) % 4)
            return int(min(state.legal_actions(p)))

    agent = Lowest()
    bot = OpenSpielAgentBot(agent, name="lowest")
    agent.bot = bot
    rl = evaluate(bot, GOAT, 4, deals=1, ladder=["heuristic"])
    assert evaluate(as_bot(InfoBot()), GOAT, 4, deals=1, ladder=["heuristic"]).rungs == rl.rungs
    assert tensors == [t for _, t, _, _ in agent.seen]
    # rules the OpenSpiel game does not have: the view alone, as before
    tensors.clear()
    double = load_rules(str(DOUBLE))
    with pytest.raises(NotImplementedError, match="hidden cards"):
        evaluate(as_bot(InfoBot()), double, double.min_players, deals=1, ladder=["random"])


def test_compact_and_observation_and_auto_forced_options() -> None:
    direct = evaluate(lowest, PAGAT, 3, deals=2, ladder=["heuristic"])

    class Compact(Lowest):
        def step(self, time_step: Any, is_evaluation: bool = False) -> Any:
            p = time_step.current_player()
            ids = time_step.observations["legal_actions"][p]
            assert max(ids) < len(encoding.rules_action_ids(PAGAT))
            assert len(time_step.observations["info_state"][p]) == encoding.OBS_SIZE
            self.seen.append((p, [], list(ids), []))
            return rl_agent.StepOutput(action=min(ids), probs=None)

    compact = Compact()
    result = evaluate(as_bot(compact, compact_actions=True, observation="observation"), PAGAT, 3, deals=2,
                      ladder=["heuristic"])
    assert result.rungs == direct.rungs  # compact ids are in the order of the full ids
    assert any(len(ids) == 1 for _, _, ids, _ in compact.seen)
    forced = Compact()
    result = evaluate(as_bot(forced, compact_actions=True, observation="observation", auto_forced=True),
                      PAGAT, 3, deals=2, ladder=["heuristic"])
    assert result.rungs == direct.rungs
    assert forced.seen and all(len(ids) > 1 for _, _, ids, _ in forced.seen)
    with pytest.raises(ValueError, match="observation must be one of"):
        as_bot(Lowest(), observation="pixels")


def test_an_agent_gets_only_its_own_seats_entries() -> None:
    obs = SeatOnly(3, 1, [0.5])
    assert obs[1] == [0.5] and obs[-2] == [0.5]
    with pytest.raises(LookupError, match="list of agents, one per player"):
        obs[0]
    # an agent made for player 0 alone, asked at another seat, says what to give instead
    with pytest.raises(LookupError, match="factory player_id -> agent"):
        evaluate(as_bot(RandomAgent(0, encoding.NUM_ACTIONS)), PAGAT, 3, deals=1, ladder=["random"])


def test_openspiel_agent_errors() -> None:
    bot = as_bot(Lowest())
    state = State.new(PAGAT, 3, dealer=0, seed="x", ask_every_seat=True)
    with pytest.raises(RuntimeError, match="played by"):
        bot.choose(view_of(state, state.to_act), state.legal_actions())
    with pytest.raises(ValueError, match="one per player"):
        evaluate(as_bot([Lowest(), Lowest()]), PAGAT, 3, deals=1, ladder=["random"])
    double = load_rules(str(DOUBLE))
    with pytest.raises(ValueError, match="preset of one pack"):
        evaluate(bot, double, double.min_players, deals=1, ladder=["random"])
    with pytest.raises(TypeError, match="not an OpenSpiel agent"):
        as_bot(3, kind="openspiel")

    class Silent(Lowest):
        def step(self, time_step: Any, is_evaluation: bool = False) -> Any:
            return rl_agent.StepOutput(action=None, probs=None)

    with pytest.raises(ValueError, match="gave no action"):
        evaluate(as_bot(Silent()), PAGAT, 3, deals=1, ladder=["random"])

    class Illegal(Lowest):
        def step(self, time_step: Any, is_evaluation: bool = False) -> Any:
            return rl_agent.StepOutput(action=550, probs=None)

    with pytest.raises(ValueError, match="not a legal one"):
        evaluate(as_bot(Illegal()), PAGAT, 3, deals=1, ladder=["random"])


def test_the_followed_game_is_checked_against_the_deal() -> None:
    game = pyspiel.load_game("python_skitgubbe(rules=pagat,players=3)")
    os_state = game.new_initial_state()
    state = State.new(PAGAT, 3, dealer=0, seed="x", ask_every_seat=True)
    with pytest.raises(RuntimeError, match="the OpenSpiel game -1"):
        check_same(os_state, state, 0)  # still dealing
    other = game.new_initial_state()
    for card in State.new(PAGAT, 3, dealer=0, seed="y").deck[:3 * PAGAT.hand_size]:
        other.apply_action(card)
    for card in state.deck[:3 * PAGAT.hand_size]:
        os_state.apply_action(card)
    check_same(os_state, state, 0)
    with pytest.raises(RuntimeError, match="hand differs"):
        check_same(other, state, 0)  # another deal's cards
    with pytest.raises(RuntimeError, match="to act"):
        check_same(os_state, state, 1)  # seats shifted wrongly


# -- PettingZoo policies and callables ------------------------------------------------------------


def test_a_pettingzoo_policy_gets_the_aec_observation() -> None:
    pytest.importorskip("pettingzoo")
    from skitgubbe.adapters.pettingzoo import env as pz_env

    e = pz_env(rules="goat", players=4)
    e.reset(seed=3)
    agent = e.agent_selection
    got: list[Any] = []

    def policy(obs: dict[str, Any], name: str) -> int:
        got.append((obs, name))
        return int(np.flatnonzero(obs["action_mask"])[0])

    seat = int(agent.split("_")[1])
    view = e.view(agent)
    bot = as_bot(policy, kind="pettingzoo")
    assert isinstance(bot, PettingZooBot) and bot.name == "policy"
    bot.choose(view, list(view.legal))
    obs, name = got[0]
    want = e.observe(agent)
    assert name == f"player_{seat}"
    assert obs["observation"].tolist() == want["observation"].tolist()
    assert obs["action_mask"].tolist() == want["action_mask"].tolist()


def test_pettingzoo_policies_and_callables_are_rated_as_the_bot_they_copy() -> None:
    def first(view: View, legal: list[Action]) -> Action:
        return min(legal, key=encoding.action_id)

    class Actor:
        name = "actor"

        def act(self, obs: dict[str, Any]) -> int:
            return int(np.flatnonzero(obs["action_mask"])[0])

    class RLlibLike:
        def compute_single_action(self, obs: dict[str, Any]) -> tuple[int, list[Any], dict[str, Any]]:
            return int(np.flatnonzero(obs["action_mask"])[0]), [], {}

    want = evaluate(first, PAGAT, 3, deals=2, ladder=LADDER).rungs
    ids = encoding.rules_action_ids(PAGAT)
    for agent, kind, action_ids in [
        (Actor(), "auto", None),
        (RLlibLike(), "auto", ids),
        (lambda obs: int(np.flatnonzero(obs["action_mask"])[0]), "pettingzoo", None),
        (lambda view: min(view.legal, key=encoding.action_id), "auto", None),
        (lambda view, legal=(): min(legal, key=encoding.action_id), "auto", None),  # given both
    ]:
        bot = as_bot(agent, kind=kind, action_ids=action_ids)
        result = evaluate(bot, PAGAT, 3, deals=2, ladder=LADDER)
        assert result.rungs == want, agent
        assert result.kind == ("callable" if isinstance(bot, CallableBot) else "pettingzoo")
    with pytest.raises(TypeError, match="PettingZoo policy is a callable"):
        as_bot(3, kind="pettingzoo")


def test_a_bot_given_directly_or_wrapped_as_a_callable_gives_the_same_result() -> None:
    direct_bot = make_bot("heuristic", random.Random(5))
    copy = make_bot("heuristic", random.Random(5))
    direct = evaluate(direct_bot, GOAT, 4, deals=3, ladder=LADDER)
    wrapped = evaluate(lambda view, legal: copy.choose(view, legal), GOAT, 4, deals=3, ladder=LADDER)
    assert wrapped.kind == "callable" and direct.kind == "bot"
    assert counts(wrapped) == counts(direct)
    assert wrapped.digest == direct.digest


def test_an_object_of_no_known_kind_is_refused_naming_the_kinds() -> None:
    with pytest.raises(TypeError, match="kinds: auto, bot, callable, policy, pettingzoo, openspiel, pyspiel"):
        as_bot(object())


# -- the command ------------------------------------------------------------------------------------


def test_cli_rates_an_openspiel_agent_and_names_its_kind(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    mod = tmp_path / "rl_agent_file.py"
    mod.write_text(
        "from open_spiel.python import rl_agent\n"
        "class Lowest(rl_agent.AbstractAgent):\n"
        "    def __init__(self, player_id):\n"
        "        self.player_id = player_id\n"
        "    def step(self, time_step, is_evaluation=False):\n"
        "        ids = time_step.observations['legal_actions'][self.player_id]\n"
        "        assert len(time_step.observations['info_state'][self.player_id]) == 2544\n"
        "        return rl_agent.StepOutput(action=min(ids), probs=None)\n"
        "def make(player_id):\n"
        "    return Lowest(player_id)\n"
        "agent = object()\n", encoding="utf-8")
    args = ["evaluate", "--rules", "pagat", "--players", "3", "--deals", "2", "--ladder", "random"]
    assert main([*args, "--agent", f"{mod}:make", "--agent-kind", "openspiel", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    want = evaluate(lowest, PAGAT, 3, deals=2, ladder=["random"])
    assert data["agent"] == f"{mod}:make" and data["agent_kind"] == "openspiel"
    assert [r["losses"] for r in data["rungs"]] == [r.losses for r in want.rungs]
    assert main([*args, "--agent", f"{mod}:make", "--kind", "openspiel"]) == 0
    assert "(openspiel) on pagat" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([*args, "--agent", str(mod)])  # FILE.py alone is FILE.py:agent, here no agent
    assert "kinds: auto, bot" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["evaluate", "--rules", str(DOUBLE), "--players", "7", "--deals", "1", "--agent", f"{mod}:make",
              "--agent-kind", "openspiel"])
    assert "preset of one pack" in capsys.readouterr().err
    sys.modules.pop("rl_agent_file", None)
