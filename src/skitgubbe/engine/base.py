"""Types shared by the state machine's modules: phases, events, outcome, errors,
and :class:`StateBase`, the attributes every part of the machine reads."""

from __future__ import annotations

from typing import NamedTuple

from .actions import Action, Kind
from .position import Position
from .rules import Rules, short_repr

__all__ = ["Phase", "Event", "Outcome", "IllegalActionError", "GameOverError", "StateBase", "describe_action",
           "PUBLIC"]


_KINDS = frozenset(Kind)


class Phase:
    """Phase constants (plain ints for speed)."""

    ONE = 1
    DRECK = 2  # waiting for the chance action that orders the dreck (or another chance deal)
    TWO = 3
    OVER = 4

    NAMES = {1: "phase one", 2: "dreck deal", 3: "phase two", 4: "game over"}


class IllegalActionError(ValueError):
    """Raised when an action is not legal now; ``reason`` says why in terms of the rules.

    Attributes: ``seat`` (int), ``action`` (:class:`Action`), ``reason`` (str).
    """

    def __init__(self, seat: int, action: Action, reason: str) -> None:
        super().__init__(f"seat {short_repr(seat)} cannot {describe_action(action)}: {reason}")
        self.seat = seat
        self.action = action
        self.reason = reason


def describe_action(action: object) -> str:
    """``str(action)`` (``"play 7H"``) for an :class:`Action` of cards 0..103; for anything else
    a short description that never fails, so that the error refusing a malformed action can be
    made (``Action(kind=2, cards=a whole number of 61 digits, order=())``)."""
    if not isinstance(action, Action):
        return short_repr(action)
    kind, cards, order = action
    if (isinstance(kind, int) and kind in _KINDS and isinstance(cards, int) and 0 <= cards < 1 << 104
            and all(isinstance(c, int) and 0 <= c < 104 for c in order)):
        return str(action)
    if isinstance(order, tuple):
        items = [short_repr(c) for c in order[:8]] + (["…"] if len(order) > 8 else [])
        shown = "(" + ", ".join(items) + ("," if len(order) == 1 else "") + ")"
    else:
        shown = short_repr(order)
    return f"Action(kind={short_repr(kind)}, cards={short_repr(cards)}, order={shown})"


class GameOverError(IllegalActionError):
    """Raised when any action is attempted after the game has ended."""


class Event(NamedTuple):
    """Something that happened: what :meth:`State.apply <skitgubbe.engine.state.State.apply>` returns and
    the narration tells (:mod:`skitgubbe.engine.narration`).

    ``to`` says who may see the event's ``cards``: :data:`PUBLIC` (-1, every seat and a
    spectator) or a bitmask of seats (bit s = seat s; under 3-player confusion a seat's partner
    hand is in its mask, as one person holds both).  Everything else of an event is public.
    :func:`skitgubbe.engine.view.event_for` gives the event as a seat or a spectator may see it (the
    cards zeroed where hidden); never hand a raw event with ``to`` other than PUBLIC to a seat
    outside its mask.

    ``kind`` is one of: ``deal`` (a seat's dealt hand, private), ``draw`` (a card drawn from the
    stock into a hand; private, public when drawn face up), ``play``, ``stock`` (a card turned up
    and played), ``sluff``, ``pass`` (a seat done sluffing: it leaves the sluff window),
    ``bounce`` (a tie in a two-card trick), ``war`` (a tie among
    several seats), ``win`` (a phase-one trick taken: ``cards``), ``end-one``
    (phase one over), ``take-back`` (cards of an incomplete trick returned),
    ``exposed`` (leftover hand shown), ``trump`` (the trump suit named: ``seats``
    holds the suit; ``cards`` the trump card, public when the rules show it, else the holder's
    only), ``trump-drawn`` (the last stock card shown as it is drawn: ``cards``, ``seats`` the suit),
    ``store``, ``exchange`` (Mas), ``tie-deal`` (``cards`` shared among the tied ``seats``; then
    per tied seat a ``take-back`` of its tied cards, with ``seats`` the tied seats, and a
    ``tie-share``: the ``cards`` dealt into its pile),
    ``split`` / ``trick-dealt`` (one per seat of ``seats``: the ``cards`` it got, into its pile
    or hand), ``reserve-draw`` (the card drawn from the avstickshög, private), ``dreck-aside``,
    ``dreck`` (the dreck collected: ``cards``), ``dreck-dealt`` (``seats`` lists
    who received it), ``dreck-share`` (one per needy seat when several share the dreck: the cards
    it got, private), ``lead``, ``beat``, ``pick-up`` (``cards`` eaten),
    ``kill`` (``cards`` set aside), ``three-cards``, ``one-card``, ``out``,
    ``loser``, ``abandoned``.
    """

    kind: str
    seat: int = -1
    cards: int = 0
    seats: tuple[int, ...] = ()
    to: int = -1


PUBLIC = -1
"""The ``to`` of an :class:`Event` every seat and a spectator may see."""


class Outcome(NamedTuple):
    """How a finished deal ended.

    ``loser``: the seat left holding cards (the skitgubbe / goat), or None if the
    deal was abandoned at the action limit.  ``out_order``: seats in the order
    they went out (seats with no cards at the start of phase two first).
    """

    loser: int | None
    out_order: tuple[int, ...]
    abandoned: bool = False


class StateBase:
    """The attributes of a deal in progress, shared by the phase modules.

    See :class:`skitgubbe.engine.state.State` for what each means.
    """

    rules: Rules
    double: bool  # two packs (rules.decks == 2): cards 52..103 are the second pack's copies
    full: int  # every card of the deal's packs (cards.FULL_DECK or cards.DOUBLE_DECK)
    players: int
    dealer: int
    first_leader: int
    live: bool
    ask_all: bool  # every seat holding cards is asked in every sluff window (State.new ask_every_seat)
    action_limit: int
    deck: tuple[int, ...]
    phase: int
    to_act: int
    hands: list[int]
    piles: list[int]
    known: list[int]
    stock: list[int]
    trump_card: int
    trump_holder: int
    trump_suit: int
    history: list[tuple[int, Action]]
    events: list[Event]
    sees: list[int]  # per seat, the seats that see what it holds (seen_by), for private events
    tricks: int
    out_order: list[int]
    loser: int | None
    abandoned: bool
    needy: list[int]
    dreck: int
    dreck_move: int
    position: Position | None  # the phase-two position play started from, if any

    # phase one (see phase_one.py)
    strength: tuple[int, ...]  # phase-one strength of each rank 0..14 (aces low or high)
    spare: int  # stock cards that cannot be turned up or replace a sluff (the bottom trump card)
    leader: int
    round_seats: list[int]
    round_pos: int
    round_cards: list[tuple[int, int]]
    rounds: list[list[tuple[int, int]]]
    sluffs: list[tuple[int, int]]
    trick_cards: int
    trick_ranks: int
    contributed: list[int]
    round_high: int
    winner: int
    pending: int
    sluffed: int  # seats (bitmask) that have sluffed into the current trick
    occasion: int  # the seat whose sluffing occasion is under way (sluff_once), or -1
    occasion_hand: int  # that seat's hand when the occasion began: only these cards may be sluffed
    tie_rank: int  # the tied rank that started the current war or bounce round, 0 if none
    window_start: int
    last_winner: int
    beat: bool  # Mas: phase one is beat-or-pick-up (FirstPhase.BEAT)
    last_put: int  # the card most recently put into the trick (played or sluffed), -1 if none
    # a chance deal other than the dreck waiting in Phase.DRECK (Koira's split, an incomplete trick)
    chance_seats: list[int]  # the seats dealt to, in dealing order (empty: none pending)
    chance_cards: int  # the cards to deal
    chance_to_piles: bool  # into piles (Koira's split) rather than hands
    reserve: list[int]  # the avstickshög (two seats), top card last
    # phase two (see phase_two.py)
    table: list[int]
    table_owners: list[int]
    kill_at: int
    killed: int
    # rule flags cached when phase two starts (the hot path reads these, not self.rules)
    runs: bool  # plays may be runs
    min_run: int  # fewest cards in a run of two or more
    from_two: bool  # runs must start with a 2
    pick_top: bool  # a pick-up takes the top play
    anti: int  # the anti-trump suit, -1 for none
    forced: bool  # a pick-up has forced the following seats to pick up
    extra_ends: bool  # a trick may end otherwise than by the kill count
    plain_two: bool  # no option that the fast random sampler does not handle
    blue: int  # seats (bitmask) that are Blåmattis: no cards yet, in the game until they pick up

    def left_of(self, seat: int) -> int:
        """The seat to the left (next clockwise) of ``seat``."""
        return (seat + 1) % self.players

    def seen_by(self, seat: int) -> int:
        """The seats (bitmask) that see what ``seat`` holds: the seat, and under 3-player
        confusion its partner hand (one person holds both; Flurst, "3-player confusion")."""
        if self.rules.confusion:
            return 1 << seat | 1 << (seat + 3) % 6
        return 1 << seat

    def _next_active(self, seat: int) -> int:
        """The first seat clockwise after ``seat`` that is still in the game: it holds
        cards, or is a Blåmattis yet to pick up (``seat`` itself if no other is)."""
        n = self.players
        hands = self.hands
        blue = self.blue
        s = (seat + 1) % n
        while not hands[s] and not blue >> s & 1 and s != seat:
            s = (s + 1) % n
        return s

    def _in_game(self) -> int:
        """Seats still in the game: holding cards, or a Blåmattis yet to pick up."""
        hands = self.hands
        return len(hands) - hands.count(0) + self.blue.bit_count()

    def _finish(self, loser: int | None) -> None:
        self.phase = Phase.OVER
        self.to_act = -2
        self.loser = loser
        self.pending = 0
        if loser is not None:
            self.events.append(Event("loser", loser))

    def _start_phase_two(self, leader: int) -> None:
        """Begin phase two with ``leader`` to lead (implemented in phase_two.py)."""
        raise NotImplementedError  # pragma: no cover
