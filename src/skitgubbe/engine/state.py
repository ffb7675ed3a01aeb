"""The state machine that plays one deal under any :class:`~skitgubbe.engine.rules.Rules`.

A game is fully determined by the rules, the number of seats, the dealer, the
deck order (or a seed that shuffles it, see :func:`deck_from_seed`), the first
leader and the list of actions.  Randomness enters only through a caller's
``random.Random`` (the deck shuffle and the dreck shuffle, a chance action).

Seats are ``0..players-1`` clockwise; "left" of seat s is ``(s + 1) % players``.
Card sets are ``int`` bitmasks (bit i = card i, see :mod:`skitgubbe.engine.cards`).

Acting, in the style of python-chess and PokerKit:

* :meth:`State.legal_actions` lists what a seat may do now: the seat to act
  (:attr:`State.to_act`) and also, out of turn, any seat that may sluff.
* :meth:`State.check` raises :class:`IllegalActionError` with the reason in
  terms of the rules; :meth:`State.can` answers yes or no; :meth:`State.apply`
  checks, then does it.  A rejected action leaves the state exactly as it was.

Sluffing protocols (docs/sluffing.md): with ``live=False`` (the default, used by
bots, records and adapters) a *sluff window* opens after every play to a
phase-one trick (including the play that settles it): every seat that can sluff
is pending, and :attr:`State.to_act` names the first pending seat clockwise from
the seat after the one who played.  A pending seat sluffs (and stays pending
while it can sluff again) or passes; play goes on when no seat is pending.  Any
pending seat may pass early, out of that order.  With ``live=True`` no window
opens before the trick is settled and any seat may sluff at any moment the rules
allow; a settled trick waits until every seat that could sluff has passed
("done").  Either way a legal sluff is accepted from any seat at any moment; in
the sequential protocol a sluff made while no window is open opens one for the
sluffer alone.  With ``ask_every_seat=True`` every seat holding cards is pending in
every window that opens, whether or not it can sluff (one that cannot may only pass),
and a seat that sluffs stays pending until it passes (or runs out of cards): who is
asked, and when the trick is collected, never depend on cards a seat has not seen.
It goes with either protocol: sequential (for learning agents: a window after every
play to a phase-one trick) or live (the online table: the one window of a settled
trick, so that a trick nobody can sluff on waits for every seat's pass all the same).
Outside ``ask_every_seat`` a seat leaves a window as soon as it can no longer sluff,
whatever the reason (ruling E18).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import attrgetter
from typing import Any, NamedTuple

from .actions import CHANCE, Action, Kind
from .base import (  # noqa: F401
    PUBLIC,
    Event,
    GameOverError,
    IllegalActionError,
    Outcome,
    Phase,
    describe_action,
    english,
)
from .cards import (
    TWIN,
    CardSet,
    canonical,
    card_label,
    cards_in,
    fold,
    full_deck,
    lowest,
    rank_of,
    suit_of,
    twins_in_order,
)
from .i18n import N_, Message
from .phase_one import Trick
from .phase_two import Table
from .position import Position, check_position, default_kill_at
from .rules import FirstLead, FirstPhase, Rules, short_repr
from .seats import Seats
from .stock import Undealt

__all__ = [
    "State",
    "Draw",
    "DrawError",
    "Phase",
    "Event",
    "Outcome",
    "IllegalActionError",
    "GameOverError",
    "deck_from_seed",
    "twins_in_order",
    "DEFAULT_ACTION_LIMIT",
    "default_action_limit",
]

DEFAULT_ACTION_LIMIT = 20_000
"""A deal that reaches this many actions is abandoned (no loser); see docs/rulings.md.  Four times
as many with two packs (:func:`default_action_limit`)."""


def default_action_limit(rules: Rules) -> int:
    """The action limit of a deal under ``rules`` when none is given: :data:`DEFAULT_ACTION_LIMIT`,
    four times that with two packs (random play of 104 cards among eight seats was seen to take
    up to 38,000 actions; ruling DD4)."""
    return DEFAULT_ACTION_LIMIT * 4 if rules.decks == 2 else DEFAULT_ACTION_LIMIT


_ONE, _TWO = Phase.ONE, Phase.TWO
_KINDS = frozenset(Kind)  # (an int equal to a Kind is found too, as legal_actions() would match it)
_VERB_WORDS = {kind: kind.name.lower().replace("_", " ") for kind in Kind}
_PLAY, _STOCK, _SLUFF = Kind.PLAY, Kind.STOCK, Kind.SLUFF
_GAME_OVER = N_("the game is over")


_DRAW_KINDS = {"draw": "stock", "stock": "stock", "trump-aside": "stock", "trump-drawn": "stock",
               "reserve-draw": "reserve"}


class Draw(NamedTuple):
    """One card a step takes from the stock or the avstickshög: a chance outcome (see
    :meth:`State.draws`).

    Attributes:
        source: ``"stock"`` or ``"reserve"`` (the avstickshög).
        seat: the seat that gets the card (for a card turned up and played, the seat that turns it).
        kind: the :class:`Event` kind that will report it: ``draw`` (into a hand), ``stock`` (turned
            up and played), ``trump-aside`` (the last stock card, set aside face down: nobody sees
            it), ``trump-drawn`` (the last stock card, shown as it is drawn) or ``reserve-draw``.
        to: who sees the card: :data:`~skitgubbe.engine.base.PUBLIC`, a bitmask of seats, or 0
            (nobody).
    """

    source: str
    seat: int
    kind: str
    to: int


class DrawError(ValueError):
    """Raised by :meth:`State.apply` when the cards given for its draws do not fit: the message
    says which draw and which cards it may take.  The state is unchanged."""


def deck_from_seed(seed: int | str, *, decks: int = 1, pack: CardSet | None = None) -> tuple[int, ...]:
    """The deck order that ``random.Random(seed)`` shuffles: a tuple of the 52 cards
    (104 with ``decks=2``, see :data:`skitgubbe.engine.cards.TWIN`), first card dealt first; or of
    the cards of ``pack`` (a card set: :attr:`Rules.pack <skitgubbe.engine.rules.Rules.pack>`, e.g.
    a short pack), shuffled from the list of its cards in ascending order (so the full pack's deck
    is the same with or without ``pack``)."""
    deck = list(range(52 * decks)) if pack is None else list(cards_in(pack))
    random.Random(seed).shuffle(deck)
    return twins_in_order(deck) if decks == 2 else tuple(deck)


def _read(path: str, doc: str) -> Any:
    """A read-only property of :class:`State` giving a part's field (``"seats.hands"``); typed
    ``Any`` so that the class body can annotate each with its field's type."""
    return property(attrgetter(path), doc=f"{doc} (read-only; ``state.{path}``).")


def _card_set(cards: Sequence[int]) -> int:
    """The card set of a list of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _union(sets: Sequence[int]) -> int:
    """The union of a list of card sets."""
    m = 0
    for c in sets:
        m |= c
    return m


def _lowest_card_holder(hands: Sequence[int], dealer: int, aces_low: bool) -> int:
    """The seat holding the lowest-ranked card dealt; ties go to the first such seat
    clockwise from the dealer's left (pagat.com, "Lowest card or loser leads")."""
    n = len(hands)
    best, best_seat = 99, (dealer + 1) % n
    for i in range(n):
        s = (dealer + 1 + i) % n
        for c in cards_in(hands[s]):
            r = 1 if aces_low and rank_of(c) == 14 else rank_of(c)
            if r < best:
                best, best_seat = r, s
    return best_seat


def validate_deck(deck: Sequence[int], decks: int = 1, pack: CardSet | None = None) -> tuple[int, ...]:
    """``deck`` as a tuple once it is every card of ``decks`` packs exactly once (52 or 104
    cards, two packs' copies as cards 52..103), or of ``pack`` (a card set, e.g. a short pack's
    :attr:`Rules.pack <skitgubbe.engine.rules.Rules.pack>`); raises ``ValueError`` saying what is
    wrong."""
    d = tuple(deck)
    size = 52 * decks if pack is None else pack.bit_count()
    if len(d) != size:
        what = "" if pack is None or pack == full_deck(decks) else " of the short pack"
        raise ValueError(f"a deck order must list all {size} cards{what} once; got {len(d)} cards")
    seen = 0
    for c in d:
        if pack is not None and pack != full_deck(decks):
            if not isinstance(c, int) or not 0 <= c < 104 or not pack >> c & 1:
                raise ValueError(f"deck entry {c!r} is not a card of the short pack: "
                                 f"{' '.join(card_label(k) for k in cards_in(pack))}")
        elif not isinstance(c, int) or not 0 <= c < size:
            raise ValueError(f"deck entry {c!r} is not a card number 0..{size - 1}")
        if seen >> c & 1:
            twins = " (as the same copy: the second pack's copies are 52..103)" if decks == 2 else ""
            raise ValueError(f"card {card_label(c)} appears twice in the deck order{twins}")
        seen |= 1 << c
    return d


class State:
    """One deal of Skitgubbe in progress.  Mutable; :meth:`clone` copies it.  Build with :meth:`new`
    (or :meth:`from_phase_two`, :meth:`from_position`).

    The state is made of parts that own their data, each with its invariants documented and
    checked by its ``check`` (:meth:`check_parts` checks them all):

    * ``seats`` (:class:`~skitgubbe.engine.seats.Seats`): hands, piles, what is known, who went
      out, Blåmattis, who sees what;
    * ``undealt`` (:class:`~skitgubbe.engine.stock.Undealt`): the deck order, the stock, the
      avstickshög, the trump card, its holder and suit;
    * ``trick`` (:class:`~skitgubbe.engine.phase_one.Trick`): the phase-one trick, its sluff
      window, a chance deal waiting; the phase-one rules are its methods;
    * ``two`` (:class:`~skitgubbe.engine.phase_two.Table`): the phase-two table, the cards
      killed, the cached rule flags; the phase-two rules are its methods.

    **The read-only surface.**  Read these; never assign them or change the lists (only the
    engine does, through :meth:`apply`, :meth:`step` and the parts).  The deal's own fields:
        rules (:class:`Rules`), players (int), dealer (seat), first_leader (seat), live and
        ask_all (the sluffing protocol, see :meth:`new`), action_limit (int), double (two
        packs), full (every card of the deal's packs: a card set), phase (:class:`Phase`
        constant), to_act (seat whose decision is pending, ``CHANCE`` (-1) for a chance action,
        -2 when the game is over), history (list of ``(seat, Action)``), events (list of
        :class:`Event`), tricks (completed tricks, both phases), loser (seat or None), abandoned
        (bool), needy (the seats the dreck goes to, in dealing order), dreck (card set),
        dreck_move (index in the history of the dreck deal, -1), position (the phase-two
        :class:`~skitgubbe.engine.position.Position` play started from, or None).
    And every field of the parts under its own name (a read-only property each, listed below:
    ``state.hands`` is ``state.seats.hands``, ``state.stock`` is ``state.undealt.stock``,
    ``state.rounds`` is ``state.trick.rounds``, ``state.table`` is ``state.two.table``...).
    Card sets are ``int`` bitmasks (bit i = card i), seat sets bit s = seat s.
    """

    rules: Rules
    double: bool
    full: int
    players: int
    dealer: int
    first_leader: int
    live: bool
    ask_all: bool
    action_limit: int
    phase: int
    to_act: int
    history: list[tuple[int, Action]]
    events: list[Event]
    tricks: int
    loser: int | None
    abandoned: bool
    needy: list[int]
    dreck: int
    dreck_move: int
    position: Position | None
    seats: Seats
    undealt: Undealt
    trick: Trick
    two: Table

    # seats: :class:`~skitgubbe.engine.seats.Seats`
    hands: list[int] = _read("seats.hands", "each seat's hand (list of card sets, one per seat)")
    piles: list[int] = _read("seats.piles",
                             "each seat's pile: the cards won in phase-one tricks (list of card sets)")
    known: list[int] = _read("seats.known",
                             "per seat, the cards publicly known to be in its hand (list of card sets)")
    sees: list[int] = _read("seats.sees", "per seat, the seats (seat set) that see what it holds")
    out_order: list[int] = _read("seats.out_order", "the seats that went out, in order (list of seats)")
    blue: int = _read("seats.blue", "the Blåmattis seats (seat set)")

    # undealt: :class:`~skitgubbe.engine.stock.Undealt`
    deck: tuple[int, ...] = _read("undealt.deck",
                                  "the deck order dealt from (tuple of cards), () for a position")
    stock: list[int] = _read("undealt.stock", "the stock (list of cards), top card last")
    reserve: list[int] = _read("undealt.reserve", "the avstickshög (list of cards), top card last")
    trump_card: int = _read("undealt.trump_card", "the trump card, -1 until drawn or set aside")
    trump_holder: int = _read("undealt.trump_holder", "the seat that drew the trump card, -1 if none")
    trump_suit: int = _read("undealt.trump_suit", "the trump suit 0..3, -1 until revealed")
    spare: int = _read("undealt.spare",
                       "stock cards (0 or 1) that can neither be turned up nor replace a sluff")

    # trick: :class:`~skitgubbe.engine.phase_one.Trick`
    strength: tuple[int, ...] = _read("trick.strength", "the phase-one strength of each rank 0..14 (tuple)")
    beat: bool = _read("trick.beat", "Mas: phase one is beat-or-pick-up")
    leader: int = _read("trick.leader", "the seat that led the current phase-one trick, -1 before the first")
    rounds: list[list[tuple[int, int]]] = _read("trick.rounds",
                                                "the rounds of the trick (list of lists of (seat, card))")
    round_cards: list[tuple[int, int]] = _read("trick.round_cards",
                                               "the current round (list of (seat, card)): the last of rounds")
    round_seats: list[int] = _read("trick.round_seats", "the seats of the current round, in playing order")
    round_pos: int = _read("trick.round_pos", "how many seats of the current round have played")
    sluffs: list[tuple[int, int]] = _read("trick.sluffs",
                                          "the cards sluffed into the trick (list of (seat, card))")
    trick_cards: int = _read("trick.trick_cards", "every card in the phase-one trick (card set)")
    trick_ranks: int = _read("trick.trick_ranks", "every card of the ranks in the trick (card set)")
    contributed: list[int] = _read("trick.contributed",
                                   "per seat, the cards it put into the trick (list of card sets)")
    round_high: int = _read("trick.round_high", "the highest rank played in the current round, 0 if none")
    winner: int = _read("trick.winner", "the seat that won the settled trick, -1 while unsettled")
    last_winner: int = _read("trick.last_winner", "the seat that won the latest phase-one trick, -1 if none")
    pending: int = _read("trick.pending", "the seats (seat set) still to answer in the open sluff window")
    window_start: int = _read("trick.window_start",
                              "the seat from which the first pending seat is looked for")
    sluffed: int = _read("trick.sluffed", "the seats (seat set) that have sluffed into the current trick")
    occasion: int = _read("trick.occasion", "the seat whose sluffing occasion is under way, -1 if none")
    occasion_hand: int = _read("trick.occasion_hand", "that seat's hand when its occasion began (card set)")
    tie_rank: int = _read("trick.tie_rank", "the tied rank that started the current war or bounce, 0 if none")
    last_put: int = _read("trick.last_put", "the card most recently put into the trick, -1 if none")
    chance_seats: list[int] = _read("trick.chance_seats",
                                    "the seats a waiting chance deal (not the dreck) goes to")
    chance_cards: int = _read("trick.chance_cards", "the cards of that chance deal (card set)")
    chance_to_piles: bool = _read("trick.chance_to_piles", "that chance deal goes into piles (Koira's split)")

    # two: :class:`~skitgubbe.engine.phase_two.Table`
    table: list[int] = _read("two.table",
                             "the phase-two plays on the table (list of card sets), the lead first")
    table_owners: list[int] = _read("two.table_owners", "the seat of each play on the table")
    kill_at: int = _read("two.kill_at", "how many plays kill the phase-two trick")
    killed: int = _read("two.killed", "the cards out of play (card set)")
    forced: bool = _read("two.forced", "a pick-up has forced the following seats to pick up")
    runs: bool = _read("two.runs", "phase two: plays may be runs")
    min_run: int = _read("two.min_run", "phase two: the fewest cards in a run of two or more")
    from_two: bool = _read("two.from_two", "phase two: runs must start with a 2")
    pick_top: bool = _read("two.pick_top", "phase two: a pick-up takes the top play")
    anti: int = _read("two.anti", "the anti-trump suit 0..3, -1 for none")
    extra_ends: bool = _read("two.extra_ends", "phase two: a trick may end otherwise than by the kill count")
    plain_two: bool = _read("two.plain_two", "phase two: no option the fast random sampler does not handle")

    @classmethod
    def new(
        cls,
        rules: Rules,
        players: int,
        *,
        dealer: int = 0,
        deck: Sequence[int] | None = None,
        seed: int | str | None = None,
        leader: int | None = None,
        live: bool = False,
        action_limit: int | None = None,
        ask_every_seat: bool = False,
    ) -> State:
        """Deal a new game.

        Args:
            rules: the ruleset.
            players: number of seats, within ``rules.min_players..max_players``.
            dealer: the dealer's seat.  Cards are dealt one at a time clockwise
                from the dealer's left, ``rules.hand_size`` each, from the start
                of the deck order; the rest is the stock, top card first.
            deck: the 52 cards in dealing order (first card dealt first; 104 cards under
                ``rules.decks == 2``; the cards of ``rules.pack`` with a short pack), or
            seed: shuffle with :func:`deck_from_seed` (exactly one of deck/seed).
            leader: the seat that leads the first trick; default as ``rules.first_lead``
                says (the dealer's left, or the holder of the lowest card dealt); in a
                series the previous loser leads (the Goat Game's "Lead, goat").
            live: sluffing protocol, see the module docstring.
            ask_every_seat: ask every seat holding cards in every sluff window (module
                docstring), so that who is pending, who acts and when a trick is collected show
                nothing about hidden cards.  With ``live=False`` a window opens after every play
                to a phase-one trick; with ``live=True`` (the online table's protocol) only the
                play that settles a trick opens one.
            action_limit: abandon the deal after this many actions (default:
                :func:`default_action_limit`).

        Raises :class:`~skitgubbe.engine.rules.RulesError` (a ``ValueError``) for a seat count
        the rules cannot be dealt to (:meth:`Rules.check_players
        <skitgubbe.engine.rules.Rules.check_players>`, called first: outside
        ``min_players..max_players``, 3-player confusion without 6 seats); ``ValueError`` for a
        seat out of range, a deck that is not the cards of the rules' pack once each (the 52 cards, 104
        with two packs, fewer with a short pack), or neither/both of deck and seed.
        """
        rules.check_players(players)
        for what, s in (("dealer", dealer), ("leader", leader)):
            if s is not None and not 0 <= s < players:
                raise ValueError(f"{what} seat {s} does not exist: seats are 0..{players - 1}")
        if (deck is None) == (seed is None):
            raise ValueError("give exactly one of deck (the card order) or seed")
        decks = rules.decks
        pack = rules.pack
        if deck is not None:
            d = validate_deck(deck, decks, pack)
            if decks == 2:
                d = twins_in_order(d)
        else:
            d = deck_from_seed(seed, decks=decks, pack=pack)  # type: ignore[arg-type]
        self = cls.__new__(cls)
        self.double = decks == 2
        self.full = pack
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.first_leader = (dealer + 1) % players if leader is None else leader
        self.live = live
        self.ask_all = ask_every_seat
        self.action_limit = default_action_limit(rules) if action_limit is None else action_limit
        self.seats = seats = Seats(players, confusion=rules.confusion)
        dealt = players * rules.hand_size
        for i in range(dealt):
            seats.hands[(dealer + 1 + i) % players] |= 1 << d[i]
        # the avstickshög: the next cards after the hands, set aside face down (pagat.com, "Two Player Game")
        reserve = list(reversed(d[dealt:dealt + rules.reserve]))
        dealt += rules.reserve
        self.undealt = Undealt(d, list(reversed(d[dealt:])), reserve)
        if rules.bottom_aside:  # the bottom card names the trump suit later (Flurst, "No bottom card")
            self.undealt.trump_card = self.undealt.stock.pop(0)
        if leader is None and rules.first_lead is FirstLead.LOWEST_CARD:
            self.first_leader = _lowest_card_holder(seats.hands, dealer, rules.aces_low_first)
        self.history = []
        self.events = [Event("deal", s, seats.hands[s], (), seats.sees[s]) for s in range(players)]
        self.tricks = 0
        self.loser = None
        self.abandoned = False
        self.needy = []
        self.dreck = 0
        self.dreck_move = -1
        self.position = None
        self.phase = Phase.ONE
        self._init_phase_one()
        self.trick.start(self, self.first_leader)
        return self

    @classmethod
    def from_phase_two(
        cls,
        rules: Rules,
        hands: Sequence[int],
        *,
        trump_suit: int,
        leader: int,
        dealer: int = 0,
        action_limit: int | None = None,
    ) -> State:
        """A position at the start of a phase-two trick: ``hands`` (card sets, one per
        seat; cards not in any hand are out of play), ``trump_suit`` (0..3) and the
        seat to ``leader`` (moved clockwise to the next seat holding cards).

        Raises ``ValueError`` if a card is in two hands, or the trump suit or leader is out of
        range (see :meth:`from_position`), and :class:`~skitgubbe.engine.rules.RulesError` (a
        ``ValueError``) for a seat count the rules cannot be dealt to
        (:meth:`Rules.check_players <skitgubbe.engine.rules.Rules.check_players>`).
        """
        n = len(hands)
        rules.check_players(n)
        if not 0 <= leader < n:
            raise ValueError(f"leader seat {leader} does not exist: seats are 0..{n - 1}")
        seen = 0
        full = rules.pack
        for s, h in enumerate(hands):
            if h < 0 or h & ~full:
                raise ValueError(f"seat {s}: not a card set")
            if seen & h:
                raise ValueError(f"card {card_label(lowest(seen & h))} is in two hands")
            seen |= h
        if sum(1 for h in hands if h) < 2:  # over before it starts: the seat holding cards loses
            if not 0 <= trump_suit < 4:
                raise ValueError(
                    f"trump suit must be 0..3 (clubs, diamonds, hearts, spades), not {trump_suit}"
                )
            self = cls.new(rules, n, dealer=dealer, deck=tuple(cards_in(rules.pack)),
                           action_limit=action_limit)
            self.undealt.deck = ()
            self.seats.hands = list(hands)
            self.undealt.stock = []
            self.undealt.reserve = []
            self.undealt.trump_suit = trump_suit
            self._init_phase_one()
            self.two.killed = full & ~seen
            self.two.start(self, leader)
            return self
        to_act = leader
        if not hands[to_act]:
            to_act = (to_act + 1) % n
            while not hands[to_act]:
                to_act = (to_act + 1) % n
        position = Position(tuple(hands), trump_suit, to_act, out_of_play=full & ~seen, dealer=dealer)
        return cls.from_position(rules, position, action_limit=action_limit)

    @classmethod
    def from_position(
        cls, rules: Rules, position: Position, *, action_limit: int | None = None
    ) -> State:
        """Start play at a phase-two :class:`~skitgubbe.engine.position.Position`.

        Nothing is publicly known about any hand (``known`` is empty) and the history is
        empty; :attr:`position` keeps the position so that a record can be written.
        Raises :class:`~skitgubbe.engine.position.PositionError` (a ``ValueError``) naming the fault.
        """
        check_position(position, rules)
        n = len(position.hands)
        self = cls.new(rules, n, dealer=position.dealer % n, deck=tuple(cards_in(rules.pack)),
                       action_limit=action_limit)
        self.undealt.deck = ()  # a position has no deal behind it
        self.position = position
        self.seats.hands = list(position.hands)
        self.seats.known = [0] * n
        self.undealt.stock = []
        self.undealt.reserve = []  # a written position has no avstickshög
        self.undealt.trump_suit = position.trump_suit
        self.undealt.trump_card = -1
        self._init_phase_one()
        self.two.start(self, position.to_act)
        self.seats.blue = 0  # in a written position a seat without cards is out
        self.two.killed = position.out_of_play
        self.seats.out_order = list(position.out_order) + [  # then from the dealer's left (ruling E15)
            s for s in ((self.dealer + 1 + i) % n for i in range(n))
            if not position.hands[s] and s not in position.out_order
        ]
        self.events = [Event("deal", s, self.seats.hands[s], (), self.seats.sees[s]) for s in range(n)]
        self.events += [Event("out", s) for s in self.seats.out_order]
        self.two.table = [p for _, p in position.table]
        self.two.table_owners = [s for s, _ in position.table]
        self.two.kill_at = position.kill_at if position.kill_at is not None else default_kill_at(position)
        self.to_act = position.to_act
        self.two.check_lead(self)  # the high trump rule may pass the lead on
        return self

    def clone(self) -> State:
        """An independent copy: every part copied (:meth:`Seats.copy <skitgubbe.engine.seats.Seats.copy>`
        and the others), the history, the events and the needy seats too.  The fields are set one
        by one in the order :meth:`new` sets them (see :meth:`Seats.copy
        <skitgubbe.engine.seats.Seats.copy>`: a copy through ``__dict__`` reads slower); fields
        that a subclass adds are not copied."""
        other = object.__new__(type(self))
        other.double = self.double
        other.full = self.full
        other.rules = self.rules
        other.players = self.players
        other.dealer = self.dealer
        other.first_leader = self.first_leader
        other.live = self.live
        other.ask_all = self.ask_all
        other.action_limit = self.action_limit
        other.seats = self.seats.copy()
        other.undealt = self.undealt.copy()
        other.history = self.history.copy()
        other.events = self.events.copy()
        other.tricks = self.tricks
        other.loser = self.loser
        other.abandoned = self.abandoned
        other.needy = self.needy.copy()
        other.dreck = self.dreck
        other.dreck_move = self.dreck_move
        other.position = self.position
        other.phase = self.phase
        other.trick = self.trick.copy()
        other.two = self.two.copy()
        other.to_act = self.to_act
        return other

    def parts(self) -> dict[str, object]:
        """The parts, by the name of the attribute that holds each: ``seats``
        (:class:`~skitgubbe.engine.seats.Seats`), ``undealt``
        (:class:`~skitgubbe.engine.stock.Undealt`), ``trick``
        (:class:`~skitgubbe.engine.phase_one.Trick`), ``two``
        (:class:`~skitgubbe.engine.phase_two.Table`)."""
        return {"seats": self.seats, "undealt": self.undealt, "trick": self.trick, "two": self.two}

    def check_parts(self) -> None:
        """Check every part's invariants (each part's ``check``) and that every card of the deal
        is in exactly one place; raise ``AssertionError`` naming the first that fails.  For tests
        and debugging: the engine keeps them after every step."""
        n = self.players
        self.seats.check()
        self.undealt.check(self.full, n)
        self.trick.check(n)
        self.two.check(n)
        if self.seats.players != n or self.seats.confusion != self.rules.confusion:
            raise AssertionError("the seats part is of another deal")
        if self.phase == Phase.OVER:
            return
        places: list[tuple[str, int]] = [("a hand", h) for h in self.seats.hands]
        places += [("a pile", p) for p in self.seats.piles]
        places += [("the stock", _card_set(self.undealt.stock)),
                   ("the avstickshög", _card_set(self.undealt.reserve))]
        places += [("the trick", self.trick.trick_cards), ("the table", _union(self.two.table)),
                   ("out of play", self.two.killed)]
        if self.phase == Phase.DRECK and not self.trick.chance_seats:
            places.append(("the dreck", self.dreck))
        seen = 0
        for where, m in places:
            if seen & m:
                raise AssertionError(f"a card in {where} is in another place too")
            seen |= m
        trump_card = self.undealt.trump_card
        if trump_card >= 0:  # set aside, or already in a hand (or the dreck, or out of play)
            seen |= 1 << trump_card
        if self.position is None and self.undealt.deck and seen != self.full:
            raise AssertionError("a card of the deal is nowhere")

    def finish(self, loser: int | None) -> None:
        """End the deal with ``loser`` (a seat, or None when abandoned): a step the parts take
        (the game over, the loser's event).  Not for callers outside the engine."""
        self.phase = Phase.OVER
        self.to_act = -2
        self.loser = loser
        self.trick.pending = 0
        if loser is not None:
            self.events.append(Event("loser", loser))

    def _init_phase_one(self) -> None:
        """A fresh trick and an empty phase-two table (a new deal, or a written position)."""
        rules = self.rules
        undealt = self.undealt
        # stock cards that can neither be turned up nor replace a sluff: the bottom card,
        # which becomes the trump card (none when it was set aside at the deal)
        undealt.spare = 0 if rules.bottom_aside else 1
        self.trick = Trick(rules, self.players)
        self.two = Table()
        if self.trick.beat and undealt.stock:  # Mas: the trump lies face up under the stock from the deal
            undealt.trump_suit = suit_of(undealt.stock[0])

    # -- queries -------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the deal has ended (a loser is known or it was abandoned)."""
        return self.phase == Phase.OVER

    @property
    def outcome(self) -> Outcome | None:
        """The :class:`Outcome` once the deal is over, else None."""
        if self.phase != Phase.OVER:
            return None
        return Outcome(self.loser, tuple(self.seats.out_order), self.abandoned)

    @property
    def exposed_card(self) -> int:
        """The card lying face up under the stock for all to see, or -1: the bottom card under
        ``exposed_bottom`` (in Mas, the turned-up trump, or the 2 of trumps exchanged for it,
        until it is drawn)."""
        if not self.rules.exposed_bottom or not self.undealt.deck:
            return -1
        if self.rules.first_phase is FirstPhase.BEAT:
            return self.undealt.stock[0] if self.undealt.stock else -1
        return self.undealt.deck[-1]

    def left_of(self, seat: int) -> int:
        """The seat to the left (next clockwise) of ``seat``."""
        return (seat + 1) % self.players

    def seen_by(self, seat: int) -> int:
        """The seats (seat set) that see what ``seat`` holds: the seat, and under 3-player
        confusion its partner hand (:meth:`Seats.seen_by <skitgubbe.engine.seats.Seats.seen_by>`)."""
        return self.seats.seen_by(seat)

    def high_trump(self) -> int:
        """Phase two: the highest trump still in the game (not killed or out of play), or -1
        (:meth:`Table.high_trump <skitgubbe.engine.phase_two.Table.high_trump>`)."""
        return self.two.high_trump(self)

    def beat_candidates(self, hand: int) -> int:
        """Phase two: the cards of card set ``hand`` that may take part in a beat of the top play
        (:meth:`Table.beat_candidates <skitgubbe.engine.phase_two.Table.beat_candidates>`; the
        table must not be empty)."""
        return self.two.beat_candidates(self, hand)

    def partner(self, seat: int) -> int:
        """Under ``rules.confusion``, the other hand of ``seat``'s player (``(seat + 3) % 6``: the
        order A right, B right, C right, A left, B left, C left is clockwise); else -1."""
        return (seat + 3) % 6 if self.rules.confusion else -1

    def player_of(self, seat: int) -> int:
        """The player a seat belongs to: ``seat % 3`` under ``rules.confusion``, else the seat."""
        return seat % 3 if self.rules.confusion else seat

    def pending_deal(self) -> int:
        """The card set the pending chance action must order (the dreck, Koira's split or an
        incomplete trick), 0 if none is pending."""
        if self.phase != Phase.DRECK:
            return 0
        return self.trick.chance_cards if self.trick.chance_seats else self.dreck

    def deal_seats(self) -> list[int]:
        """The seats the pending chance deal goes to, one card at a time in this order."""
        return list(self.trick.chance_seats) if self.trick.chance_seats else list(self.needy)

    @property
    def trump_known(self) -> bool:
        """True once the trump suit has been revealed (phase two)."""
        return self.undealt.trump_suit >= 0

    def hand_sizes(self) -> list[int]:
        """Cards in each seat's hand."""
        return [h.bit_count() for h in self.seats.hands]

    def acting_seats(self) -> list[int]:
        """Seats that have at least one legal action now (the seat to act first)."""
        if self.phase == Phase.OVER:
            return []
        seats = [] if self.to_act < 0 else [self.to_act]
        if self.phase == Phase.ONE:
            for s in range(self.players):
                if s != self.to_act and (self.trick.sluffable(self, s) or self.trick.pending >> s & 1):
                    seats.append(s)
        elif self.to_act == CHANCE:
            seats.append(CHANCE)
        return seats

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action of ``seat`` now (default: :attr:`to_act`).

        For a seat other than the one to act, this is what it may do out of
        turn (sluffs, and ``pass`` while its sluff window is open); for
        ``CHANCE`` while the dreck waits to be dealt, one representative DRECK
        action (any order of the dreck cards is legal; see :meth:`chance_action`).
        Empty once the game is over.  Raises ``ValueError`` for a seat that does not exist.
        """
        s = self.to_act if seat is None else seat
        if seat is None and self.phase == Phase.OVER:
            return []
        if not -1 <= s < self.players:
            raise ValueError(f"there is no seat {s}: seats are 0..{self.players - 1} (and -1 for chance)")
        ph = self.phase
        if ph == Phase.ONE:
            return self.trick.legal(self, s)
        if ph == Phase.TWO:
            return self.two.legal(self, s) if s == self.to_act else []
        if ph == Phase.DRECK and s == CHANCE:
            cards = self.pending_deal()
            return [Action(Kind.DRECK, cards, tuple(cards_in(cards)))]
        return []

    def random_action(self, rng: random.Random) -> Action:
        """A legal action of :attr:`to_act` drawn uniformly from :meth:`legal_actions`
        (the chance action if chance is to act), without listing them when it can
        avoid it: the fast path for random playouts and rollouts.

        Raises ``ValueError`` when the game is over.
        """
        phase = self.phase
        if phase == _TWO:
            return self.two.random(self, rng.random())
        if phase == _ONE:
            legal = self.trick.legal(self, self.to_act)
            return legal[int(rng.random() * len(legal))]
        if phase == Phase.DRECK:
            return self.chance_action(rng)
        raise ValueError("the game is over: there is no action to take")

    def chance_action(self, rng: random.Random) -> Action:
        """The chance action (the dreck shuffled with ``rng``) when :attr:`to_act` is CHANCE.

        Raises ``ValueError`` when no chance action is pending.
        """
        if self.phase != Phase.DRECK:
            raise ValueError("no chance action is pending: the dreck is not waiting to be dealt")
        cards = self.pending_deal()
        order = list(cards_in(cards))
        rng.shuffle(order)
        return Action(Kind.DRECK, cards, tuple(order))

    # -- acting ----------------------------------------------------------------

    def can(self, action: Action, seat: int | None = None) -> bool:
        """True if ``seat`` (default :attr:`to_act`) may take ``action`` now."""
        try:
            self.check(action, seat)
        except IllegalActionError:
            return False
        return True

    def check(self, action: Action, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` (or :class:`GameOverError`) with the
        reason if ``seat`` (default :attr:`to_act`) may not take ``action`` now.

        Raises :class:`GameOverError` once the game is over; :class:`IllegalActionError` for
        anything that is not an :class:`Action` of this deal's cards, a seat outside
        ``0..players-1`` (``CHANCE`` is a seat only for the chance deal, a ``DRECK`` action),
        or an action the rules forbid now.  Never changes the state."""
        s = self.to_act if seat is None else seat
        if self.phase == Phase.OVER:
            raise GameOverError(s, action, Message(_GAME_OVER))
        fault = self._fault(action, s)
        if fault is not None:
            raise IllegalActionError(s, action, fault)
        if action.kind == Kind.DRECK:
            self._check_dreck(s, self.resolve(s, action))
            return
        if self.double:
            action = self.resolve(s, action)
        if action in self.legal_actions(s):
            return
        raise IllegalActionError(s, action, self.explain_message(action, s))

    def apply(self, action: Action, seat: int | None = None, *, trusted: bool = False,
              draws: Sequence[int] | None = None) -> tuple[Event, ...]:
        """Take ``action`` for ``seat`` (default :attr:`to_act`) and return the events it caused, in
        order: the action itself, what followed from it (a trick won, the trump turned, the dreck
        dealt, a seat out, the loser) and the chance outcomes it brought (each card drawn, each
        share of a dealt dreck).  An event's ``to`` says who may see its cards: give a seat or a
        spectator :func:`skitgubbe.engine.view.events_for` of them, never the raw tuple.

        **Chance.**  Every card a step takes from the stock or the avstickshög is a chance outcome.
        By default (``draws=None``) the engine takes them from its own deck order, as dealt.  With
        ``draws`` the caller resolves them itself (the model is PokerKit's automations, switched
        off): one card per :class:`Draw` that :meth:`draws` lists for this action, in that order,
        each a card of :meth:`draw_pool` (the last stock card when it lies face up, once it is the
        only one left), all different.  The engine then stacks the stock and the avstickshög so
        that these cards come next, rewrites :attr:`deck` to match (a record of the deal replays
        it) and takes the step.  The other chance steps are actions already: the dreck, a tie-deal
        share, Koira's split and a trick dealt round are ``DRECK`` actions of ``CHANCE`` whose
        ``order`` the caller may choose (:meth:`chance_action` draws one); the deal is the deck
        given to :meth:`new`.  With ``trusted`` the cards are not checked either: they must be as
        many as :meth:`draws` lists, different cards of :meth:`draw_pool`.

        The action is checked once, here (:meth:`check`), and then applied without listing the
        legal actions again.  With ``trusted=True`` the check is skipped: only for an action just
        taken from :meth:`legal_actions` of the same state, or checked with :meth:`check`.
        Raises :class:`IllegalActionError` for an action that is not legal now and
        :class:`DrawError` for ``draws`` that do not fit; either way the state is unchanged.
        """
        events = self.events
        first = len(events)
        s = self.to_act if seat is None else seat
        if not trusted:
            self.check(action, s)
            if self.double:
                action = self.resolve(s, action)
        if draws is not None:
            self._stack(action, s, list(draws), trusted)
        self.step(action, s)
        return tuple(events[first:])

    def draws(self, action: Action, seat: int | None = None, *, trusted: bool = False) -> tuple[Draw, ...]:
        """The cards ``action`` of ``seat`` (default :attr:`to_act`) would take from the stock and
        the avstickshög, in drawing order, without taking it: where each comes from, who gets it
        and who will see it.  How many cards a step takes, and where from, never depend on which
        cards they are; a step takes cards from the stock or from the avstickshög, never both.
        Raises :class:`IllegalActionError` for an action that is not legal now (not checked with
        ``trusted``, as in :meth:`apply`)."""
        s = self.to_act if seat is None else seat
        if not trusted:
            self.check(action, s)
            if self.double:
                action = self.resolve(s, action)
        if not self.undealt.stock and not self.undealt.reserve:
            return ()
        trial = self.clone()
        first = len(trial.events)
        trial.step(action, s)
        out = []
        for e in trial.events[first:]:
            source = _DRAW_KINDS.get(e.kind)
            if source is not None:
                to = 0 if e.kind == "trump-aside" else e.to
                out.append(Draw(source, e.seat, e.kind, to))
        return tuple(out)

    def _check_draws(self, action: Action, s: int, cards: list[int], shown: int) -> None:
        """Raise :class:`DrawError` unless ``cards`` fit :meth:`draws` of ``action``."""
        plan = self.draws(action, s, trusted=True)
        if len(cards) != len(plan):
            raise DrawError(f"{describe_action(action)} takes {len(plan)} cards from the stock or the "
                            f"avstickshög, not {len(cards)}")
        pool = self.draw_pool()
        taken = 0
        left = len(self.undealt.stock)
        for i, (c, d) in enumerate(zip(cards, plan, strict=True)):
            if not isinstance(c, int) or not 0 <= c < self.full.bit_length():
                raise DrawError(f"draw {i + 1}: {short_repr(c)} is not a card number")
            if d.source == "stock":
                left -= 1
                if left == 0 and shown >= 0:
                    if c != shown:
                        raise DrawError(f"draw {i + 1} takes the last stock card, {card_label(shown)}, "
                                        f"which lies face up; not {card_label(c)}")
                    continue
            if not pool >> c & 1 or taken >> c & 1:
                raise DrawError(f"draw {i + 1}: {card_label(c)} is not an unseen card of the stock or "
                                f"the avstickshög" + (" (or it is given twice)" if taken >> c & 1 else ""))
            taken |= 1 << c

    def draw_pool(self) -> int:
        """The cards (a card set) that the next draws may take when the caller resolves them
        (:meth:`apply` with ``draws``): every stock and avstickshög card that nobody has seen.  A
        card lying face up under the stock (``exposed_bottom``) is not among them: it is drawn
        last, as the only card left."""
        pool = 0
        stock = self.undealt.stock
        shown = 1 if self.rules.exposed_bottom and stock else 0
        for c in stock[shown:]:
            pool |= 1 << c
        for c in self.undealt.reserve:
            pool |= 1 << c
        return pool

    def _stack(self, action: Action, s: int, cards: list[int], trusted: bool) -> None:
        """Check ``cards`` against :meth:`draws` (unless ``trusted``) and put them next in the stock
        or the avstickshög (raising :class:`DrawError`, the state unchanged, when they do not fit)."""
        stock, reserve = self.undealt.stock, self.undealt.reserve
        shown = stock[0] if self.rules.exposed_bottom and stock else -1
        if not trusted:
            self._check_draws(action, s, cards, shown)
        source = "reserve" if self.phase == _TWO else "stock"  # phase two draws from the avstickshög only
        # put each card next in its pile, in drawing order (fetched from the other pile if there)
        pile, other = (stock, reserve) if source == "stock" else (reserve, stock)
        for j, c in enumerate(cards):
            if c == shown:
                continue
            top = len(pile) - 1 - j
            if c in pile:
                i = pile.index(c)
                pile[i], pile[top] = pile[top], pile[i]
            else:
                i = other.index(c)
                other[i], pile[top] = pile[top], other[i]
        if self.undealt.deck:
            deck = list(self.undealt.deck)
            last = len(deck) - 1 - (1 if self.rules.bottom_aside else 0)
            for i in range(1 if shown >= 0 else 0, len(stock)):
                deck[last - i] = stock[i]
            dealt = self.players * self.rules.hand_size
            top = dealt + self.rules.reserve - 1
            for j, c in enumerate(reserve):
                deck[top - j] = c
            self.undealt.deck = tuple(deck)

    def step(self, action: Action, seat: int) -> None:
        """Take ``action`` for ``seat`` unchecked and return nothing: the fast path of simulations
        (random playouts, rollouts, the benchmark).  Only for an action just taken from
        :meth:`legal_actions` (or :meth:`random_action`, :meth:`chance_action`) of this same state;
        anything else may corrupt the deal.  The events are recorded as by :meth:`apply`
        (``state.events``)."""
        s = seat
        history = self.history
        history.append((s, action))
        kind = action[0]
        phase = self.phase
        if phase == _TWO:
            if kind == _PLAY:
                self.two.play(self, s, action[1])
            else:
                self.two.pick_up(self, s)
        elif phase == _ONE:
            trick = self.trick
            if trick.occasion >= 0 and (s != trick.occasion or kind != _SLUFF):
                trick.occasion = -1  # a sluffing occasion ends when anything else happens
            if kind in (_PLAY, _STOCK):
                trick.play(self, s, action)
            elif kind == _SLUFF:
                trick.sluff(self, s, action[1])
            elif kind == Kind.PASS:
                trick.pass_(self, s)
            else:  # Mas: PICK_UP, STORE, EXCHANGE
                trick.act_beat(self, s, kind)
        elif self.trick.chance_seats:
            self.trick.give_chance(self, list(action.order))
        else:
            self.dreck_move = len(history) - 1
            self.trick.deal_dreck(self, action.order)
        if len(history) >= self.action_limit and self.phase != Phase.OVER:
            self.abandoned = True
            self.finish(None)
            self.events.append(Event("abandoned"))

    def resolve(self, s: int, action: Action) -> Action:
        """``action`` of seat ``s`` with its cards spelled as :meth:`legal_actions` lists them.

        With one pack it is ``action`` itself.  With two packs either copy's card number (and so
        the card's name, which both copies share) plays the card held: the copies are the same
        card to the rules (docs/rulings.md DD2).  Phase two: :func:`~skitgubbe.engine.cards.canonical`
        (the first pack's copy if the seat holds it, else the second's); phase one: the copy that
        is legal now; a dreck order: each name deals a copy still to be dealt.  :meth:`check`
        and :meth:`apply` resolve by themselves; a caller comparing a parsed action with
        :meth:`legal_actions` resolves it first.  Never raises: an action that cannot be legal
        comes back as it can be explained."""
        if not self.double:
            return action
        if action.kind == Kind.DRECK:  # each name deals a copy still to be dealt
            left = self.pending_deal()
            order = []
            for c in action.order:
                k = c % TWIN
                c = k if left >> k & 1 else k + TWIN
                left &= ~(1 << c)
                order.append(c)
            cards = 0
            for c in order:
                cards |= 1 << c
            return action._replace(cards=cards, order=tuple(order))
        if action.kind not in (Kind.PLAY, Kind.SLUFF) or not 0 <= s < self.players or not action.cards:
            return action
        cards = canonical(action.cards, self.seats.hands[s])
        if self.phase == Phase.ONE and cards.bit_count() == 1:
            legal = self.trick.legal(self, s)
            kind = fold(cards)
            for c in (kind, kind << TWIN):
                if action._replace(cards=c) in legal:
                    return action._replace(cards=c)
        return action if cards == action.cards else action._replace(cards=cards)

    def reason(self, action: Action, seat: int | None = None) -> str:
        """Why ``seat`` (default :attr:`to_act`) may take ``action`` now, in the rules' terms (one
        line, English): :meth:`reason_message` written out (seats named ``"seat N"``).  The
        counterpart of :meth:`explain`.  Raises as :meth:`reason_message` does."""
        return english(self.reason_message(action, seat))

    def reason_message(self, action: Action, seat: int | None = None) -> Message:
        """Why ``seat`` (default :attr:`to_act`) may take ``action`` now, in the rules' terms (one
        line), as a message to render in the reader's language (seats as ``Seat`` parameters).
        Cards compare as the phase ranks them (aces low in phase one under ``aces_low_first``).
        Raises :class:`IllegalActionError` (with :meth:`explain_message`'s reason) when the action
        is not legal now, :class:`GameOverError` once the game is over."""
        s = self.to_act if seat is None else seat
        self.check(action, s)
        action = self.resolve(s, action)
        if self.phase == Phase.ONE:
            return self.trick.reason(self, s, action)
        if self.phase == Phase.TWO:
            return self.two.reason(self, s, action)
        return Message(N_("chance deals the cards: every order is legal"))

    def explain(self, action: Action, seat: int) -> str:
        """Why ``action`` is not legal for ``seat`` now, in the rules' terms (one line, English):
        :meth:`explain_message` written out (seats named ``"seat N"``)."""
        return english(self.explain_message(action, seat))

    def explain_message(self, action: Action, seat: int) -> Message:
        """Why ``action`` is not legal for ``seat`` now, in the rules' terms (one line), as a
        message to render in the reader's language (seats as ``Seat`` parameters)."""
        fault = self._fault(action, seat) if self.phase != Phase.OVER else None
        if fault is not None:
            return fault
        if self.phase == Phase.ONE:
            return self.trick.explain(self, seat, action)
        if self.phase == Phase.TWO:
            return self.two.explain(self, seat, action)
        if self.phase == Phase.DRECK:
            return Message(N_("the dreck is being dealt: only the chance deal may happen now"))
        return Message(_GAME_OVER)

    def _fault(self, action: Action, s: int) -> Message | None:
        """What makes ``action`` by seat ``s`` impossible in this deal whatever the position
        (not an action of this deal's cards, no such seat, chance taking a seat's action), or None."""
        if not isinstance(action, Action):
            return Message(N_("{action} is not an Action"), {"action": describe_action(action)})
        kind, cards, order = action
        size = self.full.bit_length()  # 52 cards, 104 with two packs
        if (not isinstance(kind, int) or kind not in _KINDS or not isinstance(cards, int) or cards < 0
                or cards >> size or not all(isinstance(c, int) and 0 <= c < size for c in order)):
            return Message(N_("{action} is not an action of this deal: a Kind with cards 0..{last}"),
                           {"action": describe_action(action), "last": size - 1})
        if not isinstance(s, int) or (s != CHANCE and not 0 <= s < self.players):
            return Message(N_("there is no seat {seat}: seats are 0..{last}"),
                           {"seat": short_repr(s), "last": self.players - 1})
        if s == CHANCE and kind != Kind.DRECK:
            return Message(N_("chance only deals cards (the dreck, or a trick dealt round); "
                              "{kind} is a seat's action, and seats are 0..{last}"),
                           {"kind": _VERB_WORDS[kind], "last": self.players - 1})
        return None

    def _check_dreck(self, s: int, action: Action) -> None:
        if self.phase != Phase.DRECK:
            raise IllegalActionError(s, action, Message(N_("there is no dreck to deal now")))
        if s != CHANCE:
            raise IllegalActionError(s, action, Message(N_("the dreck is dealt by chance, not by a seat")))
        order = action.order
        m = 0
        for c in order:
            m |= 1 << c
        cards = self.pending_deal()
        if len(order) != cards.bit_count() or m != cards:
            text = (N_("the trick order must list each trick card exactly once") if self.trick.chance_seats
                    else N_("the dreck order must list each dreck card exactly once"))
            raise IllegalActionError(s, action, Message(text))

