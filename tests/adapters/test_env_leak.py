"""The PettingZoo environment shows no hidden card (issue 18), checked on the environment itself:
two deals that differ only in one card of seat 1's hand swapped with one of seat 2's are stepped with
the same moves, and everything ``player_0`` can read — the agent to act, its observation and mask,
rewards, terminations, truncations, when the trick is collected (the observation's trick and pile
fields, step by step) — must be the same in both until a swapped card is seen.  For every preset at
three seats (two for the two-seat presets have no third hand to hide a swap in), several deals each.
The Gymnasium environment plays the same engine protocol (tests/test_turn_order_leak.py checks both
ask every seat); its opponents are bots, whose moves depend on their own cards by design.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from skitgubbe.adapters.pettingzoo import raw_env  # noqa: E402
from skitgubbe.engine.actions import CHANCE  # noqa: E402
from skitgubbe.engine.variants import PRESETS  # noqa: E402

TABLES = [(name, max(3, rules.min_players)) for name, rules in sorted(PRESETS.items())
          if rules.max_players >= 3]
OBSERVER = "player_0"


def _worlds(preset: str, players: int, seed: int, auto_forced: bool = False
            ) -> tuple[raw_env, raw_env, int] | None:
    """Two environments reset with the same seed, the second dealt the first's deck with one card
    of seat 1's hand and one of seat 2's swapped; and the swapped cards as a bitmask (bit i = card i).
    None when the first deal has no card to swap (a hand seen from the start)."""
    a, b = (raw_env(rules=preset, players=players, auto_forced=auto_forced) for _ in range(2))
    a.reset(seed=seed)
    game = a.game
    rng = random.Random(seed)
    ones = [c for c in range(52) if game.hands[1] >> c & 1 and not game.known[1] >> c & 1]
    twos = [c for c in range(52) if game.hands[2] >> c & 1 and not game.known[2] >> c & 1]
    if not ones or not twos:
        return None
    one, two = rng.choice(ones), rng.choice(twos)
    deck = [two if c == one else one if c == two else c for c in game.deck]
    b.reset(seed=seed, options={"deck": deck})
    return a, b, 1 << one | 1 << two


def _hidden(env: raw_env, cards: int) -> bool:
    """The swapped cards are all still in seats 1 and 2's hands, unseen by other seats."""
    game = env.game
    held = (game.hands[1] | game.hands[2]) & ~(game.known[1] | game.known[2])
    return held & cards == cards


def _seen(env: raw_env) -> tuple[object, ...]:
    """All that ``player_0`` reads from the environment now."""
    obs = env.observe(OBSERVER)
    return (env.agent_selection, obs["observation"].tobytes(), obs["action_mask"].tobytes(),
            tuple(sorted(env.rewards.items())), tuple(sorted(env.terminations.items())),
            tuple(sorted(env.truncations.items())), tuple(env.agents))


def _first_difference(preset: str, players: int, seed: int, auto_forced: bool = False
                      ) -> tuple[str | None, int]:
    """Step both worlds with the same random moves, legal in both, while the swap is hidden; the
    first step at which ``player_0``'s reading differs (None if never) and the steps compared."""
    worlds = _worlds(preset, players, seed, auto_forced)
    if worlds is None:
        return None, 0
    a, b, cards = worlds
    rng = random.Random(seed)
    steps = 0
    while _hidden(a, cards) and _hidden(b, cards):
        if _seen(a) != _seen(b):
            return f"{preset} seed {seed}: after {steps} steps player_0 reads different things", steps
        if a.terminations[a.agent_selection] or a.truncations[a.agent_selection]:
            return None, steps
        if a.game.to_act == CHANCE:  # (a dreck dealt by chance: the swapped cards may go public)
            return None, steps
        agent = a.agent_selection
        mask = a.observe(agent)["action_mask"] & b.observe(agent)["action_mask"]
        legal = np.flatnonzero(mask)
        if not len(legal):
            return None, steps
        move = int(rng.choice(legal.tolist()))
        a.step(move)
        b.step(move)
        steps += 1
    return None, steps


@pytest.mark.parametrize(("preset", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_player_0_reads_the_same_in_both_worlds(preset: str, players: int) -> None:
    compared = 0
    for seed in range(4):
        diff, steps = _first_difference(preset, players, seed)
        assert diff is None, diff
        compared += steps
    assert compared >= 20  # the worlds were stepped, not stopped at once


def test_auto_forced_shows_who_could_sluff_and_the_check_finds_it() -> None:
    """The documented leak of ``auto_forced=True`` (a seat that cannot sluff is skipped): the same
    comparison finds it in goat, so the check above can fail."""
    found = [diff for seed in range(12) if (diff := _first_difference("goat", 3, seed, True)[0])]
    assert found


def test_a_swap_that_player_0_could_see_is_found() -> None:
    """The check can fail: the same comparison with a card of player_0's own hand swapped with one
    of seat 1's differs at once (the observation shows the own hand)."""
    a, b = raw_env(rules="goat", players=3), raw_env(rules="goat", players=3)
    a.reset(seed=1)
    game = a.game
    mine = next(c for c in range(52) if game.hands[0] >> c & 1)
    theirs = next(c for c in range(52) if game.hands[1] >> c & 1)
    swapped = [theirs if c == mine else mine if c == theirs else c for c in game.deck]
    b.reset(seed=1, options={"deck": swapped})
    assert _seen(a) != _seen(b)


def test_the_deck_option_deals_that_deck_and_refuses_a_bad_one() -> None:
    e = raw_env(rules="pagat", players=3)
    deck = list(range(52))
    e.reset(seed=3, options={"deck": deck})
    assert list(e.game.deck) == deck
    e.reset(seed=3, options={"deck": np.arange(52)})
    assert list(e.game.deck) == deck
    before = e.game
    with pytest.raises(ValueError, match="must list all 52 cards once; got 51"):
        e.reset(seed=3, options={"deck": deck[:51]})
    with pytest.raises(ValueError, match="appears twice"):
        e.reset(seed=3, options={"deck": [0, *deck[:51]]})
    with pytest.raises(ValueError, match="must be a sequence of the 52 card numbers"):
        e.reset(seed=3, options={"deck": "2C 3C"})
    assert e.game is before  # a refused reset changes nothing


def test_the_gymnasium_env_takes_the_same_deck_option() -> None:
    from skitgubbe.adapters.gymnasium import SkitgubbeEnv

    e = SkitgubbeEnv(rules="goat", players=4)
    deck = list(reversed(range(52)))
    obs, info = e.reset(seed=5, options={"deck": deck})
    assert list(e.game.deck) == deck
    with pytest.raises(ValueError, match="deck entry 52 is not a card number 0..51"):
        e.reset(seed=5, options={"deck": [52, *deck[1:]]})
    assert list(e.game.deck) == deck
