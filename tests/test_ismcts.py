"""The ismcts bot: always legal under every preset, deterministic for a seed with an iteration
budget, blind to the cards its seat has not seen, clearly stronger than random play, and it keeps
to a time budget.

Run: .venv/bin/pytest -q tests/test_ismcts.py
"""

from __future__ import annotations

import random

import pytest

from helpers import CheckingBot, cs
from skitgubbe import Action, State, find_variant, parse_action
from skitgubbe.batch.runner import play_out
from skitgubbe.batch.searchspeed import main
from skitgubbe.bots import CounterBot, RandomBot
from skitgubbe.bots.base import Bot
from skitgubbe.bots.counter import counter_two
from skitgubbe.bots.determinize import determinize
from skitgubbe.bots.ismcts import ROLLOUTS, ISMCTSBot, _rewards
from skitgubbe.bots.playouts import greedy_two as _greedy_two
from skitgubbe.engine.base import Phase
from skitgubbe.engine.rules import Rules
from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.view import view_of


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_always_legal_over_whole_deals(name: str) -> None:
    """One deal per preset at four seats (or the most it allows) with the bot in two seats."""
    rules = PRESETS[name]
    players = min(4, rules.max_players)
    st = State.new(rules, players, seed=name)
    searchers = [ISMCTSBot(random.Random(s), iterations=6) for s in range(2)]
    bots = [CheckingBot(searchers[0]), CheckingBot(RandomBot(random.Random(1))),
            CheckingBot(searchers[1])] + [CheckingBot(RandomBot(random.Random(s))) for s in range(3, players)]
    play_out(st, bots[:players], random.Random(0))
    assert st.is_over
    assert searchers[0].searches > 0 and searchers[0].iterations == 6 * searchers[0].searches


def test_heuristic_rollouts_and_a_big_table() -> None:
    rules = find_variant("goat")
    st = State.new(rules, 8, seed=3)
    bot = ISMCTSBot(random.Random(0), iterations=4, rollout="heuristic")
    bots: list[Bot] = [CheckingBot(bot)] + [RandomBot(random.Random(s)) for s in range(1, 8)]
    play_out(st, bots, random.Random(1))
    assert st.is_over and bot.searches > 0


def game_actions(seed: int, name: str, players: int, rollout: str = "random") -> list[tuple[int, Action]]:
    st = State.new(find_variant(name), players, seed=seed)
    bots: list[Bot] = [ISMCTSBot(random.Random(seed), iterations=8, rollout=rollout)]
    bots += [RandomBot(random.Random(seed + s)) for s in range(1, players)]
    play_out(st, bots, random.Random(seed))
    return list(st.history)


def test_deterministic_for_a_seed() -> None:
    assert game_actions(5, "pagat", 3) == game_actions(5, "pagat", 3)
    assert game_actions(6, "goat", 4, "heuristic") == game_actions(6, "goat", 4, "heuristic")


def test_the_search_does_not_depend_on_unseen_cards() -> None:
    """Two states the seat cannot tell apart (a state and a determinization of it) give the same
    search, move for move: only what the seat may know is read."""
    for name, players in (("pagat", 3), ("goat", 4), ("goat", 8)):
        rules = find_variant(name)
        st = State.new(rules, players, seed=21)
        rng = random.Random(2)
        tested = 0
        while not st.is_over and tested < 6:
            seat = st.to_act
            if seat >= 0 and len(st.legal_actions()) > 1 and rng.random() < 0.3:
                other = determinize(st, seat, random.Random(tested))
                assert view_of(other, seat) == view_of(st, seat)
                a = ISMCTSBot(random.Random(9), iterations=15).search(st, seat)
                b = ISMCTSBot(random.Random(9), iterations=15).search(other, seat)
                c = ISMCTSBot(random.Random(9), iterations=15).choose(view_of(st, seat), st.legal_actions())
                assert a == b == c
                tested += 1
            st.apply(st.random_action(rng), st.to_act, trusted=True)
        assert tested


def test_beats_random_play() -> None:
    """20 pagat deals for three, the bot's seat rotating, against two random bots, with only 10
    iterations a move: an even share of losses would be 1/3 (bigger runs: see ``python -m
    skitgubbe.batch.searchspeed``)."""
    rules = find_variant("pagat")
    losses = 0
    games = 20
    for g in range(games):
        me = g % 3
        st = State.new(rules, 3, dealer=g % 3, seed=f"beat:{g}")
        bots: list[Bot] = [RandomBot(random.Random(f"{g}:{s}")) for s in range(3)]
        searcher = ISMCTSBot(random.Random(g), iterations=10)
        searcher.model_depth = 4  # a cheaper model in the rollouts keeps the test short
        bots[me] = searcher
        play_out(st, bots, random.Random(g))
        losses += st.loser == me
    assert losses / games < 0.15


def test_time_budget() -> None:
    st = State.new(find_variant("goat"), 4, seed=8)
    rng = random.Random(0)
    while len(st.legal_actions()) < 3:
        st.apply(st.random_action(rng), st.to_act, trusted=True)
    bot = ISMCTSBot(random.Random(1), iterations=None, seconds=0.05)
    view = view_of(st, st.to_act)
    action = bot.choose(view, view.legal)
    assert action in view.legal
    assert bot.last_iterations > 0 and bot.last_seconds > 0
    both = ISMCTSBot(random.Random(1), iterations=3, seconds=60.0)
    both.choose(view, view.legal)
    assert both.last_iterations == 3


def test_time_bank_saves_phase_one_time_for_phase_two() -> None:
    """``bank=True``: phase one spends a share of the budget, phase two the budget plus what is in
    the bank, up to one more budget; what a search took is charged; a new deal starts a new bank."""
    rules = find_variant("goat")
    st = State.new(rules, 3, seed=8)
    rng = random.Random(0)
    while len(st.legal_actions()) < 2:
        st.apply(st.random_action(rng), st.to_act, trusted=True)
    bot = ISMCTSBot(random.Random(1), iterations=5, seconds=0.2, bank=True)
    assert bot._allowance(st, st.to_act) == pytest.approx(0.2 * bot.phase_one_share)
    bot.search(st, st.to_act)
    assert bot.bank == pytest.approx(0.2 - bot.last_seconds)  # the time not taken is saved
    two = st.clone()
    while two.phase != Phase.TWO or len(two.legal_actions()) < 2:
        two.apply(two.random_action(rng), two.to_act, trusted=True)
    bot.bank = 0.15  # less than one budget saved: all of it
    assert bot._allowance(two, two.to_act) == pytest.approx(0.35)
    bot.bank = 5.0  # a large bank: one more budget at most per decision
    assert bot._allowance(two, two.to_act) == pytest.approx(0.2 + 0.2 * bot.bank_draw)
    bot.bank = -10.0  # overdrawn: phase two still gets the phase-one share
    assert bot._allowance(two, two.to_act) == pytest.approx(0.2 * bot.phase_one_share)
    bot._allowance(st, st.to_act)  # an earlier history: a new deal, nothing saved
    assert bot.bank == 0.0
    plain = ISMCTSBot(random.Random(1), seconds=0.2)
    assert plain._allowance(two, two.to_act) == 0.2 and plain._allowance(st, st.to_act) == 0.2
    unbudgeted = ISMCTSBot(random.Random(1), iterations=5, bank=True)
    assert unbudgeted._allowance(two, two.to_act) is None
    unbudgeted.search(st, st.to_act)
    assert unbudgeted.bank == 0.0


def test_single_legal_action_and_errors() -> None:
    st = State.new(find_variant("pagat"), 3, seed=1)
    bot = ISMCTSBot(random.Random(0))
    only = st.legal_actions()[:1]
    assert bot.choose(view_of(st, st.to_act), only) == only[0] and bot.searches == 0
    with pytest.raises(ValueError, match="not to act"):
        bot.search(st, (st.to_act + 1) % 3)
    with pytest.raises(ValueError, match="rollout"):
        ISMCTSBot(random.Random(0), rollout="smart")
    with pytest.raises(ValueError, match="prior"):
        ISMCTSBot(random.Random(0), prior="heuristic")
    with pytest.raises(ValueError, match="budget"):
        ISMCTSBot(random.Random(0), iterations=None)
    with pytest.raises(ValueError, match="iterations"):
        ISMCTSBot(random.Random(0), iterations=0)
    with pytest.raises(ValueError, match="seconds"):
        ISMCTSBot(random.Random(0), seconds=0.0)


def test_rewards_and_rollout_limit() -> None:
    st = State.new(find_variant("pagat"), 3, seed=2, action_limit=30)
    rng = random.Random(0)
    while not st.is_over:
        st.apply(st.random_action(rng), st.to_act, trusted=True)
    assert st.abandoned and _rewards(st) == [0.0, 0.0, 0.0]
    done = State.new(find_variant("pagat"), 3, seed=2)
    while not done.is_over:
        done.apply(done.random_action(rng), done.to_act, trusted=True)
    r = _rewards(done)
    assert r[done.loser or 0] == -1.0 and sum(r) == pytest.approx(0.0)
    bot = ISMCTSBot(random.Random(0), iterations=5)
    bot.rollout_limit = 3  # every rollout is cut short: all rewards 0, the search still chooses
    fresh = State.new(find_variant("goat"), 4, seed=4)
    assert fresh.phase == Phase.ONE
    assert bot.search(fresh, fresh.to_act) in fresh.legal_actions()
    for policy in ROLLOUTS:
        cut = ISMCTSBot(random.Random(0), iterations=5, rollout=policy)
        cut.rollout_limit = 3
        assert cut.search(fresh, fresh.to_act) in fresh.legal_actions()


@pytest.mark.parametrize("policy", ROLLOUTS)
def test_every_rollout_policy_plays_to_the_end(policy: str) -> None:
    st = State.new(find_variant("goat"), 4, seed=6)
    bot = ISMCTSBot(random.Random(0), iterations=3, rollout=policy)
    bots: list[Bot] = [CheckingBot(bot)] + [RandomBot(random.Random(s)) for s in range(1, 4)]
    play_out(st, bots, random.Random(1))
    assert st.is_over and bot.searches > 0


def test_the_greedy_rollout_move() -> None:
    """Go out if possible; else the play shedding most cards for the lowest top card, a trump
    counting above every non-trump; pick up only when nothing can be played."""
    goat = find_variant("goat")
    pagat = find_variant("pagat")

    def greedy(rules: Rules, hands: list[str], moves: list[str]) -> str:
        st = State.from_phase_two(rules, [cs(h) for h in hands], trump_suit=3, leader=0)
        for m in moves:
            st.apply(parse_action(m))
        return str(_greedy_two(st, st.to_act))

    assert greedy(goat, ["5H 2D KD", "6H 7H 8H", "4C"], ["play 5H"]) == "play 6H 7H 8H"
    assert greedy(pagat, ["5H 2D KD", "9H 7H 3S 2C", "4C"], ["play 5H"]) == "play 7H"
    assert greedy(pagat, ["5H 2D KD", "2S QH 2C", "4C"], ["play 5H"]) == "play QH"
    assert greedy(pagat, ["5H 2D KD", "2C 3D 4H", "4C"], ["play 5H"]) == "pick"
    assert greedy(goat, ["2C 3C 4C 9H 2S", "6C 8C QD", "5H"], []) == "play 2C 3C 4C"


def test_main(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--rules", "pagat", "--players", "3", "--games", "2", "--iterations", "5"])
    out = capsys.readouterr().out
    assert "loser rate" in out and "iterations/s" in out and "determinizations/s" in out
    assert "phase one:" in out and "ms per searched move" in out


def test_the_counter_bot_guides_a_small_search() -> None:
    """With one iteration the search plays the guide's move, the counter bot's; a search that
    clearly prefers another move overrides it (a kill that wins the deal at once)."""
    rng = random.Random(3)
    st = State.new(find_variant("goat"), 3, seed=12)
    checked = 0
    while not st.is_over and checked < 15:
        seat = st.to_act
        if seat >= 0 and len(st.legal_actions(seat)) > 1:
            view = view_of(st, seat)
            guided = ISMCTSBot(random.Random(7), iterations=1)
            assert guided.choose(view, view.legal) == CounterBot(random.Random(7)).choose(view, view.legal)
            checked += 1
        st.apply(st.random_action(rng), st.to_act, trusted=True)
    assert checked == 15
    # seat 1 goes out with the 8H (the other seats keep their cards): the guide may say so too, but
    # an unguided one-iteration search would pick at random; with 60 iterations both find it
    pagat = find_variant("pagat")
    hands = [cs(h) for h in ("5H 2D KD", "8H", "4C 8C JD")]
    pos = State.from_phase_two(pagat, hands, trump_suit=3, leader=0)
    pos.apply(parse_action("play 5H"))
    for prior in ("counter", None):
        bot = ISMCTSBot(random.Random(0), iterations=60, prior=prior)
        assert str(bot.search(pos, 1)) == "play 8H"


def _opponent_branching(node: object, me: int) -> int:
    """The most children any node has whose children are moves of a seat other than ``me``."""
    most = 0
    stack = [node]
    while stack:
        n = stack.pop()
        kids = n.children  # type: ignore[attr-defined]
        if kids and next(iter(kids))[0] != me:
            most = max(most, len(kids))
        stack.extend(kids.values())
    return most


def test_phase_two_models_the_other_seats_as_counter_bots() -> None:
    """From a pagat phase-two position (phase one showed every card) the tree branches on the
    searching seat's moves only: each other seat's node has one child, the counter model's move;
    without the model the other seats' moves branch."""
    st = State.new(find_variant("pagat"), 3, seed="branching")
    rng = random.Random(1)
    while st.phase != Phase.TWO or len(st.legal_actions()) < 3:
        st.apply(st.random_action(rng), st.to_act, trusted=True)
    me = st.to_act
    modelled = ISMCTSBot(random.Random(0), iterations=60)
    assert modelled.search(st, me) in st.legal_actions()
    assert modelled.last_root is not None and _opponent_branching(modelled.last_root, me) == 1
    free = ISMCTSBot(random.Random(0), iterations=60, model=None)
    free.search(st, me)
    assert free.last_root is not None and _opponent_branching(free.last_root, me) > 1
    with pytest.raises(ValueError, match="model"):
        ISMCTSBot(random.Random(0), model="heuristic")


def test_the_modelled_search_does_no_worse_than_its_model() -> None:
    """At the first phase-two decision of random pagat deals (every card known), played out with
    the counter model for every seat afterwards, the move a small search picks (rollouts by the
    model to the end) loses in none of the deals where the model's own move does not lose: the
    search starts from the model's view of the game and only leaves it for a move it sees win."""
    pagat = find_variant("pagat")
    rng = random.Random(5)
    checked = 0
    for g in range(8):
        st = State.new(pagat, 3, seed=f"model:{g}")
        while st.phase != Phase.TWO and not st.is_over:
            st.apply(st.random_action(rng), st.to_act, trusted=True)
        if st.is_over or len(st.legal_actions()) < 2:
            continue
        me = st.to_act
        bot = ISMCTSBot(random.Random(g), iterations=30)
        bot.model_depth = 1000
        move = bot.search(st, me)

        def result(first: Action, st: State = st, me: int = me) -> bool:
            world = st.clone()
            world.apply(first, me, trusted=True)
            while world.phase == Phase.TWO:
                world.apply(counter_two(world, world.to_act), world.to_act, trusted=True)
            return world.loser != me

        assert result(move) >= result(counter_two(st, me)), g
        checked += 1
    assert checked >= 5


def test_the_phase_two_memos_last_the_deal() -> None:
    """The remembered model moves and playouts (within a deal, functions of the position alone)
    are kept from one search to the next of the same deal, and start afresh for another deal
    (whatever the length of its history) or other rules.  (The Python rules keep these memos;
    the compiled ones, the default where installed, keep none.)"""
    pagat = find_variant("pagat")
    bot = ISMCTSBot(random.Random(0), iterations=20, engine="python")
    rng = random.Random(2)
    st = State.new(pagat, 3, seed="memo")
    while st.phase != Phase.TWO or len(st.legal_actions()) < 2:
        st.apply(st.random_action(rng), st.to_act, trusted=True)
    bot.search(st, st.to_act)
    moves, outcomes = bot._moves, bot._outcomes
    assert moves and outcomes
    size = len(outcomes)
    st.apply(bot.search(st, st.to_act), st.to_act, trusted=True)
    while st.phase == Phase.TWO and len(st.legal_actions()) < 2:
        st.apply(st.legal_actions()[0], st.to_act, trusted=True)
    assert st.phase == Phase.TWO
    bot.search(st, st.to_act)  # later in the same deal: the same memos, grown
    assert bot._moves is moves and bot._outcomes is outcomes and len(outcomes) >= size
    fresh = State.new(pagat, 3, seed="memo 2")
    while fresh.phase != Phase.TWO or len(fresh.legal_actions()) < 2:
        fresh.apply(fresh.random_action(rng), fresh.to_act, trusted=True)
    bot.search(fresh, fresh.to_act)  # another deal: its history does not go on from the last one
    assert bot._outcomes is not outcomes
    again = bot._outcomes
    goat = State.new(find_variant("goat"), 3, seed="memo 3")
    while goat.phase != Phase.TWO or len(goat.legal_actions()) < 2:
        goat.apply(goat.random_action(rng), goat.to_act, trusted=True)
    bot.search(goat, goat.to_act)  # other rules
    assert bot._outcomes is not again
    pagat_memo = bot._outcomes
    bot.search(fresh, fresh.to_act)
    assert bot._outcomes is not pagat_memo
    known = bot._outcomes
    longer = State.new(pagat, 3, seed="memo 4")  # another deal with a longer history
    while (longer.phase != Phase.TWO or len(longer.legal_actions()) < 2
           or len(longer.history) <= len(fresh.history)):
        assert not longer.is_over
        longer.apply(longer.random_action(rng), longer.to_act, trusted=True)
    bot.search(longer, longer.to_act)
    assert bot._outcomes is not known


def _to_my_next_choice(st: State, me: int) -> bool:
    """Play ``st`` on by the counter model (every seat) until ``me`` has a choice in phase two;
    False if phase two ends first."""
    while st.phase == Phase.TWO:
        p = st.to_act
        if p == me and len(st.legal_actions()) > 1:
            return True
        st.apply(counter_two(st, p), p, trusted=True)
    return False


def test_a_phase_two_search_goes_on_from_the_node_the_deal_reached() -> None:
    """In pagat's phase two (every card known) the other seats play the model's moves, so the
    next search starts from the node of the latest tree that the deal reached, with its visits;
    without reuse, after a move the tree does not hold, or for a new deal it starts afresh."""
    pagat = find_variant("pagat")
    rng = random.Random(3)
    st = State.new(pagat, 3, seed="reuse")
    while st.phase != Phase.TWO or len(st.legal_actions()) < 3:
        st.apply(st.random_action(rng), st.to_act, trusted=True)
    me = st.to_act
    bot = ISMCTSBot(random.Random(0), iterations=60)
    fresh = ISMCTSBot(random.Random(0), iterations=60)
    fresh.reuse = False
    move = bot.search(st, me)
    assert fresh.search(st, me) == move  # the same search the first time
    assert bot.last_reused == 0
    old = bot.last_root
    assert old is not None
    before = len(st.history)
    st.apply(move, me, trusted=True)
    assert _to_my_next_choice(st, me)
    node = old
    for step in st.history[before:]:
        node = node.children[step]
    kept = node.visits
    assert kept > 0
    bot.search(st, me)
    assert bot.last_reused == kept and bot.last_root is node
    assert node.visits == kept + 60 and node.seat == -1
    fresh.search(st, me)
    assert fresh.last_reused == 0
    # the next seat plays a move the model did not predict: the tree does not hold it
    st.apply(bot.search(st, me), me, trusted=True)
    p = st.to_act
    assert st.phase == Phase.TWO and p != me
    others = [a for a in st.legal_actions() if a != counter_two(st, p)]
    st.apply(others[0], p, trusted=True)
    assert _to_my_next_choice(st, me)
    bot.search(st, me)
    assert bot.last_reused == 0
    new = State.new(pagat, 3, seed="reuse 2")
    while new.phase != Phase.TWO or len(new.legal_actions()) < 2:
        new.apply(new.random_action(rng), new.to_act, trusted=True)
    bot.search(new, new.to_act)
    assert bot.last_reused == 0


def test_a_won_two_seat_endgame_is_played_without_searching() -> None:
    """Where the counter bot's exhaustive search finds that a move wins a two-seat endgame, the
    ismcts bot plays that move at once (no search); elsewhere it searches."""
    pagat = find_variant("pagat")
    solver = CounterBot(random.Random(0))
    found = searched = 0
    for g in range(30):
        st = State.new(pagat, 3, seed=f"endgame:{g}")
        rng = random.Random(g)
        while not st.is_over:
            p = st.to_act
            legal = st.legal_actions()
            if st.phase == Phase.TWO and len(legal) > 1:
                view = view_of(st, p)
                won = solver.endgame(view, legal)
                bot = ISMCTSBot(random.Random(g), iterations=2, prior=None)
                move = bot.choose(view, legal)
                if won is not None:
                    assert move == won and bot.searches == 0
                    found += 1
                else:
                    assert bot.searches == 1
                    searched += 1
            st.apply(legal[rng.randrange(len(legal))] if p >= 0 else st.chance_action(rng), p,
                     trusted=True)
    assert found >= 3 and searched >= 3
