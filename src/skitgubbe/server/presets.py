"""What the lobby says about each game, preset and bot, in the reader's language, from the engine's data.

* :data:`GAMES`: the games as players know them (Skitgubbe, the Goat Game, Mas, Mattis, Koira,
  Single Hand), each with its home, a one-line pitch, its main preset, the table "Play now" sets
  up (:func:`recommended_table`) and its variants: the other presets that belong to it.
* :func:`changes`: what a variant changes against its game's main preset, one phrase per option
  that differs (:func:`~skitgubbe.engine.variants.rules_diff`), so it can never disagree with
  the rules.
* :func:`describe`: a preset's line: its source (the first paragraph of its page in
  docs/presets/), then what its options make of the game (:func:`features`).
* :func:`lobby_games`: all of that as the JSON ``GET /api/options`` sends (``games``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..bots import make_bot
from ..engine.i18n import N_, NC_, Message, Plural, Rank, gettext_in, render
from ..engine.rules import EmptyHand, FirstPhase, PickUp, Plays, Rules, SecondLead, StockEnd
from ..engine.variants import PRESETS, rules_diff, usual_players

__all__ = ["SOURCES", "GAMES", "Game", "PLAY_NOW_BOT", "features", "feature_messages", "describe",
           "bot_label", "DIFFICULTY_WORDS", "changes", "change_message", "recommended_table", "lobby_games"]

SOURCES = {
    "pagat": N_("the main Skitgubbe section of pagat.com"),
    "goat": N_("the Swedish Goat Game of the Flurst page"),
    "howell": N_("the Goat Game as Dave Howell's page describes it"),
    "myllymatti": N_("Myllymatti (pagat.com), the pagat rules under another name"),
    "mattis": N_("Mattis, the Norwegian game (pagat.com)"),
    "atlanta": N_("the Atlanta variation of three-seat Mattis (pagat.com)"),
    "helmfrid": N_("Sten Helmfrid's version (pagat.com, Variations)"),
    "two-player": N_("pagat.com's two-player game"),
    "mas": N_("Mas with turned up trump (pagat.com, from Kortoxen)"),
    "koira": N_("Koira, the Finnish game (pagat.com)"),
    "catsatcards": N_("catsatcards.com's standard Skitgubbe"),
    "catsatcards-flurst": N_("catsatcards.com's Flurst"),
}
"""Where each preset's rules come from, as docs/presets/NAME.md opens (message ids)."""

PLAY_NOW_BOT = "easy"
"""The bot that fills every other seat of a recommended table (a newcomer's first opponents)."""


@dataclass(frozen=True)
class Game:
    """One game of the lobby: ``key`` (a stable id), ``name``, ``home`` and ``pitch`` (message ids),
    ``preset`` (its main preset, or ``None`` for a game the web table does not deal), ``variants``
    (``(preset, label message id)``, the other presets that belong to it) and ``command`` (how
    to play it in the terminal when the web table cannot)."""

    key: str
    name: str
    home: str
    pitch: str
    preset: str | None
    variants: tuple[tuple[str, str], ...] = ()
    command: str = ""


GAMES: tuple[Game, ...] = (
    Game("skitgubbe", N_("Skitgubbe"), N_("Sweden"),
         N_("Gather cards in two-card tricks, then shed them all: the last one holding cards "
            "is the skitgubbe."),
         "pagat",
         ((("two-player", N_("Two players")), ("catsatcards", N_("catsatcards'")),
           ("helmfrid", N_("Helmfrid's"))))),
    Game("goat", N_("The Goat Game / Flurst"), N_("American"),
         N_("Everyone plays to every trick, throw in cards you can spare, then race to get rid of "
            "your hand in runs: nobody wants to be the goat."),
         "goat",
         ((("howell", N_("Howell's")), ("catsatcards-flurst", N_("catsatcards' Flurst"))))),
    Game("mas", N_("Mas"), N_("Sweden"),
         N_("Trump is known from the start: beat the lead or pick it up, and do not be the mas."),
         "mas"),
    Game("mattis", N_("Mattis and Blåmattis"), N_("Norway"),
         N_("Everyone plays to each trick and ties are played again; out of cards early? "
            "You play on as Blåmattis."),
         "mattis",
         ((("atlanta", N_("Atlanta")),))),
    Game("koira", N_("Koira and Myllymatti"), N_("Finland"),
         N_("The Finnish cousins: gather cards in the tricks, then play them off until only "
            "the koira is left holding any."),
         "koira",
         ((("myllymatti", N_("Myllymatti")),))),
    Game("single-hand", N_("Single Hand"), N_("catsatcards.com"),
         N_("One quick phase with no tricks and no trump: cover the pile or pick it up, "
            "and the 2 is the highest card."),
         None, (), "skitgubbe play --rules single-hand"),
)
"""The lobby's games, in the order it lists them.  Every preset of
:data:`~skitgubbe.engine.variants.PRESETS` is the main preset or a variant of exactly one game.
Single Hand is its own game (:mod:`skitgubbe.singlehand`) that the web table cannot deal: it is
listed with its terminal command."""


def recommended_table(preset: str) -> dict[str, Any]:
    """The table "Play now" makes for ``preset``: ``{"players": n, "seats": [bot, ...]}`` with
    ``n`` the preset's usual seat count and :data:`PLAY_NOW_BOT` at every other seat (``n - 1``
    names, the body ``POST /api/rooms`` takes).  Raises ``KeyError`` for an unknown preset."""
    n = usual_players(PRESETS[preset])
    return {"players": n, "seats": [PLAY_NOW_BOT] * (n - 1)}


def _players(rules: Rules) -> Message:
    if rules.min_players == rules.max_players:
        return Message(N_("for {players}"), {"players": Plural("{n} player", "{n} players",
                                                                 rules.min_players)})
    return Message(N_("for {low} to {high} players"), {"low": rules.min_players, "high": rules.max_players})


_FIRST_PHASE = {
    FirstPhase.PAIRS: N_("two-card tricks in phase one"),
    FirstPhase.ALL_PLAY: N_("everyone plays to each trick in phase one"),
    FirstPhase.BEAT: N_("trump known from the deal, beat the lead to take a phase-one trick"),
}
_PLAYS = {
    Plays.SINGLE: N_("single cards in phase two"),
    Plays.RUN: N_("runs in phase two"),
    Plays.RUN3: N_("runs of three or more in phase two"),
    Plays.RUN_FROM_TWO: N_("single cards in phase two, and runs that start from the 2"),
}
_PICK_UP = {
    PickUp.TOP_CARD: N_("a seat that does not beat picks up the top play"),
    PickUp.TOP_RUN: N_("a seat that does not beat picks up the top card with the cards joined to it"),
    PickUp.BOTTOM_PLAY: N_("a seat that does not beat picks up the bottom play"),
    PickUp.LOWEST_RUN: N_("a seat that does not beat picks up the lowest run"),
    PickUp.LOWEST_CARD: N_("a seat that does not beat picks up the lowest card"),
}
_EMPTY_HAND = {
    EmptyHand.SAFE: N_("a seat with no cards when phase two starts is safe"),
    EmptyHand.BLAMATTIS: N_("Blåmattis: a seat with no cards when phase two starts plays on"),
    EmptyHand.LOSES: N_("a seat with no cards when phase two starts loses at once"),
}
_STOCK_END = {
    StockEnd.PLAY_ON: N_("when the stock is gone, phase one plays on"),
    StockEnd.STOP: N_("when the stock is gone, phase one ends after that trick"),
    StockEnd.STOP_UNLESS_TWO: N_("when the stock is gone, phase one ends unless every seat holds two cards"),
    StockEnd.SKIP_EMPTY: N_("when the stock is gone, the seats still holding cards play on until all are "
                            "played"),
}
_SECOND_LEAD = {
    SecondLead.TRUMP_DRAWER: N_("the seat that drew the trump card leads phase two"),
    SecondLead.LAST_TRICK: N_("the winner of the last trick leads phase two"),
}
_SWITCHES = {
    # option: (phrase when on, phrase when off)
    "trump_shown_when_drawn": (N_("the last stock card is shown face up when it is drawn"),
                               N_("the last stock card stays face down when it is drawn")),
    "sluffing": (N_("sluffing"), N_("no sluffing")),
    "sluff_settled_only": (N_("sluff only once the trick is settled"),
                           N_("sluff before the trick is settled too")),
    "sluff_once": (N_("one round of sluffing a trick"), N_("sluff as often as you like")),
    "sluff_after_play": (N_("sluff only after you have played to the trick"),
                         N_("sluff before you have played to the trick too")),
    "sluff_losing_only": (N_("sluff only ranks that are losing the trick"),
                          N_("sluff winning ranks too")),
    "sluff_last_rank": (N_("sluff only the rank just played"),
                        N_("sluff any rank already in the trick")),
    "sluff_guard_last_card": (N_("a seat due to play may not sluff its last card if it would beat or tie"),
                              N_("a seat due to play may sluff its last card")),
    "sluff_guard_last": (N_("a seat that can still win the trick sluffs only while the stock can replace "
                            "the card"),
                         N_("a seat that can still win the trick may sluff when the stock cannot replace "
                            "the card")),
    "sluff_guard_high": (N_("a seat yet to play may not sluff a card of the highest rank"),
                         N_("a seat yet to play may sluff a card of the highest rank")),
    "must_match": (N_("match if you can"), N_("no need to match")),
    "expose_leftover": (N_("cards left in hand after phase one are shown to everybody"),
                        N_("cards left in hand after phase one stay hidden")),
    "aces_low_first": (N_("aces low in phase one"), N_("aces high in phase one")),
    "bottom_aside": (N_("the bottom card is set aside to name the trump suit"),
                     N_("no card set aside to name the trump suit")),
    "show_trump_card": (N_("the trump card is shown when phase one ends"),
                        N_("only the trump suit is named when phase one ends")),
    "dreck_remainder_aside": (N_("dreck that does not share out evenly is set aside"),
                              N_("all of the dreck is shared out")),
}


def change_message(option: str, rules: Rules) -> Message:
    """The phrase (glossary words) for ``option`` as ``rules`` set it, e.g. ``"match if you can"``
    for ``must_match = true``; an option with no phrase of its own (none of the presets' variants
    has one: a test checks) reads ``"{option}: {value}"``."""
    value = rules.options()[option]
    if option in ("min_players", "max_players"):
        return _players(rules)
    if option in _SWITCHES:
        on, off = _SWITCHES[option]
        return Message(on if value else off)
    if option == "first_phase":
        return Message(_FIRST_PHASE[rules.first_phase])
    if option == "plays":
        return Message(_PLAYS[rules.plays])
    if option == "pick_up":
        return Message(_PICK_UP[rules.pick_up])
    if option == "empty_hand":
        return Message(_EMPTY_HAND[rules.empty_hand])
    if option == "stock_end":
        return Message(_STOCK_END[rules.stock_end])
    if option == "second_lead":
        return Message(_SECOND_LEAD[rules.second_lead])
    if option == "reserve":
        if not rules.reserve:
            return Message(N_("no avstickshög"))
        return Message(N_("{cards} face down in an avstickshög, drawn from after each kill"),
                       {"cards": Plural("{n} card", "{n} cards", rules.reserve)})
    if option == "max_equal_play":
        if rules.max_equal_play <= 1:
            return Message(N_("one card at a time in phase one"))
        return Message(N_("phase-one plays of up to {n} cards of one rank"), {"n": rules.max_equal_play})
    if option == "dreck_below":
        if rules.dreck_below == 0:
            return Message(N_("no dreck"))
        if rules.dreck_below < 0:
            return Message(N_("the dreck, for a seat with fewer cards than the trump card's rank"))
        return Message(N_("the dreck, for a seat with fewer than {n} cards after phase one"),
                       {"n": rules.dreck_below})
    if option == "dreck_trump_rank":
        if not rules.dreck_trump_rank:
            return Message(N_("no trump in the dreck"))
        return Message(N_("the dreck also holds the {rank} of trump"), {"rank": Rank(rules.dreck_trump_rank)})
    if option == "max_players_two_packs" and isinstance(value, int) and value > 0:
        return Message(N_("up to {n} players with two packs"), {"n": value})
    if option == "loser_title":
        return Message(N_("the loser is called {title}"), {"title": rules.loser_title})
    return Message(N_("{option}: {value}"), {"option": option, "value": str(value)})


def changes(main: Rules, variant: Rules) -> list[Message]:
    """What ``variant`` changes against ``main``: one :func:`change_message` per option whose
    value differs (the seat range once, however many of its two ends differ), in the order of
    :meth:`Rules.options`.  Empty when the two rules are the same."""
    out: list[Message] = []
    for option in rules_diff(main, variant):
        if option == "max_players" and "min_players" in rules_diff(main, variant):
            continue
        if option == "max_players_two_packs" and variant.max_players_two_packs == 0:
            continue  # nothing a player sees: two packs seat as many as one
        out.append(change_message(option, variant))
    return out


def feature_messages(rules: Rules) -> list[Message]:
    """What ``rules`` make of the game, as messages in the glossary's words: how phase-one tricks
    go, match if you can, sluffing, the dreck, the avstickshög, and phase two's plays."""
    if rules.first_phase is FirstPhase.PAIRS:
        parts = [Message(N_("two-card tricks"))]
    elif rules.first_phase is FirstPhase.ALL_PLAY:
        parts = [Message(N_("everyone plays to each trick"))]
    else:
        parts = [Message(N_("trump known from the deal, beat the lead to take a trick"))]
    if rules.aces_low_first:
        parts.append(Message(N_("aces low in phase one")))
    if rules.max_equal_play > 1:
        parts.append(Message(N_("plays of up to {n} equal cards"), {"n": rules.max_equal_play}))
    if rules.must_match:
        parts.append(Message(N_("match if you can")))
    if rules.sluffing:
        parts.append(Message(N_("sluffing")))
    if rules.reserve:
        parts.append(Message(N_("a face-down avstickshög")))
    if rules.dreck_below:
        parts.append(Message(N_("the dreck")))
    single = rules.plays is Plays.SINGLE
    parts.append(Message(N_("single cards in phase two") if single else N_("runs in phase two")))
    if rules.empty_hand is EmptyHand.BLAMATTIS:
        parts.append(Message(N_("Blåmattis")))
    return parts


def features(rules: Rules, lang: str = "en") -> str:
    """:func:`feature_messages` written in ``lang`` and joined with commas."""
    return ", ".join(render(m, lang) for m in feature_messages(rules))


def describe(name: str, rules: Rules, lang: str = "en") -> str:
    """The lobby's line for preset ``name`` in language ``lang``: its source, then :func:`features`."""
    source = SOURCES.get(name)
    found = features(rules, lang)
    if not source:
        return found
    line = gettext_in(lang, N_("{source}: {features}"))
    return line.format(source=gettext_in(lang, source), features=found)


DIFFICULTY_WORDS = {"easy": NC_("bot", "easy"), "medium": NC_("bot", "medium"), "hard": NC_("bot", "hard")}
"""The difficulties' words (message ids, context ``"bot"``), as the lobby and the seat names write them."""


def bot_label(name: str, lang: str = "en") -> str:
    """How the lobby names a bot in language ``lang``: a difficulty with the bot it is in the
    command line (``"easy (heuristic)"``; the difficulty translated), any other bot by its own name."""
    try:
        bot = make_bot(name, random.Random(0))
    except ValueError:
        return name
    engine = str(getattr(bot, "name", name))
    if engine == name:
        return name
    shown = gettext_in(lang, DIFFICULTY_WORDS[name], "bot") if name in DIFFICULTY_WORDS else name
    return gettext_in(lang, N_("{bot} ({engine})")).format(bot=shown, engine=engine)


def lobby_games(lang: str = "en") -> list[dict[str, Any]]:
    """:data:`GAMES` as ``GET /api/options`` sends them, written in ``lang``: per game ``key``,
    ``name``, ``home``, ``pitch``, ``web`` (the web table deals it), ``preset`` (main preset or
    ``null``), ``table`` (:func:`recommended_table`, or ``null``), ``command`` (the terminal's,
    for a game the web table does not deal, else ``""``) and ``variants``: per variant
    ``preset``, ``name``, ``table`` and ``changes`` (phrases, :func:`changes` written in ``lang``)."""
    out: list[dict[str, Any]] = []
    for g in GAMES:
        variants = []
        if g.preset is not None:
            main = PRESETS[g.preset]
            for preset, label in g.variants:
                variants.append({"preset": preset, "name": gettext_in(lang, label),
                                 "table": recommended_table(preset),
                                 "changes": [render(m, lang) for m in changes(main, PRESETS[preset])]})
        out.append({"key": g.key, "name": gettext_in(lang, g.name), "home": gettext_in(lang, g.home),
                    "pitch": gettext_in(lang, g.pitch), "web": g.preset is not None, "preset": g.preset,
                    "table": recommended_table(g.preset) if g.preset is not None else None,
                    "command": g.command, "variants": variants})
    return out
