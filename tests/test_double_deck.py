"""The double deck (rules option ``decks = 2``): two packs shuffled together.

Sources: the Swedish Goat Game / Flurst page and Dave Howell's Swedish Goat Game page, both "Double
Deck": twelve cards are needed instead of six to avoid the dreck, and two identical cards never touch,
so they are played separately.  Rulings DD1-DD4 in docs/rulings.md.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import cs, pick, plays_of, random_playout
from skitgubbe import Action, Kind, State, find_variant
from skitgubbe.engine.actions import parse_action
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import DOUBLE_DECK, RANK_MASKS2, TWIN, fold
from skitgubbe.engine.position import Position
from skitgubbe.engine.record import RecordFormatError, dumps, loads, record_of, replay
from skitgubbe.engine.rules import RulesError
from skitgubbe.engine.state import deck_from_seed
from skitgubbe.engine.variants import PRESETS
from test_option_properties import Public, check_cards, check_to_act, check_views, finished

GOAT2 = find_variant("goat").replace(decks=2, dreck_below=12)
HEARTS = 2


def second(text: str) -> int:
    """The second pack's copies of the cards written."""
    return cs(text) << TWIN


def position(hands: list[int], to_act: int = 0, table: tuple[tuple[int, int], ...] = ()) -> State:
    """A phase-two position under GOAT2 with hearts trumps; every other card is out of play."""
    placed = 0
    for h in hands:
        placed |= h
    for _, p in table:
        placed |= p
    where = Position(tuple(hands), HEARTS, to_act, out_of_play=DOUBLE_DECK & ~placed, table=table)
    return State.from_position(GOAT2, where)


def test_flurst_twins_never_touch_so_five_six_six_seven_takes_two_plays() -> None:
    # Flurst, "Double Deck": holding the 5 of clubs, both 6s of clubs and the 7 of clubs takes at
    # least two plays, e.g. 5-6-7 and then the other 6.
    me = cs("5C 6C 7C") | second("6C")
    state = position([me, cs("9S TS"), cs("JS QS")])
    legal = plays_of(state)
    assert cs("5C 6C 7C") in legal
    assert not any(p & p >> TWIN for p in legal), "a play holds both copies of one card"
    assert [fold(p) for p in legal].count(cs("6C")) == 1, "the 6 of clubs is listed once, not once a copy"
    both = Action(Kind.PLAY, cs("6C") | second("6C"))
    assert not state.can(both)
    assert "never touch" in state.explain(both, 0)
    state.apply(parse_action("play 5C 6C 7C"))
    assert state.hands[0] == second("6C")  # the other 6 is left for a play of its own


def test_howell_both_fives_and_sevens_still_go_in_two_plays() -> None:
    # Howell, "double deck": with both 5s, 6s and 7s of clubs one set goes in each play.
    me = cs("5C 6C 7C") | second("5C 6C 7C")
    state = position([me, cs("9S TS"), cs("JS QS")])
    state.apply(parse_action("play 5C 6C 7C"))
    assert state.hands[0] == second("5C 6C 7C")
    # seat 1 beats with a trump?  It holds none: it picks up, and the lead comes round again
    assert fold(state.hands[0]) == cs("5C 6C 7C")


def test_howell_six_seven_eight_must_split_over_five_six_seven() -> None:
    # Howell, "double deck": holding 6-7-8 after the player before played 5-6-7, the group must be
    # split: only the 8 (or something higher) beats the 7.
    mine = second("6C 7C") | cs("8C")
    state = position([cs("9S TS"), mine, cs("JS QS")], to_act=1, table=((0, cs("5C 6C 7C")),))
    legal = plays_of(state)
    assert cs("8C") in legal
    assert all(fold(p) & cs("6C 7C") == 0 for p in legal), "the 6 or 7 cannot beat the 7"
    run = Action(Kind.PLAY, mine)
    assert not state.can(run, 1)
    assert "cannot beat" in state.explain(run, 1)
    state.apply(parse_action("play 8C"), 1)
    assert state.hands[1] == second("6C 7C")


def test_either_copys_name_plays_the_card_held() -> None:
    # The two copies are the same card (ruling DD2): "9D" plays the second pack's 9D when that is held.
    state = position([second("9D") | cs("2S"), cs("9S TS"), cs("JS QS")])
    assert Action(Kind.PLAY, second("9D")) in state.legal_actions()
    state.apply(parse_action("play 9D"))
    assert state.history[-1][1].cards == second("9D") and state.hands[0] == cs("2S")
    held_first = position([cs("9D") | cs("2S"), cs("9S TS"), cs("JS QS")])
    held_first.apply(Action(Kind.PLAY, second("9D")))  # the other copy's number: the card held
    assert held_first.hands[0] == cs("2S")


def test_a_deal_uses_all_104_cards() -> None:
    deck = deck_from_seed(7, decks=2)
    assert sorted(deck) == list(range(104))
    assert all(deck.index(k) < deck.index(k + TWIN) for k in range(52)), "the first copy dealt is card k"
    state = State.new(GOAT2, 8, seed=7)
    assert state.deck == deck
    assert state.hand_sizes() == [3] * 8 and len(state.stock) == 104 - 24
    with pytest.raises(ValueError, match="all 104 cards"):
        State.new(GOAT2, 5, deck=range(52))
    with pytest.raises(ValueError, match="all 52 cards"):
        State.new(find_variant("goat"), 5, deck=range(104))


def test_validation_names_the_options() -> None:
    with pytest.raises(RulesError, match="decks=3"):
        find_variant("goat").replace(decks=3)
    with pytest.raises(RulesError, match="decks=2 with first_phase=beat"):
        find_variant("mas").replace(decks=2)
    with pytest.raises(RulesError, match="decks=2 with reserve"):
        find_variant("two-player").replace(decks=2)
    with pytest.raises(RulesError, match="decks=2 with max_equal_play"):
        find_variant("helmfrid").replace(decks=2)
    with pytest.raises(RulesError, match="dreck_below=60: must be 0 .no dreck. to 52"):
        find_variant("goat").replace(dreck_below=60)
    assert find_variant("goat").replace(decks=2, dreck_below=60).dreck_below == 60


def test_the_dreck_holds_both_copies() -> None:
    # Flurst, "Make sure everyone has at least six cards" with two packs: every 2-5 and both 6s of
    # trumps that are in the hands make the dreck; below twelve cards a seat receives it (Double Deck).
    found = 0
    for seed in range(40):
        state = State.new(GOAT2, 7, seed=seed)
        random_playout(state, seed, phase_one_only=True)
        dreck = [e for e in state.events if e.kind == "dreck"]
        if not dreck:
            continue
        found += 1
        cards, needy = dreck[0].cards, dreck[0].seats
        low = RANK_MASKS2[2] | RANK_MASKS2[3] | RANK_MASKS2[4] | RANK_MASKS2[5]
        six = (1 << (state.trump_suit * 13 + 4)) | (1 << (state.trump_suit * 13 + 4 + TWIN))
        assert cards & ~(low | six) == 0
        assert cards == (low | six) & ~state.killed & DOUBLE_DECK  # all of them, both packs
        assert cards & cards >> TWIN, "some card is in the dreck twice"
        ended = [e for e in state.events if e.kind == "end-one"]
        assert ended and needy
    assert found >= 5


def test_records_write_each_name_twice_and_replay_exactly() -> None:
    for seed in range(6):
        state = State.new(GOAT2, 5, seed=seed)
        random_playout(state, seed)
        text = dumps(record_of(state, seed=seed))
        again = replay(loads(text))
        assert again.history == state.history and again.hands == state.hands
        assert again.outcome == state.outcome
    deck_line = next(line for line in text.splitlines() if line.startswith("deck = "))
    names = deck_line[7:].split()
    assert len(names) == 104 and all(names.count(n) == 2 for n in names)
    bad = text.replace(deck_line, "deck = " + " ".join(names[:-1] + [names[0]]))
    with pytest.raises(RecordFormatError, match=r"deck: two packs: must list all 104 cards, each name twice"):
        loads(bad)


DOUBLE_PRESETS = sorted(name for name, r in PRESETS.items()
                        if r.first_phase.value != "beat" and not r.reserve and r.max_equal_play == 1)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(DOUBLE_PRESETS), st.integers(0, 2**32), st.integers(0, 2**32), st.data())
def test_every_preset_plays_with_two_packs(name: str, deck_seed: int, play_seed: int,
                                          data: st.DataObject) -> None:
    # cards conserved (all 104), legal actions exist, views hide what they must, every deal ends
    base = PRESETS[name]
    rules = base.replace(decks=2, dreck_below=12 if base.dreck_below > 0 else base.dreck_below)
    players = 6 if rules.confusion else data.draw(st.integers(rules.min_players, rules.max_players))
    state = State.new(rules, players, seed=deck_seed, dealer=deck_seed % players)
    rng, probe = random.Random(play_seed), random.Random(play_seed + 1)
    public = Public(players)
    while not state.is_over:
        seat, action = pick(state, rng)
        state.apply(action, seat)
        check_cards(state)
        check_to_act(state, probe)
        if state.phase != 3 or len(state.history) % 8 == 0:
            check_views(state, public)
    finished(state)


def test_a_two_pack_practice_position_is_recorded_and_replayed() -> None:
    # `play --phase two` with two packs: all 104 cards dealt; the written position names twins twice
    from skitgubbe.engine.position import practice_position

    where = practice_position(7, random.Random(2), decks=2)
    assert sum(h.bit_count() for h in where.hands) == 104
    state = State.from_position(GOAT2, where)
    random_playout(state, 2)
    again = replay(loads(dumps(record_of(state))))
    assert again.outcome == state.outcome and len(again.history) == len(state.history)
    assert [fold(h) for h in again.position.hands] == [fold(h) for h in where.hands]  # type: ignore[union-attr]


def test_two_packs_allow_four_times_the_actions() -> None:
    # random play of 104 cards among eight seats is long (ruling DD4): the default limit is raised
    from skitgubbe.engine.state import DEFAULT_ACTION_LIMIT

    assert State.new(GOAT2, 8, seed=1).action_limit == 4 * DEFAULT_ACTION_LIMIT
    assert State.new(find_variant("goat"), 8, seed=1).action_limit == DEFAULT_ACTION_LIMIT
    assert State.new(GOAT2, 8, seed=1, action_limit=50).action_limit == 50


@pytest.mark.parametrize("bots", [("counter", "heuristic", "random", "counter"),
                                  ("ismcts-8it", "counter", "random")])
def test_the_bots_play_two_packs(bots: tuple[str, ...]) -> None:
    # every bot plays a whole two-pack deal; the counter bot (and the ismcts bot's guide) play as the
    # heuristic bot there (ruling DD4)
    from skitgubbe.batch.runner import play_out
    from skitgubbe.bots import make_bot

    state = State.new(GOAT2, len(bots), seed=3)
    play_out(state, [make_bot(b, random.Random(i)) for i, b in enumerate(bots)], random.Random(3))
    assert state.is_over and not state.abandoned and state.loser is not None


def test_the_greedy_rollout_counts_a_second_pack_trump_as_a_trump() -> None:
    # the ismcts bot's rollout policy sheds non-trumps before trumps; a second-pack trump is a trump
    from skitgubbe.bots.playouts import greedy_listed as _greedy_listed

    hearts_second = second("9H")  # a trump from the second pack
    state = position([hearts_second | cs("9S"), cs("2C 3C"), cs("4C 5C")])
    assert _greedy_listed(state, 0).cards == cs("9S")


def test_twelve_cards_escape_the_dreck_with_two_packs() -> None:
    # Flurst and Howell, "Double Deck": a seat needs twelve cards, not six, to escape the dreck.  One
    # seeded two-pack deal, phase one played the same way under both thresholds.
    ended = {}
    for below in (6, 12):
        state = State.new(find_variant("goat").replace(decks=2, dreck_below=below), 5, seed=2)
        random_playout(state, 2, phase_one_only=True)
        ended[below] = state
    sizes = [h.bit_count() for h in ended[6].hands]
    assert 6 <= sizes[1] < 12 and all(k >= 12 for s, k in enumerate(sizes) if s != 1)
    assert [e.seats for e in ended[12].events if e.kind == "dreck"] == [(1,)]
    assert not [e for e in ended[6].events if e.kind == "dreck"]


def test_the_counter_model_with_two_packs_is_the_heuristic_rule() -> None:
    # the ismcts bot models the other seats with the counter bot's rule, which with two packs is the
    # heuristic rule (ruling DD4); the counter bot's own scores count one pack only
    from skitgubbe.bots.counter import counter_two
    from skitgubbe.bots.playouts import heuristic_two

    state = State.new(GOAT2, 4, seed=5)
    rng = random.Random(5)
    checked = 0
    while not state.is_over:
        if state.phase == Phase.TWO and state.to_act >= 0:
            assert counter_two(state, state.to_act) == heuristic_two(state, state.to_act)
            checked += 1
        state.apply(state.random_action(rng), state.to_act, trusted=True)
    assert checked > 20
