"""The seats of a deal: one part of a :class:`~skitgubbe.engine.state.State` (issue 15, item 4).

Card sets are ``int`` bitmasks (bit i = card i, :mod:`skitgubbe.engine.cards`); seat sets are
``int`` bitmasks too (bit s = seat s).  Seats are ``0..players-1``, clockwise.
"""

from __future__ import annotations

__all__ = ["Seats"]


class Seats:
    """What each seat holds and who sees it: a part of the state that owns its data.

    Attributes (lists have one entry per seat; the engine writes them, everyone else reads):
        players: the number of seats (int).
        hands: each seat's hand (card set).
        piles: each seat's pile, the cards it won in phase-one tricks (card set).
        known: per seat, the cards publicly known to be in its hand (card set).
        sees: per seat, the seats (seat set) that see what it holds (:meth:`seen_by`): who may
            see its private events.
        out_order: the seats that went out, in order (seats with no cards when phase two starts
            first).
        blue: the Blåmattis seats (seat set): no cards at the start of phase two, in the game
            until they pick up.
        confusion: 3-player confusion (``Rules.confusion``): a seat's partner hand sees it too.

    Invariants (:meth:`check`): every list has ``players`` entries; the hands are pairwise
    disjoint, and so are the piles, and no pile shares a card with a hand; ``known[s]`` is a
    subset of ``hands[s]``; ``sees[s] == seen_by(s)``; ``out_order`` lists distinct seats, each
    with an empty hand; a Blåmattis seat holds no cards and is not out.
    """

    def __init__(self, players: int, *, confusion: bool) -> None:
        """Seats with empty hands and piles; raises nothing (the state checks ``players``)."""
        self.players = players
        self.confusion = confusion
        self.hands = [0] * players
        self.piles = [0] * players
        self.known = [0] * players
        self.sees = [self.seen_by(s) for s in range(players)]
        self.out_order: list[int] = []
        self.blue = 0

    def copy(self) -> Seats:
        """An independent copy: every list copied (the cards are ints).

        The fields are set one by one, in the order ``__init__`` sets them, so that the copy
        keeps CPython's compact attribute layout (a copy made through ``__dict__`` reads its
        attributes several times slower)."""
        other = object.__new__(type(self))
        other.players = self.players
        other.confusion = self.confusion
        other.hands = self.hands.copy()
        other.piles = self.piles.copy()
        other.known = self.known.copy()
        other.sees = self.sees.copy()
        other.out_order = self.out_order.copy()
        other.blue = self.blue
        return other

    def left_of(self, seat: int) -> int:
        """The seat to the left (next clockwise) of ``seat``."""
        return (seat + 1) % self.players

    def seen_by(self, seat: int) -> int:
        """The seats (seat set) that see what ``seat`` holds: the seat, and under 3-player
        confusion its partner hand (one person holds both; Flurst, "3-player confusion")."""
        if self.confusion:
            return 1 << seat | 1 << (seat + 3) % 6
        return 1 << seat

    def next_active(self, seat: int) -> int:
        """The first seat clockwise after ``seat`` that is still in the game: it holds
        cards, or is a Blåmattis yet to pick up (``seat`` itself if no other is)."""
        n = self.players
        hands = self.hands
        blue = self.blue
        s = (seat + 1) % n
        while not hands[s] and not blue >> s & 1 and s != seat:
            s = (s + 1) % n
        return s

    def in_game(self) -> int:
        """How many seats are still in the game: holding cards, or a Blåmattis yet to pick up."""
        hands = self.hands
        return len(hands) - hands.count(0) + self.blue.bit_count()

    def check(self) -> None:
        """Raise ``AssertionError`` naming the first invariant (class docstring) that fails."""
        n = self.players
        for name in ("hands", "piles", "known", "sees"):
            if len(getattr(self, name)) != n:
                raise AssertionError(f"seats: {name} has {len(getattr(self, name))} entries, not {n}")
        held = 0
        for s in range(n):
            h, p = self.hands[s], self.piles[s]
            if held & h:
                raise AssertionError(f"seats: seat {s}'s hand shares a card with another hand or pile")
            held |= h
            if held & p:
                raise AssertionError(f"seats: seat {s}'s pile shares a card with a hand or pile")
            held |= p
            if self.known[s] & ~h:
                raise AssertionError(f"seats: seat {s} is known to hold cards it does not hold")
            if self.sees[s] != self.seen_by(s):
                raise AssertionError(f"seats: who sees seat {s}'s cards is wrong")
        if len(set(self.out_order)) != len(self.out_order):
            raise AssertionError("seats: a seat went out twice")
        for s in self.out_order:
            if self.hands[s]:
                raise AssertionError(f"seats: seat {s} is out but holds cards")
            if self.blue >> s & 1:
                raise AssertionError(f"seats: seat {s} is out and a Blåmattis")
        for s in range(n):
            if self.blue >> s & 1 and self.hands[s]:
                raise AssertionError(f"seats: seat {s} is a Blåmattis but holds cards")
        if self.blue >> n:
            raise AssertionError("seats: a Blåmattis seat that does not exist")
