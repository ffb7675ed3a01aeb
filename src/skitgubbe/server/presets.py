"""What the lobby says about each preset and bot: one line per preset, from the engine's data.

A preset's line names its source (the first paragraph of its page in docs/presets/) and then what
its options make of the game (:func:`features`), so it can never say something the rules do not do.
"""

from __future__ import annotations

import random

from ..bots import make_bot
from ..engine.rules import EmptyHand, FirstPhase, Plays, Rules

__all__ = ["SOURCES", "features", "describe", "bot_label"]

SOURCES = {
    "pagat": "the main Skitgubbe section of pagat.com",
    "goat": "the Swedish Goat Game of the Flurst page",
    "howell": "the Goat Game as Dave Howell's page describes it",
    "myllymatti": "Myllymatti (pagat.com), the pagat rules under another name",
    "mattis": "Mattis, the Norwegian game (pagat.com)",
    "atlanta": "the Atlanta variation of three-seat Mattis (pagat.com)",
    "helmfrid": "Sten Helmfrid's version (pagat.com, Variations)",
    "two-player": "pagat.com's two-player game",
    "mas": "Mas with turned up trump (pagat.com, from Kortoxen)",
    "koira": "Koira, the Finnish game (pagat.com)",
    "catsatcards": "catsatcards.com's standard Skitgubbe",
    "catsatcards-flurst": "catsatcards.com's Flurst",
}
"""Where each preset's rules come from, as docs/presets/NAME.md opens."""


def features(rules: Rules) -> str:
    """What ``rules`` make of the game, in the glossary's words: how phase-one tricks go, match if
    you can, sluffing, the dreck, the avstickshög, and phase two's plays."""
    if rules.first_phase is FirstPhase.PAIRS:
        parts = ["two-card tricks"]
    elif rules.first_phase is FirstPhase.ALL_PLAY:
        parts = ["everyone plays to each trick"]
    else:
        parts = ["trump known from the deal, beat the lead to take a trick"]
    if rules.aces_low_first:
        parts.append("aces low in phase one")
    if rules.max_equal_play > 1:
        parts.append(f"plays of up to {rules.max_equal_play} equal cards")
    if rules.must_match:
        parts.append("match if you can")
    if rules.sluffing:
        parts.append("sluffing")
    if rules.reserve:
        parts.append("a face-down avstickshög")
    if rules.dreck_below:
        parts.append("the dreck")
    parts.append("single cards in phase two" if rules.plays is Plays.SINGLE else "runs in phase two")
    if rules.empty_hand is EmptyHand.BLAMATTIS:
        parts.append("Blåmattis")
    return ", ".join(parts)


def describe(name: str, rules: Rules, lang: str = "en") -> str:
    """The lobby's line for preset ``name``: its source, then :func:`features`, for a reader of
    language ``lang`` (one of :data:`~skitgubbe.engine.i18n.LANGUAGES`; the lines are English for
    now)."""
    source = SOURCES.get(name)
    return f"{source}: {features(rules)}" if source else features(rules)


def bot_label(name: str, lang: str = "en") -> str:
    """How the lobby names a bot: a difficulty with the bot it is in the command line
    (``"easy (heuristic)"``), any other bot by its own name; for a reader of language ``lang`` (the
    labels are English for now)."""
    try:
        bot = make_bot(name, random.Random(0))
    except ValueError:
        return name
    engine = str(getattr(bot, "name", name))
    return name if engine == name else f"{name} ({engine})"
