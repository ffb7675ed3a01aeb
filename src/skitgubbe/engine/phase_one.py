"""Phase one: collecting cards in tricks, sluffing, the stock, and the end of the phase.

Rule sources: pagat.com Skitgubbe, "Play in the first phase" (two-card tricks,
stunsa/bounce, turning up the stock, the last stock card, the end of phase
one); the Swedish Goat Game / Flurst page, "The First Part" (all play, match if
you can, wars, sluffing and its two restrictions, the last card of the deck,
ending the first part) and "Intermission" (trump, the dreck).

A trick is played in *rounds*: the first round is the leader and the seat to
the leader's left (``FirstPhase.PAIRS``) or every seat clockwise from the
leader (``ALL_PLAY``).  When the highest rank of a round was played by more
than one seat, those seats play another round, in the same clockwise order
starting with the first of them (a bounce or a war).  The trick is *settled*
when a round has a single highest card; its winner takes every card in the
trick (all rounds and all sluffs) and leads the next trick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    CHANCE,
    EXCHANGE_ACTION,
    PASS_ACTION,
    PICK_UP_ACTION,
    STOCK_ACTION,
    STORE_ACTION,
    Action,
    Kind,
    single_actions,
)
from .base import Event, Phase, rank_word, suit_word
from .cards import (
    RANK_MASKS2,
    SUIT_MASKS,
    TWIN,
    cards_in,
    one_copy,
    rank_of,
    suit_of,
)
from .i18n import N_, Arg, Cards, Message, Rank, Seat
from .rules import FirstPhase, Rules, SecondLead, StockEnd

if TYPE_CHECKING:
    from .state import State


def _not_held(c: int) -> Message:
    """``"you do not hold 7♥"``: card ``c`` is not in the seat's hand."""
    return Message(N_("you do not hold {card}"), {"card": Cards(1 << c)})


def _listed(mask: int) -> Message:
    """The cards of ``mask`` lowest index first (both packs: the first pack's whole run before
    the second's), as labels joined by spaces: a list, not a sentence."""
    cards = list(cards_in(mask))
    return Message(" ".join(f"{{c{i}}}" for i in range(len(cards))),
                   {f"c{i}": Cards(1 << c) for i, c in enumerate(cards)})


__all__ = ["Trick"]


_RANK = tuple(rank_of(c) for c in range(104))  # both packs (cards.TWIN)
# The masks of every card of a rank, in both packs: on a one-pack card set the same as
# cards.RANK_MASKS, and every use below intersects a hand or a trick.
RANK_MASKS = RANK_MASKS2
_event = tuple.__new__  # builds an Event from a full 5-tuple without the Python-level __new__ (hot path)


def _subsets(mask: int) -> list[int]:
    """Every non-empty subset of card set ``mask``, smallest first."""
    subs = []
    sub = mask
    while sub:
        subs.append(sub)
        sub = (sub - 1) & mask
    return sorted(subs, key=lambda x: (x.bit_count(), x))


class Trick:
    """The phase-one trick, its sluff window and a chance deal waiting: a part of the state that
    owns its data, and the phase-one rules as its methods.

    The methods take the :class:`~skitgubbe.engine.state.State` (``st``) whose part this is: they
    read and write the other parts through it (the seats, the undealt cards, the phase-two
    table's ``killed``) and the deal's own fields (``phase``, ``to_act``, ``events``).  Only the
    state and the engine call them; :meth:`legal`, :meth:`sluffable`, :meth:`play`,
    :meth:`sluff`, :meth:`pass_` and the other public methods are the steps
    :class:`~skitgubbe.engine.state.State` takes.  A swapped part (a subclass overriding
    :meth:`sluffable`) is how :mod:`skitgubbe.engine.worlds` replays a trick from a view.

    Attributes (card sets are ``int`` bitmasks, bit i = card i; seat sets bit s = seat s):
        strength: the phase-one strength of each rank 0..14 (tuple; aces low or high).
        beat: Mas: phase one is beat-or-pick-up (``FirstPhase.BEAT``).
        leader: the seat that led the current trick (-1 before the first).
        rounds: the rounds of the trick (list of lists of ``(seat, card)``, in play order);
            ``round_cards`` is the last of them, the current round.
        round_seats: the seats of the current round, in playing order; ``round_pos`` is how
            many of them have played.
        sluffs: the cards sluffed into the trick (list of ``(seat, card)``, in order).
        trick_cards: every card in the trick, played or sluffed (card set); ``trick_ranks``
            every card of the ranks in it (card set: the four, or eight, cards of each rank).
        contributed: per seat, the cards it put into the trick (card set): what it takes back
            if phase one ends in the middle of the trick.
        round_high: the highest rank played in the current round (0 if none).
        winner: the seat that won the settled trick, -1 while it is unsettled.
        last_winner: the seat that won the latest trick, -1 if none.
        pending: the seats (seat set) still to answer in the open sluff window (0: none open);
            ``window_start`` the seat from which the first pending seat is looked for.
        sluffed: the seats (seat set) that have sluffed into the current trick.
        occasion: the seat whose sluffing occasion is under way (``sluff_once``), or -1;
            ``occasion_hand`` that seat's hand when it began (only these cards may be sluffed).
        tie_rank: the tied rank that started the current war or bounce round, 0 if none.
        last_put: the card most recently put into the trick (played or sluffed), -1 if none.
        chance_seats: the seats a chance deal other than the dreck goes to (Koira's split, an
            incomplete trick), in dealing order, empty if none waits; ``chance_cards`` the cards
            to deal (card set); ``chance_to_piles``: into piles (Koira's split), not hands.

    Invariants (:meth:`check`): ``round_cards`` is ``rounds[-1]`` whenever there are rounds;
    ``0 <= round_pos <= len(round_seats)``; ``trick_cards`` is exactly the cards of the rounds
    and the sluffs, and the union of ``contributed`` (which are pairwise disjoint); outside
    Mas ``trick_ranks`` is every card of the ranks of ``trick_cards``; ``last_put`` is -1 or a
    card of the trick; ``winner``, ``occasion`` and ``leader`` are -1 or seats; ``pending`` and
    ``sluffed`` are seat sets of the deal; ``chance_cards`` and ``chance_to_piles`` are unset
    while no chance deal waits.
    """

    strength: tuple[int, ...]
    beat: bool
    chance_seats: list[int]
    chance_cards: int
    chance_to_piles: bool
    round_seats: list[int]
    round_pos: int
    window_start: int
    last_winner: int
    leader: int
    contributed: list[int]
    rounds: list[list[tuple[int, int]]]
    round_cards: list[tuple[int, int]]
    sluffs: list[tuple[int, int]]
    trick_cards: int
    trick_ranks: int
    round_high: int
    winner: int
    pending: int
    sluffed: int
    occasion: int
    occasion_hand: int
    tie_rank: int
    last_put: int

    def __init__(self, rules: Rules, players: int) -> None:
        """An empty trick of a new deal under ``rules`` with ``players`` seats; no leader yet."""
        strength = list(range(15))
        if rules.aces_low_first:
            strength[14] = 1
        self.strength = tuple(strength)
        self.beat = rules.first_phase is FirstPhase.BEAT
        self.chance_seats = []
        self.chance_cards = 0
        self.chance_to_piles = False
        self.round_seats = []
        self.round_pos = 0
        self.window_start = 0
        self.last_winner = -1
        self.leader = -1
        self._clear(players)

    def copy(self) -> Trick:
        """An independent copy: every list copied, ``round_cards`` still the last of the rounds.

        The fields are set one by one, in the order ``__init__`` sets them, so that the copy
        keeps CPython's compact attribute layout (a copy made through ``__dict__`` reads its
        attributes several times slower)."""
        other = object.__new__(type(self))
        other.strength = self.strength
        other.beat = self.beat
        other.chance_seats = self.chance_seats.copy()
        other.chance_cards = self.chance_cards
        other.chance_to_piles = self.chance_to_piles
        other.round_seats = self.round_seats.copy()
        other.round_pos = self.round_pos
        other.window_start = self.window_start
        other.last_winner = self.last_winner
        other.leader = self.leader
        other.contributed = self.contributed.copy()
        rounds = other.rounds = [r.copy() for r in self.rounds]
        other.round_cards = rounds[-1] if rounds else self.round_cards.copy()
        other.sluffs = self.sluffs.copy()
        other.trick_cards = self.trick_cards
        other.trick_ranks = self.trick_ranks
        other.round_high = self.round_high
        other.winner = self.winner
        other.pending = self.pending
        other.sluffed = self.sluffed
        other.occasion = self.occasion
        other.occasion_hand = self.occasion_hand
        other.tie_rank = self.tie_rank
        other.last_put = self.last_put
        return other

    def check(self, players: int) -> None:
        """Raise ``AssertionError`` naming the first invariant (class docstring) that fails;
        ``players`` is the number of seats."""
        if self.rounds and self.round_cards is not self.rounds[-1]:
            raise AssertionError("trick: the current round is not the last of the rounds")
        if not 0 <= self.round_pos <= len(self.round_seats):
            raise AssertionError(f"trick: round position {self.round_pos} outside the round")
        cards = 0
        for _, c in [*(sc for r in self.rounds for sc in r), *self.sluffs]:
            cards |= 1 << c
        if not self.rounds:
            for _, c in self.round_cards:
                cards |= 1 << c
        if cards != self.trick_cards:
            raise AssertionError("trick: trick_cards is not the cards of the rounds and the sluffs")
        given = 0
        for m in self.contributed:
            if given & m:
                raise AssertionError("trick: two seats contributed the same card")
            given |= m
        if len(self.contributed) != players or given != self.trick_cards:
            raise AssertionError("trick: the cards contributed are not the trick's cards")
        if not self.beat:
            ranks = 0
            for c in cards_in(cards):
                ranks |= RANK_MASKS[_RANK[c]]
            if ranks != self.trick_ranks:
                raise AssertionError("trick: trick_ranks is not the ranks of the trick's cards")
        if self.last_put >= 0 and not self.trick_cards >> self.last_put & 1:
            raise AssertionError("trick: the card put last is not in the trick")
        for name in ("winner", "occasion", "leader", "last_winner"):
            if not -1 <= getattr(self, name) < players:
                raise AssertionError(f"trick: {name} is not a seat")
        if self.pending >> players or self.sluffed >> players or self.pending < 0:
            raise AssertionError("trick: pending or sluffed names a seat that does not exist")
        if not self.chance_seats and (self.chance_cards or self.chance_to_piles):
            raise AssertionError("trick: a chance deal's cards are set but no seats to deal to")

    def start(self, st: State, leader: int) -> None:
        """Start a phase-one trick led by seat ``leader``: its first round's seats (the leader and
        its left under ``pairs``, every seat, or under Koira's ``skip-empty`` every seat holding
        cards, under ``all-play``; pagat.com, "Play in the first phase"; Flurst, "The First
        Part"), then whoever acts first."""
        n = st.players
        self._clear(st.players)
        self.leader = leader
        if st.rules.first_phase is not FirstPhase.ALL_PLAY:
            self.round_seats = [leader, (leader + 1) % n]
        elif st.rules.stock_end is StockEnd.SKIP_EMPTY and not st.undealt.stock:
            # Koira: once the stock is gone, seats without cards are skipped
            self.round_seats = [s for s in ((leader + i) % n for i in range(n)) if st.seats.hands[s]]
            if len(self.round_seats) < 2:
                self._last_holder_collects(st)
                return
        else:
            self.round_seats = [(leader + i) % n for i in range(n)]
        self.round_pos = 0
        self.rounds = [self.round_cards]
        self._advance_one(st)

    def _advance_one(self, st: State) -> None:
        """Decide who acts next in phase one, collecting or ending as the rules say."""
        if self.pending:
            st.to_act = self.first_pending(st)
            return
        if self.winner >= 0:
            self._collect(st)
            return
        s = self.round_seats[self.round_pos]
        undealt = st.undealt
        if not st.seats.hands[s] and not (st.rules.turn_from_stock and len(undealt.stock) > undealt.spare):
            if st.rules.stock_end is StockEnd.SKIP_EMPTY and len(self.rounds) > 1:
                self._split_trick(st)  # Koira: a tied seat ran out while the tie was being settled
                return
            if st.rules.incomplete_trick_dealt and self.trick_cards:
                self._deal_incomplete_trick(st)
                return
            self._end_phase_one(st)
            return
        st.to_act = s

    def first_pending(self, st: State) -> int:
        """The first seat of the open sluff window (:attr:`pending`) clockwise from
        :attr:`window_start`: the seat asked next.  Raises ``AssertionError`` with no window open."""
        n = st.players
        s = self.window_start
        for _ in range(n):
            if self.pending >> s & 1:
                return s
            s = (s + 1) % n
        raise AssertionError("pending window with no pending seat")  # pragma: no cover

    def _must_match(self, st: State, seat: int) -> int:
        """Cards ``seat`` is bound to play under "match if you can" (0 if free)."""
        if not st.rules.must_match or not self.round_high:
            return 0
        hand = st.seats.hands[seat]
        if not st.rules.ties_beat_unique:
            return hand & RANK_MASKS[self.round_high]
        # compulsory ties with tied ranks beating unique ones (pagat.com, "Compulsory ties")
        power = self.strength
        head, seats = self._head(st)
        floor = power[head] if len(seats) > 1 else 0
        best = 0
        for _, c in self.round_cards:
            r = _RANK[c]
            if power[r] >= floor and hand & RANK_MASKS[r] and power[r] > power[best]:
                best = r
        return hand & RANK_MASKS[best] if best else 0

    def _head(self, st: State) -> tuple[int, list[int]]:
        """The rank heading the current round and the seats that played it, in play order.

        Normally the highest rank; with ``ties_beat_unique`` the highest rank played by
        two or more seats, if any (pagat.com, "Tied ranks beat unique ranks")."""
        head = self.round_high
        if st.rules.ties_beat_unique:
            by_rank: dict[int, set[int]] = {}
            for s, c in self.round_cards:
                by_rank.setdefault(_RANK[c], set()).add(s)
            tied = [r for r, seats in by_rank.items() if len(seats) > 1]
            if tied:
                head = max(tied, key=self.strength.__getitem__)
        # a seat that played two or three cards of a rank appears once
        return head, list(dict.fromkeys(s for s, c in self.round_cards if _RANK[c] == head))

    def legal(self, st: State, s: int) -> list[Action]:
        """Every legal phase-one action of seat ``s`` now (:meth:`State.legal_actions
        <skitgubbe.engine.state.State.legal_actions>`): plays, turning up the stock, sluffs and
        passing (Mas: leading, beating, picking up, storing, exchanging); empty for ``s < 0``."""
        seats = st.seats
        undealt = st.undealt
        if s < 0:
            return []
        out: list[Action] = []
        if self.beat:
            return self._legal_beat(st, s) if s == st.to_act else out
        if s == st.to_act and not self.pending:
            forced = self._must_match(st, s)
            # two packs: one action for a card held twice (the first pack's copy)
            out.extend(single_actions(Kind.PLAY, one_copy(forced or seats.hands[s])))
            if st.rules.max_equal_play > 1:  # two or three cards of one rank as one play
                hand = forced or seats.hands[s]
                for r in range(2, 15):
                    same = hand & RANK_MASKS[r]
                    if same.bit_count() > 1:
                        out.extend(Action(Kind.PLAY, sub) for sub in _subsets(same)
                                   if 1 < sub.bit_count() <= st.rules.max_equal_play)
            if not forced and st.rules.turn_from_stock and len(undealt.stock) > undealt.spare:
                out.append(STOCK_ACTION)
        if st.rules.sluffing:
            m = one_copy(self.sluffable(st, s))
            if m:
                out.extend(single_actions(Kind.SLUFF, m))
            if self.pending >> s & 1:
                out.append(PASS_ACTION)
        return out

    def _legal_beat(self, st: State, s: int) -> list[Action]:
        """Mas (pagat.com, "Mas with turned up trump"): lead any card; the follower beats the
        led card by suit or trump, or picks it up; storing three trumps and exchanging the
        2 of trumps are open to the seat to act."""
        undealt = st.undealt
        hand = st.seats.hands[s]
        rules = st.rules
        trump = undealt.trump_suit
        if not self.round_cards:
            out = list(single_actions(Kind.PLAY, hand))
        else:
            out = list(single_actions(Kind.PLAY, self._beaters(st, hand)))
            out.append(PICK_UP_ACTION)
        if rules.store_three_trumps and self._can_store(st, s):
            out.append(STORE_ACTION)
        if rules.exchange_two and undealt.stock and hand >> (trump * 13) & 1:
            out.append(EXCHANGE_ACTION)
        return out

    def _beaters(self, st: State, hand: int) -> int:
        """Mas: the cards of ``hand`` that beat the led card (a higher card of its suit, or
        any trump when a non-trump was led)."""
        undealt = st.undealt
        led = self.round_cards[0][1]
        suit = led // 13
        m = hand & SUIT_MASKS[suit] & ~((2 << led) - 1)
        if suit != undealt.trump_suit:
            m |= hand & SUIT_MASKS[undealt.trump_suit]
        return m

    def _can_store(self, st: State, s: int) -> bool:
        """Mas: ``s`` holds exactly three trumps and nothing else, and the stock holds at least
        three cards to draw a new hand from (ruling MA3)."""
        undealt = st.undealt
        hand = st.seats.hands[s]
        return (hand.bit_count() == 3 and not hand & ~SUIT_MASKS[undealt.trump_suit]
                and len(undealt.stock) >= 3)

    def _due(self, st: State, seat: int) -> bool:
        """True if ``seat`` has yet to play in the current round of an unsettled trick."""
        return self.winner < 0 and seat in self.round_seats[self.round_pos:]

    def _contender(self, st: State, seat: int) -> bool:
        """True if ``seat`` can still win the current unsettled trick."""
        if self.winner >= 0:
            return False
        if self._due(st, seat):
            return True
        return seat in self._head(st)[1]

    def sluffable(self, st: State, s: int) -> int:
        """The cards (card set) seat ``s`` may sluff now, out of turn or in turn (Flurst
        "Sloughing" and its restrictions; the ``sluff_*`` options of
        :class:`~skitgubbe.engine.rules.Rules`); 0 outside phase one."""
        seats = st.seats
        undealt = st.undealt
        if not st.rules.sluffing or st.phase != Phase.ONE or not self.trick_cards:
            return 0
        m = seats.hands[s] & self.trick_ranks
        rules = st.rules
        if rules.sluff_settled_only and self.winner < 0:
            return 0
        if m and rules.sluff_own_rank:
            m &= self._own_ranks(st, s)
        if m and rules.sluff_last_rank:
            m &= RANK_MASKS[_RANK[self.last_put]]
        if m and rules.sluff_once and self.sluffed >> s & 1:
            if self.occasion != s:
                return 0
            m &= self.occasion_hand  # not the cards drawn to replace this occasion's sluffs
        if m and rules.sluff_after_play and not any(seat == s for rnd in self.rounds for seat, _ in rnd):
            return 0
        if m and rules.sluff_losing_only:
            m &= ~RANK_MASKS[self._winning_rank(st)]
        if not m or self.winner >= 0:
            return m
        if rules.sluff_guard_high and self.round_high and self._due(st, s):
            m &= ~self._guarded(st, s)
        last = len(undealt.stock) <= undealt.spare  # the stock cannot replace a sluffed card
        if m and rules.sluff_guard_last and last and self._contender(st, s):
            return 0
        hand = seats.hands[s]
        power = self.strength
        if (m and rules.sluff_guard_last_card and last and self._due(st, s) and hand.bit_count() == 1
                and self.round_high and power[_RANK[hand.bit_length() - 1]] >= power[self.round_high]):
            return 0  # its only card, which would beat or tie: it must be played (catsatcards.com, Flurst)
        return m

    def _winning_rank(self, st: State) -> int:
        """The rank now heading the trick: the head of the current round, or before a war
        round has a card, the tied rank that started it."""
        return self._head(st)[0] if self.round_cards else self.tie_rank

    def _guarded(self, st: State, s: int) -> int:
        """Cards of ``s`` that restriction 1 keeps from being sluffed: those it may have to
        play in this round (the forced match, or the cards of the round's highest rank)."""
        if st.rules.must_match:
            return self._must_match(st, s)
        return st.seats.hands[s] & RANK_MASKS[self.round_high]

    def _own_ranks(self, st: State, s: int) -> int:
        """The four cards of each rank ``s`` played in the latest round it played in."""
        for rnd in reversed(self.rounds):
            mine = 0
            for seat, c in rnd:
                if seat == s:
                    mine |= RANK_MASKS[_RANK[c]]
            if mine:
                return mine
        return 0

    def reason(self, st: State, s: int, action: Action) -> Message:
        """Why a legal phase-one ``action`` of seat ``s`` is allowed, in the rules' words (one line).
        Cards are compared as phase one ranks them (aces low under ``aces_low_first``)."""
        kind = action.kind
        if kind == Kind.STOCK:
            return Message(N_("turn up the top stock card and play it ({n} cards in the stock; "
                              "the last one cannot be turned up)"), {"n": len(st.undealt.stock)})
        if kind == Kind.SLUFF:
            c = action.cards.bit_length() - 1
            return Message(N_("a card of rank {rank} is already in the trick: sluff it and draw a "
                              "replacement"), {"rank": Rank(rank_of(c))})
        if kind == Kind.PASS:
            return Message(N_("say you are done sluffing for now"))
        if kind == Kind.PICK_UP:
            return Message(N_("instead of beating the led card you may always pick it up"))
        if kind == Kind.STORE:
            return Message(N_("your hand is three trumps: store them for phase two and draw a new hand"))
        if kind == Kind.EXCHANGE:
            return Message(N_("you hold the 2 of trumps: exchange it for the turned-up trump under the "
                              "stock"))
        c = action.cards.bit_length() - 1
        label = Cards(1 << c)
        if self.beat:
            if not self.round_cards:
                return Message(N_("you lead: any card may be led"))
            led = self.round_cards[0][1]
            args = {"card": label, "led": Cards(1 << led)}
            if suit_of(c) == suit_of(led):
                return Message(N_("{card} beats the {led}: a higher card of its suit; you take the "
                                  "trick"), args)
            return Message(N_("{card} beats the {led}: a trump; you take the trick"), args)
        power = self.strength
        r = power[rank_of(c)]
        high = power[self.round_high] if self.round_high else 0
        if st.rules.must_match and high and r == high:
            return Message(N_("you must match the highest card of this round: {card} makes a tie (a war)"),
                           {"card": label})
        if not high:
            return Message(N_("you lead: any card may be led, suits do not matter in phase one"))
        pairs = st.rules.first_phase is FirstPhase.PAIRS
        low = st.rules.aces_low_first and rank_of(c) == 14
        if r > high:
            if pairs or self.round_pos == len(self.round_seats) - 1:
                text = (N_("{card} is higher than everything in this round: you would take the trick "
                           "(aces are low in phase one)") if low else
                        N_("{card} is higher than everything in this round: you would take the trick"))
            else:
                text = (N_("{card} is the highest card so far in this round (aces are low in phase one)")
                        if low else N_("{card} is the highest card so far in this round"))
            return Message(text, {"card": label})
        if r == high:
            if pairs:
                text = (N_("{card} ties the highest card: a bounce, the tied seats play again "
                           "(aces are low in phase one)") if low else
                        N_("{card} ties the highest card: a bounce, the tied seats play again"))
            else:
                text = (N_("{card} ties the highest card: a war, the tied seats play again "
                           "(aces are low in phase one)") if low else
                        N_("{card} ties the highest card: a war, the tied seats play again"))
            return Message(text, {"card": label})
        text = (N_("{card} is lower than the highest card so far (aces are low in phase one): any card may "
                   "be played in phase one") if low else
                N_("{card} is lower than the highest card so far: any card may be played in phase one"))
        return Message(text, {"card": label})

    def explain(self, st: State, s: int, action: Action) -> Message:
        """Why phase-one ``action`` is not legal for seat ``s`` now, in the rules' terms (one
        line; :meth:`State.explain_message <skitgubbe.engine.state.State.explain_message>`)."""
        seats = st.seats
        undealt = st.undealt
        kind = action.kind
        if self.beat:
            return self._explain_beat(st, s, action)
        if kind in (Kind.STORE, Kind.EXCHANGE):
            return Message(N_("storing three trumps and exchanging the 2 of trumps belong to Mas, not these "
                              "rules"))
        if kind == Kind.PICK_UP:
            return Message(N_("there is nothing to pick up in phase one: play a card to the trick"))
        if kind == Kind.PASS:
            return Message(N_("you have no sluff window open: passing only ends your chance to sluff"))
        if kind == Kind.SLUFF:
            return self._explain_sluff(st, s, action.cards)
        # PLAY or STOCK
        if s != st.to_act or self.pending:
            if self.pending:
                who = self.first_pending(st)
                return Message(N_("the trick waits for sluffs: {seat} must sluff or pass first"),
                               {"seat": Seat(who)})
            return Message(N_("it is {seat}'s turn to play, not yours"), {"seat": Seat(st.to_act)})
        if kind == Kind.STOCK:
            forced = self._must_match(st, s)
            if forced:
                return self._match_reason(st, forced)
            if not st.rules.turn_from_stock:
                return Message(N_("these rules do not allow turning up the stock"))
            if not undealt.stock or not undealt.spare:
                return Message(N_("the stock is empty"))
            return Message(N_("the stock's last card cannot be turned up: it becomes the trump card"))
        cards = action.cards
        k = st.rules.max_equal_play
        n = cards.bit_count()
        one_rank = any(cards & ~RANK_MASKS[r] == 0 for r in range(2, 15))
        if n != 1 and (k == 1 or n > k or not one_rank):
            if k == 1:
                return Message(N_("play exactly one card to a trick in phase one"))
            return Message(N_("play one card, or up to {k} cards of one rank, to a trick in phase "
                              "one"), {"k": k})
        if cards & ~seats.hands[s]:
            return _not_held((cards & ~seats.hands[s]).bit_length() - 1)
        forced = self._must_match(st, s)
        if forced:
            return self._match_reason(st, forced)
        return Message(N_("that play is not allowed now"))  # pragma: no cover

    def _explain_beat(self, st: State, s: int, action: Action) -> Message:
        undealt = st.undealt
        kind = action.kind
        if s != st.to_act:
            return Message(N_("it is {seat}'s turn, not yours"), {"seat": Seat(st.to_act)})
        hand = st.seats.hands[s]
        trump = undealt.trump_suit
        if kind == Kind.STORE:
            if not st.rules.store_three_trumps:
                return Message(N_("these rules do not let a seat store three trumps"))
            if hand.bit_count() != 3 or hand & ~SUIT_MASKS[trump]:
                return Message(N_("you may store only a hand of exactly three trumps and nothing else"))
            return Message(N_("the stock holds too few cards to draw a new hand of three"))
        if kind == Kind.EXCHANGE:
            if not st.rules.exchange_two:
                return Message(N_("these rules do not let the 2 of trumps be exchanged"))
            if not undealt.stock:
                return Message(N_("the turned-up trump has been drawn: there is nothing to exchange it for"))
            return Message(N_("you do not hold the {card}"), {"card": Cards(1 << (trump * 13))})
        if kind == Kind.PICK_UP:
            return Message(N_("there is no led card to pick up: lead a card"))
        if kind not in (Kind.PLAY,):
            return Message(N_("in Mas you lead or beat with a card from your hand, or pick up the led card"))
        cards = action.cards
        if cards.bit_count() != 1:
            return Message(N_("play exactly one card to a trick in phase one"))
        if cards & ~hand:
            return _not_held(cards.bit_length() - 1)
        led = self.round_cards[0][1]
        args: dict[str, Arg] = {"card": Cards(1 << (cards.bit_length() - 1)), "led": Cards(1 << led)}
        if led // 13 == trump:
            return Message(N_("the {card} does not beat the {led}: only a higher trump can, or pick it "
                              "up"), args)
        args["suit"] = suit_word(led // 13)
        return Message(N_("the {card} does not beat the {led}: only a higher {suit} or a trump can, or pick "
                          "it up"),
                       args)

    def _match_reason(self, st: State, forced: int) -> Message:
        rank = _RANK[(forced & -forced).bit_length() - 1]
        return Message(N_("you must match the {rank}: you hold {cards}"),
                       {"rank": rank_word(rank), "cards": _listed(forced)})

    def _explain_sluff(self, st: State, s: int, cards: int) -> Message:
        seats = st.seats
        if not st.rules.sluffing:
            return Message(N_("these rules have no sluffing"))
        if cards.bit_count() != 1:
            return Message(N_("sluff one card at a time"))
        if cards & ~seats.hands[s]:
            return _not_held((cards & ~seats.hands[s]).bit_length() - 1)
        if st.rules.sluff_once and self.sluffed >> s & 1 and self.occasion != s:
            return Message(N_("in these rules you sluff only once in a trick (one card after another), "
                              "and you have"))
        if st.rules.sluff_after_play and not any(seat == s for rnd in self.rounds for seat, _ in rnd):
            return Message(N_("in these rules you may sluff only after you have played to the trick"))
        if st.rules.sluff_settled_only and self.winner < 0:
            return Message(N_("in these rules you may sluff only once the trick is settled"))
        if not self.trick_cards:
            return Message(N_("there is no card on the table to sluff onto"))
        bad = cards & ~self.trick_ranks
        c = (bad or cards).bit_length() - 1
        if bad:
            return Message(N_("no {rank} is in the trick: you may only sluff a rank already there"),
                           {"rank": rank_word(_RANK[c])})
        if st.rules.sluff_losing_only and cards & RANK_MASKS[self._winning_rank(st)]:
            return Message(N_("in these rules you may only sluff a rank that is losing the trick, not the "
                              "{rank} that heads it"), {"rank": rank_word(self._winning_rank(st))})
        if st.rules.sluff_own_rank and not cards & self._own_ranks(st, s):
            return Message(N_("in these rules you may only sluff the rank you played yourself in your latest "
                              "round"))
        if st.rules.sluff_last_rank and not cards & RANK_MASKS[_RANK[self.last_put]]:
            return Message(N_("in these rules you may only sluff the rank of the card just put into the "
                              "trick (a {rank})"), {"rank": rank_word(_RANK[self.last_put])})
        if st.rules.sluff_guard_high and self._due(st, s) and cards & self._guarded(st, s):
            return Message(N_("you have yet to play to this round and {card} matches its highest "
                              "card: it may be the card you must play"), {"card": Cards(1 << c)})
        if not st.rules.sluff_guard_last or not self._contender(st, s):  # the last-card exception
            return Message(N_("{card} is your last card and it would beat or tie this round's highest "
                              "card: you must play it, not sluff it"), {"card": Cards(1 << c)})
        return Message(N_("the stock cannot replace your card and you may still have to play to this "
                          "trick: no sluffing until it is settled"))

    # -- doing ---------------------------------------------------------------

    def play(self, st: State, s: int, action: Action) -> None:
        """Seat ``s`` plays ``action`` (``play``: one card, or two or three of one rank, each
        replaced from the stock; ``stock``: the top stock card turned up) to the trick; then the
        round resolved, a sluff window opened, the next seat to act (pagat.com, "Play in the first
        phase"; Flurst, "The First Part").  Unchecked."""
        seats = st.seats
        undealt = st.undealt
        cards = action.cards
        if self.beat:
            self._play_beat(st, s, cards)
            return
        if cards:
            c = cards.bit_length() - 1
            seats.hands[s] ^= cards
            if seats.known[s]:
                seats.known[s] &= ~cards
            st.events.append(_event(Event, ("play", s, cards, (), -1)))
            if cards & (cards - 1):  # two or three cards of one rank: each is replaced
                for other in cards_in(cards ^ (1 << c)):
                    self.round_cards.append((s, other))
                    undealt.draw(st, s)
            undealt.draw(st, s)
        else:  # turned up from the stock
            c = undealt.stock.pop()
            cards = 1 << c
            st.events.append(_event(Event, ("stock", s, cards, (), -1)))
        self.round_cards.append((s, c))
        self.round_pos += 1
        self.trick_cards |= cards
        self.last_put = c
        r = _RANK[c]
        self.trick_ranks |= RANK_MASKS[r]
        self.contributed[s] |= cards
        power = self.strength
        if power[r] > power[self.round_high]:
            self.round_high = r
        if self.round_pos == len(self.round_seats) and self._resolve_round(st):
            return  # the trick is over already (Koira's tie-deal)
        if st.rules.sluffing:
            self._open_window(st, s)
        self._advance_one(st)

    def _play_beat(self, st: State, s: int, cards: int) -> None:
        """Mas: lead, or beat the led card and win the trick; then draw up to the hand size."""
        seats = st.seats
        c = cards.bit_length() - 1
        seats.hands[s] ^= cards
        seats.known[s] &= ~cards
        st.events.append(Event("play", s, cards))
        st.undealt.draw_up(st, s)
        self.round_cards.append((s, c))
        self.round_pos += 1
        self.trick_cards |= cards
        self.last_put = c
        self.contributed[s] |= cards
        if self.round_pos == 2:
            self.winner = s
        self._advance_one(st)

    def act_beat(self, st: State, s: int, kind: int) -> None:
        """Mas: pick up the led card, store three trumps, or exchange the 2 of trumps."""
        seats = st.seats
        undealt = st.undealt
        if kind == Kind.PICK_UP:
            led = self.trick_cards
            seats.hands[s] |= led
            seats.known[s] |= led
            st.events.append(Event("pick-up", s, led))
            nxt = seats.left_of(s)
            self._clear(st.players)
            if not undealt.stock:  # the turned-up trump was drawn in this trick: phase one ends
                self.leader = nxt
                self.round_seats = [nxt]
                self.round_pos = 0
                self._end_phase_one(st)
                return
            self.start(st, nxt)
            return
        if kind == Kind.STORE:
            stored = seats.hands[s]
            seats.hands[s] = 0
            seats.known[s] &= ~stored
            seats.piles[s] |= stored
            st.events.append(Event("store", s, stored))
            undealt.draw_up(st, s)
            return
        # EXCHANGE: the 2 of trumps goes face up under the stock, the turned-up trump to the hand
        two = undealt.trump_suit * 13
        turned = undealt.stock[0]
        seats.hands[s] ^= (1 << two) | (1 << turned)
        seats.known[s] = (seats.known[s] & ~(1 << two)) | (1 << turned)
        undealt.stock[0] = two
        st.events.append(Event("exchange", s, (1 << two) | (1 << turned)))

    def _resolve_round(self, st: State) -> bool:
        """Settle a complete round: a single highest card wins, a tie starts a bounce or war
        round (or, under ``tie_deal``, ends the trick: then True is returned)."""
        _, top = self._head(st)
        if len(top) == 1:
            self.winner = top[0]
            return False
        if st.rules.tie_deal and st.undealt.stock:  # once the stock is gone ties are replayed (ruling K4)
            self._tie_deal(st, top)
            return True
        head = self._head(st)[0]
        if st.rules.all_ties_replay:  # every seat of any tied rank replays (pagat.com, Mattis variants)
            by_rank: dict[int, list[int]] = {}
            for seat, c in self.round_cards:
                by_rank.setdefault(_RANK[c], []).append(seat)
            tied = {seat for seats in by_rank.values() if len(set(seats)) > 1 for seat in seats}
            top = list(dict.fromkeys(seat for seat, _ in self.round_cards if seat in tied))
        kind = "bounce" if st.rules.first_phase is FirstPhase.PAIRS else "war"
        st.events.append(Event(kind, top[0], 0, tuple(top)))
        self.tie_rank = head
        self.round_seats = top
        self.round_pos = 0
        self.round_cards = []
        self.rounds.append(self.round_cards)
        self.round_high = 0
        return False

    def _tie_deal(self, st: State, tied: list[int]) -> None:
        """Koira's tie-deal (pagat.com, Koira variants): the tied seats take back the cards of
        the tied rank they played; the other cards of the trick go to their piles one at a time,
        lowest first (rank, then suit), starting with the last tied seat and going
        counterclockwise; the first tied seat leads the next trick (ruling K3)."""
        head = self._head(st)[0]
        back = dict.fromkeys(tied, 0)
        for s, c in self.round_cards:
            if _RANK[c] == head:
                back[s] |= 1 << c
        back_all = 0
        for m in back.values():
            back_all |= m
        rest = self.trick_cards & ~back_all
        order = sorted(cards_in(rest), key=lambda c: (self.strength[_RANK[c]], c))
        ring = list(reversed(tied))  # tied seats are in play order, clockwise from the leader
        share = dict.fromkeys(tied, 0)
        for i, c in enumerate(order):
            share[ring[i % len(ring)]] |= 1 << c
        st.events.append(Event("tie-deal", tied[0], rest, tuple(tied)))
        for s in tied:  # public: each tied seat's cards taken back and its share, one event each
            st.seats.hands[s] |= back[s]
            st.seats.known[s] |= back[s]
            st.seats.piles[s] |= share[s]
            st.events.append(Event("take-back", s, back[s], tuple(tied)))
            st.events.append(Event("tie-share", s, share[s], tuple(tied)))
        st.tricks += 1
        self.last_winner = tied[0]
        self.winner = -1
        self._next_trick(st, tied[0])

    def _next_trick(self, st: State, leader: int) -> None:
        """Start the next phase-one trick with ``leader``, unless the rules end phase one now."""
        seats = st.seats
        undealt = st.undealt
        end = st.rules.stock_end
        if not undealt.stock and end in (StockEnd.STOP, StockEnd.STOP_UNLESS_TWO) and (
                end is StockEnd.STOP or any(h.bit_count() < 2 for h in seats.hands)):
            self._clear(st.players)
            self.leader = leader
            self.round_seats = [leader]
            self.round_pos = 0
            self._end_phase_one(st)
            return
        if end is StockEnd.SKIP_EMPTY and not seats.hands[leader] and not undealt.stock:
            n = st.players
            nxt = (leader + 1) % n
            while nxt != leader and not seats.hands[nxt]:
                nxt = (nxt + 1) % n
            leader = nxt
        self.start(st, leader)

    def _last_holder_collects(self, st: State) -> None:
        """Koira, once at most one seat holds cards: it would win every trick alone, so its
        cards go to its pile (ruling K1), and phase one is over."""
        seats = st.seats
        for s in range(st.players):
            if seats.hands[s]:
                seats.piles[s] |= seats.hands[s]
                st.events.append(Event("win", s, seats.hands[s]))
                seats.hands[s] = 0
        self.round_seats = [self.leader]
        self.round_pos = 0
        self._end_phase_one(st)

    def _split_trick(self, st: State) -> None:
        """Koira: a tied seat has no card to settle the tie with: the cards of the trick are
        shuffled and shared out, one at a time, among the tied seats' piles (a chance action;
        see :meth:`_give_chance`)."""
        tied = list(self.round_seats)
        self._chance_deal(st, self.trick_cards, tied, to_piles=True)

    def _deal_incomplete_trick(self, st: State) -> None:
        """pagat.com, "Incomplete trick dealt to players": phase one ends in the middle of a
        trick; its cards are shuffled and dealt one at a time to every seat, clockwise from the
        dealer's left (a chance action), instead of being taken back."""
        n = st.players
        seats = [(st.dealer + 1 + i) % n for i in range(n)]
        self._chance_deal(st, self.trick_cards, seats, to_piles=False)

    def _chance_deal(self, st: State, cards: int, seats: list[int], *, to_piles: bool) -> None:
        """Wait for the chance action that orders ``cards`` to be dealt round the ``seats``."""
        self.chance_cards = cards
        self.chance_seats = seats
        self.chance_to_piles = to_piles
        st.phase = Phase.DRECK
        st.to_act = CHANCE

    def give_chance(self, st: State, order: list[int]) -> None:
        """Deal the shuffled ``order`` of :attr:`chance_cards` one at a time round
        :attr:`chance_seats` (into piles for Koira's split, into hands for an incomplete trick);
        then play goes on."""
        seats = self.chance_seats
        k = len(seats)
        got = dict.fromkeys(seats, 0)
        for i, c in enumerate(order):
            got[seats[i % k]] |= 1 << c
        kind = "split" if self.chance_to_piles else "trick-dealt"
        for s, cards in got.items():  # public (rulings K2, I1): one event per seat, with its cards
            if self.chance_to_piles:
                st.seats.piles[s] |= cards
            else:
                st.seats.hands[s] |= cards
                st.seats.known[s] |= cards
            st.events.append(Event(kind, s, cards, tuple(seats)))
        self.chance_cards = 0
        st.phase = Phase.ONE
        to_piles = self.chance_to_piles
        self.chance_seats = []
        self.chance_to_piles = False
        if to_piles:
            st.tricks += 1
            self.last_winner = seats[0]
            self.contributed = [0] * st.players
            self._next_trick(st, seats[0])
        else:
            self.contributed = [0] * st.players  # nothing is taken back
            self._end_phase_one(st)

    def _open_window(self, st: State, after: int) -> None:
        """Open a sluff window after seat ``after`` acted (see the state module docstring)."""
        if st.live and self.winner < 0:
            return
        pending = 0
        if st.ask_all:  # every seat holding cards, whatever it holds
            for seat in range(st.players):
                if st.seats.hands[seat]:
                    pending |= 1 << seat
        else:
            for seat in range(st.players):
                if self.sluffable(st, seat):
                    pending |= 1 << seat
        self.pending = pending
        self.window_start = (after + 1) % st.players

    def sluff(self, st: State, s: int, cards: int) -> None:
        """Seat ``s`` sluffs ``cards`` (a card set of ranks already in the trick) and draws a
        replacement for each; the window is updated (Flurst, "Sloughing"; docs/sluffing.md).
        Unchecked."""
        seats = st.seats
        undealt = st.undealt
        seats.hands[s] ^= cards
        seats.known[s] &= ~cards
        self.trick_cards |= cards
        self.contributed[s] |= cards
        if self.occasion != s:
            self.occasion_hand = seats.hands[s] | cards
        self.sluffed |= 1 << s
        self.occasion = s  # under sluff_once the seat may go on sluffing until it does anything else
        st.events.append(Event("sluff", s, cards))
        for c in cards_in(cards):
            self.sluffs.append((s, c))
            self.last_put = c
            if not (st.rules.restaurant and undealt.spare and len(undealt.stock) == 1):
                undealt.draw(st, s)
        # Others' options can only have shrunk (the stock is shorter); the sluffer is
        # asked again.  Live tables open no window before the trick is settled.
        if not (st.live and self.winner < 0):
            pending = self.pending
            if not pending:
                self.window_start = s
            keep = 0
            if st.ask_all:  # nobody leaves the window but by passing (or running out of cards)
                for seat in range(st.players):
                    if (pending >> seat & 1 or seat == s) and seats.hands[seat]:
                        keep |= 1 << seat
            else:
                for seat in range(st.players):
                    if (pending >> seat & 1 or seat == s) and self.sluffable(st, seat):
                        keep |= 1 << seat
            self.pending = keep
        self._advance_one(st)

    def pass_(self, st: State, s: int) -> None:
        """Seat ``s`` is done sluffing: it leaves the open sluff window (docs/sluffing.md).
        Outside ``ask_every_seat`` every other pending seat that can no longer sluff leaves it too
        (ruling E18): a pass can end another seat's sluffing occasion (``sluff_once``, ruling
        O19), and that seat has nothing left to answer.  Unchecked."""
        pending = self.pending & ~(1 << s)
        if pending and not st.ask_all:
            for seat in range(st.players):
                if pending >> seat & 1 and not self.sluffable(st, seat):
                    pending &= ~(1 << seat)
        self.pending = pending
        st.events.append(_event(Event, ("pass", s, 0, (), -1)))
        self._advance_one(st)

    def _collect(self, st: State) -> None:
        w = self.winner
        cards = self.trick_cards
        st.seats.piles[w] |= cards
        self.last_winner = w
        st.tricks += 1
        st.events.append(Event("win", w, cards))
        self._next_trick(st, w)

    # -- the end of phase one ---------------------------------------------------

    def _end_phase_one(self, st: State) -> None:
        seats = st.seats
        undealt = st.undealt
        n = st.players
        hands = seats.hands
        st.events.append(Event("end-one", self.round_seats[self.round_pos]))
        for s in range(n):
            back = self.contributed[s]
            if back:
                hands[s] |= back
                seats.known[s] |= back
                st.events.append(Event("take-back", s, back))
            if st.rules.expose_leftover and hands[s]:
                seats.known[s] |= hands[s]
                st.events.append(Event("exposed", s, hands[s]))
        due = self.round_seats[self.round_pos] if self.round_seats else self.leader
        while undealt.stock:  # only the bottom card can be left (restaurant rules): the seat due draws it
            undealt.draw(st, due)
        self._clear(st.players)
        for s in range(n):
            hands[s] |= seats.piles[s]
            seats.known[s] |= seats.piles[s]  # every won card was seen face up
            seats.piles[s] = 0
        tc = undealt.trump_card
        if tc >= 0:
            undealt.trump_suit = suit_of(tc)
            holder = undealt.trump_holder
            shown = st.rules.show_trump_card or st.rules.exposed_bottom or holder < 0
            if holder < 0:  # set aside at the deal: it names the suit, then leaves the game
                st.two.killed |= 1 << tc
            elif not self.beat:  # (Mas drew it into the hand face up, and it may have been played since)
                hands[holder] |= 1 << tc
                if shown:
                    seats.known[holder] |= 1 << tc
            st.events.append(Event("trump", holder, 1 << tc, (undealt.trump_suit,),
                                     -1 if shown else seats.sees[holder]))
        self._redistribute_dreck(st)

    def _clear(self, players: int) -> None:
        """No trick on the table (``players`` seats)."""
        self.contributed = [0] * players
        self.rounds = []
        self.round_cards = []
        self.sluffs = []
        self.trick_cards = 0
        self.trick_ranks = 0
        self.round_high = 0
        self.winner = -1
        self.pending = 0
        self.sluffed = 0
        self.occasion = -1
        self.occasion_hand = 0
        self.tie_rank = 0
        self.last_put = -1

    def _redistribute_dreck(self, st: State) -> None:
        """The dreck (Flurst "Make sure everyone has at least six cards")."""
        seats = st.seats
        undealt = st.undealt
        rules = st.rules
        n = st.players
        hands = seats.hands
        order = [(st.dealer + 1 + i) % n for i in range(n)]
        below = rules.dreck_below
        if below < 0:  # the rank of the trump card (pagat.com, "Number of cards needed")
            below = rank_of(undealt.trump_card) if undealt.trump_card >= 0 else 0
        needy = [s for s in order if hands[s].bit_count() < below] if below else []
        if not needy:
            st.two.start(st, self._second_leader(st))
            return
        dreck = 0
        for r in range(2, rules.dreck_max_rank + 1):
            dreck |= RANK_MASKS[r]
        if rules.dreck_trump_rank and undealt.trump_suit >= 0:
            card = 1 << (undealt.trump_suit * 13 + rules.dreck_trump_rank - 2)
            dreck |= card | card << TWIN  # both copies with two packs
        # the deal's packs only; a trump card set aside at the deal is out of play, not dreck
        dreck &= st.full & ~st.two.killed
        for s in range(n):
            hands[s] &= ~dreck
            seats.known[s] &= ~dreck
        st.dreck = dreck
        st.needy = needy
        st.events.append(Event("dreck", -1, dreck, tuple(needy)))
        if len(needy) == 1:
            self._give_dreck(st, needy, list(cards_in(dreck)))
            return
        st.phase = Phase.DRECK
        st.to_act = CHANCE

    def deal_dreck(self, st: State, order: tuple[int, ...]) -> None:
        """Deal the dreck in ``order`` (cards, the chance action's shuffle) to the needy seats one
        at a time, then start phase two (Flurst, "Make sure everyone has at least six cards")."""
        self._give_dreck(st, st.needy, list(order))

    def _give_dreck(self, st: State, needy: list[int], order: list[int]) -> None:
        seats = st.seats
        k = len(needy)
        if st.rules.dreck_remainder_aside and len(order) % k:
            # catsatcards.com, Flurst: what does not share out evenly joins the first trick of
            # phase two and leaves the game with it (ruling C2); the last cards dealt are those
            keep = len(order) - len(order) % k
            aside = 0
            for c in order[keep:]:
                aside |= 1 << c
            st.two.killed |= aside
            order = order[:keep]
            st.events.append(Event("dreck-aside", -1, aside))
        shares = dict.fromkeys(needy, 0)
        for i, c in enumerate(order):
            shares[needy[i % k]] |= 1 << c
        for s, got in shares.items():
            seats.hands[s] |= got
        if k == 1:
            seats.known[needy[0]] |= st.dreck
        st.events.append(Event("dreck-dealt", -1, 0, tuple(needy)))
        if k > 1:  # who got which cards: each seat its own share
            for s, got in shares.items():
                st.events.append(Event("dreck-share", s, got, (), seats.sees[s]))
        st.two.start(st, self._second_leader(st))

    def _second_leader(self, st: State) -> int:
        undealt = st.undealt
        if st.rules.second_lead is SecondLead.TRUMP_DRAWER and undealt.trump_holder >= 0:
            return undealt.trump_holder
        if self.last_winner >= 0:
            return self.last_winner
        return st.first_leader
