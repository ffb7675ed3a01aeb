"""skitgubbe: the Skitgubbe family of card games, rules engine, bots and tools.

``skitgubbe.__all__`` is the supported surface of the engine, documented with shapes, units,
errors and sources in docs/api.md.  The engine (cards, rules, variants, actions, state, view,
record, narration) uses only the standard library and does no I/O.
"""

from .engine.actions import CHANCE, Action, ActionParseError, Kind, parse_action
from .engine.base import PUBLIC, Event, GameOverError, IllegalActionError, Outcome, Phase
from .engine.cards import (
    CardParseError,
    card_label,
    card_name,
    format_cards,
    mask_of,
    parse_card,
    parse_cards,
)
from .engine.narration import describe_event
from .engine.record import Record, RecordFormatError, ReplayError, record_of, replay
from .engine.record import dumps as dump_record
from .engine.record import loads as load_record
from .engine.rules import Rules, RulesError
from .engine.rulesfile import RulesFileError, parse_rules_file
from .engine.state import Draw, DrawError, State, deck_from_seed
from .engine.variants import PRESETS, UnknownVariantError, find_variant
from .engine.view import SPECTATOR, History, SeenEvents, View, event_for, events_for, view_of
from .engine.worlds import Placement, PlacementError, UnseenPlaces, Worlds, unseen_places, world_from_view

__all__ = [
    # actions and cards
    "CHANCE", "Action", "ActionParseError", "Kind", "parse_action",
    "CardParseError", "card_label", "card_name", "format_cards", "mask_of", "parse_card", "parse_cards",
    # rules
    "Rules", "RulesError", "PRESETS", "UnknownVariantError", "find_variant", "RulesFileError",
    "parse_rules_file",
    # a deal
    "State", "deck_from_seed", "Phase", "Outcome", "IllegalActionError", "GameOverError",
    # chance resolved by the caller
    "Draw", "DrawError",
    # what happened, and who may see it
    "Event", "PUBLIC", "events_for", "event_for", "describe_event",
    "View", "History", "SeenEvents", "view_of", "SPECTATOR",
    # worlds one seat cannot tell apart
    "Worlds", "Placement", "PlacementError", "world_from_view", "UnseenPlaces", "unseen_places",
    # records
    "Record", "RecordFormatError", "ReplayError", "record_of", "replay", "dump_record", "load_record",
]

__version__ = "0.1.0"
