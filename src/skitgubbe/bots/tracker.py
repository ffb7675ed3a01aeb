"""Card tracking: everything one seat can say about where the cards are, from its view alone.

:func:`track` reads a :class:`~skitgubbe.engine.view.View` and returns a :class:`Tracking`: for every seat
the cards known to be in its hand, the cards it will own when phase one ends as far as anyone can
tell (its pile of won tricks, which was collected face up, plus its known cards), how many of its
cards are unknown and which cards it may hold; the cards whose place this seat has not seen (other
hands, the stock, the face-down trump card, a face-down reserve pile); the cards on the table and the
cards killed; and, while
the trump suit is still hidden, the chance of each suit being trump.

The facts used, with their rule sources:

* the cards won in phase one lie face up in each seat's pile and join its hand when phase one ends
  (pagat.com Skitgubbe, "Play in the first phase"; Flurst page, "The First Part");
* the cards a seat picks up in phase two are seen by everyone (pagat.com, "Play in the second phase";
  Flurst page, "Following a trick"), and so are the cards a kill takes out of the deal;
* the trump suit is the suit of the last stock card, which nobody sees until phase one ends (pagat.com,
  "The Deal"; Flurst page, "Last card of the deck"), unless the rules show the bottom card after the
  deal (``exposed_bottom``): every card this seat has not seen is then equally likely to be it, so the
  chance of a suit is its share of those cards.

The engine already keeps the public part in the view (``piles``, ``known``, ``killed``, ``table``); this
module puts the pieces together and derives what a player counts in its head.  Inferences the rules allow
but which are not made: a seat that did not match a rank under "match if you can" held none of it at
that moment; a seat that was not asked in a sluff window could not sluff; the split of a dreck dealt to
several seats.  Every set this module gives is therefore safe: the true hand of a seat always contains
its ``known`` cards and lies within its ``possible`` cards (tests/test_tracker.py checks this against the
true state over random deals of every preset).

Card sets are ``int`` bitmasks (bit i = card i).  No randomness, no I/O, nothing preset-specific.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine.base import Phase
from ..engine.beating import anti_trump_suit
from ..engine.cards import SUIT_MASKS
from ..engine.view import View
from ..engine.worlds import unseen_places

__all__ = ["Tracking", "track", "beaters", "anti_suit"]


class Tracking(NamedTuple):
    """One seat's card tracking (see the module docstring).  Card sets are bitmasks.

    Attributes:
        seat: the observing seat.
        known: per seat, cards known to be in its hand (for ``seat``: its whole hand).
        unknown: per seat, how many cards of its hand are not known (0 for ``seat``).
        owned: per seat, the cards it is known to hold when phase one ends: ``known`` plus its pile
            (in phase two, ``known``).
        unseen: cards whose place ``seat`` does not know: the unknown cards of the other hands,
            the stock, a face-down trump card it has not seen and a face-down reserve pile.
        possible: per seat, the cards that may be in its hand now: ``known``, plus ``unseen`` if
            it has unknown cards (for ``seat``: its hand).
        table: cards on the table (the phase-one trick with its sluffs, or the phase-two plays).
        gone: cards out of the deal (killed in phase two).
        live: cards still in play that ``seat`` does not hold: in the other hands, piles, stock or on
            the table (the rules' ``pack`` less ``gone`` and the seat's hand).
        trump_odds: per suit 0..3, the chance that it is (or will be) trump, given what ``seat`` has
            seen; exactly 1.0 for a known trump suit.
        stock_size: cards left in the stock.
    """

    seat: int
    known: tuple[int, ...]
    unknown: tuple[int, ...]
    owned: tuple[int, ...]
    unseen: int
    possible: tuple[int, ...]
    table: int
    gone: int
    live: int
    trump_odds: tuple[float, float, float, float]
    stock_size: int

    def others_may_hold(self) -> int:
        """Card set: every card another seat may hold now or own when phase one ends (its
        possible cards and its pile)."""
        m = 0
        for s, p in enumerate(self.possible):
            if s != self.seat:
                m |= p | self.owned[s]
        return m


def _trump_odds(view: View, unseen: int) -> tuple[float, float, float, float]:
    """Chance of each suit being trump (module docstring)."""
    if view.trump_suit >= 0:
        return tuple(1.0 if s == view.trump_suit else 0.0 for s in range(4))  # type: ignore[return-value]
    if view.exposed_card >= 0:
        s0 = view.exposed_card // 13
        return tuple(1.0 if s == s0 else 0.0 for s in range(4))  # type: ignore[return-value]
    n = unseen.bit_count()
    if not n:  # nothing unseen: no information (a written position)
        return (0.25, 0.25, 0.25, 0.25)
    return tuple((unseen & SUIT_MASKS[s]).bit_count() / n for s in range(4))  # type: ignore[return-value]


def track(view: View) -> Tracking:
    """The :class:`Tracking` of ``view.seat`` from ``view`` alone.

    Raises ``ValueError`` if the view's counts do not add up (a view that no deal produces), as
    :func:`~skitgubbe.engine.worlds.unseen_places` does.
    """
    me = view.seat
    n = view.players
    places = unseen_places(view)
    unseen = places.hidden
    known = tuple(view.hand if s == me else view.known[s] for s in range(n))
    unknown = tuple(places.seats)
    one = view.phase == Phase.ONE
    owned = tuple(known[s] | view.piles[s] if one else known[s] for s in range(n))
    possible = tuple(known[s] | (unseen if unknown[s] else 0) for s in range(n))
    table = view.trick_cards()
    gone = view.killed
    live = view.rules.pack & ~gone & ~view.hand
    return Tracking(me, known, unknown, owned, unseen, possible, table, gone, live,
                    _trump_odds(view, unseen), view.stock_size)


def beaters(card: int, cards: int, trump: int, anti: int = -1) -> int:
    """The cards of ``cards`` (a card set) that beat ``card`` alone in phase two with ``trump`` the
    trump suit (0..3) and ``anti`` the anti-trump suit (-1 for none): the higher cards of its suit,
    and every trump when ``card`` is neither a trump nor an anti-trump (pagat.com Skitgubbe, "Play in
    the second phase"; "Anti-trumps").  Card sets are bitmasks."""
    suit = card // 13
    m = cards & SUIT_MASKS[suit] & ~((2 << card) - 1)
    if suit != trump and suit != anti and trump >= 0:
        m |= cards & SUIT_MASKS[trump]
    return m


def anti_suit(view: View) -> int:
    """The anti-trump suit of ``view``'s deal once trump is known, else -1."""
    if view.trump_suit < 0:
        return -1
    return anti_trump_suit(view.rules.anti_trump, view.trump_suit)
