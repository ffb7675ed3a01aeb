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
from .cards import SUIT_MASKS, SUIT_NAMES, card_label, is_run
from .rules import PickUp, Plays

__all__ = ["PhaseTwo", "pick_up_take"]


def pick_up_take(plays: Sequence[int], *, top_card: bool) -> tuple[int, int]:
    """What a pick-up takes from ``plays`` (card sets on the table, bottom first):
    ``(card set taken, number of plays it removes)``.

    ``top_card=True``: the top play only (pagat.com, "Play in the second phase").
    Otherwise the lowest run: the bottom play and each following play that
    continues its sequence in the same suit (Flurst, "Pick up ... the lowest run").
    Returns ``(0, 0)`` for an empty table.
    """
    if not plays:
        return 0, 0
    if top_card:
        return plays[-1], 1
    take = plays[0]
    hi = take.bit_length() - 1
    j = 1
    while j < len(plays):
        nxt = plays[j]
        if (nxt & -nxt).bit_length() - 1 != hi + 1 or hi % 13 == 12:
            break
        take |= nxt
        hi = nxt.bit_length() - 1
        j += 1
    return take, j


_BEAT, _LEAD = "beat", "lead"
_event = tuple.__new__  # builds an Event from a full 4-tuple without the Python-level __new__ (hot path)
_PLAY_ONE = single_actions(Kind.PLAY, (1 << 52) - 1)


class PhaseTwo(StateBase):
    """The phase-two part of :class:`skitgubbe.state.State` (a mixin)."""

    def _start_phase_two(self, leader: int) -> None:
        n = self.players
        self.phase = Phase.TWO
        self.runs = self.rules.plays is Plays.RUN
        self.pick_top = self.rules.pick_up is PickUp.TOP_CARD
        self.table = []
        self.table_owners = []
        for i in range(n):
            s = (self.dealer + 1 + i) % n
            if not self.hands[s]:
                self.out_order.append(s)
                self.events.append(Event("out", s))
        active = [s for s in range(n) if self.hands[s]]
        if len(active) <= 1:
            self._finish(active[0] if active else None)
            return
        if not self.hands[leader]:
            leader = self._next_active(leader)
        self._lead_two(leader, len(active))

    def _lead_two(self, leader: int, active: int) -> None:
        self.kill_at = active
        self.table = []
        self.table_owners = []
        self.to_act = leader

    def _candidates(self, hand: int) -> int:
        """Cards of ``hand`` that may take part in a beat of the top play."""
        top = self.table[-1]
        th = top.bit_length() - 1
        ts = th // 13
        m = hand & SUIT_MASKS[ts] & ~((2 << th) - 1)
        if ts != self.trump_suit:
            m |= hand & SUIT_MASKS[self.trump_suit]
        return m

    def _legal_two(self, s: int) -> list[Action]:
        hand = self.hands[s]
        if self.table:
            m = self._candidates(hand)
            return [*(run_actions(m) if self.runs else single_actions(Kind.PLAY, m)), PICK_UP_ACTION]
        return list(run_actions(hand) if self.runs else single_actions(Kind.PLAY, hand))

    def _random_two(self, u: float) -> Action:
        """The legal action at index ``int(u * len(legal))`` of :meth:`_legal_two` for
        the seat to act, found without building the list when plays are single cards."""
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
        if self.rules.plays is Plays.SINGLE and cards.bit_count() != 1:
            return "these rules allow one card per play in phase two"
        if not is_run(cards):
            return "a play is one card or a run of touching cards of one suit"
        top = self.table[-1]
        th = top.bit_length() - 1
        ts = th // 13
        if ts == self.trump_suit:
            how = "only a higher trump can"
        else:
            how = f"only a higher {SUIT_NAMES[ts][:-1]} or a trump can"
        low = (cards & -cards).bit_length() - 1
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
        ev.append(_event(Event, (_BEAT if table else _LEAD, s, cards, ())))
        table.append(cards)
        self.table_owners.append(s)
        k = left.bit_count()
        if k > 3:
            pass
        elif k == 3:
            ev.append(Event("three-cards", s))
        elif k == 1:
            ev.append(Event("one-card", s))
        elif k == 0:
            self.out_order.append(s)
            ev.append(Event("out", s))
            if sum(1 for h in hands if h) == 1:
                if len(table) >= self.kill_at:
                    self._kill(s)
                self._finish(self._next_active(s))
                return
        if len(table) >= self.kill_at:
            self._kill(s)
            self._lead_two(s if k else self._next_active(s), sum(1 for h in hands if h))
            return
        # the next seat clockwise that holds cards
        n = self.players
        nxt = s + 1 if s + 1 < n else 0
        while not hands[nxt]:
            nxt = nxt + 1 if nxt + 1 < n else 0
        self.to_act = nxt

    def _kill(self, s: int) -> None:
        killed = 0
        for p in self.table:
            killed |= p
        self.killed |= killed
        self.tricks += 1
        self.events.append(Event("kill", s, killed))
        self.table = []
        self.table_owners = []

    def _pick_up(self, s: int) -> None:
        table = self.table
        if self.pick_top:
            take = table.pop()
            self.table_owners.pop()
        else:
            take, j = pick_up_take(table, top_card=False)
            del table[:j]
            del self.table_owners[:j]
        self.hands[s] |= take
        self.known[s] |= take
        self.events.append(_event(Event, ("pick-up", s, take, ())))
        if table:
            self.to_act = self._next_active(s)
        else:
            self.tricks += 1
            self._lead_two(self._next_active(s), sum(1 for h in self.hands if h))
