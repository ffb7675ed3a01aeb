"""The heuristic bot: a sensible beginner that scores each legal action with a few rules of thumb.

Phase one (collecting).  The bot counts a card it owns at the end of phase one
(in its pile or still in hand) as worth ``rank - center``: high cards are worth
having for phase two, low cards are a burden.  For each play it estimates what
it gains: a card played into a trick it loses is given away (good for a low
card, bad for a high one); a trick it wins brings it every card in it.  The
chance of winning is guessed from the cards it has not seen and how many seats
still play after it.  So it leads low, gives low cards away under a cheap lead,
beats a valuable lead with its cheapest winning card, turns up the stock when
its hand holds only cards worth keeping, and sluffs low cards into tricks it is
not going to win (never into a trick it is winning).  In the Goat Game it also
tries to end phase one with enough cards not to be dealt the dreck.

Phase two (shedding).  Each card in hand is a burden of about one play, less
for the high cards and trumps that can beat others' plays.  The bot leads the
play that sheds the most burden (low non-trump cards, the longer the run the
better), beats with the cheapest play (non-trump before trump, lowest card
first, longer runs of low cards preferred), always kills a trick or goes out
when it can, and picks up only when it cannot beat or when beating would spend
a high trump on a low card while its hand is still big.

Greedy play can go round in circles in phase two (a trump beaten on and picked
up again and again); when the public history shows the same plays coming round
twice, the bot plays its second-best action to break the cycle.

Everything is a few integer bit operations on card sets; the only randomness
is its own ``random.Random``, used to break exact ties.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, Kind
from ..base import Phase
from ..cards import RANK_MASKS2, full_deck, rank_of, suit_of
from ..phase_two import pick_up_take
from ..rules import FirstPhase
from ..view import View

__all__ = ["HeuristicBot", "power_weight"]

_RANK = tuple(rank_of(c) for c in range(104))  # both packs (cards.TWIN)
_SUIT = tuple(suit_of(c) for c in range(104))
_EPS = 1e-9
_LOOP_MAX = 60


def _cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def power_weight(size: int) -> float:
    """Phase two: how much a card's power counts against its burden in a hand of ``size`` cards:
    1 for seven or more, falling by 1/6 a card to 0.2 for two or fewer (high cards and trumps are
    assets while the hand is big; late, every card is a burden)."""
    return min(1.0, max(0.2, (size - 1) / 6.0))


def _looping(history: Sequence[tuple[int, Action]]) -> bool:
    """True if the last actions repeat the ones just before them (a cycle of at most
    ``_LOOP_MAX`` actions that came round twice): greedy play can go round forever in
    phase two, when the same cards are beaten on and picked up again and again."""
    n = len(history)
    last = history[-1] if n else None
    if last is None or last[1].kind != Kind.PICK_UP:
        return False
    for j in range(n - 2, max(n - 1 - _LOOP_MAX, -1), -1):
        if history[j] == last:
            period = n - 1 - j
            tail = history[n - period:]
            # only plays bring cards back round: a run of pick-ups alone is no cycle
            if (2 * period <= n and tail == history[n - 2 * period:n - period]
                    and any(a.kind == Kind.PLAY for _, a in tail)):
                return True
    return False


class HeuristicBot:
    """A sensible beginner: collect high cards in phase one, shed cheaply in phase two.

    Every legal action gets a score from plain rules of thumb (see the module
    docstring) and the best one is chosen; exact ties are broken with ``rng``, so
    the bot is deterministic given its ``random.Random``.  It reads only the
    :class:`~skitgubbe.view.View` and works under any :class:`~skitgubbe.rules.Rules`.
    """

    name = "heuristic"

    # Tuning weights (a subclass may change them); each is explained in its docstring.
    center: float = 8.5
    """Phase one: a card of rank r is worth ``r - center`` to own for phase two."""
    needy_shift: float = 3.0
    """Phase one with a dreck: while the bot risks ending with too few cards, each card is worth this
    much more."""
    pwin_exp: float = 1.5
    """Phase one: each seat still to play is counted as this many chances to beat a card."""
    hold: float = 0.05
    """Phase one: a small preference for keeping high cards in hand (they win later tricks)."""
    sluff_margin: float = 0.5
    """Phase one: a sluff must gain more than this (only clearly low cards are sluffed)."""
    trump_power: float = 1.5
    """Phase two: a trump's power is this plus its rank's (0 for a two, 1 for an ace)."""
    pick_penalty: float = 0.4
    """Phase two: the cost of picking up on top of the picked-up cards (lost tempo)."""
    pick_floor: float = 0.3
    """Phase two: every picked-up card is at least this much of a burden."""
    kill_bonus: float = 1.5
    """Phase two: the worth of killing a trick (its cards are gone and the killer leads)."""
    out_bonus: float = 100.0
    """Phase two: the worth of going out."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The legal action with the best heuristic score for ``view.seat``.

        Phase one: lead low, give low cards away, win valuable tricks cheaply, turn
        up the stock with a hand worth keeping, sluff low cards into others' tricks.
        Phase two: go out or kill when possible, else beat with the cheapest play or
        lead the cheapest low non-trump card or run, and pick up only when unable to
        beat or when beating would waste a high trump early.
        """
        if len(legal) == 1:
            return legal[0]
        if view.phase == Phase.ONE and view.rules.first_phase is FirstPhase.BEAT:
            scores = self._score_beat(view, legal)
        elif view.phase == Phase.ONE:
            scores = self._score_one(view, legal)
        elif view.phase == Phase.TWO:
            scores = self._score_two(view, legal)
            if _looping(view.history):
                # The same plays keep coming round (say a trump beaten on and picked up
                # again and again): play the second-best action to break the cycle.
                top = max(scores)
                if sum(1 for s in scores if s >= top - _EPS) == 1:
                    scores = [s - 1e6 if s >= top - _EPS else s for s in scores]
        else:  # nothing to decide for a seat outside the two phases
            scores = [0.0] * len(legal)
        return self._best(legal, scores)

    def _best(self, legal: Sequence[Action], scores: Sequence[float]) -> Action:
        top = max(scores)
        best = [a for a, s in zip(legal, scores, strict=True) if s >= top - _EPS]
        if len(best) == 1:
            return best[0]
        return best[self.rng.randrange(len(best))]

    # -- phase one ---------------------------------------------------------------

    def _score_beat(self, view: View, legal: Sequence[Action]) -> list[float]:
        """Mas (``FirstPhase.BEAT``): store three trumps and take the turned-up trump whenever
        allowed; lead the lowest non-trump; beat with the cheapest card that beats (a card of
        the suit before a trump), and pick up only when nothing beats (picking up never
        shortens the stock, so seats that only pick up would pass cards round for ever)."""
        trump = view.trump_suit

        def cost(c: int) -> float:  # what giving the card away costs: high cards and trumps most
            return _RANK[c] + (20.0 if _SUIT[c] == trump else 0.0)

        scores = []
        for a in legal:
            if a.kind in (Kind.STORE, Kind.EXCHANGE):
                scores.append(100.0)
            elif a.kind == Kind.PICK_UP:
                scores.append(-100.0)
            else:
                scores.append(-cost(a.cards.bit_length() - 1))
        return scores

    def _score_one(self, view: View, legal: Sequence[Action]) -> list[float]:
        me = view.seat
        hand = view.hand
        rounds = view.rounds
        current = rounds[-1] if rounds else ()
        trick = view.trick_cards()
        high = max((_RANK[c] for _, c in current), default=0)

        # What a card is worth to own; more while the dreck threatens (too few cards).
        center = self.center
        rules = view.rules
        if rules.dreck_below:
            owned = view.piles[me].bit_count() + hand.bit_count()
            if owned < rules.dreck_below + 2:
                center -= self.needy_shift
        value = [float(r) - center for r in range(15)]

        # The cards this seat has not seen: other hands, the stock, the face-down trump.
        seen = hand | trick
        for m in view.piles:
            seen |= m
        for m in view.known:
            seen |= m
        unseen = full_deck(view.rules.decks) & ~seen
        n_unseen = unseen.bit_count()
        counts = [0] * 15
        for r in range(2, 15):
            counts[r] = (unseen & RANK_MASKS2[r]).bit_count()  # both packs' copies
        above = [0] * 16  # above[r]: unseen cards of rank > r
        for r in range(14, 1, -1):
            above[r] = above[r + 1] + counts[r + 1] if r < 14 else 0
        below_sum = [0.0] * 16  # sum of values of unseen cards of rank < r
        below_n = [0] * 16
        for r in range(3, 15):
            below_sum[r] = below_sum[r - 1] + counts[r - 1] * value[r - 1]
            below_n[r] = below_n[r - 1] + counts[r - 1]
        mean_unseen = sum(counts[r] * value[r] for r in range(2, 15)) / n_unseen if n_unseen else 0.0

        pot = sum(value[_RANK[c]] for c in _cards_of(trick))
        due = bool(view.round_seats) and view.round_seats[0] == me and view.to_act == me
        later = len(view.round_seats) - 1 if due else 0
        draw = mean_unseen if view.stock_size >= 1 else 0.0

        def p_win(r: int) -> float:
            if not n_unseen or not later:
                return 1.0
            return float((1.0 - above[r] / n_unseen) ** (later * self.pwin_exp))

        def win_gain(r: int) -> float:
            # the pot, plus the cards the later seats play under ours
            extra = later * below_sum[r] / below_n[r] if below_n[r] else 0.0
            return pot + extra

        def play_gain(r: int, own: float) -> float:
            """Expected gain of playing a card of rank r; ``own`` is what losing it costs."""
            if r < high:
                return -own
            p = p_win(r)
            if r == high:  # a war: call it a coin flip
                p *= 0.5
            return p * win_gain(r) - (1.0 - p) * own

        # Will this seat win the trick?  Sluffs go only into tricks it will not win.
        if view.trick_winner >= 0:
            losing = view.trick_winner != me
        elif me in view.round_seats:
            # due to play: losing only if nothing in hand can match or beat the round's high card
            losing = high > 0 and all(_RANK[c] < high for c in _cards_of(hand))
        else:
            losing = not any(s == me and _RANK[c] == high for s, c in current)

        scores: list[float] = []
        best_sluff = 0.0
        for a in legal:
            kind = a.kind
            if kind == Kind.PLAY:
                r = _RANK[a.cards.bit_length() - 1]
                scores.append(play_gain(r, value[r]) + draw - self.hold * r)
            elif kind == Kind.STOCK:
                g = 0.0
                if n_unseen:
                    for r in range(2, 15):
                        if counts[r] and r >= high:
                            # a turned-up card that wins is ours too; one that loses cost nothing
                            p = p_win(r) * (0.5 if r == high else 1.0)
                            g += counts[r] * p * (win_gain(r) + value[r])
                    g /= n_unseen
                scores.append(g)
            elif kind == Kind.SLUFF:
                r = _RANK[a.cards.bit_length() - 1]
                s = -value[r] + draw - self.sluff_margin if losing else -1.0
                best_sluff = max(best_sluff, s)
                scores.append(s)
            else:  # PASS and anything unexpected
                scores.append(0.0)
        if best_sluff > 0.0:
            # A worthwhile sluff comes first: the play (if any) can follow it.
            big = 1e6
            scores = [s + big if a.kind == Kind.SLUFF else s for a, s in zip(legal, scores, strict=True)]
        return scores

    # -- phase two ---------------------------------------------------------------

    def _score_two(self, view: View, legal: Sequence[Action]) -> list[float]:
        hand = view.hand
        trump = view.trump_suit
        size = hand.bit_count()
        weight = power_weight(size)
        burden = [0.0] * 104  # one entry per card of both packs
        for c in _cards_of(hand):
            power = (_RANK[c] - 2) / 12.0 + (self.trump_power if _SUIT[c] == trump else 0.0)
            burden[c] = 1.0 - weight * power
        table = view.table
        kills = bool(table) and len(table) + 1 >= view.kill_at

        scores: list[float] = []
        for a in legal:
            if a.kind == Kind.PLAY:
                cards = a.cards
                if cards == hand:
                    scores.append(self.out_bonus)
                    continue
                s = 0.0
                for c in _cards_of(cards):
                    s += burden[c]
                if kills:
                    s += self.kill_bonus
                scores.append(s)
            elif a.kind == Kind.PICK_UP:
                eaten = self._eaten(view)
                s = -self.pick_penalty
                for c in _cards_of(eaten):
                    p = (_RANK[c] - 2) / 12.0 + (self.trump_power if _SUIT[c] == trump else 0.0)
                    s -= max(self.pick_floor, 1.0 - weight * p)
                scores.append(s)
            else:
                scores.append(-1e6)
        return scores

    @staticmethod
    def _eaten(view: View) -> int:
        """The card set a pick-up would take now."""
        take, _, _ = pick_up_take([p for _, p in view.table], view.rules.pick_up)
        return take
