"""Actions (moves) and their text notation.

An :class:`Action` is a small immutable value.  Its ``cards`` field is a card
set (bitmask, bit i = card i; see :mod:`skitgubbe.engine.cards`).

Kinds, by phase:

============  =====================================================================
``PLAY``      phase one: play one card from hand to the trick; phase two: lead or
              beat with one card or (where the rules allow) a run of touching cards
``STOCK``     phase one: turn up the top card of the stock and play it
``SLUFF``     phase one: throw one card of a rank already in the trick into it
``PASS``      close one's sluff window (say "done")
``PICK_UP``   phase two (and phase one of Mas): pick up (eat) what the rules say
              instead of beating
``DRECK``     chance: the shuffled order in which the dreck is dealt (``order``)
``STORE``     phase one of Mas: show a hand of three trumps, store it for phase two
              and draw a new hand
``EXCHANGE``  phase one of Mas: exchange the 2 of trumps for the turned-up trump
============  =====================================================================

Notation (``str(action)`` and :func:`parse_action` round-trip): ``play 7H``,
``play 5D 6D 7D``, ``stock``, ``sluff 7C``, ``pass``, ``pick``, ``store``,
``exchange``, ``dreck 2C 5H ...``.  On input a bare card list means ``play``, and
``pickup``, ``pick up``, ``eat``, ``done`` and ``turn`` are accepted.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from .cards import (
    CardParseError,
    card_label,
    card_name,
    in_order,
    mask_of,
    parse_cards,
    twins_in_order,
)

__all__ = ["Kind", "Action", "ActionParseError", "parse_action", "CHANCE"]

CHANCE = -1
"""The pseudo-seat that takes chance actions (the dreck shuffle)."""


class Kind(enum.IntEnum):
    """What an action does; see the module docstring."""

    PLAY = 0
    STOCK = 1
    SLUFF = 2
    PASS = 3
    PICK_UP = 4
    DRECK = 5
    STORE = 6
    EXCHANGE = 7


_VERBS = {
    Kind.PLAY: "play",
    Kind.STOCK: "stock",
    Kind.SLUFF: "sluff",
    Kind.PASS: "pass",
    Kind.PICK_UP: "pick",
    Kind.DRECK: "dreck",
    Kind.STORE: "store",
    Kind.EXCHANGE: "exchange",
}
_VERB_BY_TEXT = {v: k for k, v in _VERBS.items()}
_WITH_CARDS = (Kind.PLAY, Kind.SLUFF, Kind.DRECK)  # the kinds whose notation names cards
_VERB_BY_TEXT.update(
    {"pickup": Kind.PICK_UP, "eat": Kind.PICK_UP, "done": Kind.PASS, "turn": Kind.STOCK,
     "slough": Kind.SLUFF, "lead": Kind.PLAY, "beat": Kind.PLAY}
)


class ActionParseError(ValueError):
    """Raised by :func:`parse_action` for text that is not an action; says what is accepted."""


class Action(NamedTuple):
    """One move.

    Attributes:
        kind: :class:`Kind`.
        cards: card set (bitmask) played or sluffed; 0 for STOCK, PASS, PICK_UP, STORE,
            EXCHANGE (their cards follow from the hand).
        order: for DRECK only, the dreck cards (card ints) in dealing order.
    """

    kind: Kind
    cards: int = 0
    order: tuple[int, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Action:
        """The action that ``text`` writes in action notation (:func:`parse_action`):
        ``Action.parse("play 7H")``.  Raises :class:`ActionParseError` naming what is wrong."""
        return parse_action(text)

    def __repr__(self) -> str:
        """``Action.parse('play 7H')``: evaluates back to an equal action (a card of the second
        pack, 52..103, is written by number: ``Action(Kind.PLAY, 1 << 60)``)."""
        kind, cards, order = self
        if isinstance(kind, Kind) and isinstance(cards, int) and 0 <= cards < 1 << 52 and all(
                isinstance(c, int) and 0 <= c < 52 for c in order) and (
                (kind is Kind.DRECK and mask_of(order) == cards and len(order) == cards.bit_count())
                or (kind is not Kind.DRECK and not order and (cards != 0) == (kind in _WITH_CARDS))):
            return f"Action.parse({str(self)!r})"
        shown = f"Kind.{kind.name}" if isinstance(kind, Kind) else repr(kind)
        return f"Action({shown}, {cards!r}" + (f", {order!r})" if order else ")")

    def __str__(self) -> str:
        verb = _VERBS[self.kind]
        if self.kind is Kind.DRECK:
            return verb + "".join(" " + card_name(c) for c in self.order)
        if self.cards:
            return verb + "".join(" " + card_name(c) for c in in_order(self.cards))
        return verb

    def label(self) -> str:
        """Display text with unicode suits, e.g. ``"play 5♦ 6♦"``, ``"pick up"``."""
        if self.kind is Kind.PICK_UP:
            return "pick up"
        if self.kind is Kind.STOCK:
            return "turn up the top stock card"
        if self.kind is Kind.PASS:
            return "pass (done sluffing)"
        if self.kind is Kind.STORE:
            return "store three trumps"
        if self.kind is Kind.EXCHANGE:
            return "exchange the 2 of trumps for the turned-up trump"
        verb = _VERBS[self.kind]
        return verb + "".join(" " + card_label(c) for c in in_order(self.cards))


def play(*cards: int) -> Action:
    """A PLAY of the given cards."""
    return Action(Kind.PLAY, mask_of(cards))


def parse_action(text: str) -> Action:
    """Parse action notation (see module docstring).

    Raises :class:`ActionParseError` naming the word at fault and the accepted verbs.
    """
    words = text.strip().lower().split()
    if not words:
        raise ActionParseError(
            "empty move: write e.g. 'play 7H', '7H', 'stock', 'sluff 7C', 'pass' or 'pick'"
        )
    if words[:2] == ["pick", "up"]:
        words = ["pick"] + words[2:]
    kind = _VERB_BY_TEXT.get(words[0])
    rest = words[1:]
    if kind is None:
        kind, rest = Kind.PLAY, words
    try:
        cards = parse_cards(" ".join(rest))
    except CardParseError as e:
        if words[0] not in _VERB_BY_TEXT and len(words) == 1:
            shown = text.strip() if len(text.strip()) <= 24 else text.strip()[:20] + "…"
            raise ActionParseError(
                f"{shown!r} is neither a card nor a move: verbs are "
                + ", ".join(sorted(_VERB_BY_TEXT))
            ) from None
        raise ActionParseError(str(e)) from None
    if kind in (Kind.STOCK, Kind.PASS, Kind.PICK_UP, Kind.STORE, Kind.EXCHANGE):
        if cards:
            raise ActionParseError(f"{_VERBS[kind]!r} takes no cards, got {' '.join(rest)!r}")
        return Action(kind)
    if not cards:
        raise ActionParseError(f"{_VERBS[kind]!r} needs cards, e.g. '{_VERBS[kind]} 7H'")
    if kind is Kind.DRECK:
        # a name written twice is both copies of a card (two packs: the second is card + 52)
        order = twins_in_order(cards)
        if len(set(order)) != len(order):
            raise ActionParseError("a card appears more than twice in the dreck order (two packs hold two)")
        return Action(kind, mask_of(order), tuple(order))
    m = mask_of(cards)
    if m.bit_count() != len(cards):
        raise ActionParseError(f"a card appears twice in {' '.join(rest)!r}: a play holds each card once "
                               "(with two packs the copies of a card never touch)")
    return Action(kind, m)


# -- cached action lists (the hot path of legal move generation) -------------------------

STOCK_ACTION = Action(Kind.STOCK)
PASS_ACTION = Action(Kind.PASS)
PICK_UP_ACTION = Action(Kind.PICK_UP)
STORE_ACTION = Action(Kind.STORE)
EXCHANGE_ACTION = Action(Kind.EXCHANGE)

_SUIT_BITS = (1 << 13) - 1
_single_cache: dict[tuple[Kind, int, int], tuple[Action, ...]] = {}
_run_cache: dict[tuple[int, int, int, bool], tuple[Action, ...]] = {}


def single_actions(kind: Kind, mask: int) -> tuple[Action, ...]:
    """One ``kind`` action per card of card set ``mask``, lowest card first (cached per suit;
    the second pack's cards, 52..103, after the first's)."""
    out: tuple[Action, ...] = ()
    for s in range(8 if mask >> 52 else 4):
        bits = (mask >> (13 * s)) & _SUIT_BITS
        if bits:
            key = (kind, s, bits)
            acts = _single_cache.get(key)
            if acts is None:
                acts = tuple(Action(kind, 1 << (13 * s + r)) for r in range(13) if bits >> r & 1)
                _single_cache[key] = acts
            out += acts
    return out


def run_actions(mask: int, min_run: int = 2, from_two: bool = False) -> tuple[Action, ...]:
    """One PLAY action per single card and per run of touching cards within card set
    ``mask``, grouped by suit, shorter runs and lower cards first (cached per suit).

    Runs (two or more cards) must have at least ``min_run`` cards and, with ``from_two``,
    start with the 2 of their suit; single cards are always included.
    """
    out: tuple[Action, ...] = ()
    for s in range(4):
        bits = (mask >> (13 * s)) & _SUIT_BITS
        if bits:
            key = (s, bits, min_run, from_two)
            acts = _run_cache.get(key)
            if acts is None:
                runs: list[int] = []
                for start in range(13):
                    m = 0
                    for r in range(start, 13):
                        if not bits >> r & 1:
                            break
                        m |= 1 << (13 * s + r)
                        if r == start or (r - start + 1 >= min_run and (start == 0 or not from_two)):
                            runs.append(m)
                runs.sort(key=lambda x: (x.bit_count(), x))
                acts = tuple(Action(Kind.PLAY, m) for m in runs)
                _run_cache[key] = acts
            out += acts
    return out
