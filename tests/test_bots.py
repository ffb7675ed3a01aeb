"""The heuristic bot: always legal, deterministic, sensible in hand-built positions, and
clearly stronger than random play.

Run: PYTHONPATH=src python3 -m pytest tests/test_bots.py -q
"""

from __future__ import annotations

import random

import pytest

from helpers import CheckingBot, cs, new_game, phase_two
from skitgubbe import Action, Kind, Rules, State, find_variant, parse_action
from skitgubbe.batch.runner import play_out
from skitgubbe.bots import HeuristicBot, RandomBot, make_bot
from skitgubbe.bots.base import Bot
from skitgubbe.engine.rules import FirstPhase, PickUp, Plays, SecondLead
from skitgubbe.engine.view import view_of

PAGAT = find_variant("pagat")
GOAT = find_variant("goat")


def choice(state: State, seat: int | None = None) -> str:
    """What a heuristic bot at ``seat`` (default: the seat to act) does now, as notation."""
    s = state.to_act if seat is None else seat
    return str(HeuristicBot(random.Random(0)).choose(view_of(state, s), state.legal_actions(s)))


def mixed_game(
    rules: Rules, players: int, seed: int, *, live: bool = False
) -> tuple[State, list[CheckingBot]]:
    """One deal with heuristic bots at random seats (at least one) and random bots elsewhere."""
    pick = random.Random(seed)
    heur = [pick.random() < 0.6 for _ in range(players)]
    heur[pick.randrange(players)] = True
    bots = [
        CheckingBot((HeuristicBot if h else RandomBot)(random.Random(seed * 16 + s)))
        for s, h in enumerate(heur)
    ]
    state = State.new(rules, players, seed=seed, live=live)
    play_out(state, bots, random.Random(seed))
    return state, bots


# -- always legal --------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("preset", "players"),
    [("pagat", 2), ("pagat", 3), ("pagat", 4)] + [("goat", n) for n in range(3, 9)],
)
def test_always_legal_in_random_deals(preset: str, players: int) -> None:
    rules = find_variant(preset)
    for seed in range(25):
        state, bots = mixed_game(rules, players, 1000 * players + seed)
        assert state.is_over
        assert any(b.name == "heuristic" and b.decisions for b in bots)


CUSTOM_RULES = [
    PAGAT.replace(plays=Plays.RUN, pick_up=PickUp.LOWEST_RUN),
    PAGAT.replace(hand_size=1, turn_from_stock=False, expose_leftover=False),
    PAGAT.replace(first_phase=FirstPhase.ALL_PLAY, must_match=True, second_lead=SecondLead.LAST_TRICK),
    PAGAT.replace(max_players=6, hand_size=5, dreck_below=8, dreck_trump_rank=6),
    GOAT.replace(must_match=False, sluff_guard_high=False, sluff_guard_last=False),
    GOAT.replace(plays=Plays.SINGLE, pick_up=PickUp.TOP_CARD, dreck_below=0),
    GOAT.replace(sluffing=False, sluff_guard_high=False, sluff_guard_last=False, turn_from_stock=False),
    GOAT.replace(first_phase=FirstPhase.ALL_PLAY, hand_size=6, max_players=8, dreck_max_rank=9),
    GOAT.replace(min_players=2, dreck_below=20, dreck_trump_rank=0, pick_up=PickUp.TOP_CARD),
]


def _rules_id(rules: Rules) -> str:
    shown = ("first_phase", "plays", "pick_up", "hand_size", "must_match", "sluffing", "dreck_below")
    return ",".join(f"{k}={v}" for k, v in rules.options().items() if k in shown)


@pytest.mark.parametrize("rules", CUSTOM_RULES, ids=_rules_id)
def test_always_legal_under_custom_rules(rules: Rules) -> None:
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in range(6):
            state, _ = mixed_game(rules, players, 77 * players + seed)
            assert state.is_over


def test_always_legal_at_a_live_table() -> None:
    for seed in range(10):
        state, _ = mixed_game(GOAT, 4, seed, live=True)
        assert state.is_over


def test_heuristic_tables_finish() -> None:
    """All-heuristic tables reach a loser: the bot breaks cycles of beating and picking up."""
    for preset, players in (("pagat", 3), ("pagat", 2), ("goat", 4)):
        for seed in range(40):
            bots = [HeuristicBot(random.Random(seed * 8 + s)) for s in range(players)]
            state = State.new(find_variant(preset), players, seed=seed)
            play_out(state, bots, random.Random(seed))
            assert not state.abandoned
            assert state.loser is not None


def test_make_bot_builds_the_heuristic_bot() -> None:
    assert isinstance(make_bot("heuristic", random.Random(1)), HeuristicBot)
    assert isinstance(make_bot("easy", random.Random(1)), HeuristicBot)


# -- deterministic ---------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["pagat", "goat"])
def test_same_seed_same_game(preset: str) -> None:
    def history(seed: int) -> list[tuple[int, Action]]:
        bots = [HeuristicBot(random.Random(seed + s)) for s in range(4)]
        state = State.new(find_variant(preset), 4, seed=seed)
        play_out(state, bots, random.Random(seed))
        return state.history

    assert history(5) == history(5)
    assert history(5) != history(6)


def test_choice_does_not_depend_on_anything_but_the_view_and_rng() -> None:
    state = State.new(GOAT, 5, seed=3)
    view, legal = view_of(state, state.to_act), state.legal_actions()
    picks = {HeuristicBot(random.Random(9)).choose(view, legal) for _ in range(5)}
    assert len(picks) == 1


# -- phase two: hand-built positions ------------------------------------------------------

def test_beats_with_the_cheapest_card_of_the_suit() -> None:
    st = phase_two(PAGAT, ["5H 2D KD", "9H 7H 3S 2C", "4C 8C JD"], "S", 0, ["play 5H"])
    assert choice(st) == "play 7H"


def test_prefers_a_non_trump_to_a_trump() -> None:
    st = phase_two(PAGAT, ["5H 2D KD", "2S QH 2C", "4C 8C JD"], "S", 0, ["play 5H"])
    assert choice(st) == "play QH"


def test_trumps_with_the_lowest_trump_when_it_cannot_follow() -> None:
    st = phase_two(PAGAT, ["5H 2D KD", "9S 3S 2C", "4C 8C JD"], "S", 0, ["play 5H"])
    assert choice(st) == "play 3S"


def test_picks_up_when_it_cannot_beat() -> None:
    st = phase_two(PAGAT, ["5H 2D KD", "2C 3D 4H", "4C 8C JD"], "S", 0, ["play 5H"])
    assert choice(st) == "pick"


def test_keeps_a_high_trump_early_rather_than_beat_a_low_card() -> None:
    st = phase_two(PAGAT, ["5H 2D KD", "AS 2C 3C 5C 6C 9C TC", "4C 8C JD"], "S", 0, ["play 5H"])
    assert choice(st) == "pick"


def test_spends_a_high_trump_when_its_hand_is_small() -> None:
    st = phase_two(PAGAT, ["5H 2D KD", "AS 2C", "4C 8C JD"], "S", 0, ["play 5H"])
    assert choice(st) == "play AS"


def test_takes_a_kill_even_with_a_high_trump() -> None:
    # three seats: the third play kills the trick
    st = phase_two(PAGAT, ["5H 2D KD", "7H 3D 4D", "AS 2C 3C 5C 6C 9C TC"], "S", 0, ["play 5H", "play 7H"])
    assert choice(st) == "play AS"


def test_goes_out_when_it_can() -> None:
    st = phase_two(GOAT, ["5H 2D KD", "6H 7H 8H", "4C 8C JD"], "S", 0, ["play 5H"])
    assert choice(st) == "play 6H 7H 8H"


def test_leads_its_lowest_non_trump() -> None:
    st = phase_two(PAGAT, ["2S 3S 7D AC", "4C 8C JD", "5H 9D"], "S", 0)
    assert choice(st) == "play 7D"


def test_leads_a_long_run_of_low_cards() -> None:
    st = phase_two(GOAT, ["2C 3C 4C 5C 2D AS 9H TH", "6C 8C QD", "5H 9D JD"], "S", 0)
    assert choice(st) == "play 2C 3C 4C 5C"


def test_beats_with_a_run_of_low_cards() -> None:
    st = phase_two(GOAT, ["6D 7D KD", "2C 3C 9D TD JD AS 9H TH", "5C 8C QD"], "S", 0, ["play 6D 7D"])
    assert choice(st) == "play 9D TD JD"


def test_eats_the_lowest_run_when_it_cannot_beat() -> None:
    st = phase_two(GOAT, ["5H 2D KD", "6H 7H", "2C 3C 4C 9C", "8S 9S"], "S", 0, ["play 5H", "play 6H 7H"])
    assert choice(st) == "pick"
    st.apply(parse_action("pick"))
    assert st.hands[2] == cs("2C 3C 4C 9C 5H 6H 7H")


# -- phase one: hand-built positions ------------------------------------------------------

def test_pagat_leads_its_lowest_card() -> None:
    st = new_game(PAGAT, ["4C 5D 6H", "3C 9D KS", "7C 8D TH"], dealer=0)
    assert st.to_act == 1
    assert choice(st) == "play 3C"


def test_pagat_turns_up_the_stock_with_a_hand_worth_keeping() -> None:
    st = new_game(PAGAT, ["4C 5D 6H", "QC KD AS", "7C 8D TH"], dealer=0)
    assert choice(st) == "stock"


def test_pagat_beats_a_valuable_lead_cheaply() -> None:
    st = new_game(PAGAT, ["4C 5D 6H", "QH 3D 4S", "7C AS KD"], dealer=0)
    st.apply(parse_action("play QH"))
    assert choice(st) == "play KD"


def test_pagat_gives_a_low_card_away_under_a_cheap_lead() -> None:
    st = new_game(PAGAT, ["4C 5D 6H", "9C 3D 5S", "4D KS AH"], dealer=0)
    st.apply(parse_action("play 9C"))
    assert choice(st) == "play 4D"


def goat_trick() -> State:
    """Goat, three seats, dealer 0: seat 1 leads 9C and draws 7C; seat 2 plays KD and draws 9H."""
    st = new_game(GOAT, ["4H 6C 3D", "9C 4S KS", "KD 7H 8S"], "7C 9H TC JC QC", dealer=0)
    st.apply(parse_action("play 9C"), 1)
    st.apply(parse_action("play KD"), 2)
    return st


def test_goat_does_not_sluff_into_a_trick_it_is_winning() -> None:
    st = goat_trick()
    # seat 2 holds the 9H it just drew and leads the trick with its king
    assert st.to_act == 1
    assert Action(Kind.SLUFF, cs("KS")) in st.legal_actions(1)
    assert choice(st) == "pass"  # seat 1 keeps its high king
    st.apply(parse_action("pass"), 1)
    assert st.to_act == 2 and Action(Kind.SLUFF, cs("9H")) in st.legal_actions(2)
    assert choice(st) == "pass"


def test_goat_sluffs_a_low_card_into_a_trick_it_has_lost() -> None:
    st = goat_trick()
    st.apply(parse_action("pass"), 1)
    st.apply(parse_action("pass"), 2)
    assert st.to_act == 0
    st.apply(parse_action("play 4H"), 0)  # the trick is settled: seat 2 wins with the king
    assert st.to_act == 1
    assert choice(st) == "sluff 4S"


# -- strength -------------------------------------------------------------------------------

def loser_rate(preset: str, players: int, games: int, first_seed: int = 0) -> float:
    """How often one heuristic bot (rotating seats) loses against random bots."""
    rules = find_variant(preset)
    lost = 0
    for g in range(games):
        seed = first_seed + g
        me = g % players
        bots: list[Bot] = [
            HeuristicBot(random.Random(seed * 16 + s)) if s == me else RandomBot(random.Random(seed * 16 + s))
            for s in range(players)
        ]
        state = State.new(rules, players, seed=seed)
        play_out(state, bots, random.Random(seed))
        lost += state.loser == me
    return lost / games


@pytest.mark.parametrize("preset", ["pagat", "goat"])
def test_heuristic_beats_random_bots(preset: str) -> None:
    # fair share is 1/3; the measured rate (300 seeded games) is far below the bound
    assert loser_rate(preset, 3, 300) < 0.15


def test_make_bot_names_and_difficulty_aliases() -> None:
    from skitgubbe.bots import BOT_NAMES, CounterBot, ISMCTSBot, make_bot

    assert set(BOT_NAMES) == {"random", "heuristic", "counter", "ismcts", "learned", "selfplay"}
    easy = make_bot("easy", random.Random(0))
    assert isinstance(easy, HeuristicBot) and not isinstance(easy, CounterBot)
    assert isinstance(make_bot("medium", random.Random(0)), CounterBot)
    hard = make_bot("hard", random.Random(0))
    assert isinstance(hard, ISMCTSBot) and hard.budget_seconds == 1.0 and hard.budget_iterations is None
    default = make_bot("ismcts", random.Random(0))
    assert isinstance(default, ISMCTSBot) and default.budget_iterations == 200 and default.rollout == "greedy"
    with pytest.raises(ValueError, match="ismcts, easy, medium, hard"):
        make_bot("genius", random.Random(0))


@pytest.mark.parametrize(
    ("name", "iterations", "seconds", "rollout"),
    [("ismcts-70it", 70, None, "greedy"), ("ISMCTS-50ms", None, 0.05, "greedy"),
     ("ismcts-1s", None, 1.0, "greedy"), ("ismcts-0.5s-random", None, 0.5, "random"),
     ("ismcts-30it-heuristic", 30, None, "heuristic"), ("ismcts-mixed", 200, None, "mixed"),
     ("ismcts-50ms-heuristic-two", None, 0.05, "heuristic-two"),
     ("ismcts-heuristic-two-unguided", 200, None, "heuristic-two")],
)
def test_make_bot_reads_an_ismcts_budget_from_the_name(
    name: str, iterations: int | None, seconds: float | None, rollout: str
) -> None:
    from skitgubbe.bots import ISMCTSBot

    bot = make_bot(name, random.Random(0))
    assert isinstance(bot, ISMCTSBot)
    assert (bot.budget_iterations, bot.budget_seconds, bot.rollout) == (iterations, seconds, rollout)


def test_make_bot_reads_a_time_bank_from_the_name() -> None:
    from skitgubbe.bots import ISMCTSBot

    banked = make_bot("ismcts-50ms-nomodel-bank", random.Random(0))
    assert isinstance(banked, ISMCTSBot) and banked.time_bank and banked.budget_seconds == 0.05
    assert banked.model is None
    plain = make_bot("ismcts-50ms", random.Random(0))
    assert isinstance(plain, ISMCTSBot) and not plain.time_bank
    for name in ("ismcts-bank", "ismcts-50it-bank"):
        with pytest.raises(ValueError, match="needs a time budget"):
            make_bot(name, random.Random(0))


@pytest.mark.parametrize("name", ["ismcts-0it", "ismcts-2.5it", "ismcts-10", "ismcts-5x",
                                  "ismcts-10it-smart"])
def test_make_bot_refuses_a_malformed_ismcts_budget(name: str) -> None:
    with pytest.raises(ValueError, match="no bot called"):
        make_bot(name, random.Random(0))
