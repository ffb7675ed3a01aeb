"""The cards not dealt to a hand: one part of a :class:`~skitgubbe.engine.state.State` (issue 15,
item 4).  The stock, the avstickshög, the trump card and the deck order.

Rule sources: pagat.com Skitgubbe, "Play in the first phase" (drawing, the last stock card) and
"Two Player Game" (the avstickshög); the Swedish Goat Game / Flurst page, "The First Part" (the
last card of the deck); catsatcards.com (the trump card shown as it is drawn).

Card sets are ``int`` bitmasks (bit i = card i, :mod:`skitgubbe.engine.cards`); a card is an
``int`` 0..51 (0..103 with two packs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Event
from .cards import cards_in, suit_of

if TYPE_CHECKING:
    from .state import State

__all__ = ["Undealt"]

_event = tuple.__new__  # builds an Event from a full 5-tuple without the Python-level __new__ (hot path)


class Undealt:
    """The stock, the avstickshög and the trump card: a part of the state that owns its data.

    Attributes (the engine writes them, everyone else reads):
        deck: the deck order the deal was dealt from (tuple of cards, first card dealt first), or
            ``()`` for a position with no deal behind it.
        stock: the stock (list of cards), top card last.
        reserve: the avstickshög (list of cards, two seats), top card last.
        trump_card: the trump card (a card), -1 until it is drawn or set aside.
        trump_holder: the seat that drew the trump card, -1 if none.
        trump_suit: the trump suit 0..3 (clubs, diamonds, hearts, spades), -1 until revealed.
        spare: how many stock cards (0 or 1) can neither be turned up nor replace a sluff: the
            bottom card, which becomes the trump card (0 when it was set aside at the deal).

    Invariants (:meth:`check`): the stock and the avstickshög hold distinct cards of the deal's
    packs and share none; a trump card that is set (>= 0) is in neither; ``trump_holder`` and
    ``trump_suit`` are -1 or a seat and a suit; ``spare`` is 0 or 1; ``deck`` is empty or every
    card of the deal's packs once.  (A world built from a view, :mod:`skitgubbe.engine.worlds`,
    may hold placeholder cards until its placement is written.)
    """

    def __init__(self, deck: tuple[int, ...], stock: list[int], reserve: list[int]) -> None:
        """The undealt cards of a deal from ``deck``: ``stock`` and ``reserve`` top card last;
        no trump card yet.  Raises nothing (:meth:`State.new <skitgubbe.engine.state.State.new>`
        checks the deck)."""
        self.deck = deck
        self.stock = stock
        self.reserve = reserve
        self.trump_card = -1
        self.trump_holder = -1
        self.trump_suit = -1
        self.spare = 1

    def copy(self) -> Undealt:
        """An independent copy: the stock and the avstickshög copied (the deck is a tuple).

        The fields are set one by one, in the order ``__init__`` sets them, so that the copy
        keeps CPython's compact attribute layout (a copy made through ``__dict__`` reads its
        attributes several times slower)."""
        other = object.__new__(type(self))
        other.deck = self.deck
        other.stock = self.stock.copy()
        other.reserve = self.reserve.copy()
        other.trump_card = self.trump_card
        other.trump_holder = self.trump_holder
        other.trump_suit = self.trump_suit
        other.spare = self.spare
        return other

    def draw(self, st: State, seat: int) -> None:
        """Seat ``seat`` draws the top stock card into its hand (nothing if the stock is empty).
        The last stock card is the trump card: set aside face down (pagat.com, "keeps it face
        down"), shown as it is drawn (``trump_shown_when_drawn``, catsatcards.com), or in Mas drawn
        into the hand face up; with ``bottom_aside`` it was set aside at the deal and every stock
        card is drawn (Flurst, "No bottom card").  Records the event (``draw``, ``trump-aside``
        or ``trump-drawn``)."""
        stock = self.stock
        if not stock:
            return
        c = stock.pop()
        seats = st.seats
        if stock or st.rules.bottom_aside:
            seats.hands[seat] |= 1 << c
            st.events.append(_event(Event, ("draw", seat, 1 << c, (), seats.sees[seat])))
        elif st.trick.beat:  # Mas: the turned-up trump is drawn into the hand, face up
            seats.hands[seat] |= 1 << c
            seats.known[seat] |= 1 << c
            self.trump_card = c
            self.trump_holder = seat
            st.events.append(Event("draw", seat, 1 << c))
        else:
            self.trump_card = c
            self.trump_holder = seat
            if st.rules.trump_shown_when_drawn:  # catsatcards.com: put face up at once
                self.trump_suit = suit_of(c)
                st.events.append(Event("trump-drawn", seat, 1 << c, (self.trump_suit,)))
            else:  # face down: nobody sees it until the trump is turned (pagat.com, "keeps it face down")
                st.events.append(Event("trump-aside", seat))

    def draw_up(self, st: State, seat: int) -> None:
        """Mas: seat ``seat`` draws (:meth:`draw`) until it holds ``rules.hand_size`` cards or the
        stock is empty (pagat.com, "Mas")."""
        while self.stock and st.seats.hands[seat].bit_count() < st.rules.hand_size:
            self.draw(st, seat)

    def draw_reserve(self, st: State, last: int) -> None:
        """Two seats with an avstickshög (pagat.com, "Two Player Game"): after a kill each seat
        draws one card from it, ``last`` (the seat that played last) first.  A seat with no cards
        once the pile is empty is out, and then the other loses."""
        seats = st.seats
        pair = (last, 1 - last)
        for seat in pair:
            if self.reserve:
                c = self.reserve.pop()
                seats.hands[seat] |= 1 << c
                st.events.append(Event("reserve-draw", seat, 1 << c, (), seats.sees[seat]))
        if self.reserve:
            return
        for seat in pair:
            if not seats.hands[seat] and seat not in seats.out_order:
                seats.out_order.append(seat)
                st.events.append(Event("out", seat))
        holding = [seat for seat in pair if seats.hands[seat]]
        if len(holding) == 1:
            st.finish(holding[0])

    def check(self, full: int, players: int) -> None:
        """Raise ``AssertionError`` naming the first invariant (class docstring) that fails;
        ``full`` is every card of the deal's packs (card set), ``players`` the number of seats."""
        seen = 0
        for where, cards in (("stock", self.stock), ("avstickshög", self.reserve)):
            for c in cards:
                if not isinstance(c, int) or not 0 <= c < full.bit_length() or not full >> c & 1:
                    raise AssertionError(f"undealt: {c!r} in the {where} is not a card")
                if seen >> c & 1:
                    raise AssertionError(f"undealt: card {c} is twice in the stock and the avstickshög")
                seen |= 1 << c
        if self.trump_card >= 0 and seen >> self.trump_card & 1:
            raise AssertionError("undealt: the trump card is still in the stock or the avstickshög")
        if not -1 <= self.trump_holder < players or not -1 <= self.trump_suit < 4:
            raise AssertionError("undealt: the trump holder or the trump suit is out of range")
        if self.spare not in (0, 1):
            raise AssertionError(f"undealt: spare is {self.spare}, not 0 or 1")
        if self.deck and sorted(self.deck) != list(cards_in(full)):
            raise AssertionError("undealt: the deck order is not every card once")
