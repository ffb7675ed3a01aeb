"""How to play the table's own rules, and the glossary a player meets, in the reader's language.

:func:`how_to_play` tells one :class:`~skitgubbe.engine.rules.Rules` in a player's words, as
sections (the aim, phase one, between the phases, phase two).  Every sentence that depends on an
option is chosen from that option's value here, so the text never says what the rules do not do;
each line carries a ``key`` naming the option (or options) it comes from, so a test can check that
a sentence appears exactly when its option is on.  Each section ends with a small worked picture:
a few cards (action notation, ``"QD"``) and a one-line caption.

:func:`glossary` gives the game words a player reads on the table (trick, sluff, kill, dreck, ...)
with a short definition each, both in the reader's language.

Every text is a message id marked with :func:`~skitgubbe.engine.i18n.N_` (Babel extracts them) and
rendered with :func:`~skitgubbe.engine.i18n.render`; the words come from docs/glossary.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.cards import card_name, parse_card
from ..engine.i18n import N_, Cards, Message, Plural, Rank, Suit, gettext_in, pick_language, render
from ..engine.rules import (
    AntiTrump,
    EmptyHand,
    FirstLead,
    FirstPhase,
    PickUp,
    Plays,
    Rules,
    SecondLead,
    StockEnd,
)
from ..engine.variants import UnknownVariantError, find_variant

__all__ = ["Line", "Section", "sections", "how_to_play", "GLOSSARY", "glossary", "loser_name",
           "reader_language", "preset_rules"]


@dataclass(frozen=True)
class Line:
    """One sentence of the rules: ``key`` names the option(s) it comes from (``"sluffing"``,
    ``"first_phase=pairs"``; ``""`` for a rule every preset shares) and ``message`` is its text."""

    key: str
    message: Message


@dataclass(frozen=True)
class Section:
    """One part of the rules: its id (``"aim"``, ``"phase-one"``, ``"between"``, ``"phase-two"``),
    title (a message id), lines, and its worked picture: ``cards`` (card numbers 0..51, shown in
    that order) and ``caption``."""

    id: str
    title: str
    lines: tuple[Line, ...]
    cards: tuple[int, ...]
    caption: Message


def _m(text: str, **args: Any) -> Message:
    return Message(text, args)


def _cards(*names: str) -> tuple[int, ...]:
    return tuple(parse_card(n) for n in names)


def _seq(*names: str) -> Message:
    """Cards written in the order given (a :class:`Cards` argument is written lowest first)."""
    return Message(
        " ".join(f"{{c{i}}}" for i in range(len(names))),
        {f"c{i}": Cards(_mask(n)) for i, n in enumerate(names)},
    )


def _mask(*names: str) -> int:
    mask = 0
    for c in _cards(*names):
        mask |= 1 << c
    return mask


def loser_name(rules: Rules) -> Message:
    """The loser's title as a message: ``"the goat"`` (translated: geten, geita, vuohi), else
    ``"the {title}"`` with the rules' ``loser_title`` (skitgubbe, mas, mattis, koira stay as
    they are)."""
    if rules.loser_title == "goat":
        return _m(N_("the goat"))
    return _m(N_("the {title}"), title=rules.loser_title)


def _aim(r: Rules) -> Section:
    lines = [
        Line(
            "",
            _m(
                N_(
                    "A deal has two phases. In phase one you win cards in tricks; in phase two you try "
                    "to get rid of every card you hold."
                )
            ),
        ),
        Line(
            "",
            _m(
                N_("There is no winner: the last seat left holding cards loses the deal and is {title}."),
                title=loser_name(r),
            ),
        ),
        Line(
            "",
            _m(
                N_(
                    "So in phase one you collect the cards you will have to shed later: high cards "
                    "and trumps are easy to get rid of, low cards are hard."
                )
            ),
        ),
        Line(
            "hand_size",
            _m(
                N_("Each seat is dealt {cards}; the rest of the pack is the stock, face down."),
                cards=Plural("{n} card", "{n} cards", r.hand_size),
            ),
        ),
    ]
    if r.reserve:
        lines.append(
            Line(
                "reserve",
                _m(
                    N_(
                        "{cards} more are set aside face down as a second pile, the "
                        "avstickshög, for phase two."
                    ),
                    cards=Plural("{n} card", "{n} cards", r.reserve),
                ),
            )
        )
    if r.decks == 2:
        lines.append(
            Line(
                "decks",
                _m(N_("Two packs are shuffled together: the two copies of a card count as the same card.")),
            )
        )
    if r.confusion:
        lines.append(
            Line(
                "confusion",
                _m(
                    N_(
                        "Three players hold two hands each, six seats in all; a "
                        "player's two hands are partners and see each other."
                    )
                ),
            )
        )
    if r.first_lead is FirstLead.LOWEST_CARD:
        lines.append(
            Line(
                "first_lead=lowest-card", _m(N_("The holder of the lowest card dealt leads the first trick."))
            )
        )
    else:
        lines.append(
            Line("first_lead=left-of-dealer", _m(N_("The seat to the dealer's left leads the first trick.")))
        )
    hand = ("4C", "9H", "KS", "2D", "JC", "6S")[: max(1, min(r.hand_size, 6))]
    return Section(
        "aim",
        N_("The aim"),
        tuple(lines),
        _cards(*hand),
        _m(N_("A starting hand of {cards}."), cards=Plural("{n} card", "{n} cards", len(hand))),
    )


def _tricks(r: Rules) -> list[Line]:
    if r.first_phase is FirstPhase.PAIRS:
        return [
            Line(
                "first_phase=pairs",
                _m(
                    N_(
                        "A trick is two cards: the leader plays one and the seat to its "
                        "left plays one. The higher rank takes both; suits do not "
                        "matter. The winner leads the next trick to the seat on its "
                        "left."
                    )
                ),
            ),
            Line(
                "first_phase=pairs",
                _m(
                    N_(
                        "Two cards of the same rank are a bounce: they stay on the "
                        "table and the same two seats play again."
                    )
                ),
            ),
        ]
    if r.first_phase is FirstPhase.BEAT:
        return [
            Line(
                "first_phase=beat",
                _m(
                    N_(
                        "The seat to the leader's left must beat the led card with a "
                        "higher card of its suit, or with a trump if the led card is not "
                        "a trump. If it beats, it wins the trick; if not, it picks the "
                        "card up. Then the seat to its left leads."
                    )
                ),
            ),
        ]
    lines = [
        Line(
            "first_phase=all-play",
            _m(
                N_(
                    "Every seat plays one card to each trick, clockwise from the "
                    "leader. The highest rank wins the trick; suits do not "
                    "matter. The winner leads the next trick."
                )
            ),
        )
    ]
    if r.tie_deal:
        lines.append(
            Line(
                "tie_deal",
                _m(
                    N_(
                        "A tie for the highest rank ends the trick: the tied seats take "
                        "back their cards and the other cards are dealt to them."
                    )
                ),
            )
        )
    else:
        lines.append(
            Line(
                "war",
                _m(
                    N_(
                        "A tie for the highest rank is a war: only the tied seats play "
                        "another round, and its winner takes every card of the trick."
                    )
                ),
            )
        )
    if r.ties_beat_unique:
        lines.append(
            Line(
                "ties_beat_unique",
                _m(N_("A rank played by two or more seats beats every rank played only once.")),
            )
        )
    if r.all_ties_replay:
        lines.append(
            Line(
                "all_ties_replay",
                _m(
                    N_(
                        "Every seat that played a tied rank plays again, not "
                        "only the seats of the highest tie."
                    )
                ),
            )
        )
    return lines


def _sluffing(r: Rules) -> list[Line]:
    if not r.sluffing:
        return []
    lines = [
        Line(
            "sluffing",
            _m(
                N_(
                    "You may sluff: throw into the trick a card of a rank already in it, in "
                    "turn or out of turn. It counts for nothing in the trick, the winner "
                    "takes it, and you draw a new card. It is how you get rid of low "
                    "cards."
                )
            ),
        )
    ]
    rules = (
        (
            "sluff_settled_only",
            r.sluff_settled_only,
            N_("You may sluff only once the trick's winner is known."),
        ),
        (
            "sluff_after_play",
            r.sluff_after_play,
            N_("You may sluff only after you have played to the trick."),
        ),
        (
            "sluff_once",
            r.sluff_once,
            N_("You sluff at most once in a trick: one card after another, until you do anything else."),
        ),
        (
            "sluff_losing_only",
            r.sluff_losing_only,
            N_("Only ranks that are losing the trick may be sluffed, never the rank heading it."),
        ),
        ("sluff_own_rank", r.sluff_own_rank, N_("You may sluff only cards of the rank you played yourself.")),
        (
            "sluff_last_rank",
            r.sluff_last_rank,
            N_("Only the rank of the card put into the trick last may be sluffed."),
        ),
        (
            "sluff_guard_high",
            r.sluff_guard_high,
            N_(
                "While you still have to play in a round, you may not sluff a card of that round's highest "
                "rank."
            ),
        ),
        (
            "sluff_guard_last",
            r.sluff_guard_last,
            N_("While you can still win the trick, you may sluff only if the stock can give you a new card."),
        ),
        (
            "sluff_guard_last_card",
            r.sluff_guard_last_card,
            N_(
                "While you still have to play, you may not sluff your last card if no new card would "
                "come and it would beat or tie."
            ),
        ),
        ("restaurant", r.restaurant, N_("The last stock card never replaces a sluff, only a play.")),
    )
    lines += [Line(key, _m(text)) for key, on, text in rules if on]
    return lines


def _trump_card(r: Rules) -> list[Line]:
    if r.first_phase is FirstPhase.BEAT:
        lines = [
            Line(
                "first_phase=beat",
                _m(
                    N_(
                        "The trump is turned up under the stock at the deal, so "
                        "everyone knows the trump suit from the start. It is drawn "
                        "last, face up, and phase one ends with that trick."
                    )
                ),
            )
        ]
        if r.store_three_trumps:
            lines.append(
                Line(
                    "store_three_trumps",
                    _m(
                        N_(
                            "A hand of exactly three trumps may be shown and "
                            "stored for phase two; you draw a new hand."
                        )
                    ),
                )
            )
        if r.exchange_two:
            lines.append(
                Line(
                    "exchange_two",
                    _m(
                        N_(
                            "Holding the 2 of trumps, you may exchange it for the "
                            "trump turned up under the stock."
                        )
                    ),
                )
            )
        return lines
    if r.bottom_aside:
        lines = [
            Line(
                "bottom_aside",
                _m(
                    N_(
                        "The bottom card of the stock is set aside after the deal: it will "
                        "name the trump suit, and it is out of play."
                    )
                ),
            )
        ]
    else:
        lines = [
            Line(
                "",
                _m(
                    N_(
                        "The last stock card is the trump card: whoever draws it puts it aside face "
                        "down, unseen, until phase one ends. Its suit will be trump."
                    )
                ),
            )
        ]
        if r.trump_shown_when_drawn:
            lines.append(
                Line(
                    "trump_shown_when_drawn",
                    _m(N_("The trump card is shown face up as soon as it is drawn.")),
                )
            )
    if r.exposed_bottom:
        lines.append(
            Line(
                "exposed_bottom",
                _m(
                    N_(
                        "The bottom stock card is shown face up after the deal, so "
                        "everyone knows the trump suit to come."
                    )
                ),
            )
        )
    return lines


def _stock_end(r: Rules) -> Line:
    text = {
        StockEnd.PLAY_ON: N_(
            "When the stock is empty, tricks go on with the cards in hand until a seat due "
            "to play has none: then phase one ends."
        ),
        StockEnd.STOP: N_("Phase one ends when the trick in which the last stock card was drawn is won."),
        StockEnd.STOP_UNLESS_TWO: N_(
            "Once the last stock card is drawn, a new trick starts only if every "
            "seat holds two cards; otherwise phase one ends."
        ),
        StockEnd.SKIP_EMPTY: N_(
            "When the stock is empty, the seats that still hold cards play on until "
            "every card has been played."
        ),
    }[r.stock_end]
    return Line("stock_end=" + r.stock_end.value, _m(text))


def _phase_one(r: Rules) -> Section:
    lines = _tricks(r)
    if r.aces_low_first:
        lines.append(Line("aces_low_first", _m(N_("In phase one aces are low: they rank below the 2s."))))
    if r.max_equal_play > 1:
        lines.append(
            Line(
                "max_equal_play",
                _m(N_("You may play up to {n} cards of one rank together."), n=r.max_equal_play),
            )
        )
    if r.first_phase is FirstPhase.BEAT:
        lines.append(
            Line(
                "hand_size",
                _m(N_("A seat holding fewer than {n} cards draws from the stock up to {n}."), n=r.hand_size),
            )
        )
    else:
        lines.append(
            Line(
                "",
                _m(
                    N_(
                        "The cards you win go face down to your pile; they join your hand when "
                        "phase one ends."
                    )
                ),
            )
        )
        lines.append(
            Line(
                "hand_size",
                _m(
                    N_(
                        "After each card you play from your hand you draw one from the "
                        "stock while it lasts, so you keep {n} cards."
                    ),
                    n=r.hand_size,
                ),
            )
        )
    if r.must_match:
        lines.append(
            Line(
                "must_match",
                _m(
                    N_(
                        "Match if you can: if you hold a card of the rank of the highest "
                        "card so far in the round, you must play one."
                    )
                ),
            )
        )
    if r.turn_from_stock:
        lines.append(
            Line(
                "turn_from_stock",
                _m(
                    N_(
                        "Instead of playing from your hand you may turn up the top "
                        "stock card and play it, while the stock holds more than "
                        "one card; no draw follows."
                    )
                ),
            )
        )
    lines += _sluffing(r)
    lines += _trump_card(r)
    lines.append(_stock_end(r))
    if r.incomplete_trick_dealt:
        lines.append(
            Line(
                "incomplete_trick_dealt",
                _m(N_("A trick left unfinished when phase one ends is shuffled and dealt round.")),
            )
        )
    elif r.stock_end is StockEnd.PLAY_ON:
        lines.append(
            Line(
                "stock_end=play-on",
                _m(
                    N_(
                        "A trick left unfinished when phase one ends is taken "
                        "back: each seat takes back the cards it put in."
                    )
                ),
            )
        )
    if r.first_phase is FirstPhase.PAIRS:
        cards, caption = (
            _cards("7H", "QD"),
            _m(
                N_("{low} against {high}: the {high} is higher, so its player takes both."),
                low=Cards(_mask("7H")),
                high=Cards(_mask("QD")),
            ),
        )
    elif r.first_phase is FirstPhase.BEAT:
        cards, caption = (
            _cards("9H", "QH"),
            _m(
                N_("{high} beats the led {low}: a higher card of the same suit."),
                low=Cards(_mask("9H")),
                high=Cards(_mask("QH")),
            ),
        )
    else:
        cards, caption = (
            _cards("7H", "9C", "QD"),
            _m(
                N_("{cards}: the {high} is highest, so its player takes all three."),
                cards=_seq("7H", "9C", "QD"),
                high=Cards(_mask("QD")),
            ),
        )
    return Section("phase-one", N_("Phase one"), tuple(lines), cards, caption)


def _between(r: Rules) -> Section:
    lines = [Line("", _m(N_("When phase one ends, each seat takes its pile into its hand.")))]
    if r.expose_leftover:
        lines.append(Line("expose_leftover", _m(N_("The cards still in hands are shown to everybody."))))
    if r.bottom_aside:
        lines.append(Line("bottom_aside", _m(N_("The card set aside names the trump suit."))))
    elif r.show_trump_card:
        lines.append(
            Line(
                "show_trump_card",
                _m(
                    N_(
                        "The trump card is turned face up and joins its holder's "
                        "hand: its suit is trump in phase two."
                    )
                ),
            )
        )
    else:
        lines.append(
            Line(
                "show_trump_card",
                _m(
                    N_(
                        "The holder of the trump card looks at it and names its "
                        "suit, which is trump; the card joins that hand."
                    )
                ),
            )
        )
    dreck = bool(r.dreck_below)
    if dreck:
        if r.dreck_below < 0:
            needy = _m(
                N_("A seat with fewer cards than the trump card's rank (an ace counts 14) gets the dreck.")
            )
        else:
            needy = _m(N_("A seat with fewer than {n} cards gets the dreck."), n=r.dreck_below)
        lines.append(Line("dreck_below", needy))
        if r.dreck_trump_rank:
            what = _m(
                N_(
                    "The dreck is every card from the 2 up to the {rank}, and the {trump} of trump: every "
                    "seat gives them up, and they are shared out among the seats that have too few."
                ),
                rank=Rank(r.dreck_max_rank),
                trump=Rank(r.dreck_trump_rank),
            )
        else:
            what = _m(
                N_(
                    "The dreck is every card from the 2 up to the {rank}: every seat gives them up, and "
                    "they are shared out among the seats that have too few."
                ),
                rank=Rank(r.dreck_max_rank),
            )
        lines.append(Line("dreck_max_rank", what))
        if r.dreck_remainder_aside:
            lines.append(
                Line(
                    "dreck_remainder_aside",
                    _m(
                        N_(
                            "Dreck cards that do not share out evenly leave "
                            "the game with the first trick of phase two."
                        )
                    ),
                )
            )
    text = {
        EmptyHand.SAFE: N_("A seat with no cards now is out, and safe."),
        EmptyHand.BLAMATTIS: N_(
            "A seat with no cards now still plays: at its first turn with cards on the "
            "table it must pick up the lowest card there."
        ),
        EmptyHand.LOSES: N_("A seat with no cards now loses at once."),
    }[r.empty_hand]
    lines.append(Line("empty_hand=" + r.empty_hand.value, _m(text)))
    if dreck and r.dreck_trump_rank:
        names = ["2C", "3D", "5S", _rank_char(r.dreck_max_rank) + "C", _rank_char(r.dreck_trump_rank) + "H"]
        names = list(dict.fromkeys(names))
        caption = _m(
            N_("With {suit} trump, these cards are dreck: {cards}."), suit=Suit(2), cards=_seq(*names)
        )
    elif dreck:
        names = list(dict.fromkeys(["2C", "3D", "4H", _rank_char(r.dreck_max_rank) + "S"]))
        caption = _m(N_("These cards are dreck: {cards}."), cards=_seq(*names))
    else:
        names = ["KH"]
        caption = _m(
            N_("The trump card {card}: {suit} are trump in phase two."), card=Cards(_mask("KH")), suit=Suit(2)
        )
    return Section("between", N_("Between the phases"), tuple(lines), _cards(*names), caption)


def _rank_char(rank: int) -> str:
    """The notation letter of rank ``rank`` (2..14): ``"5"``, ``"T"``, ``"A"``."""
    return card_name(rank - 2)[0]


def _phase_two(r: Rules) -> Section:
    lead = {
        SecondLead.TRUMP_DRAWER: N_("The seat that drew the trump card leads the first trick of phase two."),
        SecondLead.LAST_TRICK: N_(
            "The winner of the last trick of phase one leads the first trick of phase two."
        ),
    }[r.second_lead]
    lines = [
        Line("second_lead=" + r.second_lead.value, _m(lead)),
        Line(
            "",
            _m(
                N_(
                    "Now you get rid of your cards. In turn, each seat must beat the top play on the table, "
                    "or pick up."
                )
            ),
        ),
    ]
    if r.beat_any_suit:
        lines.append(
            Line(
                "beat_any_suit",
                _m(
                    N_(
                        "A card that is not a trump is beaten by any higher card that "
                        "is not a trump, whatever its suit, or by any trump; a trump "
                        "only by a higher trump."
                    )
                ),
            )
        )
    else:
        lines.append(
            Line(
                "beat_any_suit=false",
                _m(
                    N_(
                        "A card is beaten by a higher card of its own suit, or by "
                        "any trump if it is not a trump; a trump only by a "
                        "higher trump."
                    )
                ),
            )
        )
    if r.anti_trump is AntiTrump.SAME_COLOUR:
        lines.append(
            Line(
                "anti_trump=same-colour",
                _m(
                    N_(
                        "The other suit of the trump's colour is anti-trump: "
                        "trumps cannot beat it, only a higher card of its "
                        "own suit can."
                    )
                ),
            )
        )
    elif r.anti_trump is AntiTrump.ELECTRIC_CLUBS:
        lines.append(
            Line(
                "anti_trump=electric-clubs",
                _m(
                    N_(
                        "Clubs (spades when clubs are trump) are "
                        "anti-trump: trumps cannot beat them, only a "
                        "higher card of their own suit can."
                    )
                ),
            )
        )
    plays = {
        Plays.SINGLE: N_("Each play is one card."),
        Plays.RUN: N_(
            "A play is one card or a run: cards of one suit with touching ranks, such as 5, 6 "
            "and 7 of diamonds, played together."
        ),
        Plays.RUN3: N_(
            "A play is one card or a run of at least three cards of one suit with touching ranks."
        ),
        Plays.RUN_FROM_TWO: N_(
            "A play is one card or a run of one suit with touching ranks that starts with the 2."
        ),
    }[r.plays]
    lines.append(Line("plays=" + r.plays.value, _m(plays)))
    pick = {
        PickUp.TOP_CARD: N_(
            "If you do not beat, you pick up the top play; the next seat then faces the play beneath it."
        ),
        PickUp.TOP_RUN: N_(
            "If you do not beat, you pick up the top card together with every card below it "
            "that continues its run."
        ),
        PickUp.BOTTOM_PLAY: N_(
            "If you do not beat, you pick up the lowest play on the table, the first one."
        ),
        PickUp.LOWEST_RUN: N_(
            "If you do not beat, you pick up the lowest card on the table together with "
            "every card that continues its run."
        ),
        PickUp.LOWEST_CARD: N_("If you do not beat, you pick up only the lowest card on the table."),
    }[r.pick_up]
    lines.append(Line("pick_up=" + r.pick_up.value, _m(pick)))
    lines.append(Line("", _m(N_("You may always pick up, even when you could beat."))))
    if r.forced_pickup:
        lines.append(
            Line(
                "forced_pickup",
                _m(N_("Once a seat picks up, the seats after it must pick up too until the table is empty.")),
            )
        )
    lines.append(
        Line(
            "kill",
            _m(
                N_(
                    "When the table holds as many plays as there were seats holding cards when "
                    "the trick was led, the trick is killed: its cards leave the deal, and "
                    "the seat that killed it leads again."
                )
            ),
        )
    )
    extra = (
        (
            "complete_suit_ends",
            r.complete_suit_ends,
            N_("A play that completes all 13 cards of a suit on the table kills the trick too."),
        ),
        (
            "trump_ends_trick",
            r.trump_ends_trick,
            N_("A trump played on a card that is not a trump kills the trick too."),
        ),
        (
            "high_trump_kills_only",
            r.high_trump_kills_only,
            N_("The highest trump left in the game may only be played to kill a trick."),
        ),
    )
    lines += [Line(key, _m(text)) for key, on, text in extra if on]
    if r.reserve:
        lines.append(
            Line(
                "reserve",
                _m(
                    N_(
                        "After each kill both seats draw a card from the avstickshög, the "
                        "seat that played last first."
                    )
                ),
            )
        )
    lines.append(Line("", _m(N_("When you play your last card you are out: you are safe."))))
    lines.append(
        Line("loser_title", _m(N_("The last seat left holding cards is {title}."), title=loser_name(r)))
    )
    caption = _m(
        N_("With {suit} trump: {cards} on the table, each play beats the one below it."),
        suit=Suit(3),
        cards=_seq("8D", "JD", "3S"),
    )
    return Section("phase-two", N_("Phase two"), tuple(lines), _cards("8D", "JD", "3S"), caption)


def sections(rules: Rules) -> list[Section]:
    """The rules ``rules`` as the four sections :func:`how_to_play` writes, not yet rendered."""
    return [_aim(rules), _phase_one(rules), _between(rules), _phase_two(rules)]


def how_to_play(rules: Rules, lang: str = "en") -> dict[str, Any]:
    """How to play ``rules``, written in language ``lang`` (``en``, ``sv``, ``nb``, ``fi``; another
    code gives English), as JSON-ready data::

        {"rules": name, "lang": lang, "title": "How to play",
         "sections": [{"id": "aim", "title": ..., "lines": [{"key": option, "text": ...}, ...],
                       "picture": {"cards": ["4C", ...], "caption": ...}}, ...]}

    ``key`` names the option a sentence comes from (empty for rules every preset shares).  Card
    codes are in action notation (``"QD"``).  Never raises for a valid ``Rules``."""
    out = []
    for s in sections(rules):
        out.append(
            {
                "id": s.id,
                "title": gettext_in(lang, s.title),
                "lines": [{"key": line.key, "text": render(line.message, lang)} for line in s.lines],
                "picture": {"cards": [card_name(c) for c in s.cards], "caption": render(s.caption, lang)},
            }
        )
    return {"rules": rules.name, "lang": lang, "title": gettext_in(lang, N_("How to play")), "sections": out}


GLOSSARY: dict[str, tuple[str, str]] = {
    "trick": (
        N_("trick"),
        N_(
            "The cards played until one seat takes them (phase one), or the plays on the "
            "table until they are killed or picked up (phase two)."
        ),
    ),
    "lead": (N_("lead"), N_("Play the first card of a trick.")),
    "beat": (N_("beat"), N_("Phase two: put down a play higher than the top play on the table.")),
    "trump": (
        N_("trump"),
        N_("The suit of the trump card. In phase two a trump beats any card of another suit."),
    ),
    "stock": (N_("stock"), N_("The face-down cards left after the deal; you draw from it in phase one.")),
    "draw": (N_("draw"), N_("Take the top card of the stock into your hand.")),
    "turn up": (
        N_("turn up"),
        N_("Play the top stock card straight into the trick instead of a card from your hand."),
    ),
    "sluff": (
        N_("sluff"),
        N_(
            "Throw into a phase-one trick a card of a rank already in it. It does not "
            "count in the trick, and you draw a new card."
        ),
    ),
    "pass": (N_("pass"), N_("Say you are done sluffing for now.")),
    "pick up": (N_("pick up"), N_("Phase two: take cards from the table into your hand instead of beating.")),
    "kill": (
        N_("kill"),
        N_(
            "Phase two: the play that brings the table to as many plays as there were seats "
            "with cards. The cards leave the deal."
        ),
    ),
    "war": (N_("war"), N_("A tie for the highest rank in a trick: only the tied seats play again.")),
    "bounce": (N_("bounce"), N_("A tie in a two-card trick: both seats play again.")),
    "dreck": (N_("dreck"), N_("The low cards handed to the seats with too few cards when phase one ends.")),
    "pile": (
        N_("pile"),
        N_("The cards you have won in phase one, face down; they join your hand when phase one ends."),
    ),
    "trump card": (
        N_("trump card"),
        N_(
            "The last stock card: its suit is trump in phase two, and it joins "
            "the hand of the seat that drew it."
        ),
    ),
    "phase one": (N_("phase one"), N_("The first part of a deal: win cards in tricks.")),
    "phase two": (N_("phase two"), N_("The second part of a deal: get rid of your cards.")),
    "out": (N_("out"), N_("A seat with no cards left in phase two: it is safe.")),
    "run": (N_("run"), N_("Cards of one suit with touching ranks, played together as one play.")),
    "match": (N_("match"), N_("Play a card of the same rank as the highest card so far in the round.")),
    "avstickshög": (
        N_("avstickshög"),
        N_("Two seats only: cards set aside at the deal; after each kill both seats draw one."),
    ),
}
"""The game words a player meets on the table (docs/glossary.md's terms, in a player's words):
English term -> (the term's message id, its definition's message id)."""


def glossary(lang: str = "en") -> dict[str, str]:
    """The glossary in language ``lang``: ``{term in lang: definition in lang}``, one entry per
    :data:`GLOSSARY` word, plus the loser titles that need explaining (``"goat"`` and its
    translation).  A term the catalog does not translate is given in English."""
    out = {gettext_in(lang, term): gettext_in(lang, text) for term, text in GLOSSARY.values()}
    out[gettext_in(lang, N_("the goat"))] = gettext_in(
        lang, N_("The loser of the deal: the last seat left holding cards.")
    )
    return out


def reader_language(asked: str | None, accept: str | None) -> str:
    """The language to answer in: ``asked`` (a ``?lang=`` value) when it is a shipped language,
    else the first shipped one of the ``Accept-Language`` header ``accept``, else English.  Both are
    read only up to a bound (35 and 400 characters): they come from the client."""
    chosen = pick_language(asked[:35], "") if asked else ""
    return chosen or pick_language((accept or "")[:400])


def preset_rules(name: str) -> Rules | None:
    """The preset named ``name`` (or an alias of one), None for an unknown name."""
    try:
        return find_variant(name[:40])
    except UnknownVariantError:
        return None
