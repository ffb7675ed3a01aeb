"""The fixed action space and the observation encoding shared by every adapter.

Standard library only (no numpy, no framework): adapters turn the lists into arrays.

Action space (version 2, ``NUM_ACTIONS`` = 551 ids)
===================================================

A card ``c`` is 0..51 as in :mod:`skitgubbe.engine.cards` (``suit * 13 + rank - 2``; suits clubs,
diamonds, hearts, spades).

==========  =====  ==========================================================================
ids         count  action
==========  =====  ==========================================================================
0..51       52     ``play c``: one card (phase one: to the trick; phase two: lead or beat)
52          1      ``stock``: turn up the top stock card and play it
53..104     52     ``sluff c`` as id ``53 + c``
105         1      ``pass``: leave the sluff window
106         1      ``pick``: pick up instead of beating (phase two; phase one of ``mas``)
107..418    312    ``play`` a run of 2..13 touching cards of one suit (phase two, ``plays = run``)
419..548    130    ``play`` two or three cards of one rank (phase one, ``max_equal_play`` > 1)
549         1      ``store``: store a hand of three trumps and draw a new hand (``mas``)
550         1      ``exchange``: exchange the 2 of trumps for the card face up under the stock
                   (``mas``)
==========  =====  ==========================================================================

Runs are numbered suit by suit (clubs first), then by the rank of their lowest card (2 first),
then by length (2 first): id ``107 + 78 * suit + offset(start) + (length - 2)``, where ``start``
is the lowest card's rank minus 2 (0..11) and ``offset(start) = sum(12 - k for k < start)``.
So 107 is ``play 2C 3C``, 108 ``play 2C 3C 4C``, ..., 118 ``play 2C .. AC``, 119 ``play 3C 4C``,
..., 184 ``play KC AC``, 185 ``play 2D 3D``, ..., 418 ``play KS AS``.  A single card is never a
run id: it is ``play c``.  Sets of equal cards are numbered rank by rank (2 first), and within
a rank by the card set's bitmask value, pairs (6) before triples (4): 419 is ``play 2C 2D``.
``store`` and ``exchange`` come last because version 2 added them to version 1's 549 ids,
which keep their numbers.  The dreck shuffle and the other chance deals (``Kind.DRECK``) are
chance actions and have no id.  Sorting ids sorts a seat's legal actions into a fixed order.

Observation (version 2, ``OBS_SIZE`` = 1652 floats in [0, 1])
=============================================================

Built from one seat's :class:`~skitgubbe.engine.view.View` only, never from the
:class:`~skitgubbe.engine.state.State`.  The layout is fixed for up to ``MAX_SEATS`` = 8 seats; seats
are *rotated* so that the observing seat comes first: block ``k`` of a per-seat field is seat
``(view.seat + k) % players``; blocks ``k >= players`` stay zero.  Card blocks are 52 entries,
entry ``c`` for card ``c``.  "Seat one-hot" fields are 8 entries in the same rotated order.

======  ======  =========================================================================
offset  size    field
======  ======  =========================================================================
0       52      own hand
52      8x52    known: per seat, the cards publicly known to be in its hand
468     8x52    piles: per seat, the cards it has won in phase one
884     8x52    round: per seat, the card it played in the current round of the
                phase-one trick
1300    52      trick: every card on the table (phase one: all rounds and sluffs of the
                trick; phase two: every play on the table)
1352    52      top: the top play on the table in phase two (the cards to beat)
1404    52      killed: every card killed in phase two
1456    52      trump card, if this seat may see it (turned face up, or its holder)
1508    4       trump suit one-hot (clubs, diamonds, hearts, spades); zero while unknown
1512    4       phase one-hot: phase one, chance deal (the dreck, a split or a trick
                dealt round), phase two, game over
1516    8       seats present (1 for each seat at the table)
1524    8       hand sizes / 52, per seat
1532    1       stock size / 52
1533    1       phase two: plays on the table / plays that kill the trick
1534    8       seat one-hot: the seat to act (all zero for chance or game over)
1542    8       per seat: 1 if it is still to be asked in the open sluff window
1550    1       1 if this seat is still to be asked in the open sluff window
1551    8       per seat: 1 if due to play in the current round of the phase-one trick
1559    8       seat one-hot: the leader of the current phase-one trick
1567    8       seat one-hot: the winner of a settled phase-one trick awaiting sluffs
1575    8       seat one-hot: the holder of the face-down trump card
1583    8       per seat: 1 if it has gone out
1591    8       seat one-hot: the loser, once the deal is over
1599    52      exposed: the card face up under the stock (``rules.exposed_bottom``: the
                bottom card shown after the deal; in ``mas`` the turned-up trump, or the
                2 of trumps exchanged for it, until it is drawn)
1651    1       reserve size / 52: cards left in the avstickshög (``rules.reserve``)
======  ======  =========================================================================

An adapter whose protocol differs from the engine's (the OpenSpiel adapter asks every seat in a
sluff window) passes a view whose ``to_act`` and ``sluff_window`` it has replaced
(``view._replace(...)``), so the encoding shows its protocol, not the engine's.
"""

from __future__ import annotations

from ..engine.actions import (
    EXCHANGE_ACTION,
    PASS_ACTION,
    PICK_UP_ACTION,
    STOCK_ACTION,
    STORE_ACTION,
    Action,
    Kind,
)
from ..engine.base import Phase
from ..engine.cards import SUIT_NAMES, card_name
from ..engine.rules import Plays, Rules
from ..engine.state import State
from ..engine.view import View

__all__ = [
    "NUM_ACTIONS",
    "OBS_SIZE",
    "MAX_SEATS",
    "PLAY_BASE",
    "STOCK_ID",
    "SLUFF_BASE",
    "PASS_ID",
    "PICK_UP_ID",
    "RUN_BASE",
    "EQUAL_BASE",
    "STORE_ID",
    "EXCHANGE_ID",
    "OBS_FIELDS",
    "action_id",
    "action_of",
    "legal_ids",
    "rules_action_ids",
    "observation",
    "observation_entries",
    "observation_string",
]

MAX_SEATS = 8
"""Seats the observation layout has room for (the most any preset allows)."""

PLAY_BASE = 0
"""Id of ``play c`` is ``PLAY_BASE + c``."""
STOCK_ID = 52
"""Id of ``stock``."""
SLUFF_BASE = 53
"""Id of ``sluff c`` is ``SLUFF_BASE + c``."""
PASS_ID = 105
"""Id of ``pass``."""
PICK_UP_ID = 106
"""Id of ``pick``."""
RUN_BASE = 107
"""Id of the first run, ``play 2C 3C``."""
EQUAL_BASE = 419
"""Id of the first set of equal cards, ``play 2C 2D``."""
STORE_ID = 549
"""Id of ``store`` (Mas: store a hand of three trumps)."""
EXCHANGE_ID = 550
"""Id of ``exchange`` (Mas: exchange the 2 of trumps for the card face up under the stock)."""


def _build_actions() -> list[Action]:
    acts = [Action(Kind.PLAY, 1 << c) for c in range(52)]
    acts.append(STOCK_ACTION)
    acts.extend(Action(Kind.SLUFF, 1 << c) for c in range(52))
    acts.append(PASS_ACTION)
    acts.append(PICK_UP_ACTION)
    for suit in range(4):
        for start in range(12):
            for length in range(2, 14 - start):
                mask = ((1 << length) - 1) << (suit * 13 + start)
                acts.append(Action(Kind.PLAY, mask))
    for rank in range(13):
        cards = [suit * 13 + rank for suit in range(4)]
        sets = [sum(1 << cards[i] for i in range(4) if pick >> i & 1) for pick in range(16)]
        for size in (2, 3):
            acts.extend(Action(Kind.PLAY, m) for m in sorted(m for m in sets if m.bit_count() == size))
    acts.append(STORE_ACTION)
    acts.append(EXCHANGE_ACTION)
    return acts


_ACTIONS: tuple[Action, ...] = tuple(_build_actions())
_IDS: dict[tuple[int, int], int] = {(int(a.kind), a.cards): i for i, a in enumerate(_ACTIONS)}
_BY_ACTION: dict[Action, int] = {a: i for i, a in enumerate(_ACTIONS)}  # the fast path of legal_ids

NUM_ACTIONS = len(_ACTIONS)
"""Number of action ids: 551 (see the module docstring)."""
assert NUM_ACTIONS == 551
assert _ACTIONS[STORE_ID] == STORE_ACTION and _ACTIONS[EXCHANGE_ID] == EXCHANGE_ACTION


def action_id(action: Action) -> int:
    """The id (0..NUM_ACTIONS-1) of a seat's ``action``.

    Raises ``ValueError`` for a chance action (``dreck``: the dreck or another chance deal) or an
    action that has no id (e.g. a play of several cards that are not a run).
    """
    if action.kind == Kind.DRECK:
        raise ValueError("a chance deal (the dreck shuffle, a split) is a chance action: it has no action id")
    i = _IDS.get((int(action.kind), action.cards))
    if i is None:
        raise ValueError(f"{action} has no action id: a play is one card, a run of touching cards, "
                         "or two or three cards of one rank")
    return i


def action_of(i: int) -> Action:
    """The :class:`~skitgubbe.engine.actions.Action` with id ``i``.

    Raises ``ValueError`` for an id outside ``0..NUM_ACTIONS-1``.
    """
    if not 0 <= i < NUM_ACTIONS:
        raise ValueError(f"action id {i} is outside 0..{NUM_ACTIONS - 1}")
    return _ACTIONS[i]


def legal_ids(state: State, seat: int) -> list[int]:
    """The sorted ids of ``state.legal_actions(seat)`` for a seat ``0..players-1``
    (empty when it has none).  Raises ``ValueError`` for a seat that does not exist."""
    if not 0 <= seat < state.players:
        raise ValueError(f"there is no seat {seat}: seats are 0..{state.players - 1}")
    by_action = _BY_ACTION
    ids = [by_action[a] for a in state.legal_actions(seat)]
    ids.sort()
    return ids


def rules_action_ids(rules: Rules) -> tuple[int, ...]:
    """The sorted action ids that a deal under ``rules`` can offer: the *compact action space* of
    the PettingZoo and Gymnasium adapters (``compact_actions=True``).  Compact index ``k`` is full
    id ``rules_action_ids(rules)[k]``.

    Read off the options: ``play c`` (0..51) and ``pick`` (106) always; ``stock`` (52) under
    ``turn_from_stock``; ``sluff c`` (53..104) and ``pass`` (105) under ``sluffing``; the runs
    (107..418) unless ``plays`` is ``single``; pairs (and triples) of one rank (419..548) under
    ``max_equal_play`` of 2 (3); ``store`` (549) under ``store_three_trumps`` and ``exchange``
    (550) under ``exchange_two``.  So ``pagat`` has 54 ids, ``goat`` 419, ``helmfrid``
    549, ``mas`` 55.  A test checks along
    random deals of every preset that every legal id is in the set.
    """
    ids = list(range(PLAY_BASE, PLAY_BASE + 52))
    if rules.turn_from_stock:
        ids.append(STOCK_ID)
    if rules.sluffing:
        ids.extend(range(SLUFF_BASE, SLUFF_BASE + 52))
        ids.append(PASS_ID)
    ids.append(PICK_UP_ID)
    if rules.plays is not Plays.SINGLE:
        ids.extend(range(RUN_BASE, EQUAL_BASE))
    if rules.max_equal_play > 1:
        ids.extend(i for i in range(EQUAL_BASE, STORE_ID)
                   if _ACTIONS[i].cards.bit_count() <= rules.max_equal_play)
    if rules.store_three_trumps:
        ids.append(STORE_ID)
    if rules.exchange_two:
        ids.append(EXCHANGE_ID)
    return tuple(sorted(ids))


# -- observation --------------------------------------------------------------------------

OBS_FIELDS: tuple[tuple[str, int, int], ...] = ()
"""``(name, offset, size)`` of every observation field, in order (the table above)."""


def _layout() -> tuple[tuple[str, int, int], ...]:
    sizes = [
        ("hand", 52), ("known", 8 * 52), ("piles", 8 * 52), ("round", 8 * 52), ("trick", 52),
        ("top", 52), ("killed", 52), ("trump_card", 52), ("trump_suit", 4), ("phase", 4),
        ("present", 8), ("hand_sizes", 8), ("stock_size", 1), ("table_count", 1), ("to_act", 8),
        ("window", 8), ("my_window", 1), ("due", 8), ("leader", 8), ("trick_winner", 8),
        ("trump_holder", 8), ("out", 8), ("loser", 8), ("exposed", 52), ("reserve_size", 1),
    ]
    out = []
    off = 0
    for name, size in sizes:
        out.append((name, off, size))
        off += size
    return tuple(out)


OBS_FIELDS = _layout()
_OFF = {name: off for name, off, _ in OBS_FIELDS}
OBS_SIZE = OBS_FIELDS[-1][1] + OBS_FIELDS[-1][2]
"""Length of :func:`observation`: 1652 (see the module docstring)."""
assert OBS_SIZE == 1652

_PHASE_INDEX = {Phase.ONE: 0, Phase.DRECK: 1, Phase.TWO: 2, Phase.OVER: 3}


def _set_cards(out: dict[int, float], off: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[off + low.bit_length() - 1] = 1.0
        mask ^= low


def observation(view: View) -> list[float]:
    """The seat's view as ``OBS_SIZE`` floats in [0, 1] (layout in the module docstring).

    Uses only ``view`` (one seat's :class:`~skitgubbe.engine.view.View`), so it never depends on
    another seat's unseen cards, the stock order or a face-down trump card.
    """
    out = [0.0] * OBS_SIZE
    for i, x in observation_entries(view).items():
        out[i] = x
    return out


def observation_entries(view: View) -> dict[int, float]:
    """The entries of :func:`observation` that may be nonzero, as ``{index: value}``: the same
    encoding, sparse (about a hundred entries), for adapters that fill an array in place."""
    out: dict[int, float] = {}
    n = view.players
    me = view.seat

    def rel(s: int) -> int:
        return (s - me) % n

    _set_cards(out, _OFF["hand"], view.hand)
    for s in range(n):
        r = rel(s)
        _set_cards(out, _OFF["known"] + 52 * r, view.known[s])
        _set_cards(out, _OFF["piles"] + 52 * r, view.piles[s])
        out[_OFF["present"] + r] = 1.0
        out[_OFF["hand_sizes"] + r] = view.hand_sizes[s] / 52
    if view.rounds:
        for s, c in view.rounds[-1]:
            out[_OFF["round"] + 52 * rel(s) + c] = 1.0
    _set_cards(out, _OFF["trick"], view.trick_cards())
    if view.table:
        _set_cards(out, _OFF["top"], view.table[-1][1])
        if view.kill_at:
            out[_OFF["table_count"]] = min(1.0, len(view.table) / view.kill_at)
    _set_cards(out, _OFF["killed"], view.killed)
    if view.trump_card >= 0:
        out[_OFF["trump_card"] + view.trump_card] = 1.0
    if view.trump_suit >= 0:
        out[_OFF["trump_suit"] + view.trump_suit] = 1.0
    phase = _PHASE_INDEX.get(view.phase)
    if phase is not None:
        out[_OFF["phase"] + phase] = 1.0
    out[_OFF["stock_size"]] = view.stock_size / 52
    if 0 <= view.to_act < n:
        out[_OFF["to_act"] + rel(view.to_act)] = 1.0
    for s in view.sluff_window:
        out[_OFF["window"] + rel(s)] = 1.0
    if me in view.sluff_window:
        out[_OFF["my_window"]] = 1.0
    for s in view.round_seats:
        out[_OFF["due"] + rel(s)] = 1.0
    for name, s in (("leader", view.leader), ("trick_winner", view.trick_winner),
                    ("trump_holder", view.trump_holder)):
        if 0 <= s < n:
            out[_OFF[name] + rel(s)] = 1.0
    for s in view.out_order:
        out[_OFF["out"] + rel(s)] = 1.0
    if view.loser is not None:
        out[_OFF["loser"] + rel(view.loser)] = 1.0
    if view.exposed_card >= 0:
        out[_OFF["exposed"] + view.exposed_card] = 1.0
    if view.reserve_size:
        out[_OFF["reserve_size"]] = view.reserve_size / 52
    return out


def observation_string(view: View) -> str:
    """The seat's view as text, one fact per line (seats by their absolute number).

    Like :func:`observation`, a function of ``view`` alone (it never shows another seat's
    unseen cards); it omits ``view.history`` and ``view.legal``.
    """
    n = view.players
    lines = [
        f"seat {view.seat} of {n}; {view.rules.name}; {Phase.NAMES.get(view.phase, '?')}; "
        f"to act: {_seat_word(view.to_act)}",
        f"hand: {_cards_text(view.hand) or '-'}",
        "hand sizes: " + " ".join(str(k) for k in view.hand_sizes),
        f"stock: {view.stock_size}",
    ]
    if view.rules.reserve:
        lines.append(f"reserve: {view.reserve_size}")
    if view.trump_suit >= 0:
        card = f" ({_NAMES[view.trump_card]})" if view.trump_card >= 0 else ""
        lines.append(f"trump: {SUIT_NAMES[view.trump_suit]}{card}")
    elif view.trump_holder >= 0:
        lines.append(f"trump card: face down with seat {view.trump_holder}")
    if view.exposed_card >= 0:
        lines.append(f"face up under the stock: {_NAMES[view.exposed_card]}")
    for s in range(n):
        if view.known[s]:
            lines.append(f"known {s}: {_cards_text(view.known[s])}")
        if view.piles[s]:
            lines.append(f"pile {s}: {_cards_text(view.piles[s])}")
    if view.rounds:
        lines.append(f"trick led by {view.leader}")
        for i, rnd in enumerate(view.rounds):
            plays = " ".join(f"{s}:{_NAMES[c]}" for s, c in rnd)
            lines.append(f"round {i + 1}: {plays or '-'}")
        if view.sluffs:
            lines.append("sluffs: " + " ".join(f"{s}:{_NAMES[c]}" for s, c in view.sluffs))
        if view.round_seats:
            lines.append("due: " + " ".join(map(str, view.round_seats)))
        if view.trick_winner >= 0:
            lines.append(f"settled: seat {view.trick_winner} wins")
    if view.sluff_window:
        lines.append("sluff window: " + " ".join(map(str, view.sluff_window)))
    if view.table:
        plays = " | ".join(f"{s}:{_cards_text(p)}" for s, p in view.table)
        lines.append(f"table ({len(view.table)} of {view.kill_at}): {plays}")
    if view.killed:
        lines.append(f"killed: {_cards_text(view.killed)}")
    if view.out_order:
        lines.append("out: " + " ".join(map(str, view.out_order)))
    if view.loser is not None:
        lines.append(f"loser: {view.loser}")
    return "\n".join(lines)


_NAMES = tuple(card_name(c) for c in range(52))


def _cards_text(mask: int) -> str:
    """``format_cards(mask)``, faster."""
    names = []
    while mask:
        low = mask & -mask
        names.append(_NAMES[low.bit_length() - 1])
        mask ^= low
    return " ".join(names)


def _seat_word(s: int) -> str:
    if s >= 0:
        return f"seat {s}"
    return "chance" if s == -1 else "nobody"
