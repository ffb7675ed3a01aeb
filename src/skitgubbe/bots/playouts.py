"""Fast phase-two playout rules: a seat's move read straight off a complete State.

The searches (:mod:`skitgubbe.bots.counter`'s rollouts, :mod:`skitgubbe.bots.ismcts`) play many
deals to the end inside sampled worlds, where every card is placed and nothing is hidden.  They do
not build a :class:`~skitgubbe.engine.view.View` for each move; they call one of these rules:

* :func:`greedy_two`: go out if possible; else the play that sheds the most cards for the lowest
  highest card (a trump counting 13 ranks above any non-trump); pick up only when nothing can be
  played.
* :func:`heuristic_two`: the heuristic bot's phase-two rules of thumb
  (:class:`~skitgubbe.bots.heuristic.HeuristicBot`, its default weights): go out if possible; else
  the action with the best score, each card played scoring ``1 - weight * power`` (power: the rank
  share plus :attr:`~skitgubbe.bots.heuristic.HeuristicBot.trump_power` for a trump; weight: from
  1 down to 0.2 as the hand shrinks), a kill its bonus, a pick-up its penalty less what it takes.
  The first best action of the engine's order wins a tie (the bot itself breaks ties at random).

Under the plain phase-two rules (``State.plain_two``: single cards or runs of two or more, no
anti-trump, high-trump or forced pick-up rule, no Blåmattis, one pack) both find their move per
suit from a cache, without listing the legal actions; the move is the same as the one chosen from
the list (:func:`greedy_listed`, :func:`heuristic_listed`; tests/test_playouts.py checks this over
every preset).  Under any other rules they take the list.

Card sets are ``int`` bitmasks (bit i = card i).  No randomness, no I/O.
"""

from __future__ import annotations

from ..engine.actions import PICK_UP_ACTION, Action, Kind, run_actions, single_actions
from ..engine.base import Phase
from ..engine.cards import SUIT_MASKS, fold
from ..engine.phase_two import pick_up_take
from ..engine.state import State
from .heuristic import HeuristicBot, cards_of, power_weight

__all__ = ["greedy_two", "greedy_listed", "heuristic_two", "heuristic_listed", "heuristic_outcome",
           "heuristic_loser", "OutcomeMemo", "outcome_key"]

_PLAY = Kind.PLAY
_TWO = Phase.TWO
_PICK_UP = Kind.PICK_UP
_SUIT_BITS = (1 << 13) - 1

# -- shared by the fast paths ---------------------------------------------------------------


def _plain_options(st: State, p: int) -> int | Action:
    """Under ``State.plain_two``, for the seat ``p`` to act: the card set its plays are drawn from
    (the engine's candidates when following, else the hand), or the action it must take at once:
    pick up (nothing may be played) or go out (the whole hand is one legal play)."""
    two = st.two  # the parts, read directly on this hot path (State's read-only surface is slower)
    hand = st.seats.hands[p]
    if two.table:
        m = two.beat_candidates(st, hand)  # the engine's own: no anti-trump under these rules
        if not m:
            return PICK_UP_ACTION
    else:
        m = hand
    if not hand & ~m:  # every card may be played: go out if the hand is one play
        if hand & (hand - 1) == 0:
            return Action(_PLAY, hand)
        if two.runs:
            low = hand & -hand
            hs = (low.bit_length() - 1) // 13
            if hand & SUIT_MASKS[hs] == hand and (hand + low) & hand == 0:
                return Action(_PLAY, hand)
    return m


def _suit_plays(s: int, bits: int, runs: bool) -> tuple[Action, ...]:
    """The plays within ranks ``bits`` of suit ``s`` in the engine's order: single cards, and runs
    of two or more with ``runs`` (:func:`~skitgubbe.engine.actions.run_actions`)."""
    m = bits << (13 * s)
    return run_actions(m) if runs else single_actions(_PLAY, m)


# -- greedy ---------------------------------------------------------------------------------

_greedy_in_suit: list[list[tuple[int, Action] | None]] = [[None] * (1 << 13) for _ in range(8)]
"""``_greedy_in_suit[4 * runs + suit][rank bits]``, filled as needed: ``(4 * cards - top rank,
play)``, the greedy play within those ranks of the suit, the first of the engine's order on a tie."""


def _greedy_suit(s: int, bits: int, runs: bool) -> tuple[int, Action]:
    """Work out and cache ``_greedy_in_suit[4 * runs + s][bits]``."""
    plays = _suit_plays(s, bits, runs)
    best_v, best = -10**9, plays[0]
    for a in plays:
        c = a.cards
        v = 4 * c.bit_count() - (c.bit_length() - 1) % 13
        if v > best_v:
            best, best_v = a, v
    hit = _greedy_in_suit[4 * runs + s][bits] = (best_v, best)
    return hit


def greedy_two(st: State, p: int) -> Action:
    """The greedy phase-two move of seat ``p`` (module docstring): per suit from a cache under the
    plain rules when ``p`` is to act, else :func:`greedy_listed`; the same move either way."""
    two = st.two
    if not (two.plain_two and st.to_act == p):
        return greedy_listed(st, p)
    m = _plain_options(st, p)
    if isinstance(m, Action):
        return m
    best: Action | None = None
    best_v = -10**9
    runs = two.runs
    base = 4 if runs else 0
    trump = st.undealt.trump_suit
    s = 0
    while m:
        bits = m & _SUIT_BITS
        if bits:
            hit = _greedy_in_suit[base + s][bits] or _greedy_suit(s, bits, runs)
            v = hit[0] - 13 if s == trump else hit[0]
            if v > best_v:
                best, best_v = hit[1], v
        m >>= 13
        s += 1
    assert best is not None
    return best


def greedy_listed(st: State, p: int) -> Action:
    """:func:`greedy_two` from the list of seat ``p``'s legal actions (any rules; two packs by
    card kind)."""
    legal = st.legal_actions(p)
    hand = st.hands[p]
    trump = st.trump_suit
    best: Action | None = None
    best_v = -1e9
    for a in legal:
        cards = a.cards
        if a.kind != _PLAY:
            continue
        if cards == hand:
            return a
        top = (fold(cards) if st.double else cards).bit_length() - 1  # two packs: by card kind
        v = 4 * cards.bit_count() - top % 13 - (13 if top // 13 == trump else 0)
        if v > best_v:
            best, best_v = a, v
    return best if best is not None else legal[-1]


# -- the heuristic bot's rules ----------------------------------------------------------------

_H = HeuristicBot
_heuristic_in_suit: dict[tuple[int, bool, bool, bool, int, int], tuple[float, Action]] = {}
"""``(hand size 2..7, kills, trump, runs, suit, rank bits) -> (score, play)``, filled as needed:
the heuristic rules' best play within those ranks of the suit, the first of the engine's order on
a tie, its score summed exactly as :func:`heuristic_listed` sums it."""


def _power(c: int, trump: int) -> float:
    """The heuristic rules' power of card ``c`` (0..103, a second-pack card as its twin): its rank
    share, plus :attr:`HeuristicBot.trump_power` for a trump."""
    return (c % 13) / 12.0 + (_H.trump_power if c % 52 // 13 == trump else 0.0)


def _heuristic_suit(key: tuple[int, bool, bool, bool, int, int]) -> tuple[float, Action]:
    """Work out and cache ``_heuristic_in_suit[key]``."""
    size, kills, is_trump, runs, s, bits = key
    weight = power_weight(size)
    trump = s if is_trump else -1
    best_v, best = -1e18, None
    for a in _suit_plays(s, bits, runs):
        v = _H.kill_bonus if kills else 0.0
        for c in cards_of(a.cards):
            v += 1.0 - weight * _power(c, trump)
        if v > best_v:
            best, best_v = a, v
    assert best is not None
    hit = _heuristic_in_suit[key] = (best_v, best)
    return hit


_PICK_UP_BOUND = -_H.pick_penalty - _H.pick_floor
"""The best score a pick-up can have under the heuristic rules (it takes at least one card)."""


def _pick_up_score(st: State, weight: float) -> float:
    """The heuristic rules' score of picking up in ``st``: the penalty, less each card taken's
    ``max(pick_floor, 1 - weight * power)``."""
    take, _, _ = pick_up_take(st.table, st.rules.pick_up)
    trump = st.trump_suit
    v = -_H.pick_penalty
    for c in cards_of(take):
        v -= max(_H.pick_floor, 1.0 - weight * _power(c, trump))
    return v


def heuristic_two(st: State, p: int) -> Action:
    """The heuristic bot's phase-two move of seat ``p`` (module docstring): per suit from a cache
    under the plain rules when ``p`` is to act, else :func:`heuristic_listed`; the same move
    either way.  Source of the rules: :class:`~skitgubbe.bots.heuristic.HeuristicBot`."""
    two = st.two
    if not (two.plain_two and st.to_act == p):
        return heuristic_listed(st, p)
    m = _plain_options(st, p)
    if isinstance(m, Action):
        return m
    size = min(7, max(2, st.seats.hands[p].bit_count()))
    table = two.table
    kills = bool(table) and len(table) + 1 >= two.kill_at
    trump = st.undealt.trump_suit
    runs = two.runs
    cache = _heuristic_in_suit
    best: Action | None = None
    best_v = -1e18
    s = 0
    while m:
        bits = m & _SUIT_BITS
        if bits:
            key = (size, kills, s == trump, runs, s, bits)
            hit = cache.get(key) or _heuristic_suit(key)
            if hit[0] > best_v:
                best, best_v = hit[1], hit[0]
        m >>= 13
        s += 1
    assert best is not None
    # a pick-up scores at most -(penalty + floor): only worked out when it could be better
    if table and best_v < _PICK_UP_BOUND and _pick_up_score(st, power_weight(size)) > best_v:
        return PICK_UP_ACTION
    return best


def heuristic_listed(st: State, p: int) -> Action:
    """:func:`heuristic_two` from the list of seat ``p``'s legal actions (any rules; with two packs
    a card's power is its twin's)."""
    legal = st.legal_actions(p)
    hand = st.hands[p]
    trump = st.trump_suit
    weight = power_weight(hand.bit_count())
    table = st.table
    kills = bool(table) and len(table) + 1 >= st.kill_at
    best = legal[-1]
    best_v = -1e18
    for a in legal:
        if a.kind == _PLAY:
            cards = a.cards
            if cards == hand:
                return a
            v = _H.kill_bonus if kills else 0.0
            for c in cards_of(cards):
                v += 1.0 - weight * _power(c, trump)
        elif a.kind == _PICK_UP:
            v = _pick_up_score(st, weight)
        else:
            continue
        if v > best_v:
            best, best_v = a, v
    return best


OutcomeMemo = dict[tuple[object, ...], tuple[int, int]]
"""A memo of :func:`heuristic_outcome` playouts: :func:`outcome_key` of a position ->
``(safe, loser)``, where ``safe`` is a bitmask of the seats (bit s = seat s) known to go out when
phase two is played on from there by :func:`heuristic_two` for every seat, and ``loser`` the seat
that ends as the loser, or -1 if the playout stopped before the end (its seat was out)."""

_MEMO_LIMIT = 400_000
"""A memo holding more positions than this is emptied before it grows further (about 100 MB)."""


def outcome_key(st: State) -> tuple[object, ...]:
    """What decides how phase two goes on from ``st`` when every seat plays a fixed rule: the
    hands, the table and who played each of its plays, the seat to act, the kill size, the forced
    pick-up and Blåmattis flags, the avstickshög and how many seats are out."""
    seats, two = st.seats, st.two
    return (tuple(seats.hands), tuple(two.table), tuple(two.table_owners), st.to_act, two.kill_at,
            two.forced, seats.blue, tuple(st.undealt.reserve), len(seats.out_order))


def heuristic_outcome(st: State, seat: int, limit: int, memo: OutcomeMemo | None = None) -> int:
    """Play phase two of ``st`` (mutated) on by :func:`heuristic_two` for every seat, at most
    ``limit`` actions: 1 if ``seat``'s player is not the loser, -1 if it is, 0 if the limit cut
    the deal short (or it ended with no loser).  It stops as soon as every hand of ``seat``'s
    player is out: a seat that has gone out holds no cards and cannot be the loser, the last seat
    holding cards (pagat.com Skitgubbe, "Play in the second phase"), so the result is the same as
    playing on, but for a deal the limit would have cut short.

    ``memo`` (:data:`OutcomeMemo`, filled here; keep one per search and rule): the playout is
    deterministic, so every position it passes through is remembered with where it led, and a
    later playout that reaches one of them stops there (``st`` is then left at that position, not
    at the end).  The result is the same as without the memo, but for a playout that the limit
    would have cut short, counted from its own start: a remembered position counts the rest of
    its playout as done."""
    partner = st.partner(seat)
    bits = 1 << seat | (1 << partner if partner >= 0 else 0)
    got = _play_on(st, bits, limit, memo)
    if got is None:
        return 0
    safe, loser = got
    if safe & bits == bits:
        return 1
    return -1 if st.player_of(loser) == st.player_of(seat) else 1


def heuristic_loser(st: State, limit: int, memo: OutcomeMemo | None = None) -> int:
    """Play phase two of ``st`` (mutated) to the end by :func:`heuristic_two` for every seat, at
    most ``limit`` actions: the seat that ends as the loser, or -1 if the limit cut the deal short
    or it ended with no loser.  ``memo``: as for :func:`heuristic_outcome` (``st`` may be left at
    a remembered position rather than at the end)."""
    got = _play_on(st, 0, limit, memo)
    return -1 if got is None else got[1]


def _play_on(st: State, bits: int, limit: int, memo: OutcomeMemo | None) -> tuple[int, int] | None:
    """The playout of :func:`heuristic_outcome` (``bits``: the seats whose going out ends it; 0:
    play to the end): ``(safe, loser)`` as in :data:`OutcomeMemo`, or None if it was cut short
    or ended with no loser."""
    path: list[tuple[object, ...]] = []
    n = 0
    safe = loser = -1
    out_order = st.seats.out_order  # (the part's own list: the engine appends to it, never replaces it)
    while st.phase == _TWO:
        if bits:
            safe = 0
            for s in out_order:
                safe |= 1 << s
            if safe & bits == bits:
                break
        if n >= limit:
            return None
        if memo is not None:
            key = outcome_key(st)
            got = memo.get(key)
            if got is not None and (got[1] >= 0 or (bits and got[0] & bits == bits)):
                safe, loser = got
                break
            path.append(key)
        p = st.to_act
        st.step(heuristic_two(st, p), p)
        n += 1
    else:
        if st.loser is None:
            return None
        loser = st.loser
        safe = 0
        for s in st.out_order:
            safe |= 1 << s
    if memo is not None and path:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        entry = (safe, loser)
        for key in path:
            memo[key] = entry
    return safe, loser
