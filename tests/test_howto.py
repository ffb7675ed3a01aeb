"""How to play at the table (issue 29, item 2): the rules told from the table's own options, and the
glossary a player meets.  Each option-dependent sentence must appear exactly when its option is on,
for every preset and for house rules that turn on the options no preset uses."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from skitgubbe.engine.i18n import LANGUAGES
from skitgubbe.engine.rules import AntiTrump, EmptyHand, FirstPhase, PickUp, Plays, Rules, StockEnd
from skitgubbe.engine.variants import PRESETS
from skitgubbe.server.howto import GLOSSARY, glossary, how_to_play, preset_rules, reader_language

HOUSE = {
    "goat-strict": PRESETS["goat"].replace(sluff_once=True, sluff_after_play=True, sluff_own_rank=True,
                                           restaurant=True, forced_pickup=True,
                                           anti_trump=AntiTrump.SAME_COLOUR,
                                           beat_any_suit=True, high_trump_kills_only=True,
                                           complete_suit_ends=True, empty_hand=EmptyHand.LOSES),
    "mattis-ties": PRESETS["mattis"].replace(ties_beat_unique=True, all_ties_replay=True,
                                             stock_end=StockEnd.STOP_UNLESS_TWO, exposed_bottom=True,
                                             anti_trump=AntiTrump.ELECTRIC_CLUBS, plays=Plays.RUN3,
                                             pick_up=PickUp.LOWEST_CARD, trump_ends_trick=True),
    "koira-deal": PRESETS["koira"].replace(tie_deal=True, plays=Plays.RUN_FROM_TWO,
                                           stock_end=StockEnd.PLAY_ON,
                                           incomplete_trick_dealt=True, dreck_below=-1),
}
RULES = {**PRESETS, **HOUSE}

# option-dependent line key -> when it must appear
WHEN: dict[str, Callable[[Rules], bool]] = {
    "sluffing": lambda r: r.sluffing,
    "sluff_settled_only": lambda r: r.sluff_settled_only,
    "sluff_after_play": lambda r: r.sluff_after_play,
    "sluff_once": lambda r: r.sluff_once,
    "sluff_losing_only": lambda r: r.sluff_losing_only,
    "sluff_own_rank": lambda r: r.sluff_own_rank,
    "sluff_last_rank": lambda r: r.sluff_last_rank,
    "sluff_guard_high": lambda r: r.sluff_guard_high,
    "sluff_guard_last": lambda r: r.sluff_guard_last,
    "sluff_guard_last_card": lambda r: r.sluff_guard_last_card,
    "restaurant": lambda r: r.restaurant,
    "must_match": lambda r: r.must_match,
    "turn_from_stock": lambda r: r.turn_from_stock,
    "aces_low_first": lambda r: r.aces_low_first,
    "max_equal_play": lambda r: r.max_equal_play > 1,
    "ties_beat_unique": lambda r: r.ties_beat_unique,
    "all_ties_replay": lambda r: r.all_ties_replay,
    "tie_deal": lambda r: r.tie_deal,
    "war": lambda r: r.first_phase is FirstPhase.ALL_PLAY and not r.tie_deal,
    "first_phase=pairs": lambda r: r.first_phase is FirstPhase.PAIRS,
    "first_phase=all-play": lambda r: r.first_phase is FirstPhase.ALL_PLAY,
    "first_phase=beat": lambda r: r.first_phase is FirstPhase.BEAT,
    "store_three_trumps": lambda r: r.store_three_trumps,
    "exchange_two": lambda r: r.exchange_two,
    "exposed_bottom": lambda r: r.exposed_bottom and r.first_phase is not FirstPhase.BEAT,  # (Mas)
    "bottom_aside": lambda r: r.bottom_aside,
    "trump_shown_when_drawn": lambda r: r.trump_shown_when_drawn,
    "expose_leftover": lambda r: r.expose_leftover,
    "dreck_below": lambda r: r.dreck_below != 0,
    "dreck_max_rank": lambda r: r.dreck_below != 0,
    "dreck_remainder_aside": lambda r: r.dreck_remainder_aside,
    "incomplete_trick_dealt": lambda r: r.incomplete_trick_dealt,
    "forced_pickup": lambda r: r.forced_pickup,
    "complete_suit_ends": lambda r: r.complete_suit_ends,
    "trump_ends_trick": lambda r: r.trump_ends_trick,
    "high_trump_kills_only": lambda r: r.high_trump_kills_only,
    "beat_any_suit": lambda r: r.beat_any_suit,
    "beat_any_suit=false": lambda r: not r.beat_any_suit,
    "reserve": lambda r: r.reserve > 0,
    "decks": lambda r: r.decks == 2,
    "confusion": lambda r: r.confusion,
    "first_lead=lowest-card": lambda r: r.first_lead.value == "lowest-card",
    "first_lead=left-of-dealer": lambda r: r.first_lead.value == "left-of-dealer",
}
for enum_option in ("stock_end", "empty_hand", "second_lead", "plays", "pick_up", "anti_trump"):
    for member in type(getattr(Rules(), enum_option)):
        if enum_option == "anti_trump" and member is AntiTrump.NONE:
            continue
        WHEN[f"{enum_option}={member.value}"] = (
            lambda r, o=enum_option, m=member: getattr(r, o) is m)  # type: ignore[misc]


def keys_of(rules: Rules, lang: str = "en") -> set[str]:
    return {line["key"] for s in how_to_play(rules, lang)["sections"] for line in s["lines"]}


def texts_of(rules: Rules, lang: str = "en") -> list[str]:
    data = how_to_play(rules, lang)
    out = [data["title"]]
    for s in data["sections"]:
        out += [s["title"], s["picture"]["caption"], *(line["text"] for line in s["lines"])]
    return out


@pytest.mark.parametrize("name", sorted(RULES))
def test_each_option_sentence_appears_exactly_when_the_option_is_on(name: str) -> None:
    rules = RULES[name]
    keys = keys_of(rules)
    assert keys <= set(WHEN) | {"", "hand_size", "kill", "loser_title", "show_trump_card"}
    for key, on in WHEN.items():
        assert (key in keys) == on(rules), f"{name}: {key} should be {'in' if on(rules) else 'absent'}"


def test_every_option_sentence_is_met_somewhere() -> None:
    """The house rules above reach the sentences no preset uses: no sentence goes untested."""
    met = set().union(*(keys_of(r) for r in RULES.values()))
    assert {"sluffing", "sluff_once", "restaurant", "tie_deal", "ties_beat_unique", "anti_trump=same-colour",
            "anti_trump=electric-clubs", "pick_up=lowest-card", "plays=run-from-2", "empty_hand=loses",
            "stock_end=stop-unless-two", "incomplete_trick_dealt", "forced_pickup"} <= met


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(RULES))
def test_the_rules_render_in_every_language_with_every_field_filled(name: str, lang: str) -> None:
    data = how_to_play(RULES[name], lang)
    assert data["lang"] == lang and len(data["sections"]) == 4
    for text in texts_of(RULES[name], lang):
        assert text and "{" not in text and "}" not in text, text
    for s in data["sections"]:
        cards = s["picture"]["cards"]
        assert cards and all(re.fullmatch(r"[2-9TJQKA][CDHS]", c) for c in cards)


def test_the_sentences_follow_the_values() -> None:
    goat = " ".join(texts_of(PRESETS["goat"]))
    assert "fewer than 6 cards" in goat and "up to the 5, and the 6 of trump" in goat
    assert "is the goat." in goat
    assert "the skitgubbe." in " ".join(texts_of(PRESETS["pagat"]))
    assert "up to 3 cards of one rank" in " ".join(texts_of(PRESETS["helmfrid"]))
    assert "7♥ 9♣ Q♦: the Q♦ is highest" in goat  # the worked picture, in the cards' order
    two = " ".join(texts_of(PRESETS["two-player"]))
    assert "12 cards more are set aside" in two and "avstickshög" in two


PLAYER_TERMS = ("trick", "lead", "beat", "trump", "stock", "draw", "turn up", "sluff", "pick up", "kill",
                "war", "bounce", "dreck", "pile", "trump card", "phase one", "phase two", "out", "run",
                "match",
                "avstickshög")


def test_the_glossary_covers_every_term_the_rules_use() -> None:
    used = set()
    for rules in RULES.values():
        text = " ".join(texts_of(rules)).lower()
        used |= {term for term in PLAYER_TERMS if re.search(r"\b" + term + r"(s|es|ed|ing)?\b", text)}
    assert used >= {"trick", "sluff", "kill", "dreck", "war", "bounce", "turn up", "pick up", "trump card"}
    assert used <= set(GLOSSARY)
    english = glossary("en")
    for term in used:
        assert english[term]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_glossary_in_every_language(lang: str) -> None:
    words = glossary(lang)
    assert len(words) == len(GLOSSARY) + 1  # no two terms translate alike
    assert all(term and text and "{" not in text for term, text in words.items())


def test_language_and_preset_lookup() -> None:
    assert reader_language("fi", "sv-SE") == "fi"
    assert reader_language(None, "sv-SE,sv;q=0.9,en;q=0.8") == "sv"
    assert reader_language("xx", "nb-NO") == "nb" and reader_language(None, None) == "en"
    assert preset_rules("flurst") == PRESETS["goat"] and preset_rules("nope") is None
