"""Named presets: :class:`~skitgubbe.engine.rules.Rules` instances found by name or alias.

``pagat``: Skitgubbe as the main section of pagat.com describes it (two-card
tricks in phase one, single cards in phase two).
``goat``: the Swedish Goat Game / Flurst as the "Skitgubbe (a.k.a. Flurst)"
page describes it (all play, match if you can, sluffing, dreck, runs).
``howell``: Dave Howell's Swedish Goat Game (the Goat Game with aces low in the
first part and a card set aside at the start to name the trump suit).
``myllymatti``: the Finnish ancestor as pagat.com describes it (like ``pagat``).
``mattis``: the Norwegian game on pagat.com (all play, ties replayed, no sluffing,
runs of at least two, pick up the lowest play, Blåmattis).
``helmfrid``: the version Sten Helmfrid describes on pagat.com ("All Players play to
Each Trick in Phase One": plays of one to three equal cards, one round of sluffing
once a trick is settled, the shit cards to seats with fewer than five, runs with
joined sequences picked up from the top).
``atlanta``: pagat.com's Atlanta variation of three-player Mattis (compulsory ties,
sluffing losing ranks once after playing, the dreck, joined runs picked up from the
bottom).
``two-player``: pagat.com's two-player game: ``pagat`` with an avstickshög of 12 cards
drawn from after each kill in phase two.
``mas``: pagat.com's "Mas with turned up trump" (Kortoxen): the trump turned up at the
deal, phase-one tricks beaten by suit and trump or picked up, hands kept at three, three
trumps stored, the 2 of trumps exchanged, then phase two as in ``pagat``.
``koira``: the Finnish game on pagat.com (all play, ties replayed, play on among the seats
still holding cards until every card is played, runs, pick up the lowest play).
``catsatcards``: Skitgubbe as catsatcards.com describes it (``pagat`` for three, the last
stock card shown face up when drawn).
``catsatcards-flurst``: catsatcards.com's Flurst (the Goat Game for four or five: only the
rank just played may be sluffed, the trump card shown, dreck that does not share out evenly
set aside with the first trick, the high card picked up with its downward run).
"""

from __future__ import annotations

from .rules import EmptyHand, FirstPhase, PickUp, Plays, Rules, SecondLead, StockEnd

__all__ = ["PRESETS", "RESEARCH_PRESETS", "ALIASES", "USUAL_PLAYERS", "find_variant", "usual_players",
           "UnknownVariantError", "rules_diff"]


class UnknownVariantError(ValueError):
    """Raised by :func:`find_variant` for a name that is neither a preset nor an alias."""


PRESETS: dict[str, Rules] = {
    "pagat": Rules(
        name="pagat",
        min_players=2,
        max_players=4,
        hand_size=3,
        first_phase=FirstPhase.PAIRS,
        turn_from_stock=True,
        must_match=False,
        sluffing=False,
        expose_leftover=True,
        show_trump_card=True,
        dreck_below=0,
        second_lead=SecondLead.TRUMP_DRAWER,
        plays=Plays.SINGLE,
        pick_up=PickUp.TOP_CARD,
    ),
    "goat": Rules(
        name="goat",
        loser_title="goat",
        min_players=3,
        max_players=8,
        hand_size=3,
        first_phase=FirstPhase.ALL_PLAY,
        turn_from_stock=True,
        must_match=True,
        sluffing=True,
        sluff_guard_high=True,
        sluff_guard_last=True,
        expose_leftover=False,
        show_trump_card=False,
        dreck_below=6,
        dreck_max_rank=5,
        dreck_trump_rank=6,
        second_lead=SecondLead.LAST_TRICK,
        plays=Plays.RUN,
        pick_up=PickUp.LOWEST_RUN,
    ),
}
PRESETS["howell"] = PRESETS["goat"].replace(
    name="howell", max_players=6, max_players_two_packs=8, aces_low_first=True, bottom_aside=True,
    show_trump_card=True,
)
PRESETS["myllymatti"] = PRESETS["pagat"].replace(name="myllymatti", loser_title="myllymatti")
PRESETS["mattis"] = Rules(
    name="mattis",
    loser_title="mattis",
    min_players=3,
    max_players=8,
    hand_size=3,
    first_phase=FirstPhase.ALL_PLAY,
    turn_from_stock=True,
    must_match=False,
    sluffing=False,
    expose_leftover=True,
    dreck_below=0,
    second_lead=SecondLead.TRUMP_DRAWER,
    empty_hand=EmptyHand.BLAMATTIS,
    plays=Plays.RUN,
    pick_up=PickUp.BOTTOM_PLAY,
)

PRESETS["atlanta"] = Rules(
    name="atlanta",
    loser_title="mattis",
    min_players=3,
    max_players=3,
    hand_size=3,
    first_phase=FirstPhase.ALL_PLAY,
    turn_from_stock=True,
    must_match=True,
    sluffing=True,
    sluff_after_play=True,
    sluff_once=True,
    sluff_losing_only=True,
    expose_leftover=True,
    dreck_below=6,
    dreck_max_rank=5,
    dreck_trump_rank=6,
    second_lead=SecondLead.TRUMP_DRAWER,
    plays=Plays.RUN,
    pick_up=PickUp.LOWEST_RUN,
)

PRESETS["helmfrid"] = Rules(
    name="helmfrid",
    min_players=2,
    max_players=6,
    hand_size=3,
    first_phase=FirstPhase.ALL_PLAY,
    max_equal_play=3,
    turn_from_stock=True,
    must_match=False,
    sluffing=True,
    sluff_settled_only=True,
    sluff_once=True,
    expose_leftover=False,
    dreck_below=5,
    dreck_max_rank=5,
    dreck_trump_rank=0,
    second_lead=SecondLead.TRUMP_DRAWER,
    plays=Plays.RUN,
    pick_up=PickUp.TOP_RUN,
)

PRESETS["two-player"] = PRESETS["pagat"].replace(name="two-player", min_players=2, max_players=2, reserve=12)

PRESETS["mas"] = Rules(
    name="mas",
    loser_title="mas",
    min_players=2,
    max_players=4,
    hand_size=3,
    first_phase=FirstPhase.BEAT,
    exposed_bottom=True,
    turn_from_stock=False,
    stock_end=StockEnd.STOP,
    store_three_trumps=True,
    exchange_two=True,
    expose_leftover=False,
    show_trump_card=True,
    second_lead=SecondLead.TRUMP_DRAWER,
    plays=Plays.SINGLE,
    pick_up=PickUp.TOP_CARD,
)

PRESETS["koira"] = Rules(
    name="koira",
    loser_title="koira",
    min_players=3,
    max_players=8,
    hand_size=3,
    first_phase=FirstPhase.ALL_PLAY,
    turn_from_stock=True,
    stock_end=StockEnd.SKIP_EMPTY,
    expose_leftover=True,
    dreck_below=0,
    second_lead=SecondLead.TRUMP_DRAWER,
    plays=Plays.RUN,
    pick_up=PickUp.BOTTOM_PLAY,
)

PRESETS["catsatcards"] = PRESETS["pagat"].replace(
    name="catsatcards", min_players=3, max_players=3, trump_shown_when_drawn=True,
)
PRESETS["catsatcards-flurst"] = PRESETS["goat"].replace(
    name="catsatcards-flurst", min_players=4, max_players=5, show_trump_card=True, sluff_last_rank=True,
    sluff_guard_last=False, sluff_guard_last_card=True,  # the text's second exception (ruling C4)
    dreck_remainder_aside=True, pick_up=PickUp.TOP_RUN,
)

ALIASES: dict[str, str] = {
    "skitgubbe": "pagat",
    "mjolnarmatte": "pagat",
    "flurst": "goat",
    "swedish-goat": "goat",
    "swedish-goat-game": "goat",
    "hurtenflurst": "howell",
    "norwegian": "mattis",
    "finnish": "myllymatti",
    "avstickshog": "two-player",
    "two": "two-player",
    "kortoxen": "mas",
    "dog": "koira",
}


RESEARCH_PRESETS: dict[str, Rules] = {
    "mini": PRESETS["pagat"].replace(
        name="mini", min_players=2, max_players=2, hand_size=1, lowest_rank=13, suits=2, exposed_bottom=True),
}
"""Presets that are research constructs, not from the rule texts (docs/presets/mini.md): found by
:func:`find_variant` like the others but kept out of :data:`PRESETS`, so that the lobby, the
catalogue of games and the loops over every preset (tests, the fingerprint) leave them out.

``mini``: ``pagat`` at two seats on a short pack of four cards (king and ace of clubs and
diamonds), hands of one, the trump card shown under the stock from the deal: a game small enough
for CFR (docs/research.md, "A small game to solve")."""


USUAL_PLAYERS: dict[str, int] = {
    "pagat": 3, "goat": 4, "howell": 4, "myllymatti": 3, "mattis": 4, "atlanta": 3, "helmfrid": 4,
    "two-player": 2, "mas": 3, "koira": 4, "catsatcards": 3, "catsatcards-flurst": 4,
}
"""The seat count each preset is usually played with (the default table of the CLI and the
benchmark)."""


def usual_players(rules: Rules) -> int:
    """The usual seat count for ``rules``: :data:`USUAL_PLAYERS` for a preset, else 3 (or 4),
    always within ``rules.min_players..max_players``; 6 under 3-player confusion (its only table)."""
    if rules.confusion:
        return 6
    n = USUAL_PLAYERS.get(rules.name, 3)
    return min(max(n, rules.min_players), rules.max_players)


def find_variant(name: str) -> Rules:
    """The preset called ``name`` (case-insensitive; aliases accepted), of :data:`PRESETS` or
    :data:`RESEARCH_PRESETS`.

    Raises :class:`UnknownVariantError` listing the names that exist.
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    try:
        return PRESETS[key] if key in PRESETS else RESEARCH_PRESETS[key]
    except KeyError:
        known = (", ".join(sorted(PRESETS)) + "; aliases: " + ", ".join(sorted(ALIASES))
                 + "; research presets: " + ", ".join(sorted(RESEARCH_PRESETS)))
        raise UnknownVariantError(f"no rules called {name!r}; presets: {known}") from None


def rules_diff(a: Rules, b: Rules) -> dict[str, tuple[object, object]]:
    """Options whose values differ between ``a`` and ``b``: ``{option: (a value, b value)}``."""
    oa, ob = a.options(), b.options()
    return {k: (oa[k], ob[k]) for k in oa if k != "name" and oa[k] != ob[k]}
