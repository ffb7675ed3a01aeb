"""Framework agents as bots and bots as framework agents (skitgubbe.adapters.agents)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from skitgubbe.adapters import encoding  # noqa: E402
from skitgubbe.adapters.agents import (  # noqa: E402
    PolicyBot,
    ViewState,
    as_bot,
    bot_policy,
    pyspiel_bot,
)
from skitgubbe.adapters.gymnasium import SkitgubbeEnv  # noqa: E402
from skitgubbe.adapters.pettingzoo import env as pz_env  # noqa: E402
from skitgubbe.batch.evaluate import evaluate  # noqa: E402
from skitgubbe.batch.tournament import run_tournament  # noqa: E402
from skitgubbe.bots import make_bot  # noqa: E402
from skitgubbe.engine.actions import Action  # noqa: E402
from skitgubbe.engine.state import State  # noqa: E402
from skitgubbe.engine.variants import find_variant  # noqa: E402
from skitgubbe.engine.view import View, view_of  # noqa: E402

PAGAT = find_variant("pagat")
GOAT = find_variant("goat")


def first_legal_policy(observation: Any, action_mask: Any) -> int:
    assert observation.shape == (encoding.OBS_SIZE,) and observation.dtype == np.float32
    return int(np.flatnonzero(action_mask)[0])


# -- into a bot ------------------------------------------------------------------------------------


def test_as_bot_kinds() -> None:
    bot = make_bot("counter", random.Random(0))
    assert as_bot(bot) is bot
    assert as_bot(bot, kind="bot") is bot
    fn = as_bot(lambda view, legal: legal[0], name="first")
    assert fn.name == "first"
    policy = as_bot(first_legal_policy, kind="policy")
    assert isinstance(policy, PolicyBot) and policy.name == "first_legal_policy"
    with pytest.raises(ValueError, match="kind must be one of"):
        as_bot(bot, kind="robot")
    with pytest.raises(TypeError, match="not a bot"):
        as_bot(lambda v, legal: legal[0], kind="bot")
    with pytest.raises(TypeError, match="policy is a callable"):
        as_bot(3, kind="policy")
    with pytest.raises(TypeError, match="not an agent"):
        as_bot(3)
    with pytest.raises(ValueError, match="action_ids"):
        as_bot(first_legal_policy, kind="policy", action_ids=[1, 1])


def test_a_policy_gets_the_seats_observation_and_a_mask_of_its_legal_actions() -> None:
    state = State.new(GOAT, 4, dealer=0, seed="agents", ask_every_seat=True)
    view = view_of(state, state.to_act)
    seen: list[tuple[Any, Any]] = []

    def policy(observation: Any, action_mask: Any) -> int:
        seen.append((observation, action_mask))
        return int(np.flatnonzero(action_mask)[-1])

    action = as_bot(policy, kind="policy").choose(view, view.legal)
    obs, mask = seen[0]
    assert obs.tolist() == pytest.approx(encoding.observation(view))
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(encoding.action_id(a) for a in view.legal)
    assert encoding.action_id(action) == max(encoding.action_id(a) for a in view.legal)
    # a compact policy answers indices of the compact space
    ids = encoding.rules_action_ids(GOAT)
    compact = as_bot(lambda o, m: int(np.flatnonzero(m)[0]), kind="policy", action_ids=ids)
    assert compact.choose(view, view.legal) == min(view.legal, key=encoding.action_id)
    with pytest.raises(ValueError, match="not a legal action"):
        as_bot(lambda o, m: int(np.flatnonzero(m == 0)[0]), kind="policy").choose(view, view.legal)
    with pytest.raises(ValueError, match="not an action index"):
        as_bot(lambda o, m: "x", kind="policy").choose(view, view.legal)


def test_a_policy_is_evaluated_and_enters_a_tournament() -> None:
    result = evaluate(as_bot(first_legal_policy, kind="policy"), PAGAT, 3, deals=2, ladder=["random"])
    assert result.rungs[0].games + result.rungs[0].abandoned == 6
    t = run_tournament(PAGAT, 3, [as_bot(first_legal_policy, kind="policy"), "random"], 2, 0, jobs=2)
    assert t.bots == ["first_legal_policy", "random"]
    assert sum(r.seat_games for r in t.rows()) == (len(t.games) - t.abandoned) * 3


# -- the Gymnasium environment's opponents -------------------------------------------------------


def test_gymnasium_opponents_take_agent_objects() -> None:
    rng = random.Random(0)
    env = SkitgubbeEnv(opponents=[make_bot("counter", rng), "random"])  # the example
    obs, info = env.reset(seed=1)
    assert env._bots[1] is env.opponents[0]  # noqa: SLF001 - the object is used as it is
    calls: list[int] = []

    def callable_agent(view: View, legal: Sequence[Action]) -> Action:
        calls.append(view.seat)
        return legal[0]

    env = SkitgubbeEnv(rules="goat", players=4, seat=1, opponents=callable_agent)
    obs, info = env.reset(seed=2)
    done = False
    while not done:
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = terminated or truncated
    assert set(calls) == {0, 2, 3}
    policy = as_bot(first_legal_policy, kind="policy")
    SkitgubbeEnv(opponents=[policy, make_bot("random", rng)]).reset(seed=0)
    with pytest.raises(ValueError, match=r"neither a bot name nor a bot or other agent: give a bot name"):
        SkitgubbeEnv(opponents=[3, "random"])
    with pytest.raises(ValueError, match="no bot called"):
        SkitgubbeEnv(opponents=["nobody", "random"])
    with pytest.raises(ValueError, match="3 opponents for the 2 other seats"):
        SkitgubbeEnv(opponents=["random"] * 3)


# -- out of a bot: PettingZoo / Gymnasium policies ----------------------------------------------


@pytest.mark.parametrize("compact", [False, True])
def test_bots_as_pettingzoo_policies_play_whole_deals(compact: bool) -> None:
    e = pz_env(rules="goat", players=4, compact_actions=compact)
    e.reset(seed=11)
    names = ["random", "heuristic", "counter", "random"]
    policies = {a: bot_policy(name, e, random.Random(i))
                for i, (a, name) in enumerate(zip(e.possible_agents, names, strict=True))}
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        k = policies[agent](obs["observation"], obs["action_mask"])
        assert obs["action_mask"][k] == 1
        e.step(k)
    assert e.game.loser is not None


def test_a_bot_policy_reads_only_the_acting_seats_view() -> None:
    e = pz_env(rules="goat", players=4)
    e.reset(seed=3)
    views: list[View] = []

    class Recorder:
        name = "recorder"

        def choose(self, view: View, legal: Sequence[Action]) -> Action:
            views.append(view)
            return legal[0]

    policy = bot_policy(Recorder(), e)
    for _ in range(30):
        agent = e.agent_selection
        obs = e.observe(agent)
        e.step(policy(obs["observation"], obs["action_mask"]))
        assert views[-1].seat == int(agent.split("_")[1])
        assert views[-1].to_act == views[-1].seat
    with pytest.raises(ValueError, match="mask is empty"):
        policy(obs["observation"], np.zeros(encoding.NUM_ACTIONS, dtype=np.int8))
    with pytest.raises(TypeError, match="not a skitgubbe"):
        bot_policy("random", object())
    with pytest.raises(TypeError, match="not a bot"):
        bot_policy(3, e)  # type: ignore[arg-type]


def test_a_bot_policy_plays_the_gymnasium_learner_through_gym_make() -> None:
    gym = pytest.importorskip("gymnasium")
    import skitgubbe.adapters.gymnasium  # noqa: F401

    env = gym.make("skitgubbe/Skitgubbe-v0", rules="pagat", players=3, opponents="heuristic",
                   compact_actions=True)
    policy = bot_policy("counter", env)
    obs, info = env.reset(seed=4)
    assert env.unwrapped.action_masks().astype(np.int8).tolist() == info["action_mask"].tolist()
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
        done = terminated or truncated
    assert info["loser"] in (0, 1, 2)


# -- OpenSpiel -------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), [("pagat", 3), ("goat", 4)])
def test_every_bot_is_a_pyspiel_bot(rules: str, players: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import evaluate_bots

    import skitgubbe.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game(f"python_skitgubbe(rules={rules},players={players})")
    names = ["random", "heuristic", "counter", "ismcts-3it"][:players]
    bots = [pyspiel_bot(name, random.Random(i)) for i, name in enumerate(names)]
    assert all(isinstance(b, pyspiel.Bot) for b in bots)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sorted(returns)[0] == -1.0 and sum(returns) == pytest.approx(0.0)
    with pytest.raises(TypeError, match="not a bot"):
        pyspiel_bot(3)  # type: ignore[arg-type]


def test_a_pyspiel_bot_is_evaluated_from_its_seats_view_only() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    import skitgubbe.adapters.openspiel  # noqa: F401

    game = pyspiel.load_game("python_skitgubbe(rules=goat,players=4)")
    states: list[Any] = []

    class Peek(pyspiel.Bot):  # type: ignore[misc]
        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)

        def step(self, state: Any) -> int:
            states.append(state)
            p = state.current_player()
            assert len(state.observation_tensor(p)) == encoding.OBS_SIZE
            # the harness follows the deal in the OpenSpiel game: the seat's information state is there
            assert len(state.information_state_tensor()) == skitgubbe.adapters.openspiel.INFO_SIZE
            assert state.information_state_string(p).endswith(encoding.observation_string(state.view(p)))
            return int(state.legal_actions(p)[0])

    result = evaluate(as_bot(Peek(), game=game), GOAT, 4, deals=1, ladder=["random"])
    assert result.rungs[0].games + result.rungs[0].abandoned == 4
    s = states[0]
    assert isinstance(s, ViewState) and s.get_game() is game
    other = (s.current_player() + 1) % 4
    with pytest.raises(RuntimeError, match="moved on"):
        s.information_state_tensor()  # asked after its decision
    for ask in (lambda: s.clone(), lambda: s.resample_from_infostate(0, None), lambda: s.history()):
        with pytest.raises(NotImplementedError, match="hidden cards"):
            ask()
    with pytest.raises(ValueError, match="view only"):
        s.observation_tensor(other)
    # a bot made for one seat: a factory gives each seat its own
    seat_bots = as_bot(lambda p: UniformRandomBot(p, np.random.RandomState(p)), kind="pyspiel",
                       name="uniform")
    assert evaluate(seat_bots, GOAT, 4, deals=1, ladder=["random"]).agent == "uniform"
    with pytest.raises(ValueError, match="each seat gets its own"):
        evaluate(as_bot(UniformRandomBot(0, np.random.RandomState(0))), GOAT, 4, deals=1, ladder=["random"])


def test_cli_evaluates_a_pyspiel_bot_factory(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    import json

    from skitgubbe.play.cli import main

    path = tmp_path / "ospiel_agent.py"
    path.write_text("import numpy as np\n"
                    "from open_spiel.python.bots.uniform_random import UniformRandomBot\n"
                    "def uniform(player_id):\n"
                    "    assert player_id in range(4)\n"
                    "    return UniformRandomBot(player_id, np.random.RandomState(player_id))\n",
                    encoding="utf-8")
    assert main(["evaluate", "--agent", f"{path}:uniform", "--kind", "pyspiel", "--rules", "goat",
                 "--players", "4", "--deals", "1", "--ladder", "random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["agent"].endswith("ospiel_agent.py:uniform") and data["rungs"][0]["rung"] == "random"
