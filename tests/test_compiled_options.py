"""The compiled engine under combinations of options (issue 20): its run-time policy against the
Python engine, the reference.

Rules are drawn around each preset by :func:`skitgubbe.engine.compiled.draw_rules` from a fixed
seed (the options of :data:`~skitgubbe.engine.compiled.COMPILED_OPTIONS`, at a seat count the rules
allow), and each is dealt in both engines and played out by :func:`~skitgubbe.engine.compiled.check_deal`,
comparing the fingerprint, the legal actions, the events and the outcome at every decision.  The
test also counts how many draws the compiled engine played (it must be nearly all: only the
combinations :func:`~skitgubbe.engine.compiled.unsupported` names are refused) and checks that
every option was played at each of its values.  A disagreement fails with the rules, the seed and
the actions taken: enough to replay it.  Longer runs: ``benchmarks/compiled_diff.py
--random-options N``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from helpers import needs_native
from skitgubbe.batch.runner import play_out
from skitgubbe.bots.randombot import RandomBot
from skitgubbe.engine import compiled
from skitgubbe.engine.compiled import (
    COMPILED_OPTIONS,
    CompiledState,
    RandomDeal,
    UnsupportedError,
    check_deal,
    draw_rules,
    new_state,
    random_bots_deal,
    random_bots_deals,
    random_playouts,
    replay_rules,
    unsupported,
)
from skitgubbe.engine.rules import AntiTrump, FirstPhase, PickUp, Plays, Rules, RulesError, StockEnd
from skitgubbe.engine.state import State, deck_from_seed
from skitgubbe.engine.variants import PRESETS

COMBINATIONS = 720
"""Rule sets drawn (60 around each preset, changing up to 4 or up to 8 options), each played for
:data:`DEALS` deals: about 25 s of CPU here."""
DEALS = 3

OUTSIDE: list[dict[str, object]] = [
    {"forced_pickup": True}, {"complete_suit_ends": True, "plays": Plays.RUN}, {"trump_ends_trick": True},
    {"anti_trump": AntiTrump.ELECTRIC_CLUBS}, {"high_trump_kills_only": True}, {"beat_any_suit": True},
    {"tie_deal": True, "first_phase": FirstPhase.ALL_PLAY}, {"incomplete_trick_dealt": True,
                                                              "stock_end": StockEnd.PLAY_ON},
    {"ties_beat_unique": True, "first_phase": FirstPhase.ALL_PLAY},
    {"restaurant": True, "sluffing": True, "first_phase": FirstPhase.ALL_PLAY, "bottom_aside": False},
]
"""Changes the compiled engine does not play: every twelfth drawn rule set gets one of them too,
and must be refused with the option named."""


@needs_native
def test_random_option_combinations_agree_with_the_python_engine() -> None:
    rng = random.Random(20)
    names = sorted(PRESETS)
    played = refused = deals = 0
    seen: dict[str, set[object]] = {option: set() for option in COMPILED_OPTIONS}
    tables: Counter[int] = Counter()
    failures = []
    for i in range(COMBINATIONS):
        rules = draw_rules(rng, PRESETS[names[i % len(names)]], 4 if i % 2 else 8)
        outside = OUTSIDE[i // 12 % len(OUTSIDE)] if i % 12 == 11 else {}
        if outside:
            try:
                rules = rules.replace(**outside)
            except RulesError:  # not with these options: a plain preset then
                rules = PRESETS["pagat"].replace(**outside)
        players = rng.randint(rules.min_players, rules.max_players)
        reason = unsupported(rules, players)
        if outside:
            assert reason is not None and f"{next(iter(outside))}=" in reason, (outside, reason)
            refused += 1
            continue
        assert reason is None, reason
        played += 1
        tables[players] += 1
        for option in COMPILED_OPTIONS:
            seen[option].add(getattr(rules, option))
        for _ in range(DEALS):
            seed = rng.randrange(2**32)
            leader = seed % players if seed % 7 == 3 else None  # sometimes a first leader is named
            limit = 30 + seed % 300 if seed % 5 == 1 else None  # sometimes abandoned at an action limit
            found = check_deal(rules, players, seed, dealer=seed % players, leader=leader, action_limit=limit)
            deals += 1
            if found is not None:
                failures.append(str(found))
                break
        if len(failures) >= 3:
            break
    assert not failures, "\n".join(failures)
    # the draws reach the compiled engine, at every table, with every option at each of its values
    assert played == COMBINATIONS - COMBINATIONS // 12 and refused == COMBINATIONS // 12
    assert deals >= played * DEALS
    assert set(tables) == set(range(2, 9)), tables
    for option, values in COMPILED_OPTIONS.items():
        if isinstance(values[0], bool) or len(values) <= 6:
            missed = set(values) - seen[option]
            assert not missed, f"{option} was never played at {missed}"
        else:  # a whole number: its default and at least two other values
            assert len(seen[option]) >= 3 and getattr(Rules(), option) in seen[option], (option, seen[option])
    print(f"{played} combinations compiled, {refused} refused, {deals} deals compared")


@needs_native
def test_the_run_time_policy_plays_each_preset_as_its_own_code_does() -> None:
    # a preset's options under another name go to the run-time policy; random playouts in C++ from
    # the same seed must be the same games as the preset's own compiled code plays
    for name, (low, high) in compiled.COMPILED_PRESETS.items():
        renamed = PRESETS[name].replace(name="house")
        for players in range(low, high + 1):
            assert unsupported(renamed, players) is None
            own = random_playouts(name, players, 300, players)
            assert random_playouts(renamed, players, 300, players) == own
            state = CompiledState.new(renamed, players, seed=players)
            assert type(state.core).__name__ == "RuntimeState"
    assert compiled.state_bytes(None) > compiled.state_bytes("goat")


@needs_native
def test_random_actions_are_legal_under_drawn_options() -> None:
    # the compiled playouts choose an action without listing them where they can: each choice must
    # be a legal action under any combination
    import skitgubbe_native

    rng = random.Random(7)
    names = sorted(PRESETS)
    for i in range(1200):
        rules = draw_rules(rng, PRESETS[names[i % len(names)]], 4 if i % 2 else 8)
        players = rng.randint(rules.min_players, rules.max_players)
        options = compiled._native_options(rules)
        assert not isinstance(options, str)
        bad = skitgubbe_native.runtime_illegal_random_actions(options, players, 20, i)
        assert bad == 0, replay_rules(rules)
        done = random_playouts(rules, players, 20, i)
        assert done.games == 20 and sum(done.losses) + done.abandoned == 20


@needs_native
def test_random_bots_deals_under_drawn_options_are_the_python_engines() -> None:
    # simulate's compiled path (Python's random numbers in C++) under the run-time policy: the same
    # loser, actions and tricks as the Python engine with RandomBots, deal for deal
    rng = random.Random(11)
    names = sorted(PRESETS)
    for i in range(96):
        rules = draw_rules(rng, PRESETS[names[i % len(names)]], 4 if i % 2 else 8)
        players = rng.randint(rules.min_players, rules.max_players)
        seed = f"ro-{i}"
        limit = 60 if i % 8 == 5 else None
        got = random_bots_deals(rules, players, seed, 0, 2, action_limit=limit)
        for g, deal in enumerate(got):
            state = State.new(rules, players, dealer=g % players, deck=deck_from_seed(f"{seed}:{g}:deck"),
                              action_limit=limit)
            bots = [RandomBot(random.Random(f"{seed}:{g}:{s}")) for s in range(players)]
            play_out(state, bots, random.Random(f"{seed}:{g}:chance"))
            outcome = state.outcome
            assert outcome is not None
            want = RandomDeal(-1 if state.loser is None else state.loser, len(state.history), state.tricks,
                              outcome.abandoned)
            assert deal == want, (replay_rules(rules), players, seed, g)
        seats = [random.Random(f"{seed}:0:{s}") for s in range(players)]
        one = random_bots_deal(rules, players, f"{seed}:0:deck", 0, seats, random.Random(f"{seed}:0:chance"),
                               action_limit=limit)
        assert one == got[0]


def test_options_the_compiled_engine_does_not_play_are_named() -> None:
    cases = [
        (PRESETS["goat"].replace(restaurant=True), ["restaurant=True"]),
        (PRESETS["pagat"].replace(forced_pickup=True, anti_trump=AntiTrump.SAME_COLOUR),
         ["forced_pickup=True", "anti_trump='same-colour'"]),
        (PRESETS["mattis"].replace(ties_beat_unique=True, all_ties_replay=True),
         ["ties_beat_unique=True", "all_ties_replay=True"]),
        (PRESETS["goat"].replace(sluff_own_rank=True), ["sluff_own_rank=True"]),
        (PRESETS["goat"].replace(min_players=6, max_players=6, confusion=True), ["confusion=True"]),
    ]
    for rules, named in cases:
        players = rules.min_players
        reason = unsupported(rules, players)
        assert reason is not None
        if compiled.available():
            for option in named:
                assert option in reason, reason
            with pytest.raises(UnsupportedError, match=named[0].split("=")[0]):
                CompiledState.new(rules, players, seed=1)
        assert isinstance(new_state(rules, players, seed=1), State)  # the Python engine plays them
    # two packs: the card sets are 64 bits
    double = PRESETS["goat"].with_options({"decks": 2})
    reason = unsupported(double, 4)
    assert reason is not None


@needs_native
def test_changed_presets_are_compiled_within_their_tables() -> None:
    rules = PRESETS["goat"].replace(sluff_once=True, plays=Plays.SINGLE, pick_up=PickUp.TOP_CARD)
    assert unsupported(rules, 5) is None
    assert isinstance(new_state(rules, 5, seed=3), CompiledState)
    reason = unsupported(rules, 2)
    assert reason is not None and "3 to 8 players" in reason
    # a disagreement names the rules so that it can be replayed
    text = replay_rules(rules)
    assert text.startswith("PRESETS['goat'].with_options(")
    assert eval(text, {"PRESETS": PRESETS}) == rules.replace(name="custom")  # noqa: S307
    assert check_deal(rules, 5, 11, dealer=1) is None


@needs_native
def test_the_compiled_module_checks_the_options_it_is_given() -> None:
    import skitgubbe_native

    options = compiled._native_options(PRESETS["goat"].replace(name="house"))
    assert not isinstance(options, str)
    deck = list(range(52))
    for bad, message in (({**options, "max_equal_play": 4}, "max_equal_play"),
                         ({k: v for k, v in options.items() if k != "runs"}, "runs is missing"),
                         ({**options, "anti_trump": 1}, "unknown option anti_trump"),
                         ({**options, "hand_size": 2, "max_equal_play": 3}, "above hand_size")):
        with pytest.raises(ValueError, match=message):
            skitgubbe_native.RuntimeState(bad, 4, deck)
    with pytest.raises(ValueError, match="two seats"):
        skitgubbe_native.RuntimeState({**options, "reserve": 12}, 3, deck)
