"""Worlds one seat cannot tell apart: complete deals built from what that seat has seen.

A seat's :class:`~skitgubbe.engine.view.View` fixes everything public and its own hand; the cards
it has not seen may lie in several *places* (the other hands, the stock, a face-down trump card,
the avstickshög).  A :class:`Placement` says which unseen card goes where; :class:`Worlds` turns a
placement into a complete :class:`~skitgubbe.engine.state.State` whose view for that seat is the
view it started from.  This is the public constructor that search (``skitgubbe.bots.determinize``,
the IS-MCTS and counter bots) and any outside sampler use; nothing outside the engine writes a
State's fields.

Two starting points:

* ``Worlds(state, seat)``: from a complete state (the real one in a simulation); what ``seat``
  cannot see is read from ``view_of(state, seat)`` and a few public facts (module notes below).
* :meth:`Worlds.from_view` (and :func:`world_from_view` for one world): from a View alone, its
  public history included, so that a bot, which is only ever given a View, can build worlds.

**What every world keeps** (so that ``view_of(world, seat) == view``, every field): the seat's own
hand; everything public (the trick with its rounds and sluffs, the sluff window, the table, the
piles, killed cards, hand sizes, the stock size, who holds the face-down trump card, the trump
suit, who went out, the history with the order of a dreck dealt to several seats hidden, as the
view hides it); each seat's publicly known cards (``State.known``); the bottom stock card when the
rules show it (``exposed_bottom``), and the trump card it becomes.

**What a placement decides**: the unseen cards of each other hand, the stock's order, the
face-down trump card (phase one, or set aside at the deal under ``bottom_aside``) and the
avstickshög.  After a dreck dealt to several seats, the dreck cards still hidden in the needy
seats' hands must stay with them, each needy seat holding exactly as many as it still hides of its
share (:attr:`Worlds.shares`); the world's dreck action is given an order that deals them so.

**What a world does not respect** (inferences the rules allow but which are not made; each world
is still a legal deal that plays on to the end): "match if you can" (a seat that did not match a
rank held none of it then); who could sluff (a seat asked in a sluff window could, one not asked
could not); the trump card once phase one is over when the rules do not show it (the world's
``trump_card`` is a trump-suit card of the holder's hand, or -1); the order in which a seat drew
its cards, and so which cards another seat drew during its own sluffing occasion
(``sluff_once``: it may sluff any of its cards of the right ranks).

**Fields read** by ``Worlds(state, seat)`` beyond ``view_of(state, seat)``: only public facts,
``phase``, ``trump_holder``, ``trump_suit``, ``occasion`` (the seat now sluffing), ``dreck`` (the
dreck cards, collected face up), ``needy`` (the seats given the dreck: their hand sizes say so),
``dreck_move`` and the PLAY actions after it, and whether ``deck`` is empty (a written position).
A world's ``deck`` keeps only the shown bottom card (a world is not a deal that replays from its
deck), its ``position`` is None and its ``events`` are the seat's (``view.events``: no hidden card).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from .actions import Action, Kind
from .base import Phase
from .cards import SUIT_MASKS, card_label, cards_in
from .phase_one import Trick
from .rules import FirstPhase, Rules, StockEnd, short_repr
from .state import State
from .view import View, view_of

__all__ = [
    "UnseenPlaces",
    "unseen_places",
    "Placement",
    "PlacementError",
    "Worlds",
    "world_from_view",
    "RebuildError",
]

_PLAY, _STOCK, _SLUFF, _PASS, _PICK_UP, _DRECK = (
    Kind.PLAY, Kind.STOCK, Kind.SLUFF, Kind.PASS, Kind.PICK_UP, Kind.DRECK
)


class RebuildError(RuntimeError):
    """Raised by :meth:`Worlds.from_view` when its rebuilt trick disagrees with the view (an
    engine change this module does not know about); the message names the field."""


class PlacementError(ValueError):
    """Raised by :meth:`Worlds.build` for a placement that does not fit the unseen places: the
    message says which place and what it should hold."""


class UnseenPlaces(NamedTuple):
    """Where the cards one seat has not seen may be, and how many each place holds.

    Attributes:
        hidden: card set of the cards whose place the seat does not know.
        seats: per seat, how many unknown cards its hand holds (0 for the seat itself).
        stock: unknown stock cards (the whole stock, less a bottom card the rules show).
        exposed: the shown bottom card still at the bottom of the stock, else -1.
        trump_slot: True if a face-down trump card the seat has not seen lies apart (phase one).
        reserve: cards in the avstickshög (``rules.reserve``), all unseen.
    """

    hidden: int
    seats: tuple[int, ...]
    stock: int
    exposed: int
    trump_slot: bool
    reserve: int = 0


def unseen_places(view: View, *, visible: int = 0, one: bool | None = None) -> UnseenPlaces:
    """The places ``view.seat`` has not seen and their sizes, from its ``view``.

    ``visible``: further cards whose place is public but which the View does not show (the dreck
    while it waits to be dealt).  Raises ``ValueError`` if the counts do not add up (a View that
    no deal produces).  ``one``: the deal is in phase one (default: ``view.phase`` says so; a
    chance deal inside phase one, such as Koira's split, shows the dreck-deal phase).
    """
    rules = view.rules
    seen = view.hand | view.trick_cards() | view.killed | visible
    for m in view.known:
        seen |= m
    for m in view.piles:
        seen |= m
    # (a trump card the seat saw is placed by the above, or hidden in a share of a split dreck)
    if view.exposed_card >= 0:
        seen |= 1 << view.exposed_card
    one = view.phase == Phase.ONE if one is None else one
    shown_trump = one and view.trump_card >= 0  # face up as soon as drawn (trump_shown_when_drawn)
    if shown_trump:
        seen |= 1 << view.trump_card
    hidden = rules.pack & ~seen
    seats = tuple(0 if s == view.seat else view.hand_sizes[s] - view.known[s].bit_count()
                  for s in range(view.players))
    exposed = -1
    stock = view.stock_size
    if (one and stock and rules.exposed_bottom and not rules.bottom_aside and view.exposed_card >= 0):
        exposed = view.exposed_card
        stock -= 1
    trump_slot = (one and not rules.exposed_bottom and not shown_trump
                  and (rules.bottom_aside or view.trump_holder >= 0))
    total = sum(seats) + stock + int(trump_slot) + view.reserve_size
    if total != hidden.bit_count() or min(seats) < 0:
        raise ValueError(f"seat {view.seat} has {hidden.bit_count()} unseen cards but {total} unseen places")
    return UnseenPlaces(hidden, seats, stock, exposed, trump_slot, view.reserve_size)


class Placement(NamedTuple):
    """Where each card a seat has not seen goes (see :class:`Worlds`).  Card sets are bitmasks
    (bit i = card i); stock and avstickshög are lists of cards in :class:`State`'s order.

    Attributes:
        hands: per seat, the card set of unseen cards placed in its hand (0 for the observing
            seat and for every seat with no unseen cards); its size per seat is
            ``UnseenPlaces.seats``.
        stock: the unseen stock cards, bottom card first, the next card drawn last (as
            ``State.stock`` lists them; a shown bottom card is not among them: the world keeps it).
        trump_card: the face-down trump card when ``UnseenPlaces.trump_slot``, else -1.
        reserve: the avstickshög's cards, the next card drawn last (``UnseenPlaces.reserve`` of them).
    """

    hands: tuple[int, ...]
    stock: tuple[int, ...] = ()
    trump_card: int = -1
    reserve: tuple[int, ...] = ()


def _synthetic_deck(rules_exposed: bool, exposed: int, had_deck: bool, pack: int) -> tuple[int, ...]:
    """A deck order for a world: it keeps only what a seat sees of the real one (the shown
    bottom card; no deck at all for a written position); ``pack`` is the rules' card set."""
    if not had_deck:
        return ()
    if rules_exposed and exposed >= 0:
        return tuple(c for c in cards_in(pack) if c != exposed) + (exposed,)
    return tuple(cards_in(pack))


class Worlds:
    """The complete deals ``seat`` cannot tell from ``state``, built one :class:`Placement` at a
    time (module docstring: what is kept, what a placement decides, which fields are read).

    Args:
        state: any State consistent with what ``seat`` knows (the real one, or one built by
            :meth:`from_view`); it is not changed.
        seat: the observing seat, 0..players-1.

    Attributes:
        seat: the observing seat.
        places: its :class:`UnseenPlaces` (which cards are unseen, how many each place holds).
        shares: after a dreck dealt to several seats, ``{needy seat: dreck cards it still hides}``
            for the needy seats other than ``seat`` (a placement must put exactly that many unseen
            dreck cards in each); else None.
        dreck: the dreck cards those shares are drawn from (0 when ``shares`` is None).

    Raises ``ValueError`` for a seat that does not exist or a state whose counts do not add up.
    """

    def __init__(self, state: State, seat: int) -> None:
        view = view_of(state, seat)
        phase = state.phase
        self.base = state
        self.seat = seat
        self.one = phase == Phase.ONE or bool(state.chance_seats)  # a chance deal inside phase one
        self.places = unseen_places(view, visible=state.pending_deal(), one=self.one)
        self._unseen = list(cards_in(self.places.hidden))  # in card order
        self._events = list(view.events)  # what the seat saw happen: a world holds no other
        self._own_events = state.events != self._events  # a clone of the base must take them
        self._deck = _synthetic_deck(state.rules.exposed_bottom, view.exposed_card, bool(state.deck),
                                     state.rules.pack)
        self._trump_hidden = (view.trump_card < 0 and state.trump_holder >= 0 and state.trump_holder != seat
                              and phase != Phase.ONE and state.trump_suit >= 0)
        self.shares: dict[int, int] | None = None
        self.dreck: int = 0
        self._played_share: dict[int, int] = {}
        if phase in (Phase.TWO, Phase.OVER) and len(state.needy) > 1 and state.dreck_move >= 0:
            self._prepare_shares(state, view)

    @classmethod
    def from_view(cls, view: View, *, needy: Sequence[int] = (), events: bool = True, live: bool = False,
                  ask_every_seat: bool = False) -> Worlds:
        """The worlds of ``view.seat`` rebuilt from ``view`` alone: the public fields from the view
        and its public history.  Phase one: the current trick is replayed by the engine itself from
        the history (so every field of the trick, the sluff window included, is the engine's own),
        the stock size at its lead counted from the history.  Phase two: the rule flags come from
        the engine; the table, kill count, killed cards, who is out and Blåmattis from the view; a
        forced pick-up is on when the rules have it and the last action picked up from a table
        that is not yet empty.

        ``needy``: the seats the dreck was dealt to, in dealing order, when known (the View does
        not carry them); with two or more, placements keep the dreck cards among them.  Not
        rebuilt (the View does not carry them): ``tricks`` (0), ``deck`` (only
        its shown bottom card) and ``action_limit`` (the default).

        ``live``, ``ask_every_seat``: the sluffing protocol of the worlds, as given to
        :meth:`State.new <skitgubbe.engine.state.State.new>` for the real deal (the View does not
        carry it; by default the sequential protocol).  The trick so far and its open window are
        rebuilt from the view whichever it is; only the moves after it follow the protocol.

        ``events``: with False the worlds start with no events, so their views differ from
        ``view`` in ``events`` alone: for a search that never reads them (every clone of a world
        copies its events).

        Raises ``ValueError`` for a view of the dreck deal or of a finished deal (no seat decides
        there), :class:`RebuildError` if the rebuilt trick disagrees with the view.
        """
        if view.phase not in (Phase.ONE, Phase.TWO):
            what = Phase.NAMES[view.phase]
            raise ValueError(f"cannot rebuild a deal from a view of the {what}: no seat decides")
        history = list(view.history)
        st = _rebuild_one(view, history) if view.phase == Phase.ONE else _rebuild_two(view, history)
        st.seats.hands = [0] * view.players
        st.seats.hands[view.seat] = view.hand
        st.live, st.ask_all = live, ask_every_seat
        st.events = list(view.events) if events else []
        st.tricks = 0
        st.abandoned = False
        # a shown bottom card stays last; a written position (the rules show a bottom card, none is
        # shown) has no deck at all
        had_deck = not (view.rules.exposed_bottom and view.exposed_card < 0)
        rules = view.rules
        st.undealt.deck = _synthetic_deck(rules.exposed_bottom, view.exposed_card, had_deck, rules.pack)
        st.position = None
        st.needy = list(needy)
        st.dreck = 0
        st.dreck_move = -1
        for i, (_, a) in enumerate(history):
            if a.kind == _DRECK:
                st.dreck, st.dreck_move = a.cards, i
        # hands of the right sizes (the unseen part a placeholder), then the canonical world
        places = unseen_places(view)
        for s, k in enumerate(places.seats):
            if s != view.seat:
                st.seats.hands[s] = view.known[s] | _low_bits(places.hidden, k)
        worlds = cls(st, view.seat)
        worlds.fill(st, worlds.canonical_placement())
        worlds.base = st
        return worlds

    def _prepare_shares(self, state: State, view: View) -> None:
        """Count, for each needy seat, the dreck cards it still hides (see the module docstring)."""
        dreck = state.dreck
        needy = state.needy
        k = len(needy)
        size = dreck.bit_count()
        first = 0
        played = dict.fromkeys(needy, 0)
        for s, a in state.history[state.dreck_move + 1:]:
            if a.kind == _PLAY:
                new = a.cards & dreck & ~first
                if new:
                    first |= new
                    played[s] = played.get(s, 0) | new
        shares: dict[int, int] = {}
        places = self.places
        for i, v in enumerate(needy):
            left = len(range(i, size, k)) - played[v].bit_count()
            if v == self.seat:  # the seat's own share: in its hand, or played
                if left != (view.hand & dreck & ~view.known[v]).bit_count():
                    return  # not a state the dreck deal produced: no constraint
            elif not 0 <= left <= places.seats[v]:
                return
            else:
                shares[v] = left
        if sum(shares.values()) != (places.hidden & dreck).bit_count():
            return
        self.shares = shares
        self.dreck = dreck
        self._played_share = played

    def placement(self, rng: random.Random | None = None) -> Placement:
        """A placement of the unseen cards: drawn uniformly with ``rng`` (each place keeping its
        count, the needy seats' dreck shares (:attr:`shares`) kept), or with ``rng`` None in card
        order (:meth:`canonical_placement`).  The cards go first to the needy seats' shares, then
        to each other hand in seat order, the stock (its next card last), the face-down trump card
        and the avstickshög."""
        places = self.places
        counts = list(places.seats)
        hands = [0] * len(counts)
        pool = self._unseen
        shares = self.shares
        if shares is not None:
            dreck = self.dreck
            low = [c for c in pool if dreck >> c & 1]
            pool = [c for c in pool if not dreck >> c & 1]
            if rng is not None:
                rng.shuffle(low)
            i = 0
            for v, k in shares.items():
                m = 0
                for c in low[i:i + k]:
                    m |= 1 << c
                hands[v] = m
                counts[v] -= k
                i += k
        else:
            pool = pool.copy()
        if rng is not None:
            rng.shuffle(pool)
        i = 0
        for s, k in enumerate(counts):
            if k:
                m = 0
                for c in pool[i:i + k]:
                    m |= 1 << c
                hands[s] |= m
                i += k
        stock: tuple[int, ...] = ()
        trump = -1
        if self.one:
            stock = tuple(pool[i:i + places.stock])
            i += places.stock
            if places.trump_slot:
                trump = pool[i]
                i += 1
        reserve = tuple(pool[i:i + places.reserve]) if places.reserve else ()
        return Placement(tuple(hands), stock, trump, reserve)

    def canonical_placement(self) -> Placement:
        """The placement that deals the unseen cards in card order (:meth:`placement` without a
        generator)."""
        return self.placement(None)

    def check(self, placement: Placement) -> None:
        """Raise :class:`PlacementError` unless ``placement`` puts every unseen card in exactly one
        place, each place holding its count (:attr:`places`), and each needy seat its dreck share
        (:attr:`shares`).  The message names the place and the card."""
        places = self.places
        hidden = places.hidden
        n = len(places.seats)
        if not isinstance(placement, Placement) or len(placement.hands) != n:
            raise PlacementError(f"a placement is a Placement with one hand per seat ({n})")
        seen = 0

        def put(where: str, c: object) -> None:
            nonlocal seen
            if not isinstance(c, int) or not 0 <= c < 104:
                raise PlacementError(f"{where}: {short_repr(c)} is not a card number")
            if not hidden >> c & 1:
                raise PlacementError(f"{where}: {card_label(c)} is not an unseen card")
            if seen >> c & 1:
                raise PlacementError(f"{where}: {card_label(c)} is placed twice")
            seen |= 1 << c

        for s, (h, k) in enumerate(zip(placement.hands, places.seats, strict=True)):
            if not isinstance(h, int) or h < 0 or h.bit_count() != k:
                raise PlacementError(f"seat {s} holds {k} unseen cards, not {short_repr(h)}")
            for c in cards_in(h):
                put(f"seat {s}", c)
        stock_size = places.stock if self.one else 0
        for what, cards, size in (("stock", placement.stock, stock_size),
                                  ("avstickshög", placement.reserve, places.reserve)):
            if len(cards) != size:
                raise PlacementError(f"the {what} holds {size} unseen cards, not {len(cards)}")
            for c in cards:
                put(f"the {what}", c)
        slot = self.one and places.trump_slot
        if slot != (placement.trump_card >= 0):
            need = "the face-down trump card" if slot else "-1 (no face-down trump card is unseen)"
            raise PlacementError(f"trump_card must be {need}, not {short_repr(placement.trump_card)}")
        if slot:
            put("the trump card", placement.trump_card)
        if seen != hidden:  # pragma: no cover - the counts add up to the unseen cards
            raise PlacementError("the placement does not place exactly the unseen cards")
        if self.shares is not None:
            for v, k in self.shares.items():
                if (placement.hands[v] & self.dreck).bit_count() != k:
                    raise PlacementError(f"seat {v} still hides {k} cards of its dreck share")

    def build(self, placement: Placement, *, trusted: bool = False) -> State:
        """A new complete State: a copy of the base state with the unseen cards where ``placement``
        puts them.  ``view_of(world, seat)`` equals the seat's view.  The placement is checked
        (:meth:`check`, raising :class:`PlacementError`) unless ``trusted`` (a sampler that
        builds valid placements, such as :class:`~skitgubbe.bots.determinize.Determinizer`)."""
        if not trusted:
            self.check(placement)
        st = self.base.clone()
        self.fill(st, placement)
        return st

    def canonical(self) -> State:
        """The world of :meth:`canonical_placement`."""
        return self.build(self.canonical_placement(), trusted=True)

    def fill(self, st: State, placement: Placement) -> None:
        """Write ``placement`` into ``st``, a clone of the base state (what :meth:`build` does
        after cloning; for a sampler that reuses its own clones)."""
        places = self.places
        hands = st.hands
        known = st.known
        for s, h in enumerate(placement.hands):
            if places.seats[s]:
                hands[s] = known[s] | h
        if self.one:
            stock = list(placement.stock)
            if places.exposed >= 0:
                stock.insert(0, places.exposed)
            st.undealt.stock = stock
            if places.trump_slot:
                st.undealt.trump_card = placement.trump_card
            if 0 <= st.occasion != self.seat:  # another seat's sluffing occasion: its hand
                st.trick.occasion_hand = hands[st.occasion]
        elif self._trump_hidden:
            holder = st.trump_holder
            trumps = hands[holder] & ~known[holder] & SUIT_MASKS[st.trump_suit]
            st.undealt.trump_card = (trumps & -trumps).bit_length() - 1
        if places.reserve:  # the avstickshög
            st.undealt.reserve = list(placement.reserve)
        st.undealt.deck = self._deck
        if self._own_events:
            st.events = self._events.copy()
        st.position = None
        if self.shares is not None:
            self._rewrite_dreck_order(st)

    def _rewrite_dreck_order(self, st: State) -> None:
        """Give the world's dreck action an order that deals each needy seat its share."""
        dreck = self.dreck
        needy = st.needy
        k = len(needy)
        by_seat: list[list[int]] = []
        for v in needy:
            own = st.hands[v] & dreck & ~st.known[v]
            by_seat.append(sorted(cards_in(own | self._played_share.get(v, 0))))
        size = dreck.bit_count()
        if any(len(cards) != len(range(i, size, k)) for i, cards in enumerate(by_seat)):
            return  # pragma: no cover - _prepare_shares checked every share
        order = tuple(by_seat[j % k][j // k] for j in range(size))
        i = st.dreck_move
        s, a = st.history[i]
        st.history[i] = (s, Action(_DRECK, a.cards, order))


def world_from_view(view: View, placement: Placement | None = None, *, needy: Sequence[int] = (),
                    events: bool = True) -> State:
    """A complete State whose :func:`~skitgubbe.engine.view.view_of` for ``view.seat`` equals
    ``view``, built from the view alone (:meth:`Worlds.from_view`), with the unseen cards where
    ``placement`` puts them (default: in card order, :meth:`Worlds.canonical_placement`).
    ``events=False``: the world starts with no events (see :meth:`Worlds.from_view`).

    Raises ``ValueError`` for a view of the dreck deal or of a finished deal,
    :class:`PlacementError` for a placement that does not fit, :class:`RebuildError` if the
    rebuilt trick disagrees with the view."""
    worlds = Worlds.from_view(view, needy=needy, events=events)
    if placement is None:
        return worlds.base
    return worlds.build(placement)


class _ReplayTrick(Trick):
    """A trick part whose sluff windows follow a script: replaying the current phase-one trick
    from the public history, a seat may sluff exactly when the history shows it being asked next
    (``forced_seats``, a seat set, set before each step)."""

    forced_seats = 0

    def sluffable(self, st: State, s: int) -> int:
        """The script's answer: the seat set's bit ``s`` (not a card set: only its truth counts)."""
        return self.forced_seats >> s & 1


_templates: dict[tuple[Rules, int, int, int], State] = {}


def _template(rules: Rules, players: int, dealer: int, trump_suit: int) -> State:
    """A State whose fields the engine set up: for phase one (``trump_suit`` -1) a new deal, for
    phase two a position with that trump suit (the rule flags of phase two depend on it).  Cached;
    clone it before changing it."""
    key = (rules, players, dealer, trump_suit)
    st = _templates.get(key)
    if st is None:
        if trump_suit < 0:
            st = State.new(rules, players, dealer=dealer, deck=tuple(cards_in(rules.pack)))
        else:
            first = list(cards_in(rules.pack))[:players]  # (cards 0..players-1 of the full pack)
            st = State.from_phase_two(rules, [1 << c for c in first], trump_suit=trump_suit,
                                      leader=0, dealer=dealer)
        _templates[key] = st
    return st


def _stock_after(view: View, actions: Sequence[tuple[int, Action]]) -> int:
    """Stock cards left after ``actions`` from the deal: the stock size is public at every moment."""
    rules = view.rules
    left = (rules.pack_size - view.players * rules.hand_size - rules.reserve
            - (1 if rules.bottom_aside else 0))
    spare = 0 if rules.bottom_aside else 1
    for _, a in actions:
        kind = a.kind
        if kind == _PLAY:
            left -= min(a.cards.bit_count(), left)
        elif kind == _STOCK:
            left -= 1
        elif kind == _SLUFF:
            for _ in range(a.cards.bit_count()):
                if left and not (rules.restaurant and spare and left == 1):
                    left -= 1
    return left


def _trick_start(view: View, history: Sequence[tuple[int, Action]]) -> int:
    """Index in ``history`` of the lead of the current phase-one trick (its length if no card is in
    the trick yet): walking back, the trick's actions put exactly its cards on the table."""
    total = view.trick_cards().bit_count()
    got = 0
    i = len(history)
    while got < total and i > 0:
        i -= 1
        a = history[i][1]
        got += 1 if a.kind == _STOCK else a.cards.bit_count() if a.kind in (_PLAY, _SLUFF) else 0
    if total and (got != total or history[i][0] != view.leader or history[i][1].kind not in (_PLAY, _STOCK)):
        raise RebuildError("the history does not end with the current trick")
    return i


def _rebuild_one(view: View, history: list[tuple[int, Action]]) -> State:
    """Phase one: the state at the lead of the current trick, then the trick replayed by the
    engine itself with every hand full (hands only decide who may sluff, which the history shows,
    and who holds no card, which does not happen inside a trick).  The cards are dealt later."""
    rules, n = view.rules, view.players
    if rules.first_phase is FirstPhase.BEAT:
        return _rebuild_beat(view, history)
    t0 = _trick_start(view, history)
    stock0 = _stock_after(view, history[:t0])
    st = _template(rules, n, view.dealer, -1).clone()
    seats, undealt = st.seats, st.undealt
    full = rules.pack
    seats.hands = [full] * n
    if rules.stock_end is StockEnd.SKIP_EMPTY and stock0 == 0:
        # Koira: the seats without cards at the lead are skipped; the first round shows who had some
        first = {s for s, _ in view.rounds[0]} if view.rounds else set()
        if len(view.rounds) <= 1:
            first |= set(view.round_seats)
        seats.hands = [full if s in first else 0 for s in range(n)]
    seats.piles = list(view.piles)
    seats.known = list(view.known)
    undealt.stock = [0] * stock0
    undealt.reserve = [0] * view.reserve_size
    drawn = stock0 == 0 and not rules.bottom_aside
    undealt.trump_holder = view.trump_holder if drawn else -1
    undealt.trump_card = 0 if drawn or rules.bottom_aside else -1
    st.history = history[:t0]
    st.first_leader = history[0][0] if history else view.leader
    replay = object.__new__(_ReplayTrick)
    replay.__dict__.update(st.trick.__dict__)
    replay.last_winner = view.leader if any(view.piles) else -1
    st.trick = replay
    replay.start(st, view.leader)
    # after the action at i, the seats the history shows acting in the sluff window that follows
    window = 0
    for s in view.sluff_window:
        window |= 1 << s
    acts = history[t0:]
    forced = [0] * len(acts)
    run = window
    for i in range(len(acts) - 1, -1, -1):
        forced[i] = run
        s, a = acts[i]
        run = run | 1 << s if a.kind in (_PASS, _SLUFF) else 0
    for (s, a), f in zip(acts, forced, strict=True):
        if a.kind == _STOCK:
            if not st.stock:
                raise RebuildError("a card is turned up from an empty stock")
            st.stock[-1] = view.rounds[len(st.rounds) - 1][len(st.round_cards)][1]
        replay.forced_seats = f
        st.step(a, s)
    checks = (
        ("rounds", tuple(map(tuple, st.rounds)), view.rounds),
        ("sluffs", tuple(st.sluffs), view.sluffs),
        ("trick winner", st.winner, view.trick_winner),
        ("stock size", len(st.stock), view.stock_size),
        ("trump holder", st.trump_holder, view.trump_holder),
        ("phase", st.phase, view.phase),
        ("round seats", tuple(st.round_seats[st.round_pos:]) if st.winner < 0 else (), view.round_seats),
    )
    for what, got, want in checks:
        if got != want:
            raise RebuildError(f"the rebuilt trick disagrees with the view: {what} {got!r}, not {want!r}")
    out = st
    trick = object.__new__(Trick)  # the engine's own trick part again, with the replayed fields
    trick.__dict__.update(replay.__dict__)
    trick.__dict__.pop("forced_seats", None)
    out.trick = trick
    trick.pending = window
    out.to_act = view.to_act
    if undealt.trump_holder >= 0 or rules.bottom_aside:  # the trump card lies apart: shown, or dealt later
        undealt.trump_card = view.exposed_card if rules.exposed_bottom else max(view.trump_card, 0)
    undealt.trump_suit = view.trump_suit  # known in phase one when the trump card is shown as it is drawn
    if trick.occasion == view.seat:  # the seat's own sluffing occasion: what it may still sluff
        trick.occasion_hand = 0
        for a in view.legal:
            if a.kind == _SLUFF:
                trick.occasion_hand |= a.cards
    if window:
        trick.window_start = view.to_act if window >> view.to_act & 1 else view.sluff_window[0]
    return out


def _rebuild_beat(view: View, history: list[tuple[int, Action]]) -> State:
    """Mas (``FirstPhase.BEAT``): a trick is at most a lead and a beat, with no sluffing, so the
    public fields of the view say everything: no replay is needed."""
    rules, n = view.rules, view.players
    st = _template(rules, n, view.dealer, -1).clone()
    st.seats.piles = list(view.piles)
    st.seats.known = list(view.known)
    st.undealt.stock = [0] * view.stock_size
    if st.stock and view.exposed_card >= 0:
        st.undealt.stock[0] = view.exposed_card  # face up under the stock
    st.undealt.reserve = [0] * view.reserve_size
    st.undealt.trump_holder = view.trump_holder
    st.undealt.trump_card = view.trump_card
    st.undealt.trump_suit = view.trump_suit
    st.history = history
    st.first_leader = history[0][0] if history else view.leader
    st.trick.last_winner = -1
    led = False  # walk the tricks: a play after a lead is a beat, which wins the trick
    for s, a in history:
        if a.kind == _PLAY:
            if led:
                st.trick.last_winner = s
            led = not led
        elif a.kind == _PICK_UP:
            led = False
    leader = view.leader  # (the template's trick is empty: a new deal's)
    st.trick.leader = leader
    st.trick.round_seats = [leader, (leader + 1) % n]
    st.trick.round_cards = list(view.rounds[0]) if view.rounds else []
    st.trick.rounds = [st.round_cards]
    st.trick.round_pos = len(st.round_cards)
    for s, c in st.round_cards:
        st.trick.trick_cards |= 1 << c
        st.trick.contributed[s] |= 1 << c
        st.trick.last_put = c
    st.to_act = view.to_act
    return st


def _rebuild_two(view: View, history: list[tuple[int, Action]]) -> State:
    """Phase two: a phase-two template (the engine computes the rule flags for the trump suit),
    then the public fields of the view."""
    rules, n = view.rules, view.players
    st = _template(rules, n, view.dealer, view.trump_suit).clone()
    st.two.table = [p for _, p in view.table]
    st.two.table_owners = [s for s, _ in view.table]
    st.two.kill_at = view.kill_at
    st.two.killed = view.killed
    st.seats.out_order = list(view.out_order)
    st.loser = view.loser
    st.to_act = view.to_act
    st.seats.known = list(view.known)
    st.seats.piles = list(view.piles)
    st.undealt.stock = []
    st.undealt.reserve = [0] * view.reserve_size
    st.undealt.trump_holder = view.trump_holder
    st.undealt.trump_card = view.trump_card
    st.history = history
    st.first_leader = history[0][0] if history else view.to_act
    st.seats.blue = 0
    if view.phase == Phase.TWO:
        for s in range(n):
            if not view.hand_sizes[s] and s not in view.out_order:
                st.seats.blue |= 1 << s
    st.two.forced = bool(rules.forced_pickup and st.table and history and history[-1][1].kind == _PICK_UP)
    return st


def _low_bits(mask: int, k: int) -> int:
    """The ``k`` lowest cards of ``mask``."""
    out = 0
    for _ in range(k):
        low = mask & -mask
        out |= low
        mask ^= low
    return out
