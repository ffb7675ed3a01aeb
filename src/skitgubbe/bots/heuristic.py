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

from ..engine.actions import Action, Kind
from ..engine.base import Phase
from ..engine.cards import rank_of, suit_of
from ..engine.phase_two import pick_up_take
from ..engine.rules import FirstPhase, Rules
from ..engine.view import View

__all__ = ["HeuristicBot", "power_weight", "score_one", "phase_one_strength", "cards_of", "is_looping",
           "TIE_EPS"]

_RANK = tuple(rank_of(c) for c in range(104))  # both packs (cards.TWIN)
_SUIT = tuple(suit_of(c) for c in range(104))
TIE_EPS = 1e-9
"""Scores within this of the best count as tied (the tie is broken by the bot's ``random.Random``)."""
_LOOP_MAX = 60


def cards_of(mask: int) -> list[int]:
    """The cards of card set ``mask`` (bitmask, bit i = card i), lowest first."""
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


def is_looping(history: Sequence[tuple[int, Action]]) -> bool:
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
    :class:`~skitgubbe.engine.view.View` and works under any :class:`~skitgubbe.engine.rules.Rules`.
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
    win_keeps_card: bool = False
    """Phase one: whether a won trick's gain counts the seat's own card again (it goes to the
    seat's pile).  Off here; the counter bot was tuned with it on (see :func:`score_one`)."""
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
            if is_looping(view.history):
                # The same plays keep coming round (say a trump beaten on and picked up
                # again and again): play the second-best action to break the cycle.
                top = max(scores)
                if sum(1 for s in scores if s >= top - TIE_EPS) == 1:
                    scores = [s - 1e6 if s >= top - TIE_EPS else s for s in scores]
        else:  # nothing to decide for a seat outside the two phases
            scores = [0.0] * len(legal)
        return self._best(legal, scores)

    def _best(self, legal: Sequence[Action], scores: Sequence[float]) -> Action:
        top = max(scores)
        best = [a for a, s in zip(legal, scores, strict=True) if s >= top - TIE_EPS]
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
        """Phase one on what the view shows: a card of rank r is worth ``r - center`` (less still
        while the dreck threatens), the cards the later seats may hold are the unseen ones."""
        me = view.seat
        center = self.center
        rules = view.rules
        if rules.dreck_below:
            owned = view.piles[me].bit_count() + view.hand.bit_count()
            if owned < rules.dreck_below + 2:
                center -= self.needy_shift
        # the cards this seat has not seen: other hands, the stock, the face-down trump
        trick = view.trick_cards()
        seen = view.hand | trick
        for m in view.piles:
            seen |= m
        for m in view.known:
            seen |= m
        unseen = rules.pack & ~seen
        worth = [float(r) - center for r in _RANK]
        return score_one(self, view, legal, worth=worth, pool=unseen, unseen=unseen, trick=trick)

    # -- phase two ---------------------------------------------------------------

    def _score_two(self, view: View, legal: Sequence[Action]) -> list[float]:
        hand = view.hand
        trump = view.trump_suit
        size = hand.bit_count()
        weight = power_weight(size)
        burden = [0.0] * 104  # one entry per card of both packs
        for c in cards_of(hand):
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
                for c in cards_of(cards):
                    s += burden[c]
                if kills:
                    s += self.kill_bonus
                scores.append(s)
            elif a.kind == Kind.PICK_UP:
                eaten = self._eaten(view)
                s = -self.pick_penalty
                for c in cards_of(eaten):
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


def phase_one_strength(rules: Rules) -> tuple[int, ...]:
    """How phase one ranks each rank 0..14 (index = rank, 2..14 used): the rank itself, or 1 for
    the ace when aces are low in phase one (``rules.aces_low_first``; Howell, "aces low")."""
    return tuple(1 if (rules.aces_low_first and r == 14) else r for r in range(15))


def score_one(bot: HeuristicBot, view: View, legal: Sequence[Action], *, worth: Sequence[float],
              pool: int, unseen: int, trick: int) -> list[float]:
    """Phase-one scores of ``legal`` for ``view.seat``: the one scorer of the card-playing bots.

    Args:
        bot: the weights (``pwin_exp``, ``hold``, ``sluff_margin``, ``win_keeps_card``).
        worth: per card id (0..51, or 0..103 with two packs), what owning it is worth for phase
            two (the heuristic bot: by rank; the counter bot: by rank and the odds of its suit
            being trump).
        pool: card set (bitmask, bit i = card i) the seats still to play in this round may hold.
        unseen: card set whose place this seat does not know: what a draw from the stock may give.
        trick: card set on the table in this trick.

    Each play is scored as its expected gain in worth owned: a card played into a trick the seat
    loses is given away, a trick it wins brings every card in it, with the chance of winning from
    the pool and how many seats still play after it (a tie for the high card counts as half).
    Turning up the stock is the mean of that over the unseen cards; a sluff gains the draw less
    the card's worth, only into a trick the seat is not winning, and a worthwhile sluff comes
    before any play.  Cards rank as phase one ranks them (:func:`phase_one_strength`).
    Returns one float per action of ``legal``, in order.
    """
    me = view.seat
    strength = phase_one_strength(view.rules)
    rounds = view.rounds
    current = rounds[-1] if rounds else ()
    high = max((strength[_RANK[c]] for _, c in current), default=0)

    due = bool(view.round_seats) and view.round_seats[0] == me and view.to_act == me
    later = len(view.round_seats) - 1 if due else 0
    pool_cards = cards_of(pool)
    n_pool = len(pool_cards)
    above = [0] * 16  # above[r]: pool cards of phase-one strength > r
    below_sum = [0.0] * 16  # below_sum[r]: worth of the pool cards of strength < r
    below_n = [0] * 16
    for c in pool_cards:
        r = strength[_RANK[c]]
        for x in range(r):
            above[x] += 1
        for x in range(r + 1, 16):
            below_sum[x] += worth[c]
            below_n[x] += 1
    unseen_cards = cards_of(unseen)
    mean_unseen = sum(worth[c] for c in unseen_cards) / len(unseen_cards) if unseen_cards else 0.0
    pot = sum(worth[c] for c in cards_of(trick))
    draw = mean_unseen if view.stock_size >= 1 else 0.0
    keep = bot.win_keeps_card

    def p_win(r: int) -> float:
        if not n_pool or not later:
            return 1.0
        return float((1.0 - above[r] / n_pool) ** (later * bot.pwin_exp))

    def win_gain(r: int) -> float:
        # the pot, plus the cards the later seats play under ours
        extra = later * below_sum[r] / below_n[r] if below_n[r] else 0.0
        return pot + extra

    def play_gain(r: int, own: float) -> float:
        """Expected gain of playing cards of strength r; ``own`` is what losing them costs."""
        if r < high:
            return -own
        p = p_win(r)
        if r == high:  # a war: call it a coin flip
            p *= 0.5
        return p * (win_gain(r) + (own if keep else 0.0)) - (1.0 - p) * own

    # Will this seat win the trick?  Sluffs go only into tricks it will not win.
    hand = view.hand
    if view.trick_winner >= 0:
        losing = view.trick_winner != me
    elif me in view.round_seats:
        # due to play: losing only if nothing in hand can match or beat the round's high card
        losing = high > 0 and all(strength[_RANK[c]] < high for c in cards_of(hand))
    else:
        losing = not any(s == me and strength[_RANK[c]] == high for s, c in current)

    scores: list[float] = []
    best_sluff = 0.0
    for a in legal:
        kind = a.kind
        if kind == Kind.PLAY:
            cards = cards_of(a.cards)
            r = strength[_RANK[cards[-1]]]
            own = sum(worth[c] for c in cards)
            scores.append(play_gain(r, own) + draw * len(cards) - bot.hold * r)
        elif kind == Kind.STOCK:
            g = 0.0
            for c in unseen_cards:
                r = strength[_RANK[c]]
                if r >= high:
                    # a turned-up card that wins is ours too; one that loses cost nothing
                    p = p_win(r) * (0.5 if r == high else 1.0)
                    g += p * (win_gain(r) + worth[c])
            scores.append(g / len(unseen_cards) if unseen_cards else 0.0)
        elif kind == Kind.SLUFF:
            cards = cards_of(a.cards)
            gain = (sum(draw - worth[c] for c in cards) - bot.sluff_margin) if losing else -1.0
            best_sluff = max(best_sluff, gain)
            scores.append(gain)
        else:  # PASS and anything unexpected
            scores.append(0.0)
    if best_sluff > 0.0:
        # A worthwhile sluff comes first: the play (if any) can follow it.
        scores = [s + 1e6 if a.kind == Kind.SLUFF else s for a, s in zip(legal, scores, strict=True)]
    return scores
