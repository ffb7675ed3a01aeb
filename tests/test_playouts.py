"""The fast phase-two playout rules (skitgubbe.bots.playouts): the cached per-suit moves (greedy and
heuristic) are the moves chosen from the list of legal actions, and the heuristic rules score as
the heuristic bot."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from skitgubbe import Action, parse_action
from skitgubbe.bots.heuristic import TIE_EPS, HeuristicBot
from skitgubbe.bots.playouts import greedy_listed, greedy_two, heuristic_listed, heuristic_two
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import mask_of, parse_cards
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS, find_variant
from skitgubbe.engine.view import view_of

Rule = Callable[[State, int], Action]


@pytest.mark.parametrize(("fast", "listed"), [(greedy_two, greedy_listed), (heuristic_two, heuristic_listed)],
                         ids=["greedy", "heuristic"])
def test_the_fast_move_is_the_listed_one(fast: Rule, listed: Rule) -> None:
    """At every phase-two decision of random deals of every preset (half the moves by the rule,
    to reach long hands and runs) the cached move is the one chosen from the list (the presets
    without the plain rules take the list)."""
    plain = 0
    for name, rules in sorted(PRESETS.items()):
        for g in range(6):
            players = max(rules.min_players, min(rules.max_players, 3 + g % 3))
            st = State.new(rules, players, seed=g)
            rng = random.Random(g)
            while not st.is_over:
                if st.phase == Phase.TWO and st.to_act >= 0:
                    p = st.to_act
                    move = fast(st, p)
                    assert move == listed(st, p), (name, g, len(st.history))
                    plain += st.plain_two
                    action = move if rng.random() < 0.5 else st.random_action(rng)
                else:
                    action = st.random_action(rng)
                st.apply(action, st.to_act, trusted=True)
    assert plain > 1000


def test_the_heuristic_move_is_one_the_heuristic_bot_rates_best() -> None:
    """The rule's move has the heuristic bot's best phase-two score (the bot breaks exact ties at
    random, the rule takes the first), under every preset with one pack."""
    checked = 0
    bot = HeuristicBot(random.Random(0))
    for name, rules in sorted(PRESETS.items()):
        st = State.new(rules, max(rules.min_players, min(rules.max_players, 3)), seed=11)
        rng = random.Random(3)
        while not st.is_over:
            p = st.to_act
            if st.phase == Phase.TWO and p >= 0:
                view = view_of(st, p)
                scores = bot._score_two(view, view.legal)
                move = heuristic_two(st, p)
                assert scores[view.legal.index(move)] >= max(scores) - TIE_EPS, (name, len(st.history))
                checked += 1
            st.apply(st.random_action(rng), p, trusted=True)
    assert checked > 100


def test_heuristic_rule_examples() -> None:
    """Shed the longest run of low cards (goat) or the lowest card (pagat: single cards); beat
    cheaply; go out when possible; pick up a cheap table rather than spend a high trump while the
    hand is big (spades are trumps)."""
    def move(hands: list[str], moves: list[str], rules: str = "pagat") -> str:
        masks = [mask_of(parse_cards(h)) for h in hands]
        st = State.from_phase_two(find_variant(rules), masks, trump_suit=3, leader=0)
        for m in moves:
            st.apply(parse_action(m))
        return str(heuristic_two(st, st.to_act))

    assert move(["2C 3C 4C 9H 2S", "6C 8C QD", "5H"], [], "goat") == "play 2C 3C 4C"
    assert move(["2C 3C 4C 9H 2S", "6C 8C QD", "5H"], []) == "play 2C"
    assert move(["5H 2D KD", "6H", "4C"], ["play 5H"]) == "play 6H"
    assert move(["5H 2D KD", "9H 7H 3S 2C", "4C"], ["play 5H"]) == "play 7H"
    assert move(["QH 2D KD", "AS KS QS JS 5C 6C 7C 8C", "4C"], ["play QH"]) == "pick"
    assert move(["2H 2D KD", "AS KS QS JS 5C 6C 7C 8C", "4C"], ["play 2H"]) == "play JS"


def test_a_rollout_stops_once_the_seat_is_out() -> None:
    """pagat.com, second phase: the loser is the last seat holding cards, so a seat that has
    played its last card is safe.  Seat 0 leads its only card and is out at once: the outcome is
    1 and the other two seats' fight is not played; for seat 1 the deal is played on to its end
    (spades are trumps)."""
    from skitgubbe.bots.playouts import heuristic_outcome

    pagat = find_variant("pagat")
    hands = [mask_of(parse_cards(h)) for h in ("2C", "3C 9H 4D", "KS 5H")]
    st = State.from_phase_two(pagat, hands, trump_suit=3, leader=0)
    st.apply(parse_action("play 2C"))
    assert 0 in st.out_order
    before = len(st.history)
    assert heuristic_outcome(st, 0, 300) == 1 and len(st.history) == before
    on = State.from_phase_two(pagat, hands, trump_suit=3, leader=0)
    on.apply(parse_action("play 2C"))
    result = heuristic_outcome(on, 1, 300)
    assert on.is_over and on.loser in (1, 2)
    assert result == (-1 if on.loser == 1 else 1)


def test_the_memo_gives_the_playouts_results() -> None:
    """One memo shared by every playout of a deal (as a search shares it) changes no result: at
    phase-two positions of random deals of every preset, each seat's heuristic_outcome and the
    heuristic_loser with the memo are those without it; and the memo was used (some playouts
    stopped at a remembered position)."""
    from skitgubbe.bots.playouts import OutcomeMemo, heuristic_loser, heuristic_outcome

    hits = checked = 0
    for name, rules in sorted(PRESETS.items()):
        for g in range(3):
            players = max(rules.min_players, min(rules.max_players, 3 + g % 2))
            st = State.new(rules, players, seed=100 + g)
            rng = random.Random(g)
            memo: OutcomeMemo = {}
            while not st.is_over:
                if st.phase == Phase.TWO and st.to_act >= 0:
                    for seat in range(players):
                        plain, remembered = st.clone(), st.clone()
                        expected = heuristic_outcome(plain, seat, 300)
                        assert heuristic_outcome(remembered, seat, 300, memo) == expected, (name, g, seat)
                        hits += not remembered.is_over and seat not in remembered.out_order
                        checked += 1
                    plain, remembered = st.clone(), st.clone()
                    loser = heuristic_loser(plain, 300)
                    assert loser == (plain.loser if plain.is_over and plain.loser is not None else -1)
                    assert heuristic_loser(remembered, 300, memo) == loser, (name, g)
                st.apply(st.random_action(rng), st.to_act, trusted=True)
    assert checked > 500 and hits > 100


def test_a_playout_cut_short_is_not_remembered() -> None:
    """A playout that the limit cuts short scores 0 and leaves nothing in the memo; played on in
    full afterwards it scores as without the memo (spades are trumps)."""
    from skitgubbe.bots.playouts import OutcomeMemo, heuristic_outcome

    pagat = find_variant("pagat")
    hands = [mask_of(parse_cards(h)) for h in ("2C 7H 9D", "3C 9H 4D", "KS 5H 6D")]
    st = State.from_phase_two(pagat, hands, trump_suit=3, leader=0)
    memo: OutcomeMemo = {}
    assert heuristic_outcome(st.clone(), 1, 1, memo) == 0
    assert memo == {}
    expected = heuristic_outcome(st.clone(), 1, 300)
    assert heuristic_outcome(st.clone(), 1, 300, memo) == expected != 0
    assert memo  # the full playout was remembered
