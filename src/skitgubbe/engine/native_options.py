"""The option table of the compiled engine (issue 30 item 5): declared once, here, from the rules.

The compiled engine (native/, :mod:`skitgubbe.engine.compiled`) does not read a
:class:`~skitgubbe.engine.rules.Rules` object: it reads *members*, each a whole number or a flag
that is a function of the rules' options (``all_play = first_phase == "all-play"``).  This module
holds that mapping, :data:`MEMBERS` (one :class:`Member` per member, with the options it reads, the
values the state's arrays hold and the rule source), and the compiled policies, :data:`POLICIES`
(one :class:`Policy` per preset class of C++ code).  Everything else is derived from them:

- by ``native/tools/gen_options.py`` (``make generated``), which writes the C++ preset policies
  and ``RuntimeRules`` (native/src/options.gen.hpp, included by game.hpp), the bindings' member
  table and policy list (native/src/module_options.gen.hpp, included by module.cpp) and the part
  of the stub native/skitgubbe_native.pyi that lists them; the generated files are committed and
  tests/test_generated_options.py fails when one is stale;
- at import, by :mod:`skitgubbe.engine.compiled`: the presets and seat counts it plays
  (:data:`COMPILED_PRESETS`), the options it plays away from their defaults and their values
  (:data:`compiled_options`), the member values for a ruleset (:func:`member_values`).

A preset policy's members are compile-time constants: :func:`member_values` of its preset, so
that the policy and the run-time policy given the same rules play the same game.  Imports only the
engine's own modules.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import NamedTuple

from .rules import INT_RANGES, EmptyHand, FirstLead, FirstPhase, PickUp, Plays, Rules, SecondLead, StockEnd

__all__ = ["COMPILED_PRESETS", "MEMBERS", "POLICIES", "Member", "Policy", "compiled_options",
           "member_values"]


class Member(NamedTuple):
    """One member of the compiled rules (a ``static constexpr`` of each preset policy, a field of
    ``RuntimeRules`` in native/src/options.gen.hpp, an entry of the bindings' option table).

    Attributes:
        name: the member's C++ name, and its key in :func:`member_values`.
        kind: ``bool`` (a flag, 0 or 1) or ``int`` (a whole number).
        reads: the :class:`~skitgubbe.engine.rules.Rules` options it is a function of.
        of: the function: a ruleset to the member's value.
        source: one line for the generated C++ comment: what it means and the rule text it comes from.
        low, high: for ``int``, the values the compiled state holds (the bindings refuse others);
            ``(0, 1)`` for a flag.
    """

    name: str
    kind: type
    reads: tuple[str, ...]
    of: Callable[[Rules], int | bool]
    source: str
    low: int = 0
    high: int = 1


def _flag(option: str, source: str) -> Member:
    """A flag that is the boolean option of the same name."""
    return Member(option, bool, (option,), lambda r: bool(getattr(r, option)), source)


def _number(option: str, low: int, high: int, source: str) -> Member:
    """A whole number that is the option of the same name, held as ``low..high``."""
    return Member(option, int, (option,), lambda r: int(getattr(r, option)), source, low, high)


def _is(option: str, value: enum.Enum, name: str, source: str) -> Member:
    """A flag that says ``option`` is ``value``."""
    return Member(name, bool, (option,), lambda r: getattr(r, option) is value, source)


MEMBERS: tuple[Member, ...] = (
    _number("reserve", 0, 30, "the avstickshög's size, two seats (pagat.com, \"Two Player Game\")"),
    _number("max_equal_play", 1, 3, "phase-one plays of up to this many equal cards (pagat.com, \"All "
            "Players play to Each Trick\")"),
    _number("dreck_below", -1, 52, "the dreck to seats with fewer cards (Flurst: 6); 0 none; -1: the "
            "trump card's rank (pagat.com, \"Number of cards needed\")"),
    _number("dreck_max_rank", 2, 14, "the dreck is the 2s up to this rank (Flurst: 5)"),
    _number("dreck_trump_rank", 0, 14, "the dreck also holds the trump of this rank, 0 none (Flurst: 6)"),
    _number("hand_size", 1, 6, "cards dealt to each seat (and drawn up to in Mas)"),
    _flag("trump_shown_when_drawn", "the last stock card face up when drawn (catsatcards.com)"),
    _flag("aces_low_first", "aces rank 1 in phase one (Flurst, \"Aces low in first part\"; Howell)"),
    _flag("bottom_aside", "the bottom card set aside at the deal (Flurst, \"No bottom card\"; Howell)"),
    _flag("sluff_last_rank", "sluff only the rank just put in the trick (catsatcards.com, Flurst)"),
    _flag("sluff_guard_last_card", "catsatcards.com's second sluffing exception (ruling C4)"),
    _flag("dreck_remainder_aside", "dreck that does not share out: killed with the first trick "
          "(catsatcards.com, Flurst; ruling C2)"),
    _is("pick_up", PickUp.TOP_RUN, "pick_top_run", "pick_up = top-run (pagat.com, \"Pick up joined "
        "sequences\")"),
    _is("pick_up", PickUp.BOTTOM_PLAY, "pick_bottom_play", "pick_up = bottom-play (pagat.com, \"Pick up "
        "from the bottom\"; Mattis)"),
    _is("pick_up", PickUp.LOWEST_RUN, "pick_lowest_run", "pick_up = lowest-run (Flurst, \"eat it\")"),
    _flag("sluff_guard_high", "no sluffing the round's highest rank while due (Flurst restriction 1)"),
    _is("empty_hand", EmptyHand.BLAMATTIS, "blamattis", "empty_hand = blamattis (pagat.com, Mattis: "
        "\"Blåmattis\")"),
    _flag("sluff_after_play", "sluff only after playing to the trick (pagat.com, Atlanta variation)"),
    _flag("sluff_once", "one sluffing occasion a trick (pagat.com, Atlanta variation; Helmfrid)"),
    _flag("sluff_losing_only", "sluff only ranks losing the trick (pagat.com, Atlanta variation)"),
    _is("stock_end", StockEnd.SKIP_EMPTY, "skip_empty", "stock_end = skip-empty (pagat.com, Koira)"),
    _flag("sluff_settled_only", "sluff only once the trick is settled (pagat.com, \"All Players play to "
          "Each Trick\")"),
    _is("first_phase", FirstPhase.BEAT, "beat", "first_phase = beat (pagat.com, \"Mas with turned up "
        "trump\")"),
    _flag("turn_from_stock", "the stock's top card may be turned up and played (pagat.com Skitgubbe)"),
    _is("stock_end", StockEnd.STOP, "stock_stop", "stock_end = stop: phase one ends with the stock "
        "(pagat.com, \"Variants: end of phase one\"; Mas)"),
    _is("first_lead", FirstLead.LOWEST_CARD, "lowest_card_leads", "first_lead = lowest-card (pagat.com, "
        "\"Lowest card or loser leads\")"),
    _flag("store_three_trumps", "a hand of three trumps stored (pagat.com, Mas)"),
    _flag("exchange_two", "the 2 of trumps exchanged for the turned-up trump (pagat.com, Mas)"),
    _is("first_phase", FirstPhase.ALL_PLAY, "all_play", "first_phase = all-play (Flurst, \"Tricks\"; "
        "pagat.com, \"All Players play to Each Trick\"); else pairs"),
    _flag("must_match", "match if you can (Flurst)"),
    _flag("sluffing", "sluffing into the trick, replaced from the stock (Flurst, \"Sloughing\")"),
    _flag("sluff_guard_last", "no sluffing while in contention unless replaced (Flurst restriction 2)"),
    _flag("expose_leftover", "the hands left at the end of phase one shown (pagat.com Skitgubbe)"),
    # the trump card is shown at the end of phase one when the bottom card was exposed too
    Member("show_trump_card", bool, ("show_trump_card", "exposed_bottom"),
           lambda r: r.show_trump_card or r.exposed_bottom,
           "the trump card turned face up at the end of phase one (pagat.com), also when the bottom "
           "card was exposed (pagat.com, \"Exposed trump indicator\"); else its suit named (Flurst)"),
    _is("second_lead", SecondLead.TRUMP_DRAWER, "trump_drawer_leads", "second_lead = trump-drawer "
        "(pagat.com Skitgubbe); else last-trick (Flurst, \"Leading a trick\")"),
    Member("runs", bool, ("plays",), lambda r: r.plays is not Plays.SINGLE,
           "plays other than single: runs in phase two (Flurst, \"Cards that touch\"; pagat.com, "
           "\"Playing sequences in phase two\")"),
    _is("stock_end", StockEnd.STOP_UNLESS_TWO, "stop_unless_two", "stock_end = stop-unless-two "
        "(pagat.com, \"Variants: end of phase one\")"),
    _is("empty_hand", EmptyHand.LOSES, "empty_loses", "empty_hand = loses (pagat.com, Mattis variants)"),
    _is("pick_up", PickUp.LOWEST_CARD, "pick_lowest_card", "pick_up = lowest-card (pagat.com, Koira "
        "variants)"),
    Member("min_run", int, ("plays",), lambda r: 3 if r.plays is Plays.RUN3 else 2,
           "the shortest run of two or more cards: 3 under plays = run-3 (pagat.com, Mattis)", 2, 3),
    _is("plays", Plays.RUN_FROM_TWO, "run_from_two", "plays = run-from-2: runs start at the 2 (pagat.com, "
        "Koira variants)"),
)
"""Every member of the compiled rules, in ``RuntimeRules``' order (native/src/options.gen.hpp)."""


class Policy(NamedTuple):
    """One preset policy of compiled code (a struct of ``static constexpr`` members, its own
    ``Game<...>`` instance and bound class).

    Attributes:
        stem: the C++ and Python names' stem: ``PagatRules`` (the policy), ``PagatState`` (the
            bound class), ``PAGAT_STATE_BYTES`` (its size, a module attribute).
        presets: the presets of :data:`~skitgubbe.engine.variants.PRESETS` it plays, unchanged
            (the first gives the members' values; the others differ only in what the engine never
            reads, as ``myllymatti``'s loser's title).
        seats: the seat counts it plays, (fewest, most).
        about: the generated C++ comment: what the preset is, with its rule source.
    """

    stem: str
    presets: tuple[str, ...]
    seats: tuple[int, int]
    about: str

    @property
    def rules_class(self) -> str:
        """The C++ policy struct, e.g. ``PagatRules``."""
        return self.stem + "Rules"

    @property
    def state_class(self) -> str:
        """The bound class of ``skitgubbe_native``, e.g. ``PagatState``."""
        return self.stem + "State"

    @property
    def bytes_name(self) -> str:
        """The module attribute holding the state's size in bytes, e.g. ``CATSATCARDS_FLURST_STATE_BYTES``."""
        snake = "".join("_" + c if c.isupper() and i else c for i, c in enumerate(self.stem))
        return snake.upper() + "_STATE_BYTES"


POLICIES: tuple[Policy, ...] = (
    Policy("Pagat", ("pagat", "myllymatti"), (2, 4),
           "pagat.com, Skitgubbe, \"Play in the first phase\" and \"Play in the second phase\" (also "
           "\"Myllymatti\", which differs only in the loser's title): two-card tricks, no sluffing, single "
           "cards in phase two, the top card picked up."),
    Policy("Goat", ("goat",), (3, 8),
           "the Swedish Goat Game / Flurst page, \"The First Part\", \"Sloughing\", \"Intermission\" and "
           "\"The Second Part\": all play, match if you can, sluffing with both restrictions, the dreck, "
           "runs, the lowest run eaten."),
    Policy("Catsatcards", ("catsatcards",), (3, 3),
           "catsatcards.com, \"How to Play Skitgubbe\": pagat for three, the last stock card shown face up "
           "as it is drawn (stock.py Undealt.draw)."),
    Policy("TwoPlayer", ("two-player",), (2, 2),
           "pagat.com, Skitgubbe, \"Two Player Game\": pagat at two seats with an avstickshög of 12 cards "
           "set aside after the hands, one card each drawn from it after each kill in phase two (stock.py "
           "Undealt.draw_reserve)."),
    Policy("Howell", ("howell",), (3, 6),
           "Dave Howell's Swedish Goat Game, \"The First Part\", one pack: the goat game with aces low in "
           "the first part, the bottom card set aside at the deal to name trumps at the end of phase one "
           "(then out of play), the trump card shown (state.py State.new, phase_one.py "
           "Trick._end_phase_one)."),
    Policy("CatsatcardsFlurst", ("catsatcards-flurst",), (4, 5),
           "catsatcards.com, \"Variations and Optional Rules\", Flurst: the goat game for four or five with "
           "only the rank just put into the trick sluffable, the second sluffing exception in place of "
           "sluff_guard_last (ruling C4), the trump card shown, dreck that does not share out evenly "
           "killed with the first trick (ruling C2), and the top play picked up with its downward run "
           "(phase_one.py Trick.sluffable and _give_dreck, phase_two.py _take)."),
    Policy("Mattis", ("mattis",), (3, 8),
           "pagat.com, Mattis (with \"Blåmattis\"): all play with ties replayed, no matching and no "
           "sluffing, the leftover hands shown and the trump card turned, no dreck, the trump drawer leads "
           "phase two, runs of two or more, the bottom play picked up, and a seat with no cards at the "
           "start of phase two a Blåmattis that plays on and first picks up the lowest card on the table "
           "(phase_two.py Table.start, _lead_two, play and pick_up, seats.py next_active, in_game)."),
    Policy("Atlanta", ("atlanta",), (3, 3),
           "pagat.com, Mattis, \"Atlanta Variation\": all play with compulsory ties (match if you can), the "
           "dreck, runs, the lowest run picked up (goat's), with sluffing only after playing to the trick, "
           "on one occasion a trick and only of ranks losing it, without goat's two restrictions; the "
           "leftover hands shown, the trump card turned, the trump drawer leads phase two (phase_one.py "
           "Trick.sluffable and sluff)."),
    Policy("Koira", ("koira",), (3, 8),
           "pagat.com, Koira (rulings K1, K2): mattis without the Blåmattis (a seat with no cards at the "
           "start of phase two is safe), and once the stock is gone phase one plays on among the seats "
           "still holding cards: a trick's seats are those holding cards, a tie that a tied seat cannot "
           "settle splits the trick among the tied seats' piles (a chance action, `split` events), and "
           "when at most one seat holds cards it takes them into its pile and phase one ends (phase_one.py "
           "Trick.start, _advance_one, _next_trick, _split_trick, _last_holder_collects, give_chance)."),
    Policy("Helmfrid", ("helmfrid",), (2, 6),
           "pagat.com, Skitgubbe, \"All Players play to Each Trick in Phase One\" (Sten Helmfrid's "
           "version): all play, plays of one to three cards of one rank in phase one (each replaced from "
           "the stock), no matching, one sluffing occasion a trick and only once the trick is settled, "
           "without goat's two restrictions, the trump card turned, the dreck (2s to 5s, no trump) to seats "
           "with fewer than five, the trump drawer leads phase two, runs and the top play picked up with "
           "its downward run (phase_one.py Trick.legal, play and sluffable; phase_two.py _take)."),
    Policy("Mas", ("mas",), (2, 4),
           "pagat.com, Skitgubbe, \"Mas with turned up trump\" (rulings MA1 to MA8): the bottom card turned "
           "up at the deal names trumps (and is drawn last, into the hand, face up); phase-one tricks of "
           "two seats, the follower beating the led card by suit or trump (and winning the trick) or "
           "picking it up (the seat to its left leads next); hands drawn up to three after each play; a "
           "hand of three trumps stored into the pile (a new hand drawn), the 2 of trumps exchanged for the "
           "turned-up card; phase one ends after the trick in which the stock runs out; then phase two as "
           "in pagat (phase_one.py Trick._legal_beat, _play_beat, act_beat, _next_trick; stock.py "
           "Undealt.draw, draw_up; state.py State._init_phase_one)."),
)
"""The preset policies of compiled code, in the order the module binds them."""

COMPILED_PRESETS: dict[str, tuple[int, int]] = {
    preset: policy.seats for policy in POLICIES for preset in policy.presets
}
"""The presets the compiled engine plays, unchanged, with the seat counts (fewest, most)."""


def member_values(rules: Rules) -> dict[str, int]:
    """Every member of :data:`MEMBERS` for ``rules``: ``{name: value}``, a flag as 0 or 1 (what
    ``RuntimeState`` and the ``runtime_*`` functions of ``skitgubbe_native`` take).  Does not check
    that the compiled engine plays ``rules`` (:func:`skitgubbe.engine.compiled.unsupported` does)."""
    return {m.name: int(m.of(rules)) for m in MEMBERS}


def _values_of(option: str, members: list[Member]) -> tuple[object, ...]:
    """The values of ``option`` the members reading it can hold: every value of an enum or a flag,
    the whole numbers of ``INT_RANGES`` within each member's ``low..high``."""
    default = getattr(Rules(), option)
    if isinstance(default, enum.Enum):
        return tuple(type(default))
    if isinstance(default, bool):
        return (False, True)
    low = max(m.low for m in members)
    high = min(m.high for m in members)
    return tuple(v for a, b in INT_RANGES[option] for v in range(a, b + 1) if low <= v <= high)


def compiled_options() -> dict[str, tuple[object, ...]]:
    """The options that some member reads, with the values the compiled engine plays (every value
    of an enum or a flag, a whole number within what its member holds), in the order of the rules'
    fields: :data:`skitgubbe.engine.compiled.COMPILED_OPTIONS`.  Every other option is played at its
    default only."""
    readers: dict[str, list[Member]] = {}
    for m in MEMBERS:
        for option in m.reads:
            readers.setdefault(option, []).append(m)
    return {option: _values_of(option, readers[option]) for option in Rules().options() if option in readers}
