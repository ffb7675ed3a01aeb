"""The single-agent Gymnasium environment: Gymnasium's checker, registration, whole episodes of
every preset against bots, action masks, illegal actions, truncation and reproducibility; and the
training example in a tiny form."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from skitgubbe.adapters import encoding  # noqa: E402
from skitgubbe.adapters.gymnasium import ENV_ID, SkitgubbeEnv, register  # noqa: E402
from skitgubbe.engine.state import IllegalActionError  # noqa: E402
from skitgubbe.engine.variants import PRESETS  # noqa: E402
from skitgubbe.engine.view import view_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _episode(env: Any, seed: int, rng: random.Random) -> tuple[float, dict[str, Any], int]:
    """One episode with random legal actions, checking masks and observations on the way."""
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        game, seat = env.unwrapped.game, env.unwrapped.seat
        assert game.to_act == seat
        legal = np.flatnonzero(info["action_mask"]).tolist()
        assert legal == encoding.legal_ids(game, seat)
        assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"].astype(bool))
        assert obs in env.observation_space
        assert np.array_equal(obs, np.array(encoding.observation(view_of(game, seat)), dtype=np.float32))
        obs, reward, terminated, truncated, info = env.step(rng.choice(legal))
        total += float(reward)
        steps += 1
        if terminated or truncated:
            assert not info["action_mask"].any() and not env.unwrapped.action_masks().any()
            return total, info, steps
        assert reward == 0


def test_check_env_default_and_via_make() -> None:
    check_env(SkitgubbeEnv(), skip_render_check=True)
    check_env(gym.make(ENV_ID, rules="goat", players=4, opponents="heuristic").unwrapped,
              skip_render_check=True)
    check_env(SkitgubbeEnv(rules="goat", players=5, seat=2, opponents=["random", "heuristic"] * 2,
                           dealer=None, illegal_reward=-0.5), skip_render_check=True)


@pytest.mark.parametrize(("rules", "players"), [("mas", 2), ("two-player", 2), ("koira", 4),
                                                ("catsatcards", 3), ("catsatcards-flurst", 5)])
def test_check_env_new_presets(rules: str, players: int) -> None:
    check_env(SkitgubbeEnv(rules=rules, players=players, opponents="heuristic"), skip_render_check=True)


def test_render_modes_through_make(capsys: pytest.CaptureFixture[str]) -> None:
    check_env(gym.make(ENV_ID, render_mode="ansi").unwrapped)  # also renders every declared mode
    env = gym.make(ENV_ID, render_mode="ansi")
    env.reset(seed=0)
    assert "pagat" in env.render()
    human = SkitgubbeEnv(render_mode="human")
    _, info = human.reset(seed=0)
    human.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "seat 0" in capsys.readouterr().out
    with pytest.warns(UserWarning, match="render_mode"):
        assert SkitgubbeEnv().render() is None


def test_registration_and_module_colon_id() -> None:
    assert ENV_ID in gym.registry
    register()  # a second call changes nothing and does not warn
    env = gym.make("skitgubbe.adapters.gymnasium:skitgubbe/Skitgubbe-v0", players=2)
    assert isinstance(env.unwrapped, SkitgubbeEnv) and env.unwrapped.players == 2


def test_the_core_never_imports_a_framework() -> None:
    code = ("import sys, skitgubbe, skitgubbe.engine.state, skitgubbe.engine.view, skitgubbe.bots, "
            "skitgubbe.batch.runner, "
            "skitgubbe.adapters, skitgubbe.adapters.encoding; "
            "bad = [m for m in ('gymnasium', 'pettingzoo') if m in sys.modules]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_whole_episodes_against_bots(rules: str) -> None:
    r = PRESETS[rules]
    rng = random.Random(0)
    for players in range(r.min_players, r.max_players + 1):
        for seat, opponents in ((0, "random"), (players - 1, "heuristic")):
            env = SkitgubbeEnv(rules=rules, players=players, seat=seat, opponents=opponents)
            total, info, _ = _episode(env, seed=players, rng=rng)
            loser = info["loser"]
            assert total == (-1.0 if loser == seat else pytest.approx(1 / (players - 1)))
            assert sorted(info["out_order"] + (loser,)) == list(range(players))


def test_same_seed_and_actions_replay_the_same_episode() -> None:
    def run(seed: int) -> list[Any]:
        env = SkitgubbeEnv(rules="goat", players=4, opponents="heuristic", dealer=None)
        obs, info = env.reset(seed=seed)
        out: list[Any] = [obs.tobytes()]
        for _ in range(30):
            obs, reward, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
            out.append((obs.tobytes(), reward, term, trunc))
            if term or trunc:
                break
        return out

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_illegal_action_is_penalised_and_ignored_by_default() -> None:
    env = SkitgubbeEnv(rules="pagat", players=3, illegal_reward=-0.25)
    obs, info = env.reset(seed=3)
    before = list(env.game.history)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, term, trunc, info2 = env.step(illegal)
    assert reward == -0.25 and info2["illegal_action"] and not term and not trunc
    assert env.game.history == before and np.array_equal(obs, obs2)
    assert np.array_equal(info["action_mask"], info2["action_mask"]) and env.turns == 1
    _, reward, *_, info3 = env.step(int(np.flatnonzero(info2["action_mask"])[0]))
    assert reward == 0 and not info3["illegal_action"] and len(env.game.history) > len(before)


def test_illegal_action_raises_when_asked() -> None:
    env = SkitgubbeEnv(rules="goat", players=4, illegal_action="raise")
    _, info = env.reset(seed=0)
    before = len(env.game.history)
    with pytest.raises(IllegalActionError, match="seat 0 cannot"):
        env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert len(env.game.history) == before and env.turns == 0


def test_actions_outside_the_space_always_raise() -> None:
    env = SkitgubbeEnv()
    env.reset(seed=0)
    for bad in (-1, encoding.NUM_ACTIONS, 1.5, "pick", None):
        with pytest.raises(ValueError, match="action"):
            env.step(bad)
    env.step(np.array(int(np.flatnonzero(env.action_masks())[0])))  # a 0-d array is accepted


def test_truncation_at_the_turn_cap_and_stepping_after_the_end() -> None:
    env = SkitgubbeEnv(max_turns=3)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    results = [env.step(illegal) for _ in range(3)]
    assert [r[3] for r in results] == [False, False, True] and not any(r[2] for r in results)
    assert not results[-1][4]["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)
    with pytest.raises(RuntimeError, match="reset"):
        SkitgubbeEnv().step(0)
    with pytest.raises(RuntimeError, match="reset"):
        SkitgubbeEnv().game  # noqa: B018


def test_engine_abandonment_is_a_truncation() -> None:
    env = SkitgubbeEnv()
    _, info = env.reset(seed=0)
    env.game.action_limit = len(env.game.history) + 1
    _, reward, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert trunc and not term and reward == 0 and info["loser"] is None


def test_a_bot_choosing_an_illegal_action_is_reported() -> None:
    class Cheat:
        name = "cheat"

        def choose(self, view: Any, legal: Any) -> Any:
            return encoding.action_of(encoding.PICK_UP_ID)  # never legal in phase one

    env = SkitgubbeEnv(rules="goat", players=3)
    _, info = env.reset(seed=0)
    env._bots = [None, Cheat(), Cheat()]
    with pytest.raises(ValueError, match="cheat"):  # at the first bot decision
        for _ in range(60):
            _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="seat"):
        SkitgubbeEnv(seat=3)
    with pytest.raises(ValueError, match="opponents"):
        SkitgubbeEnv(opponents=["random"])
    with pytest.raises(ValueError, match="no bot"):
        SkitgubbeEnv(opponents="genius")
    with pytest.raises(ValueError, match="players"):
        SkitgubbeEnv(rules="goat", players=2)
    with pytest.raises(ValueError, match="dealer"):
        SkitgubbeEnv(dealer=-1)
    with pytest.raises(ValueError, match="max_turns"):
        SkitgubbeEnv(max_turns=0)
    with pytest.raises(ValueError, match="illegal_action"):
        SkitgubbeEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        SkitgubbeEnv(render_mode="rgb_array")


def test_training_example_runs_in_a_tiny_form(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("train_pg", ROOT / "examples" / "train_policy_gradient.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rates = module.main(["--games", "30", "--block", "15", "--seed", "1"])
    assert len(rates) == 3 and all(0.0 <= r <= 1.0 for r in rates)  # untrained, then two blocks
    assert "loser rate" in capsys.readouterr().out


def test_opponents_may_be_bot_objects_for_self_play() -> None:
    # issue 18: an opponent given as a bot object (make_bot's, or an agent being trained) is used as
    # it is; the same deals come as with its name, and anything else is a clear ValueError
    from skitgubbe.bots import make_bot

    class Counting:
        name = "counting"

        def __init__(self) -> None:
            self.bot = make_bot("random", random.Random(0))
            self.calls = 0

        def choose(self, view: Any, legal: Any) -> Any:
            self.calls += 1
            return self.bot.choose(view, legal)

    me = Counting()
    env = SkitgubbeEnv(rules="pagat", players=3, opponents=[me, make_bot("counter", random.Random(1))])
    obs, info = env.reset(seed=4)
    named = SkitgubbeEnv(rules="pagat", players=3, opponents=["random", "counter"])
    obs2, _ = named.reset(seed=4)
    assert (obs == obs2).all()  # the deck and dealer come from the seed alone
    for _ in range(40):
        legal = np.flatnonzero(info["action_mask"])
        obs, _, done, cut, info = env.step(int(legal[0]))
        if done or cut:
            break
    assert me.calls > 0
    with pytest.raises(ValueError, match="neither a bot name nor a bot"):
        SkitgubbeEnv(rules="pagat", players=3, opponents=[me, 42])  # type: ignore[list-item]
