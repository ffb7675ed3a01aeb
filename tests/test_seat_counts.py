"""Which seat counts a ruleset can be dealt to (issue 28, "rules that cannot deal"):
:meth:`Rules.check_players` is the one check, and :meth:`State.new` calls it.  For every preset, a
broad sample of option combinations that :class:`Rules` accepts, and every seat count in
``min_players..max_players``, each table either deals (and a random playout finishes) or is refused
by ``check_players`` with a message saying what is allowed; ``State.new`` never refuses a count the
check passed (the server's rooms once accepted 3-player confusion at five seats and then could not
deal it)."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from skitgubbe.engine.rules import Rules, RulesError
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS

CHOICES: dict[str, list[object]] = {  # the options that touch the deal, the seat count or the stock
    "hand_size": [1, 2, 4, 5, 6],
    "decks": [2],
    "confusion": [True],
    "reserve": [1, 12, 30],
    "bottom_aside": [True, False],
    "exposed_bottom": [True, False],
    "restaurant": [True],
    "max_equal_play": [2, 3],
    "dreck_below": [0, 6, 12, -1, 52],
    "min_players": [2, 3, 6],
    "max_players": [2, 3, 5, 6, 8],
    "stock_end": ["play-on", "stop", "stop-unless-two", "skip-empty"],
    "incomplete_trick_dealt": [True],
    "tie_deal": [True],
    "trump_shown_when_drawn": [True],
    "show_trump_card": [False],
    "sluffing": [True, False],
    "first_phase": ["pairs", "all-play", "beat"],
    "dreck_remainder_aside": [True],
    "store_three_trumps": [True],
    "exchange_two": [True],
    "sluff_once": [True],
    "sluff_settled_only": [True],
}


def combinations(seed: int = 28, per_preset: int = 14) -> list[tuple[str, Rules]]:
    """Every preset as it is, then ``per_preset`` random combinations of :data:`CHOICES` on each that
    ``Rules`` accepts (a fixed seed: the same sample every run), and 3-player confusion on every
    preset that allows it."""
    rng = random.Random(seed)
    out = [(name, rules) for name, rules in sorted(PRESETS.items())]
    for name, base in sorted(PRESETS.items()):
        if base.min_players <= 6 <= base.max_players:
            out.append((f"{name}+confusion", base.replace(confusion=True)))
        found = tries = 0
        while found < per_preset and tries < 50 * per_preset:
            tries += 1
            options = {o: rng.choice(v) for o, v in CHOICES.items() if rng.random() < 0.25}
            try:
                rules = base.with_options(options)
            except RulesError:
                continue
            found += 1
            out.append((f"{name}+{options}", rules))
    return out


COMBINATIONS = combinations()


def test_the_sample_is_broad() -> None:
    names = " ".join(name for name, _ in COMBINATIONS)
    for option in ("confusion", "decks", "reserve", "bottom_aside", "hand_size", "max_players"):
        assert option in names
    assert len(COMBINATIONS) > 150


def test_every_seat_count_the_rules_allow_deals_or_is_refused_by_check_players() -> None:
    refused = dealt = 0
    for k, (name, rules) in enumerate(COMBINATIONS):
        for players in range(rules.min_players, rules.max_players + 1):
            try:
                rules.check_players(players)
            except RulesError as e:
                refused += 1
                assert "not " + str(players) in str(e), (name, players, str(e))
                with pytest.raises(RulesError, match=re.escape(str(e))):
                    State.new(rules, players, seed=k)
                continue
            state = State.new(rules, players, seed=k)  # never refused once the check passed
            rng = random.Random(k)
            while not state.is_over:
                state.step(state.random_action(rng), state.to_act)
            assert state.outcome is not None
            dealt += 1
    assert refused and dealt > 3 * refused


@pytest.mark.parametrize("players, ok", [(p, p == 6) for p in range(3, 9)])
def test_confusion_deals_at_six_seats_only(players: int, ok: bool) -> None:
    goat = PRESETS["goat"].replace(confusion=True)  # Rules accepts it: 6 is within 3..8
    if ok:
        goat.check_players(players)
        State.new(goat, players, seed=1)
        return
    message = (f"3-player confusion is played with 6 seats (two hands for each of three players), "
               f"not {players}")
    with pytest.raises(RulesError) as e:
        goat.check_players(players)
    assert str(e.value) == message
    with pytest.raises(RulesError, match="3-player confusion is played with 6 seats"):
        State.new(goat, players, seed=1)
    with pytest.raises(RulesError, match="3-player confusion is played with 6 seats"):
        State.from_phase_two(goat, [1 << s for s in range(players)], trump_suit=0, leader=0)


@pytest.mark.parametrize("players, message", [
    (2, "goat is for 3 to 8 players, not 2"),
    (9, "goat is for 3 to 8 players, not 9"),
    (True, "players=True: give a whole number of seats"),
    ("4", "players='4': give a whole number of seats"),
])
def test_check_players_names_what_is_allowed(players: object, message: str) -> None:
    with pytest.raises(RulesError) as e:
        PRESETS["goat"].check_players(players)  # type: ignore[arg-type]
    assert str(e.value) == message


def test_a_deck_too_small_for_the_hands_is_refused() -> None:
    # Rules' own bounds (six cards, eight seats) keep every deal within one pack; the check stays in
    # case they widen: a ruleset forced past them (seven cards each for eight seats) is refused
    rules = PRESETS["goat"]
    wide = dataclasses.replace(rules, hand_size=6)
    object.__setattr__(wide, "hand_size", 7)
    wide.check_players(7)  # 49 cards and the bottom card: 50 of 52
    with pytest.raises(RulesError, match="8 hands of 7, 0 cards aside and the bottom card need 57 cards; "
                                         "one pack holds 52"):
        wide.check_players(8)
    for players in range(rules.min_players, rules.max_players + 1):
        rules.with_options({"hand_size": 6}).check_players(players)
