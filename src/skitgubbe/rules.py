"""The rules of one way of playing Skitgubbe, as data.

:class:`Rules` is a frozen, keyword-only, validated dataclass: one instance
fully describes a ruleset, and one state machine (:mod:`skitgubbe.state`)
serves every instance.  Named presets live in :mod:`skitgubbe.variants`.

Every option names the rule text it comes from; docs/presets/*.md describe
each preset in our own words and docs/rulings.md settles the ambiguities.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass

__all__ = [
    "FirstPhase",
    "SecondLead",
    "Plays",
    "PickUp",
    "Rules",
    "RulesError",
]


class RulesError(ValueError):
    """Raised when a :class:`Rules` is inconsistent; the message names the options at fault."""


class FirstPhase(enum.Enum):
    """How tricks are formed in phase one.

    ``PAIRS``: two-card tricks between the leader and the seat to the leader's
    left; the winner leads the next trick to the seat on *its* left (pagat.com
    Skitgubbe, "Play in the first phase").
    ``ALL_PLAY``: every seat plays one card to each trick in clockwise order
    from the leader (Swedish Goat Game / Flurst, "Tricks"; pagat.com, "All
    Players play to Each Trick").
    """

    PAIRS = "pairs"
    ALL_PLAY = "all-play"


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
    that touch").
    """

    SINGLE = "single"
    RUN = "run"


class PickUp(enum.Enum):
    """What a seat that does not beat must pick up in phase two.

    ``TOP_CARD``: only the last card played; the next seat then faces the card
    beneath (pagat.com Skitgubbe).
    ``LOWEST_RUN``: the lowest card on the table with every card touching it in
    sequence, even across plays ("eat it", Flurst "Following a trick").
    """

    TOP_CARD = "top-card"
    LOWEST_RUN = "lowest-run"


@dataclass(frozen=True, kw_only=True)
class Rules:
    """One complete ruleset.  Frozen, keyword-only, validated in ``__post_init__``.

    Attributes (all counts are in cards or seats):
        name: the preset name, or ``"custom"``.
        min_players, max_players: seats allowed at the table (2..8).
        hand_size: cards dealt to each seat and kept by drawing in phase one.
        first_phase: :class:`FirstPhase`.
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
            the dreck be redistributed; 0 = no dreck (Flurst: 6).
        dreck_max_rank: the dreck is every card of rank 2..dreck_max_rank (Flurst: 5)
        dreck_trump_rank: ...plus the trump of this rank, 0 for none (Flurst: 6).
        second_lead: :class:`SecondLead`.
        plays: :class:`Plays`.
        pick_up: :class:`PickUp`.
    """

    name: str = "custom"
    min_players: int = 2
    max_players: int = 4
    hand_size: int = 3
    first_phase: FirstPhase = FirstPhase.PAIRS
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
    plays: Plays = Plays.SINGLE
    pick_up: PickUp = PickUp.TOP_CARD

    def __post_init__(self) -> None:
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
        if self.dreck_below < 0 or self.dreck_below > 52:
            raise RulesError(f"dreck_below={self.dreck_below}: must be 0 (no dreck) to 52")
        if not 2 <= self.dreck_max_rank <= 14:
            raise RulesError(f"dreck_max_rank={self.dreck_max_rank}: must be a rank 2..14")
        if self.dreck_trump_rank and not 2 <= self.dreck_trump_rank <= 14:
            raise RulesError(
                f"dreck_trump_rank={self.dreck_trump_rank}: must be 0 (none) or a rank 2..14"
            )

    def replace(self, **changes: object) -> Rules:
        """A copy with ``changes`` applied (validated again); ``name`` becomes ``"custom"``
        unless given.  Raises :class:`RulesError` or ``TypeError`` for an unknown option."""
        changes.setdefault("name", "custom")
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def options(self) -> dict[str, object]:
        """Every option and its value as plain data (enums as their string values)."""
        out: dict[str, object] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, enum.Enum) else v
        return out
