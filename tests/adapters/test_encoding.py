"""The shared action space and observation encoding (skitgubbe.adapters.encoding).

Checked: every id round-trips through its action; ids outside the space and chance actions are
refused; ``legal_ids`` is the sorted id list of ``legal_actions`` at every step of random deals of
every preset; observations have the documented length, stay in [0, 1] and put the observing seat
first; and an observation never changes when another seat's unseen cards, the stock order or the
face-down trump card change.
"""

from __future__ import annotations

import random

import pytest

from skitgubbe.adapters import encoding
from skitgubbe.engine.actions import CHANCE, Action, Kind, parse_action
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import card_name, mask_of, parse_cards
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.view import view_of


def _games(seed: int, per_preset: int = 3) -> list[tuple[str, int, int]]:
    rng = random.Random(seed)
    out = []
    for name, rules in sorted(PRESETS.items()):
        for _ in range(per_preset):
            out.append((name, rng.randint(rules.min_players, rules.max_players), rng.randrange(10**6)))
    return out


def _play(name: str, players: int, seed: int, steps: int | None = None) -> list[State]:
    """The states of one random deal (every one, or the first ``steps``)."""
    state = State.new(PRESETS[name], players, seed=seed)
    rng = random.Random(seed)
    states = [state.clone()]
    while not state.is_over and (steps is None or len(states) <= steps):
        state.apply(state.random_action(rng), state.to_act, trusted=True)
        states.append(state.clone())
    return states


def test_action_ids_round_trip() -> None:
    assert encoding.NUM_ACTIONS == 551
    seen = set()
    for i in range(encoding.NUM_ACTIONS):
        action = encoding.action_of(i)
        assert encoding.action_id(action) == i
        assert encoding.action_id(parse_action(str(action))) == i
        seen.add(action)
    assert len(seen) == encoding.NUM_ACTIONS


def test_documented_ids() -> None:
    assert encoding.action_of(0) == parse_action("play 2C")
    assert encoding.action_of(51) == parse_action("play AS")
    assert encoding.action_of(52) == parse_action("stock")
    assert encoding.action_of(53) == parse_action("sluff 2C")
    assert encoding.action_of(104) == parse_action("sluff AS")
    assert encoding.action_of(105) == parse_action("pass")
    assert encoding.action_of(106) == parse_action("pick")
    assert encoding.action_of(107) == parse_action("play 2C 3C")
    assert encoding.action_of(108) == parse_action("play 2C 3C 4C")
    assert encoding.action_of(119) == parse_action("play 3C 4C")
    assert encoding.action_of(184) == parse_action("play KC AC")
    assert encoding.action_of(185) == parse_action("play 2D 3D")
    assert encoding.action_of(418) == parse_action("play KS AS")
    assert encoding.action_of(419) == parse_action("play 2C 2D")
    assert encoding.action_of(encoding.STORE_ID) == encoding.action_of(549) == parse_action("store")
    assert encoding.action_of(encoding.EXCHANGE_ID) == encoding.action_of(550) == parse_action("exchange")


@pytest.mark.parametrize("bad", [-1, encoding.NUM_ACTIONS, 10**6])
def test_action_of_refuses_ids_outside_the_space(bad: int) -> None:
    with pytest.raises(ValueError, match="outside"):
        encoding.action_of(bad)


def test_action_id_refuses_chance_and_non_runs() -> None:
    with pytest.raises(ValueError, match="chance"):
        encoding.action_id(Action(Kind.DRECK, 0b11, (0, 1)))
    with pytest.raises(ValueError, match="no action id"):
        encoding.action_id(Action(Kind.PLAY, mask_of(parse_cards("2C 4C"))))
    with pytest.raises(ValueError, match="no action id"):
        encoding.action_id(Action(Kind.SLUFF, mask_of(parse_cards("2C 3C"))))
    with pytest.raises(ValueError, match="no action id"):  # a run across two suits
        encoding.action_id(Action(Kind.PLAY, mask_of(parse_cards("AC 2D"))))


@pytest.mark.parametrize(("name", "players", "seed"), _games(1))
def test_legal_ids_agree_with_legal_actions(name: str, players: int, seed: int) -> None:
    for state in _play(name, players, seed):
        for seat in range(players):
            ids = encoding.legal_ids(state, seat)
            legal = state.legal_actions(seat)
            assert ids == sorted(ids) and len(set(ids)) == len(ids)
            assert sorted(ids) == sorted(encoding.action_id(a) for a in legal)
            assert {encoding.action_of(i) for i in ids} == set(legal)
        if state.to_act == CHANCE:
            with pytest.raises(ValueError, match="chance"):
                encoding.action_id(state.legal_actions(CHANCE)[0])


def test_legal_ids_refuses_a_missing_seat() -> None:
    state = State.new(PRESETS["pagat"], 3, seed=1)
    with pytest.raises(ValueError, match="no seat"):
        encoding.legal_ids(state, 3)
    with pytest.raises(ValueError, match="no seat"):
        encoding.legal_ids(state, CHANCE)


@pytest.mark.parametrize(("name", "players", "seed"), _games(2, per_preset=2))
def test_observation_shape_and_range(name: str, players: int, seed: int) -> None:
    phases = set()
    for state in _play(name, players, seed)[::3]:
        phases.add(state.phase)
        for seat in range(players):
            view = view_of(state, seat)
            obs = encoding.observation(view)
            assert len(obs) == encoding.OBS_SIZE
            assert all(0.0 <= x <= 1.0 for x in obs)
            hand = [c for c in range(52) if obs[c] == 1.0]
            assert mask_of(hand) == view.hand
            present = dict((n, (o, s)) for n, o, s in encoding.OBS_FIELDS)["present"]
            assert obs[present[0]:present[0] + present[1]] == [1.0] * players + [0.0] * (8 - players)
            assert isinstance(encoding.observation_string(view), str)
    assert Phase.TWO in phases


def test_layout_is_contiguous_and_documented() -> None:
    off = 0
    for name, o, size in encoding.OBS_FIELDS:
        assert o == off, name
        assert encoding.__doc__ is not None and f"\n{o:<8d}{size}" in encoding.__doc__.replace("8x52", "416")
        off += size
    assert off == encoding.OBS_SIZE == 1652


def test_seats_are_rotated() -> None:
    state = State.new(PRESETS["goat"], 4, seed=3)
    fields = {n: (o, s) for n, o, s in encoding.OBS_FIELDS}
    o, _ = fields["hand_sizes"]
    state.apply(state.legal_actions()[0])
    for seat in range(4):
        view = view_of(state, seat)
        obs = encoding.observation(view)
        sizes = [round(obs[o + k] * 52) for k in range(4)]
        assert sizes == [view.hand_sizes[(seat + k) % 4] for k in range(4)]
        to_act = obs[fields["to_act"][0]:fields["to_act"][0] + 8]
        assert to_act.index(1.0) == (state.to_act - seat) % 4


def _swap_hidden(state: State, seat: int, rng: random.Random) -> State | None:
    """A copy of ``state`` in which cards that ``seat`` cannot see have changed places: another
    seat's unknown hand card with a stock card (not one face up under it), a reserve card or the
    face-down trump card, or unknown hand cards of two other seats with each other.  None if there
    is nothing to swap."""
    other = state.clone()
    places: list[tuple[str, int, int]] = []  # (where, index, card)
    for s in range(state.players):
        if s != seat:
            for c in range(52):
                if (state.hands[s] & ~state.known[s]) >> c & 1:
                    places.append(("hand", s, c))
    shown = 1 if state.rules.exposed_bottom else 0  # the card face up under the stock is public
    for i, c in enumerate(state.stock[shown:], start=shown):
        places.append(("stock", i, c))
    for i, c in enumerate(state.reserve):
        places.append(("reserve", i, c))
    if state.trump_card >= 0 and state.trump_suit < 0:
        places.append(("trump", 0, state.trump_card))
    if state.phase != Phase.ONE:
        places = [p for p in places if p[0] == "hand" and not (state.dreck >> p[2] & 1)]
    rng.shuffle(places)
    for a in places:
        for b in places:
            if a[1:] == b[1:] or (a[0] == b[0] == "hand" and a[1] == b[1]) or a[0] == b[0] != "hand":
                continue
            if state.trump_suit >= 0 and state.trump_card in (a[2], b[2]):
                continue
            for (where, i, c), new in ((a, b[2]), (b, a[2])):
                if where == "hand":
                    other.hands[i] ^= (1 << c) | (1 << new)
                elif where == "stock":
                    other.stock[i] = new
                elif where == "reserve":
                    other.reserve[i] = new
                else:
                    other.undealt.trump_card = new  # (a field write: through its part)
            return other
    return None


@pytest.mark.parametrize(("name", "players", "seed"), _games(3, per_preset=2))
def test_observation_ignores_cards_the_seat_cannot_see(name: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    swaps = 0
    for state in _play(name, players, seed)[::5]:
        for seat in range(players):
            other = _swap_hidden(state, seat, rng)
            if other is None:
                continue
            swaps += 1
            a, b = view_of(state, seat), view_of(other, seat)
            assert encoding.observation(a) == encoding.observation(b)
            assert encoding.observation_string(a) == encoding.observation_string(b)
            # the swap is real: some seat's own observation (or the stock) changed
            assert other.hands != state.hands or other.stock != state.stock or (
                other.trump_card != state.trump_card or other.reserve != state.reserve
            )
    assert swaps > 0


def test_observation_shows_own_cards_and_public_trick() -> None:
    first = parse_cards("7C 7D 4C 4D 4S QH 9H KC 2S JD 8H 9S 3D 6C 8C JS 2C")
    deck = first + [c for c in range(52) if c not in first]
    state = State.new(PRESETS["goat"], 3, dealer=0, deck=deck)
    state.apply(parse_action("play 7C"), 1)
    fields = {n: (o, s) for n, o, s in encoding.OBS_FIELDS}
    for seat in range(3):
        obs = encoding.observation(view_of(state, seat))
        c7 = parse_cards("7C")[0]
        assert obs[fields["trick"][0] + c7] == 1.0
        # seat 1 played it: block (1 - seat) % 3 of "round"
        assert obs[fields["round"][0] + 52 * ((1 - seat) % 3) + c7] == 1.0
        assert obs[fields["leader"][0] + (1 - seat) % 3] == 1.0
    text = encoding.observation_string(view_of(state, 2))
    assert "round 1: 1:7C" in text and "hand: " in text


def test_observation_shows_a_bottom_card_shown_at_the_deal() -> None:
    rules = PRESETS["pagat"].replace(exposed_bottom=True)
    state = State.new(rules, 3, seed=5)
    bottom = state.deck[-1]
    fields = {n: (o, s) for n, o, s in encoding.OBS_FIELDS}
    for seat in range(3):
        view = view_of(state, seat)
        obs = encoding.observation(view)
        assert obs[fields["exposed"][0] + bottom] == 1.0
        assert f"face up under the stock: {card_name(bottom)}" in encoding.observation_string(view)
    plain = encoding.observation(view_of(State.new(PRESETS["pagat"], 3, seed=5), 0))
    assert not any(plain[fields["exposed"][0]:fields["exposed"][0] + 52])
