"""The OpenSpiel game python_skitgubbe (skitgubbe.adapters.openspiel).

Skipped when open_spiel is not installed.  Checked: the game's metadata and parameters;
OpenSpiel's own ``random_sim_test`` (with and without serialization) for every preset and two
seat counts; OpenSpiel's API test class for sampled states (``EnforceAPIOnPartialTreeBase``,
shipped in the wheel as open_spiel/integration_tests/api_test.py) and, since the full game tree
cannot be enumerated, the checks of its full-tree class on sampled states instead; clone, pickle
and serialize round trips; the sluff window of docs/sluffing.md's worked example, in which every
seat is asked and the settled trick stays on the table until the last seat has passed; that the
engine state is always the one the engine reaches from its deck and moves; returns and the turn
cap; resampling (same information state, same legal actions, hidden cards moved, public and own
cards kept, constraints kept, perfect recall along both histories; also during the deal, while
the dreck is dealt, and with a bottom card shown at the deal); the Python IS-MCTS bot playing a
whole deal of each preset against uniform random bots; and the speed command.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from skitgubbe.adapters import encoding  # noqa: E402
from skitgubbe.adapters import openspiel as osg  # noqa: E402
from skitgubbe.engine.actions import Kind  # noqa: E402
from skitgubbe.engine.base import Phase  # noqa: E402
from skitgubbe.engine.cards import SUIT_MASKS, parse_card, parse_cards  # noqa: E402
from skitgubbe.engine.chance import ChanceState  # noqa: E402
from skitgubbe.engine.state import State  # noqa: E402
from skitgubbe.engine.variants import PRESETS  # noqa: E402

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _load(rules: str, players: int, **extra: int) -> Any:
    params = ",".join([f"rules={rules}", f"players={players}"] + [f"{k}={v}" for k, v in extra.items()])
    return pyspiel.load_game(f"python_skitgubbe({params})")


def _step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        cards, probs = zip(*state.chance_outcomes(), strict=True)
        assert abs(sum(probs) - 1.0) < 1e-9
        state.apply_action(rng.choice(cards))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def _states(game: Any, seed: int, every: int = 1) -> list[Any]:
    """Clones of every ``every``-th state of one random deal, the terminal state last."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    i = 0
    while not state.is_terminal():
        if i % every == 0:
            out.append(state.clone())
        _step(state, rng)
        i += 1
    out.append(state)
    return out


# -- the game --------------------------------------------------------------------------------------


def test_registered_with_metadata() -> None:
    game = pyspiel.load_game("python_skitgubbe(rules=goat,players=4)")
    t = game.get_type()
    assert t.short_name == "python_skitgubbe"
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (2, 8)
    assert t.provides_information_state_string and t.provides_information_state_tensor
    assert t.provides_observation_string and t.provides_observation_tensor
    assert game.num_players() == 4
    assert game.num_distinct_actions() == encoding.NUM_ACTIONS == 551
    assert game.max_chance_outcomes() == 52
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.max_game_length() == osg.DEFAULT_MAX_TURNS
    assert game.observation_tensor_size() == encoding.OBS_SIZE
    assert game.information_state_tensor_size() == osg.INFO_SIZE
    default = pyspiel.load_game("python_skitgubbe")
    assert default.get_parameters() == {"rules": "pagat", "players": 3, "max_turns": osg.DEFAULT_MAX_TURNS,
                                        "auto_forced": False, "compact_actions": False}
    assert _load("flurst", 5, max_turns=77).max_game_length() == 77


@pytest.mark.parametrize("spec", ["rules=goat,players=2", "rules=pagat,players=5", "rules=nosuch",
                                  "max_turns=0"])
def test_bad_parameters_are_refused(spec: str) -> None:
    with pytest.raises(Exception, match="players|no rules called|max_turns"):
        pyspiel.load_game(f"python_skitgubbe({spec})")


# -- OpenSpiel's own tests ----------------------------------------------------------------------------

_SIM_GAMES = [(name, players, serialize) for name, rules in sorted(PRESETS.items())
              for players, serialize in ((rules.min_players, False), (rules.min_players, True),
                                         (min(rules.min_players + 1, rules.max_players), True))]


@pytest.mark.parametrize(("rules", "players", "serialize"), _SIM_GAMES)
def test_random_sim_test(rules: str, players: int, serialize: bool) -> None:
    """OpenSpiel's C++ random simulation checks, one deal each (with serialize, states are also
    serialized and deserialized along the way)."""
    pyspiel.random_sim_test(_load(rules, players), num_sims=1, serialize=serialize, verbose=False)


def _api_test_module() -> Any:
    return pytest.importorskip("open_spiel.integration_tests.api_test")


_EVERY_PRESET = [(name, r.min_players) for name, r in sorted(PRESETS.items())]


@pytest.mark.parametrize(("rules", "players"), [*_EVERY_PRESET, ("goat", 4)])
def test_openspiel_api_test_class(rules: str, players: int) -> None:
    """OpenSpiel's EnforceAPIOnPartialTreeBase, pointed at our game."""
    import unittest

    api_test = _api_test_module()
    case = type("EnforceAPIOnPartialTree_skitgubbe", (api_test.EnforceAPIOnPartialTreeBase,),
                {"game": _load(rules, players), "game_name": f"python_skitgubbe_{rules}"})
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(case)
    result = unittest.TestResult()
    suite.run(result)
    assert result.testsRun >= 5
    assert not result.errors and not result.failures, result.errors + result.failures


@pytest.mark.parametrize(("rules", "players"), [*_EVERY_PRESET, ("pagat", 3), ("goat", 4)])
def test_full_tree_api_checks_on_sampled_states(rules: str, players: int) -> None:
    """The checks of OpenSpiel's EnforceAPIOnFullTreeBase that do not need the whole tree, on
    every state of two random deals (the tree of a card game cannot be enumerated)."""
    game = _load(rules, players)
    states = _states(game, 1) + _states(game, 2, every=3)
    infosets: list[set[Any]] = [set() for _ in range(players)]
    tensors: list[set[Any]] = [set() for _ in range(players)]
    for state in states:
        if state.is_terminal():
            assert state.current_player() == TERMINAL
            assert state.legal_actions() == []
            assert all(state.legal_actions(p) == [] for p in range(players))
            with pytest.raises(RuntimeError):
                state.information_state_string()
            assert sum(state.returns()) == pytest.approx(game.utility_sum())
        elif state.is_chance_node():
            assert state.get_type() == pyspiel.StateType.CHANCE
            with pytest.raises(RuntimeError):
                state.information_state_string()
            with pytest.raises(RuntimeError):
                state.information_state_tensor()
        else:
            p = state.current_player()
            assert all(state.legal_actions(q) == [] for q in range(players) if q != p)
            infosets[p].add(state.information_state_string(p))
            tensors[p].add(tuple(state.information_state_tensor(p)))
    for sets in (infosets, tensors):  # no information set is shared between players
        assert len(set().union(*sets)) == sum(len(s) for s in sets)


# -- copies ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), [("pagat", 3), ("goat", 5)])
def test_clone_pickle_and_serialize_round_trips(rules: str, players: int) -> None:
    game = _load(rules, players)
    assert pickle.loads(pickle.dumps(game)).get_parameters() == game.get_parameters()
    rng = random.Random(3)
    for state in _states(game, 4, every=41):
        text = str(state)
        copies = (state.clone(), pickle.loads(pickle.dumps(state)), game.deserialize_state(state.serialize()),
                  pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1])
        for copy in copies:
            assert str(copy) == text
            assert copy.history() == state.history()
            if not state.is_terminal():
                assert copy.legal_actions() == state.legal_actions()
                p = max(state.current_player(), 0)
                assert copy.information_state_string(p) == state.information_state_string(p)
                assert copy.observation_tensor(p) == state.observation_tensor(p)
        if not state.is_terminal():
            copy = state.clone()
            _step(copy, rng)  # the original does not change with its copy
            assert str(state) == text and len(copy.history()) == len(state.history()) + 1


# -- chance, sluff windows and the engine -------------------------------------------------------------


def _do(state: Any, move: str) -> None:
    """Apply ``move``: a card for a chance node, else the legal action with that text."""
    if state.is_chance_node():
        card = parse_card(move)
        assert card in [c for c, _ in state.chance_outcomes()]
        state.apply_action(card)
        return
    p = state.current_player()
    ids = {state.action_to_string(p, a): a for a in state.legal_actions()}
    assert move in ids, (move, sorted(ids))
    state.apply_action(ids[move])


def _asked(state: Any) -> tuple[int, list[str]]:
    p = state.current_player()
    return p, [state.action_to_string(p, a) for a in state.legal_actions()]


def test_the_sluffing_example_asks_every_seat() -> None:
    """docs/sluffing.md's worked example under this adapter's protocol: after each play every
    seat holding cards is asked, clockwise from the player's left; a seat that cannot sluff may
    only pass; the settled trick stays on the table until the last seat has passed."""
    game = _load("goat", 3)
    state = game.new_initial_state()
    for card in ("7C", "7D", "4C", "4D", "4S", "QH", "9H", "KC", "2S"):  # the deal, from seat 1
        _do(state, card)
    assert state.current_player() == 1
    _do(state, "play 7C")
    _do(state, "JD")  # seat 1 draws
    for seat in (2, 0, 1):  # nobody can sluff a seven: everyone is asked anyway
        assert _asked(state) == (seat, ["pass"])
        _do(state, "pass")
    assert _asked(state) == (2, ["play 7D"])  # must match
    _do(state, "play 7D")
    _do(state, "8H")
    for seat in (0, 1, 2):
        assert _asked(state) == (seat, ["pass"])
        _do(state, "pass")
    _do(state, "play 4C")
    _do(state, "9S")  # a war between seats 1 and 2; seats 1 and 2 may sluff a four
    assert _asked(state) == (1, ["sluff 4D", "pass"])
    _do(state, "sluff 4D")
    _do(state, "3D")
    assert _asked(state) == (1, ["pass"])  # asked again after its sluff
    _do(state, "pass")
    assert _asked(state) == (2, ["sluff 4S", "pass"])
    _do(state, "pass")
    assert _asked(state) == (0, ["pass"])
    _do(state, "pass")
    assert state.current_player() == 1
    _do(state, "play 9H")
    _do(state, "6C")
    assert _asked(state) == (2, ["sluff 4S", "pass"])
    _do(state, "pass")
    assert _asked(state) == (0, ["sluff 9S", "pass"])
    _do(state, "sluff 9S")
    _do(state, "8C")
    for seat in (0, 1):
        assert _asked(state)[0] == seat
        _do(state, "pass")
    assert state.current_player() == 2
    _do(state, "play KC")
    _do(state, "JS")  # seat 2 wins the trick
    for seat in (0, 1):
        assert _asked(state) == (seat, ["pass"])
        _do(state, "pass")
    _do(state, "sluff 4S")
    _do(state, "2C")
    # The engine has nobody left to wait for, but seat 2 has not passed yet: the trick stays.
    assert _asked(state) == (2, ["pass"])
    view = state.view(0)
    assert view.trick_winner == 2 and view.rounds and view.piles[2] == 0
    assert view.sluff_window == (2,) and view.to_act == 2
    _do(state, "pass")
    won = parse_cards("7C 7D 4C 9H KC 4D 9S 4S")
    assert state.view(0).piles[2] == sum(1 << c for c in won)
    assert state.current_player() == 2  # the winner leads
    obs = state.observation_tensor(1)
    fields = {n: (o, s) for n, o, s in encoding.OBS_FIELDS}
    assert obs[fields["to_act"][0] + 1] == 1.0  # seat 2 is one to the left of seat 1


def test_who_could_sluff_is_never_shown() -> None:
    """Two deals that differ only in one card of seat 2 (4S, which it could sluff twice in the
    example, or 5H, which it never can), played with the same moves: the same seat is asked at
    every step and seats 0 and 1 see exactly the same things."""
    game = _load("goat", 3)
    moves = ["play 7C", "JD", "pass", "pass", "pass", "play 7D", "8H", "pass", "pass", "pass",
             "play 4C", "9S", "pass", "pass", "pass", "play 9H", "6C", "pass", "pass", "pass",
             "play KC", "JS", "pass", "pass", "pass"]
    worlds = []
    for fourth in ("4S", "5H"):
        state = game.new_initial_state()
        for card in ("7C", "7D", "4C", "4D", fourth, "QH", "9H", "KC", "2S"):
            _do(state, card)
        worlds.append(state)
    assert [c for c in range(52) if worlds[0].view(2).hand >> c & 1] != [
        c for c in range(52) if worlds[1].view(2).hand >> c & 1]
    could_sluff = 0
    for move in moves:
        a, b = worlds
        assert a.current_player() == b.current_player()
        if not a.is_chance_node():
            could_sluff += len(a.legal_actions()) != len(b.legal_actions())
        for seat in (0, 1):
            assert a.information_state_string(seat) == b.information_state_string(seat)
            assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
            assert a.observation_string(seat) == b.observation_string(seat)
        for state in worlds:
            _do(state, move)
    # in the first world only, seat 2 could sluff 4S in three windows and on its turn to play KC
    assert could_sluff == 4
    assert worlds[0].view(0).piles == worlds[1].view(0).piles != (0, 0, 0)


def _replayed(engine: State) -> State:
    """The engine's deck and moves replayed, every move checked, by a plain State."""
    plain = State.new(engine.rules, engine.players, dealer=engine.dealer, deck=engine.deck,
                      action_limit=engine.action_limit, ask_every_seat=engine.ask_all)
    for seat, action in engine.history:
        plain.apply(action, seat)
    return plain


_FIELDS = ("hands", "piles", "known", "stock", "reserve", "trump_card", "trump_holder", "trump_suit", "phase",
           "to_act", "table", "killed", "out_order", "loser", "pending", "rounds", "sluffs", "tricks",
           "exposed_card")


@pytest.mark.parametrize(("rules", "players", "seed"), [
    ("pagat", 3, 5), ("goat", 4, 6), ("goat", 6, 7), ("mas", 3, 7), ("two-player", 2, 5), ("koira", 4, 17),
    ("catsatcards", 3, 5), ("catsatcards-flurst", 5, 1)])
def test_engine_state_is_the_one_its_deck_and_moves_give(rules: str, players: int, seed: int) -> None:
    """Resolving the draws by chance nodes (State.apply with draws) leaves an engine state that a
    plain State reaches from the same deck and moves; cards are never lost or doubled; every seat
    asked in a window may pass."""
    game = _load(rules, players)
    checked = 0
    for i, state in enumerate(_states(game, seed)):
        engine = state.engine
        cs = state.chance_state
        if engine is None:
            continue
        places = [*engine.hands, *engine.piles, engine.killed, sum(1 << c for c in engine.stock),
                  sum(1 << c for c in engine.reserve)]
        if engine.phase == Phase.DRECK:
            places.append(engine.pending_deal())
        if engine.phase == Phase.ONE:
            trick = [c for r in engine.rounds for _, c in r] + [c for _, c in engine.sluffs]
            places.append(sum(1 << c for c in trick))
        places.append(sum(engine.table))
        tc = engine.trump_card
        if tc >= 0 and not any(p >> tc & 1 for p in places):  # set aside (face down, or shown)
            places.append(1 << tc)
        assert sum(p.bit_count() for p in places) == 52
        assert not any(p & q for j, p in enumerate(places) for q in places[j + 1:])
        if engine.pending and not state.is_chance_node():  # every seat asked may pass
            assert encoding.PASS_ID in state.legal_actions()
        if not engine.pending and cs.pending is None and not cs.deal_order and i % 5 == 0:
            plain = _replayed(engine)
            for name in _FIELDS:
                assert getattr(plain, name) == getattr(engine, name), name
            checked += 1
    assert checked > 5


def test_returns_and_the_turn_cap() -> None:
    for rules, players in (("pagat", 2), ("goat", 3)):
        final = _states(_load(rules, players), 8)[-1]
        returns = final.returns()
        loser = final.engine.loser
        assert returns[loser] == -1.0
        assert all(r == pytest.approx(1 / (players - 1)) for s, r in enumerate(returns) if s != loser)
        assert sum(returns) == pytest.approx(0.0)
    capped = _states(_load("goat", 4, max_turns=40), 9)[-1]
    assert capped.is_terminal() and capped.returns() == [0.0] * 4
    assert sum(1 for item in capped.full_history() if item.player >= 0) == 40
    assert capped.engine.phase == Phase.ONE


def test_chance_nodes_and_action_strings() -> None:
    state = _load("pagat", 3).new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 52
    assert state.action_to_string(CHANCE, 5) == "deal 7C to seat 1"
    for _ in range(9):
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_chance_node() and state.current_player() == 1
    assert state.action_to_string(1, encoding.STOCK_ID) == "stock"
    state.apply_action(encoding.STOCK_ID)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 52 - 9
    assert state.action_to_string(CHANCE, 51).startswith("seat 1 turns up AS")
    with pytest.raises(ValueError, match="not a chance outcome"):
        state.apply_action(0)  # already dealt
    state.apply_action(51)
    with pytest.raises(ValueError, match="cannot take action"):
        state.apply_action(encoding.PICK_UP_ID)
    with pytest.raises(ValueError, match="not a chance node"):
        state.chance_outcomes()


def test_observers() -> None:
    from open_spiel.python.observation import make_observation  # type: ignore[import-untyped, unused-ignore]

    game = _load("goat", 4)
    state = _states(game, 10, every=10)[20]
    p = state.current_player()
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    info.set_from(state, p)
    assert info.tensor.shape == (osg.INFO_SIZE,) and info.dict["seat"][p] == 1.0
    assert list(info.tensor) == state.information_state_tensor(p)
    assert info.string_from(state, p) == state.information_state_string(p)
    assert state.information_state_string(p).startswith(f"seat {p}\n")
    private = make_observation(game, pyspiel.IIGObservationType(
        public_info=False, perfect_recall=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    private.set_from(state, p)
    hand = state.view(p).hand
    assert [c for c in range(52) if private.tensor[c]] == [c for c in range(52) if hand >> c & 1]
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, p)
    assert not public.dict["hand"].any()
    text = public.string_from(state, p)
    assert text.startswith("4 seats; goat;") and "hand:" not in text and f"seat {p} of" not in text
    full = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    full.set_from(state, p)
    for s in range(4):
        hand = state.view(s).hand
        assert [c for c in range(52) if full.dict["hands"][s][c]] == [c for c in range(52) if hand >> c & 1]
        assert f"hand {s}: " in full.string_from(state, p)
    assert list(full.dict["trick"]) == list(public.dict["trick"])
    with pytest.raises(ValueError, match="no parameters"):
        game.make_py_observer(None, {"x": 1})


# -- resampling ------------------------------------------------------------------------------------


def _seen_cards(state: Any, seat: int) -> list[tuple[int, int]]:
    """``(history index, card)`` of every chance outcome ``seat`` saw (its own, or shown to all)."""
    return [(i, en.card) for i, en in enumerate(state.chance_state.history)
            if en.slot is not None and en.slot.seen_by(seat)]


def _seat_history(state: Any, seat: int) -> list[tuple[str, int]]:
    """``(information state string, action)`` at each decision of ``seat`` along the history."""
    game = state.get_game()
    walk = game.new_initial_state()
    out = []
    for item in state.full_history():
        if item.player == seat:
            out.append((walk.information_state_string(seat), item.action))
        walk.apply_action(item.action)
    return out


@pytest.mark.parametrize(("rules", "players", "seed"), [
    ("pagat", 3, 11), ("goat", 4, 12), ("goat", 5, 13), ("mas", 3, 14), ("two-player", 2, 15),
    ("koira", 4, 17), ("catsatcards", 3, 16), ("catsatcards-flurst", 5, 17)])
def test_resample_keeps_what_the_seat_knows(rules: str, players: int, seed: int) -> None:
    game = _load(rules, players)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    moved = recall = 0
    for i, state in enumerate(_states(game, seed, every=9)):
        if state.is_terminal() or state.is_chance_node():
            continue
        p = state.current_player()
        new = state.resample_from_infostate(p, sampler)
        assert new.information_state_string(p) == state.information_state_string(p)
        assert new.information_state_tensor(p) == state.information_state_tensor(p)
        assert new.observation_string(p) == state.observation_string(p)
        assert new.legal_actions() == state.legal_actions()
        assert _seen_cards(new, p) == _seen_cards(state, p)
        a, b = state.chance_state, new.chance_state
        kept = a.visible(p)
        assert b.visible(p) == kept
        ea, eb = a.engine, b.engine
        for s in range(players):  # own and public cards stay; every hand keeps its size
            assert eb.hands[s] & kept == ea.hands[s] & kept
            assert eb.hands[s].bit_count() == ea.hands[s].bit_count()
        moved += eb.hands != ea.hands
        if eb.trump_suit >= 0 and eb.trump_card >= 0:
            assert eb.trump_suit == ea.trump_suit and SUIT_MASKS[eb.trump_suit] >> eb.trump_card & 1
        # the new history is legal move by move (checked replay), and serializes to itself
        assert str(game.deserialize_state(new.serialize())) == str(new)
        for seat, action in eb.history:
            assert action.kind == Kind.DRECK or seat >= 0
        _replayed(eb)
        if i % 4 == 0:  # perfect recall: same information states and moves along both histories
            assert _seat_history(new, p) == _seat_history(state, p)
            recall += 1
    assert moved > 3 and recall > 2


def test_resample_during_the_deal() -> None:
    game = _load("goat", 5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(14)
    state = game.new_initial_state()
    for _ in range(7):
        _step(state, rng)
    new = state.resample_from_infostate(2, sampler)
    assert new.information_state_string(2) == state.information_state_string(2)
    assert len(new.chance_state.dealt) == 7 and new.chance_state.dealt[1] == state.chance_state.dealt[1]


def test_must_match_worlds_replay_legally() -> None:
    """Under "match if you can", a seat seen not to match held no card of that rank then; the
    world sampler does not make that inference, so the resample draws again any world in which the
    history is not legal: every resampled history replays move by move (checked)."""
    game = _load("goat", 3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    found = 0
    for seed in range(15, 20):
        for state in _states(game, seed, every=5):
            if state.is_terminal() or state.is_chance_node():
                continue
            if state.engine.phase != Phase.ONE:
                break
            p = state.current_player()
            new = state.resample_from_infostate(p, sampler)
            assert new.information_state_string(p) == state.information_state_string(p)
            _replayed(new.engine)
            found += 1
    assert found > 5


# -- IS-MCTS ---------------------------------------------------------------------------------------


def _ismcts_bot(game: Any, seed: int) -> Any:
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped, unused-ignore]

    class Bot(ismcts.ISMCTSBot):  # type: ignore[misc]
        """The Python IS-MCTS bot; it keeps no state between searches, so it needs no news."""

        def restart_at(self, state: Any) -> None:
            pass

        def inform_action(self, state: Any, player: int, action: int) -> None:
            pass

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return Bot(game, evaluator, 2.0, 5, random_state=np.random.RandomState(seed + 1))


@pytest.mark.parametrize(("rules", "players"), [(name, r.min_players) for name, r in sorted(PRESETS.items())])
def test_ismcts_plays_a_whole_deal(rules: str, players: int) -> None:
    """The Python IS-MCTS bot (5 simulations a move, one random rollout each, a new world
    resampled for every simulation) plays seat 0 of a whole deal against uniform random bots."""
    from open_spiel.python.algorithms import evaluate_bots  # type: ignore[import-untyped, unused-ignore]
    from open_spiel.python.bots import uniform_random  # type: ignore[import-untyped, unused-ignore]

    game = _load(rules, players)
    bots = [_ismcts_bot(game, 20)] + [uniform_random.UniformRandomBot(s, np.random.RandomState(s))
                                      for s in range(1, players)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(21))
    assert sorted(returns)[0] == -1.0 and sum(returns) == pytest.approx(0.0)


def test_resample_while_the_dreck_is_dealt() -> None:
    """At every chance node of a dreck dealt to several seats, a resample keeps the seat's
    information state: the dreck cards not dealt yet are not known to be anywhere in particular."""
    game = _load("goat", 6)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen = 0
    for seed in range(30, 60):
        for state in _states(game, seed):
            if not state.chance_state.deal_order:
                continue
            for seat in range(6):
                new = state.resample_from_infostate(seat, sampler)
                assert new.information_state_string(seat) == state.information_state_string(seat)
                assert _seen_cards(new, seat) == _seen_cards(state, seat)
            seen += 1
        if seen > 20:
            break
    assert seen > 20


def _cs_step(cs: ChanceState, rng: random.Random) -> None:
    if cs.is_chance:
        cs.apply(rng.choice(cs.outcome_cards()))
    else:
        cs.apply(rng.choice(cs.legal_actions()))


def _same_world_for(cs: ChanceState, seat: int, rng: random.Random) -> ChanceState:
    """A world of ``cs`` for ``seat``, replayed: the seat's view and the chance outcomes it saw
    are the same."""
    values = cs.world_history(seat, rng)
    other = ChanceState.replay(cs.rules, cs.players, values, trusted=True, ask_every_seat=True)
    assert other.view(seat) == cs.view(seat)
    for en, v in zip(cs.history, values, strict=True):
        assert en.slot is None or not en.slot.seen_by(seat) or v == en.card
    return other


def test_a_bottom_card_shown_at_the_deal_is_drawn_last() -> None:
    """Rules with ``exposed_bottom`` (no preset has it yet): one more chance node deals the bottom
    card, everyone sees it, it is never drawn before the last stock card, and a world (here at
    a chance node, between a play and its draw) keeps it."""
    rules = PRESETS["pagat"].replace(exposed_bottom=True)
    rng = random.Random(40)
    cs = ChanceState.new(rules, 3, ask_every_seat=True)
    resampled = 0
    while not cs.is_over:
        _cs_step(cs, rng)
        e = cs.engine
        if e is None or e.phase != Phase.ONE:
            continue
        assert all(cs.view(s).exposed_card == cs.bottom for s in range(3))
        if len(e.stock) > 1:
            assert e.stock[0] == cs.bottom
            if cs.pending is not None:
                assert cs.bottom not in cs.outcome_cards()
                other = _same_world_for(cs, 1, rng)
                assert other.bottom == cs.bottom
                resampled += 1
    assert cs.engine is not None
    assert cs.engine.trump_card == cs.bottom and resampled > 5
    assert cs.view(0).exposed_card == cs.bottom


def test_speed_command(capsys: pytest.CaptureFixture[str]) -> None:
    osg.main(["--games", "1"])
    out = capsys.readouterr().out
    assert out.count("steps/s") == sum(len({r.min_players, min(4, r.max_players)}) for r in PRESETS.values())


# -- the presets with new chance events ---------------------------------------------------------


def _fields(obs: list[float], name: str) -> list[float]:
    off, size = {n: (o, s) for n, o, s in encoding.OBS_FIELDS}[name]
    return list(obs[off:off + size])


def test_mas_store_and_exchange() -> None:
    """Mas for two: the trump turned up at the deal is public; seat 1 exchanges the 2 of trumps
    for it (the 2 is then face up under the stock for all to see), plays from a hand of three and
    draws one card; seat 0 stores three trumps and draws three cards only it sees."""
    game = _load("mas", 2)
    state = game.new_initial_state()
    for card in ["2H", "3H", "5C", "4H", "7D", "6H"]:  # seat 1: 2H 5C 7D, seat 0: 3H 4H 6H
        _do(state, card)
    assert state.action_to_string(CHANCE, parse_card("9H")).startswith("deal 9H")
    _do(state, "9H")  # the trump, face up under the stock
    nine, two = parse_card("9H"), parse_card("2H")
    for seat in (0, 1):
        assert _fields(state.observation_tensor(seat), "exposed").index(1.0) == nine
        assert _fields(state.observation_tensor(seat), "trump_suit") == [0.0, 0.0, 1.0, 0.0]
    assert _asked(state) == (1, ["play 5C", "play 7D", "play 2H", "exchange"])
    assert encoding.EXCHANGE_ID in state.legal_actions()
    _do(state, "exchange")
    for seat in (0, 1):
        assert _fields(state.observation_tensor(seat), "exposed").index(1.0) == two
        assert state.view(seat).known[1] == 1 << nine
        assert "face up under the stock: 2H" in state.observation_string(seat)
    assert _asked(state) == (1, ["play 5C", "play 7D", "play 9H"])
    _do(state, "play 5C")
    assert state.is_chance_node() and len(state.chance_outcomes()) == 52 - 7  # the 2H comes last
    assert two not in [c for c, _ in state.chance_outcomes()]
    _do(state, "KS")
    assert _asked(state) == (0, ["play 3H", "play 4H", "play 6H", "pick", "store"])
    _do(state, "store")
    for card in ("QC", "JC", "TC"):
        assert state.action_to_string(CHANCE, parse_card(card)) == f"seat 0 draws {card}"
        _do(state, card)
    assert _asked(state) == (0, ["play TC", "play JC", "play QC", "pick"])  # beat the 5C or pick it up
    assert state.view(1).piles[0] == sum(1 << parse_card(c) for c in ("3H", "4H", "6H"))
    assert state.information_state_string(1).count("draw 0 ??") == 3
    assert "draw 0 QC" in state.information_state_string(0)
    engine = state.engine
    plain = _replayed(engine)
    for name in _FIELDS:
        assert getattr(plain, name) == getattr(engine, name), name
    assert engine.stock[0] == two and engine.deck[-1] == nine  # the deck keeps the card dealt there
    # the rest of the deal: the last stock card is drawn face up, seen by all
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node() and len(state.engine.stock) == 1:
            assert state.action_to_string(CHANCE, two).endswith("face up, the last stock card")
        _step(state, rng)
    trump = [en for en in state.chance_state.history if en.slot is not None and en.slot.kind == "draw"
             and en.card == two]
    assert [(en.card, en.slot.to) for en in trump] == [(two, -1)]  # drawn face up: seen by all
    _replayed(state.engine)


def test_mas_resampling_keeps_the_exposed_card_and_stored_trumps() -> None:
    """Random Mas deals with stores and exchanges: resampled worlds keep what the seat knows and
    replay move by move (a store or exchange in the history stays legal)."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    kinds = set()
    for players, seed in ((2, 7), (3, 2)):
        game = _load("mas", players)
        for state in _states(game, seed, every=4):
            if state.is_terminal() or state.is_chance_node():
                continue
            p = state.current_player()
            kinds |= {encoding.action_id(en.action) for en in state.chance_state.history if en.action}
            new = state.resample_from_infostate(p, sampler)
            assert new.information_state_string(p) == state.information_state_string(p)
            assert new.observation_tensor(p) == state.observation_tensor(p)
            assert new.legal_actions() == state.legal_actions()
            _replayed(new.engine)
    assert {encoding.STORE_ID, encoding.EXCHANGE_ID, encoding.PICK_UP_ID} <= kinds


def test_two_player_reserve_draws() -> None:
    """Two seats with a reserve of 12: every unseen card may come first from the stock (the
    reserve is not a placeholder's lowest cards); after each phase-two kill both seats draw from
    the reserve, the seat that played last first, each card seen only by the seat drawing it; the
    observation counts the reserve down; a resample keeps each seat's information."""
    game = _load("two-player", 2)
    rng = random.Random(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    for _ in range(6):  # the deal
        _step(state, rng)
    _step(state, rng)  # the first move draws
    assert state.is_chance_node() and len(state.chance_outcomes()) == 52 - 6
    draws = resampled = 0
    while not state.is_terminal():
        cs = state.chance_state
        reserve = cs.pending is not None and cs.draws[len(cs.chosen)].source == "reserve"
        if state.is_chance_node() and reserve:
            seat = cs.draws[len(cs.chosen)].seat
            assert seat == cs.pending[0] if len(cs.chosen) == 0 else seat == 1 - cs.pending[0]
            assert {c for c, _ in state.chance_outcomes()} == set(state.engine.reserve) - set(cs.chosen)
            before = state.view(0).reserve_size
            card = rng.choice(state.chance_outcomes())[0]
            assert state.action_to_string(CHANCE, card) == f"seat {seat} draws {_card(card)} from the reserve"
            state.apply_action(card)
            if cs.pending is None:  # every card of the kill drawn: the engine has them
                assert state.view(0).reserve_size < before or state.engine.phase == Phase.OVER
                obs = state.observation_tensor(0)
                assert _fields(obs, "reserve_size") == [pytest.approx(len(state.engine.reserve) / 52)]
                log = cs.history
                k = sum(1 for en in log[-2:] if en.slot is not None and en.slot.kind == "reserve-draw")
                for en in log[-k:]:
                    c, to = en.card, en.slot.seat
                    assert en.slot.kind == "reserve-draw" and en.slot.to == 1 << to
                    assert f"reserve-draw {to} {_card(c)}" in state.information_state_string(to)
                    assert f"reserve-draw {to} {_card(c)}" not in state.information_state_string(1 - to)
                    assert f"reserve-draw {to} ??" in state.information_state_string(1 - to)
                    assert state.engine.hands[to] >> c & 1 or state.engine.phase == Phase.OVER
            draws += 1
            continue
        if not state.is_chance_node() and state.engine.phase == Phase.TWO and draws and resampled < 6:
            p = state.current_player()
            new = state.resample_from_infostate(p, sampler)
            assert new.information_state_string(p) == state.information_state_string(p)
            assert new.legal_actions() == state.legal_actions()
            _replayed(new.engine)
            resampled += 1
        _step(state, rng)
    assert draws == 12 and resampled == 6
    plain = _replayed(state.engine)
    assert plain.loser == state.engine.loser and plain.reserve == []


def _card(c: int) -> str:
    from skitgubbe.engine.cards import card_name

    return card_name(c)


def test_koira_split_is_dealt_by_chance_and_seen_by_all() -> None:
    """Koira for four: when a tied seat runs out during a war, the trick's cards are dealt one at
    a time round the tied seats' piles by chance nodes; everyone sees each card; a world at
    those chance nodes keeps every seat's view; the deal replays."""
    rules = PRESETS["koira"]
    rng = random.Random(17)
    cs = ChanceState.new(rules, 4, ask_every_seat=True)
    sampler = random.Random(1)
    splits = 0
    while not cs.is_over:
        e = cs.engine
        if e is not None and e.phase == Phase.DRECK and cs.pending is None:
            assert e.chance_seats and e.chance_to_piles and not e.needy
            cards = e.pending_deal()
            done = sum(1 << c for c in cs.deal_order)
            assert set(cs.outcome_cards()) == {c for c in range(52) if (cards & ~done) >> c & 1}
            seat = e.deal_seats()[len(cs.deal_order) % len(e.deal_seats())]
            for s in range(4):
                assert cs.visible(s) & cards == cards  # the trick is public
                _same_world_for(cs, s, sampler)
            card = rng.choice(cs.outcome_cards())
            cs.apply(card)
            assert cs.history[-1].card == card and cs.history[-1].slot == ("split", seat, -1)
            piles = cs.view(0).piles
            assert piles[seat] >> card & 1 or cs.engine.phase != Phase.DRECK
            splits += 1
            continue
        _cs_step(cs, rng)
    assert splits >= 2
    plain = _replayed(cs.engine)
    assert plain.loser == cs.engine.loser and plain.piles == cs.engine.piles


def test_an_unfinished_trick_dealt_round_is_public() -> None:
    """Rules with ``incomplete_trick_dealt`` (no preset has it): the cards of a trick left
    unfinished at the end of phase one are dealt into the hands by chance nodes seen by all."""
    rules = PRESETS["goat"].replace(incomplete_trick_dealt=True)
    game = pyspiel.load_game("python_skitgubbe", {"rules": "goat", "players": 4})
    state = game.new_initial_state()
    state.deal.cs = cs = ChanceState.new(rules, 4, ask_every_seat=True, action_limit=10_010)
    rng = random.Random(2)
    while not state.is_terminal():
        _step(state, rng)
    shared = [en for en in cs.history if en.slot is not None and en.slot.kind == "trick-dealt"]
    assert shared and all(en.slot.to == -1 for en in shared)
    for en in shared:
        seat = en.slot.seat
        assert f"trick-dealt {seat} {_card(en.card)}" in state.information_state_string((seat + 1) % 4) \
            or state.is_terminal()
    _replayed(cs.engine)


def test_dreck_set_aside_is_public() -> None:
    """catsatcards-flurst: dreck cards that do not share out evenly among the needy seats are set
    aside face up (killed): their chance nodes are seen by all, and the observation shows them
    killed while the rest of the dreck is still being dealt."""
    game = _load("catsatcards-flurst", 4)
    for seed in range(1, 20):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            cs = state.chance_state
            e = cs.engine
            aside = e is not None and e.phase == Phase.DRECK and cs.pending is None and (
                cs.slot().kind == "dreck-aside")
            _step(state, rng)
            if not aside:
                continue
            card = cs.history[-1].card
            assert cs.history[-1].slot == ("dreck-aside", -1, -1)
            assert f"dreck-aside -1 {_card(card)}" in state.deal.history_text(0)
            if state.is_chance_node():  # more set aside still to come
                assert all(state.view(s).killed >> card & 1 for s in range(4))
                continue
            assert state.engine.killed >> card & 1
            _replayed(state.engine)
            return
    raise AssertionError("some deal should set dreck cards aside")


# -- observers for every player ----------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), [("pagat", 3), ("goat", 4), ("koira", 4), ("two-player", 2),
                                                ("catsatcards-flurst", 5), ("mas", 3)])
def test_the_public_observer_is_the_same_for_every_player(rules: str, players: int) -> None:
    """The public observer (no private information) gives one tensor and one string at a state,
    whoever observes: absolute seats, no seat prefix, nothing of any hand; the all-private
    observer likewise, with every seat's hand; and two states with different hands but the same
    public history are told apart only by the all-private one."""
    from open_spiel.python.observation import make_observation  # type: ignore[import-untyped, unused-ignore]

    game = _load(rules, players)
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    full = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    checked = 0
    for state in _states(game, 31, every=7):
        for obs in (public, full):
            tensors, strings = set(), set()
            for p in range(players):
                obs.set_from(state, p)
                tensors.add(obs.tensor.tobytes())
                strings.add(obs.string_from(state, p))
            assert len(tensors) == 1 and len(strings) == 1
        public.set_from(state, 0)
        assert not public.dict["hand"].any() and not public.dict["my_window"].any()
        text = public.string_from(state, 0)
        assert text.startswith(f"{players} seats; ") and "hand:" not in text
        if state.engine is not None and not state.is_terminal():
            full.set_from(state, 0)
            for s in range(players):
                hand = state.view(s).hand  # (a chance deal under way included)
                assert [c for c in range(52) if full.dict["hands"][s][c]] == [
                    c for c in range(52) if hand >> c & 1]
        checked += 1
    assert checked > 10
    info_all = game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    assert info_all.string_from(state, 0) == info_all.string_from(state, players - 1)


def test_a_deck_played_through_openspiel_deals_what_the_engine_deals() -> None:
    """docs/research.md's DeckChance example runs as written, and following the deck through the
    pyspiel API (with the same moves) gives the engine's own deal of that deck, to the end."""
    import re
    from pathlib import Path

    from skitgubbe.engine.chance import DeckChance
    from skitgubbe.engine.state import deck_from_seed

    doc = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    code = next(c for c in re.findall(r"```python\n(.*?)```", doc, re.S) if "DeckChance" in c)
    exec(compile(code, "docs/research.md", "exec"), {})  # noqa: S102
    for rules, players in (("pagat", 3), ("goat", 4), ("koira", 4), ("mas", 2)):
        deck = deck_from_seed(5)
        state = _load(rules, players).new_initial_state()
        follow, crng, rng = DeckChance(deck, random.Random(5)), random.Random(5), random.Random(6)
        plain = State.new(PRESETS[rules], players, deck=deck, ask_every_seat=True)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(follow.outcome(state.chance_state))
                continue
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            plain.apply(encoding.action_of(a), plain.to_act)
            while plain.to_act == -1:
                plain.apply(plain.chance_action(crng), -1)
        assert state.engine.history == plain.history and state.engine.events == plain.events
