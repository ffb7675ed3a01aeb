"""What one seat may see: the only thing a bot, a client or a front end is given.

A :class:`View` holds the seat's own hand, everything public (the table, pile
contents, hand sizes, the stock size, the trump once turned, who went out,
the public history) and the cards publicly known to be in each hand (cards a
seat was seen to take: won tricks, pick-ups, cards taken back or exposed at
the end of phase one, a dreck given to a single seat).  It never holds another
seat's unseen cards, the stock order, or the face-down trump card before it is
turned (Flurst "Last card of the deck"; pagat.com "keeps it face down").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, TypeVar, overload

from .actions import Action, Kind
from .base import PUBLIC, Event, Phase
from .rules import Rules
from .state import State

__all__ = ["View", "History", "SeenEvents", "view_of", "event_for", "events_for", "SPECTATOR"]

_T = TypeVar("_T")

SPECTATOR = -3
"""The ``seat`` of a spectator's view (:func:`view_of`): no hand, no legal actions, only what
every seat may see."""


class View(NamedTuple):
    """One seat's view of a deal (an immutable named tuple).  Card sets are bitmasks
    (bit i = card i).

    Attributes:
        seat: whose view this is (0-based).
        players, dealer, rules: the table.
        phase: a :class:`~skitgubbe.engine.base.Phase` constant.
        to_act: seat whose decision is pending (-1 chance, -2 game over).
        hand: this seat's hand (card set).
        hand_sizes: cards in each hand, per seat.
        piles: per seat, the cards won in phase-one tricks (public: each was face up).
        known: per seat, the card set publicly known to be in that hand (under
            ``rules.confusion``, the partner hand's whole hand too: one player holds both).
        stock_size: cards left in the stock (the face-down trump card excluded).
        trump_holder: seat holding the face-down trump card, -1 before it is drawn.
        trump_card: the trump card once turned face up (or to its holder), else -1.
        trump_suit: 0..3 once known, else -1.
        leader: the seat that led the current trick (phase one) or -1.
        rounds: phase one, the plays of each round of the current trick, as
            ``((seat, card), ...)`` per round; a bounce or war adds a round.
        round_seats: phase one, the seats due to play in the current round, in order.
        sluffs: phase one, ``(seat, card)`` for each card sluffed into the trick.
        trick_winner: phase one, the winner of a settled trick awaiting sluffs, else -1.
        sluff_window: seats asked to sluff or pass now.
        table: phase two, the plays on the table bottom first, ``(seat, card set)``.
        kill_at: phase two, plays that kill the current trick.
        killed: phase two, card set of every card killed so far.
        out_order: seats that have gone out, in order.
        loser: the loser once the deal is over, else None.
        history: public history, ``(seat, Action)``; the order of a dreck dealt to
            several seats is hidden (``order`` empty).
        legal: this seat's legal actions now.
        exposed_card: the card face up under the stock (``rules.exposed_bottom``; in Mas
            the turned-up trump or the 2 of trumps exchanged for it), else -1.
        reserve_size: cards left in the avstickshög (``rules.reserve``), else 0.
        events: every event of the deal so far as this seat may see it (:class:`SeenEvents`:
            each one passed through :func:`event_for`, the same function that makes the events
            of one step fit to show a seat), from the deal on.  A bot, the terminal and the web
            table all read what happened through that function, so they cannot disagree.
    """

    seat: int
    players: int
    dealer: int
    rules: Rules
    phase: int
    to_act: int
    hand: int
    hand_sizes: tuple[int, ...]
    piles: tuple[int, ...]
    known: tuple[int, ...]
    stock_size: int
    trump_holder: int
    trump_card: int
    trump_suit: int
    leader: int
    rounds: tuple[tuple[tuple[int, int], ...], ...]
    round_seats: tuple[int, ...]
    sluffs: tuple[tuple[int, int], ...]
    trick_winner: int
    sluff_window: tuple[int, ...]
    table: tuple[tuple[int, int], ...]
    kill_at: int
    killed: int
    out_order: tuple[int, ...]
    loser: int | None
    history: History
    legal: tuple[Action, ...]
    exposed_card: int = -1
    reserve_size: int = 0
    events: Sequence[Event] = ()

    @property
    def my_turn(self) -> bool:
        """True if this seat's decision is pending."""
        return self.to_act == self.seat

    def trick_cards(self) -> int:
        """Card set of every card now on the table."""
        m = 0
        for rnd in self.rounds:
            for _, c in rnd:
                m |= 1 << c
        for _, c in self.sluffs:
            m |= 1 << c
        for _, p in self.table:
            m |= p
        return m


class _Snapshot(Sequence[_T]):
    """A read-only snapshot of a list that only ever grows (a state's history or events): it
    shares the list and remembers its length, so taking it costs O(1).  :meth:`_shown` makes item
    ``i`` fit to show as it is read.  Slices are tuples; a snapshot equals the tuple (or snapshot
    of the same class) of the same items."""

    __slots__ = ("_items", "_n")
    _what = "snapshot"

    def __init__(self, items: list[Any], n: int) -> None:
        self._items = items
        self._n = n

    def _shown(self, i: int) -> _T:
        raise NotImplementedError  # pragma: no cover - each subclass says

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> _T: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[_T, ...]: ...

    def __getitem__(self, i: int | slice) -> _T | tuple[_T, ...]:
        if isinstance(i, slice):
            return tuple(self._shown(j) for j in range(*i.indices(self._n)))
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(f"{self._what} index out of range")
        return self._shown(i)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (type(self), tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({tuple(self)!r})"


class History(_Snapshot[tuple[int, Action]]):
    """A seat's read-only snapshot of the public history: ``(seat, Action)`` pairs.

    Taking it costs O(1): it shares the state's history list, which only ever grows,
    and remembers its length.  The order of a dreck dealt to several seats is hidden
    (its action's ``order`` is empty).  Slices are tuples; a History equals the
    tuple (or History) of the same pairs.
    """

    __slots__ = ("_hide",)
    _what = "history"

    def __init__(self, items: list[tuple[int, Action]], n: int, hide: int = -1) -> None:
        super().__init__(items, n)
        self._hide = hide

    def _shown(self, i: int) -> tuple[int, Action]:
        item: tuple[int, Action] = self._items[i]
        if i == self._hide:
            return item[0], Action(Kind.DRECK, item[1].cards)
        return item


class SeenEvents(_Snapshot[Event]):
    """The events of a deal as one seat (or :data:`SPECTATOR`) may see them: item i is
    :func:`event_for` of the state's event i (its cards zeroed where hidden from the seat).

    Taking it costs O(1), as for :class:`History`: it shares the state's event list, which only
    ever grows, and remembers its length; each event is made fit to show when it is read.
    Slices are tuples; a SeenEvents equals the tuple (or SeenEvents) of the same events.
    """

    __slots__ = ("_seat",)
    _what = "event"

    def __init__(self, items: list[Event], n: int, seat: int) -> None:
        super().__init__(items, n)
        self._seat = seat

    def _shown(self, i: int) -> Event:
        return event_for(self._items[i], self._seat)


def event_for(event: Event, seat: int) -> Event:
    """``event`` as ``seat`` (0..players-1, or :data:`SPECTATOR`) may see it: itself when its
    cards are public or ``seat`` is in its ``to`` mask, else the same event with ``cards`` 0 (the
    kind, the seats and the fact that it happened are public; "Seat 1 draws a card")."""
    to = event.to
    if to == PUBLIC or (seat >= 0 and to >> seat & 1) or not event.cards:
        return event
    return event._replace(cards=0)


def events_for(events: Sequence[Event], seat: int) -> tuple[Event, ...]:
    """Each of ``events`` as ``seat`` (or :data:`SPECTATOR`) may see it (:func:`event_for`):
    what :meth:`State.apply <skitgubbe.engine.state.State.apply>` returned, made fit to show that seat."""
    return tuple(event_for(ev, seat) for ev in events)


def _public_history(state: State) -> History:
    hide = state.dreck_move if len(state.needy) > 1 else -1
    return History(state.history, len(state.history), hide)


def _known(state: State, seat: int) -> tuple[int, ...]:
    """The known cards of every hand as ``seat`` sees them: 3-player confusion shows the partner
    hand (Flurst, "3-player confusion": one player holds and looks at both hands); a spectator
    (:data:`SPECTATOR`) sees only the publicly known cards."""
    known = list(state.known)
    p = state.partner(seat) if seat >= 0 else -1
    if p >= 0:
        known[p] = state.hands[p]
    return tuple(known)


def view_of(state: State, seat: int) -> View:
    """The :class:`View` of ``seat`` (0..players-1), or with ``seat`` = :data:`SPECTATOR` what
    every seat may see: no hand (0), no legal actions, only the publicly known cards of each hand
    (never a 3-player-confusion partner hand) and the trump card only once it is face up for all.

    Raises ``ValueError`` for any other seat number.
    """
    spectator = seat == SPECTATOR
    if not (spectator or 0 <= seat < state.players):
        raise ValueError(f"there is no seat {seat}: seats are 0..{state.players - 1}, "
                         f"or SPECTATOR ({SPECTATOR})")
    one = state.phase == Phase.ONE
    revealed = state.trump_suit >= 0
    pending = state.pending
    return View(
        seat,
        state.players,
        state.dealer,
        state.rules,
        state.phase,
        state.to_act,
        0 if spectator else state.hands[seat],
        tuple(map(int.bit_count, state.hands)),
        tuple(state.piles),
        _known(state, seat),
        len(state.stock),
        state.trump_holder,
        state.trump_card if revealed and (state.rules.show_trump_card or state.rules.exposed_bottom
                                          or state.rules.trump_shown_when_drawn
                                          or seat == state.trump_holder or state.trump_holder < 0) else -1,
        state.trump_suit,
        state.leader if one else -1,
        tuple(map(tuple, state.rounds)) if one else (),
        tuple(state.round_seats[state.round_pos:]) if one and state.winner < 0 else (),
        tuple(state.sluffs) if one else (),
        state.winner if one else -1,
        tuple(s for s in range(state.players) if pending >> s & 1) if pending else (),
        tuple(zip(state.table_owners, state.table, strict=True)),
        state.kill_at if state.phase == Phase.TWO else 0,
        state.killed,
        tuple(state.out_order),
        state.loser,
        _public_history(state),
        () if spectator else tuple(state.legal_actions(seat)),
        state.exposed_card,
        len(state.reserve),
        SeenEvents(state.events, len(state.events), seat),
    )
