"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, whole deals of every preset
with random masked actions, hidden cards, rewards, truncation, errors and reproducibility."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]  # noqa: E402
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]  # noqa: E402

from skitgubbe.adapters import encoding  # noqa: E402
from skitgubbe.adapters.pettingzoo import DEFAULT_MAX_TURNS, env, raw_env  # noqa: E402
from skitgubbe.engine.actions import CHANCE  # noqa: E402
from skitgubbe.engine.base import Phase  # noqa: E402
from skitgubbe.engine.state import IllegalActionError, State  # noqa: E402
from skitgubbe.engine.variants import PRESETS  # noqa: E402
from skitgubbe.engine.view import view_of  # noqa: E402

CONFIGS = [(name, n) for name, r in PRESETS.items() for n in range(r.min_players, r.max_players + 1)]
# every seat's observation is checked at every step: the fewest seats and four (or the most)
HIDDEN_CONFIGS = sorted({(name, n) for name, r in PRESETS.items()
                         for n in (r.min_players, min(4, r.max_players))})

# positions of the observation's card fields, and the card each position stands for
_CARD_FIELDS = ("hand", "known", "piles", "round", "trick", "top", "killed", "trump_card", "exposed")
_POS = np.concatenate(
    [np.arange(off, off + size) for name, off, size in encoding.OBS_FIELDS if name in _CARD_FIELDS]
)
_CARD_AT = np.array([(p - off) % 52 for name, off, size in encoding.OBS_FIELDS if name in _CARD_FIELDS
                     for p in range(off, off + size)])


def _bits(mask: int) -> set[int]:
    return {c for c in range(52) if mask >> c & 1}


def _visible_and_hidden(game: State, seat: int) -> tuple[set[int], set[int]]:
    """From the engine: the cards ``seat`` may see, and the cards it must not see (other seats'
    unknown hand cards, the stock and the reserve, a face-down or unannounced trump card); a card
    face up under the stock is visible."""
    visible = _bits(game.hands[seat])
    for s in range(game.players):
        visible |= _bits(game.known[s]) | _bits(game.piles[s])
    if game.phase == Phase.ONE:
        visible |= {c for rnd in game.rounds for _, c in rnd} | {c for _, c in game.sluffs}
    for p in game.table:
        visible |= _bits(p)
    visible |= _bits(game.killed)
    rules = game.rules
    trump_seen = game.trump_suit >= 0 and (rules.show_trump_card or rules.exposed_bottom
                                           or rules.trump_shown_when_drawn or seat == game.trump_holder)
    if game.trump_card >= 0 and trump_seen:
        visible.add(game.trump_card)
    if game.exposed_card >= 0:
        visible.add(game.exposed_card)
    hidden = set(game.stock) | set(game.reserve)
    for s in range(game.players):
        if s != seat:
            hidden |= _bits(game.hands[s] & ~game.known[s])
    if game.trump_card >= 0 and not trump_seen:
        hidden.add(game.trump_card)
    return visible, hidden - visible


def _play(e: Any, rng: random.Random, check: bool = False) -> dict[str, float]:
    """Play one deal of ``e`` (already reset) with uniformly random legal actions; return the sum
    of the rewards each agent received.  With ``check``, compare every observation of every seat
    with the engine at every step."""
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        totals[agent] += reward
        game = e.game
        if terminated or truncated:
            e.step(None)
            continue
        seat = e.possible_agents.index(agent)
        assert game.to_act == seat and game.to_act != CHANCE
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert legal == encoding.legal_ids(game, seat)
        if check:
            for other in e.agents:
                s = e.possible_agents.index(other)
                o = e.observe(other)
                assert o["observation"].dtype == np.float32 and o["action_mask"].dtype == np.int8
                assert np.array_equal(o["observation"], np.array(encoding.observation(view_of(game, s)),
                                                                 dtype=np.float32))
                if other != agent:
                    assert not o["action_mask"].any()
                seen = set(_CARD_AT[o["observation"][_POS] > 0].tolist())
                visible, hidden = _visible_and_hidden(game, s)
                assert seen <= visible, f"seat {s} sees {seen - visible}"
                assert not seen & hidden
        e.step(rng.choice(legal))
    return totals


def test_api_test_goat_and_pagat() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Observation is not a NumPy array": it is a Dict space
        api_test(env(rules="goat", players=4), num_cycles=500)
        api_test(env(rules="pagat", players=3), num_cycles=300)
        api_test(wrappers.OrderEnforcingWrapper(env(rules="goat", players=5)), num_cycles=200)


@pytest.mark.parametrize("rules", sorted(set(PRESETS) - {"goat", "pagat"}))
def test_api_test_every_other_preset(rules: str) -> None:
    r = PRESETS[rules]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(rules=rules, players=min(r.min_players + 1, r.max_players)), num_cycles=200)


def test_seed_test() -> None:
    seed_test(lambda: env(rules="goat", players=4), num_cycles=300)
    seed_test(lambda: env(rules="pagat", players=2, dealer=None), num_cycles=300)


@pytest.mark.parametrize(("rules", "players"), [("mas", 3), ("two-player", 2), ("koira", 4),
                                                ("catsatcards", 3), ("catsatcards-flurst", 5)])
def test_seed_test_new_presets(rules: str, players: int) -> None:
    seed_test(lambda: env(rules=rules, players=players, dealer=None), num_cycles=200)


def test_chance_deals_of_koira_are_resolved_inside_the_environment() -> None:
    """Koira's split (a tied seat runs out during a war) is a chance action resolved by ``step``."""
    e = env(rules="koira", players=4)
    for seed in range(60):
        e.reset(seed=seed)
        _play(e, random.Random(seed))
        if any(s == CHANCE for s, _ in e.game.history):
            assert any(ev.kind == "split" for ev in e.game.events)
            return
    raise AssertionError("some koira deal should split a trick by chance")


def test_mas_store_and_exchange_through_the_environment() -> None:
    """Mas deals offer ``store`` and ``exchange`` in the mask and take them."""
    taken = set()
    for seed in range(40):
        e = env(rules="mas", players=2)
        e.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            special = [a for a in legal if a in (encoding.STORE_ID, encoding.EXCHANGE_ID)]
            a = special[0] if special else rng.choice(legal)
            if a == encoding.EXCHANGE_ID:
                two = e.game.trump_suit * 13
                e.step(a)
                assert all(e.observe(x)["observation"][_EXPOSED + two] == 1.0 for x in e.possible_agents)
            else:
                e.step(a)
            taken.add(a)
        if {encoding.STORE_ID, encoding.EXCHANGE_ID} <= taken:
            return
    raise AssertionError(f"some mas deals should store and exchange, took {sorted(taken)}")


_EXPOSED = {name: off for name, off, _ in encoding.OBS_FIELDS}["exposed"]


@pytest.mark.parametrize(("rules", "players"), CONFIGS)
def test_whole_deals_with_random_masked_actions(rules: str, players: int) -> None:
    e = env(rules=rules, players=players)
    e.reset(seed=players)
    totals = _play(e, random.Random(players))
    assert e.agents == []
    game = e.game
    assert game.is_over and game.loser is not None
    loser = f"player_{game.loser}"
    assert totals[loser] == -1.0
    assert all(t == pytest.approx(1 / (players - 1)) for a, t in totals.items() if a != loser)
    assert sum(totals.values()) == pytest.approx(0.0)


@pytest.mark.parametrize(("rules", "players"), HIDDEN_CONFIGS)
def test_observations_never_show_unseen_cards(rules: str, players: int) -> None:
    e = env(rules=rules, players=players)
    e.reset(seed=100 + players)
    _play(e, random.Random(players), check=True)
    assert e.game.is_over


def test_chance_is_resolved_inside_the_environment() -> None:
    e = env(rules="goat", players=6)
    for seed in range(30):
        e.reset(seed=seed)
        _play(e, random.Random(seed))  # asserts that no agent is ever CHANCE
        if any(s == CHANCE for s, _ in e.game.history):
            break
    else:
        raise AssertionError("some goat deal should have the dreck dealt to several seats by chance")


def test_same_seed_same_deal_and_different_seed_different_deal() -> None:
    def trajectory(seed: int) -> list[tuple[str, int, float]]:
        e = env(rules="goat", players=4, dealer=None)
        e.reset(seed=seed)
        out = []
        rng = random.Random(0)
        for agent in e.agent_iter(400):
            obs, _, term, trunc, _ = e.last()
            a = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            out.append((agent, -1 if a is None else a, float(obs["observation"].sum())))
            e.step(a)
        return out

    assert trajectory(3) == trajectory(3)
    assert trajectory(3) != trajectory(4)
    e = env(rules="goat", players=4)
    e.reset(seed=9)
    deck = e.game.deck
    e.reset()
    assert e.game.deck != deck
    e.reset(seed=9)
    assert e.game.deck == deck


def test_illegal_and_malformed_actions_raise_and_change_nothing() -> None:
    e = env(rules="pagat", players=3)
    e.reset(seed=1)
    agent = e.agent_selection
    obs = e.observe(agent)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = len(e.game.history)
    with pytest.raises(IllegalActionError, match="cannot"):
        e.step(illegal)
    for bad in (-1, encoding.NUM_ACTIONS, 2.5, "7H", True):
        with pytest.raises(ValueError):
            e.step(bad)
    assert len(e.game.history) == before and e.agent_selection == agent
    e.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
    assert len(e.game.history) == before + 1


def test_observation_mask_only_for_the_agent_to_act() -> None:
    e = env(rules="goat", players=4)
    e.reset(seed=2)
    for agent in e.agents:
        assert e.observe(agent)["action_mask"].any() == (agent == e.agent_selection)
    assert e.observation_space("player_0").contains(e.observe("player_0"))
    assert e.action_space("player_1").n == encoding.NUM_ACTIONS


def test_truncation_at_the_turn_cap() -> None:
    e = env(rules="goat", players=3, max_turns=5)
    e.reset(seed=0)
    rng = random.Random(0)
    steps = 0
    for _agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            assert trunc and not term and reward == 0
            assert not obs["action_mask"].any()
            with pytest.raises(ValueError, match="None"):
                e.step(0)
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    assert steps == 5 and e.turns == 5 and e.agents == []
    assert not e.game.is_over
    assert DEFAULT_MAX_TURNS >= 5_000


def test_engine_abandonment_counts_as_truncation() -> None:
    e = env(rules="pagat", players=3)
    e.reset(seed=0)
    e.game.action_limit = len(e.game.history) + 1
    e.step(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert e.rewards == dict.fromkeys(e.agents, 0.0)


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="players"):
        env(rules="pagat", players=5)
    with pytest.raises(ValueError, match="no rules"):
        env(rules="bridge")
    with pytest.raises(TypeError):
        env(rules=3)
    with pytest.raises(ValueError, match="dealer"):
        env(rules="goat", players=3, dealer=3)
    with pytest.raises(ValueError, match="decks=2: the adapters' action ids and observations encode"):
        env(rules=PRESETS["goat"].replace(decks=2), players=5)
    with pytest.raises(ValueError, match="max_turns"):
        env(max_turns=0)
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="reset"):
        env().step(0)
    assert env(rules=PRESETS["pagat"], players=2).possible_agents == ["player_0", "player_1"]


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    e = raw_env(rules="pagat", players=3, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and "pagat" in text
    h = raw_env(rules="pagat", players=3, render_mode="human")
    h.reset(seed=0)
    h.step(np.flatnonzero(h.observe(h.agent_selection)["action_mask"])[0])
    assert "pagat" in capsys.readouterr().out
    quiet = raw_env()
    quiet.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None
    quiet.close()
