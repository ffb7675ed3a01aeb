"""The learned bot (skitgubbe.bots.learned) and its trainer (skitgubbe.batch.learn_train)."""

from __future__ import annotations

import csv
import json
import random
from importlib import resources
from pathlib import Path

import pytest

from skitgubbe.batch.runner import play_out
from skitgubbe.bots import BOT_NAMES, make_bot
from skitgubbe.bots.learned import (
    ACTION_SIZE,
    STATE_SIZE,
    WEIGHTS_FILE,
    LearnedBot,
    all_action_features,
    load_models,
    model_for,
    state_features,
)
from skitgubbe.engine.actions import CHANCE
from skitgubbe.engine.rules import Rules
from skitgubbe.engine.state import State, deck_from_seed
from skitgubbe.engine.variants import PRESETS, find_variant
from skitgubbe.engine.view import view_of


def shipped() -> dict[str, object]:
    text = resources.files("skitgubbe.bots").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    data: dict[str, object] = json.loads(text)
    return data


def play(rules: Rules, players: int, seed: int, names: list[str]) -> State:
    """One deal with the named bots (the learned bot included), every seat asked in sluff windows."""
    state = State.new(rules, players, dealer=seed % players, deck=deck_from_seed(f"learned-test:{seed}",
                      decks=rules.decks), ask_every_seat=True)
    bots = [make_bot(names[i % len(names)], random.Random(f"{seed}:{i}")) for i in range(players)]
    return play_out(state, bots, random.Random(seed))  # raises ValueError for an illegal action


def test_the_weights_file_loads_with_the_shapes_it_claims() -> None:
    data = shipped()
    models = load_models(data)
    assert list(models) == ["pagat-3", "goat-4"]
    for key, model in models.items():
        h1, h2 = model.hidden
        assert (model.preset, model.players) == {"pagat-3": ("pagat", 3), "goat-4": ("goat", 4)}[key]
        assert len(model.w1) == STATE_SIZE + ACTION_SIZE and {len(r) for r in model.w1} == {h1}
        assert len(model.b1) == h1 and len(model.w2) == h2 and {len(r) for r in model.w2} == {h1}
        assert len(model.b2) == h2 and len(model.w3) == h2 and isinstance(model.b3, float)
        assert model.meta["games"] > 0 and model.meta["cpu_seconds"] > 0


def test_a_broken_weights_file_is_refused() -> None:
    data = json.loads(json.dumps(shipped()))
    data["features"] = 0
    with pytest.raises(ValueError, match="feature version"):
        load_models(data)
    data = json.loads(json.dumps(shipped()))
    data["models"]["pagat-3"]["hidden"] = [3, 2]
    with pytest.raises(ValueError, match="shapes"):
        load_models(data)


def test_the_policy_is_a_distribution_over_the_legal_actions() -> None:
    state = State.new(PRESETS["goat"], 4, seed=2, ask_every_seat=True)
    for _ in range(200):
        if state.is_over:
            break
        seat = state.to_act
        if seat == CHANCE:
            state.apply(state.legal_actions(seat)[0], seat)
            continue
        view = view_of(state, seat)
        legal = list(view.legal)
        probs = model_for(view.rules, view.players).policy(view, legal)
        assert len(probs) == len(legal) and abs(sum(probs) - 1.0) < 1e-9 and min(probs) >= 0.0
        state.apply(LearnedBot(random.Random(0)).choose(view, legal), seat)


def test_the_counter_bot_is_not_run_at_play_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # The counter bot is the trainer's teacher only: the learned bot plays without it.
    from skitgubbe.bots.counter import CounterBot

    def refuse(self: object, *args: object) -> object:
        raise AssertionError("the counter bot was consulted")

    monkeypatch.setattr(CounterBot, "choose", refuse)
    for preset, players in (("pagat", 3), ("goat", 4)):
        assert play(find_variant(preset), players, 5, ["learned", "heuristic"]).loser is not None


def test_the_trainers_gradient_matches_finite_differences() -> None:
    np = pytest.importorskip("numpy")
    from skitgubbe.batch import learn_train as lt

    samples = lt._Samples()
    lt._play_games(PRESETS["pagat"], 3, 1, "gradient-test", [("learned", 1.0)], None, samples, 0)
    data = lt._Data(np, samples)
    dec = np.arange(min(len(samples), 12))
    net = lt._Net(np, (6, 4), seed=3, lr=1e-3)
    for k in net.p:
        net.p[k] = net.p[k].astype(np.float64) + (0.1 if k.startswith("b") else 0.0)
    batch = data.batch(dec)
    _, _, cache = net.forward(batch)
    # the analytic gradient: one Adam step's first moment is (1 - 0.9) * gradient
    before = net.copy()
    net.step(batch)
    grads = {k: v / 0.1 for k, v in net.m.items()}
    net.restore(before)
    rng = np.random.default_rng(0)
    for k in ("w1", "b1", "w2", "b2", "w3"):
        for _ in range(4):
            idx = tuple(int(rng.integers(n)) for n in net.p[k].shape)
            if k == "w1":  # an input that is set in the batch, so the entry matters
                xs, xa = batch[0], batch[1]
                used = np.flatnonzero(np.concatenate([xs.sum(0), xa.sum(0)]))
                idx = (int(used[rng.integers(len(used))]), idx[1])
            h = 1e-5
            net.p[k][idx] += h
            up = net.forward(batch)[0]
            net.p[k][idx] -= 2 * h
            down = net.forward(batch)[0]
            net.p[k][idx] += h
            numeric = (up - down) / (2 * h) / len(dec)
            assert abs(numeric - grads[k][idx]) < 1e-4 + 1e-3 * abs(numeric), (k, idx)


def test_the_trainers_network_and_the_bots_agree() -> None:
    # The numpy scores of the trainer and the pure-Python scores of the shipped format rank the
    # actions alike (float16 weights: equal to about 1e-2).
    np = pytest.importorskip("numpy")
    from skitgubbe.batch import learn_train as lt
    from skitgubbe.bots.learned import Model

    samples = lt._Samples()
    lt._play_games(PRESETS["goat"], 4, 1, "agree-test", [("learned", 1.0)], None, samples, 0)
    data = lt._Data(np, samples)
    net = lt._Net(np, (8, 4), seed=1, lr=1e-3)
    model = Model("goat-4", net.model_data("goat", 4, {}))
    dec = np.arange(len(samples))
    xs, xa, row_dec, starts, _ = data.batch(dec)
    p = net.p
    a1 = (xs @ p["w1"][:STATE_SIZE])[row_dec] + xa @ p["w1"][STATE_SIZE:] + p["b1"]
    z = np.maximum(np.maximum(a1, 0) @ p["w2"] + p["b2"], 0) @ p["w3"] + p["b3"][0]
    for r in range(len(z)):
        state = [int(i) for i in np.flatnonzero(xs[row_dec[r]])]
        action = [int(i) for i in np.flatnonzero(xa[r])]
        assert abs(model.logit(model.state_part(state), action) - float(z[r])) < 2e-2


def test_learned_is_a_bot_name() -> None:
    assert "learned" in BOT_NAMES
    assert isinstance(make_bot(" Learned ", random.Random(0)), LearnedBot)


@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("goat", 4)])
def test_it_plays_legal_moves_of_the_presets_it_was_trained_on(preset: str, players: int) -> None:
    for seed in range(2):
        state = play(find_variant(preset), players, seed, ["learned", "heuristic", "learned", "counter"])
        assert state.loser is not None


@pytest.mark.parametrize(("preset", "players", "model"),
                         [("howell", 4, "goat-4"), ("mas", 3, "pagat-3"), ("pagat", 4, "pagat-3"),
                          ("goat", 3, "goat-4"), ("myllymatti", 2, "pagat-3"), ("koira", 5, None)])
def test_other_presets_use_the_nearest_trained_weights(preset: str, players: int, model: str | None) -> None:
    rules = PRESETS[preset]
    chosen = model_for(rules, players)
    if model is not None:
        assert chosen.key == model
    state = play(rules, players, 7, ["learned"])
    assert state.is_over


def test_two_packs_are_played_as_one() -> None:
    rules = PRESETS["goat"].replace(decks=2)
    assert play(rules, 4, 3, ["learned", "heuristic"]).is_over


def test_it_is_deterministic_for_a_seed() -> None:
    a = play(PRESETS["pagat"], 3, 11, ["learned"])
    b = play(PRESETS["pagat"], 3, 11, ["learned"])
    assert list(a.history) == list(b.history)


def test_its_features_and_choices_read_only_the_view() -> None:
    # Two deals that differ only in a card of seat 1's hand swapped with one of seat 2's, played with
    # the same moves: while both cards are hidden from seat 0, its features and choices are equal.
    rules = PRESETS["goat"]
    checked = 0
    for seed in range(4):
        a = State.new(rules, 4, seed=seed, ask_every_seat=True)
        rng = random.Random(seed)
        one = rng.choice([c for c in range(52) if a.hands[1] >> c & 1])
        two = rng.choice([c for c in range(52) if a.hands[2] >> c & 1])
        deck = [two if c == one else one if c == two else c for c in a.deck]
        b = State.new(rules, 4, dealer=a.dealer, deck=deck, ask_every_seat=True)
        cards = 1 << one | 1 << two
        while not a.is_over:
            held = (a.hands[1] | a.hands[2]) & ~(a.known[1] | a.known[2])
            held_b = (b.hands[1] | b.hands[2]) & ~(b.known[1] | b.known[2])
            if held & cards != cards or held_b & cards != cards:
                break
            seat = a.to_act
            if seat == CHANCE:
                break
            if seat == 0:
                va, vb = view_of(a, 0), view_of(b, 0)
                assert state_features(va) == state_features(vb)
                assert all_action_features(va, va.legal) == all_action_features(vb, vb.legal)
                assert (LearnedBot(random.Random(seed)).choose(va, va.legal)
                        == LearnedBot(random.Random(seed)).choose(vb, vb.legal))
                checked += 1
            common = [x for x in a.legal_actions(seat) if x in set(b.legal_actions(seat))]
            if not common:
                break
            move = rng.choice(common)
            a.apply(move, seat)
            b.apply(move, seat)
    assert checked >= 10


def test_features_are_in_range() -> None:
    state = State.new(PRESETS["pagat"], 3, seed=5, ask_every_seat=True)
    view = view_of(state, state.to_act)
    s = state_features(view)
    assert s == sorted(s) and all(0 <= i < STATE_SIZE for i in s)
    for f in all_action_features(view, view.legal):
        assert f == sorted(f) and all(0 <= i < ACTION_SIZE for i in f)


def test_a_tiny_training_run_writes_its_files(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    from skitgubbe.batch.learn_train import main

    out = tmp_path / "w.json"
    curve = tmp_path / "curve.csv"
    args = ["--rules", "pagat", "--players", "3", "--out", str(out), "--curve", str(curve),
            "--games", "3", "--dagger-games", "2", "--rounds", "1", "--eval-deals", "1", "--hidden", "8,4",
            "--batch", "64", "--action-limit", "300"]  # an untrained network's deals can run long
    assert main(args) == 0
    models = load_models(json.loads(out.read_text()))
    assert list(models) == ["pagat-3"] and models["pagat-3"].hidden == (8, 4)
    with curve.open() as fh:
        rows = list(csv.DictReader(fh))
    assert [r["round"] for r in rows] == ["0", "1"] and int(rows[0]["eval_games"]) == 3
    assert all(0.0 <= float(r["val_agree"]) <= 1.0 for r in rows)
    assert models["pagat-3"].meta["teacher"] == "counter"
    first = out.read_text()
    assert main(args) == 0
    again = json.loads(out.read_text())["models"]["pagat-3"]
    assert again["w1"] == json.loads(first)["models"]["pagat-3"]["w1"]  # deterministic for a seed
    # a trained model plays
    state = State.new(PRESETS["pagat"], 3, seed=1, ask_every_seat=True)
    bots = [LearnedBot(random.Random(i), models=models) for i in range(3)]
    assert play_out(state, bots, random.Random(1)).is_over
    pytest.importorskip("matplotlib")
    assert main(["--plot", str(curve), "--figure", str(tmp_path / "fig")]) == 0
    assert (tmp_path / "fig.png").stat().st_size > 0 and (tmp_path / "fig.svg").stat().st_size > 0
