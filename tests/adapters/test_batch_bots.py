"""Compiled bots as the other seats of the batches (issue 30, item 3):
:meth:`skitgubbe.adapters.batch.BatchEnv.play_others` with heuristic and random bots, any mix per
seat, each seat's ``random.Random`` seeded per deal by its bot seed.  A batch env and the PettingZoo
environment (the Python engine) are dealt the same deck, dealer and chance seed; the learner's seat
takes its first legal action in both, the other seats are played by the compiled bots in the batch
and by ``make_bot(name, random.Random(bot seed))`` choosing from the seat's view beside the
PettingZoo env; the learner's observations and masks, and every seat's rewards, are compared at
each of its decisions, deal for deal (the next deals queued with their seeds), for every compiled
preset at every seat count.  Also the vector environment's heuristic opponents and the refusals.

Without numpy, PettingZoo or the compiled module these tests skip, unless
``SKITGUBBE_REQUIRE_NATIVE`` is set (CI sets it): then they fail.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from skitgubbe.bots import make_bot
from skitgubbe.engine import compiled
from skitgubbe.engine.actions import CHANCE
from skitgubbe.engine.state import deck_from_seed

_REQUIRED = bool(os.environ.get("SKITGUBBE_REQUIRE_NATIVE"))

try:
    import numpy as np

    from skitgubbe.adapters import encoding
    from skitgubbe.adapters import pettingzoo as pz
    from skitgubbe.adapters.batch import BatchEnv
except ImportError:  # pragma: no cover - numpy and pettingzoo are installed where the adapters are tested
    np = None  # type: ignore[assignment]
    pz = None  # type: ignore[assignment]

_MISSING = np is None or pz is None or not compiled.available()
needs_native = pytest.mark.skipif(_MISSING and not _REQUIRED,
                                  reason="needs numpy, pettingzoo and the compiled engine "
                                         "(pip install ./native)")

TABLES = [(preset, players) for preset, (low, high) in compiled.COMPILED_PRESETS.items()
          for players in range(low, high + 1)]


def test_present_when_required() -> None:
    if _REQUIRED and _MISSING:
        pytest.fail("SKITGUBBE_REQUIRE_NATIVE is set but numpy, pettingzoo or skitgubbe_native "
                    "does not import")


class _Deal:
    """Deal ``k`` of a test: ``deck_from_seed(k)``, dealer ``k % players``, chance seed ``7k + 1``,
    the bot of seat ``s`` seeded ``1000k + s``."""

    def __init__(self, k: int, players: int) -> None:
        self.deck = list(deck_from_seed(k))
        self.dealer = k % players
        self.chance = 7 * k + 1
        self.bot_seeds = [1000 * k + s for s in range(players)]


class _Python:
    """The PettingZoo env dealt a :class:`_Deal`, its other seats played by Python bots."""

    def __init__(self, rules: str, players: int, learner: int, bots: list[str]) -> None:
        self.e = pz.raw_env(rules=rules, players=players)
        self.learner = learner
        self.names = bots
        self.bots: list[Any] = []

    def deal(self, d: _Deal) -> None:
        self.e.dealer = d.dealer
        self.e.reset(seed=0, options={"deck": d.deck, "chance_seed": d.chance})
        self.bots = [make_bot(name, random.Random(seed)) for name, seed in zip(self.names, d.bot_seeds,
                                                                              strict=True)]
        self.others()

    def over(self) -> bool:
        return all(self.e.terminations.values()) or all(self.e.truncations.values())

    def others(self) -> None:
        """The bots' moves up to the learner's decision or the deal's end."""
        e = self.e
        while not self.over() and e.game.to_act != self.learner:
            seat = e.game.to_act
            view = e.view(e.agent_selection)
            action = self.bots[seat].choose(view, view.legal)
            e.step(encoding.action_id(action))


def _side_by_side(rules: str, players: int, bots: list[str], *, n: int, deals: int, learner: int,
                  chance: list[int] | None = None) -> int:
    """``n`` envs each playing ``deals`` deals (a queue of given deals) in the batch and in Python;
    returns the learner decisions compared, and appends to ``chance`` the chance steps of each
    finished deal."""
    batch = BatchEnv(rules, players=players, n_envs=n, seed=3, bots=bots)
    k = 100 * players
    first = [_Deal(k + i, players) for i in range(n)]
    py = [_Python(rules, players, learner, bots) for _ in range(n)]
    for p, d in zip(py, first, strict=True):
        p.deal(d)
    batch.reset([d.deck for d in first], [d.dealer for d in first], [d.chance for d in first],
                [d.bot_seeds for d in first])
    k += n
    queued = [_Deal(k + i, players) for i in range(n)]
    k += n
    for i, q in enumerate(queued):
        batch.queue_deal(i, q.deck, q.dealer, q.chance, q.bot_seeds)
    batch.play_others(learner)
    left = [deals] * n
    compared = 0
    while any(left):
        out = batch.last
        for i, p in enumerate(py):
            if not left[i]:
                continue
            assert not p.over() and out.to_act[i] == learner
            o = p.e.observe(p.e.agent_selection)
            differ = np.flatnonzero(o["observation"] != out.obs[i])
            assert np.array_equal(o["observation"], out.obs[i]), (rules, players, i, differ)
            assert np.array_equal(o["action_mask"], out.mask[i]), (rules, players, i)
            compared += 1
        actions = np.argmax(out.mask != 0, axis=1)  # the learner's first legal action
        batch.step(actions)
        batch.play_others(learner)
        out = batch.last
        for i, p in enumerate(py):
            if not left[i]:
                continue
            p.e.step(int(actions[i]))
            p.others()
            ended = p.over()
            assert bool(out.done[i]) == ended, (rules, players, i)
            if not ended:
                assert not out.rewards[i].any()
                continue
            want = np.array([p.e._cumulative_rewards[a] for a in p.e.possible_agents], dtype=np.float32)
            assert np.array_equal(out.rewards[i], want), (rules, players, i)
            assert bool(out.truncated[i]) == all(p.e.truncations.values())
            left[i] -= 1
            if chance is not None:
                chance.append(sum(1 for seat, _ in p.e.game.history if seat == CHANCE))
            if left[i]:
                p.deal(queued[i])
                assert np.array_equal(batch.decks[i], queued[i].deck)
                queued[i] = _Deal(k, players)
                k += 1
                batch.queue_deal(i, queued[i].deck, queued[i].dealer, queued[i].chance, queued[i].bot_seeds)
    return compared


@needs_native
@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_heuristic_opponents_equal_the_python_bots(preset: str, players: int) -> None:
    # every other seat heuristic; the learner at the last seat
    assert _side_by_side(preset, players, ["heuristic"] * players, n=2, deals=1, learner=players - 1) > 0


@needs_native
@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("goat", 4), ("goat", 6), ("koira", 5),
                                                 ("mas", 3), ("helmfrid", 4), ("howell", 5)])
def test_mixed_opponents_equal_the_python_bots_deal_after_deal(preset: str, players: int) -> None:
    bots = [("heuristic", "random")[s % 2] for s in range(players)]
    assert _side_by_side(preset, players, bots, n=2, deals=3, learner=0) > 0


@needs_native
def test_goat_deals_with_dreck_shuffles_are_compared() -> None:
    # the goat dreck dealt round several needy seats is a chance step: its order is the chance seed's
    chance: list[int] = []
    assert _side_by_side("goat", 5, ["heuristic"] * 5, n=3, deals=2, learner=2, chance=chance) > 0
    assert sum(chance) > 0


@needs_native
def test_the_same_bot_seeds_play_the_same_and_others_differ() -> None:
    def run(seeds: list[list[int]]) -> list[Any]:
        batch = BatchEnv("pagat", players=4, n_envs=3, seed=5,
                         bots=["random", "heuristic", "random", "heuristic"])
        batch.reset([list(deck_from_seed(k)) for k in range(3)], 0, [1, 2, 3], seeds)
        return batch.play_others(0, record=True) + [batch.last.obs.copy().tolist()]

    same = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert run(same) == run(same)
    assert run(same) != run([[s + 100 for s in row] for row in same])


@needs_native
def test_bots_the_batches_do_not_play_are_refused() -> None:
    with pytest.raises(ValueError, match="compiled bots random, heuristic only, not 'counter'"):
        BatchEnv("pagat", players=3, n_envs=2, bots="counter")
    with pytest.raises(ValueError, match="one bot per seat"):
        BatchEnv("pagat", players=3, n_envs=2, bots=["heuristic", "random"])
    batch = BatchEnv("pagat", players=3, n_envs=2, bots="easy")
    assert batch.bots == ("heuristic",) * 3
    deck = list(deck_from_seed(1))
    with pytest.raises(ValueError, match="bot seeds as 2 rows of 3"):
        batch.reset([deck, deck], bot_seeds=[[1, 2, 3]])
    with pytest.raises(ValueError, match="a bot seed is an integer 0..2\\*\\*64-1, not -1"):
        batch.reset([deck, deck], bot_seeds=[[1, 2, 3], [1, 2, -1]])
    batch.reset()
    with pytest.raises(ValueError, match="bot seeds as 3 integers"):
        batch.queue_deal(0, deck, bot_seeds=[1, 2])
    with pytest.raises(ValueError, match="bot_seeds go with decks"):
        batch.reset(bot_seeds=[[1, 2, 3], [4, 5, 6]])


@needs_native
def test_the_vector_env_plays_heuristic_opponents_as_the_batch_does() -> None:
    from skitgubbe.adapters import vector

    envs = vector.SkitgubbeVectorEnv(2, "goat", 4, seat=1, opponents=["heuristic", "random", "heuristic"])
    assert envs.batch.bots == ("heuristic", "random", "random", "heuristic")  # (seat 1: the learner)
    decks = [list(deck_from_seed(k)) for k in (1, 2)]
    seeds = [[1, 2, 3, 4], [5, 6, 7, 8]]
    obs, info = envs.reset(options={"decks": decks, "dealers": [0, 1], "chance_seeds": [3, 4],
                                    "bot_seeds": seeds})
    batch = BatchEnv("goat", players=4, n_envs=2, bots=envs.batch.bots)
    batch.reset(decks, [0, 1], [3, 4], seeds)
    batch.play_others(1)
    assert np.array_equal(obs, batch.last.obs) and (info["to_act"] == 1).all()
    for _ in range(30):
        actions = np.argmax(info["action_mask"] != 0, axis=1)
        obs, rewards, term, trunc, info = envs.step(actions)
        batch.step(actions)
        batch.play_others(1)
        assert np.array_equal(obs, batch.last.obs)
        assert np.array_equal(rewards, batch.last.rewards[:, 1])
