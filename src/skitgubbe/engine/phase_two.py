"""Phase two: beat it or pick it up, kills, going out, and the loser.

Rule sources: pagat.com Skitgubbe, "Play in the second phase" (single cards;
pick up only the last card; avstick when the trick holds as many cards as
seats at its start; who leads after each ending); the Swedish Goat Game /
Flurst page, "The Second Part" (runs of touching cards, eat the lowest run,
killing, going out, "three cards" and "one card").

The table is a list of plays, bottom (the lead) first; each play is a card set
that is one card or a run.  Every play beats the one beneath it, so the top
play is the highest.  A trick is killed when it holds as many plays as seats
held cards when it was led; it ends too when every card has been picked up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .actions import PICK_UP_ACTION, Action, Kind, run_actions, single_actions
from .base import Event, Phase, suit_word
from .beating import anti_trump_suit, beats
from .cards import SUIT_MASKS, TWIN, canonical, fold, is_run
from .i18n import N_, Arg, Cards, Message, Seat
from .rules import EmptyHand, PickUp, Plays

if TYPE_CHECKING:
    from .state import State

_NO_SUCH_KIND = {
    Kind.STOCK: N_("there is no stock in phase two: play a card or pick up"),
    Kind.SLUFF: N_("there is no sluff in phase two: play a card or pick up"),
    Kind.PASS: N_("there is no pass in phase two: play a card or pick up"),
    Kind.STORE: N_("there is no store in phase two: play a card or pick up"),
    Kind.EXCHANGE: N_("there is no exchange in phase two: play a card or pick up"),
    Kind.DRECK: N_("there is no dreck in phase two: play a card or pick up"),
}
"""Each action kind phase two does not have, said as a reason."""

__all__ = ["Table", "pick_up_take", "anti_trump_suit", "beats"]  # the last two re-exported


def pick_up_take(plays: Sequence[int], mode: PickUp) -> tuple[int, int, int]:
    """What a pick-up takes from ``plays`` (card sets on the table, bottom first) under
    ``mode``: ``(card set taken, plays removed from the bottom, plays removed from the top)``.

    With ``PickUp.LOWEST_CARD`` only the lowest card of the bottom play is taken; the play
    is removed only when that was its last card.  Returns ``(0, 0, 0)`` for an empty table.
    Plays may hold second-pack cards (two packs): the rules compare card kinds
    (:func:`~skitgubbe.engine.cards.fold`), and the cards taken are the plays' own.
    Rule sources: see :class:`~skitgubbe.engine.rules.PickUp`.
    """
    if not any(p >> TWIN for p in plays):
        return _take(plays, mode)
    take, below, above = _take([fold(p) for p in plays], mode)
    if mode is PickUp.LOWEST_CARD:
        return take if plays[0] & take else take << TWIN, below, above
    taken = 0
    for p in plays[:below]:
        taken |= p
    for p in plays[len(plays) - above:]:
        taken |= p
    return taken, below, above


def _take(plays: Sequence[int], mode: PickUp) -> tuple[int, int, int]:
    """pick_up_take on one-pack plays."""
    if not plays:
        return 0, 0, 0
    if mode is PickUp.TOP_CARD:
        return plays[-1], 0, 1
    if mode is PickUp.BOTTOM_PLAY:
        return plays[0], 1, 0
    if mode is PickUp.LOWEST_CARD:
        low = plays[0] & -plays[0]
        return low, int(plays[0] == low), 0
    if mode is PickUp.TOP_RUN:
        take = plays[-1]
        lo = (take & -take).bit_length() - 1
        j = len(plays) - 2
        while j >= 0:
            below = plays[j]
            if below.bit_length() - 1 != lo - 1 or lo % 13 == 0:
                break
            take |= below
            lo = (below & -below).bit_length() - 1
            j -= 1
        return take, 0, len(plays) - 1 - j
    take = plays[0]  # LOWEST_RUN
    hi = take.bit_length() - 1
    j = 1
    while j < len(plays):
        nxt = plays[j]
        if (nxt & -nxt).bit_length() - 1 != hi + 1 or hi % 13 == 12:
            break
        take |= nxt
        hi = nxt.bit_length() - 1
        j += 1
    return take, j, 0


_BEAT, _LEAD = "beat", "lead"
_event = tuple.__new__  # builds an Event from a full 5-tuple without the Python-level __new__ (hot path)
_PLAY_ONE = single_actions(Kind.PLAY, (1 << 52) - 1)


class Table:
    """The phase-two table and the cards killed: a part of the state that owns its data, and the
    phase-two rules as its methods.

    The methods take the :class:`~skitgubbe.engine.state.State` (``st``) whose part this is: they
    read and write the other parts through it (the seats, the avstickshög) and the deal's own
    fields (``phase``, ``to_act``, ``events``, ``tricks``).  Only the state and the engine call
    them.

    Attributes (card sets are ``int`` bitmasks, bit i = card i):
        table: the plays on the table (list of card sets, each one card or a run), bottom (the
            lead) first; ``table_owners`` the seat of each play.
        kill_at: how many plays kill the trick: the seats in the game when it was led (0 before
            phase two).
        killed: the cards out of play (card set): killed tricks, the trump card set aside at the
            deal, the dreck put aside, a written position's cards out of play.
        forced: a pick-up has forced the following seats to pick up (``forced_pickup``).
    The rule flags, cached when phase two starts (the hot path reads these, not ``st.rules``;
    all false before it):
        runs: plays may be runs; ``min_run`` the fewest cards in a run of two or more;
            ``from_two``: runs must start with a 2.
        pick_top: a pick-up takes the top play.
        anti: the anti-trump suit 0..3, -1 for none.
        extra_ends: a trick may end otherwise than by the kill count.
        plain_two: no option that the fast random sampler (:meth:`random`) does not handle.

    Invariants (:meth:`check`): ``table`` and ``table_owners`` have the same length; every play
    is a non-empty card set, the plays are pairwise disjoint and share no card with ``killed``;
    each owner is a seat; ``0 <= len(table) < kill_at`` once a trick is led (a full table is
    killed at once).
    """

    def __init__(self) -> None:
        """An empty table, nothing killed, the rule flags off (set by :meth:`start`)."""
        self.table: list[int] = []
        self.table_owners: list[int] = []
        self.kill_at = 0
        self.killed = 0
        self.forced = False
        self.runs = False
        self.min_run = 2
        self.from_two = False
        self.pick_top = False
        self.anti = -1
        self.extra_ends = False
        self.plain_two = False

    def copy(self) -> Table:
        """An independent copy: the table and its owners copied.

        The fields are set one by one, in the order ``__init__`` sets them, so that the copy
        keeps CPython's compact attribute layout (a copy made through ``__dict__`` reads its
        attributes several times slower)."""
        other = object.__new__(type(self))
        other.table = self.table.copy()
        other.table_owners = self.table_owners.copy()
        other.kill_at = self.kill_at
        other.killed = self.killed
        other.forced = self.forced
        other.runs = self.runs
        other.min_run = self.min_run
        other.from_two = self.from_two
        other.pick_top = self.pick_top
        other.anti = self.anti
        other.extra_ends = self.extra_ends
        other.plain_two = self.plain_two
        return other

    def check(self, players: int) -> None:
        """Raise ``AssertionError`` naming the first invariant (class docstring) that fails;
        ``players`` is the number of seats."""
        if len(self.table) != len(self.table_owners):
            raise AssertionError("table: the plays and their owners differ in number")
        seen = self.killed
        for p, s in zip(self.table, self.table_owners, strict=True):
            if p <= 0:
                raise AssertionError("table: an empty play")
            if seen & p:
                raise AssertionError("table: a card is on the table twice, or on the table and killed")
            seen |= p
            if not 0 <= s < players:
                raise AssertionError(f"table: the owner {s} of a play is not a seat")
        if self.table and len(self.table) >= self.kill_at:
            raise AssertionError(f"table: {len(self.table)} plays stand with a kill count of {self.kill_at}")

    def start(self, st: State, leader: int) -> None:
        """Begin phase two with seat ``leader`` to lead (the next seat in the game if it holds
        nothing): the rule flags cached, seats without cards out, Blåmattis or the loser (the
        ``empty_hand`` option; pagat.com, "Play in the second phase"; ruling E15)."""
        seats = st.seats
        n = st.players
        rules = st.rules
        st.phase = Phase.TWO
        self.runs = rules.plays is not Plays.SINGLE
        self.min_run = 3 if rules.plays is Plays.RUN3 else 2
        self.from_two = rules.plays is Plays.RUN_FROM_TWO
        self.pick_top = rules.pick_up is PickUp.TOP_CARD
        trump = st.undealt.trump_suit
        self.anti = anti_trump_suit(rules.anti_trump, trump) if trump >= 0 else -1
        self.forced = False
        self.extra_ends = rules.complete_suit_ends or rules.trump_ends_trick
        self.plain_two = (rules.plays in (Plays.SINGLE, Plays.RUN) and self.anti < 0
                          and not rules.high_trump_kills_only and not rules.forced_pickup
                          and not rules.beat_any_suit
                          and rules.empty_hand is not EmptyHand.BLAMATTIS and not st.double)
        self.table = []
        self.table_owners = []
        empty = [s for s in ((st.dealer + 1 + i) % n for i in range(n)) if not seats.hands[s]]
        if empty and rules.empty_hand is EmptyHand.LOSES:
            st.events.append(Event("blamattis", empty[0]))
            st.finish(empty[0])
            return
        for s in empty:
            if rules.empty_hand is EmptyHand.BLAMATTIS:
                seats.blue |= 1 << s
                st.events.append(Event("blamattis", s))
            else:
                seats.out_order.append(s)
                st.events.append(Event("out", s))
        holding = [s for s in range(n) if seats.hands[s]]
        if len(holding) + seats.blue.bit_count() <= 1 or not holding:
            st.finish(holding[0] if holding else None)
            return
        if not seats.hands[leader]:
            leader = seats.next_active(leader)
        self._lead_two(st, leader, seats.in_game())

    def _lead_two(self, st: State, leader: int, active: int) -> None:
        self.kill_at = active
        self.table = []
        self.table_owners = []
        self.forced = False
        seats = st.seats
        while seats.blue >> leader & 1:  # a Blåmattis has nothing to lead: the next seat leads
            leader = seats.next_active(leader)
        st.to_act = leader
        self.check_lead(st)

    def check_lead(self, st: State) -> None:
        """High trump rule: a seat on lead holding only the highest trump left passes the lead
        to its right (the next seat counterclockwise that holds cards)."""
        if st.rules.high_trump_kills_only and not self.table and not self.legal(st, st.to_act):
            n = st.players
            s = (st.to_act - 1) % n
            while not st.seats.hands[s]:
                s = (s - 1) % n
            st.events.append(Event("lead-passes", st.to_act, 0, (s,)))
            st.to_act = s

    def high_trump(self, st: State) -> int:
        """The highest trump still in the game (not killed or out of play), or -1.  With two
        packs, the highest trump of which a copy is still in the game (a first-pack card)."""
        undealt = st.undealt
        if undealt.trump_suit < 0:
            return -1
        gone = self.killed & self.killed >> TWIN if st.double else self.killed
        return (SUIT_MASKS[undealt.trump_suit] & ~gone).bit_length() - 1

    def beat_candidates(self, st: State, hand: int) -> int:
        """Phase two: the cards of card set ``hand`` that may take part in a beat of the top play
        (a higher card of its suit, or a trump on a non-trump; the table must not be empty).  With
        two packs ``hand`` and the result are card kinds (:func:`~skitgubbe.engine.cards.fold`)."""
        top = fold(self.table[-1]) if st.double else self.table[-1]
        th = top.bit_length() - 1
        ts = th // 13
        m = hand & SUIT_MASKS[ts] & ~((2 << th) - 1)
        trump = st.undealt.trump_suit
        if ts != trump and ts != self.anti:
            m |= hand & SUIT_MASKS[trump]
            if st.rules.beat_any_suit:  # any higher non-trump (the Flurst page read literally)
                r = th % 13
                for s in range(4):
                    if s not in (ts, trump):
                        m |= hand & SUIT_MASKS[s] & ~((2 << (13 * s + r)) - 1)
        return m

    def _plays(self, st: State, m: int) -> tuple[Action, ...]:
        if self.runs:
            return run_actions(m, self.min_run, self.from_two)
        return single_actions(Kind.PLAY, m)

    def legal(self, st: State, s: int) -> list[Action]:
        """Every legal phase-two action of seat ``s`` (the seat to act): leads, or beats and the
        pick-up (pagat.com, "Play in the second phase"; Flurst, "The Second Part"; the high
        trump, forced pick-up and Blåmattis options); with two packs the copies the seat holds."""
        seats = st.seats
        held = seats.hands[s]
        table = self.table
        if table and (self.forced or seats.blue >> s & 1):
            return [PICK_UP_ACTION]
        # two packs: plays are worked out on card kinds, then given the copies the seat holds
        hand = fold(held) if st.double else held
        acts = self._plays(st, self.beat_candidates(st, hand) if table else hand)
        if st.rules.high_trump_kills_only:
            ht = self.high_trump(st)
            top_suit = (fold(table[-1]).bit_length() - 1) // 13 if table else -1
            ends = st.rules.trump_ends_trick and table and top_suit != st.undealt.trump_suit
            if ht >= 0 and hand >> ht & 1 and len(table) + 1 < self.kill_at and not ends:
                acts = tuple(a for a in acts if not a.cards >> ht & 1)
        if st.double and held >> TWIN:
            acts = tuple(a if not a.cards & ~held else a._replace(cards=canonical(a.cards, held))
                         for a in acts)
        return [*acts, PICK_UP_ACTION] if table else list(acts)

    def random(self, st: State, u: float) -> Action:
        """The legal action at index ``int(u * len(legal))`` of :meth:`_legal_two` for
        the seat to act, found without building the list when it can."""
        if not self.plain_two:
            legal = self.legal(st, st.to_act)
            return legal[int(u * len(legal))]
        hand = st.seats.hands[st.to_act]
        table = self.table
        if table:
            top = table[-1]
            th = top.bit_length() - 1
            ts = th // 13
            m = hand & SUIT_MASKS[ts] & ~((2 << th) - 1)
            trump = st.undealt.trump_suit
            if ts != trump:
                m |= hand & SUIT_MASKS[trump]
            if self.runs:
                acts = run_actions(m)
                i = int(u * (len(acts) + 1))
                return acts[i] if i < len(acts) else PICK_UP_ACTION
            k = m.bit_count()
            i = int(u * (k + 1))
            if i == k:
                return PICK_UP_ACTION
        elif not self.runs:
            m = hand
            i = int(u * m.bit_count())
        else:
            acts = run_actions(hand)
            return acts[int(u * len(acts))]
        for _ in range(i):
            m &= m - 1
        return _PLAY_ONE[(m & -m).bit_length() - 1]

    def reason(self, st: State, s: int, action: Action) -> Message:
        """Why a legal phase-two ``action`` of seat ``s`` is allowed, in the rules' words (one line)."""
        if action.kind == Kind.PICK_UP:
            take, _, _ = pick_up_take(self.table, st.rules.pick_up)
            return Message(N_("instead of beating you may always pick up: you would take {cards}"),
                           {"cards": Cards(take)})
        cards = action.cards
        what = Cards(cards)
        out = cards == st.seats.hands[s]
        if not self.table:
            how = Message(N_("you lead: any card or run may be led ({cards})") if cards.bit_count() > 1
                          else N_("you lead: any card may be led ({cards})"), {"cards": what})
        else:
            top = fold(self.table[-1])  # two packs: card kinds
            th = top.bit_length() - 1
            low = (fold(cards) & -fold(cards)).bit_length() - 1
            args: dict[str, Arg] = {"cards": what, "top": Cards(1 << th), "suit": suit_word(th // 13)}
            if low // 13 == th // 13:
                how = Message(N_("{cards} beats the {top}: a higher {suit}"), args)
            elif low // 13 != st.undealt.trump_suit:  # beat_any_suit
                how = Message(N_("{cards} beats the {top}: a higher card, and in these rules any suit will "
                                 "do"),
                              args)
            else:
                how = Message(N_("{cards} is a trump: it beats any {suit}"), args)
            if len(self.table) + 1 >= self.kill_at:
                how = Message(N_("{how}; it is play {kill_at} of {kill_at}: it kills the trick"),
                              {"how": how, "kill_at": self.kill_at})
        if out:
            how = Message(N_("{how}; it is your last card: you go out"), {"how": how})
        return how

    def explain(self, st: State, s: int, action: Action) -> Message:
        """Why phase-two ``action`` is not legal for seat ``s`` now, in the rules' terms (one
        line; :meth:`State.explain_message <skitgubbe.engine.state.State.explain_message>`)."""
        seats = st.seats
        if s != st.to_act:
            return Message(N_("it is {seat}'s turn, not yours"), {"seat": Seat(st.to_act)})
        kind = action.kind
        if kind == Kind.PICK_UP:
            return Message(N_("there is nothing on the table to pick up: lead any card"))
        if kind != Kind.PLAY:
            text = _NO_SUCH_KIND.get(kind)
            if text is not None:
                return Message(text)
            return Message(N_("there is no {kind} in phase two: play a card or pick up"),
                           {"kind": kind.name.lower().replace("_", " ")})  # pragma: no cover
        cards = action.cards
        missing = cards & ~seats.hands[s]
        if missing:
            return Message(N_("you do not hold {card}"), {"card": Cards(1 << (missing.bit_length() - 1))})
        if self.table and seats.blue >> s & 1:
            return Message(N_("you start phase two with no cards (Blåmattis): first you must pick up the "
                              "lowest card"))
        if self.table and self.forced:
            return Message(N_("a seat has picked up: everyone after it must pick up too until the table is "
                              "empty"))
        if st.rules.plays is Plays.SINGLE and cards.bit_count() != 1:
            return Message(N_("these rules allow one card per play in phase two"))
        if cards & cards >> TWIN:
            return Message(N_("the two copies of a card never touch: play them separately (double deck)"))
        cards = fold(cards)  # two packs: the rules see card kinds
        if not is_run(cards):
            return Message(N_("a play is one card or a run of touching cards of one suit"))
        n = cards.bit_count()
        low = (cards & -cards).bit_length() - 1
        if n > 1 and n < self.min_run:
            return Message(N_("a run must have at least {n} cards in these rules"), {"n": self.min_run})
        if n > 1 and self.from_two and low % 13:
            return Message(N_("in these rules a run must start with the 2 of its suit"))
        ht = self.high_trump(st) if st.rules.high_trump_kills_only else -1
        if ht >= 0 and cards >> ht & 1:
            return Message(N_("the {card} is the highest trump left: it may only be played to kill a trick "
                              "(play {kill_at} of {kill_at})"),
                           {"card": Cards(1 << ht), "kill_at": self.kill_at})
        top = fold(self.table[-1])
        th = top.bit_length() - 1
        ts = th // 13
        if ts == st.undealt.trump_suit:
            how = Message(N_("only a higher trump can"))
        elif ts == self.anti:
            how = Message(N_("only a higher {suit} can: trumps cannot beat the anti-trump suit"),
                          {"suit": suit_word(ts)})
        elif st.rules.beat_any_suit:
            how = Message(N_("only a higher card of a suit that is not trumps, or a trump, can"))
        else:
            how = Message(N_("only a higher {suit} or a trump can"), {"suit": suit_word(ts)})
        return Message(N_("the {card} cannot beat the {top}; {how}"),
                       {"card": Cards(1 << low), "top": Cards(1 << th), "how": how})

    def play(self, st: State, s: int, cards: int) -> None:
        """Seat ``s`` leads or beats with the play ``cards`` (a card set: one card or a run); then
        a seat out, the trick killed, the avstickshög drawn, the next seat to act or the end
        (pagat.com, "Play in the second phase"; Flurst, "The Second Part").  Unchecked."""
        undealt = st.undealt
        seats = st.seats
        hands = seats.hands
        left = hands[s] ^ cards
        hands[s] = left
        known = seats.known
        if known[s] & cards:
            known[s] &= ~cards
        ev = st.events
        table = self.table
        ev.append(_event(Event, (_BEAT if table else _LEAD, s, cards, (), -1)))
        table.append(cards)
        self.table_owners.append(s)
        k = left.bit_count()
        if k > 3:
            pass
        elif k == 3:
            ev.append(Event("three-cards", s))
        elif k == 1:
            ev.append(Event("one-card", s))
        elif k == 0 and not undealt.reserve:  # with cards in the avstickshög a seat is not out yet
            seats.out_order.append(s)
            ev.append(Event("out", s))
            if seats.in_game() == 1:
                if self._ends_trick(st, cards):
                    self._kill(st, s)
                st.finish(seats.next_active(s))
                return
        if len(table) >= self.kill_at or (self.extra_ends and self._ends_trick(st, cards)):
            self._kill(st, s)
            if undealt.reserve:
                undealt.draw_reserve(st, s)
                if st.phase == Phase.OVER:
                    return
            self._lead_two(st, s if hands[s] else seats.next_active(s), seats.in_game())
            return
        if seats.blue:
            st.to_act = seats.next_active(s)
            return
        # the next seat clockwise that holds cards
        n = st.players
        nxt = s + 1 if s + 1 < n else 0
        while not hands[nxt]:
            nxt = nxt + 1 if nxt + 1 < n else 0
        st.to_act = nxt

    def _ends_trick(self, st: State, cards: int) -> bool:
        """True if the play ``cards`` just put on the table ends the trick: the kill count
        reached, a trump on a non-trump (if the rules say so), or a complete suit."""
        undealt = st.undealt
        table = self.table
        if len(table) >= self.kill_at:
            return True
        rules = st.rules
        cards = fold(cards)  # two packs: card kinds
        suit = ((cards & -cards).bit_length() - 1) // 13
        if rules.trump_ends_trick and len(table) >= 2 and suit == undealt.trump_suit:
            below = fold(table[-2])
            if (below.bit_length() - 1) // 13 != undealt.trump_suit:
                return True
        if rules.complete_suit_ends:
            on_table = 0
            for p in table:
                on_table |= p
            if fold(on_table) & SUIT_MASKS[suit] == SUIT_MASKS[suit]:
                return True
        return False

    def _kill(self, st: State, s: int) -> None:
        killed = 0
        for p in self.table:
            killed |= p
        self.killed |= killed
        st.tricks += 1
        st.events.append(Event("kill", s, killed))
        self.table = []
        self.table_owners = []

    def pick_up(self, st: State, s: int) -> None:
        """Seat ``s`` picks up as ``rules.pick_up`` says (:func:`pick_up_take`; a Blåmattis its
        first card: the lowest on the table), then the next seat acts or a new trick is led.
        Unchecked."""
        seats = st.seats
        table = self.table
        # two seats with an avstickshög: picking up a last card led loses at once
        led_last = bool(st.undealt.reserve) and len(table) == 1 and not seats.hands[self.table_owners[0]]
        if seats.blue >> s & 1:  # a Blåmattis's first turn: the lowest card on the table
            seats.blue ^= 1 << s
            low = fold(table[0])
            take = low & -low
            if not table[0] & take:  # two packs: the lowest card is a second-pack copy
                take <<= TWIN
            table[0] ^= take
            if not table[0]:
                del table[0]
                del self.table_owners[0]
        elif self.pick_top:
            take = table.pop()
            self.table_owners.pop()
        else:
            mode = st.rules.pick_up
            take, below, above = (pick_up_take if st.double else _take)(table, mode)
            if above:
                del table[-above:]
                del self.table_owners[-above:]
            if below:
                del table[:below]
                del self.table_owners[:below]
            elif mode is PickUp.LOWEST_CARD:
                table[0] ^= take
        seats.hands[s] |= take
        seats.known[s] |= take
        st.events.append(_event(Event, ("pick-up", s, take, (), -1)))
        if led_last:
            other = 1 - s
            seats.out_order.append(other)
            st.events.append(Event("out", other))
            st.finish(s)
            return
        if table:
            self.forced = st.rules.forced_pickup
            st.to_act = seats.next_active(s)
        else:
            st.tricks += 1
            self._lead_two(st, seats.next_active(s), seats.in_game())
