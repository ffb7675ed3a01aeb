"""Single Hand Skitgubbe: a one-phase shedding game for 3 to 8 seats (catsatcards.com, *Single
Hand Skitgubbe*; our rules in docs/presets/single-hand.md, rulings S1 to S16 in docs/rulings.md).

It shares the cards, the seats and the actions of the main engine but nothing of its phases, so it
is a state machine of its own.  Pure and I/O-free; stdlib only.

In short: four cards each; the top stock card is turned to start the *play pile*; in turn, a seat
covers the top card of the pile with one or more cards of one rank that rank equal or higher, in
the text's order where the 2 is highest and the ace lowest (``2 3 4 5 6 7 8 9 10 J Q K A``), and
draws back up to four.  A seat holding no such card picks up the pile or *takes a chance* (turns up
the top stock card onto the pile: if it does not cover, the seat picks up the pile with it).  A 10
may go on anything and clears the pile; so do four cards of one rank on top of the pile.  The seat
that cleared starts a new pile.  Once the stock is empty nobody draws or takes a chance, and a seat
with no cards left goes out.  The last seat holding cards is the loser.

Conventions, as in :mod:`skitgubbe.engine.state`: seats are ``0..players-1`` clockwise (the seat to the
*left* of ``s`` is ``(s + 1) % players``); card sets are ``int`` bitmasks (bit i = card i, see
:mod:`skitgubbe.engine.cards`); ranks are 2..14 with 14 the ace.

Actions are :class:`skitgubbe.engine.actions.Action` values:

=====================  ======================================================================
``Action(Kind.PLAY, m)``  cover the top card (or start a new pile) with card set ``m``: one or
                       more cards of one rank from the hand
``Action(Kind.PICK_UP)``  pick up the whole pile (:data:`PICK_UP`)
``Action(Kind.STOCK)``    take a chance: turn up the top stock card onto the pile (:data:`TAKE_CHANCE`)
=====================  ======================================================================

Acting follows the main engine: :meth:`SingleHandState.legal_actions`, :meth:`~SingleHandState.check`
(raises :class:`~skitgubbe.engine.base.IllegalActionError` saying what is wrong and what is allowed),
:meth:`~SingleHandState.can`, :meth:`~SingleHandState.apply`.  A refused action leaves the state
exactly as it was.  :func:`view_of` gives what one seat may see; :func:`render_view` writes it as text.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from ..engine.actions import Action, ActionParseError, Kind, parse_action
from ..engine.base import GameOverError, IllegalActionError, Outcome
from ..engine.cards import FULL_DECK, RANK_MASKS, card_label, cards_in, lowest, rank_of
from ..engine.state import deck_from_seed, validate_deck  # the same deck rules as the main engine

__all__ = [
    "SOURCE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "HAND_SIZE",
    "DEFAULT_ACTION_LIMIT",
    "PICK_UP",
    "TAKE_CHANCE",
    "STARTER",
    "PLAYED",
    "TURNED",
    "PileEntry",
    "Event",
    "SingleHandState",
    "SingleHandView",
    "strength",
    "covers",
    "view_of",
    "render_view",
    "action_label",
    "parse_move",
    "GameOverError",
    "IllegalActionError",
    "Outcome",
]

SOURCE = "catsatcards.com, Single Hand Skitgubbe"
"""The rule text this module implements."""

MIN_PLAYERS = 3
MAX_PLAYERS = 8
HAND_SIZE = 4
"""Cards dealt to each seat, and the count a seat draws back up to while the stock lasts."""

DEFAULT_ACTION_LIMIT = 20_000
"""A deal that reaches this many actions is abandoned with no loser (ruling S15)."""

TEN = 10
"""The rank that may go on any card and clears the pile."""

PICK_UP = Action(Kind.PICK_UP)
"""Pick up the whole play pile."""
TAKE_CHANCE = Action(Kind.STOCK)
"""Take a chance: turn up the top stock card onto the play pile."""

# Where a card on the pile came from (PileEntry.source).
STARTER = 0
"""The card turned up from the stock after the deal."""
PLAYED = 1
"""Cards played from a seat's hand."""
TURNED = 2
"""The card a seat turned up when it took a chance."""

_OVER = -2


def strength(rank: int) -> int:
    """The place of ``rank`` (2..14, 14 = ace) in the text's order: 0 for the ace (lowest) up to
    12 for the 2 (highest); the 10 is 4, between the 9 and the jack (ruling S1)."""
    return 14 - rank


def covers(rank: int, top_rank: int) -> bool:
    """True if a card of ``rank`` may go on a pile whose top card has ``top_rank`` (both 2..14):
    it ranks equal or higher in the text's order, or it is a 10 (rulings S1, S2)."""
    return rank == TEN or rank <= top_rank


def _rank(cards: int) -> int:
    """Rank of the cards of a non-empty card set of one rank."""
    return rank_of(lowest(cards))


class PileEntry(NamedTuple):
    """One group of cards put on the play pile together.

    Attributes:
        seat: the seat that put it there; -1 for the starter card.
        cards: card set (bitmask) of one rank.
        source: :data:`STARTER`, :data:`PLAYED` or :data:`TURNED`.
    """

    seat: int
    cards: int
    source: int


class Event(NamedTuple):
    """Something that happened, for narration; never holds a hidden card.

    ``kind``: ``start`` (the starter card turned: ``cards``), ``play`` (``seat`` put ``cards`` on
    the pile), ``chance`` (``seat`` turned up ``cards`` from the stock), ``chance-fails`` (it did not
    cover: a ``pick-up`` follows), ``pick-up`` (``seat`` took ``cards``, the whole pile), ``clear``
    (the pile ``cards`` set aside; ``n`` is 10 for a 10 or 4 for four of a kind; ``seat`` cleared it,
    -1 for the starter), ``lead`` (``seat`` is to start a new pile), ``draw`` (``seat`` drew ``n``
    cards, not shown), ``stock-empty``, ``out`` (``seat`` has no cards left and is safe), ``loser``,
    ``abandoned``.
    """

    kind: str
    seat: int = -1
    cards: int = 0
    n: int = 0


_PLAYS: dict[int, tuple[Action, ...]] = {}


def _plays_of(m: int) -> tuple[Action, ...]:
    """The PLAY actions of every non-empty subset of card set ``m`` (cards of one rank), fewest
    cards first (cached)."""
    acts = _PLAYS.get(m)
    if acts is None:
        subs = []
        sub = m
        while sub:
            subs.append(sub)
            sub = (sub - 1) & m
        subs.sort(key=lambda x: (x.bit_count(), x))
        acts = _PLAYS[m] = tuple(Action(Kind.PLAY, x) for x in subs)
    return acts


def _labels(mask: int) -> str:
    """The cards of ``mask`` from the text's lowest (aces) to its highest (2s), unicode labels."""
    return " ".join(card_label(c) for c in sorted(cards_in(mask), key=lambda c: (strength(rank_of(c)), c)))


class SingleHandState:
    """One deal of Single Hand Skitgubbe in progress.  Mutable; :meth:`clone` copies it.

    Build with :meth:`new`.  Public attributes (read them, do not assign):
        players (int, 3..8), dealer (seat), deck (the 52 cards in dealing order), to_act (the seat
        whose decision is pending; -2 once the deal is over), hands (list of card sets, one per seat),
        stock (list of cards, top card last), pile (list of :class:`PileEntry`, bottom first; empty
        when a new pile is to be started), discarded (card set of every card cleared from the game),
        known (per seat, the card set everyone knows is in that hand: cards it picked up and has not
        played), out_order (seats that went out, in order), loser (seat or None), abandoned (bool),
        history (list of ``(seat, Action)``), events (list of :class:`Event`), action_limit (int).
    """

    players: int
    dealer: int
    deck: tuple[int, ...]
    to_act: int
    hands: list[int]
    stock: list[int]
    pile: list[PileEntry]
    discarded: int
    known: list[int]
    out_order: list[int]
    loser: int | None
    abandoned: bool
    history: list[tuple[int, Action]]
    events: list[Event]
    action_limit: int

    @classmethod
    def new(
        cls,
        players: int,
        *,
        seed: int | str | None = None,
        deck: Sequence[int] | None = None,
        dealer: int = 0,
        action_limit: int = DEFAULT_ACTION_LIMIT,
    ) -> SingleHandState:
        """Deal a new game.

        Args:
            players: number of seats, 3..8.
            seed: shuffle with :func:`skitgubbe.engine.state.deck_from_seed` (the same order as the main
                engine), or
            deck: the 52 cards (ints 0..51) in dealing order, first dealt first.  Exactly one of
                ``seed`` and ``deck``.
            dealer: the dealer's seat.  Four cards go to each seat one at a time clockwise from the
                dealer's left; the rest is the stock, top card first; its top card is then turned up
                to start the pile (ruling S3); the dealer's left has the first turn.
            action_limit: abandon the deal (no loser) after this many actions (ruling S15).

        Raises ``ValueError`` for a seat count outside 3..8, a dealer seat that does not exist, a deck
        that is not the 52 cards once each, neither or both of ``seed`` and ``deck``, or an action
        limit below 1.
        """
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(
                f"Single Hand Skitgubbe is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
            )
        if not 0 <= dealer < players:
            raise ValueError(f"dealer seat {dealer} does not exist: seats are 0..{players - 1}")
        if (deck is None) == (seed is None):
            raise ValueError("give exactly one of deck (the card order) or seed")
        if action_limit < 1:
            raise ValueError(f"action_limit must be at least 1, not {action_limit}")
        d = validate_deck(deck) if deck is not None else deck_from_seed(seed)  # type: ignore[arg-type]
        self = cls.__new__(cls)
        self.players = players
        self.dealer = dealer
        self.deck = d
        self.action_limit = action_limit
        self.hands = [0] * players
        dealt = players * HAND_SIZE
        for i in range(dealt):
            self.hands[(dealer + 1 + i) % players] |= 1 << d[i]
        self.stock = list(reversed(d[dealt:]))
        self.pile = []
        self.discarded = 0
        self.known = [0] * players
        self.out_order = []
        self.loser = None
        self.abandoned = False
        self.history = []
        self.events = []
        self.to_act = (dealer + 1) % players
        starter = self.stock.pop()
        self.pile.append(PileEntry(-1, 1 << starter, STARTER))
        self.events.append(Event("start", -1, 1 << starter))
        if self._clears():  # a 10 turned up clears at once; the first seat starts a new pile (S4)
            self._clear(-1)
            self.events.append(Event("lead", self.to_act))
        return self

    @classmethod
    def from_position(
        cls,
        hands: Sequence[int],
        *,
        pile: Sequence[int] = (),
        stock: Sequence[int] = (),
        to_act: int = 0,
        dealer: int = 0,
        action_limit: int = DEFAULT_ACTION_LIMIT,
    ) -> SingleHandState:
        """A position in the middle of a deal, to practise or test an end game.

        Args:
            hands: one card set (bitmask) per seat, 3..8 seats; a seat with no cards is out (then
                ``stock`` must be empty).
            pile: the play pile bottom first, one card set of one rank per group put down together
                (recorded as played by no seat); empty when ``to_act`` is to start a new pile.
            stock: the stock, top card first.
            to_act: the seat to act; it must hold cards.
            dealer, action_limit: as in :meth:`new`.

        Cards in none of these are taken to be cleared from the game (:attr:`discarded`).  Nothing is
        known about any hand and the history is empty; :attr:`deck` is empty (no deal behind it).
        Raises ``ValueError`` for a seat count outside 3..8, a card in two places, a pile group that
        is empty or of two ranks, a pile whose top four cards are of one rank or whose top is a 10
        (it would have been cleared), a seat without cards while the stock has cards, a hand of fewer
        than four cards while the stock has cards, fewer than two seats holding cards, or ``to_act``
        or ``dealer`` not a seat holding cards / a seat.
        """
        n = len(hands)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"Single Hand Skitgubbe is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
        if not 0 <= dealer < n:
            raise ValueError(f"dealer seat {dealer} does not exist: seats are 0..{n - 1}")
        seen = 0
        groups = list(hands) + list(pile) + [1 << c if 0 <= c < 52 else -1 for c in stock]
        for g in groups:
            if g < 0 or g & ~FULL_DECK:
                raise ValueError(f"{g!r} is not a card set of the 52 cards")
            if seen & g:
                raise ValueError(f"card {card_label(lowest(seen & g))} is in two places")
            seen |= g
        for g in pile:
            if not g or g & ~RANK_MASKS[_rank(g)]:
                raise ValueError("each pile group must be one or more cards of one rank")
        holders = [s for s in range(n) if hands[s]]
        if len(holders) < 2:
            raise ValueError("at least two seats must hold cards: otherwise the deal is over")
        if stock and any(h.bit_count() < HAND_SIZE for h in hands):
            raise ValueError("while the stock has cards every seat holds four or more (it draws up to four)")
        if not 0 <= to_act < n or not hands[to_act]:
            raise ValueError(f"seat {to_act} cannot be to act: the seat to act must exist and hold cards")
        self = cls.__new__(cls)
        self.players = n
        self.dealer = dealer
        self.deck = ()
        self.action_limit = action_limit
        self.hands = list(hands)
        self.stock = list(reversed(stock))
        self.pile = [PileEntry(-1, g, PLAYED) for g in pile]
        self.discarded = FULL_DECK & ~seen
        self.known = [0] * n
        self.out_order = [s for s in range(n) if not hands[s]]
        self.loser = None
        self.abandoned = False
        self.history = []
        self.events = []
        self.to_act = to_act
        if self.pile and self._clears():
            raise ValueError("the pile's top is a 10 or four cards of one rank: it would have been cleared")
        return self

    def clone(self) -> SingleHandState:
        """An independent copy (history and events copied too)."""
        other = object.__new__(type(self))
        d = self.__dict__.copy()
        for k, v in d.items():
            if type(v) is list:
                d[k] = v.copy()
        other.__dict__.update(d)
        return other

    # -- queries -------------------------------------------------------------------------------

    @property
    def current_seat(self) -> int:
        """The seat to act (:attr:`to_act`); -2 once the deal is over."""
        return self.to_act

    @property
    def is_over(self) -> bool:
        """True once the deal has ended: a loser is known, or it was abandoned."""
        return self.to_act == _OVER

    @property
    def outcome(self) -> Outcome | None:
        """The :class:`~skitgubbe.engine.base.Outcome` once the deal is over (``loser``: the last seat
        holding cards, or None if abandoned; ``out_order``: the others in the order they went out),
        else None."""
        if not self.is_over:
            return None
        return Outcome(self.loser, tuple(self.out_order), self.abandoned)

    @property
    def top_rank(self) -> int:
        """Rank (2..14) of the top card of the pile; 0 when the pile is empty (a new pile is due)."""
        return _rank(self.pile[-1].cards) if self.pile else 0

    def pile_cards(self) -> int:
        """Card set of every card on the play pile."""
        m = 0
        for e in self.pile:
            m |= e.cards
        return m

    def hand_sizes(self) -> list[int]:
        """Cards in each seat's hand."""
        return [h.bit_count() for h in self.hands]

    def must_play(self, seat: int) -> bool:
        """True if ``seat`` holds a card that ranks equal or higher than the top card (a 10 counts
        only by its rank), so that it may neither pick up nor take a chance (ruling S2); always
        True when the pile is empty (a new pile is due)."""
        if not self.pile:
            return True
        top = self.top_rank
        hand = self.hands[seat]
        return any(hand & RANK_MASKS[r] for r in range(2, top + 1))

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action of ``seat`` (default :attr:`to_act`) now; empty for a seat that is not
        to act and once the deal is over.

        Plays come first, from the lowest rank of the text's order (aces) to the highest (2s), and
        within a rank from the fewest cards up; then :data:`PICK_UP`, then :data:`TAKE_CHANCE`.
        Raises ``ValueError`` for a seat that does not exist.
        """
        s = self.to_act if seat is None else seat
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat}: seats are 0..{self.players - 1}")
        if self.is_over or s != self.to_act:
            return []
        hand = self.hands[s]
        top = self.top_rank
        out: list[Action] = []
        for r in range(14, 1, -1):
            m = hand & RANK_MASKS[r]
            if not m or (top and not covers(r, top)):
                continue
            out.extend(_plays_of(m))
        if top and not self.must_play(s):
            out.append(PICK_UP)
            if self.stock:
                out.append(TAKE_CHANCE)
        return out

    def random_action(self, rng: random.Random) -> Action:
        """A legal action of :attr:`to_act` drawn uniformly from :meth:`legal_actions` with ``rng``.

        Raises ``ValueError`` when the deal is over.
        """
        legal = self.legal_actions()
        if not legal:
            raise ValueError("the game is over: there is no action to take")
        return legal[rng.randrange(len(legal))]

    # -- checking ---------------------------------------------------------------------------------

    def explain(self, action: Action, seat: int | None = None) -> str | None:
        """Why ``seat`` (default :attr:`to_act`) may not take ``action`` now, followed by what it may
        do, in one line; None if the action is legal."""
        s = self.to_act if seat is None else seat
        if self.is_over:
            return self._over_text()
        if not isinstance(action, Action):
            return f"{action!r} is not an Action; " + self._allowed(self.to_act)
        if not 0 <= s < self.players:
            return f"there is no seat {s}: seats are 0..{self.players - 1}"
        if s != self.to_act:
            return f"it is seat {self.to_act}'s turn, not seat {s}'s"
        kind, cards, order = action
        if order:
            return "only the dreck of the main game has an order; " + self._allowed(s)
        if kind == Kind.PLAY:
            return self._explain_play(s, cards)
        if kind not in (Kind.PICK_UP, Kind.STOCK):
            return (
                f"there is no {Kind(kind).name.lower()} in Single Hand Skitgubbe "
                "(only play, pick up and take a chance); " + self._allowed(s)
            )
        if cards:
            return f"{action_label(Action(kind))} takes no cards; " + self._allowed(s)
        verb = "pick up the pile" if kind == Kind.PICK_UP else "take a chance"
        if not self.pile:
            return f"there is no pile: you may not {verb} but must start a new one; " + self._allowed(s)
        if self.must_play(s):
            return (
                f"you hold a card that ranks equal or higher than the top card "
                f"{card_label(lowest(self.pile[-1].cards))}, so you must play; " + self._allowed(s)
            )
        if kind == Kind.STOCK and not self.stock:
            return "the stock is empty, so nobody may take a chance; " + self._allowed(s)
        return None

    def _explain_play(self, s: int, cards: int) -> str | None:
        if cards <= 0 or cards & ~FULL_DECK:
            return f"{cards!r} is not a card set of the 52 cards; " + self._allowed(s)
        hand = self.hands[s]
        if cards & ~hand:
            return f"you do not hold {_labels(cards & ~hand)}; " + self._allowed(s)
        r = _rank(cards)
        if cards & ~RANK_MASKS[r]:
            return "cards played together must all be of one rank; " + self._allowed(s)
        if self.pile and not covers(r, self.top_rank):
            top = card_label(lowest(self.pile[-1].cards))
            return (
                f"{_labels(cards)} ranks below the top card {top} (2 is high, ace low; "
                "a 10 goes on anything); " + self._allowed(s)
            )
        return None

    def _over_text(self) -> str:
        if self.abandoned:
            return "the game is over: it was abandoned at the action limit"
        return f"the game is over: seat {self.loser} lost"

    def _allowed(self, s: int) -> str:
        """What seat ``s`` may do now, in words."""
        legal = self.legal_actions(s)
        playable = 0
        for a in legal:
            playable |= a.cards
        parts = []
        if playable:
            what = "start a new pile with" if not self.pile else "play"
            parts.append(f"{what} any of {_labels(playable)} (several at once if of one rank)")
        if PICK_UP in legal:
            parts.append("pick up the pile")
        if TAKE_CHANCE in legal:
            parts.append("take a chance")
        return "allowed now: " + "; ".join(parts)

    def check(self, action: Action, seat: int | None = None) -> None:
        """Raise if ``seat`` (default :attr:`to_act`) may not take ``action`` now.

        Raises :class:`~skitgubbe.engine.base.GameOverError` once the deal is over, otherwise
        :class:`~skitgubbe.engine.base.IllegalActionError` whose ``reason`` says what is wrong and what the
        seat may do.  Never changes the state.
        """
        s = self.to_act if seat is None else seat
        reason = self.explain(action, s)
        if reason is None:
            return
        if self.is_over:
            raise GameOverError(s, action, reason)
        raise IllegalActionError(s, action, reason)

    def can(self, action: Action, seat: int | None = None) -> bool:
        """True if ``seat`` (default :attr:`to_act`) may take ``action`` now."""
        return self.explain(action, seat) is None

    # -- acting ------------------------------------------------------------------------------------

    def step(self, action: Action, seat: int) -> None:
        """Take ``action`` for ``seat`` unchecked: the fast path of simulations
        (:func:`skitgubbe.batch.runner.play_out`), only for an action just listed by
        :meth:`legal_actions` of this same state."""
        self.apply(action, seat, trusted=True)

    def apply(self, action: Action, seat: int | None = None, *, trusted: bool = False) -> None:
        """Take ``action`` for ``seat`` (default :attr:`to_act`).

        With ``trusted=True`` the check is skipped: only for an action just taken from
        :meth:`legal_actions` of this same state.  Raises :class:`~skitgubbe.engine.base.IllegalActionError`
        (or :class:`~skitgubbe.engine.base.GameOverError`) and leaves the state unchanged if it is not legal.
        """
        s = self.to_act if seat is None else seat
        if not trusted:
            self.check(action, s)
        self.history.append((s, action))
        kind = action[0]
        if kind == Kind.PLAY:
            self._play(s, action[1])
        elif kind == Kind.PICK_UP:
            self._pick_up(s)
        else:
            self._take_chance(s)
        if len(self.history) >= self.action_limit and not self.is_over:
            self.abandoned = True
            self.events.append(Event("abandoned"))
            self._finish(None)

    def _play(self, s: int, cards: int) -> None:
        self.hands[s] &= ~cards
        self.known[s] &= ~cards
        self.pile.append(PileEntry(s, cards, PLAYED))
        self.events.append(Event("play", s, cards))
        cleared = self._clears()
        if cleared:
            self._clear(s)
        self._draw(s)
        self._after(s, lead_again=cleared)

    def _take_chance(self, s: int) -> None:
        c = self.stock.pop()
        top = self.top_rank
        self.pile.append(PileEntry(s, 1 << c, TURNED))
        self.events.append(Event("chance", s, 1 << c))
        if not self.stock:
            self.events.append(Event("stock-empty"))
        if covers(rank_of(c), top):
            cleared = self._clears()
            if cleared:  # the turned card cleared the pile: the seat starts a new one (S10)
                self._clear(s)
            self._draw(s)
            self._after(s, lead_again=cleared)
        else:
            self.events.append(Event("chance-fails", s, 1 << c))
            self._pick_up(s)

    def _pick_up(self, s: int) -> None:
        cards = self.pile_cards()
        self.hands[s] |= cards
        self.known[s] |= cards
        self.pile = []
        self.events.append(Event("pick-up", s, cards))
        self.to_act = self._next_holding(s)
        self.events.append(Event("lead", self.to_act))

    def _clears(self) -> bool:
        """True if the top of the pile is a 10, or four cards of one rank (S7, S8)."""
        top = self.pile[-1].cards
        r = _rank(top)
        if r == TEN:
            return True
        k = 0
        for e in reversed(self.pile):
            if _rank(e.cards) != r:
                break
            k += e.cards.bit_count()
        return k == 4

    def _clear(self, s: int) -> None:
        cards = self.pile_cards()
        reason = TEN if _rank(self.pile[-1].cards) == TEN else 4
        self.discarded |= cards
        self.pile = []
        self.events.append(Event("clear", s, cards, reason))

    def _draw(self, s: int) -> None:
        """Draw from the stock until ``s`` holds four cards or the stock is empty (S6)."""
        n = 0
        hand = self.hands[s]
        stock = self.stock
        while stock and hand.bit_count() < HAND_SIZE:
            hand |= 1 << stock.pop()
            n += 1
        if n:
            self.hands[s] = hand
            self.events.append(Event("draw", s, 0, n))
            if not stock:
                self.events.append(Event("stock-empty"))

    def _after(self, s: int, *, lead_again: bool) -> None:
        """Pass the turn after seat ``s`` acted; ``lead_again``: ``s`` cleared the pile (S9, S13)."""
        if self.hands[s]:
            self.to_act = s if lead_again else self._next_holding(s)
            if lead_again:
                self.events.append(Event("lead", s))
            return
        # empty-handed after its draw: the stock is empty, so the seat goes out (S12)
        self.out_order.append(s)
        self.events.append(Event("out", s))
        holders = [i for i in range(self.players) if self.hands[i]]
        if len(holders) == 1:
            self._finish(holders[0])
            return
        self.to_act = self._next_holding(s)
        if not self.pile:
            self.events.append(Event("lead", self.to_act))

    def _next_holding(self, seat: int) -> int:
        """The first seat clockwise after ``seat`` that holds cards (``seat`` if none does)."""
        n = self.players
        s = (seat + 1) % n
        while not self.hands[s] and s != seat:
            s = (s + 1) % n
        return s

    def _finish(self, loser: int | None) -> None:
        self.to_act = _OVER
        self.loser = loser
        if loser is not None:
            self.events.append(Event("loser", loser))

    def view(self, seat: int) -> SingleHandView:
        """Same as :func:`view_of` (``self``, ``seat``)."""
        return view_of(self, seat)


class SingleHandView(NamedTuple):
    """What one seat may see of a deal (immutable).  Card sets are bitmasks (bit i = card i).

    It holds no card of another hand except its known cards, and nothing of the stock but its size.

    Attributes:
        seat: whose view this is.
        players, dealer: the table.
        to_act: the seat whose decision is pending, -2 once the deal is over.
        hand: this seat's hand (card set).
        hand_sizes: cards in each hand, per seat.
        stock_size: cards left in the stock.
        pile: the play pile bottom first (:class:`PileEntry` tuples; every card on it is face up).
        discarded: card set of every card cleared from the game so far.
        known: per seat, the card set everyone knows is in that hand (picked up, not yet played).
        out_order: seats that went out, in order.
        loser: the loser once the deal is over, else None.
        abandoned: True if the deal was stopped at the action limit.
        history: every action so far, ``(seat, Action)`` (all are public).
        events: every :class:`Event` so far (they never hold a hidden card).
        legal: this seat's legal actions now (empty unless it is to act).
    """

    seat: int
    players: int
    dealer: int
    to_act: int
    hand: int
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile: tuple[PileEntry, ...]
    discarded: int
    known: tuple[int, ...]
    out_order: tuple[int, ...]
    loser: int | None
    abandoned: bool
    history: tuple[tuple[int, Action], ...]
    events: tuple[Event, ...]
    legal: tuple[Action, ...]

    @property
    def my_turn(self) -> bool:
        """True if this seat's decision is pending."""
        return self.to_act == self.seat

    @property
    def top_rank(self) -> int:
        """Rank (2..14) of the top card of the pile; 0 when the pile is empty."""
        return _rank(self.pile[-1].cards) if self.pile else 0

    def pile_cards(self) -> int:
        """Card set of every card on the pile."""
        m = 0
        for e in self.pile:
            m |= e.cards
        return m


def view_of(state: SingleHandState, seat: int) -> SingleHandView:
    """The :class:`SingleHandView` of ``seat`` (0..players-1).  Raises ``ValueError`` for a seat that
    does not exist."""
    if not 0 <= seat < state.players:
        raise ValueError(f"there is no seat {seat}: seats are 0..{state.players - 1}")
    return SingleHandView(
        seat,
        state.players,
        state.dealer,
        state.to_act,
        state.hands[seat],
        tuple(h.bit_count() for h in state.hands),
        len(state.stock),
        tuple(state.pile),
        state.discarded,
        tuple(state.known),
        tuple(state.out_order),
        state.loser,
        state.abandoned,
        tuple(state.history),
        tuple(state.events),
        tuple(state.legal_actions(seat)),
    )


# -- text -----------------------------------------------------------------------------------------


def action_label(action: Action) -> str:
    """Display text of a Single Hand action: ``"play 7♠ 7♥"``, ``"pick up the pile"``,
    ``"take a chance"``."""
    if action.kind == Kind.PICK_UP:
        return "pick up the pile"
    if action.kind == Kind.STOCK:
        return "take a chance"
    return "play " + _labels(action.cards)


def parse_move(text: str) -> Action:
    """Parse a move as typed: card lists (``"7h 7s"``, ``"play 7h"``), ``pick`` / ``pick up`` /
    ``take``, ``chance`` / ``take a chance`` / ``stock`` / ``turn``.

    Raises :class:`~skitgubbe.engine.actions.ActionParseError` naming what is accepted.  The result is not
    checked against the rules (see :meth:`SingleHandState.check`).
    """
    t = " ".join(text.strip().lower().split())
    if t in ("chance", "take a chance", "take chance", "stock", "turn"):
        return TAKE_CHANCE
    if t in ("pick", "pick up", "pickup", "take", "take up", "pick up the pile"):
        return PICK_UP
    hint = "in Single Hand write cards (e.g. '7h 7s'), 'pick' or 'chance'"
    try:
        action = parse_action(t)
    except ActionParseError as e:
        raise ActionParseError(f"{e}; {hint}") from None
    if action.kind not in (Kind.PLAY, Kind.PICK_UP, Kind.STOCK):
        raise ActionParseError(f"{text.strip()!r}: {hint}")
    return action


def render_view(view: SingleHandView, names: Sequence[str] | None = None) -> str:
    """A plain-text picture of ``view`` (several lines, no trailing newline): the stock, the pile,
    every seat's hand size and known cards, this seat's hand and, on its turn, its numbered moves.

    ``names``: a display name per seat (default ``"Seat i"``, and ``"You"`` for ``view.seat``).
    """
    seat_names = list(names) if names is not None else [
        "You" if i == view.seat else f"Seat {i}" for i in range(view.players)
    ]
    lines = ["Single Hand Skitgubbe (2 high ... ace low; a 10 clears the pile)"]
    lines.append(f"Stock: {view.stock_size} cards" + ("" if view.stock_size else " (no draws, no chances)"))
    if view.pile:
        groups = " | ".join(_labels(e.cards) for e in view.pile)
        k = view.pile_cards().bit_count()
        lines.append(f"Pile ({k} card{'' if k == 1 else 's'}, bottom first): {groups}")
        top = view.pile[-1].cards
        lines.append(f"  to cover: {card_label(lowest(top))}: equal or higher (toward 2), or a 10")
    else:
        lines.append("Pile: empty: a new pile is to be started with any card(s) of one rank")
    if view.discarded:
        k = view.discarded.bit_count()
        lines.append(f"Cleared from the game: {k} card{'' if k == 1 else 's'}")
    for i in range(view.players):
        tag = ""
        if i in view.out_order:
            tag = " · out"
        elif view.to_act == i:
            tag = "  ◀ to act"
        known = f" · known: {_labels(view.known[i])}" if view.known[i] and i != view.seat else ""
        lines.append(f"  {seat_names[i]:<14} {view.hand_sizes[i]} in hand{known}{tag}")
    lines.append(f"Your hand: {_labels(view.hand) or '(none)'}")
    if view.loser is not None:
        lines.append(f"Game over: {seat_names[view.loser]} is the skitgubbe")
    elif view.abandoned:
        lines.append("Game over: abandoned at the action limit")
    elif view.legal:
        lines.append("Moves:")
        lines.extend(f"  {k}) {action_label(a)}" for k, a in enumerate(view.legal, 1))
    return "\n".join(lines)
