"""The self-play bot (skitgubbe.bots.selfplay) and its trainer (skitgubbe.adapters.selfplay)."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

import pytest

from skitgubbe.adapters import encoding
from skitgubbe.batch.runner import play_out
from skitgubbe.bots import BOT_NAMES, Bot, make_bot
from skitgubbe.bots.selfplay import (
    FORMAT,
    NUM_ACTIONS,
    OBS_SIZE,
    WEIGHTS_FILE,
    Model,
    SelfPlayBot,
    action_index,
    load_models,
    model_for,
    observation_entries,
    shipped_models,
)
from skitgubbe.engine.actions import CHANCE, Action, Kind
from skitgubbe.engine.rules import Rules
from skitgubbe.engine.state import State, deck_from_seed
from skitgubbe.engine.variants import PRESETS, find_variant
from skitgubbe.engine.view import view_of
from skitgubbe.play.cli import main


def shipped() -> dict[str, object]:
    text = resources.files("skitgubbe.bots").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    data: dict[str, object] = json.loads(text)
    return data


def play(rules: Rules, players: int, seed: int, names: list[str],
         models: Mapping[str, Model] | None = None) -> State:
    """One deal with the named bots, every seat asked in sluff windows; ``play_out`` raises
    ValueError for an illegal action."""
    state = State.new(rules, players, dealer=seed % players, deck=deck_from_seed(f"selfplay-test:{seed}",
                      decks=rules.decks), ask_every_seat=True)
    bots: list[Bot] = []
    for i in range(players):
        name, rng = names[i % len(names)], random.Random(f"{seed}:{i}")
        bots.append(SelfPlayBot(rng, models=models) if name == "selfplay" else make_bot(name, rng))
    return play_out(state, bots, random.Random(seed))


def test_the_shipped_weights_load_and_are_small() -> None:
    models = shipped_models()
    assert {"pagat-3", "goat-4"} <= set(models)
    for key, model in models.items():
        assert key == f"{model.preset}-{model.players}"
        assert model.meta["updates"] > 0 and model.meta["cpu_seconds"] > 0
    size = resources.files("skitgubbe.bots").joinpath(WEIGHTS_FILE).read_bytes()
    assert len(size) < 4_000_000


def test_a_broken_weights_file_is_refused() -> None:
    data = json.loads(json.dumps(shipped()))
    with pytest.raises(ValueError, match="format"):
        load_models({**data, "format": "other"})
    with pytest.raises(ValueError, match="no model"):
        load_models({"format": FORMAT, "models": {}})
    model = dict(data["models"]["pagat-3"])  # type: ignore[index]
    model["b3"] = model["b2"]
    with pytest.raises(ValueError, match="do not chain"):
        load_models({"format": FORMAT, "models": {"pagat-3": model}})


def test_selfplay_is_a_bot_name() -> None:
    assert "selfplay" in BOT_NAMES
    assert isinstance(make_bot(" SelfPlay ", random.Random(0)), SelfPlayBot)


def test_action_index_is_the_encodings_action_id() -> None:
    for i in range(encoding.NUM_ACTIONS):
        assert action_index(encoding.action_of(i)) == i
    assert NUM_ACTIONS == encoding.NUM_ACTIONS and OBS_SIZE == encoding.OBS_SIZE
    with pytest.raises(ValueError, match="no action id"):
        action_index(Action(Kind.PLAY, 0b101))  # 2C 4C: not a run
    with pytest.raises(ValueError, match="no action id"):
        action_index(Action(Kind.DRECK, 0b11, (0, 1)))


@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("goat", 4), ("mas", 3), ("koira", 4),
                                                 ("howell", 5)])
def test_the_features_are_the_encodings_observation(preset: str, players: int) -> None:
    rules = PRESETS[preset]
    rng = random.Random(preset)
    checked = 0
    for seed in range(2):
        state = State.new(rules, players, seed=seed, ask_every_seat=True)
        while not state.is_over:
            seat = state.to_act
            legal = state.legal_actions(seat)
            if seat != CHANCE:
                view = view_of(state, seat)
                want = {i: x for i, x in encoding.observation_entries(view).items() if x}
                assert observation_entries(view) == want
                assert [action_index(a) for a in legal] == [encoding.action_id(a) for a in legal]
                checked += 1
            state.apply(rng.choice(legal), seat)
    assert checked > 50


@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("goat", 4)])
def test_it_plays_legal_moves_of_the_presets_it_was_trained_on(preset: str, players: int) -> None:
    for seed in range(2):
        state = play(find_variant(preset), players, seed, ["selfplay", "counter", "selfplay", "heuristic"])
        assert state.loser is not None


@pytest.mark.parametrize(("preset", "players", "model"),
                         [("pagat", 3, "pagat-3"), ("goat", 4, "goat-4"), ("pagat", 4, "pagat-3"),
                          ("goat", 5, "goat-4"), ("myllymatti", 3, "pagat-3"), ("koira", 4, None)])
def test_other_tables_use_the_nearest_trained_model(preset: str, players: int, model: str | None) -> None:
    rules = PRESETS[preset]
    if model is not None:
        assert model_for(rules, players).key == model
    assert play(rules, players, 5, ["selfplay"]).is_over


def test_it_is_deterministic_for_a_seed() -> None:
    a = play(PRESETS["pagat"], 3, 11, ["selfplay"])
    b = play(PRESETS["pagat"], 3, 11, ["selfplay"])
    assert list(a.history) == list(b.history)


def test_numpy_and_pure_python_inference_agree() -> None:
    np = pytest.importorskip("numpy")
    from skitgubbe.adapters.selfplay import NumpyQ

    for key in ("pagat-3", "goat-4"):
        model = shipped_models()[key]
        fast = NumpyQ(shipped()["models"][key])  # type: ignore[index]
        rules = PRESETS[model.preset]
        state = State.new(rules, model.players, seed=3, ask_every_seat=True)
        rng = random.Random(3)
        rows, pure = [], []
        while not state.is_over:
            seat = state.to_act
            legal = state.legal_actions(seat)
            if seat != CHANCE and len(rows) < 40:
                view = view_of(state, seat)
                rows.append(encoding.observation(view))
                pure.append(model.q_values(observation_entries(view), range(NUM_ACTIONS)))
            state.apply(rng.choice(legal), seat)
        q = fast.q_values(np.asarray(rows, dtype=np.float32))
        assert q.shape == (len(rows), NUM_ACTIONS)
        assert np.allclose(q, np.asarray(pure), atol=1e-4)
        assert float(np.abs(q).max()) > 0.0


def test_training_needs_the_extra_train(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from skitgubbe.adapters import selfplay as trainer

    monkeypatch.setitem(sys.modules, "torch", None)  # import torch raises ImportError
    with pytest.raises(ImportError, match=r"skitgubbe\[train\]"):
        trainer.train("pagat", 3, out=str(tmp_path / "w.json"), max_updates=1)
    assert main(["train-selfplay", "--out", str(tmp_path / "w.json"), "--max-updates", "1"]) == 2


def test_the_command_refuses_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train-selfplay", "--out", str(tmp_path / "w.json"), "--hidden", "8"]) == 2
    assert "--hidden" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["train-selfplay", "--out", str(tmp_path / "w.json"), "--preset", "mas"])


def test_a_tiny_training_run_writes_weights_the_bot_plays(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("skitgubbe_native")
    from skitgubbe.adapters.selfplay import train

    out = tmp_path / "w.json"
    args = ["--minutes", "5", "--max-updates", "2", "--envs", "16", "--batch", "128", "--hidden", "16,8",
            "--log-seconds", "1000", "--out", str(out)]
    assert main(["train-selfplay", "--preset", "goat", "--players", "4", *args]) == 0
    first = out.read_text()
    assert main(["train-selfplay", "--preset", "pagat", "--players", "3", *args]) == 0
    models = load_models(json.loads(out.read_text()))
    assert list(models) == ["goat-4", "pagat-3"]  # the goat model is kept
    assert models["pagat-3"].hidden == (16, 8) and models["pagat-3"].meta["updates"] == 2
    assert play(PRESETS["pagat"], 3, 1, ["selfplay"], models=models).is_over
    assert play(PRESETS["goat"], 4, 1, ["selfplay", "counter"], models=models).is_over
    # the same arguments give the same weights
    again = tmp_path / "again.json"
    train("goat", 4, out=str(again), minutes=5, max_updates=2, n_envs=16, batch=128, hidden=(16, 8),
          log=lambda line: None)
    assert (json.loads(again.read_text())["models"]["goat-4"]["w1"]
            == json.loads(first)["models"]["goat-4"]["w1"])
    with pytest.raises(ValueError, match="positive"):
        train("goat", 4, out=str(again), minutes=0)
