"""Batch stepping for every preset and for the run-time policy (issue 30, item 3): N envs of
:class:`skitgubbe.adapters.batch.BatchEnv` stepped with random legal actions beside the PettingZoo
environment (:mod:`skitgubbe.adapters.pettingzoo`, the Python engine) dealt the same deck, dealer
and chance seed, every observation, mask, seat to act, reward and termination compared, the
chance steps (the goat dreck's order, Koira's split) included; and the given decks, dealers, the
queued deals and their errors.

Without numpy, PettingZoo or the compiled module these tests skip, unless
``SKITGUBBE_REQUIRE_NATIVE`` is set (CI sets it): then they fail, as in tests/test_compiled.py.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from skitgubbe.engine import compiled
from skitgubbe.engine.actions import CHANCE
from skitgubbe.engine.rules import Rules
from skitgubbe.engine.state import State, deck_from_seed
from skitgubbe.engine.variants import PRESETS, rules_diff

_REQUIRED = bool(os.environ.get("SKITGUBBE_REQUIRE_NATIVE"))

try:
    import numpy as np

    from skitgubbe.adapters import pettingzoo as pz
except ImportError:  # pragma: no cover - numpy and pettingzoo are installed where the adapters are tested
    np = None  # type: ignore[assignment]
    pz = None  # type: ignore[assignment]

_MISSING = np is None or pz is None or not compiled.available()
needs_native = pytest.mark.skipif(_MISSING and not _REQUIRED,
                                  reason="needs numpy, pettingzoo and the compiled engine "
                                         "(pip install ./native)")


def test_present_when_required() -> None:
    if _REQUIRED and _MISSING:
        pytest.fail("SKITGUBBE_REQUIRE_NATIVE is set but numpy, pettingzoo or skitgubbe_native "
                    "does not import")


class _Deals:
    """The deals of one test: deal k is ``deck_from_seed(k)`` (the deal of ``State.new(rules,
    players, seed=k)``), dealer ``k % players``, chance seed ``7k + 1``."""

    def __init__(self, start: int, players: int) -> None:
        self.k = start
        self.players = players

    def next(self) -> tuple[list[int], int, int]:
        self.k += 1
        return list(deck_from_seed(self.k)), self.k % self.players, 7 * self.k + 1


def _deal_pz(e: Any, deal: tuple[list[int], int, int]) -> None:
    deck, dealer, chance = deal
    e.dealer = dealer
    e.reset(seed=0, options={"deck": deck, "chance_seed": chance})


class _Seen:
    """What the run reached: chance steps, action ids taken and offered, deals ended."""

    def __init__(self) -> None:
        self.chance = 0
        self.taken: set[int] = set()
        self.offered: set[int] = set()
        self.ended = 0


def _side_by_side(rules: str | Rules, players: int, rounds: int, *, n: int = 3, seed: int = 0) -> _Seen:
    """``n`` batch envs and ``n`` PettingZoo envs dealt the same deals, ``rounds`` steps of random
    legal actions, everything compared after each; the next deal queued (:meth:`queue_deal`) and
    dealt by the automatic reset."""
    from skitgubbe.adapters.batch import BatchEnv, random_legal_actions

    envs = BatchEnv(rules, players=players, n_envs=n, seed=seed)
    deals = _Deals(1000 * seed + 100 * players, players)
    pes = [pz.raw_env(rules=rules, players=players) for _ in range(n)]
    first = [deals.next() for _ in range(n)]
    for e, d in zip(pes, first, strict=True):
        _deal_pz(e, d)
    out = envs.reset([d[0] for d in first], [d[1] for d in first], [d[2] for d in first])
    queued = [deals.next() for _ in range(n)]
    for i, q in enumerate(queued):
        envs.queue_deal(i, *q)
    rng = np.random.default_rng(seed)
    seen = _Seen()
    for _ in range(rounds):
        for i, e in enumerate(pes):
            agent = e.agent_selection
            assert out.to_act[i] == e.game.to_act == int(agent.rsplit("_", 1)[1])
            o = e.observe(agent)
            want_obs, want_mask = o["observation"], o["action_mask"]
            assert np.array_equal(want_obs, out.obs[i]), (i, np.flatnonzero(want_obs != out.obs[i]))
            assert np.array_equal(want_mask, out.mask[i]), (i, np.flatnonzero(want_mask != out.mask[i]))
            seen.offered.update(np.flatnonzero(out.mask[i]).tolist())
        actions = random_legal_actions(out.mask, rng)
        seen.taken.update(actions.tolist())
        for i, e in enumerate(pes):
            e.step(int(actions[i]))
        out = envs.step(actions)
        for i, e in enumerate(pes):
            ended = all(e.terminations.values()) or all(e.truncations.values())
            assert bool(out.done[i]) == ended
            if not ended:
                assert not out.rewards[i].any()
                continue
            assert bool(out.truncated[i]) == all(e.truncations.values())
            want = np.array([e._cumulative_rewards[a] for a in e.possible_agents], dtype=np.float32)
            assert np.array_equal(out.rewards[i], want)
            seen.ended += 1
            seen.chance += sum(1 for seat, _ in e.game.history if seat == CHANCE)
            _deal_pz(e, queued[i])  # the deal the batch env was just dealt
            assert np.array_equal(envs.decks[i], queued[i][0]) and envs.dealers[i] == queued[i][1]
            queued[i] = deals.next()
            envs.queue_deal(i, *queued[i])
    for e in pes:
        seen.chance += sum(1 for seat, _ in e.game.history if seat == CHANCE)
    return seen


# (preset, seats, rounds): every preset at its fewest and most seats, steps enough to end at least
# six deals of 3 envs (random deals take about 130 steps for pagat at 2 seats up to about 3,000 for
# goat at 8, every seat asked in each sluff window)
_CASES = [
    ("pagat", 2, 800), ("pagat", 4, 1400), ("myllymatti", 3, 1000), ("goat", 3, 1400), ("goat", 5, 2400),
    ("goat", 8, 4800), ("catsatcards", 3, 1200), ("two-player", 2, 1000), ("howell", 3, 1200),
    ("howell", 6, 3000), ("catsatcards-flurst", 4, 1800), ("catsatcards-flurst", 5, 2000),
    ("mattis", 3, 1000), ("mattis", 8, 3000), ("atlanta", 3, 1200), ("koira", 3, 1200), ("koira", 8, 3000),
    ("helmfrid", 2, 1000), ("helmfrid", 6, 3000), ("mas", 2, 1000), ("mas", 4, 1600),
]


@needs_native
def test_the_cases_cover_every_preset_at_its_fewest_and_most_seats() -> None:
    for preset, (low, high) in compiled.COMPILED_PRESETS.items():
        seats = {p for name, p, _ in _CASES if name == preset}
        assert seats, preset
        if preset != "myllymatti":  # (played by pagat's code: pagat's cases cover its tables)
            assert {low, high} <= seats, preset


@needs_native
@pytest.mark.parametrize(("preset", "players", "rounds"), _CASES)
def test_every_preset_equals_the_pettingzoo_env(preset: str, players: int, rounds: int) -> None:
    from skitgubbe.adapters import encoding

    seen = _side_by_side(preset, players, rounds)
    assert seen.ended >= 2  # the automatic reset dealt the queued deals
    drecks = {("goat", 5), ("goat", 8), ("howell", 6), ("catsatcards-flurst", 5), ("helmfrid", 6)}
    if (preset, players) in drecks:
        assert seen.chance  # the dreck dealt round several seats, its order replayed
    if preset == "koira":
        assert seen.chance  # a split of a tied trick
    if preset == "helmfrid":  # plays of two or three cards of one rank
        assert any(encoding.EQUAL_BASE <= i < encoding.STORE_ID for i in seen.taken)
    if preset == "mas":  # Mas's pick-up, its store of three trumps and its exchange of the 2 of trumps
        assert encoding.PICK_UP_ID in seen.taken and encoding.EXCHANGE_ID in seen.taken
        assert encoding.STORE_ID in seen.offered
    if preset in ("goat", "catsatcards-flurst"):
        assert any(encoding.RUN_BASE <= i < encoding.EQUAL_BASE for i in seen.taken)
        assert encoding.PASS_ID in seen.taken


def _drawn(seed: int, base: str) -> tuple[Rules, int]:
    """Rules drawn around ``base`` (compiled.draw_rules) with at least three options changed that
    the game reads (not only the seat range), which the compiled engine plays, and a seat count."""
    rng = random.Random(seed)
    while True:
        rules = compiled.draw_rules(rng, PRESETS[base], 8)
        changed = set(rules_diff(rules, PRESETS[base])) - {"min_players", "max_players"}
        players = rng.randint(rules.min_players, min(rules.max_players, 6))
        if len(changed) >= 3 and compiled.unsupported(rules, players) is None:
            return rules, players


@needs_native
@pytest.mark.parametrize(("seed", "base"),
                         [(1, "goat"), (2, "pagat"), (3, "helmfrid"), (4, "mattis"), (5, "mas")])
def test_option_combinations_equal_the_pettingzoo_env(seed: int, base: str) -> None:
    from skitgubbe.adapters.batch import BatchEnv

    rules, players = _drawn(seed, base)
    assert BatchEnv(rules, players=players, n_envs=1).preset is None  # the run-time policy
    seen = _side_by_side(rules, players, 2500, seed=seed)
    assert seen.ended >= 1, compiled.replay_rules(rules)


@needs_native
def test_a_preset_by_the_run_time_policy_plays_as_its_own_code() -> None:
    """The same deals, actions and chance seeds through GoatBatch and RuntimeBatch: the same arrays."""
    from skitgubbe.adapters.batch import BatchEnv, random_legal_actions

    goat = PRESETS["goat"]
    a = BatchEnv(goat, players=5, n_envs=4, seed=2)
    b = BatchEnv(goat.replace(name="goat-by-options"), players=5, n_envs=4, seed=2)
    assert a.preset == "goat" and b.preset is None
    decks = [list(deck_from_seed(k)) for k in range(4)]
    oa = a.reset(decks, [0, 1, 2, 3], [5, 6, 7, 8])
    ob = b.reset(decks, [0, 1, 2, 3], [5, 6, 7, 8])
    rng = np.random.default_rng(1)
    for _ in range(1500):
        for x, y in zip(oa, ob, strict=True):
            assert np.array_equal(x, y)
        acts = random_legal_actions(oa.mask, rng)
        oa, ob = a.step(acts), b.step(acts)


@needs_native
def test_the_deal_of_a_seed_is_the_python_engines() -> None:
    from skitgubbe.adapters import encoding
    from skitgubbe.adapters.batch import BatchEnv
    from skitgubbe.engine.view import view_of

    envs = BatchEnv("koira", players=4, n_envs=2)
    out = envs.reset([deck_from_seed(11), deck_from_seed("twelve")], dealers=[3, 1])
    for i, (seed, dealer) in enumerate(((11, 3), ("twelve", 1))):
        st = State.new(PRESETS["koira"], 4, seed=seed, dealer=dealer, ask_every_seat=True)
        assert out.to_act[i] == st.to_act
        assert np.array_equal(out.obs[i], np.array(encoding.observation(view_of(st, st.to_act)), np.float32))
        assert envs.decks[i].tolist() == list(st.deck) and envs.dealers[i] == dealer


@needs_native
def test_a_wrong_deck_dealer_or_chance_seed_is_refused_naming_what_is_wrong() -> None:
    from skitgubbe.adapters.batch import BatchEnv

    envs = BatchEnv("goat", players=4, n_envs=2)
    good = list(range(52))
    out = envs.reset([good, good[::-1]], [0, 1])
    before = out.obs.copy(), envs.decks.copy()
    with pytest.raises(ValueError, match="env 1: a deck order must list all 52 cards once; got 51 cards"):
        envs.reset([good, good[:51]])
    with pytest.raises(ValueError, match=r"env 0: card .* appears twice"):
        envs.reset([good[:51] + [0], good])
    with pytest.raises(ValueError, match="env 1: deck entry 52 is not a card number 0..51"):
        envs.reset([good, good[:51] + [52]])
    with pytest.raises(ValueError, match="env 0: deck entry -1 is not a card number"):
        envs.reset([[-1] + good[1:], good])
    with pytest.raises(ValueError, match="integers 0..51"):
        envs.reset([[float(c) for c in good], good])
    with pytest.raises(ValueError, match="one deck order per env: 2, not 1"):
        envs.reset([good])
    with pytest.raises(ValueError, match="env 1: dealer seat 4 does not exist: seats are 0..3"):
        envs.reset([good, good], [0, 4])
    with pytest.raises(ValueError, match="one dealer per env"):
        envs.reset([good, good], [0, 1, 2])
    with pytest.raises(ValueError, match="env 0: a chance seed is None or an integer 0..2\\*\\*64-1, not -1"):
        envs.reset([good, good], 0, [-1, None])
    with pytest.raises(ValueError, match="give decks too"):
        envs.reset(dealers=[0, 1])
    with pytest.raises(ValueError, match="appears twice"):
        envs.queue_deal(0, good[:51] + [1])
    with pytest.raises(ValueError, match="no env 2"):
        envs.queue_deal(2, good)
    with pytest.raises(ValueError, match="dealer seat -1"):
        envs.reset_env(0, good, -1)
    assert np.array_equal(out.obs, before[0]) and np.array_equal(envs.decks, before[1])  # nothing dealt
    assert not envs.queued(0)


@needs_native
def test_without_auto_reset_a_finished_env_waits_for_its_next_deal() -> None:
    from skitgubbe.adapters.batch import BatchEnv, random_legal_actions

    envs = BatchEnv("pagat", players=2, n_envs=3, seed=4, auto_reset=False)
    out = envs.reset()
    rng = np.random.default_rng(0)
    waited = 0
    for _ in range(400):
        acts = random_legal_actions(np.where(envs.over[:, None], 1, out.mask), rng)
        before = out.obs.copy()
        was_over = envs.over.copy()
        out = envs.step(acts)
        assert np.array_equal(out.obs[was_over], before[was_over])  # (zero rows, untouched)
        for i in np.flatnonzero(envs.over):
            assert out.to_act[i] == -2 and not out.mask[i].any() and not out.obs[i].any()
            if out.done[i]:
                assert out.rewards[i].sum() == pytest.approx(0) and out.rewards[i].min() == -1
            else:
                assert not out.rewards[i].any()  # reported once
                waited += 1
                if waited % 3 == 0:
                    envs.reset_env(int(i), deck_from_seed(waited), dealer=1)
                    assert not envs.over[i] and out.to_act[i] >= 0 and envs.dealers[i] == 1
    assert waited >= 3


@needs_native
def test_the_same_chance_seed_deals_the_same_chance_orders() -> None:
    from skitgubbe.adapters.batch import BatchEnv, random_legal_actions

    deck = list(deck_from_seed(3))
    orders = []
    for seed in (0, 1):  # other generators, the same deal and chance seed: the same dreck orders
        envs = BatchEnv("goat", players=6, n_envs=1, seed=seed)
        out = envs.reset([deck], [2], [99])
        rng = np.random.default_rng(5)
        got = []
        while not out.done[0]:
            out = envs.step(random_legal_actions(out.mask, rng))
            if envs.dreck_order(0) and (not got or got[-1] != envs.dreck_order(0)):
                got.append(envs.dreck_order(0))
        orders.append(got)
    assert orders[0] == orders[1] and orders[0]


@needs_native
@pytest.mark.parametrize(("base", "players", "options"), [
    ("goat", 4, {"exposed_bottom": True}),  # the bottom card face up for the whole deal (not Mas's)
    ("pagat", 3, {"hand_size": 5, "plays": "run", "pick_up": "lowest-run"}),
])
def test_chosen_option_combinations_equal_the_pettingzoo_env(base: str, players: int,
                                                             options: dict[str, Any]) -> None:
    from skitgubbe.adapters import encoding

    rules = PRESETS[base].with_options(options).replace(name="chosen")
    seen = _side_by_side(rules, players, 1500)
    assert seen.ended >= 2
    if "plays" in options:
        assert any(encoding.RUN_BASE <= i < encoding.EQUAL_BASE for i in seen.taken)


@needs_native
def test_step_some_leaves_the_envs_given_a_negative_id_as_they_are() -> None:
    from skitgubbe.adapters.batch import BatchEnv, random_legal_actions

    envs = BatchEnv("mas", players=3, n_envs=3, seed=1)
    out = envs.reset()
    before = out.obs[1].copy(), out.mask[1].copy(), int(out.to_act[1])
    acts = random_legal_actions(out.mask, np.random.default_rng(0))
    acts[1] = -1
    out = envs.step_some(acts)
    assert np.array_equal(out.obs[1], before[0]) and np.array_equal(out.mask[1], before[1])
    assert out.to_act[1] == before[2] and envs.steps == 2
    acts[0] = 551  # still checked where it is stepped
    with pytest.raises(ValueError, match="env 0: action id 551"):
        envs.step_some(acts)
    acts[0] = int(np.flatnonzero(out.mask[0])[0])
    with pytest.raises(ValueError, match="env 1: action id -1"):
        envs.step(acts)  # (step takes no negative ids)
    assert envs.steps == 2
