"""The counter bot: the heuristic bot's rules of thumb played on perfect card tracking.

It reads its seat's :class:`~skitgubbe.bots.tracker.Tracking` (every card seen going into a pile in
phase one, picked up or killed in phase two, and the chance of each suit being trump) and scores
every legal action like :class:`~skitgubbe.bots.heuristic.HeuristicBot`, with these differences.

Phase one (collecting).  What a card is worth to own for phase two depends on its suit as well as
its rank: a card of a suit likely to be trump is worth up to :attr:`CounterBot.trump_worth` more.
The chance comes from the cards not yet seen (the trump card is the last stock card: pagat.com
Skitgubbe, "The Deal"; Flurst page, "Last card of the deck"), so as the stock runs down the bot
collects the cards that will be strong once trump is known and gives away the low cards of the
other suits.  The chance of winning a trick counts the cards not yet seen and the known cards of
the seats still to play, ranked as phase one ranks them (aces low where the rules say so).

Phase two (shedding).  A card's strength is counted against the cards still live, not its rank:
how many of the cards the other seats may hold it beats (a king is as good as an ace once the ace
is killed).  On that the bot

* beats as cheaply as possible: the play that keeps the most strength in hand;
* saves trumps: a trump, above all the highest live one, is worth the non-trumps it can beat, so
  it is spent only on a kill, on going out, or when nothing cheaper beats;
* picks up rather than beats when beating would spend a strong card on a cheap one and the
  cards it takes are strong themselves (counted against the live cards as well);
* kills when it can, and goes out when it can;
* leads, or beats with, a play the next seat cannot beat when it knows that seat's cards (the
  next seat must then pick up: pagat.com, "Play in the second phase"), and otherwise leads
  the play that sheds the weakest cards;
* once only two seats hold cards and it knows every card (always in pagat, whose phase one ends
  with every card shown), it searches the endgame to the end and plays a move that makes the
  other seat the loser whatever it does, when there is one and the search is small enough
  (:attr:`CounterBot.endgame_cards`, :attr:`CounterBot.endgame_nodes`).

On top of these scores, every phase-two decision is checked by *rollouts*: each legal action is
played, and the rest of the deal after it, with the heuristic bot's phase-two rules for every seat.
An action whose rollout ends with this seat safe gets :attr:`CounterBot.rollout_weight` more than
one whose rollout ends with it the loser, so the rollouts decide and the scores break their ties.
With every card known there is one rollout per action on the position itself; with cards whose
place is unknown (goat's leftover cards), one per action in each of
:attr:`CounterBot.rollout_samples` worlds dealt from the view by
:class:`~skitgubbe.bots.determinize.Determinizer`.  The rollouts model the other seats as playing by
the heuristic bot's rules of thumb: against heuristic bots that model is exact (but for their
random tie-breaks); measured against counter bots without rollouts it still helps (docs/bots.md).

:func:`counter_two` plays the same phase-two rule (scores and rollouts, not the endgame search)
straight off a complete State; the ismcts bot models the other seats with it.

Nothing here depends on the preset: the rules come from the view's :class:`~skitgubbe.engine.rules.Rules`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from ..engine.actions import Action, Kind
from ..engine.base import Phase
from ..engine.cards import SUIT_MASKS
from ..engine.phase_two import pick_up_take
from ..engine.rules import FirstPhase, PickUp
from ..engine.state import State
from ..engine.view import View
from ..engine.worlds import RebuildError, world_from_view
from .determinize import Determinizer
from .heuristic import TIE_EPS, HeuristicBot, cards_of, is_looping, power_weight, score_one
from .playouts import OutcomeMemo, heuristic_outcome, heuristic_two
from .tracker import Tracking, anti_suit, beaters, track

__all__ = ["CounterBot"]

_RANK = tuple(c % 13 + 2 for c in range(52))
_SUIT = tuple(c // 13 for c in range(52))


class CounterBot(HeuristicBot):
    """The heuristic bot with perfect card tracking (see the module docstring).

    Deterministic given its ``random.Random`` (used only to break exact ties); reads only the
    :class:`~skitgubbe.engine.view.View`; works under any :class:`~skitgubbe.engine.rules.Rules`.  Alias
    ``medium`` in :func:`skitgubbe.bots.make_bot`.
    """

    name = "counter"

    center: float = 11.0
    """Phase one: a non-trump card of rank above this is worth owning, one below it is a burden
    (measured: in phase two only the high non-trump cards pay their way; see docs/bots.md)."""
    win_keeps_card: bool = True
    """Phase one: a won trick's gain counts the seat's own card again (the setting the counter
    bot's weights were tuned and measured with; docs/bots.md, "One phase-one scorer")."""
    rank_slope: float = 1.0
    """Phase one: a non-trump card of rank r is worth ``rank_slope * (r - center)`` to own."""
    trump_worth: float = 9.0
    """Phase one: a two of trumps is worth this much to own."""
    trump_slope: float = 0.1
    """Phase one: each rank above the two adds this much to a trump's worth."""
    power_scale: float = 3.0
    """Phase two: a card that beats every live card the others may hold has this much strength."""
    master_bonus: float = 0.3
    """Phase two: extra strength of a card no live card can beat."""
    endgame_nodes: int = 3000
    """Phase two: most positions searched in a two-seat endgame with every card known (0: never)."""
    endgame_cards: int = 12
    """Phase two: the endgame is searched only with at most this many cards in the two hands and on
    the table."""
    rank_tiebreak: float = 0.001
    """Phase two: strength per rank (a trump 13 ranks above the rest), to prefer the lower of two cards
    otherwise equal against the live cards."""
    force_bonus: float = 0.3
    """Phase two: the worth, per card, of a play the next seat cannot beat (it must pick up)."""
    rollout_weight: float = 10.0
    """Phase two: the worth of a rollout won rather than lost (-1..1 averaged over the worlds), added
    to an action's score; large, so the rollouts decide and the scores only break their ties
    (0: no rollouts)."""
    rollout_samples: int = 4
    """Phase two: worlds sampled for the rollouts when some cards' places are unknown (goat's
    leftover cards, a dreck split between seats); 0: no rollouts then."""
    rollout_limit: int = 300
    """Phase two: most actions in one rollout; a longer one (the rollout moves going round in circles)
    counts as neither won nor lost."""

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The legal action with the best score for ``view.seat`` (module docstring).  With two
        packs (``view.rules.decks == 2``) it plays as the heuristic bot: its card tracking counts
        one copy of each card (rulings DD4)."""
        if len(legal) == 1:
            return legal[0]
        if view.rules.decks != 1:
            return super().choose(view, legal)
        tr = track(view)
        if view.phase == Phase.ONE and view.rules.first_phase is FirstPhase.BEAT:
            scores = self._score_beat(view, legal)  # Mas: the heuristic bot's beat-or-pick-up play
        elif view.phase == Phase.ONE:
            scores = self._score_one_counted(view, legal, tr)
        elif view.phase == Phase.TWO:
            solved = self._endgame(view, legal, tr)
            if solved is not None:
                return solved
            scores = self._score_two_counted(view, legal, tr)
            looping = is_looping(view.history)
            if self.rollout_weight > 0:
                rolled = self._rollouts(view, legal, tr, scores, looping)
                if rolled is not None:
                    scores = rolled
            if looping:
                top = max(scores)
                if sum(1 for s in scores if s >= top - TIE_EPS) == 1:
                    scores = [s - 1e6 if s >= top - TIE_EPS else s for s in scores]
        else:
            scores = [0.0] * len(legal)
        return self._best(legal, scores)

    # -- phase-two rollouts ---------------------------------------------------------------------

    def _rollouts(self, view: View, legal: Sequence[Action], tr: Tracking, scores: list[float],
                  every: bool) -> list[float] | None:
        """Phase two: each action's score plus :attr:`rollout_weight` times the mean result of
        playing it and then the rest of the deal with the heuristic bot's phase-two rules for every
        seat (:func:`~skitgubbe.bots.playouts.heuristic_outcome`): 1 if this seat is not the loser,
        -1 if it is, 0 for a rollout cut off at :attr:`rollout_limit` actions (a rollout stops once
        this seat is out).  With every card known (always in pagat) there is one world, the
        position itself; else :attr:`rollout_samples` worlds dealt by
        :class:`~skitgubbe.bots.determinize.Determinizer` from the view alone.  Only the actions that
        may come within a tie of the best are rolled out (:func:`_rolled_totals`; all of them with
        ``every``); the others get ``-inf``.  None when the view cannot be rebuilt or there are
        unknown cards and no samples."""
        hidden = bool(tr.unseen or any(tr.unknown))
        if hidden and self.rollout_samples <= 0:
            return None
        root = _root(view)
        if root is None:
            return None
        me = view.seat
        if hidden:
            det = Determinizer(root, me)
            worlds = [det.sample(self.rng) for _ in range(self.rollout_samples)]
        else:
            worlds = [root]
        limit = self.rollout_limit
        memo: OutcomeMemo = {}

        def outcome(i: int) -> float:
            total = 0
            for world in worlds:
                st = world.clone()
                st.step(legal[i], me)
                total += heuristic_outcome(st, me, limit, memo)
            return total / len(worlds)

        return _rolled_totals(scores, outcome, self.rollout_weight, every)

    # -- the two-seat endgame ------------------------------------------------------------------

    def endgame(self, view: View, legal: Sequence[Action]) -> Action | None:
        """In phase two, with two seats left holding cards, every card known to ``view.seat`` and
        at most :attr:`endgame_cards` cards in their hands and on the table: an action of ``legal``
        that makes the other seat the loser whatever it does, found by exhaustive search within
        :attr:`endgame_nodes` positions.  None otherwise (no such position, no win found, or two
        packs, which the tracking does not count).  The search the bot itself runs first in phase
        two."""
        if view.phase != Phase.TWO or view.rules.decks != 1 or len(legal) < 2:
            return None
        return self._endgame(view, legal, track(view))

    def _endgame(self, view: View, legal: Sequence[Action], tr: Tracking) -> Action | None:
        """With two seats left holding cards and every card known, the move that wins (makes the
        other seat the loser) by exhaustive search, if one is found within :attr:`endgame_nodes`
        positions; else None (the bot plays on its scores)."""
        if self.endgame_nodes <= 0 or tr.unseen or any(tr.unknown):
            return None
        holding = [s for s in range(view.players) if view.hand_sizes[s]]
        if len(holding) != 2:
            return None
        if sum(view.hand_sizes[s] for s in holding) + tr.table.bit_count() > self.endgame_cards:
            return None
        root = _root(view)
        if root is None:
            return None
        solver = _Solver(view.seat, self.endgame_nodes)
        try:
            for a in legal:
                st = root.clone()
                st.step(a, view.seat)
                if solver.value(st) > 0:
                    return a
        except _OutOfNodes:
            return None
        return None

    # -- phase one ---------------------------------------------------------------------------

    def worths(self, view: View, tr: Tracking) -> list[float]:
        """Phase one: what owning each card (0..51) is worth for phase two: its rank less
        :attr:`center` (less still while the dreck threatens), plus :attr:`trump_worth` times the
        chance that its suit is trump."""
        center = self.center
        rules = view.rules
        if rules.dreck_below:
            owned = view.piles[view.seat].bit_count() + view.hand.bit_count()
            if owned < rules.dreck_below + 2:
                center -= self.needy_shift
        odds = tr.trump_odds
        slope, tw, ts = self.rank_slope, self.trump_worth, self.trump_slope
        out = []
        for c in range(52):
            r = _RANK[c]
            p = odds[_SUIT[c]]
            out.append((1.0 - p) * slope * (r - center) + p * (tw + ts * (r - 2)))
        return out

    def _score_one_counted(self, view: View, legal: Sequence[Action], tr: Tracking) -> list[float]:
        """Phase one on the tracking: cards worth :meth:`worths`; the seats still to play may hold
        the cards nobody has seen and their own known cards (:func:`~skitgubbe.bots.heuristic.score_one`)."""
        me = view.seat
        due = bool(view.round_seats) and view.round_seats[0] == me and view.to_act == me
        pool = tr.unseen
        for s in view.round_seats[1:] if due else ():
            pool |= tr.known[s]
        return score_one(self, view, legal, worth=self.worths(view, tr), pool=pool, unseen=tr.unseen,
                         trick=tr.table)

    # -- phase two ---------------------------------------------------------------------------

    def strengths(self, view: View, tr: Tracking) -> dict[int, float]:
        """Phase two: the strength of each card of the hand and of the table, 0 to
        :attr:`power_scale` (+ :attr:`master_bonus` if no live card beats it, + a tiny
        :attr:`rank_tiebreak`): the share of the live cards the other seats may hold that it beats.
        Returns ``{card: strength}``."""
        opp = 0
        for s, may in enumerate(tr.possible):
            if s != view.seat:
                opp |= may
        return _strengths(self, view.hand | tr.table, opp, view.trump_suit, anti_suit(view))

    def _next_seat(self, view: View, after: int, leaving: bool) -> int:
        """The next seat clockwise from ``after`` that holds cards (``after`` itself counts as
        empty if ``leaving``); -1 if none."""
        n = view.players
        for i in range(1, n):
            s = (after + i) % n
            if view.hand_sizes[s] and s not in view.out_order:
                return s
        return -1 if leaving else after

    def _score_two_counted(self, view: View, legal: Sequence[Action], tr: Tracking) -> list[float]:
        me = view.seat
        nxt = self._next_seat(view, me, False)
        # the next seat's hand, when it is known (a play it cannot beat forces it to pick up)
        following = tr.known[nxt] if nxt != me and not tr.unknown[nxt] else None
        return _two_scores(self, legal, view.hand, self.strengths(view, tr), [p for _, p in view.table],
                           view.kill_at, view.trump_suit, anti_suit(view), view.rules.pick_up, following)


def _strengths(cb: CounterBot, cards: int, opp: int, trump: int, anti: int) -> dict[int, float]:
    """:meth:`CounterBot.strengths` of card set ``cards`` against ``opp``, the live cards the other
    seats may hold, with ``cb``'s weights; ``anti``: the anti-trump suit or -1."""
    n_opp = opp.bit_count()
    out: dict[int, float] = {}
    for c in cards_of(cards):
        suit = _SUIT[c]
        # the cards c beats: the lower ones of its suit; every non-trump, non-anti one for a trump
        below = opp & SUIT_MASKS[suit] & ((1 << c) - 1)
        if suit == trump:
            below |= opp & ~SUIT_MASKS[trump] & ~(SUIT_MASKS[anti] if anti >= 0 else 0)
        p = cb.power_scale * below.bit_count() / n_opp if n_opp else cb.power_scale
        if not beaters(c, opp, trump, anti):
            p += cb.master_bonus
        # between cards equal against the live cards, the higher rank is kept (a cheap beat)
        out[c] = p + cb.rank_tiebreak * (_RANK[c] + (13 if suit == trump else 0))
    return out


def _two_scores(cb: CounterBot, legal: Sequence[Action], hand: int, power: dict[int, float],
                plays: list[int], kill_at: int, trump: int, anti: int, mode: PickUp,
                following: int | None) -> list[float]:
    """The counter bot's phase-two score of each of ``legal`` (module docstring) with ``cb``'s
    weights: ``hand`` the seat's cards, ``power`` :func:`_strengths` of the hand and the table,
    ``plays`` the table's plays in order, ``following`` the next seat's hand when it is known
    (else None)."""
    size = hand.bit_count()
    weight = power_weight(size)
    kills = bool(plays) and len(plays) + 1 >= kill_at
    scores: list[float] = []
    for a in legal:
        if a.kind == Kind.PLAY:
            cards = a.cards
            if cards == hand:
                scores.append(cb.out_bonus)
                continue
            s = 0.0
            for c in cards_of(cards):
                s += 1.0 - weight * power[c]
            if kills:
                s += cb.kill_bonus
            elif following is not None and not _can_beat(following, cards.bit_length() - 1, trump, anti):
                take, _, _ = pick_up_take(plays + [cards], mode)
                s += cb.force_bonus * take.bit_count()
            scores.append(s)
        elif a.kind == Kind.PICK_UP:
            take, _, _ = pick_up_take(plays, mode)
            s = -cb.pick_penalty
            for c in cards_of(take):
                s -= max(cb.pick_floor, 1.0 - weight * power.get(c, 0.0))
            scores.append(s)
        else:
            scores.append(-1e6)
    return scores


_MODEL = CounterBot(random.Random(0))
"""The counter bot whose weights :func:`counter_two` uses (its defaults)."""


def counter_two(st: State, p: int, memo: OutcomeMemo | None = None) -> Action:
    """The counter bot's phase-two move for seat ``p`` read off a complete State, where every card
    is placed (a sample): its scores (:func:`_two_scores`, the other seats' hands as the live
    cards, the next seat's hand known) plus :attr:`CounterBot.rollout_weight` times the result of
    one rollout per action with the heuristic rules (:func:`~skitgubbe.bots.playouts.heuristic_two`,
    1 safe, -1 the loser, 0 cut off at :attr:`CounterBot.rollout_limit` actions), and the loop
    check; the first best action on a tie.  What the bot does and this does not: the two-seat
    endgame search, and sampling worlds for cards it has not seen (here every hand is read).
    Measured on counter bots' own deals it picks the bot's move at about 95% of the phase-two
    decisions with a choice (docs/bots.md, "The counter model").  With two packs it is the
    heuristic rule (:func:`~skitgubbe.bots.playouts.heuristic_two`), as the bot plays two packs as
    the heuristic bot (rulings DD4).  ``p`` must be the seat to act in phase two."""
    if st.rules.decks != 1:
        return heuristic_two(st, p)
    legal = st.legal_actions(p)
    if len(legal) == 1:
        return legal[0]
    cb = _MODEL
    hand = st.hands[p]
    n = st.players
    opp = 0
    for s in range(n):
        if s != p:
            opp |= st.hands[s]
    plays = list(st.table)
    table = 0
    for play in plays:
        table |= play
    trump = st.trump_suit
    anti = st.anti
    following = None
    for i in range(1, n):
        s = (p + i) % n
        if st.hands[s] and s not in st.out_order:
            following = st.hands[s]
            break
    scores = _two_scores(cb, legal, hand, _strengths(cb, hand | table, opp, trump, anti), plays,
                         st.kill_at, trump, anti, st.rules.pick_up, following)
    limit = cb.rollout_limit

    def outcome(i: int) -> float:
        world = st.clone()
        world.step(legal[i], p)
        return heuristic_outcome(world, p, limit, memo)

    looping = is_looping(st.history)
    scores = _rolled_totals(scores, outcome, cb.rollout_weight, looping)
    if looping:
        top = max(scores)
        if sum(1 for s in scores if s >= top - TIE_EPS) == 1:
            scores = [s - 1e6 if s >= top - TIE_EPS else s for s in scores]
    best, best_v = legal[0], scores[0]
    for a, v in zip(legal, scores, strict=True):
        if v > best_v:
            best, best_v = a, v
    return best


def _rolled_totals(scores: list[float], outcome: Callable[[int], float], weight: float,
                   every: bool) -> list[float]:
    """``scores[i] + weight * outcome(i)`` for each action ``i`` (``outcome`` in -1..1, a
    rollout's mean result) that may come within a tie (``TIE_EPS``) of the best of these totals,
    ``-inf`` for the others.  The actions are rolled out from the best score down, and the rest
    are skipped once even a won rollout (``+weight``) cannot bring the next one within a tie of
    the best total found: the best total, and which actions tie for it, are those of rolling out
    every action, at a fraction of the cost (one rollout when the best-scored action is safe).
    ``every``: roll out every action (the loop check needs the runner-up)."""
    totals = [-math.inf] * len(scores)
    top = -math.inf
    for i in sorted(range(len(scores)), key=lambda i: -scores[i]):
        if not every and scores[i] + weight < top - TIE_EPS:
            break
        v = scores[i] + weight * outcome(i)
        totals[i] = v
        if v > top:
            top = v
    return totals


def _can_beat(hand: int, top: int, trump: int, anti: int) -> bool:
    """True if ``hand`` holds a card that may beat a play whose highest card is ``top``: every
    rule of plays allows a single card, and any beat needs one such card (the engine's candidates:
    a higher card of the top's suit, or a trump on a non-trump, non-anti-trump)."""
    return bool(beaters(top, hand, trump, anti))


def _root(view: View) -> State | None:
    """The engine state rebuilt from ``view`` with an empty history and no events (searches play
    forward from it), or None for a view the rebuild does not know (the bot plays on its scores)."""
    try:
        root = world_from_view(view, events=False)
    except (ValueError, RebuildError):
        return None
    root.history = []
    return root


class _OutOfNodes(Exception):
    """The endgame search used up its positions."""


class _Solver:
    """Exhaustive win/lose search of a phase-two position between two seats, every card known:
    :meth:`value` is 1 if ``me`` does not lose with best play, -1 if it loses, 0 for a deal that
    comes round to a position already on the path (a cycle: no result)."""

    def __init__(self, me: int, nodes: int) -> None:
        self.me = me
        self.nodes = nodes
        self.memo: dict[tuple[object, ...], int] = {}
        self.path: set[tuple[object, ...]] = set()

    def value(self, st: State) -> int:
        if st.phase != Phase.TWO:
            if st.loser is None:
                return 0
            return -1 if st.loser == self.me else 1
        key = (tuple(st.hands), tuple(st.table), st.to_act, st.kill_at, st.forced, st.blue)
        got = self.memo.get(key)
        if got is not None:
            return got
        if key in self.path:
            return 0
        self.nodes -= 1
        if self.nodes < 0:
            raise _OutOfNodes
        self.path.add(key)
        p = st.to_act
        mine = p == self.me
        best = -2 if mine else 2
        for a in st.legal_actions(p):
            child = st.clone()
            child.step(a, p)
            v = self.value(child)
            if mine and v > best:
                best = v
                if v == 1:
                    break
            elif not mine and v < best:
                best = v
                if v == -1:
                    break
        self.path.discard(key)
        if best != 0:  # a value that depends on the path (a cycle) is not remembered
            self.memo[key] = best
        return best
