"""Cards, ranks, suits and card sets.

A card is an ``int`` from 0 to 51: ``card = suit * 13 + (rank - 2)``, so the
thirteen cards of one suit occupy thirteen consecutive bits and a run of
touching cards is a run of consecutive set bits.  Ranks are 2..14 (14 is the
ace); suits are 0..3 in the order clubs, diamonds, hearts, spades.

With two packs (the double deck, rules option ``decks = 2``) cards 52..103 are
the second pack: card ``c + 52`` is the *twin* of card ``c``, the same rank and
suit, with the same name.  Every table here (rank, suit, names) covers all 104;
:func:`fold` maps a card set of either pack onto the 52 card kinds it holds.

A *card set* (``CardSet``) is a plain ``int`` used as a bitmask: bit ``i`` set
means card ``i`` is in the set.  Nothing in this module does I/O.

Text notation: a rank character ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``
(``10`` is accepted on input) followed by a suit letter ``C``, ``D``, ``H``,
``S`` (case-insensitive), e.g. ``"TD"`` or ``"as"``.  Unicode suit symbols are
accepted on input and used by :func:`card_label`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

__all__ = [
    "CARDS",
    "CardSet",
    "CardParseError",
    "FULL_DECK",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "RANK_CHARS",
    "RANK_NAMES",
    "SUIT_MASKS",
    "RANK_MASKS",
    "DOUBLE_DECK",
    "RANK_MASKS2",
    "SUIT_MASKS2",
    "TWIN",
    "card",
    "canonical",
    "card_label",
    "fold",
    "full_deck",
    "short_pack",
    "in_order",
    "one_copy",
    "twins_in_order",
    "card_name",
    "cards_in",
    "count",
    "lowest",
    "highest",
    "mask_of",
    "parse_card",
    "parse_cards",
    "rank_of",
    "suit_of",
    "format_cards",
    "runs_in",
    "is_run",
]

CardSet = int
"""A set of cards as a bitmask: bit i set means card i is in the set."""

SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
RANK_CHARS = "23456789TJQKA"
RANK_NAMES = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}

CARDS = range(52)
FULL_DECK: CardSet = (1 << 52) - 1
TWIN = 52
"""Card ``c + TWIN`` is the second pack's copy of card ``c`` (double deck)."""
DOUBLE_DECK: CardSet = (1 << 104) - 1
"""Every card of two packs: bits 0..51 the first pack, 52..103 the second."""
SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
"""SUIT_MASKS[s]: the card set of all 13 cards of suit s."""
RANK_MASKS = tuple(sum(1 << (s * 13 + r - 2) for s in range(4)) if r >= 2 else 0 for r in range(15))
"""RANK_MASKS[r]: the card set of the four cards of rank r (2..14); entries 0 and 1 are empty."""
SUIT_MASKS2 = tuple(m | m << TWIN for m in SUIT_MASKS)
"""SUIT_MASKS2[s]: the cards of suit s in both packs (26 cards)."""
RANK_MASKS2 = tuple(m | m << TWIN for m in RANK_MASKS)
"""RANK_MASKS2[r]: the cards of rank r in both packs (eight cards); on a one-pack card set
``m & RANK_MASKS2[r] == m & RANK_MASKS[r]``."""

# Lookup tables built once: rank and suit of every card.
_RANK = tuple(c % 13 + 2 for c in range(104))
_SUIT = tuple(c // 13 % 4 for c in range(104))
_SUIT_BY_CHAR = {ch: i for i, ch in enumerate(SUITS)}
_SUIT_BY_CHAR.update({sym: i for i, sym in enumerate(SUIT_SYMBOLS)})
_SUIT_BY_CHAR.update({"♧": 0, "♢": 1, "♡": 2, "♤": 3})
_RANK_BY_TEXT = {ch: i + 2 for i, ch in enumerate(RANK_CHARS)}
_RANK_BY_TEXT["10"] = 10


class CardParseError(ValueError):
    """Raised when text is not a card in our notation (e.g. ``"TD"``, ``"10h"``, ``"A♠"``)."""


def card(rank: int, suit: int) -> int:
    """Return the card of ``rank`` (2..14, 14 = ace) and ``suit`` (0..3 = C, D, H, S).

    Raises ``ValueError`` if either is out of range.
    """
    if not 2 <= rank <= 14:
        raise ValueError(f"rank must be 2..14 (14 is the ace), not {rank}")
    if not 0 <= suit <= 3:
        raise ValueError(f"suit must be 0..3 (clubs, diamonds, hearts, spades), not {suit}")
    return suit * 13 + rank - 2


def short_pack(decks: int = 1, lowest_rank: int = 2, suits: int = 4) -> CardSet:
    """The cards of a pack cut short: of ``decks`` packs (1 or 2), only the first ``suits`` suits
    (1..4, in the order clubs, diamonds, hearts, spades) and only ranks ``lowest_rank``..14 (2..14);
    ``short_pack(decks)`` is :func:`full_deck`.  Card numbers stay ``suit * 13 + rank - 2`` (a card
    keeps its number whatever the pack).  Raises ``ValueError`` for a count out of range."""
    if decks not in (1, 2) or not 2 <= lowest_rank <= 14 or not 1 <= suits <= 4:
        raise ValueError(f"short_pack(decks={decks}, lowest_rank={lowest_rank}, suits={suits}): decks must "
                         "be 1 or 2, lowest_rank 2..14 and suits 1..4")
    one = 0
    for s in range(suits):
        one |= SUIT_MASKS[s] & ~((1 << (s * 13 + lowest_rank - 2)) - 1)
    return one | one << TWIN if decks == 2 else one


def full_deck(decks: int) -> CardSet:
    """Every card of ``decks`` packs (1 or 2): :data:`FULL_DECK` or :data:`DOUBLE_DECK`."""
    return DOUBLE_DECK if decks == 2 else FULL_DECK


def fold(mask: CardSet) -> CardSet:
    """The card kinds (a one-pack card set, cards 0..51) of ``mask``, a card set of either pack:
    a card of the second pack counts as its twin.  ``fold(m) == m`` for a one-pack set."""
    return (mask | mask >> TWIN) & FULL_DECK


def canonical(cards: CardSet, hand: CardSet) -> CardSet:
    """``cards`` spelled the one way the engine lists it, given the ``hand`` it comes from
    (two packs): a kind named twice keeps both copies; a kind named once is the first pack's
    copy if ``hand`` holds it, else the second pack's.  A one-pack set held in ``hand``
    comes back unchanged.  (Twins are the same card to the rules: Flurst and Howell, "Double
    Deck"; which copy moves never matters, so the engine lists one.)"""
    both = cards & (cards >> TWIN) & FULL_DECK
    once = fold(cards) & ~both
    return both | both << TWIN | (once & hand) | (once & ~hand) << TWIN


def rank_of(c: int) -> int:
    """Rank of card ``c``: 2..14, 14 being the ace."""
    return _RANK[c]


def suit_of(c: int) -> int:
    """Suit of card ``c``: 0..3 for clubs, diamonds, hearts, spades."""
    return _SUIT[c]


def card_name(c: int) -> str:
    """ASCII notation of card ``c``, e.g. ``"TD"``; round-trips through :func:`parse_card`."""
    return RANK_CHARS[_RANK[c] - 2] + SUITS[_SUIT[c]]


def card_label(c: int) -> str:
    """Display label of card ``c`` with a unicode suit, e.g. ``"T♦"``."""
    return RANK_CHARS[_RANK[c] - 2] + SUIT_SYMBOLS[_SUIT[c]]


def parse_card(text: str) -> int:
    """Parse one card such as ``"TD"``, ``"10d"``, ``"A♠"``.

    Raises :class:`CardParseError` naming the text and the accepted notation.
    """
    t = text.strip().upper()
    rank = _RANK_BY_TEXT.get(t[:-1])
    suit = _SUIT_BY_CHAR.get(t[-1]) if t else None
    if rank is None or suit is None:
        shown = text if len(text) <= 24 else text[:20] + "…"  # (the message stays short)
        raise CardParseError(
            f"{shown!r} is not a card: write a rank (2-9, T or 10, J, Q, K, A) "
            "then a suit (C, D, H, S), e.g. TD or 7h"
        )
    return suit * 13 + rank - 2


def parse_cards(text: str) -> list[int]:
    """Parse cards separated by spaces or commas, e.g. ``"5D 6D,7D"``, in the order written.

    Raises :class:`CardParseError` for the first word that is not a card.
    """
    return [parse_card(w) for w in text.replace(",", " ").split()]


def mask_of(cards: Iterable[int]) -> CardSet:
    """The card set (bitmask) holding ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_in(mask: CardSet) -> Iterator[int]:
    """Yield the cards of ``mask`` from the lowest index (2 of clubs) up."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def one_copy(mask: CardSet) -> CardSet:
    """``mask`` without the second pack's copy of any card whose first-pack copy it holds too:
    one card of each kind, the first pack's where there is a choice (one action a card kind)."""
    return mask & ~((mask & FULL_DECK) << TWIN) if mask >> TWIN else mask


def twins_in_order(cards: Iterable[int]) -> tuple[int, ...]:
    """``cards`` (card numbers of either pack) with the copies of each card numbered in the order
    they come: the first time a card kind appears it is the first pack's copy (``c``), after that
    the second pack's (``c + 52``).  The twins are the same card, so a deal relabelled so is the
    same deal, and card names (each written twice) read back to exactly these numbers.  A kind
    that appears more than twice keeps ``c + 52`` for every later copy (the caller refuses it)."""
    seen = 0
    out = []
    for c in cards:
        k = c % TWIN
        if seen >> k & 1:
            out.append(k + TWIN)
        else:
            out.append(k)
            seen |= 1 << k
    return tuple(out)


def in_order(mask: CardSet) -> list[int]:
    """The cards of ``mask`` in card order, a second-pack card next to its twin's place
    (``5C 6C 7C`` for a run of mixed copies): for display and notation."""
    if mask >> TWIN:
        return sorted(cards_in(mask), key=lambda c: (c % TWIN, c))
    return list(cards_in(mask))


def count(mask: CardSet) -> int:
    """Number of cards in ``mask``."""
    return mask.bit_count()


def lowest(mask: CardSet) -> int:
    """Lowest-index card of a non-empty ``mask`` (lowest suit, then lowest rank)."""
    return (mask & -mask).bit_length() - 1


def highest(mask: CardSet) -> int:
    """Highest-index card of a non-empty ``mask``."""
    return mask.bit_length() - 1


def format_cards(mask: CardSet, *, unicode: bool = False) -> str:
    """The cards of ``mask`` as space-separated notation, in card order (``"2C 7D TD"``)."""
    name = card_label if unicode else card_name
    return " ".join(name(c) for c in in_order(mask))


def is_run(mask: CardSet) -> bool:
    """True if ``mask`` is a non-empty run of touching cards: consecutive ranks of one suit."""
    if not mask:
        return False
    low = mask & -mask
    # consecutive bits starting at `low`, all within one suit
    if (mask + low) & mask:
        return False
    return _SUIT[lowest(mask)] == _SUIT[highest(mask)]


def runs_in(mask: CardSet) -> Iterator[CardSet]:
    """Yield the maximal runs of touching cards in ``mask`` (each a card set), lowest first."""
    for s in range(4):
        m = mask & SUIT_MASKS[s]
        while m:
            low = m & -m
            run = ((m + low) ^ m) & m  # the block of consecutive set bits starting at `low`
            yield run
            m ^= run
