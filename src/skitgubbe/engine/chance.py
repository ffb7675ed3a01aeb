"""Chance as engine steps: a deal in which every card that chance decides is a ``CHANCE`` decision.

By default a :class:`~skitgubbe.engine.state.State` deals itself: the deck order given to
:meth:`State.new <skitgubbe.engine.state.State.new>` decides every dealt card and every chance
draw, and the dreck (or Koira's split, or a trick dealt round) is one ``DRECK`` action whose order
a caller's ``random.Random`` shuffles.  A :class:`ChanceState` is the opt-in mode in which each of
these cards is a decision of its own, as OpenSpiel's games have them:

* every dealt card, one node each in dealing order (seat ``(dealer + 1 + i) % players`` gets the
  ``i``-th), then, under ``bottom_aside`` or ``exposed_bottom``, the bottom card under the stock
  (set aside face down, or shown);
* every card a step takes from the stock or the avstickshög (a draw after a play or a sluff,
  Mas's drawing up, a card turned up, the last stock card, a card drawn from the avstickshög after
  a phase-two kill), in drawing order, once the seat's action is given;
* every card of a chance deal (the dreck dealt to several seats, a dreck card set aside, Koira's
  split into the tied seats' piles, an unfinished trick dealt round), in dealing order.

At a chance node :attr:`ChanceState.to_act` is :data:`~skitgubbe.engine.actions.CHANCE`,
:meth:`ChanceState.chance_outcomes` lists ``(card, probability)`` (uniform over the cards that
can come next given what is known: unseen cards are exchangeable until chance picks them; a card
lying face up under the stock is the last stock card; the probabilities sum to 1) and
:meth:`ChanceState.apply` takes a card number (0..51).  At a seat's decision it takes an
:class:`~skitgubbe.engine.actions.Action`, as ``State.apply`` does.  :meth:`ChanceState.slot`
says what the next chance card is for (:class:`Slot`: which seat gets it and who sees it).

Underneath, the engine :class:`~skitgubbe.engine.state.State` (:attr:`ChanceState.engine`) is
built once the deal is complete, with the undealt cards in a placeholder order; each step that
takes cards waits for its chance nodes and is then taken with ``State.apply(..., draws=cards)``,
which stacks the stock to match.  Because unseen cards are exchangeable, the engine state is
always exactly the one the engine reaches from some deck order with the same actions.

:class:`DeckChance` gives the outcome that a deck order (and a ``random.Random`` for the order of
a chance deal) dictates at each chance node, so that following it reproduces the default engine's
deal of that deck card for card: the same actions, events and outcome.

Example (runs as written)::

    import random
    from skitgubbe.engine.chance import ChanceState, DeckChance
    from skitgubbe.engine.state import deck_from_seed
    from skitgubbe.engine.variants import find_variant

    cs = ChanceState.new(find_variant("pagat"), 3)
    rng = random.Random(1)
    follow = DeckChance(deck_from_seed(7), random.Random(7))
    while not cs.is_over:
        if cs.is_chance:
            cs.apply(follow.outcome(cs))       # or rng.choice(cs.chance_outcomes())[0]
        else:
            cs.apply(rng.choice(cs.legal_actions()))
    print(cs.engine.outcome)

Explicit chance supports one pack only (``rules.decks == 1``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from .actions import CHANCE, Action, Kind
from .base import PUBLIC, Phase
from .cards import SUIT_MASKS, cards_in
from .i18n import N_, Message
from .rules import Rules
from .seats import Seats
from .state import Draw, IllegalActionError, State
from .view import SPECTATOR, View, view_of

__all__ = ["Slot", "Entry", "ChanceState", "DeckChance"]

_WORLD_TRIES = 100
"""Placements :meth:`ChanceState.world_history` draws before it keeps the real cards (see there)."""


class Slot(NamedTuple):
    """What the next chance card is for.

    Attributes:
        kind: ``deal`` (a dealt card), ``bottom`` (the bottom card under the stock, set aside or
            shown), ``draw`` (a stock card into a hand), ``stock`` (turned up and played),
            ``trump-aside`` (the last stock card, kept face down by its holder), ``trump-drawn``
            (the last stock card, shown as it is drawn), ``reserve-draw`` (from the avstickshög),
            ``dreck-share`` (a dreck card to a needy seat), ``dreck-aside`` (a dreck card that
            does not share out evenly, set aside face up), ``split`` (Koira's split, into a
            pile) or ``trick-dealt`` (an unfinished trick dealt into hands): the engine's
            :class:`~skitgubbe.engine.base.Event` kinds where the engine has one.
        seat: the seat that gets the card (for a card turned up, the seat that turns it), -1 for
            none (the bottom card, a dreck card set aside).
        to: who sees the card: :data:`~skitgubbe.engine.base.PUBLIC` (-1), a seat set (bit s =
            seat s), or 0 (nobody).
    """

    kind: str
    seat: int
    to: int

    def seen_by(self, seat: int) -> bool:
        """True if ``seat`` sees the card of this slot."""
        return self.to == PUBLIC or bool(self.to >> seat & 1)


class Entry(NamedTuple):
    """One step of a :class:`ChanceState`'s history.

    Attributes:
        seat: the seat that acted, or ``CHANCE`` (-1).
        action: the seat's :class:`~skitgubbe.engine.actions.Action`, None for chance.
        card: the chance outcome (a card number), -1 for a seat's action.
        slot: the :class:`Slot` the chance card filled, None for a seat's action.
    """

    seat: int
    action: Action | None
    card: int
    slot: Slot | None


_placeholders: dict[tuple[Rules, int, int], State] = {}


def _placeholder(rules: Rules, players: int, dealer: int) -> State:
    """A State used only for the shape of a view while the cards are being dealt."""
    key = (rules, players, dealer)
    st = _placeholders.get(key)
    if st is None:
        st = _placeholders[key] = State.new(rules, players, dealer=dealer, deck=tuple(cards_in(rules.pack)))
    return st


class ChanceState:
    """One deal with chance as explicit steps (see the module docstring).  Build with :meth:`new`.

    Read-only attributes (only :meth:`apply` changes them):
        rules (:class:`~skitgubbe.engine.rules.Rules`), players (int), dealer (seat), options
        (the keyword arguments given to ``State.new``: ``leader``, ``live``, ``ask_every_seat``,
        ``action_limit``);
        engine: the engine :class:`~skitgubbe.engine.state.State` once every card of the deal is
            dealt, else None;
        history: every step, chance included (list of :class:`Entry`);
        dealt: the cards dealt so far in dealing order (list of cards);
        bottom: the bottom card chosen at the deal under ``bottom_aside``/``exposed_bottom``, -1;
        pending: a seat's step ``(seat, Action)`` waiting for the cards it takes, else None;
        draws: that step's :class:`~skitgubbe.engine.state.Draw` per card (tuple);
        chosen: the cards chance has picked for it so far (list);
        deal_order: the cards of a chance deal (Phase.DRECK) dealt so far (list).
    """

    rules: Rules
    players: int
    dealer: int
    options: dict[str, object]
    engine: State | None
    history: list[Entry]
    dealt: list[int]
    bottom: int
    pending: tuple[int, Action] | None
    draws: tuple[Draw, ...]
    chosen: list[int]
    deal_order: list[int]
    _sees: list[int]

    @classmethod
    def new(cls, rules: Rules, players: int, *, dealer: int = 0, leader: int | None = None,
            live: bool = False, ask_every_seat: bool = False, action_limit: int | None = None) -> ChanceState:
        """A deal about to be dealt: chance is to act.  The arguments are those of
        :meth:`State.new <skitgubbe.engine.state.State.new>` (without ``deck``/``seed``: chance
        deals).  Raises :class:`~skitgubbe.engine.rules.RulesError` (a ``ValueError``) for a seat
        count the rules cannot be dealt to, ``ValueError`` for a dealer or leader seat that does
        not exist or for rules with two packs."""
        rules.check_players(players)
        if rules.decks != 1:
            raise ValueError("explicit chance supports one pack only (rules.decks == 1)")
        for what, s in (("dealer", dealer), ("leader", leader)):
            if s is not None and not 0 <= s < players:
                raise ValueError(f"{what} seat {s} does not exist: seats are 0..{players - 1}")
        self = cls.__new__(cls)
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.options = {"leader": leader, "live": live, "ask_every_seat": ask_every_seat,
                        "action_limit": action_limit}
        self.engine = None
        self.history = []
        self.dealt = []
        self.bottom = -1
        self.pending = None
        self.draws = ()
        self.chosen = []
        self.deal_order = []
        self._sees = Seats(players, confusion=rules.confusion).sees
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> ChanceState:
        return self.clone()

    def clone(self) -> ChanceState:
        """An independent copy (the engine cloned, the lists copied)."""
        other = object.__new__(ChanceState)
        other.__dict__.update(self.__dict__)
        other.engine = None if self.engine is None else self.engine.clone()
        other.history = self.history.copy()
        other.dealt = self.dealt.copy()
        other.chosen = self.chosen.copy()
        other.deal_order = self.deal_order.copy()
        return other

    # -- whose turn ---------------------------------------------------------------------------

    @property
    def to_act(self) -> int:
        """The seat to decide, ``CHANCE`` (-1) at a chance node, -2 once the deal is over."""
        e = self.engine
        if e is None or self.pending is not None:
            return CHANCE
        return e.to_act

    @property
    def is_chance(self) -> bool:
        """True at a chance node."""
        return self.to_act == CHANCE

    @property
    def is_over(self) -> bool:
        """True once the deal is over (a loser, or abandoned at the action limit)."""
        return self.engine is not None and self.engine.phase == Phase.OVER

    def _hand_cards(self) -> int:
        return self.players * self.rules.hand_size

    def _has_bottom(self) -> bool:
        return self.rules.bottom_aside or self.rules.exposed_bottom

    def stock_draws(self, j: int) -> int:
        """How many of the first ``j`` cards of the step waiting for its draws come from the stock."""
        return sum(1 for d in self.draws[:j] if d.source == "stock")

    def slot(self) -> Slot:
        """What the next chance card is for (:class:`Slot`).  Raises ``ValueError`` when chance is
        not to act."""
        e = self.engine
        if e is None:
            i = len(self.dealt)
            if i < self._hand_cards():
                seat = (self.dealer + 1 + i) % self.players
                return Slot("deal", seat, self._sees[seat])
            return Slot("bottom", -1, PUBLIC if self.rules.exposed_bottom else 0)
        if self.pending is not None:
            j = len(self.chosen)
            d = self.draws[j]
            to = d.to
            if (self.rules.exposed_bottom and d.source == "stock"
                    and len(e.stock) == self.stock_draws(j + 1)):
                to = PUBLIC  # the last stock card lies face up: everyone knows it
            return Slot(d.kind, d.seat, to)
        if e.phase != Phase.DRECK:
            raise ValueError("slot() asked when chance is not to act")
        seats = e.deal_seats()
        k = len(seats)
        i = len(self.deal_order)
        seat = seats[i % k]
        if e.chance_seats:  # Koira's split, an unfinished trick dealt round: seen by all
            return Slot("split" if e.chance_to_piles else "trick-dealt", seat, PUBLIC)
        if self.rules.dreck_remainder_aside:
            total = e.dreck.bit_count()
            if i >= total - total % k:  # does not share out evenly: set aside, face up
                return Slot("dreck-aside", -1, PUBLIC)
        return Slot("dreck-share", seat, e.seats.sees[seat])

    def outcome_cards(self) -> list[int]:
        """The cards the current chance node may pick, sorted, each equally likely.  Raises
        ``ValueError`` when chance is not to act."""
        e = self.engine
        if e is None:
            taken = 0
            for c in self.dealt:
                taken |= 1 << c
            return list(cards_in(self.rules.pack & ~taken))
        if self.pending is not None:
            chosen = self.chosen
            j = len(chosen)
            if (self.rules.exposed_bottom and self.draws[j].source == "stock"
                    and len(e.stock) == self.stock_draws(j + 1)):
                return [e.stock[0]]  # the last stock card lies face up
            pool = e.draw_pool()
            for c in chosen:
                pool &= ~(1 << c)
            return list(cards_in(pool))
        if e.phase == Phase.DRECK:
            done = 0
            for c in self.deal_order:
                done |= 1 << c
            return list(cards_in(e.pending_deal() & ~done))
        raise ValueError("chance outcomes asked when chance is not to act")

    def _is_outcome(self, card: int) -> bool:
        """``card in self.outcome_cards()``, without listing them where it can."""
        e = self.engine
        if e is None or self.pending is None or not 0 <= card < 52:
            return card in self.outcome_cards()
        j = len(self.chosen)
        if (self.rules.exposed_bottom and self.draws[j].source == "stock"
                and len(e.stock) == self.stock_draws(j + 1)):
            return card == e.stock[0]
        return bool(e.draw_pool() >> card & 1) and card not in self.chosen

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(card, probability)`` for every card the current chance node may pick: uniform, the
        probabilities sum to 1.  Raises ``ValueError`` when chance is not to act."""
        cards = self.outcome_cards()
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def legal_actions(self, seat: int | None = None) -> list[Action] | list[int]:
        """What ``seat`` (default :attr:`to_act`) may do now: at a chance node (``seat`` CHANCE)
        the outcome cards (:meth:`outcome_cards`), else the seat's legal actions as
        ``State.legal_actions`` lists them (empty while chance is to act and once the deal is over).
        Raises ``ValueError`` for a seat that does not exist."""
        s = self.to_act if seat is None else seat
        if not -2 <= s < self.players:
            raise ValueError(f"there is no seat {s}: seats are 0..{self.players - 1} (and -1 for chance)")
        if s == CHANCE:
            return self.outcome_cards() if self.is_chance else []
        e = self.engine
        if e is None or self.pending is not None or s < 0 or e.to_act == CHANCE:
            return []
        return e.legal_actions(s)

    # -- acting -------------------------------------------------------------------------------

    def apply(self, action: Action | int, seat: int | None = None, *, trusted: bool = False) -> None:
        """Take ``action``: at a chance node a card number (one of :meth:`outcome_cards`), else an
        :class:`~skitgubbe.engine.actions.Action` of ``seat`` (default :attr:`to_act`; out of
        turn as ``State.apply`` allows).  With ``trusted`` nothing is checked (only for a value
        just taken from :meth:`legal_actions`, or a replay of a history known to be legal).
        Raises :class:`~skitgubbe.engine.state.IllegalActionError` (or ``GameOverError``) for an
        action that is not legal now and ``ValueError`` for a card that is not an outcome here;
        either way the state is unchanged."""
        s = self.to_act if seat is None else seat
        if s == CHANCE:
            if not isinstance(action, int) or isinstance(action, bool):
                raise ValueError(f"chance is to act: give a card number, not {action!r}")
            if not trusted and not self._is_outcome(action):
                raise ValueError(f"card {action} is not a chance outcome here: "
                                 f"the outcomes are {self.outcome_cards()}")
            self._chance(action)
            return
        if not isinstance(action, Action):
            raise ValueError(f"seat {s} is to act: give an Action, not {action!r}")
        e = self.engine
        if e is None or self.pending is not None:
            raise IllegalActionError(s, action,
                                     Message(N_("chance is to act: the cards are being dealt or drawn")))
        if not trusted:
            e.check(action, s)
        self.history.append(Entry(s, action, -1, None))
        self._take(s, action)

    def _chance(self, card: int) -> None:
        slot = self.slot()
        self.history.append(Entry(CHANCE, None, card, slot))
        e = self.engine
        if e is None:
            if slot.kind == "deal":
                self.dealt.append(card)
            else:
                self.bottom = card
            if len(self.dealt) == self._hand_cards() and (self.bottom >= 0 or not self._has_bottom()):
                self._build()
            return
        if self.pending is not None:
            self.chosen.append(card)
            if len(self.chosen) == len(self.draws):
                seat, action = self.pending
                chosen = self.chosen
                self.pending, self.draws, self.chosen = None, (), []
                e.apply(action, seat, trusted=True, draws=chosen)
            return
        self.deal_order.append(card)
        cards = e.pending_deal()
        if len(self.deal_order) == cards.bit_count():
            order = tuple(self.deal_order)
            self.deal_order = []
            e.apply(Action(Kind.DRECK, cards, order), CHANCE, trusted=True)

    def _take(self, seat: int, action: Action) -> None:
        e = self.engine
        assert e is not None
        if e.stock or e.reserve:
            draws = e.draws(action, seat, trusted=True)
            if draws:
                self.pending, self.draws, self.chosen = (seat, action), draws, []
                return
        e.apply(action, seat, trusted=True)

    def _build(self) -> None:
        taken = 0
        for c in self.dealt:
            taken |= 1 << c
        bottom = [self.bottom] if self.bottom >= 0 else []
        if bottom:
            taken |= 1 << self.bottom
        deck = self.dealt + list(cards_in(self.rules.pack & ~taken)) + bottom
        o = self.options
        self.engine = State.new(self.rules, self.players, dealer=self.dealer, deck=deck,
                                leader=o["leader"], live=bool(o["live"]),  # type: ignore[arg-type]
                                ask_every_seat=bool(o["ask_every_seat"]),
                                action_limit=o["action_limit"])  # type: ignore[arg-type]

    # -- what a seat sees ---------------------------------------------------------------------

    def view(self, seat: int) -> View:
        """What ``seat`` sees now: :func:`~skitgubbe.engine.view.view_of` of the engine, with
        ``to_act`` as this state has it (-1 while chance is to act), the cards dealt so far while
        the deal or a chance deal is under way placed where they went.  ``seat`` may be
        :data:`~skitgubbe.engine.view.SPECTATOR`: what every seat may see.  Raises ``ValueError``
        for a seat that does not exist."""
        if not 0 <= seat < self.players and seat != SPECTATOR:
            raise ValueError(f"there is no seat {seat}: seats are 0..{self.players - 1}")
        e = self.engine
        n = self.players
        if e is None:
            sizes = [0] * n
            hand = 0
            for i, c in enumerate(self.dealt):
                s = (self.dealer + 1 + i) % n
                sizes[s] += 1
                if s == seat:
                    hand |= 1 << c
            v = view_of(_placeholder(self.rules, n, self.dealer), seat)
            return v._replace(to_act=CHANCE, hand=hand, hand_sizes=tuple(sizes),
                              stock_size=self.rules.pack_size - len(self.dealt), leader=-1, rounds=(),
                              round_seats=(), exposed_card=-1, legal=(), known=(0,) * n)
        v = view_of(e, seat)
        to_act = self.to_act
        if v.to_act != to_act:  # a step waiting for its draws
            v = v._replace(to_act=to_act, legal=())
        if self.deal_order:  # a chance deal under way: the cards dealt so far are where they went
            sizes = list(v.hand_sizes)
            hand = v.hand
            known = list(v.known)
            piles = list(v.piles)
            killed = v.killed
            seats = e.deal_seats()
            for i, c in enumerate(self.deal_order):
                s = seats[i % len(seats)]
                kind = self._deal_kind(i)
                if kind == "split":
                    piles[s] |= 1 << c
                elif kind == "dreck-aside":
                    killed |= 1 << c
                else:
                    sizes[s] += 1
                    if kind == "trick-dealt":
                        known[s] |= 1 << c
                    if s == seat:
                        hand |= 1 << c
            v = v._replace(hand=hand, hand_sizes=tuple(sizes), known=tuple(known), piles=tuple(piles),
                           killed=killed)
        return v

    def _deal_kind(self, i: int) -> str:
        """The slot kind of the ``i``-th card of the chance deal under way."""
        e = self.engine
        assert e is not None
        if e.chance_seats:
            return "split" if e.chance_to_piles else "trick-dealt"
        k = len(e.deal_seats())
        total = e.dreck.bit_count()
        if self.rules.dreck_remainder_aside and i >= total - total % k:
            return "dreck-aside"
        return "dreck-share"

    def visible(self, seat: int) -> int:
        """The cards (a card set) whose place ``seat`` knows now: its hand, the cards in public
        places (piles, the trick or table, killed, known cards), the trump card if it may see it,
        the card face up under the stock, the cards of a step waiting for its draws and of a
        chance deal that is public (Koira's split, a trick dealt round)."""
        v = self.view(seat)
        m = v.hand | v.trick_cards() | v.killed
        for s in range(self.players):
            m |= v.known[s] | v.piles[s]
        if v.trump_card >= 0:
            m |= 1 << v.trump_card
        if v.exposed_card >= 0:
            m |= 1 << v.exposed_card
        if self.pending is not None:
            m |= self.pending[1].cards
        e = self.engine
        if e is not None and e.phase == Phase.DRECK:
            m |= e.pending_deal() & ~_card_set(self.deal_order)  # dealt face up from the table
            if e.chance_seats:
                m |= e.pending_deal()
        for entry in self.history:
            if entry.slot is not None and entry.slot.seen_by(seat) and self.bottom == entry.card \
                    and entry.slot.kind == "bottom":
                m |= 1 << entry.card
        return m

    # -- worlds ---------------------------------------------------------------------------------

    def world_history(self, seat: int, rng: random.Random) -> list[Action | int]:
        """The history (one value per :attr:`history` entry: the seat's Action or the chance card)
        of a world that ``seat`` cannot tell from this one, drawn at random with ``rng``.

        When the engine exists, the world comes from :class:`~skitgubbe.engine.worlds.Worlds`, the
        engine's one world sampler (it makes only the inferences its docstring lists): each other
        seat's unseen hand cards (a needy seat's share of a dreck dealt to several seats kept among
        the dreck cards) and the face-down trump card.  The chance entries that put the cards the
        seat has not seen where they are now are relabelled to the world's cards (in a random
        order within each hand); entries the seat saw keep their cards.  Once the trump suit is
        known, a face-down trump card that has joined its holder's hand must be one of the
        holder's trump-suit cards in the world: worlds without one are drawn again (up to 100;
        then the real cards are kept).  The unseen cards that the world does not place (during
        the deal, the cards drawn for a step still waiting, a chance deal under way) are drawn
        uniformly among the unseen cards left (a chance deal's among its own cards).  Replaying
        the result with :meth:`replay` (``trusted=True``) gives the world; under "match if you
        can" its history may not be legal (a caller that needs a legal history checks the replay
        and draws again).  Raises ``ValueError`` for a seat that does not exist."""
        from .worlds import Worlds  # (worlds imports state and view, as this module does)

        if not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat}: seats are 0..{self.players - 1}")

        hidden = self.rules.pack & ~self.visible(seat)
        history = self.history
        values: list[Action | int] = [en.card if en.action is None else en.action for en in history]
        last: dict[int, int] = {}  # the chance entry that put each card where it is now
        for i, en in enumerate(history):
            if en.action is None:
                last[en.card] = i
        entry_of = {c: i for c, i in last.items() if hidden >> c & 1}
        assignment: dict[int, int] = {}
        free = hidden  # hidden cards not given to an entry yet
        e = self.engine
        if e is not None and e.phase != Phase.OVER:
            worlds = Worlds(e, seat)
            tc = e.trump_card
            joined = tc >= 0 and tc in entry_of and e.trump_suit >= 0 and e.trump_holder >= 0
            for _ in range(_WORLD_TRIES):
                world = worlds.build(worlds.placement(rng))
                wt = world.trump_card
                if not joined or wt >= 0:
                    break
                # the trump card has joined its holder's hand unseen: the history needs one of the
                # holder's trump-suit cards there (a world without one is drawn again)
                suited = list(cards_in(world.hands[e.trump_holder] & hidden & SUIT_MASKS[e.trump_suit]))
                if suited:
                    wt = rng.choice(suited)
                    break
            else:
                world, wt = e, tc  # (no such world found: the real cards)
            if tc >= 0 and tc in entry_of and wt >= 0:
                assignment[entry_of[tc]] = wt
                free &= ~(1 << wt)
            split = e.dreck if len(e.needy) > 1 else 0
            for s in range(self.players):
                if s == seat:
                    continue
                mine = e.hands[s] & hidden & ~(1 << tc if tc >= 0 and tc in entry_of else 0)
                placed = world.hands[s] & hidden & ~(1 << wt if wt >= 0 and tc in entry_of else 0)
                for mask in (split, ~split):
                    entries = [entry_of[c] for c in cards_in(mine & mask) if c in entry_of]
                    cards = list(cards_in(placed & mask))
                    rng.shuffle(cards)
                    for i, c in zip(entries, cards, strict=False):
                        assignment[i] = c
                        free &= ~(1 << c)
        dealing = _card_set(self.deal_order)
        for group in (dealing, ~dealing):  # what the world above did not place, uniformly
            entries = [i for c, i in entry_of.items() if group >> c & 1 and i not in assignment]
            entries.sort()
            cards = list(cards_in(free & group))
            rng.shuffle(cards)
            for i, c in zip(entries, cards, strict=False):
                assignment[i] = c
        for i, c in assignment.items():
            values[i] = c
        return values

    @classmethod
    def replay(cls, rules: Rules, players: int, values: Sequence[Action | int], *, dealer: int = 0,
               trusted: bool = False, **options: object) -> ChanceState:
        """A new :class:`ChanceState` (``dealer`` and ``options`` as for :meth:`new`) with
        ``values`` applied in order (Actions for the seat to act, cards for chance), as
        :meth:`world_history` returns them.  Raises as :meth:`apply` does (nothing is checked
        with ``trusted``)."""
        cs = cls.new(rules, players, dealer=dealer, **options)  # type: ignore[arg-type]
        for v in values:
            cs.apply(v, trusted=trusted)
        return cs


def _card_set(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class DeckChance:
    """The chance outcomes that a deck order dictates: following them, a :class:`ChanceState` deals
    exactly what ``State.new(rules, players, dealer=..., deck=deck)`` deals, draws what it draws,
    and orders each chance deal as ``State.chance_action(rng)`` would (one ``rng.shuffle`` per
    chance deal, at its first card).

    Args:
        deck: the pack's cards in dealing order (as for ``State.new``: the 52 cards, or the
            rules' short :attr:`~skitgubbe.engine.rules.Rules.pack`).
        rng: the ``random.Random`` the default engine's chance deals would use (the dreck order);
            None for ``random.Random(0)``.
    """

    def __init__(self, deck: Sequence[int], rng: random.Random | None = None) -> None:
        self.deck = tuple(deck)
        self.rng = rng if rng is not None else random.Random(0)
        self._order: tuple[int, ...] = ()
        self._start = -1

    def outcome(self, state: ChanceState) -> int:
        """The card the deck dictates at ``state``'s current chance node.  Raises ``ValueError``
        when chance is not to act, and ``ValueError`` if the card is not an outcome of the node
        (the state did not follow this deck)."""
        if not state.is_chance:
            raise ValueError("outcome() asked when chance is not to act")
        e = state.engine
        rules = state.rules
        deck = self.deck
        dealt = state.players * rules.hand_size
        if e is None:
            card = deck[len(state.dealt)] if len(state.dealt) < dealt else deck[-1]
        elif state.pending is not None:
            j = len(state.chosen)
            d = state.draws[j]
            if d.source == "reserve":
                k = rules.reserve - len(e.reserve) + sum(1 for x in state.draws[:j] if x.source == "reserve")
                card = deck[dealt + k]
            else:
                start = len(deck) - dealt - rules.reserve - (1 if rules.bottom_aside else 0)
                k = start - len(e.stock) + state.stock_draws(j)
                card = deck[dealt + rules.reserve + k]
                outcomes = state.outcome_cards()
                if len(outcomes) == 1:  # the face-up bottom card
                    card = outcomes[0]
        else:
            i = len(state.deal_order)
            start = len(state.history) - i
            if i == 0 or self._start != start:
                order = list(cards_in(e.pending_deal()))
                self.rng.shuffle(order)
                self._order, self._start = tuple(order), start
            card = self._order[i]
        if card not in state.outcome_cards():
            raise ValueError(f"the deck's card {card} is not an outcome here: "
                             "the state did not follow the deck")
        return card

