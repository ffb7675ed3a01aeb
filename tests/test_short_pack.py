"""A short pack (rules options ``lowest_rank`` and ``suits``) and the ``mini`` research preset."""

from __future__ import annotations

import random

import pytest

from skitgubbe.batch.runner import play_out
from skitgubbe.bots import make_bot
from skitgubbe.engine import compiled
from skitgubbe.engine.cards import FULL_DECK, cards_in, format_cards, short_pack
from skitgubbe.engine.record import dumps, loads, record_of, replay
from skitgubbe.engine.rules import Rules, RulesError
from skitgubbe.engine.state import State, deck_from_seed, validate_deck
from skitgubbe.engine.variants import PRESETS, RESEARCH_PRESETS, find_variant
from skitgubbe.engine.view import view_of
from skitgubbe.engine.worlds import unseen_places

MINI = RESEARCH_PRESETS["mini"]


def test_the_default_pack_is_the_full_pack() -> None:
    assert Rules().pack == FULL_DECK and Rules().pack_size == 52 and not Rules().short
    assert Rules(decks=2).pack_size == 104
    for rules in PRESETS.values():
        assert not rules.short and rules.pack == short_pack(rules.decks)
    # the seeded deck of the full pack is the same with the pack given or not
    assert deck_from_seed(7, pack=FULL_DECK) == deck_from_seed(7)


def test_short_pack_cards() -> None:
    assert format_cards(short_pack(1, 12, 2)) == "QC KC AC QD KD AD"
    assert short_pack(1, 14, 4).bit_count() == 4
    assert short_pack(1, 2, 1) == (1 << 13) - 1
    with pytest.raises(ValueError, match="lowest_rank 2..14"):
        short_pack(1, 1, 4)


def test_mini_preset() -> None:
    assert find_variant("mini") is MINI
    assert "mini" not in PRESETS  # kept out of the lobby and of the loops over every preset
    assert MINI.pack_size == 4 and MINI.short and format_cards(MINI.pack) == "KC AC KD AD"
    assert MINI.min_players == MINI.max_players == 2


@pytest.mark.parametrize(("options", "words"), [
    ({"lowest_rank": 14, "suits": 1, "hand_size": 1}, "the short pack holds 1 cards, too few"),
    ({"lowest_rank": 13, "suits": 2, "hand_size": 2}, "lower lowest_rank or give more suits"),
    ({"lowest_rank": 9, "plays": "run-from-2"}, "plays=run-from-2: runs start with the 2"),
    ({"suits": 2, "dreck_below": 6, "first_phase": "all-play"}, "dreck_below=6"),
    ({"suits": 2, "decks": 2}, "a short pack is one pack"),
])
def test_short_pack_refusals(options: dict[str, object], words: str) -> None:
    with pytest.raises(RulesError, match=words.replace("(", r"\(").replace(")", r"\)")):
        PRESETS["pagat"].with_options(options)


@pytest.mark.parametrize(("options", "words"), [
    ({"lowest_rank": 1}, "lowest_rank: 1 is not allowed; give a whole number, 2 to 14"),
    ({"suits": 5}, "suits: 5 is not allowed; give a whole number, 1 to 4"),
])
def test_option_values(options: dict[str, object], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        Rules().with_options(options)


def test_the_table_must_fit_the_pack() -> None:
    rules = PRESETS["pagat"].with_options({"lowest_rank": 12, "suits": 3})  # 9 cards, hands of 3
    rules.check_players(2)
    with pytest.raises(RulesError,
                       match=r"need 10 cards; the short pack \(lowest_rank=12, suits=3\) holds 9"):
        rules.check_players(3)


def test_a_short_deal_uses_only_the_pack() -> None:
    state = State.new(MINI, 2, seed=3)
    assert sorted(state.deck) == list(cards_in(MINI.pack))
    assert state.deck == deck_from_seed(3, pack=MINI.pack)
    with pytest.raises(ValueError, match="not a card of the short pack"):
        validate_deck([0, 12, 24, 25], 1, MINI.pack)  # 2C is not in it
    with pytest.raises(ValueError, match="must list all 4 cards of the short pack"):
        State.new(MINI, 2, deck=range(52))
    # what a seat has not seen is of the short pack only
    places = unseen_places(view_of(state, 0))
    assert places.hidden & ~MINI.pack == 0
    assert places.hidden.bit_count() == 4 - 1 - 1  # its hand and the trump card shown under the stock


@pytest.mark.parametrize("bot", ["random", "heuristic", "counter", "learned", "ismcts-20it"])
def test_bots_play_short_deals_to_the_end(bot: str) -> None:
    for k in range(6):
        state = State.new(MINI, 2, seed=k)
        play_out(state, [make_bot(bot, random.Random(k * 2 + s)) for s in range(2)], random.Random(k))
        state.check_parts()
        assert state.is_over


def test_a_wider_short_pack_plays_out() -> None:
    rules = PRESETS["goat"].with_options({"lowest_rank": 9, "suits": 3, "dreck_below": 0})
    for k in range(10):
        state = State.new(rules, 3, seed=k)
        rng = random.Random(k)
        while not state.is_over:
            state.apply(state.random_action(rng), state.to_act)
        state.check_parts()


def test_a_short_deal_round_trips_as_a_record() -> None:
    state = State.new(MINI, 2, seed=5)
    play_out(state, [make_bot("counter", random.Random(s)) for s in range(2)], random.Random(5))
    text = dumps(record_of(state, seed=5))
    again = replay(loads(text))
    assert again.history == state.history and again.loser == state.loser
    bad = text.replace("seed = 5\n", "").replace(
        "deck = " + " ".join(format_cards(1 << c) for c in state.deck), "deck = 2C 3C 4C 5C")
    with pytest.raises(ValueError, match="the 4 cards of the short pack"):
        loads(bad)


def test_the_compiled_engine_refuses_a_short_pack() -> None:
    reason = compiled.unsupported(MINI, 2)
    assert reason is not None
    if compiled.native_module() is not None:
        assert "short pack (lowest_rank=13, suits=2)" in reason
        with pytest.raises(compiled.UnsupportedError, match="short pack"):
            compiled.CompiledState.new(MINI, 2, seed=1)


def test_the_adapters_deal_the_short_pack() -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from skitgubbe.adapters.batch import BatchEnv
    from skitgubbe.adapters.pettingzoo import raw_env

    if compiled.native_module() is not None:
        with pytest.raises(compiled.UnsupportedError, match="short pack"):
            BatchEnv("mini", 2)
    env = raw_env(rules="mini", players=2)
    env.reset(seed=3)
    assert sorted(env.game.deck) == list(cards_in(MINI.pack))
    env.reset(options={"deck": [25, 24, 12, 11]})
    assert env.game.deck == (25, 24, 12, 11)
    with pytest.raises(ValueError, match="not a card of the short pack"):
        env.reset(options={"deck": list(range(4))})


def test_a_room_deals_the_short_pack() -> None:
    pytest.importorskip("fastapi")
    from skitgubbe.server.rooms import Room, make_spec

    spec = make_spec(preset="mini", house_rules=None, players=2, seats=["random"])
    room = Room("ABCD", spec)
    room.apply_entry("join", room.prepare_join("Ann", "x" * 64, creator=True))
    room.apply_entry("start", room.prepare_start(random.Random(4)))
    assert room.state is not None and sorted(room.state.deck) == list(cards_in(MINI.pack))
