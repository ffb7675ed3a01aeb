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

from .actions import PICK_UP_ACTION, Action, Kind, run_actions, single_actions
from .base import Event, Phase, StateBase
from .beating import anti_trump_suit, beats
from .cards import SUIT_MASKS, SUIT_NAMES, TWIN, canonical, card_label, fold, format_cards, is_run
from .rules import EmptyHand, PickUp, Plays

__all__ = ["PhaseTwo", "pick_up_take", "anti_trump_suit", "beats"]  # the last two re-exported


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


class PhaseTwo(StateBase):
    """The phase-two part of :class:`skitgubbe.engine.state.State` (a mixin)."""

    def _start_phase_two(self, leader: int) -> None:
        n = self.players
        rules = self.rules
        self.phase = Phase.TWO
        self.runs = rules.plays is not Plays.SINGLE
        self.min_run = 3 if rules.plays is Plays.RUN3 else 2
        self.from_two = rules.plays is Plays.RUN_FROM_TWO
        self.pick_top = rules.pick_up is PickUp.TOP_CARD
        self.anti = anti_trump_suit(rules.anti_trump, self.trump_suit) if self.trump_suit >= 0 else -1
        self.forced = False
        self.extra_ends = rules.complete_suit_ends or rules.trump_ends_trick
        self.plain_two = (rules.plays in (Plays.SINGLE, Plays.RUN) and self.anti < 0
                          and not rules.high_trump_kills_only and not rules.forced_pickup
                          and not rules.beat_any_suit
                          and rules.empty_hand is not EmptyHand.BLAMATTIS and not self.double)
        self.table = []
        self.table_owners = []
        empty = [s for s in ((self.dealer + 1 + i) % n for i in range(n)) if not self.hands[s]]
        if empty and rules.empty_hand is EmptyHand.LOSES:
            self.events.append(Event("blamattis", empty[0]))
            self._finish(empty[0])
            return
        for s in empty:
            if rules.empty_hand is EmptyHand.BLAMATTIS:
                self.blue |= 1 << s
                self.events.append(Event("blamattis", s))
            else:
                self.out_order.append(s)
                self.events.append(Event("out", s))
        holding = [s for s in range(n) if self.hands[s]]
        if len(holding) + self.blue.bit_count() <= 1 or not holding:
            self._finish(holding[0] if holding else None)
            return
        if not self.hands[leader]:
            leader = self._next_active(leader)
        self._lead_two(leader, self._in_game())

    def _lead_two(self, leader: int, active: int) -> None:
        self.kill_at = active
        self.table = []
        self.table_owners = []
        self.forced = False
        while self.blue >> leader & 1:  # a Blåmattis has nothing to lead: the next seat leads
            leader = self._next_active(leader)
        self.to_act = leader
        self._check_lead()

    def _check_lead(self) -> None:
        """High trump rule: a seat on lead holding only the highest trump left passes the lead
        to its right (the next seat counterclockwise that holds cards)."""
        if self.rules.high_trump_kills_only and not self.table and not self._legal_two(self.to_act):
            n = self.players
            s = (self.to_act - 1) % n
            while not self.hands[s]:
                s = (s - 1) % n
            self.events.append(Event("lead-passes", self.to_act, 0, (s,)))
            self.to_act = s

    def high_trump(self) -> int:
        """The highest trump still in the game (not killed or out of play), or -1.  With two
        packs, the highest trump of which a copy is still in the game (a first-pack card)."""
        if self.trump_suit < 0:
            return -1
        gone = self.killed & self.killed >> TWIN if self.double else self.killed
        return (SUIT_MASKS[self.trump_suit] & ~gone).bit_length() - 1

    def beat_candidates(self, hand: int) -> int:
        """Phase two: the cards of card set ``hand`` that may take part in a beat of the top play
        (a higher card of its suit, or a trump on a non-trump; the table must not be empty).  With
        two packs ``hand`` and the result are card kinds (:func:`~skitgubbe.engine.cards.fold`)."""
        top = fold(self.table[-1]) if self.double else self.table[-1]
        th = top.bit_length() - 1
        ts = th // 13
        m = hand & SUIT_MASKS[ts] & ~((2 << th) - 1)
        if ts != self.trump_suit and ts != self.anti:
            m |= hand & SUIT_MASKS[self.trump_suit]
            if self.rules.beat_any_suit:  # any higher non-trump (the Flurst page read literally)
                r = th % 13
                for s in range(4):
                    if s not in (ts, self.trump_suit):
                        m |= hand & SUIT_MASKS[s] & ~((2 << (13 * s + r)) - 1)
        return m

    def _plays(self, m: int) -> tuple[Action, ...]:
        if self.runs:
            return run_actions(m, self.min_run, self.from_two)
        return single_actions(Kind.PLAY, m)

    def _legal_two(self, s: int) -> list[Action]:
        held = self.hands[s]
        table = self.table
        if table and (self.forced or self.blue >> s & 1):
            return [PICK_UP_ACTION]
        # two packs: plays are worked out on card kinds, then given the copies the seat holds
        hand = fold(held) if self.double else held
        acts = self._plays(self.beat_candidates(hand) if table else hand)
        if self.rules.high_trump_kills_only:
            ht = self.high_trump()
            top_suit = (fold(table[-1]).bit_length() - 1) // 13 if table else -1
            ends = self.rules.trump_ends_trick and table and top_suit != self.trump_suit
            if ht >= 0 and hand >> ht & 1 and len(table) + 1 < self.kill_at and not ends:
                acts = tuple(a for a in acts if not a.cards >> ht & 1)
        if self.double and held >> TWIN:
            acts = tuple(a if not a.cards & ~held else a._replace(cards=canonical(a.cards, held))
                         for a in acts)
        return [*acts, PICK_UP_ACTION] if table else list(acts)

    def _random_two(self, u: float) -> Action:
        """The legal action at index ``int(u * len(legal))`` of :meth:`_legal_two` for
        the seat to act, found without building the list when it can."""
        if not self.plain_two:
            legal = self._legal_two(self.to_act)
            return legal[int(u * len(legal))]
        hand = self.hands[self.to_act]
        table = self.table
        if table:
            top = table[-1]
            th = top.bit_length() - 1
            ts = th // 13
            m = hand & SUIT_MASKS[ts] & ~((2 << th) - 1)
            trump = self.trump_suit
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

    def _reason_two(self, s: int, action: Action) -> str:
        """Why a legal phase-two ``action`` of seat ``s`` is allowed, in the rules' words (one line)."""
        if action.kind == Kind.PICK_UP:
            take, _, _ = pick_up_take(self.table, self.rules.pick_up)
            taken = format_cards(take, unicode=True)
            return f"instead of beating you may always pick up: you would take {taken}"
        cards = action.cards
        what = format_cards(cards, unicode=True)
        kill = ""
        if self.table and len(self.table) + 1 >= self.kill_at:
            kill = f"; it is play {self.kill_at} of {self.kill_at}: it kills the trick"
        out = "; it is your last card: you go out" if cards == self.hands[s] else ""
        if not self.table:
            return f"you lead: any card{' or run' if cards.bit_count() > 1 else ''} may be led ({what}){out}"
        top = fold(self.table[-1])  # two packs: card kinds
        th = top.bit_length() - 1
        low = (fold(cards) & -fold(cards)).bit_length() - 1
        if low // 13 == th // 13:
            how = f"{what} beats the {card_label(th)}: a higher {SUIT_NAMES[th // 13][:-1]}"
        elif low // 13 != self.trump_suit:  # beat_any_suit
            how = f"{what} beats the {card_label(th)}: a higher card, and in these rules any suit will do"
        else:
            how = f"{what} is a trump: it beats any {SUIT_NAMES[th // 13][:-1]}"
        return how + kill + out

    def _explain_two(self, s: int, action: Action) -> str:
        if s != self.to_act:
            return f"it is seat {self.to_act}'s turn, not yours"
        kind = action.kind
        if kind == Kind.PICK_UP:
            return "there is nothing on the table to pick up: lead any card"
        if kind != Kind.PLAY:
            return f"there is no {kind.name.lower().replace('_', ' ')} in phase two: play a card or pick up"
        cards = action.cards
        missing = cards & ~self.hands[s]
        if missing:
            return f"you do not hold {card_label(missing.bit_length() - 1)}"
        if self.table and self.blue >> s & 1:
            return "you start phase two with no cards (Blåmattis): first you must pick up the lowest card"
        if self.table and self.forced:
            return "a seat has picked up: everyone after it must pick up too until the table is empty"
        if self.rules.plays is Plays.SINGLE and cards.bit_count() != 1:
            return "these rules allow one card per play in phase two"
        if cards & cards >> TWIN:
            return "the two copies of a card never touch: play them separately (double deck)"
        cards = fold(cards)  # two packs: the rules see card kinds
        if not is_run(cards):
            return "a play is one card or a run of touching cards of one suit"
        n = cards.bit_count()
        low = (cards & -cards).bit_length() - 1
        if n > 1 and n < self.min_run:
            return f"a run must have at least {self.min_run} cards in these rules"
        if n > 1 and self.from_two and low % 13:
            return "in these rules a run must start with the 2 of its suit"
        ht = self.high_trump() if self.rules.high_trump_kills_only else -1
        if ht >= 0 and cards >> ht & 1:
            return (f"the {card_label(ht)} is the highest trump left: it may only be played to kill a trick "
                    f"(play {self.kill_at} of {self.kill_at})")
        top = fold(self.table[-1])
        th = top.bit_length() - 1
        ts = th // 13
        if ts == self.trump_suit:
            how = "only a higher trump can"
        elif ts == self.anti:
            how = f"only a higher {SUIT_NAMES[ts][:-1]} can: trumps cannot beat the anti-trump suit"
        elif self.rules.beat_any_suit:
            how = "only a higher card of a suit that is not trumps, or a trump, can"
        else:
            how = f"only a higher {SUIT_NAMES[ts][:-1]} or a trump can"
        return f"the {card_label(low)} cannot beat the {card_label(th)}; {how}"

    def _play_two(self, s: int, cards: int) -> None:
        hands = self.hands
        left = hands[s] ^ cards
        hands[s] = left
        known = self.known
        if known[s] & cards:
            known[s] &= ~cards
        ev = self.events
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
        elif k == 0 and not self.reserve:  # with cards in the avstickshög a seat is not out yet
            self.out_order.append(s)
            ev.append(Event("out", s))
            if self._in_game() == 1:
                if self._ends_trick(cards):
                    self._kill(s)
                self._finish(self._next_active(s))
                return
        if len(table) >= self.kill_at or (self.extra_ends and self._ends_trick(cards)):
            self._kill(s)
            if self.reserve:
                self._draw_reserve(s)
                if self.phase == Phase.OVER:
                    return
            self._lead_two(s if hands[s] else self._next_active(s), self._in_game())
            return
        if self.blue:
            self.to_act = self._next_active(s)
            return
        # the next seat clockwise that holds cards
        n = self.players
        nxt = s + 1 if s + 1 < n else 0
        while not hands[nxt]:
            nxt = nxt + 1 if nxt + 1 < n else 0
        self.to_act = nxt

    def _ends_trick(self, cards: int) -> bool:
        """True if the play ``cards`` just put on the table ends the trick: the kill count
        reached, a trump on a non-trump (if the rules say so), or a complete suit."""
        table = self.table
        if len(table) >= self.kill_at:
            return True
        rules = self.rules
        cards = fold(cards)  # two packs: card kinds
        suit = ((cards & -cards).bit_length() - 1) // 13
        if rules.trump_ends_trick and len(table) >= 2 and suit == self.trump_suit:
            below = fold(table[-2])
            if (below.bit_length() - 1) // 13 != self.trump_suit:
                return True
        if rules.complete_suit_ends:
            on_table = 0
            for p in table:
                on_table |= p
            if fold(on_table) & SUIT_MASKS[suit] == SUIT_MASKS[suit]:
                return True
        return False

    def _kill(self, s: int) -> None:
        killed = 0
        for p in self.table:
            killed |= p
        self.killed |= killed
        self.tricks += 1
        self.events.append(Event("kill", s, killed))
        self.table = []
        self.table_owners = []

    def _draw_reserve(self, last: int) -> None:
        """Two seats with an avstickshög (pagat.com, "Two Player Game"): after a kill each seat
        draws one card from it, ``last`` (the seat that played last) first.  A seat with no cards
        once the pile is empty is out, and then the other loses."""
        seats = (last, 1 - last)
        for seat in seats:
            if self.reserve:
                c = self.reserve.pop()
                self.hands[seat] |= 1 << c
                self.events.append(Event("reserve-draw", seat, 1 << c, (), self.sees[seat]))
        if self.reserve:
            return
        for seat in seats:
            if not self.hands[seat] and seat not in self.out_order:
                self.out_order.append(seat)
                self.events.append(Event("out", seat))
        holding = [seat for seat in seats if self.hands[seat]]
        if len(holding) == 1:
            self._finish(holding[0])

    def _pick_up(self, s: int) -> None:
        table = self.table
        # two seats with an avstickshög: picking up a last card led loses at once
        led_last = bool(self.reserve) and len(table) == 1 and not self.hands[self.table_owners[0]]
        if self.blue >> s & 1:  # a Blåmattis's first turn: the lowest card on the table
            self.blue ^= 1 << s
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
            mode = self.rules.pick_up
            take, below, above = (pick_up_take if self.double else _take)(table, mode)
            if above:
                del table[-above:]
                del self.table_owners[-above:]
            if below:
                del table[:below]
                del self.table_owners[:below]
            elif mode is PickUp.LOWEST_CARD:
                table[0] ^= take
        self.hands[s] |= take
        self.known[s] |= take
        self.events.append(_event(Event, ("pick-up", s, take, (), -1)))
        if led_last:
            other = 1 - s
            self.out_order.append(other)
            self.events.append(Event("out", other))
            self._finish(s)
            return
        if table:
            self.forced = self.rules.forced_pickup
            self.to_act = self._next_active(s)
        else:
            self.tricks += 1
            self._lead_two(self._next_active(s), self._in_game())
