"""Phase-two positions: a deal written down in the middle of the second phase.

A :class:`Position` lets a person set up "what may I play on this?", practise
phase two (the Goat Game texts teach it first, with the cards dealt
arbitrarily), or pose a puzzle.  :func:`check_position` says exactly what is
wrong with an impossible one; :meth:`skitgubbe.engine.state.State.from_position`
starts play from it.  No I/O.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .beating import anti_trump_suit, beats
from .cards import SUIT_NAMES, TWIN, card_label, cards_in, fold, format_cards, is_run
from .rules import Plays, Rules

__all__ = ["Position", "PositionError", "check_position", "default_kill_at", "practice_position"]


class PositionError(ValueError):
    """An impossible position.  ``field`` names the part at fault (``hand 2``, ``table``,
    ``trump``, ``to-act``, ``kill-at``, ``out-seats``, ``cards``, ``players``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


@dataclass(frozen=True)
class Position:
    """A phase-two position.  Card sets are bitmasks (bit i = card i).

    Attributes:
        hands: one card set per seat (a seat that is out holds 0).
        trump_suit: 0..3 (clubs, diamonds, hearts, spades).
        to_act: the seat to lead (table empty) or to beat or pick up.
        out_of_play: card set of cards already killed or otherwise out of the game.
        table: the plays of the current trick, bottom first, as ``(seat, card set)``.
        kill_at: plays that kill the current trick; None = the seats in the trick (those
            holding cards, plus any seat that played to this trick and has since gone out).
        out_order: seats already out, in the order they went out; seats holding no cards
            that are not listed are taken as out in seat order after these.
        dealer: the dealer's seat (only names the table; it changes no phase-two rule).

    Every card must be in exactly one of the hands, the table and ``out_of_play``.
    """

    hands: tuple[int, ...]
    trump_suit: int
    to_act: int
    out_of_play: int = 0
    table: tuple[tuple[int, int], ...] = ()
    kill_at: int | None = None
    out_order: tuple[int, ...] = ()
    dealer: int = 0


def default_kill_at(position: Position) -> int:
    """Plays that kill the trick when the position does not say: the seats holding cards,
    plus seats that played to the table and have since gone out."""
    seats = {s for s, h in enumerate(position.hands) if h}
    seats |= {s for s, _ in position.table}
    return len(seats)


def check_position(position: Position, rules: Rules) -> None:
    """Raise :class:`PositionError` naming the first fault of ``position`` under ``rules``:
    a seat count outside the rules, a card twice or missing, a bad trump suit, a table play
    that is not a run (or not a single card where the rules play single cards) or does not
    beat the play beneath it, a seat listed as out that holds cards, fewer than two seats
    holding cards, a seat to act that holds no cards, or a kill count that the table
    already reaches or that exceeds the seats."""
    n = len(position.hands)
    if not rules.min_players <= n <= rules.max_players:
        raise PositionError("players", f"{rules.name} is for {rules.min_players} to {rules.max_players} "
                                       f"players, not {n}")
    if not 0 <= position.trump_suit < 4:
        raise PositionError(
            "trump", f"trump suit must be 0..3 (clubs, diamonds, hearts, spades), not {position.trump_suit}"
        )
    seen = 0
    places: dict[int, str] = {}
    full = rules.pack

    def place(mask: int, where: str) -> None:
        nonlocal seen
        if mask < 0 or mask & ~full:
            raise PositionError(where, "not a card set")
        twice = seen & mask
        if twice:
            c = (twice & -twice).bit_length() - 1
            raise PositionError(where, f"{card_label(c)} is already in {places[c]}")
        for c in cards_in(mask):
            places[c] = where
        seen |= mask

    for s, h in enumerate(position.hands):
        place(h, f"hand {s}")
    anti = anti_trump_suit(rules.anti_trump, position.trump_suit)
    min_run = 3 if rules.plays is Plays.RUN3 else 2
    for i, (s, p) in enumerate(position.table, start=1):
        if not 0 <= s < n:
            raise PositionError("table", f"play {i} is by seat {s}, which does not exist (seats 0..{n - 1})")
        if not p:
            raise PositionError("table", f"play {i} has no cards")
        place(p, "table")
        if p & p >> TWIN:
            raise PositionError("table", f"play {i} ({format_cards(p, unicode=True)}) holds two copies of "
                                         "one card: twins never touch")
        p = fold(p)  # two packs: the rules see card kinds
        if not is_run(p):
            raise PositionError("table", f"play {i} ({format_cards(p, unicode=True)}) is not one card "
                                         "or a run of touching cards of one suit")
        k = p.bit_count()
        if rules.plays is Plays.SINGLE and k != 1:
            raise PositionError("table", f"play {i} has {k} cards: {rules.name} plays single cards")
        if 1 < k < min_run:
            raise PositionError("table",
                                f"play {i} has {k} cards: a run needs at least {min_run} in {rules.name}")
        if k > 1 and rules.plays is Plays.RUN_FROM_TWO and (p & -p).bit_length() % 13 != 1:
            raise PositionError("table",
                                f"play {i} is a run that does not start with a 2, as {rules.name} requires")
        if i > 1:
            below = fold(position.table[i - 2][1])
            if not beats(p, below, position.trump_suit, anti, any_suit=rules.beat_any_suit):
                raise PositionError("table", f"play {i} ({format_cards(p, unicode=True)}) does not beat "
                                             f"play {i - 1} ({format_cards(below, unicode=True)}) with "
                                             f"{SUIT_NAMES[position.trump_suit]} trumps")
    place(position.out_of_play, "out-of-play")
    if seen != full:
        missing = format_cards(full & ~seen, unicode=True)
        raise PositionError("cards",
                            f"every card must be in a hand, on the table or out of play; missing: {missing}")
    if len(set(position.out_order)) != len(position.out_order):
        raise PositionError("out-seats", "a seat is listed twice")
    for s in position.out_order:
        if not 0 <= s < n:
            raise PositionError("out-seats", f"seat {s} does not exist (seats 0..{n - 1})")
        if position.hands[s]:
            held = format_cards(position.hands[s], unicode=True)
            raise PositionError("out-seats", f"seat {s} is out but holds {held}")
    holding = [s for s, h in enumerate(position.hands) if h]
    if len(holding) < 2:
        raise PositionError("players", "fewer than two seats hold cards: the game is already over")
    if not 0 <= position.to_act < n or not position.hands[position.to_act]:
        raise PositionError("to-act", f"seat {position.to_act} cannot act: it holds no cards"
                            if 0 <= position.to_act < n else f"seat {position.to_act} does not exist")
    kill_at = position.kill_at if position.kill_at is not None else default_kill_at(position)
    if not len(position.table) < kill_at <= n:
        raise PositionError("kill-at", f"{kill_at} plays to kill does not fit {len(position.table)} plays on "
                                       f"the table and {n} seats")


def practice_position(players: int, rng: random.Random, *, trump_suit: int | None = None,
                      decks: int = 1) -> Position:
    """A phase-two practice deal, as both Goat Game texts suggest for learning: all 52
    cards (104 with ``decks=2``) shuffled with ``rng`` and dealt one at a time from seat 0, so
    the hands differ by at most one card; the trump suit is ``trump_suit`` or drawn with
    ``rng``; seat 0 leads.

    Raises ``ValueError`` for fewer than 2 or more than 8 players or a suit outside 0..3.
    """
    if not 2 <= players <= 8:
        raise ValueError(f"a practice deal is for 2 to 8 players, not {players}")
    if trump_suit is not None and not 0 <= trump_suit < 4:
        raise ValueError(f"trump suit must be 0..3 (clubs, diamonds, hearts, spades), not {trump_suit}")
    deck = list(range(52 * decks))
    rng.shuffle(deck)
    hands = [0] * players
    for i, c in enumerate(deck):
        hands[i % players] |= 1 << c
    trump = rng.randrange(4) if trump_suit is None else trump_suit
    return Position(tuple(hands), trump, 0)
