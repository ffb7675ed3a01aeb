"""The batch stepping API (skitgubbe.adapters.batch, the compiled engine's PagatBatch): every env's
observation, mask and seat to act equal what the Python engine gives for the same deck and the same
actions (``encoding.observation(view_of(...))``, ``encoding.legal_ids``), rewards equal the
PettingZoo adapter's, finished envs are dealt anew, and an illegal id changes nothing.

Without numpy or the compiled module these tests skip, unless ``SKITGUBBE_REQUIRE_NATIVE`` is set
(CI sets it): then they fail, as in tests/test_compiled.py.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from skitgubbe.engine import compiled
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.view import view_of

_REQUIRED = bool(os.environ.get("SKITGUBBE_REQUIRE_NATIVE"))

try:
    import numpy as np
except ImportError:  # pragma: no cover - numpy is installed wherever the adapters are tested
    np = None  # type: ignore[assignment]

_MISSING = np is None or not compiled.available()
needs_native = pytest.mark.skipif(_MISSING and not _REQUIRED,
                                  reason="needs numpy and the compiled engine (pip install ./native)")


def test_batch_is_present_when_required() -> None:
    if _REQUIRED and _MISSING:
        pytest.fail("SKITGUBBE_REQUIRE_NATIVE is set but numpy or skitgubbe_native does not import")


def _python_deal(envs: Any, i: int) -> State:
    return State.new(envs.rules, envs.players, dealer=int(envs.dealers[i]), deck=envs.decks[i].tolist(),
                     ask_every_seat=True)


def _random_actions(mask: Any, rng: Any) -> Any:
    from skitgubbe.adapters.batch import random_legal_actions
    return random_legal_actions(mask, rng)


@needs_native
@pytest.mark.parametrize(("preset", "players", "rounds", "deals"), [
    # random deals take about 130, 270 and 390 steps (pagat, 2 to 4 seats) and 340, 530 and 1,470
    # (goat at 3, 4 and 6 seats, every seat asked in each sluff window)
    ("pagat", 2, 300, 2), ("pagat", 3, 300, 2), ("pagat", 4, 600, 2),
    ("goat", 3, 500, 2), ("goat", 4, 800, 2), ("goat", 6, 400, 0),
])
def test_every_env_matches_the_python_engine(preset: str, players: int, rounds: int, deals: int) -> None:
    from skitgubbe.adapters import encoding
    from skitgubbe.adapters.batch import BatchEnv
    from skitgubbe.engine.actions import CHANCE, Action, Kind

    n = 6
    envs = BatchEnv(preset, players=players, n_envs=n, seed=players)
    out = envs.reset()
    assert out.obs.shape == (n, encoding.OBS_SIZE) and out.obs.dtype == np.float32
    assert out.mask.shape == (n, encoding.NUM_ACTIONS) and out.mask.dtype == np.int8
    assert out.rewards.shape == (n, players) and out.done.dtype == np.bool_
    states = [_python_deal(envs, i) for i in range(n)]
    rng = np.random.default_rng(players)
    finished = 0
    win = np.float32(1.0 / (players - 1))
    drecks = 0
    for _ in range(rounds):
        for i, st in enumerate(states):
            seat = st.to_act
            assert out.to_act[i] == seat
            want = np.array(encoding.observation(view_of(st, seat)), dtype=np.float32)
            assert np.array_equal(out.obs[i], want), (i, np.flatnonzero(out.obs[i] != want))
            assert np.flatnonzero(out.mask[i]).tolist() == encoding.legal_ids(st, seat)
        actions = _random_actions(out.mask, rng)
        for i, st in enumerate(states):
            st.step(encoding.action_of(int(actions[i])), st.to_act)
        out = envs.step(actions)
        for i, st in enumerate(states):
            if st.to_act == CHANCE:  # the dreck dealt round several seats: the batch's order
                drecks += 1
                st.step(Action(Kind.DRECK, st.pending_deal(), envs.dreck_order(i)), CHANCE)
            if out.done[i]:
                finished += 1
                assert st.is_over and st.loser is not None and not out.truncated[i]
                want_r = np.full(players, win, dtype=np.float32)
                want_r[st.loser] = -1
                assert np.array_equal(out.rewards[i], want_r)
                states[i] = _python_deal(envs, i)  # the env was dealt anew
            else:
                assert not st.is_over and not out.rewards[i].any()
    assert finished >= deals  # auto-reset was exercised
    if preset == "goat" and players >= 4:
        assert drecks  # the dreck was dealt round several seats at least once
    assert envs.steps == n * rounds


@needs_native
def test_rewards_equal_the_pettingzoo_adapter() -> None:
    pz = pytest.importorskip("skitgubbe.adapters.pettingzoo")
    from skitgubbe.adapters.batch import BatchEnv

    rng = np.random.default_rng(5)
    for i in range(2):  # env i of a fresh batch, beside another env that moves too
        envs = BatchEnv("pagat", players=3, n_envs=2, seed=11 + i)
        out = envs.reset()
        e = pz.raw_env(rules="pagat", players=3)
        e.reset(seed=0)
        e._game = State.new(PRESETS["pagat"], 3, dealer=int(envs.dealers[i]), deck=envs.decks[i].tolist(),
                            action_limit=e.max_turns + 2, ask_every_seat=True)  # the batch env's deal
        e._legal = None
        e.agent_selection = e.possible_agents[e._game.to_act]
        while True:
            agent = e.agent_selection
            o = e.observe(agent)
            assert np.array_equal(o["observation"], out.obs[i])
            assert np.array_equal(o["action_mask"], out.mask[i])
            actions = _random_actions(out.mask, rng)
            e.step(int(actions[i]))
            out = envs.step(actions)
            if out.done[i]:
                assert all(e.terminations.values())
                got = {a: float(out.rewards[i][e._seat_of[a]]) for a in e.possible_agents}
                assert got == e._cumulative_rewards
                break


@needs_native
def test_an_illegal_id_is_refused_and_nothing_changes() -> None:
    from skitgubbe.adapters.batch import BatchEnv

    envs = BatchEnv("pagat", players=3, n_envs=4, seed=3)
    with pytest.raises(RuntimeError):
        envs.step([0, 0, 0, 0])
    out = envs.reset()
    before = [a.copy() for a in (out.obs, out.mask, out.to_act, envs.decks)]
    actions = _random_actions(out.mask, np.random.default_rng(0))
    bad = int(np.flatnonzero(out.mask[2] == 0)[0])
    actions[2] = bad
    with pytest.raises(ValueError, match=f"env 2: action id {bad} is not legal for seat {out.to_act[2]}"):
        envs.step(actions)
    for old, new in zip(before, (out.obs, out.mask, out.to_act, envs.decks), strict=True):
        assert np.array_equal(old, new)
    assert envs.steps == 0
    for wrong in (-1, 551, 10**6):
        actions[2] = wrong
        with pytest.raises(ValueError, match="env 2"):
            envs.step(actions)
    with pytest.raises(ValueError, match="one action id per env"):
        envs.step([0, 0, 0])
    with pytest.raises(ValueError, match="integers"):
        envs.step([0.0, 0.0, 0.0, 0.0])
    assert envs.steps == 0


@needs_native
def test_rules_the_compiled_engine_does_not_play_are_refused() -> None:
    from skitgubbe.adapters.batch import BatchEnv

    with pytest.raises(compiled.UnsupportedError, match="howell is for 3 to 6 players, not 7"):
        BatchEnv("howell", players=7)  # (two packs at 7 and 8 seats)
    for players in (7, 8):  # Howell's double deck: the batches' card sets are 64 bits
        with pytest.raises(compiled.UnsupportedError, match="two packs"):
            BatchEnv(PRESETS["howell"].with_options({"decks": 2}), players=players)
    with pytest.raises(compiled.UnsupportedError, match="restaurant=True"):
        BatchEnv(PRESETS["goat"].replace(name="goat", restaurant=True), players=4)
    with pytest.raises(compiled.UnsupportedError, match="2 to 4 players"):
        BatchEnv("pagat", players=5)
    with pytest.raises(compiled.UnsupportedError, match="no preset named"):
        BatchEnv("nonesuch", players=3)
    with pytest.raises(ValueError, match="n_envs"):
        BatchEnv("pagat", players=3, n_envs=0)
    with pytest.raises(ValueError, match="action_limit"):
        BatchEnv("pagat", players=3, action_limit=0)
    # a preset changed is played by the run-time policy, the presets by their own code
    assert BatchEnv(PRESETS["goat"].replace(name="goat", sluff_once=True), players=4).preset is None
    assert BatchEnv("helmfrid", players=4).preset == "helmfrid"
    assert BatchEnv("myllymatti", players=2).preset == "myllymatti"


@needs_native
def test_the_same_seed_deals_the_same_and_resets_deal_anew() -> None:
    from skitgubbe.adapters.batch import BatchEnv

    a = BatchEnv("pagat", players=3, n_envs=3, seed=9)
    b = BatchEnv("pagat", players=3, n_envs=3, seed=9)
    a.reset()
    b.reset()
    assert np.array_equal(a.decks, b.decks) and np.array_equal(a.dealers, b.dealers)
    first = a.decks.copy()
    assert len({tuple(d) for d in first}) == 3  # each env deals its own deck
    a.reset()
    assert not np.array_equal(a.decks, first)


@needs_native
def test_without_the_compiled_engine_the_batch_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from skitgubbe.adapters import batch

    monkeypatch.setattr(batch, "skitgubbe_native", None)
    with pytest.raises(ImportError, match="pip install ./native"):
        batch.BatchEnv("pagat", players=3)


@needs_native
def test_dreck_order_of_an_env_that_does_not_exist_is_refused() -> None:
    from skitgubbe.adapters.batch import BatchEnv

    envs = BatchEnv("goat", players=4, n_envs=2)
    envs.reset()
    assert envs.dreck_order(1) == ()
    with pytest.raises(ValueError, match="no env 2"):
        envs.dreck_order(2)


class _Zeros:
    """A generator whose every draw is 0.0: the case that broke ``argmax(random * mask)``."""

    def random(self, shape: Any, dtype: Any = None) -> Any:
        return np.zeros(shape, dtype=dtype)


@pytest.mark.skipif(np is None, reason="needs numpy")
def test_random_legal_actions_picks_only_legal_ids_even_when_a_draw_is_zero() -> None:
    from skitgubbe.adapters.batch import random_legal_actions
    mask = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 1]], dtype=np.int8)
    assert random_legal_actions(mask, _Zeros()).tolist() == [2, 0, 1]  # type: ignore[arg-type]
    # the old one-liner picks id 0 in the first row, which is illegal there
    assert np.argmax(np.zeros(mask.shape, dtype=np.float32) * mask, axis=1).tolist()[0] == 0
    rng = np.random.default_rng(3)
    picks = random_legal_actions(np.tile(mask, (2000, 1)), rng)
    rows = np.tile(mask, (2000, 1))
    assert rows[np.arange(len(picks)), picks].all()
    # every legal id of a row is chosen about equally often (row 3: ids 1 and 2)
    third = picks[2::3]
    assert 0.45 < float((third == 1).mean()) < 0.55
    with pytest.raises(ValueError, match="row 1 of the mask has no legal action id"):
        random_legal_actions(np.array([[1, 0], [0, 0]]), rng)
    with pytest.raises(ValueError, match="2-dimensional"):
        random_legal_actions(np.array([1, 0]), rng)
