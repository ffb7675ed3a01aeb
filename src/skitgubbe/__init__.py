"""skitgubbe: the Skitgubbe family of card games, rules engine, bots and tools.

The core (cards, rules, variants, actions, state, view, record) uses only the
standard library and does no I/O.
"""

from .actions import CHANCE, Action, Kind, parse_action
from .cards import card_label, card_name, format_cards, parse_card, parse_cards
from .rules import Rules, RulesError
from .state import (
    Event,
    GameOverError,
    IllegalActionError,
    Outcome,
    Phase,
    State,
    deck_from_seed,
)
from .variants import PRESETS, find_variant

__all__ = [
    "CHANCE", "Action", "Kind", "parse_action",
    "card_label", "card_name", "format_cards", "parse_card", "parse_cards",
    "Rules", "RulesError",
    "Event", "GameOverError", "IllegalActionError", "Outcome", "Phase", "State", "deck_from_seed",
    "PRESETS", "find_variant",
]

__version__ = "0.1.0"
