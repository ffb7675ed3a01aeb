"""Property tests over random combinations of rule options.

Hypothesis draws every option of :class:`skitgubbe.engine.rules.Rules` from its domain (combinations that
``Rules(...)`` rejects with :class:`RulesError` are skipped), a seat count within the drawn bounds, a
deck seed, a dealer and the seed of the ``random.Random`` that picks each legal action (chance
included, through ``State.chance_action``).  Some games use the live sluffing protocol, and then
(and now and then otherwise) seats other than the one to act take their out-of-turn actions.

Checked after every action: each of the 52 cards (104 with two packs) is in exactly one place; the
seat to act has a legal action; ``random_action`` picks a listed legal action; no view shows a card
of another seat that is not publicly known (after every action in phase one, every fourth in phase
two, to keep the time).
Checked at the end: the deal ended without being abandoned and names a loser; its record dumps, loads
and replays to the same final state.
"""

from __future__ import annotations

import dataclasses
import enum
import random

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from helpers import pick
from skitgubbe.engine.actions import CHANCE, Kind
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import cards_in, mask_of
from skitgubbe.engine.record import dumps, loads, record_of, replay
from skitgubbe.engine.rules import Rules, RulesError
from skitgubbe.engine.state import State
from skitgubbe.engine.view import SPECTATOR, events_for, view_of

# -- drawing rules ------------------------------------------------------------------------------------

INT_DOMAINS: dict[str, st.SearchStrategy[int]] = {
    "hand_size": st.integers(1, 6),
    "max_equal_play": st.integers(1, 3),
    "dreck_below": st.one_of(st.just(-1), st.just(0), st.integers(1, 52)),
    "dreck_max_rank": st.integers(2, 14),
    "dreck_trump_rank": st.one_of(st.just(0), st.integers(2, 14)),
    "reserve": st.one_of(st.just(0), st.integers(1, 30)),
    "decks": st.sampled_from([1, 1, 1, 2]),  # the double deck now and then (its games are longer)
    "max_players_two_packs": st.sampled_from([0, 0, 8]),  # (the table is drawn within max_players)
    "lowest_rank": st.sampled_from([2, 2, 2, 9, 12, 13]),  # a short pack now and then
    "suits": st.sampled_from([4, 4, 4, 1, 2, 3]),
}
SEATS = ("min_players", "max_players")
WORDS = ("name", "loser_title")  # texts that change no rule


def option_strategy(field: dataclasses.Field[object]) -> st.SearchStrategy[object]:
    """Every value an option may take, from its type: booleans, enum members, or a listed int range."""
    default = field.default
    if isinstance(default, bool):
        return st.booleans()
    if isinstance(default, enum.Enum):
        return st.sampled_from(list(type(default)))
    assert field.name in INT_DOMAINS, f"option {field.name} needs a domain in INT_DOMAINS"
    return INT_DOMAINS[field.name]


def test_every_option_has_a_domain() -> None:
    # a new whole-number option needs its range in INT_DOMAINS, or no game here would ever draw it
    for f in dataclasses.fields(Rules):
        if f.name not in WORDS and f.name not in SEATS:
            assert isinstance(f.default, (bool, enum.Enum)) or f.name in INT_DOMAINS, f.name


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int]:
    """A valid ruleset with every option drawn, and a seat count it allows."""
    options: dict[str, object] = {}
    for f in dataclasses.fields(Rules):
        if f.name not in WORDS and f.name not in SEATS:
            options[f.name] = draw(option_strategy(f))
    low = draw(st.integers(2, 8))
    high = draw(st.integers(low, 8))
    try:
        rules = Rules(name="custom", min_players=low, max_players=high, **options)  # type: ignore[arg-type]
    except RulesError:
        reject()  # a combination the rules refuse
    return rules, 6 if rules.confusion else draw(st.integers(low, high))  # confusion: six seats


SLOW = [HealthCheck.too_slow, HealthCheck.filter_too_much]  # most drawn combinations are invalid

games = st.tuples(
    tables(),
    st.integers(0, 2**32),  # deck seed
    st.integers(0, 7),  # dealer
    st.integers(0, 2**32),  # play seed
    st.sampled_from([False, False, True]),  # live sluffing protocol now and then
)


# -- playing -------------------------------------------------------------------------------------------


def new_state(rules: Rules, players: int, deck_seed: int, dealer: int, live: bool) -> State:
    return State.new(rules, players, seed=deck_seed, dealer=dealer % players, live=live)


# -- checks --------------------------------------------------------------------------------------------


def places(state: State) -> dict[str, int]:
    """Every place a card can be, as card sets."""
    out: dict[str, int] = {}
    for t in range(state.players):
        out[f"hand {t}"] = state.hands[t]
        out[f"pile {t}"] = state.piles[t]
    out["stock"] = mask_of(state.stock)
    out["avstickshög"] = mask_of(state.reserve)
    tc = state.trump_card
    in_one = state.phase == Phase.ONE or bool(state.chance_seats)  # a chance deal inside phase one
    if tc >= 0 and (in_one or state.trump_suit < 0) and not any(h >> tc & 1 for h in state.hands):
        out["trump card apart"] = 1 << tc
    if in_one:
        out["trick"] = state.trick_cards
    for i, p in enumerate(state.table):
        out[f"table play {i}"] = p
    out["killed"] = state.killed
    if state.phase == Phase.DRECK and not state.chance_seats:
        out["dreck"] = state.dreck
    return out


def check_cards(state: State) -> None:
    """Each of the 52 cards (104 with two packs) is in exactly one place, and every part of the
    state keeps its invariants (:meth:`State.check_parts`)."""
    state.check_parts()
    assert len(set(state.stock)) == len(state.stock), "a card is twice in the stock"
    full = state.rules.pack  # (a short pack holds fewer)
    seen = 0
    for place, m in places(state).items():
        assert m >= 0 and not m & ~full, f"{place} is not a card set of the pack"
        assert not seen & m, f"{list(cards_in(seen & m))} are in {place} and somewhere else"
        seen |= m
    assert seen == full, f"cards {list(cards_in(full & ~seen))} are nowhere"
    if state.phase == Phase.ONE or state.chance_seats:  # (a chance deal inside phase one: Koira's split)
        on_table = mask_of(c for rnd in state.rounds for _, c in rnd) | mask_of(c for _, c in state.sluffs)
        assert on_table == state.trick_cards, "the rounds and sluffs disagree with the trick's cards"
    else:
        assert not any(state.piles) and not state.trick_cards, "phase one left cards behind"
        assert state.stock == [] and state.trump_suit >= 0, "phase one ended without naming trumps"


def check_to_act(state: State, rng: random.Random) -> None:
    """The seat to act has a legal action, and the fast sampler picks one of them."""
    if state.is_over:
        assert all(state.legal_actions(t) == [] for t in range(state.players))
        return
    legal = state.legal_actions()
    assert legal, f"seat {state.to_act} is to act with no legal action"
    for _ in range(2):
        action = state.random_action(rng)
        if state.to_act == CHANCE:  # one representative dreck order is listed; any order is legal
            assert action.kind is Kind.DRECK and state.can(action, CHANCE)
        else:
            assert action in legal


class Public:
    """What the table has seen of each hand, rebuilt from the events as a spectator sees them:
    cards a seat was seen to take (won tricks when phase one ends, cards taken back, exposed, a
    shown trump card, a dreck given to a single seat, pick-ups), less the cards it was seen to
    give up."""

    def __init__(self, players: int) -> None:
        self.hands = [0] * players
        self.piles = [0] * players
        self.seen = 0  # events read so far
        self.dreck = 0

    def update(self, state: State) -> list[int]:
        for e in events_for(state.events[self.seen:], SPECTATOR):  # as a spectator sees them
            k, s, m = e.kind, e.seat, e.cards
            if k in ("play", "sluff", "lead", "beat"):
                self.hands[s] &= ~m
            elif k in ("win", "split", "tie-share"):  # Koira's split and tie-deal: into piles, face up
                self.piles[s] |= m
            elif k == "end-one":
                for t, pile in enumerate(self.piles):
                    self.hands[t] |= pile
                self.piles = [0] * len(self.piles)
            elif k in ("take-back", "exposed", "pick-up", "trick-dealt") or (k == "trump" and s >= 0):
                self.hands[s] |= m  # a trump card set aside at the deal (seat -1) is in no hand
            elif k == "dreck":
                self.dreck = m
                self.hands = [h & ~m for h in self.hands]
            elif k == "dreck-dealt" and len(e.seats) == 1:
                self.hands[e.seats[0]] |= self.dreck
        self.seen = len(state.events)
        return self.hands


def check_views(state: State, public: Public) -> None:
    """Every view holds its own hand; of the other hands, only what the events showed (rebuilt
    independently by :class:`Public`); no face-down trump card; no hidden dreck order."""
    known = public.update(state)
    rules = state.rules
    assert state.known == known, f"known cards {state.known} differ from what the table saw {known}"
    sizes = tuple(h.bit_count() for h in state.hands)
    for v in range(state.players):
        view = view_of(state, v)
        assert view.hand == state.hands[v]
        sees = list(known)
        if rules.confusion:  # the partner hand is in sight (ruling CF2)
            sees[(v + 3) % 6] = state.hands[(v + 3) % 6]
        assert view.known == tuple(sees)
        assert view.hand_sizes == sizes
        if state.trump_suit < 0:
            assert view.trump_card == -1, "the face-down trump card shows"
        elif not (rules.show_trump_card or rules.exposed_bottom) and state.trump_holder not in (v, -1):
            assert view.trump_card == -1, "the trump card shows, though only its suit was named"
        if rules.exposed_bottom:
            assert view.exposed_card == state.deck[-1]
        else:
            assert view.exposed_card == -1
        if len(state.needy) > 1 and state.dreck_move >= 0:
            assert view.history[state.dreck_move][1].order == (), "the dreck order shows"
        for a in view.legal:
            assert a.cards & ~state.hands[v] == 0 or a.kind is Kind.DRECK, f"seat {v} is offered {a}"


def finished(state: State) -> None:
    assert state.is_over
    assert not state.abandoned, f"abandoned after {len(state.history)} actions"
    outcome = state.outcome
    assert outcome is not None and outcome.loser is not None
    assert outcome.loser not in outcome.out_order


# -- the properties ------------------------------------------------------------------------------------


@settings(max_examples=160, deadline=None, suppress_health_check=SLOW)
@given(games)
def test_cards_legal_actions_and_views(game: tuple) -> None:
    (rules, players), deck_seed, dealer, play_seed, live = game
    state = new_state(rules, players, deck_seed, dealer, live)
    rng, probe = random.Random(play_seed), random.Random(play_seed + 1)
    public = Public(players)
    check_cards(state)
    check_to_act(state, probe)
    check_views(state, public)
    while not state.is_over:
        seat, action = pick(state, rng)
        state.apply(action, seat)
        check_cards(state)
        check_to_act(state, probe)
        if state.phase != Phase.TWO or len(state.history) % 4 == 0 or state.is_over:
            check_views(state, public)  # every action in phase one, now and then in phase two
    finished(state)


@settings(max_examples=120, deadline=None, suppress_health_check=SLOW)
@given(games)
def test_records_round_trip(game: tuple) -> None:
    (rules, players), deck_seed, dealer, play_seed, live = game
    state = new_state(rules, players, deck_seed, dealer, live)
    rng = random.Random(play_seed)
    while not state.is_over:
        seat, action = pick(state, rng)
        state.apply(action, seat)
    finished(state)
    text = dumps(record_of(state, seed=deck_seed))
    record = loads(text)
    assert record.rules == rules and dumps(record) == text
    again = replay(record)
    assert again.history == state.history
    assert again.events == state.events
    assert again.hands == state.hands and again.killed == state.killed
    assert again.outcome == state.outcome


@settings(max_examples=80, deadline=None, suppress_health_check=SLOW)
@given(games)
def test_fast_sampler_plays_whole_games(game: tuple) -> None:
    """Games played by ``random_action`` alone (the simulation fast path) keep every card and end."""
    (rules, players), deck_seed, dealer, play_seed, _ = game
    state = new_state(rules, players, deck_seed, dealer, False)
    rng = random.Random(play_seed)
    while not state.is_over:
        action = state.random_action(rng)
        assert state.can(action), f"random_action gave {action}, which is not legal"
        state.apply(action, state.to_act, trusted=True)
        check_cards(state)
    finished(state)
