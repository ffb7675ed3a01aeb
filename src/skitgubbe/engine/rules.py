"""The rules of one way of playing Skitgubbe, as data.

:class:`Rules` is a frozen, keyword-only, validated dataclass: one instance
fully describes a ruleset, and one state machine (:mod:`skitgubbe.engine.state`)
serves every instance.  Named presets live in :mod:`skitgubbe.engine.variants`.

Every option names the rule text it comes from; docs/presets/*.md describe
each preset in our own words and docs/rulings.md settles the ambiguities.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from .cards import CardSet, short_pack
from .i18n import N_

__all__ = [
    "INT_RANGES",
    "NAME_LENGTH",
    "AntiTrump",
    "EmptyHand",
    "FirstLead",
    "FirstPhase",
    "StockEnd",
    "SecondLead",
    "Plays",
    "PickUp",
    "Rules",
    "RulesError",
    "short_repr",
    "whole_number",
]


class RulesError(ValueError):
    """Raised when a :class:`Rules` is inconsistent; the message names the options at fault."""


NAME_LENGTH = 40
"""The most characters a ruleset's ``name`` may have when given as text (:meth:`Rules.with_options`,
house-rules files, records)."""

INT_RANGES: dict[str, tuple[tuple[int, int], ...]] = {
    "min_players": ((2, 8),),
    "max_players": ((2, 8),),
    "hand_size": ((1, 6),),
    "max_equal_play": ((1, 3),),
    "dreck_below": ((-1, 104),),
    "dreck_max_rank": ((2, 14),),
    "dreck_trump_rank": ((0, 0), (2, 14)),
    "reserve": ((0, 30),),
    "decks": ((1, 2),),
    "max_players_two_packs": ((0, 0), (2, 8)),
    "lowest_rank": ((2, 14),),
    "suits": ((1, 4),),
}
"""The values each whole-number option may take, as ``(lowest, highest)`` ranges: what
:meth:`Rules.with_options` accepts before the checks that combine options (``dreck_below`` above 52
needs ``decks = 2``, ``max_players`` at least ``min_players``, ...)."""

_WHOLE = re.compile(r"-?[0-9]+")  # ASCII digits only (int() also reads "٣", "1_0" and "+1")


def whole_number(text: str, *, max_digits: int = 9) -> int | None:
    """The whole number ``text`` writes in ASCII digits 0-9, with an optional leading minus and
    surrounding spaces, and at most ``max_digits`` digits; None for any other text (other digit
    characters such as ``"²"`` or ``"٣"``, ``"+1"``, ``"1_000"``, ``"--1"``, too many digits).
    Never raises."""
    t = text.strip()
    if not 1 <= len(t) - t.startswith("-") <= max_digits or not _WHOLE.fullmatch(t):
        return None
    return int(t)


def short_repr(value: object) -> str:
    """``value`` as an error message shows it: its ``repr`` when short; a long text as its length and
    first characters, a huge number as its count of digits, a list as "an array" and a dict as "a
    table" (the words of TOML).  Never raises (not even for a number too long to write out)."""
    if isinstance(value, str):
        if len(value) <= NAME_LENGTH:
            return repr(value)
        return f"a text of {len(value)} characters starting {value[:16]!r}"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**NAME_LENGTH:
        size = abs(value)
        digits = int(math.log10(size)) + 1
        digits += (10**digits <= size) - (10 ** (digits - 1) > size)  # (the float log may be one off)
        return f"a whole number of {digits} digits"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (bool, int, float, enum.Enum)):
        return repr(value)
    return f"a value of type {type(value).__name__}"


def _key_text(key: object) -> str:
    """An option name as an error message shows it: itself if it is a short printable text."""
    if isinstance(key, str) and key.isprintable() and len(key) <= NAME_LENGTH:
        return key
    return short_repr(key)


def _kind_of(default: object) -> str:
    if isinstance(default, enum.Enum):
        return "one of " + ", ".join(f"{type(default).__name__}.{m.name}" for m in type(default))
    if isinstance(default, bool):
        return "True or False"
    return "a whole number" if isinstance(default, int) else "a text"


def _allowed_ints(ranges: tuple[tuple[int, int], ...]) -> str:
    words = [str(a) if a == b else f"{a} or {b}" if b == a + 1 else f"{a} to {b}" for a, b in ranges]
    return ", or ".join(words)


class FirstPhase(enum.Enum):
    """How tricks are formed in phase one.

    ``PAIRS``: two-card tricks between the leader and the seat to the leader's
    left; the winner leads the next trick to the seat on *its* left (pagat.com
    Skitgubbe, "Play in the first phase").
    ``ALL_PLAY``: every seat plays one card to each trick in clockwise order
    from the leader (Swedish Goat Game / Flurst, "Tricks"; pagat.com, "All
    Players play to Each Trick").
    ``BEAT``: Mas (pagat.com, "Mas with turned up trump"): the trump is turned up
    under the stock at the deal (the last card of the deck order) and known from the
    start; the seat to the leader's left beats the led card (a higher card of its
    suit, or a trump on a non-trump) and wins the trick, or picks it up, and then the
    seat to its left leads; a seat holding fewer cards than ``hand_size`` draws up to
    it; the turned-up trump is drawn like any card (face up) and phase one ends when
    the trick in which it was drawn is complete.
    """

    PAIRS = "pairs"
    ALL_PLAY = "all-play"
    BEAT = "beat"


class FirstLead(enum.Enum):
    """Who leads the first trick of a deal (when no leader is given, as the previous loser is
    in a series: pagat.com "Lowest card or loser leads"; the Goat Game's "Lead, goat").

    ``LEFT_OF_DEALER``: the seat to the dealer's left (pagat.com Skitgubbe).
    ``LOWEST_CARD``: the holder of the lowest card dealt; on a tie the first of them
    clockwise from the dealer's left.
    """

    LEFT_OF_DEALER = "left-of-dealer"
    LOWEST_CARD = "lowest-card"


class StockEnd(enum.Enum):
    """What happens once the stock is empty in phase one (pagat.com, "Variants: end of phase one").

    ``PLAY_ON``: tricks go on with the cards in hand until a seat due to play has none.
    ``STOP``: phase one ends when the trick in which the last stock card was drawn is won.
    ``STOP_UNLESS_TWO``: after that, a new trick begins only if every seat holds two cards.
    ``SKIP_EMPTY``: tricks go on among the seats that still hold cards until every card
    has been played (pagat.com, Koira); a seat that runs out while a tie is being
    settled ends that trick: its cards are shared among the tied seats' piles.
    """

    PLAY_ON = "play-on"
    STOP = "stop"
    STOP_UNLESS_TWO = "stop-unless-two"
    SKIP_EMPTY = "skip-empty"


class EmptyHand(enum.Enum):
    """A seat that starts phase two with no cards.

    ``SAFE``: it is out and cannot lose (pagat.com Skitgubbe; Flurst).
    ``BLAMATTIS``: it takes part, and at its first turn with cards on the table it
    must pick up the lowest card there (pagat.com, Mattis: "Blåmattis").
    ``LOSES``: it loses at once (pagat.com, Mattis variants).
    """

    SAFE = "safe"
    BLAMATTIS = "blamattis"
    LOSES = "loses"


class SecondLead(enum.Enum):
    """Who leads the first trick of phase two.

    ``TRUMP_DRAWER``: the seat that drew the last stock card (pagat.com Skitgubbe).
    ``LAST_TRICK``: the seat that won the last completed trick of phase one
    (Swedish Goat Game / Flurst, "Leading a trick").
    """

    TRUMP_DRAWER = "trump-drawer"
    LAST_TRICK = "last-trick"


class Plays(enum.Enum):
    """What one play in phase two may be.

    ``SINGLE``: one card (pagat.com Skitgubbe, "Play in the second phase").
    ``RUN``: one card or a run of touching cards, any length (Flurst, "Cards
    that touch"; pagat.com "Playing sequences in phase two").
    ``RUN3``: one card or a run of at least three touching cards (pagat.com,
    Mattis: "some play that a sequence must contain at least three").
    ``RUN_FROM_TWO``: one card or a run that starts with the 2 of its suit
    (pagat.com, Koira variants).
    """

    SINGLE = "single"
    RUN = "run"
    RUN3 = "run-3"
    RUN_FROM_TWO = "run-from-2"


class PickUp(enum.Enum):
    """What a seat that does not beat must pick up in phase two.

    ``TOP_CARD``: the last play (a single card where plays are single cards); the
    next seat then faces the play beneath (pagat.com Skitgubbe).
    ``TOP_RUN``: the top card and every card below it in sequence, even across
    plays (pagat.com, "Pick up joined sequences").
    ``BOTTOM_PLAY``: the lowest (first) play (pagat.com, "Pick up from the bottom").
    ``LOWEST_RUN``: the lowest card on the table with every card touching it in
    sequence, even across plays ("eat it", Flurst "Following a trick"; pagat.com
    Atlanta variation).
    ``LOWEST_CARD``: only the lowest card; a run counts as a play until all its
    cards are gone (pagat.com, Koira variants).
    """

    TOP_CARD = "top-card"
    TOP_RUN = "top-run"
    BOTTOM_PLAY = "bottom-play"
    LOWEST_RUN = "lowest-run"
    LOWEST_CARD = "lowest-card"


class AntiTrump(enum.Enum):
    """The anti-trump suit of phase two, whose cards trumps cannot beat (pagat.com, "Anti-trumps").

    ``NONE``; ``SAME_COLOUR``: the other suit of the trump's colour;
    ``ELECTRIC_CLUBS``: clubs, or spades when clubs are trumps.
    """

    NONE = "none"
    SAME_COLOUR = "same-colour"
    ELECTRIC_CLUBS = "electric-clubs"


@dataclass(frozen=True, kw_only=True)
class Rules:
    """One complete ruleset.  Frozen, keyword-only, validated in ``__post_init__``.

    Attributes (all counts are in cards or seats):
        name: the preset name, or ``"custom"``.
        min_players, max_players: seats allowed at the table (2..8).
        hand_size: cards dealt to each seat and kept by drawing in phase one.
        first_phase: :class:`FirstPhase`.
        first_lead: :class:`FirstLead`.
        aces_low_first: aces rank below the 2s in phase one only (Flurst, "Aces low
            in first part"; Howell).
        exposed_bottom: the bottom stock card is turned face up after the deal, so
            everyone knows the trump suit to come (pagat.com, "Exposed trump indicator").
        bottom_aside: the bottom card is set aside after the deal, names the trump
            suit when phase one ends, and is out of play (Flurst, "No bottom card").
        restaurant: the last stock card never replaces a sluff, only a play
            (Flurst, "No sloughing for trump", a.k.a. restaurant rules).
        max_equal_play: a phase-one play may be up to this many cards of one rank
            (pagat.com, "All Players play to Each Trick": one to three).
        sluff_settled_only: sluffing only once the trick (and any tie) is settled
            (pagat.com, "All Players play to Each Trick").
        sluff_after_play: a seat may sluff only after it has played to the trick
            (pagat.com, Atlanta variation).
        sluff_once: a seat sluffs on at most one occasion in a trick: one card after
            another, until it does anything else (pagat.com, Atlanta variation).
        sluff_losing_only: only ranks that are losing the trick may be sluffed, not
            the rank heading it (pagat.com, Atlanta variation).
        sluff_own_rank: a seat may only sluff cards of the rank it played itself in
            the latest round it played (pagat.com, "Sluff must match own card").
        ties_beat_unique: any rank played by two or more seats beats every rank played
            once; the highest such rank heads the trick (pagat.com, "Tied ranks beat
            unique ranks").  With must_match: a seat must play a rank already in the
            round if it can, the highest it can, unless a higher tie exists.
        stock_end: :class:`StockEnd`.
        turn_from_stock: a seat due to play in phase one may instead turn up the
            top stock card and play it, while the stock holds more than one card.
        must_match: "match if you can": a seat holding a card of the rank of the
            highest card so far in the current round of the trick must play one
            such card (Flurst).
        sluffing: a seat may throw into an unsettled or settled trick a card of a
            rank already in it, and draws a replacement (Flurst, "Sloughing").
        sluff_guard_high: a seat still due to play in the current round may not
            sluff a card of the highest rank in that round (Flurst restriction 1).
        sluff_guard_last: a seat still in contention for an unsettled trick may
            not sluff unless the stock can replace the card (Flurst restriction 2;
            see docs/rulings.md).
        expose_leftover: at the end of phase one the cards still in hand are
            shown to everybody (pagat.com Skitgubbe).
        show_trump_card: at the end of phase one the trump card is turned face
            up for all to see (pagat.com); otherwise its holder looks at it and
            only announces the suit (Flurst "Determine trump").
        dreck_below: a seat with fewer than this many cards after phase one makes
            the dreck be redistributed; 0 = no dreck (Flurst: 6); -1 = the rank of
            the trump card, ace 14 (pagat.com, "Number of cards needed").
        dreck_max_rank: the dreck is every card of rank 2..dreck_max_rank (Flurst: 5)
        dreck_trump_rank: ...plus the trump of this rank, 0 for none (Flurst: 6).
        second_lead: :class:`SecondLead`.
        empty_hand: :class:`EmptyHand`.
        plays: :class:`Plays`.
        pick_up: :class:`PickUp`.
        forced_pickup: once a seat picks up, the following seats must pick up too
            until the table is empty (pagat.com, "Forced pickup").
        complete_suit_ends: a play that completes all 13 cards of a suit on the
            table ends the trick like a kill (pagat.com, "Complete suit").
        trump_ends_trick: a trump played on a non-trump ends the trick like a kill
            (pagat.com, Koira variants).
        anti_trump: :class:`AntiTrump`.
        high_trump_kills_only: the highest trump left in the game may only be
            played to kill a trick; a seat on lead holding nothing else passes the
            lead to its right (Flurst, "High trump rule").
        reserve: cards set aside face down at the deal (after the hands) as a
            second draw pile, the avstickshög: after each kill in phase two both
            seats draw one, the seat that played last first (pagat.com, "Two Player
            Game"; two seats only; 0 = none).
        store_three_trumps: a seat whose hand is exactly three trumps may show and
            store them for phase two and draw a new hand (pagat.com, Mas).
        exchange_two: a seat holding the 2 of trumps may exchange it for the
            turned-up trump under the stock (pagat.com, Mas).
        trump_shown_when_drawn: the last stock card is put face up as soon as it is
            drawn, so the trump suit is known for the rest of phase one
            (catsatcards.com Skitgubbe).
        sluff_last_rank: only the rank of the card most recently put into the trick
            may be sluffed (catsatcards.com, Flurst: "the same rank as that just
            played").
        dreck_remainder_aside: dreck cards that do not share out evenly among the
            seats that get the dreck lie in the first trick of phase two and leave the
            game with it (catsatcards.com, Flurst).
        tie_deal: a tie for the highest card ends the phase-one trick: the tied seats
            take back the cards they played, and the other cards are dealt to them from
            the lowest, starting with the last tied seat and going counterclockwise
            (pagat.com, Koira variants).
        incomplete_trick_dealt: when phase one ends in the middle of a trick, its cards
            are shuffled and dealt one at a time clockwise from the dealer's left instead
            of being taken back (pagat.com, "Incomplete trick dealt to players").
        confusion: 3-player confusion: six seats for three players, seat s and seat s + 3
            being one player's two hands, which play as partners and each see the other; the
            player whose hand is left holding cards loses (Flurst, "3-player confusion").
        decks: packs shuffled together, 1 or 2 (the double deck: Flurst and Howell,
            "Double Deck").  With 2, cards 52..103 are the second pack
            (:data:`skitgubbe.engine.cards.TWIN`); twins never touch, so no phase-two play holds
            both, and a play names whichever copy its seat holds.  The texts raise the dreck
            threshold to 12 cards for two packs: set ``dreck_below`` too (docs/rulings.md DD4).
        all_ties_replay: with ``ties_beat_unique``, every seat that played a rank two or more
            seats played replays the trick, not only the seats of the highest such rank
            (pagat.com, Mattis "Variants": all players of equal cards play again).
        sluff_guard_last_card: a seat still due to play in the current round may not sluff the
            only card left in its hand when the sluff would not be replaced and that card is at
            least as strong as the round's highest card (catsatcards.com, Flurst, the second
            sluffing exception; ruling C4).  A narrower rule than ``sluff_guard_last``.
        max_players_two_packs: the most seats the text allows with the double deck, 0 for as
            many as ``max_players``; :meth:`with_options` raises ``max_players`` to it when it
            sets ``decks = 2`` (Howell, "double deck": for more than six players; ruling H1).
        beat_any_suit: phase two, a non-trump play is beaten by a higher non-trump play of any
            suit as well as by trump (the Flurst page, "Following a trick", read literally: "a
            higher-ranking non-trump"); off, only a higher play of its own suit or a trump beats it
            (ruling G15).  A trump is beaten only by a higher trump, an anti-trump only by a higher
            anti-trump.
        loser_title: what the loser is called, without an article: ``"skitgubbe"`` (pagat.com,
            "the skitgubbe"), ``"goat"`` (the Flurst and Howell pages), ``"mas"``, ``"mattis"``
            (pagat.com: both mean fool), ``"koira"`` (pagat.com, Koira: the loser barks like a
            dog); a text of 1 to 40 printable characters (docs/rulings.md E17).
        lowest_rank: a short pack: the lowest rank left in it, 2..14 (2: every rank; 9: nine to ace).
            Not from the rule texts: a research construct (the ``mini`` preset, docs/presets/mini.md).
        suits: a short pack: how many suits it holds, 1..4, the first ones in the order clubs,
            diamonds, hearts, spades (4: every suit).  Cards keep their numbers
            (``suit * 13 + rank - 2``); :attr:`pack` is the card set.
    """

    name: str = "custom"
    min_players: int = 2
    max_players: int = 4
    hand_size: int = 3
    first_phase: FirstPhase = FirstPhase.PAIRS
    first_lead: FirstLead = FirstLead.LEFT_OF_DEALER
    aces_low_first: bool = False
    exposed_bottom: bool = False
    bottom_aside: bool = False
    restaurant: bool = False
    max_equal_play: int = 1
    sluff_settled_only: bool = False
    sluff_after_play: bool = False
    sluff_once: bool = False
    sluff_losing_only: bool = False
    sluff_own_rank: bool = False
    ties_beat_unique: bool = False
    stock_end: StockEnd = StockEnd.PLAY_ON
    turn_from_stock: bool = True
    must_match: bool = False
    sluffing: bool = False
    sluff_guard_high: bool = False
    sluff_guard_last: bool = False
    expose_leftover: bool = True
    show_trump_card: bool = True
    dreck_below: int = 0
    dreck_max_rank: int = 5
    dreck_trump_rank: int = 0
    second_lead: SecondLead = SecondLead.TRUMP_DRAWER
    empty_hand: EmptyHand = EmptyHand.SAFE
    plays: Plays = Plays.SINGLE
    pick_up: PickUp = PickUp.TOP_CARD
    forced_pickup: bool = False
    complete_suit_ends: bool = False
    trump_ends_trick: bool = False
    anti_trump: AntiTrump = AntiTrump.NONE
    high_trump_kills_only: bool = False
    reserve: int = 0
    store_three_trumps: bool = False
    exchange_two: bool = False
    trump_shown_when_drawn: bool = False
    sluff_last_rank: bool = False
    dreck_remainder_aside: bool = False
    tie_deal: bool = False
    incomplete_trick_dealt: bool = False
    confusion: bool = False
    decks: int = 1
    loser_title: str = "skitgubbe"
    all_ties_replay: bool = False
    sluff_guard_last_card: bool = False
    max_players_two_packs: int = 0
    beat_any_suit: bool = False
    lowest_rank: int = 2
    suits: int = 4

    @property
    def pack(self) -> CardSet:
        """The card set of the deal's pack(s): every card of ``decks`` packs, less the suits beyond
        ``suits`` and the ranks below ``lowest_rank`` (the full pack by default)."""
        return short_pack(self.decks, self.lowest_rank, self.suits)

    @property
    def pack_size(self) -> int:
        """How many cards :attr:`pack` holds (52 by default, 104 with two packs)."""
        return self.pack.bit_count()

    @property
    def short(self) -> bool:
        """True when the pack is cut short (``lowest_rank`` above 2 or fewer than four ``suits``)."""
        return self.lowest_rank != 2 or self.suits != 4

    def __post_init__(self) -> None:
        self._check_types()
        if not 2 <= self.min_players <= self.max_players <= 8:
            raise RulesError(
                f"min_players={self.min_players}, max_players={self.max_players}: "
                "need 2 <= min_players <= max_players <= 8"
            )
        if not 1 <= self.hand_size <= 6:
            raise RulesError(f"hand_size={self.hand_size}: must be 1..6 cards")
        if self.first_phase is FirstPhase.PAIRS and self.sluffing:
            raise RulesError(
                "first_phase=pairs with sluffing=True: sluffing is only described "
                "for tricks to which every seat plays (first_phase=all-play)"
            )
        if (self.sluff_guard_high or self.sluff_guard_last) and not self.sluffing:
            raise RulesError(
                "sluff_guard_high/sluff_guard_last need sluffing=True: "
                "they restrict sluffing"
            )
        if self.decks not in (1, 2):
            raise RulesError(f"decks={self.decks}: must be 1 (one pack of 52) or 2 (the double deck, 104)")
        if self.dreck_below < -1 or self.dreck_below > 52 * self.decks:
            raise RulesError(f"dreck_below={self.dreck_below}: must be 0 (no dreck) to {52 * self.decks}, "
                             "or -1 (the trump card's rank)")
        if not 2 <= self.lowest_rank <= 14:
            raise RulesError(f"lowest_rank={self.lowest_rank}: must be 2 (every rank) to 14 (aces only)")
        if not 1 <= self.suits <= 4:
            raise RulesError(f"suits={self.suits}: must be 1 to 4 (the first suits of clubs, diamonds, "
                             "hearts, spades)")
        self._check_short_pack()
        if not 1 <= self.max_equal_play <= 3:
            raise RulesError(f"max_equal_play={self.max_equal_play}: must be 1..3 cards of one rank")
        if self.max_equal_play > self.hand_size:
            raise RulesError(f"max_equal_play={self.max_equal_play} with hand_size={self.hand_size}: "
                             "a play cannot hold more cards than a hand")
        for option in ("sluff_own_rank", "sluff_after_play", "sluff_once", "sluff_losing_only",
                       "sluff_settled_only"):
            if getattr(self, option) and not self.sluffing:
                raise RulesError(f"{option}=True with sluffing=False: it restricts sluffing, which is off")
        if self.restaurant and not self.sluffing:
            raise RulesError("restaurant=True with sluffing=False: it restricts what replaces a sluff")
        if self.complete_suit_ends and self.plays is Plays.SINGLE:
            raise RulesError("complete_suit_ends=True with plays=single: a trick of single cards never "
                             "holds all 13 cards of a suit")
        if self.restaurant and self.bottom_aside:
            raise RulesError("restaurant=True with bottom_aside=True: with the bottom card set aside "
                             "there is no trump card in the stock to keep from sluffers")
        if self.all_ties_replay and not self.ties_beat_unique:
            raise RulesError("all_ties_replay=True with ties_beat_unique=False: it says who replays when "
                             "several tied ranks beat the unique ones; it needs ties_beat_unique=True")
        if self.sluff_guard_last_card and not self.sluffing:
            raise RulesError("sluff_guard_last_card=True with sluffing=False: it restricts sluffing, which "
                             "is off")
        if self.ties_beat_unique and self.first_phase is FirstPhase.PAIRS:
            raise RulesError("ties_beat_unique=True with first_phase=pairs: a two-card trick has no unique "
                             "rank besides the tie; it needs first_phase=all-play")
        if not 2 <= self.dreck_max_rank <= 14:
            raise RulesError(f"dreck_max_rank={self.dreck_max_rank}: must be a rank 2..14")
        if self.dreck_trump_rank and not 2 <= self.dreck_trump_rank <= 14:
            raise RulesError(
                f"dreck_trump_rank={self.dreck_trump_rank}: must be 0 (none) or a rank 2..14"
            )
        self._check_new_options()

    def _check_short_pack(self) -> None:
        """The rules that assume the full pack, refused with a short one (``lowest_rank``, ``suits``)."""
        if not self.short:
            return
        needed = self.min_players * self.hand_size + self.reserve + 1
        if needed > self.pack_size:
            raise RulesError(f"lowest_rank={self.lowest_rank}, suits={self.suits}: the short pack holds "
                             f"{self.pack_size} cards, too few for {self.min_players} hands of "
                             f"{self.hand_size} "
                             f"(min_players, hand_size), {self.reserve} cards aside (reserve) and the bottom "
                             f"card ({needed} cards); lower lowest_rank or give more suits")
        cut = f"lowest_rank={self.lowest_rank}, suits={self.suits}"
        for option, bad, value, why in (
                ("plays", self.plays is Plays.RUN_FROM_TWO, "run-from-2", "runs start with the 2"),
                ("exchange_two", self.exchange_two, True, "the 2 of trumps is exchanged"),
                ("complete_suit_ends", self.complete_suit_ends, True, "it needs all 13 cards of a suit"),
                ("dreck_below", self.dreck_below != 0, self.dreck_below, "the dreck is counted for a full "
                                                                         "pack"),
                ("decks", self.decks != 1, self.decks, "a short pack is one pack")):
            if bad and (self.lowest_rank > 2 or option in ("complete_suit_ends", "dreck_below", "decks")):
                raise RulesError(f"{cut} (a short pack) with {option}={value}: {why}; a short pack allows "
                                 "only rules that do not assume the full pack")

    def _check_types(self) -> None:
        """Each option holds a value of its own type (an ``int`` within a thousand of zero for a
        whole number), so that the checks below compare and show values of the right kind."""
        for f in dataclasses.fields(self):
            value, default = getattr(self, f.name), f.default
            if isinstance(default, enum.Enum):
                ok = isinstance(value, type(default))
            elif isinstance(default, bool):
                ok = isinstance(value, bool)
            elif isinstance(default, int):
                ok = type(value) is int and abs(value) <= 1000
            else:
                ok = isinstance(value, str)
            if not ok:
                raise RulesError(f"{f.name}={short_repr(value)}: not a value of this option; "
                                 f"give {_kind_of(default)}")

    def _check_new_options(self) -> None:
        beat = self.first_phase is FirstPhase.BEAT
        if beat:
            for option, bad in (("sluffing", self.sluffing), ("turn_from_stock", self.turn_from_stock),
                                ("must_match", self.must_match), ("bottom_aside", self.bottom_aside),
                                ("aces_low_first", self.aces_low_first),
                                ("max_equal_play", self.max_equal_play != 1),
                                ("trump_shown_when_drawn", self.trump_shown_when_drawn)):
                if bad:
                    raise RulesError(f"first_phase=beat with {option}={getattr(self, option)}: in Mas a "
                                     "play is one card from hand, beaten by suit and trump, and the "
                                     "trump lies face up under the stock from the start")
            if not self.exposed_bottom:
                raise RulesError("first_phase=beat needs exposed_bottom=True: in Mas the trump is turned "
                                 "up under the stock at the deal")
            if self.stock_end is not StockEnd.STOP:
                raise RulesError("first_phase=beat needs stock_end=stop: Mas ends phase one with the "
                                 "trick in which the turned-up trump is drawn")
        for option in ("store_three_trumps", "exchange_two"):
            if getattr(self, option) and not beat:
                raise RulesError(f"{option}=True needs first_phase=beat: only Mas knows the trump suit "
                                 "in phase one")
        if self.reserve:
            if not 0 <= self.reserve <= 30:
                raise RulesError(f"reserve={self.reserve}: must be 0 (none) to 30 cards")
            if self.max_players != 2:
                raise RulesError(f"reserve={self.reserve} with max_players={self.max_players}: the "
                                 "avstickshög is for two seats only (set min_players and max_players to 2)")
            if self.dreck_below:
                raise RulesError(f"reserve={self.reserve} with dreck_below={self.dreck_below}: the "
                                 "avstickshög still lies face down when phase one ends, and the dreck would "
                                 "take its cards; the two-seat game has no dreck (set one of them to 0)")
        if self.trump_shown_when_drawn and (self.bottom_aside or not self.show_trump_card):
            raise RulesError("trump_shown_when_drawn=True needs the trump card shown and drawn: not with "
                             "bottom_aside=True or show_trump_card=False")
        if self.sluff_last_rank and not self.sluffing:
            raise RulesError("sluff_last_rank=True with sluffing=False: it restricts sluffing, which is off")
        if self.dreck_remainder_aside and not self.dreck_below:
            raise RulesError("dreck_remainder_aside=True with dreck_below=0: there is no dreck to share")
        if self.tie_deal and self.first_phase is not FirstPhase.ALL_PLAY:
            raise RulesError("tie_deal=True needs first_phase=all-play: the tied seats share the other "
                             "cards of a trick to which every seat played")
        if self.tie_deal and self.ties_beat_unique:
            raise RulesError("tie_deal=True with ties_beat_unique=True: both settle ties, differently; "
                             "choose one")
        if self.incomplete_trick_dealt and self.stock_end is not StockEnd.PLAY_ON:
            raise RulesError("incomplete_trick_dealt=True needs stock_end=play-on: only then can phase one "
                             "end in the middle of a trick")
        if self.confusion and not self.min_players <= 6 <= self.max_players:
            raise RulesError(f"confusion=True with min_players={self.min_players}, max_players="
                             f"{self.max_players}: 3-player confusion is played with six seats (two hands "
                             "for each of three players)")
        if self.decks == 2:
            for option, bad, value, why in (
                    ("first_phase", beat, "beat", "Mas's exchange of the 2 of trumps and its stored trumps "
                                                  "assume one pack"),
                    ("reserve", bool(self.reserve), self.reserve,
                     "the avstickshög is a two-seat rule for one pack"),
                    ("max_equal_play", self.max_equal_play != 1, self.max_equal_play,
                     "plays of equal cards would let twins be played together, which they never are")):
                if bad:
                    raise RulesError(f"decks=2 with {option}={value}: {why}; the double deck is described "
                                     "for the Goat Game (Flurst, Howell)")
        if self.stock_end is StockEnd.SKIP_EMPTY and self.first_phase is not FirstPhase.ALL_PLAY:
            raise RulesError("stock_end=skip-empty needs first_phase=all-play (Koira)")

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesError` (a ``ValueError``) unless a deal under these rules can be
        dealt to ``players`` seats (an ``int``); the message says which seat counts can.

        The one place that says so: :meth:`State.new <skitgubbe.engine.state.State.new>` (and so
        :meth:`State.from_phase_two <skitgubbe.engine.state.State.from_phase_two>` and
        :meth:`State.from_position <skitgubbe.engine.state.State.from_position>`) call it before
        dealing, and a front end may call it first (a room's seat count, say).  A ``Rules`` object
        already holds together on its own (``__post_init__``); what depends on the seat count is:

        * ``min_players..max_players`` (the seat range of the text, e.g. pagat.com's two to four);
        * ``confusion``: exactly six seats, two hands for each of three players (Flurst, "3-player
          confusion"; ruling CF1), although the range may hold other counts;
        * the pack(s) must hold every hand (``hand_size`` each), the avstickshög (``reserve``) and
          a bottom card for the trump card (rulings E1, O5).  With the full pack this always holds
          within ``Rules``' own bounds (at most six cards for eight seats); a short pack
          (``lowest_rank``, ``suits``: :attr:`pack`) may hold too few cards for a larger table.
        """
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players={short_repr(players)}: give a whole number of seats")
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"{self.name} is for {self.min_players} to {self.max_players} players, not {players}"
            )
        if self.confusion and players != 6:
            raise RulesError(f"3-player confusion is played with 6 seats (two hands for each of three "
                             f"players), not {players}")
        needed = players * self.hand_size + self.reserve + 1
        if needed > self.pack_size:
            packs = "two packs hold" if self.decks == 2 else "one pack holds"
            if self.short:
                packs = f"the short pack (lowest_rank={self.lowest_rank}, suits={self.suits}) holds"
            raise RulesError(f"{self.name} with {players} players: {players} hands of {self.hand_size}, "
                             f"{self.reserve} cards aside and the bottom card need {needed} cards; "
                             f"{packs} {self.pack_size}"
                             + ("; lower lowest_rank, give more suits or deal smaller hands"
                                if self.short else ""))

    def replace(self, **changes: object) -> Rules:
        """A copy with ``changes`` applied (validated again); ``name`` becomes ``"custom"``
        unless given.  Raises :class:`RulesError` or ``TypeError`` for an unknown option."""
        changes.setdefault("name", "custom")
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def with_options(self, options: Mapping[str, object], *, where: str = "") -> Rules:
        """A copy with ``options`` applied: ``{option name: value}``, where a value may be
        given as text (``"true"``, ``"3"``, ``"lowest-run"``) or as its Python type.

        Every value is checked here, where it is read: a whole number must be an ``int`` or a
        text of ASCII digits 0-9 (an optional leading minus) within :data:`INT_RANGES`; a
        true/false option takes ``True``/``False`` or ``"true"``/``"false"``; an option with named
        values takes one of those names; ``name`` is a text of 1 to :data:`NAME_LENGTH` printable
        characters without ``#`` (which starts a comment in a record).

        Setting ``decks`` to 2 without ``max_players`` raises ``max_players`` to
        ``max_players_two_packs`` when that is larger (Howell: the double deck for seven or eight).

        ``where`` prefixes error messages (e.g. ``"options."``).  Raises :class:`RulesError`
        naming the option and the allowed values for an unknown option, a value of the wrong
        kind or out of range, or a combination the rules reject (the options are named).  A
        value at fault is shown shortened (:func:`short_repr`), so the message stays one line.
        """
        fields = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, object] = {}
        for key, value in options.items():
            if key not in fields:
                raise RulesError(f"{where}{_key_text(key)}: unknown option; options are " + ", ".join(fields))
            default = getattr(self, key)
            changes[key] = _convert(f"{where}{key}", key, value, default)
        if (changes.get("decks") == 2 and "max_players" not in changes
                and self.max_players_two_packs > self.max_players):
            changes["max_players"] = self.max_players_two_packs  # the double deck's larger table
        return self.replace(**changes)

    def options(self) -> dict[str, object]:
        """Every option and its value as plain data (enums as their string values)."""
        out: dict[str, object] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, enum.Enum) else v
        return out


def _convert(key: str, option: str, value: object, default: object) -> object:
    """``value`` as the type of ``default`` (bool, int, str or an enum), else RulesError naming
    ``key`` (the option as the caller writes it) and what is allowed."""
    shown = short_repr(value)
    if isinstance(default, enum.Enum):
        allowed = [m.value for m in type(default)]
        if isinstance(value, type(default)):
            return value
        if isinstance(value, str) and value in allowed:
            return type(default)(value)
        raise RulesError(f"{key}: {shown} is not allowed; allowed values: {', '.join(allowed)}")
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
        raise RulesError(f"{key}: {shown} is not allowed; allowed values: true, false")
    if isinstance(default, int):
        ranges = INT_RANGES[option]
        number = value if isinstance(value, int) and not isinstance(value, bool) else None
        if isinstance(value, str):
            number = whole_number(value)
        if number is None or not any(low <= number <= high for low, high in ranges):
            if number is not None:
                shown = short_repr(number)
            raise RulesError(f"{key}: {shown} is not allowed; give a whole number, {_allowed_ints(ranges)}")
        return number
    text = value.strip() if isinstance(value, str) else ""
    if not text or len(text) > NAME_LENGTH or not text.isprintable() or "#" in text:
        raise RulesError(f"{key}: {shown} is not allowed; give a text of 1 to {NAME_LENGTH} printable "
                         "characters, without '#'")
    return text


OPTION_HELP: dict[str, str] = {
    "name": N_("the name of these rules"),
    "min_players": N_("the fewest seats allowed"),
    "max_players": N_("the most seats allowed"),
    "hand_size": N_("cards dealt to each seat and kept by drawing in phase one"),
    "first_phase": N_("pairs: two-card tricks passed along the table; all-play: every seat plays to each "
                   "trick; beat: Mas, beat the led card by suit or trump, or pick it up"),
    "first_lead": N_("who leads the first trick: the dealer's left, or the holder of the lowest card dealt"),
    "aces_low_first": N_("aces rank below the 2s in phase one"),
    "exposed_bottom": N_("the bottom stock card is shown face up after the deal (the trump suit to come)"),
    "bottom_aside": N_("the bottom card is set aside: it names the trump suit, then is out of play"),
    "restaurant": N_("the last stock card never replaces a sluff, only a play"),
    "max_equal_play": N_("a phase-one play may be up to this many cards of one rank"),
    "sluff_settled_only": N_("sluffing only once the trick is settled"),
    "sluff_after_play": N_("a seat may sluff only after it has played to the trick"),
    "sluff_once": N_("a seat sluffs on one occasion a trick, one card after another"),
    "sluff_losing_only": N_("only ranks losing the trick may be sluffed"),
    "sluff_own_rank": N_("a seat may only sluff the rank it played itself"),
    "ties_beat_unique": N_("a rank played by two or more seats beats every rank played once"),
    "stock_end": N_("once the stock is empty: play on, stop after that trick, stop unless all hold two, or "
                 "play on among the seats holding cards until all are played"),
    "turn_from_stock": N_("a seat may turn up the top stock card and play it instead of a card from hand"),
    "must_match": N_("match if you can: holding the rank of the highest card of the round, you must play it"),
    "sluffing": N_("a card of a rank already in the trick may be thrown in, and is replaced from the stock"),
    "sluff_guard_high": N_("a seat yet to play may not sluff a card of the round's highest rank"),
    "sluff_guard_last":
        N_("a seat that can still win the trick may not sluff unless the stock can replace the card"),
    "expose_leftover": N_("cards left in hand when phase one ends are shown to everybody"),
    "show_trump_card":
        N_("the trump card is turned face up when phase one ends (else only its suit is named)"),
    "dreck_below": N_("a seat with fewer cards than this after phase one gets the dreck (0: no dreck; "
                   "-1: the trump card's rank)"),
    "dreck_max_rank": N_("the dreck holds every card from the 2 up to this rank"),
    "dreck_trump_rank": N_("the dreck also holds the trump of this rank (0: none)"),
    "empty_hand": N_("a seat with no cards at the start of phase two: safe, Blåmattis (plays on, first picks "
                  "up the lowest card), or loses at once"),
    "second_lead": N_("who leads phase two: the seat that drew the trump card, or the last trick's winner"),
    "plays": N_("a phase-two play: a single card, or also a run (any length, at least three, or from the 2)"),
    "pick_up": N_("what a seat that does not beat picks up: the top play, the top card with the cards joined "
               "to it, the bottom play, the lowest run, or the lowest card"),
    "forced_pickup": N_("after a pick-up the following seats must pick up too until the table is empty"),
    "complete_suit_ends": N_("a play completing all 13 cards of a suit on the table ends the trick"),
    "trump_ends_trick": N_("a trump played on a non-trump ends the trick"),
    "anti_trump": N_("a suit that trumps cannot beat: none, the trump's colour partner, or electric clubs"),
    "high_trump_kills_only": N_("the highest trump left may only be played to kill a trick"),
    "reserve": N_("two seats: cards set aside at the deal, drawn one each after every kill in phase two"),
    "store_three_trumps": N_("Mas: a hand of exactly three trumps may be stored for phase two and replaced"),
    "exchange_two": N_("Mas: the 2 of trumps may be exchanged for the trump turned up under the stock"),
    "trump_shown_when_drawn": N_("the last stock card is shown face up as soon as it is drawn"),
    "sluff_last_rank": N_("only the rank of the card most recently put into the trick may be sluffed"),
    "dreck_remainder_aside":
        N_("dreck cards that do not share out evenly leave the game with the first trick"),
    "tie_deal": N_("a tie ends the trick: the tied seats take back their cards and are dealt the others"),
    "incomplete_trick_dealt": N_("a trick left unfinished by phase one's end is shuffled and dealt round"),
    "confusion": N_("three players with two hands each (six seats), each pair partners who see each other"),
    "decks": N_("packs shuffled together: 1, or 2 for the double deck (twins never touch)"),
    "loser_title": N_("what the loser is called (skitgubbe, goat, mas, mattis, ...)"),
    "all_ties_replay": N_("every seat of a tied rank replays, not only those of the highest tie"),
    "sluff_guard_last_card": N_("a seat due to play may not sluff its last card if it would beat or tie"),
    "max_players_two_packs": N_("the most seats with two packs (0: as max_players); setting decks = 2 "
                             "raises max_players to it"),
    "beat_any_suit": N_("phase two: any higher non-trump beats a non-trump, whatever its suit"),
    "lowest_rank": N_("a short pack: the lowest rank in it (2: every rank); a research construct"),
    "suits": N_("a short pack: how many suits it holds, clubs first (4: every suit)"),
}
"""One line per option, in plain words: used by ``skitgubbe rules diff`` and the option docs."""
