"""The OpenSpiel game ``python_skitgubbe`` shows no hidden card (issue 18), for every preset: two deals
that differ only in one card of seat 1's hand swapped with one of seat 2's (the same chance outcomes
otherwise) are played with the same moves, and what seat 0 reads — the player to move, its
information state string and tensor, its observation string and tensor, the returns — must be the
same in both until a swapped card is seen.  ``auto_forced=True``, documented as showing who could
sluff, is found by the same check, so it can fail.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import skitgubbe.adapters.openspiel  # noqa: E402,F401  (registers python_skitgubbe)
from skitgubbe.engine.variants import PRESETS  # noqa: E402

TABLES = [(name, max(3, rules.min_players)) for name, rules in sorted(PRESETS.items())
          if rules.max_players >= 3]


def _dealt(game: Any, rng: random.Random) -> tuple[Any, list[int]]:
    """A new state after the deal (every chance node before the first decision), random outcomes,
    and the outcomes taken."""
    state = game.new_initial_state()
    taken = []
    while state.is_chance_node():
        card = rng.choice([c for c, _ in state.chance_outcomes()])
        taken.append(card)
        state.apply_action(card)
    return state, taken


def _hidden(state: Any, cards: int) -> bool:
    """The swapped cards are still in seats 1 and 2's hands, unseen by other seats."""
    e = state.engine
    held: int = (e.hands[1] | e.hands[2]) & ~(e.known[1] | e.known[2])
    return held & cards == cards


def _seen(state: Any) -> tuple[object, ...]:
    """All that seat 0 reads from the state now."""
    return (state.current_player(), state.information_state_string(0), state.information_state_tensor(0),
            state.observation_string(0), state.observation_tensor(0), state.returns())


def _first_difference(preset: str, players: int, seed: int, **params: bool) -> tuple[str | None, int]:
    game = pyspiel.load_game("python_skitgubbe", {"rules": preset, "players": players, **params})
    rng = random.Random(seed)
    a, outcomes = _dealt(game, rng)
    e = a.engine
    ones = [c for c in range(52) if e.hands[1] >> c & 1 and not e.known[1] >> c & 1]
    twos = [c for c in range(52) if e.hands[2] >> c & 1 and not e.known[2] >> c & 1]
    if not ones or not twos:
        return None, 0
    one, two = rng.choice(ones), rng.choice(twos)
    b = game.new_initial_state()
    for card in outcomes:
        b.apply_action(two if card == one else one if card == two else card)
    cards = 1 << one | 1 << two
    steps = 0
    while not a.is_terminal() and _hidden(a, cards) and _hidden(b, cards):
        if _seen(a) != _seen(b):
            return f"{preset} seed {seed}: after {steps} steps seat 0 reads different things", steps
        if a.is_chance_node():
            common = sorted({c for c, _ in a.chance_outcomes()} & {c for c, _ in b.chance_outcomes()})
        else:
            common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
        if not common:
            return None, steps
        move = rng.choice(common)
        a.apply_action(move)
        b.apply_action(move)
        steps += 1
    return None, steps


@pytest.mark.parametrize(("preset", "players"), TABLES, ids=[t[0] for t in TABLES])
def test_seat_0_reads_the_same_in_both_worlds(preset: str, players: int) -> None:
    compared = 0
    for seed in range(3):
        diff, steps = _first_difference(preset, players, seed)
        assert diff is None, diff
        compared += steps
    assert compared >= 20  # the worlds were played, not stopped at once


def test_auto_forced_shows_who_could_sluff_and_the_check_finds_it() -> None:
    found = [diff for seed in range(12) if (diff := _first_difference("goat", 3, seed, auto_forced=True)[0])]
    assert found
