"""Property tests: random deals of every preset and seat count, played with uniformly random
legal actions, checked after every action.

A game is driven by hypothesis-chosen integers: the deck seed, the dealer and the seed of the
``random.Random`` that picks each action (and shuffles the dreck).  With ``live=True`` seats
other than the one to act are also given turns, as at a real table where anyone may sluff at
any moment; with ``live=False`` they are given such turns only now and then (the state module
says a legal sluff is accepted from any seat at any moment under either protocol).

Checked (see each test's docstring): every card in exactly one place; the deal ends within
the action limit and is never abandoned by random play; every listed legal action applies on a
clone; a selection of illegal actions is refused with the state untouched; views hold no hidden
card; clones are independent; replaying the same actions on the same deck gives the same state;
the outcome names one loser and every other seat going out.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import pick, snapshot, state_fields
from skitgubbe.engine.actions import CHANCE, Action, Kind
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import FULL_DECK, cards_in, is_run, mask_of, rank_of, suit_of
from skitgubbe.engine.rules import FirstPhase, Plays
from skitgubbe.engine.state import DEFAULT_ACTION_LIMIT, GameOverError, IllegalActionError, State
from skitgubbe.engine.variants import PRESETS, find_variant
from skitgubbe.engine.view import view_of

# Every (preset, seat count) the presets allow: pagat 2-4, goat 3-8.
TABLES = [
    (name, n)
    for name, rules in sorted(PRESETS.items())
    for n in range(rules.min_players, rules.max_players + 1)
]
assert {n for name, n in TABLES if name == "pagat"} == {2, 3, 4}
assert {n for name, n in TABLES if name == "goat"} == {3, 4, 5, 6, 7, 8}

tables = st.sampled_from(TABLES)
deck_seeds = st.integers(min_value=0, max_value=2**64)
play_seeds = st.integers(min_value=0, max_value=2**32)
dealers = st.integers(min_value=0, max_value=7)

Check = Callable[[State], None]


# -- driving a random game -------------------------------------------------------------------


def new_game(preset: str, players: int, deck_seed: int, dealer: int, live: bool) -> State:
    return State.new(find_variant(preset), players, seed=deck_seed, dealer=dealer % players, live=live)


def play_game(state: State, rng: random.Random, after: Check | None = None, *, stop: int = -1) -> State:
    """Play ``state`` with random legal actions (checked by ``apply``) until it ends, or until
    ``stop`` actions were taken; call ``after(state)`` after every action."""
    while not state.is_over and len(state.history) != stop:
        seat, action = pick(state, rng)
        state.apply(action, seat)
        if after is not None:
            after(state)
    return state


# -- where every card is ------------------------------------------------------------------------


def table_mask(state: State) -> int:
    m = 0
    for play in state.table:
        m |= play
    return m


def places(state: State) -> dict[str, int]:
    """Every place a card can be, as card sets."""
    out: dict[str, int] = {}
    for t in range(state.players):
        out[f"hand {t}"] = state.hands[t]
        out[f"pile {t}"] = state.piles[t]
    out["stock"] = mask_of(state.stock)
    out["avstickshög"] = mask_of(state.reserve)
    if trump_apart(state):
        out["trump card apart"] = 1 << state.trump_card
    out["trick"] = state.trick_cards
    for i, play in enumerate(state.table):
        out[f"table play {i}"] = play
    out["killed"] = state.killed
    if state.phase == Phase.DRECK and not state.chance_seats:  # (another chance deal: still the trick)
        out["dreck"] = state.dreck
    return out


def trump_apart(state: State) -> bool:
    """True if the trump card lies apart from every hand: set aside at the deal, or drawn (face
    down, or face up as soon as drawn) while phase one goes on; in Mas it is drawn into a hand."""
    tc = state.trump_card
    in_one = state.phase == Phase.ONE or bool(state.chance_seats)
    return tc >= 0 and (in_one or state.trump_suit < 0) and not any(h >> tc & 1 for h in state.hands)


def check_cards(state: State) -> None:
    """Each card of the rules' pack (the 52 cards, or the short pack's) is in exactly one place,
    and every part of the state keeps its invariants (:meth:`State.check_parts`)."""
    state.check_parts()
    assert len(set(state.stock)) == len(state.stock), "a card is twice in the stock"
    pack = state.rules.pack
    seen = 0
    where: dict[int, str] = {}
    for place, m in places(state).items():
        assert m >= 0 and not m & ~pack, f"{place} is not a card set of the pack: {m:#x}"
        clash = seen & m
        assert not clash, (
            f"cards {list(cards_in(clash))} are in {place} and in "
            f"{sorted({where[c] for c in cards_in(clash)})} (history {state.history[-3:]})"
        )
        for c in cards_in(m):
            where[c] = place
        seen |= m
    assert seen == pack, f"cards {list(cards_in(pack & ~seen))} are nowhere"
    if state.phase == Phase.ONE or state.chance_seats:  # (a chance deal inside phase one: Koira's split)
        on_table = 0
        for rnd in state.rounds:
            for _, c in rnd:
                on_table |= 1 << c
        for _, c in state.sluffs:
            on_table |= 1 << c
        assert on_table == state.trick_cards, "rounds and sluffs disagree with the trick's cards"
    else:
        assert not state.trick_cards and not any(state.piles), "trick or piles left over after phase one"


# -- snapshots -------------------------------------------------------------------------------


# -- legal actions ------------------------------------------------------------------------------


class _Fixed(random.Random):
    """A random.Random whose random() always returns ``u``."""

    def __init__(self, u: float) -> None:
        super().__init__(0)
        self.u = u

    def random(self) -> float:
        return self.u


def check_legal_actions(state: State) -> None:
    """acting_seats() lists exactly the seats with a legal action, the seat to act first; every
    listed legal action of every acting seat applies (checked) on a clone, which stays whole;
    random_action() picks from legal_actions() by the documented index."""
    if state.is_over:
        assert state.acting_seats() == []
        assert all(state.legal_actions(t) == [] for t in range(state.players))
        return
    acting = state.acting_seats()
    assert acting and acting[0] == state.to_act, f"to_act {state.to_act} not first in {acting}"
    assert len(set(acting)) == len(acting)
    for t in range(state.players):
        assert bool(state.legal_actions(t)) == (t in acting), f"seat {t}: acting_seats() disagrees"
    if state.to_act != CHANCE:
        legal = state.legal_actions()
        for u in (0.0, 0.3, 0.7, 0.999999):
            # random_action draws legal[int(u * len(legal))] for the rng's next random() = u
            assert state.random_action(_Fixed(u)) == legal[int(u * len(legal))], (u, legal)
    for seat in acting:
        legal = state.legal_actions(seat)
        assert len(set(legal)) == len(legal), f"seat {seat} has duplicate legal actions {legal}"
        for action in legal:
            assert state.can(action, seat)
            other = state.clone()
            other.apply(action, seat)
            assert len(other.history) == len(state.history) + 1
            check_cards(other)


# -- illegal actions ---------------------------------------------------------------------------


def _beats(card: int, top: int, trump: int, any_suit: bool = False) -> bool:
    """Does the single ``card`` beat the play ``top``?  (Written from the rule text: a higher card
    of the suit of the top play, or a trump on a non-trump; with ``beat_any_suit`` also a higher
    non-trump of another suit on a non-trump.)"""
    high = top.bit_length() - 1
    if suit_of(card) == suit_of(high):
        return rank_of(card) > rank_of(high)
    if any_suit and trump not in (suit_of(card), suit_of(high)):
        return rank_of(card) > rank_of(high)
    return suit_of(card) == trump


def illegal_actions(state: State, rng: random.Random) -> list[tuple[str, int, Action]]:
    """(what, seat, action) that the rules forbid now, derived from the rules, not from
    legal_actions()."""
    out: list[tuple[str, int, Action]] = []
    n = state.players
    seat = state.to_act
    ph = state.phase
    out.append(("no such seat", n, Action(Kind.PICK_UP)))
    out.append(("negative seat", -5, Action(Kind.PASS)))
    if ph == Phase.DRECK:
        h = state.hands[0]
        out.append(("a seat plays during the dreck deal", 0, Action(Kind.PLAY, h & -h)))
        deal = state.pending_deal()
        order = tuple(cards_in(deal))
        out.append(("the dreck dealt by a seat", 0, Action(Kind.DRECK, deal, order)))
        out.append(("a dreck order missing a card", CHANCE, Action(Kind.DRECK, deal, order[1:])))
        return out
    not_held = FULL_DECK & ~state.hands[seat]
    c = rng.choice(list(cards_in(not_held)))
    out.append(("a card not held", seat, Action(Kind.PLAY, 1 << c)))
    if state.stock:
        out.append(("the top stock card", seat, Action(Kind.PLAY, 1 << state.stock[-1])))
    others = [t for t in range(n) if t != seat and state.hands[t]]
    if others:
        t = rng.choice(others)
        h = state.hands[t]
        out.append(("a play out of turn", t, Action(Kind.PLAY, h & -h)))
        out.append(("another seat's card", seat, Action(Kind.PLAY, h & -h)))
    if ph == Phase.ONE:
        if state.rules.first_phase is not FirstPhase.BEAT:  # (Mas picks up in phase one)
            out.append(("pick up in phase one", seat, Action(Kind.PICK_UP)))
        out.append(("sluff a card not held", seat, Action(Kind.SLUFF, 1 << c)))
        if len(state.stock) <= (0 if state.rules.bottom_aside else 1):  # the bottom card is not turned up
            out.append(("stock with at most one stock card", seat, Action(Kind.STOCK)))
        if state.pending:
            out.append(("stock while the trick waits for sluffs", seat, Action(Kind.STOCK)))
        for t in range(n):
            if t != seat:
                out.append(("stock out of turn", t, Action(Kind.STOCK)))
                break
        for t in range(n):
            if not state.pending >> t & 1:
                out.append(("pass with no sluff window", t, Action(Kind.PASS)))
                break
        if not state.rules.sluffing and state.hands[seat]:
            h = state.hands[seat]
            out.append(("sluff without sluffing rules", seat, Action(Kind.SLUFF, h & -h)))
        if state.rules.sluffing and state.trick_cards:
            off = state.hands[seat] & ~_rank_mask(state.trick_cards)
            if off:
                out.append(("sluff of a rank not in the trick", seat, Action(Kind.SLUFF, off & -off)))
        if state.hands[seat].bit_count() >= 2 and not state.pending:
            h = state.hands[seat]
            two = (h & -h) | (1 << (h.bit_length() - 1))
            same_rank = (two & -two).bit_length() % 13 == two.bit_length() % 13
            if state.rules.max_equal_play == 1 or not same_rank:  # equal cards may go together
                out.append(("two cards to a phase-one trick", seat, Action(Kind.PLAY, two)))
    elif ph == Phase.TWO:
        hand = state.hands[seat]
        out.append(("stock in phase two", seat, Action(Kind.STOCK)))
        out.append(("pass in phase two", seat, Action(Kind.PASS)))
        if hand:
            out.append(("sluff in phase two", seat, Action(Kind.SLUFF, hand & -hand)))
        if not state.table:
            out.append(("pick up from an empty table", seat, Action(Kind.PICK_UP)))
        else:
            top = state.table[-1]
            any_suit = state.rules.beat_any_suit
            losers = [x for x in cards_in(hand) if not _beats(x, top, state.trump_suit, any_suit)]
            if losers:
                x = rng.choice(losers)
                out.append(("a card that does not beat", seat, Action(Kind.PLAY, 1 << x)))
        # two held cards that are not a run: different suits, or a gap, or ace + next suit's two
        cards = list(cards_in(hand))
        pairs = [
            (a, b) for i, a in enumerate(cards) for b in cards[i + 1:]
            if not is_run((1 << a) | (1 << b))
        ]
        if pairs:
            a, b = rng.choice(pairs)
            out.append(("a run that does not touch", seat, Action(Kind.PLAY, (1 << a) | (1 << b))))
        if state.rules.plays is Plays.SINGLE and hand.bit_count() >= 2:
            two = (hand & -hand) | (1 << (hand.bit_length() - 1))
            out.append(("two cards where the rules allow one", seat, Action(Kind.PLAY, two)))
        out.append(("a play of no cards", seat, Action(Kind.PLAY, 0)))
    return out


def _rank_mask(cards: int) -> int:
    m = 0
    for c in cards_in(cards):
        r = rank_of(c)
        for s in range(4):
            m |= 1 << (s * 13 + r - 2)
    return m


def check_illegal_actions(state: State, rng: random.Random) -> None:
    """Each forbidden action is refused with IllegalActionError (not GameOverError), is not
    listed as legal, and leaves the state exactly as it was."""
    if state.is_over:
        return
    before = snapshot(state)
    probes = illegal_actions(state, rng)
    for what, seat, action in rng.sample(probes, min(len(probes), 6)):
        legal = state.legal_actions(seat) if seat == CHANCE or 0 <= seat < state.players else []
        assert action not in legal, f"{what}: {action} by seat {seat} is listed as legal"
        e = refused(state, what, seat, action, before)
        assert e.seat == seat and e.action == action and e.reason, (what, e)


def refused(state: State, what: str, seat: int, action: Action, before: object) -> IllegalActionError:
    """The IllegalActionError (not GameOverError, not anything else) that ``action`` by ``seat``
    raises; can() must say no too, and the state must stay as ``before`` (its :func:`snapshot`)."""
    assert not state.can(action, seat), f"{what}: can() says yes to {action} by seat {seat}"
    try:
        state.apply(action, seat)
    except GameOverError:  # pragma: no cover - only on failure
        raise AssertionError(f"{what}: GameOverError before the game is over") from None
    except IllegalActionError as e:
        error = e
    else:  # pragma: no cover - only on failure
        raise AssertionError(f"{what}: {action} by seat {seat} was accepted")
    assert snapshot(state) == before, f"{what}: the refused {action} changed the state"
    return error


# -- views -------------------------------------------------------------------------------------


def public_dreck(state: State) -> int:
    """The dreck as the rules define it (public once the trump suit is known), less any card
    already out of play (a trump card set aside at the deal)."""
    rules = state.rules
    m = 0
    for r in range(2, rules.dreck_max_rank + 1):
        for s in range(4):
            m |= 1 << (s * 13 + r - 2)
    if rules.dreck_trump_rank and state.trump_suit >= 0:
        m |= 1 << (state.trump_suit * 13 + rules.dreck_trump_rank - 2)
    if state.trump_holder < 0 and state.trump_card >= 0:  # set aside at the deal: out of play
        m &= ~(1 << state.trump_card)
    return m


def check_view(state: State, seat: int) -> None:
    """The view of ``seat`` holds no card that ``seat`` may not see."""
    v = view_of(state, seat)
    n = state.players
    hidden = mask_of(state.stock) | mask_of(state.reserve)
    if state.exposed_card >= 0:
        hidden &= ~(1 << state.exposed_card)  # face up under the stock
    if state.trump_card >= 0 and state.trump_suit < 0:
        hidden |= 1 << state.trump_card
    for t in range(n):
        if t != seat:
            hidden |= state.hands[t] & ~state.known[t]
    assert v.seat == seat and v.players == n
    assert v.hand == state.hands[seat]
    assert v.hand_sizes == tuple(h.bit_count() for h in state.hands)
    assert v.stock_size == len(state.stock)
    assert v.known == tuple(state.known)
    for t in range(n):
        # a card said to be known in t's hand must be there (or in t's face-up pile in phase one)
        assert not v.known[t] & ~(state.hands[t] | state.piles[t]), f"known[{t}] names cards t lacks"
    assert v.piles == tuple(state.piles)
    assert v.killed == state.killed
    if state.trump_suit < 0:
        assert v.trump_card == -1, "the face-down trump card is shown before it is turned"
    elif state.rules.show_trump_card or seat == state.trump_holder:
        assert v.trump_card == state.trump_card
    else:  # only the suit is announced; the card stays its holder's secret
        assert v.trump_card == -1, "the trump card is shown to a seat other than its holder"
    seen = v.hand | v.killed
    for m in v.known + v.piles:
        seen |= m
    on_table = 0
    for rnd in v.rounds:
        for _, c in rnd:
            on_table |= 1 << c
    for _, c in v.sluffs:
        on_table |= 1 << c
    for _, p in v.table:
        on_table |= p
    if state.phase == Phase.ONE:
        assert on_table == state.trick_cards
    else:
        assert v.rounds == () and v.sluffs == ()
        assert on_table == table_mask(state)
    assert v.trick_cards() == on_table
    seen |= on_table
    # (once turned, the trump card is public as a fact about the deal, like the history; it
    # may since have gone into a hand with the dreck, so it is not counted as "seen there")
    legal = state.legal_actions(seat)
    assert v.legal == tuple(legal)
    for a in v.legal:
        assert not a.cards & ~v.hand, f"legal action {a} of seat {seat} uses cards it lacks"
        seen |= a.cards
    leak = seen & hidden
    assert not leak, f"seat {seat} sees hidden cards {list(cards_in(leak))}"
    # The public history: every action as taken (plays and sluffs are face up), except that the
    # order of a dreck dealt to several seats is hidden (it would tell who got which card).
    assert len(v.history) == len(state.history)
    for i, ((vs, va), (s, a)) in enumerate(zip(v.history, state.history, strict=True)):
        assert vs == s
        if a.kind != Kind.DRECK or i != state.dreck_move:  # (Koira's split, an incomplete trick: public)
            assert va == a
            continue
        assert va.cards == a.cards == public_dreck(state)
        if len(state.needy) > 1:
            assert va.order == (), "the dreck order is shown although several seats got the dreck"
        else:
            assert va.order == a.order


# -- outcome -----------------------------------------------------------------------------------


def check_outcome(state: State) -> None:
    """One loser, holding cards; every other seat went out exactly once, with no cards left."""
    out = state.outcome
    assert out is not None and state.phase == Phase.OVER and state.to_act == -2
    assert not out.abandoned, f"random play was abandoned after {len(state.history)} actions"
    assert out.loser is not None
    assert len(state.history) <= DEFAULT_ACTION_LIMIT
    n = state.players
    assert 0 <= out.loser < n
    assert state.hands[out.loser], "the loser holds no cards"
    assert out.loser not in out.out_order
    assert sorted(out.out_order) == sorted(set(range(n)) - {out.loser}), out
    for t in out.out_order:
        assert not state.hands[t], f"seat {t} went out but holds cards"


# -- the tests ---------------------------------------------------------------------------------

GAMES = {"table": tables, "deck_seed": deck_seeds, "dealer": dealers, "play_seed": play_seeds,
         "live": st.booleans()}


@settings(max_examples=14, deadline=None)
@given(**GAMES)
def test_every_card_in_one_place_and_legal_actions_apply(
    table: tuple[str, int], deck_seed: int, dealer: int, play_seed: int, live: bool
) -> None:
    """After every action: each card is in exactly one place; acting_seats() and legal_actions()
    agree and every legal action applies on a clone; the deal ends within the action limit, is
    not abandoned, and names one loser."""
    state = new_game(*table, deck_seed, dealer, live)
    check_cards(state)
    check_legal_actions(state)

    def after(s: State) -> None:
        check_cards(s)
        check_legal_actions(s)

    play_game(state, random.Random(play_seed), after)
    check_outcome(state)


@settings(max_examples=14, deadline=None)
@given(**GAMES)
def test_illegal_actions_are_refused_and_change_nothing(
    table: tuple[str, int], deck_seed: int, dealer: int, play_seed: int, live: bool
) -> None:
    """After every action, a selection of illegal actions (cards not held, wrong seat, stock when
    not allowed, pick up in phase one, pass with no window, a run that does not touch, a card that
    does not beat, ...) raises IllegalActionError and leaves the state exactly as it was."""
    state = new_game(*table, deck_seed, dealer, live)
    probe = random.Random(play_seed ^ 0x5EED)
    check_illegal_actions(state, probe)
    play_game(state, random.Random(play_seed), lambda s: check_illegal_actions(s, probe))
    check_outcome(state)
    with_error = state.clone()
    for seat in range(state.players):
        for action in (Action(Kind.PICK_UP), Action(Kind.PLAY, 1), Action(Kind.PASS)):
            try:
                with_error.apply(action, seat)
            except GameOverError:
                pass
            else:  # pragma: no cover - only on failure
                raise AssertionError(f"{action} accepted after the game ended")
    assert snapshot(with_error, full_history=True) == snapshot(state, full_history=True)


@settings(max_examples=16, deadline=None)
@given(**GAMES)
def test_views_hold_no_hidden_card(
    table: tuple[str, int], deck_seed: int, dealer: int, play_seed: int, live: bool
) -> None:
    """After every action, the view of one seat (each seat in turn) and, at each change of phase,
    of every seat: no other seat's unknown hand card, no stock card, no face-down trump card; the
    dreck order hidden when several seats got the dreck."""
    state = new_game(*table, deck_seed, dealer, live)
    n = state.players
    for seat in range(n):
        check_view(state, seat)
    last_phase = [state.phase]

    def after(s: State) -> None:
        if s.phase != last_phase[0]:
            last_phase[0] = s.phase
            for seat in range(n):
                check_view(s, seat)
        else:
            check_view(s, len(s.history) % n)

    play_game(state, random.Random(play_seed), after)
    for seat in range(n):
        check_view(state, seat)


@settings(max_examples=30, deadline=None)
@given(**GAMES)
def test_view_known_cards_are_in_that_hand(
    table: tuple[str, int], deck_seed: int, dealer: int, play_seed: int, live: bool
) -> None:
    """view.known[t] ("the card set publicly known to be in that hand", view.py) is a subset of
    seat t's hand after every action."""
    state = new_game(*table, deck_seed, dealer, live)

    def after(s: State) -> None:
        v = view_of(s, 0)
        for t in range(s.players):
            extra = v.known[t] & ~s.hands[t]
            assert not extra, (
                f"after {len(s.history)} actions (phase {s.phase}) known[{t}] holds "
                f"{list(cards_in(extra))}, which are not in seat {t}'s hand {list(cards_in(s.hands[t]))}"
            )

    play_game(state, random.Random(play_seed), after)


@settings(max_examples=40, deadline=None)
@given(**GAMES, cut=st.floats(min_value=0.0, max_value=1.0))
def test_clones_are_independent(
    table: tuple[str, int], deck_seed: int, dealer: int, play_seed: int, live: bool, cut: float
) -> None:
    """Playing a clone to the end never changes the original, and playing the original on never
    changes a clone taken earlier."""
    rng = random.Random(play_seed)
    full = play_game(new_game(*table, deck_seed, dealer, live), random.Random(play_seed))
    stop = int(cut * len(full.history))
    state = play_game(new_game(*table, deck_seed, dealer, live), rng, stop=stop)
    before = snapshot(state, full_history=True)
    other = state.clone()
    assert snapshot(other, full_history=True) == before
    play_game(other, random.Random(play_seed + 1))
    assert other.is_over
    assert snapshot(state, full_history=True) == before, "playing a clone changed the original"
    kept = state.clone()
    play_game(state, rng)
    assert snapshot(kept, full_history=True) == before, "playing the original changed its clone"
    check_cards(kept)
    # no list, nor list inside a list, is shared: scribbling on every one of a clone's leaves
    # the state it was taken from alone
    scribbled = kept.clone()
    for value in state_fields(scribbled).values():
        if type(value) is list:
            for inner in value:
                if type(inner) is list:
                    inner.append(None)
            value.append(None)
    assert snapshot(kept, full_history=True) == before, "a clone shares a list with its original"


@settings(max_examples=40, deadline=None)
@given(**GAMES)
def test_same_deck_and_actions_give_the_same_state(
    table: tuple[str, int], deck_seed: int, dealer: int, play_seed: int, live: bool
) -> None:
    """Applying the same actions to a new deal from the same deck order gives the same state,
    attribute for attribute, and the same outcome."""
    first = play_game(new_game(*table, deck_seed, dealer, live), random.Random(play_seed))
    again = State.new(first.rules, first.players, deck=first.deck, dealer=first.dealer, live=live)
    for seat, action in first.history:
        again.apply(action, seat)
    assert snapshot(again, full_history=True) == snapshot(first, full_history=True)
    assert again.outcome == first.outcome
    check_outcome(again)


@settings(max_examples=40, deadline=None)
@given(**GAMES)
def test_outcome_names_one_loser_and_everyone_else_out(
    table: tuple[str, int], deck_seed: int, dealer: int, play_seed: int, live: bool
) -> None:
    """The finished deal has exactly one loser, and out_order lists every other seat once."""
    state = play_game(new_game(*table, deck_seed, dealer, live), random.Random(play_seed))
    check_outcome(state)
    check_cards(state)
    assert [e.seat for e in state.events if e.kind == "out"] == list(state.outcome.out_order)
    assert [e.seat for e in state.events if e.kind == "loser"] == [state.outcome.loser]
