"""The compiled engine (issue 20): the optional C++ module ``skitgubbe_native`` behind a thin wrapper.

The compiled engine plays these presets (:data:`~skitgubbe.engine.variants.PRESETS`), unchanged, at
the seat counts of :data:`COMPILED_PRESETS`, each by code compiled for its options, and any
combination of the options they use (:data:`COMPILED_OPTIONS`, below), and makes exactly the
decisions of the Python engine (:class:`~skitgubbe.engine.state.State`, the reference, with its
default sequential sluffing protocol): the same seat to act, the same legal actions in the same
order, the same events (kind, seat, cards), the same fingerprint and the same outcome for the same
deck order and the same dreck orders.  The presets and their rule sources:

- ``pagat``, 2 to 4 seats: pagat.com, Skitgubbe, "Play in the first phase" and "Play in the second
  phase".
- ``myllymatti``, 2 to 4 seats: pagat.com, Skitgubbe, "Myllymatti" (played as ``pagat``; only the
  loser's title differs, which the engine never reads).
- ``goat``, 3 to 8 seats: the Flurst page, "The First Part", "Sloughing", "Intermission" and "The
  Second Part".
- ``catsatcards``, 3 seats: catsatcards.com, "How to Play Skitgubbe" (``pagat`` for three, the
  last stock card shown face up as it is drawn: a ``trump-drawn`` event, the trump suit known
  from then on).
- ``two-player``, 2 seats: pagat.com, Skitgubbe, "Two Player Game" (``pagat`` with an
  avstickshög of 12 cards, one card each drawn from it after each kill in phase two:
  ``reserve-draw`` events).
- ``howell``, 3 to 6 seats, one pack: Dave Howell's Swedish Goat Game, "The First Part" (aces
  low in the first part, a card set aside at the deal that names trumps at the end of phase one
  and then leaves the game) on top of ``goat``.  Howell's double deck (two packs, 104 cards, 7
  or 8 seats) is not played: 104 cards do not fit the engine's 64-bit card sets.
- ``catsatcards-flurst``, 4 and 5 seats: catsatcards.com, "How to Play Skitgubbe", "Variations
  and Optional Rules", Flurst (on top of ``goat``: only the rank just put into the trick may be
  sluffed, the second sluffing exception in place of the last-trick one, the trump card shown,
  dreck that does not share out evenly killed with the first trick (a ``dreck-aside`` event), the
  top play picked up with its downward run; docs/rulings.md C2, C4).
- ``mattis``, 3 to 8 seats: pagat.com, Mattis (the rules of play, and "Blåmattis"): all play with
  ties replayed, no matching and no sluffing, the leftover hands shown, the trump card turned, no
  dreck, the trump drawer leads phase two, runs of two or more, the bottom play picked up, and a
  seat with no cards at the start of phase two a Blåmattis (a ``blamattis`` event) that stays in
  the game and at its first turn with cards on the table must pick up the lowest card there.
- ``atlanta``, 3 seats: pagat.com, Mattis, "Atlanta Variation" (phase one 3 for the sluffing):
  all play with compulsory ties (match if you can), sluffing only after playing to the trick, on
  one occasion a trick (one card after another, until that seat or another does anything else)
  and only of ranks losing the trick (during a war the tied rank until the war round has a card),
  without goat's two sluffing restrictions; the dreck, runs and the lowest run picked up with the
  plays that continue it, as in ``goat``; the leftover hands shown, the trump card turned, the
  trump drawer leads phase two.
- ``koira``, 3 to 8 seats: pagat.com, Koira (the rules of play; docs/rulings.md K1 and K2 for
  what the page leaves open): ``mattis`` without the Blåmattis (a seat with no cards at the start
  of phase two is out and safe), and once the stock is gone phase one plays on among the seats
  still holding cards: a trick's seats are those that hold cards, a tie that a tied seat cannot
  settle splits the trick among the tied seats' piles (a chance action, as the dreck is: ``split``
  events), and when at most one seat holds cards it takes them into its pile and phase one ends.
- ``helmfrid``, 2 to 6 seats: pagat.com, Skitgubbe, "All Players play to Each Trick in Phase One"
  (Sten Helmfrid's version): all play with ties replayed, a play of one card or of two or three
  cards of one rank (each replaced from the stock; the legal actions list the single cards, then
  rank by rank the plays of two and of three), no matching, sluffing only once the trick is
  settled and on one occasion a trick, without goat's two restrictions; the trump card turned, the
  dreck (2s to 5s, no trump) to seats with fewer than five cards, the trump drawer leads phase
  two, runs, and the top play picked up with the plays below that continue its run downwards.
- ``mas``, 2 to 4 seats: pagat.com, Skitgubbe, "Mas with turned up trump" (Kortoxen; docs/rulings.md
  MA1 to MA8 for what the page leaves open): the bottom card turned up at the deal names trumps and
  is drawn last, face up, into a hand; phase-one tricks of two cards, the follower beating the led
  card by a higher card of its suit or a trump (and taking the trick, leading the next) or picking
  it up (the seat to its left leads next); each seat draws back up to three after playing; a hand of
  exactly three trumps stored (a ``store`` event: into the pile, a new hand drawn) while the stock
  holds three cards, the 2 of trumps exchanged for the turned-up card under the stock (an
  ``exchange`` event); no turning up; phase one ends after the trick in which the stock runs out;
  then phase two as in ``pagat``.

Other rules, a preset with changed options among them, are played by the run-time policy
(``RuntimeRules`` in native/src/options.gen.hpp, the class ``RuntimeState``): the same C++ code, reading
the options from the rules at each deal instead of from compile-time constants, for every option
value in :data:`COMPILED_OPTIONS` (the options the presets use, with ``hand_size``,
``first_lead=lowest-card``, ``dreck_below=-1``, ``exposed_bottom`` outside Mas,
``stock_end=stop-unless-two``, ``empty_hand=loses``, ``plays=run-3`` and ``run-from-2`` and
``pick_up=lowest-card`` besides), in
any combination :class:`~skitgubbe.engine.rules.Rules` accepts, at 2 to 8 seats as the rules allow.
It is checked against the Python engine over randomly drawn combinations (:func:`draw_rules`,
tests/test_compiled_options.py, ``benchmarks/compiled_diff.py --random-options``).  The presets keep
their own compiled code, the fast path.

Rules with an option value outside :data:`COMPILED_OPTIONS` (``restaurant``, ``anti_trump``,
``forced_pickup``, ``confusion``, ``ties_beat_unique``, ... and two packs) are not supported:
:func:`unsupported` says why, naming them, :meth:`CompiledState.new` raises
:class:`UnsupportedError` with that reason, and :func:`new_state` uses the Python engine instead.

Random bots with Python's random numbers: :func:`random_bots_deal` and :func:`random_bots_deals`
play whole deals in compiled code exactly as :class:`~skitgubbe.bots.randombot.RandomBot` bots and
:meth:`State.chance_action <skitgubbe.engine.state.State.chance_action>` play them in the Python
engine, drawing from a C++ copy of CPython's Mersenne Twister (``random.Random``), so a
:func:`~skitgubbe.batch.simulate.simulate` run between random bots gets the Python engine's
results deal for deal.  (:func:`random_playouts` and :meth:`CompiledState.play_random` use the
module's own, faster generator instead.)

Any position: :meth:`CompiledState.from_state` turns a Python-engine
:class:`~skitgubbe.engine.state.State` of rules it plays into a compiled state at the same position,
in any phase (a determinized world of :mod:`skitgubbe.engine.worlds` among them, for a search that
plays its rollouts in C++), at a few microseconds a call.

The module is a separate package (``pip install ./native``, docs/performance.md); without it
:func:`available` is False and everything falls back to the Python engine.  This module imports only
the standard library, the engine's own modules and, when installed, ``skitgubbe_native``.

Shapes: card sets are ``int`` bitmasks (bit i = card i, :mod:`skitgubbe.engine.cards`); seats are
``0..players-1``; an *action code* is ``kind << 56 | cards``: the two integers of an
:class:`~skitgubbe.engine.actions.Action` (``Kind``, card set) in one (:func:`code_of`,
:func:`action_of`).  With two packs (cards 52..103, :data:`~skitgubbe.engine.cards.TWIN`) the
second pack's cards go above bit 64: ``kind << 56 | first | second << 64``, ``first`` the cards
0..51 of the set and ``second`` the second pack's cards numbered as their twins (``cards >> 52``),
so a code below ``2**64`` is exactly the one-pack code and an action without second-pack cards
has the same code with one pack or two.  A chance action (the dreck's order) has no code: it is
applied as an Action.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from hashlib import sha512
from itertools import chain
from types import ModuleType
from typing import NamedTuple

from .actions import CHANCE, Action, Kind
from .base import Event, GameOverError, IllegalActionError, Outcome
from .cards import TWIN, cards_in
from .i18n import N_, Message
from .native_options import COMPILED_PRESETS, POLICIES, compiled_options, member_values
from .rules import FirstPhase, Rules, StockEnd
from .state import State, deck_from_seed, default_action_limit, validate_deck
from .variants import PRESETS, rules_diff

try:
    import skitgubbe_native
except ImportError:  # the optional package is not installed: the Python engine is used
    skitgubbe_native = None  # type: ignore[assignment]

__all__ = [
    "CARD_BITS",
    "COMPILED_OPTIONS",
    "COMPILED_PRESETS",
    "CompiledState",
    "Disagreement",
    "Fingerprint",
    "Observer",
    "Playouts",
    "RandomDeal",
    "SECOND_PACK_SHIFT",
    "UnsupportedError",
    "action_of",
    "available",
    "check_deal",
    "compare_play",
    "draw_rules",
    "code_of",
    "fingerprint",
    "native_module",
    "new_state",
    "random_bots_deal",
    "random_bots_deals",
    "random_playouts",
    "replay_rules",
    "state_bytes",
    "unsupported",
]

CARD_BITS = 56
"""An action code is ``kind << CARD_BITS | cards``."""
SECOND_PACK_SHIFT = 64
"""With two packs an action code holds the second pack's cards (as their twins' bits 0..51)
from bit ``SECOND_PACK_SHIFT`` up: ``kind << CARD_BITS | first | second << SECOND_PACK_SHIFT``."""
_CARDS = (1 << CARD_BITS) - 1
_PACK = (1 << TWIN) - 1  # cards.FULL_DECK: bits 0..51

_CORES: dict[str, str] = {preset: policy.state_class for policy in POLICIES for preset in policy.presets}
"""The class of ``skitgubbe_native`` that plays each preset of :data:`COMPILED_PRESETS` (myllymatti
is pagat's: they differ only in the loser's title), from :data:`~skitgubbe.engine.native_options.POLICIES`."""

_BYTES: dict[str, str] = {policy.state_class: policy.bytes_name for policy in POLICIES}
_NAMES = ", ".join(COMPILED_PRESETS)

COMPILED_OPTIONS: dict[str, tuple[object, ...]] = compiled_options()
"""The options the compiled engine plays other than at their defaults, with the values it plays
(any combination of them, as :class:`Rules` allows it, but those :func:`unsupported` names): its
run-time policy (``RuntimeRules`` in native/src/options.gen.hpp) reads them from the rules at each deal.
``name``, ``loser_title``, ``min_players``, ``max_players`` and ``max_players_two_packs`` do not
change the play; every other option is played at its default only: ``restaurant``,
``sluff_own_rank``, ``ties_beat_unique``, ``forced_pickup``, ``complete_suit_ends``,
``trump_ends_trick``, ``anti_trump``, ``high_trump_kills_only``, ``tie_deal``,
``incomplete_trick_dealt``, ``confusion``, ``decks``, ``all_ties_replay`` and ``beat_any_suit``.
Besides the values the presets use, ``stock_end=stop-unless-two``, ``empty_hand=loses``,
``plays=run-3`` and ``run-from-2`` and ``pick_up=lowest-card`` are played (options of pagat.com's
variants that need a few lines of C++ each).  Derived from the option table
(:func:`skitgubbe.engine.native_options.compiled_options`): the options its members read."""

_NEUTRAL = frozenset({"name", "loser_title", "min_players", "max_players", "max_players_two_packs"})
"""Options that do not change the play (the seat count is checked on its own)."""

_ONE_PACK = (1 << 52) - 1
"""Every card of one pack (a card set): ``Trick.trick_ranks`` holds both packs' copies of a rank."""

_ACTIONS: dict[int, Action] = {}  # action code -> Action, filled as codes come back


class UnsupportedError(ValueError):
    """Raised by :meth:`CompiledState.new` for rules or a table the compiled engine does not play
    (or when it is not installed); the message is :func:`unsupported`'s reason."""


class Fingerprint(NamedTuple):
    """What both engines must agree on after every step (:func:`fingerprint`,
    :meth:`CompiledState.fingerprint`).

    Attributes:
        phase: a :class:`~skitgubbe.engine.base.Phase` constant.
        to_act: the seat to act (-2 once the deal is over).
        hands, piles, known: per seat (tuples of card sets): the hand, the phase-one pile, the cards
            publicly known to be in the hand.
        stock: how many cards the stock holds.
        trick: the cards in the phase-one trick (card set).
        table: the phase-two plays on the table, the lead first (tuple of card sets).
        killed: the cards out of play (card set).
        trump_card: the trump card (-1 until drawn); trump_holder: the seat that drew it (-1);
        trump_suit: 0..3, -1 until revealed.
        tricks: tricks completed in both phases.
        pending: the seats (seat set) still to answer in the open sluff window.
        dreck: the dreck (card set), 0 if none was collected.
        reserve: how many cards the avstickshög holds (0 but in two-player).
    """

    phase: int
    to_act: int
    hands: tuple[int, ...]
    piles: tuple[int, ...]
    known: tuple[int, ...]
    stock: int
    trick: int
    table: tuple[int, ...]
    killed: int
    trump_card: int
    trump_holder: int
    trump_suit: int
    tricks: int
    pending: int
    dreck: int
    reserve: int


class Playouts(NamedTuple):
    """Random deals played by :func:`random_playouts`: ``games`` deals, ``actions`` taken in all,
    ``abandoned`` deals (the action limit), ``losses`` per seat (a tuple, one count per seat)."""

    games: int
    actions: int
    abandoned: int
    losses: tuple[int, ...]


def available() -> bool:
    """True when the compiled module ``skitgubbe_native`` is installed and imports."""
    return skitgubbe_native is not None


def native_module() -> ModuleType | None:
    """The compiled module ``skitgubbe_native`` itself (its functions are typed in
    native/skitgubbe_native.pyi), or None when it is not installed."""
    return skitgubbe_native


def unsupported(rules: Rules, players: int) -> str | None:
    """Why the compiled engine cannot play ``rules`` at ``players`` seats (one line), or None when
    it can, once installed: the presets of :data:`COMPILED_PRESETS` at their seat counts (each by
    its own compiled code), and any other rules whose options all take values of
    :data:`COMPILED_OPTIONS` (by the run-time policy), at a seat count the rules allow.  The reason
    names the options (and values) it does not play, e.g. ``"the compiled engine does not play
    restaurant=True, anti_trump='same-colour' (the Python engine does)"``."""
    if skitgubbe_native is None:
        return "the compiled engine is not installed (pip install ./native, docs/performance.md)"
    name = _preset_of(rules)
    if name is not None:
        low, high = COMPILED_PRESETS[name]
        if not low <= players <= high:
            return f"{name} is for {low} to {high} players, not {players}"
        return None
    if rules.decks == 2:
        return ("the compiled engine plays one pack only: two packs (104 cards) do not fit its "
                "64-bit card sets")
    if rules.short:
        return (f"the compiled engine plays the full pack only, not a short pack (lowest_rank="
                f"{rules.lowest_rank}, suits={rules.suits}); the Python engine does")
    options = _native_options(rules)
    if isinstance(options, str):
        return options
    if not rules.min_players <= players <= rules.max_players:
        return f"these rules are for {rules.min_players} to {rules.max_players} players, not {players}"
    return None


def _native_options(rules: Rules) -> dict[str, int] | str:
    """The values of the run-time policy's members (``RuntimeRules`` in native/src/options.gen.hpp) that
    play ``rules``, or the reason it cannot (the options it does not play, by name and value)."""
    defaults = Rules()
    refused = []
    for option, value in rules.options().items():
        if option in _NEUTRAL:
            continue
        actual = getattr(rules, option)
        allowed = COMPILED_OPTIONS.get(option, (getattr(defaults, option),))
        if actual not in allowed:
            refused.append(f"{option}={value!r}")
    if refused:
        return f"the compiled engine does not play {', '.join(refused)} (the Python engine does)"
    return member_values(rules)  # (the option table: skitgubbe.engine.native_options.MEMBERS)


def _preset_of(rules: Rules) -> str | None:
    """The name of the compiled preset ``rules`` is, or None."""
    name = rules.name
    return name if name in COMPILED_PRESETS and rules == PRESETS[name] else None


def code_of(action: Action) -> int:
    """The action code of ``action`` (an ``int``): ``kind << 56 | cards`` for a card set of one
    pack (cards 0..51), ``kind << 56 | first | second << 64`` for one holding second-pack cards
    (52..103; see the module docstring), or -1 for an action no code names (not a Kind with a card
    set of cards 0..103, or a dreck order)."""
    kind, cards, order = action
    if (not isinstance(kind, int) or not 0 <= kind < len(Kind) or kind == Kind.DRECK
            or not isinstance(cards, int) or not 0 <= cards < 1 << 2 * TWIN or order):
        return -1
    second = cards >> TWIN
    if second:
        return kind << CARD_BITS | cards & _PACK | second << SECOND_PACK_SHIFT
    return kind << CARD_BITS | cards


def action_of(code: int) -> Action:
    """The :class:`~skitgubbe.engine.actions.Action` of action ``code`` (its card set of cards
    0..103, the second pack's from bit 64 of the code); raises ``ValueError`` for a number that
    is no action code (negative, a kind that is not a ``Kind`` or is ``DRECK``, or a bit set
    among bits 52..55 or above bit 115)."""
    action = _ACTIONS.get(code)
    if action is None:
        low = code & ((1 << SECOND_PACK_SHIFT) - 1)
        second = code >> SECOND_PACK_SHIFT
        kind, cards = low >> CARD_BITS, low & _CARDS
        if (code < 0 or not 0 <= kind < len(Kind) or kind == Kind.DRECK or cards >> TWIN
                or second >> TWIN):
            raise ValueError(f"{code} is not an action code")
        action = _ACTIONS[code] = Action(Kind(kind), cards | second << TWIN)
    return action


def fingerprint(state: State) -> Fingerprint:
    """The :class:`Fingerprint` of a Python-engine ``state`` (read through its public surface)."""
    return Fingerprint(state.phase, state.to_act, tuple(state.hands), tuple(state.piles),
                       tuple(state.known), len(state.stock), state.trick_cards, tuple(state.table),
                       state.killed, state.trump_card, state.trump_holder, state.trump_suit, state.tricks,
                       state.pending, state.dreck, len(state.reserve))


def state_bytes(preset: str | None = "pagat") -> int:
    """The size in bytes of one compiled state of ``preset`` (a name of :data:`COMPILED_PRESETS`,
    or None for the run-time policy that plays other rules; the C++ struct, without the Python
    object around it); 0 when the compiled engine is not installed.  Raises ``KeyError`` for
    another preset."""
    if skitgubbe_native is None:
        return 0
    size: int = getattr(skitgubbe_native, "RUNTIME_STATE_BYTES" if preset is None else _BYTES[_CORES[preset]])
    return size


def random_playouts(preset: str | Rules, players: int, games: int, seed: int) -> Playouts:
    """Play ``games`` deals of ``preset`` (a name of :data:`COMPILED_PRESETS`, or rules the compiled
    engine plays: :func:`unsupported`) at ``players`` seats with uniformly random legal actions and
    dreck orders, all in compiled code: each deck shuffled and each action drawn by the module's own
    generator (xoshiro256**) from ``seed`` (0 .. 2**64 - 1); dealer seat 0, the default action
    limit.  Not the Python engine's random numbers: the same ``seed`` gives the same games on every
    run of this module only.  Raises :class:`UnsupportedError` when the engine is not installed or
    does not play the rules, and ``ValueError`` for another preset name, a seat count outside the
    preset's or a negative ``games``."""
    if skitgubbe_native is None:
        raise UnsupportedError(unsupported(PRESETS["pagat"], players))
    if isinstance(preset, Rules):
        reason = unsupported(preset, players)
        if reason is not None:
            raise UnsupportedError(reason)
        name = _preset_of(preset)
        if name is None:
            options = _native_options(preset)
            assert not isinstance(options, str)
            played, actions, abandoned, losses = skitgubbe_native.runtime_playouts(options, players, games,
                                                                                  seed)
            return Playouts(played, actions, abandoned, tuple(losses))
        preset = name
    played, actions, abandoned, losses = skitgubbe_native.random_playouts(preset, players, games, seed)
    return Playouts(played, actions, abandoned, tuple(losses))


class RandomDeal(NamedTuple):
    """How one deal played by random bots ended (:func:`random_bots_deal`, :func:`random_bots_deals`).

    Attributes:
        loser: the losing seat, -1 when the deal was abandoned (``State.loser`` is None).
        actions: the actions taken, chance actions included (``len(State.history)``).
        tricks: the tricks completed in both phases (``State.tricks``).
        abandoned: True when the action limit ended the deal.
    """

    loser: int
    actions: int
    tricks: int
    abandoned: bool


def _random_state(rng: random.Random) -> list[int]:
    """The Mersenne Twister state of ``rng`` (625 integers: ``getstate()[1]``, 624 words and the
    index); ``ValueError`` for a generator whose state is not Python's version 3 (a subclass with
    another generator)."""
    state = rng.getstate()
    if state[0] != 3 or len(state[1]) != 625:
        raise ValueError(f"{type(rng).__name__} does not hold a Mersenne Twister state "
                         "(getstate() version 3)")
    return list(state[1])


def _seed_key(seed: str) -> bytes:
    """The big-endian bytes of the integer ``random.Random(seed).seed`` makes of the text ``seed``
    (Lib/random.py, ``Random.seed`` version 2: the UTF-8 text followed by its SHA-512 digest)."""
    text = seed.encode()
    return text + sha512(text).digest()


def _compiled_preset(rules: Rules, players: int) -> str | dict[str, int]:
    """The compiled preset that plays ``rules`` at ``players`` seats, or for other rules the options
    of the run-time policy; :class:`UnsupportedError` with :func:`unsupported`'s reason if the
    compiled engine does not play them."""
    reason = unsupported(rules, players)
    if reason is not None:
        raise UnsupportedError(reason)
    if _preset_of(rules) is not None:
        return rules.name
    options = _native_options(rules)
    assert not isinstance(options, str)  # (unsupported said yes)
    return options


def random_bots_deal(rules: Rules, players: int, deck_seed: int | str, dealer: int,
                     seat_rngs: Sequence[random.Random], chance_rng: random.Random, *,
                     action_limit: int | None = None) -> RandomDeal:
    """Play one deal of ``rules`` at ``players`` seats to its end, all in compiled code, exactly as
    :func:`skitgubbe.batch.runner.play_out` plays it in the Python engine with a
    :class:`~skitgubbe.bots.randombot.RandomBot` at every seat: the deck
    ``deck_from_seed(deck_seed)`` (:func:`~skitgubbe.engine.state.deck_from_seed`), ``dealer``
    dealing; at every decision (even with one legal action) seat ``i`` takes
    ``legal[seat_rngs[i].randrange(len(legal))]`` from the legal actions in the Python engine's
    order; at every chance action (a dreck deal, Koira's split) the pending cards in ascending order
    shuffled by ``chance_rng`` (:meth:`State.chance_action
    <skitgubbe.engine.state.State.chance_action>`).  The random numbers are Python's: the C++ code
    continues each generator from its ``getstate()`` with CPython's Mersenne Twister, ``randrange``
    and ``shuffle`` (Python 3.11 and later), so the result is the Python engine's, deal for deal.

    ``seat_rngs``: one ``random.Random`` per seat (read, not advanced: after the call they hold
    the state they had before).  ``action_limit``: abandon the deal after that many actions (by
    default :func:`~skitgubbe.engine.state.default_action_limit`).  The GIL is released while
    the deal is played.

    Raises :class:`UnsupportedError` (a ``ValueError``) with :func:`unsupported`'s reason for rules
    or a seat count the compiled engine does not play (or when it is not installed); ``ValueError``
    for a dealer seat that does not exist, a number of seat generators other than ``players``, an
    action limit below 1, or a generator that is not a Mersenne Twister (``getstate()`` version 3);
    ``TypeError`` for a ``deck_seed`` that is neither int nor str."""
    preset = _compiled_preset(rules, players)
    if not isinstance(deck_seed, (int, str)):
        raise TypeError(f"deck_seed must be an int or a str, not {type(deck_seed).__name__}")
    if len(seat_rngs) != players:
        raise ValueError(f"{len(seat_rngs)} seat generators for {players} seats")
    if not 0 <= dealer < players:
        raise ValueError(f"dealer seat {dealer} does not exist: seats are 0..{players - 1}")
    limit = default_action_limit(rules) if action_limit is None else action_limit
    if limit < 1:
        raise ValueError(f"the action limit must be at least 1, not {limit}")
    deck = list(deck_from_seed(deck_seed))
    seats = [_random_state(r) for r in seat_rngs]
    chance = _random_state(chance_rng)
    if isinstance(preset, dict):  # the run-time policy
        loser, actions, tricks, abandoned = skitgubbe_native.runtime_random_bots_deal(
            preset, players, deck, dealer, limit, seats, chance)
    else:
        loser, actions, tricks, abandoned = skitgubbe_native.random_bots_deal(
            preset, players, deck, dealer, limit, seats, chance)
    return RandomDeal(loser, actions, tricks, abandoned)


def random_bots_deals(rules: Rules, players: int, seed: int | str, start: int, count: int, *,
                      action_limit: int | None = None) -> list[RandomDeal]:
    """Play deals ``start .. start + count - 1`` of a :func:`~skitgubbe.batch.simulate.simulate`
    run with seed ``seed`` between random bots, all in compiled code (one call, the GIL released),
    seeded as that module's docstring says: deal ``g`` with the deck
    ``deck_from_seed(f"{seed}:{g}:deck")``, dealer ``g % players``, seat ``i``'s
    :class:`~skitgubbe.bots.randombot.RandomBot` drawing from ``random.Random(f"{seed}:{g}:{i}")``
    and chance from ``random.Random(f"{seed}:{g}:chance")``; each deal is then played as
    :func:`random_bots_deal` plays it, so the results are the Python engine's, deal for deal.  The
    generators are seeded in C++ as ``random.Random`` seeds a text (CPython's ``init_by_array`` of
    the text and its SHA-512 digest), which is much cheaper than copying Python's states.

    Returns one :class:`RandomDeal` per deal, in deal order.  ``action_limit`` as for
    :func:`random_bots_deal`.  Raises :class:`UnsupportedError` as :func:`random_bots_deal` does,
    ``ValueError`` for ``count < 0`` or an action limit below 1, and ``TypeError`` for a ``seed``
    that is neither int nor str."""
    preset = _compiled_preset(rules, players)
    if not isinstance(seed, (int, str)):
        raise TypeError(f"seed must be an int or a str, not {type(seed).__name__}")
    if count < 0:
        raise ValueError(f"count must be 0 or more, not {count}")
    limit = default_action_limit(rules) if action_limit is None else action_limit
    if limit < 1:
        raise ValueError(f"the action limit must be at least 1, not {limit}")
    keys: list[bytes] = []
    dealers: list[int] = []
    for g in range(start, start + count):
        keys.append(_seed_key(f"{seed}:{g}:deck"))
        keys.extend(_seed_key(f"{seed}:{g}:{i}") for i in range(players))
        keys.append(_seed_key(f"{seed}:{g}:chance"))
        dealers.append(g % players)
    if isinstance(preset, dict):  # the run-time policy
        played = skitgubbe_native.runtime_random_bots_deals(preset, players, dealers, limit, keys)
    else:
        played = skitgubbe_native.random_bots_deals(preset, players, dealers, limit, keys)
    return [RandomDeal(*deal) for deal in played]


class CompiledState:
    """One deal in the compiled engine (rules it plays, :func:`unsupported`): the Python
    :class:`~skitgubbe.engine.state.State`'s contract for what it covers (``to_act``,
    ``legal_actions``, ``apply``, ``chance_action``, ``is_over``, ``outcome``), with
    :meth:`fingerprint` to compare the two.  Build with :meth:`new`.  Mutable; :meth:`clone` copies it.

    Attributes (read-only): ``rules`` (the :class:`Rules`), ``preset`` (their name),
    ``players``, ``dealer`` (seat), ``deck`` (the 52 cards in dealing order, a tuple).  The state
    itself is a fixed-size C++ struct of :func:`state_bytes` bytes: card sets in 64-bit words, the
    stock as an array.
    """

    def __init__(self, core: skitgubbe_native.NativeState, rules: Rules, dealer: int,
                 deck: tuple[int, ...]) -> None:
        """Wrap ``core`` (use :meth:`new`)."""
        self.core = core
        self.rules = rules
        self.preset = rules.name
        self.players = core.players
        self.dealer = dealer
        self.deck = deck

    @classmethod
    def new(cls, rules: Rules, players: int, *, dealer: int = 0, deck: Sequence[int] | None = None,
            seed: int | str | None = None, leader: int | None = None,
            action_limit: int | None = None) -> CompiledState:
        """Deal a new game as :meth:`State.new <skitgubbe.engine.state.State.new>` deals it: the same
        arguments, the same deck order (``deck``, or shuffled from ``seed`` by
        :func:`~skitgubbe.engine.state.deck_from_seed`), the sequential sluffing protocol.

        Raises :class:`UnsupportedError` (a ``ValueError``) with :func:`unsupported`'s reason for
        rules or a seat count the compiled engine does not play, and ``ValueError`` for a seat out
        of range, a deck that is not the 52 cards once each, or neither/both of deck and seed."""
        reason = unsupported(rules, players)
        if reason is not None:
            raise UnsupportedError(reason)
        if (deck is None) == (seed is None):
            raise ValueError("give exactly one of deck (the card order) or seed")
        order = validate_deck(deck) if deck is not None else deck_from_seed(seed)  # type: ignore[arg-type]
        limit = default_action_limit(rules) if action_limit is None else action_limit
        for what, s in (("dealer", dealer), ("leader", leader)):
            if s is not None and not 0 <= s < players:
                raise ValueError(f"{what} seat {s} does not exist: seats are 0..{players - 1}")
        first = -1 if leader is None else leader
        core: skitgubbe_native.NativeState
        if _preset_of(rules) is not None:  # a preset's own compiled code (the fast path)
            make: type[skitgubbe_native.NativeState] = getattr(skitgubbe_native, _CORES[rules.name])
            core = make(players, list(order), dealer, first, limit)
        else:  # the run-time policy, its options read from the rules
            options = _native_options(rules)
            assert not isinstance(options, str)  # (unsupported said yes)
            core = skitgubbe_native.RuntimeState(options, players, list(order), dealer, first, limit)
        return cls(core, rules, dealer, order)

    @classmethod
    def from_state(cls, state: State) -> CompiledState:
        """A compiled state at the position of the Python-engine ``state``, in any phase: phase one
        at any point of a trick (mid-round, in a sluff window, during a war or bounce, Mas's lead
        and beat), a chance deal waiting (the dreck, Koira's split), phase two, or over.  From
        there it makes the Python engine's decisions: the same seat to act, legal actions,
        events, :class:`Fingerprint` and outcome for the same actions (the search bot loads each
        determinized world of :mod:`skitgubbe.engine.worlds` so, then plays it on in C++).

        Read from ``state`` (never changed): every field of its parts the compiled engine keeps
        (hands, piles, known cards, the stock and the avstickshög in order, the trump card, its
        holder and suit, the trick with its current round, sluff window and sluffing memory, the
        table, the cards killed, the dreck and the seats it goes to, who is out or a Blåmattis),
        the tricks, ``len(state.history)`` as the actions taken, the action limit, the loser and
        whether the deal was abandoned.  Not carried over: the history and the events (the
        compiled state starts with no event log), the earlier rounds of the current trick but for
        which seats played in them, the list of sluffs, :attr:`State.position`.  The result's
        ``dealer`` is ``state.dealer`` and its ``deck`` is ``state.deck`` as it is (a world's
        synthetic deck, or ``()`` for a written position): it is not a deal to replay from.

        Cost: about 2 to 4 microseconds a call, as much as a ``State.clone`` (measured with
        ``timeit`` on worlds of pagat, goat, koira and helmfrid): one flat list of integers built
        here (:func:`_load_fields`, about half of it), a copy of a compiled state kept per rules
        object and seat count, and one ``load`` into it in C++ (about 0.5 µs, the list's
        conversion included).

        Raises :class:`UnsupportedError` (a ``ValueError``) with :func:`unsupported`'s reason when
        the compiled engine does not play ``state.rules`` at its seat count (or is not installed);
        ``ValueError`` for a state of the live sluffing protocol (``State.new(live=True)``, with or
        without ``ask_every_seat``, which the compiled engine does not play; the sequential
        ``ask_every_seat=True`` is played) and for a state
        whose fields do not make a position the compiled engine can be at (the message says
        which, e.g. a card in two places)."""
        rules = state.rules
        n = state.players
        entry = _LOAD_TEMPLATES.get((id(rules), n))
        core = _load_template(rules, n) if entry is None or entry[0] is not rules else entry[1]
        if state.live:
            raise ValueError("the compiled engine plays the sequential sluffing protocol (with or without "
                             "ask_every_seat), not live=True")
        core = core.clone()
        core.load(_load_fields(state))
        return cls(core, rules, state.dealer, state.deck)

    def clone(self) -> CompiledState:
        """An independent copy."""
        return CompiledState(self.core.clone(), self.rules, self.dealer, self.deck)

    @property
    def to_act(self) -> int:
        """The seat whose decision is pending: the seat to play or the first seat of an open sluff
        window; ``CHANCE`` (-1) while the dreck waits to be dealt; -2 once the deal is over."""
        return self.core.to_act

    @property
    def phase(self) -> int:
        """The :class:`~skitgubbe.engine.base.Phase` constant (``Phase.ONE``, ``DRECK``, ``TWO`` or
        ``OVER``)."""
        return self.core.phase

    @property
    def is_over(self) -> bool:
        """True once the deal has ended (a loser is known or it was abandoned)."""
        return self.core.is_over

    @property
    def actions_taken(self) -> int:
        """How many actions have been taken, chance actions included (the length of the Python
        engine's history)."""
        return self.core.actions

    @property
    def outcome(self) -> Outcome | None:
        """The :class:`~skitgubbe.engine.base.Outcome` once the deal is over, else None."""
        core = self.core
        if not core.is_over:
            return None
        loser = core.loser
        return Outcome(None if loser < 0 else loser, tuple(core.out_order), core.abandoned)

    def legal_codes(self) -> list[int]:
        """The legal actions of the seat to act as action codes, in :meth:`legal_actions`' order
        (empty for a chance action)."""
        return self.core.legal_actions()

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, in the Python engine's order (plays lowest card
        first, runs by suit then length, then ``stock``, sluffs, ``pass`` or ``pick``); for
        ``CHANCE``, the one representative dreck action of :meth:`State.legal_actions
        <skitgubbe.engine.state.State.legal_actions>` (any order of the dreck is legal); empty once
        the deal is over.  Out-of-turn sluffs are not listed: the compiled engine asks the seats in
        sluff windows one by one (the sequential protocol)."""
        if self.core.to_act == CHANCE:
            deal = self.core.pending_deal
            return [Action(Kind.DRECK, deal, tuple(cards_in(deal)))]
        return [action_of(c) for c in self.core.legal_actions()]

    def chance_action(self, rng: random.Random) -> Action:
        """The chance action when :attr:`to_act` is ``CHANCE``: the dreck shuffled with ``rng``, as
        :meth:`State.chance_action <skitgubbe.engine.state.State.chance_action>` shuffles it (the
        same ``rng`` state gives the same order).  Raises ``ValueError`` when no chance action is
        pending."""
        if self.core.to_act != CHANCE:
            raise ValueError("no chance action is pending: the dreck is not waiting to be dealt")
        deal = self.core.pending_deal
        order = list(cards_in(deal))
        rng.shuffle(order)
        return Action(Kind.DRECK, deal, tuple(order))

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Take ``action`` for the seat to act (for ``CHANCE``: a dreck order listing each dreck card
        once) and return the events it caused, in order, as the Python engine reports them but with
        only ``kind``, ``seat`` and ``cards`` filled in (an event's ``seats`` and ``to`` keep their
        defaults).  Raises :class:`~skitgubbe.engine.base.GameOverError` once the deal is over and
        :class:`~skitgubbe.engine.base.IllegalActionError` for an action that is not legal now;
        either way the state is unchanged."""
        core = self.core
        seat = core.to_act
        if core.is_over:
            raise GameOverError(seat, action, Message(N_("the game is over")))
        if seat == CHANCE:
            if action.kind != Kind.DRECK:
                raise IllegalActionError(seat, action, Message(
                    N_("the dreck is being dealt: only the chance deal may happen now")))
            try:
                done = core.deal_chance(list(action.order))
            except ValueError as e:
                raise IllegalActionError(seat, action, str(e)) from None
        else:
            code = code_of(action)
            if code < 0 or code not in core.legal_actions():
                raise IllegalActionError(seat, action, "not among the legal actions (compiled engine)")
            done = core.apply(code)
        return tuple(Event(kind, s, cards) for kind, s, cards in done)

    def play_random(self, seed: int) -> int:
        """Play the deal to its end with uniformly random legal actions and dreck orders drawn by
        the module's own generator from ``seed`` (0 .. 2**64 - 1); returns the actions taken."""
        return self.core.play_random(seed)

    def fingerprint(self) -> Fingerprint:
        """The :class:`Fingerprint` of this state, comparable with :func:`fingerprint` of a Python
        state of the same deal."""
        core = self.core
        return Fingerprint(core.phase, core.to_act, tuple(core.hands), tuple(core.piles),
                           tuple(core.known), core.stock_count, core.trick_cards, tuple(core.table),
                           core.killed, core.trump_card, core.trump_holder, core.trump_suit, core.tricks,
                           core.pending, core.dreck, core.reserve_count)



_LOAD_TEMPLATES: dict[tuple[int, int], tuple[Rules, skitgubbe_native.NativeState]] = {}
"""Per ``(id(rules), players)``: the rules object and a compiled state of them that
:meth:`CompiledState.from_state` copies and loads (keyed by identity: hashing a Rules reads every
option; the rules object is kept, so its id is not reused while the entry lives)."""


def _load_template(rules: Rules, players: int) -> skitgubbe_native.NativeState:
    """A compiled state of ``rules`` at ``players`` seats for :meth:`CompiledState.from_state`
    (cached in :data:`_LOAD_TEMPLATES`); :class:`UnsupportedError` with :func:`unsupported`'s
    reason when the compiled engine does not play them."""
    reason = unsupported(rules, players)
    if reason is not None:
        raise UnsupportedError(reason)
    core = CompiledState.new(rules, players, deck=range(52)).core
    if len(_LOAD_TEMPLATES) >= 64:  # rules drawn one after another (tests): keep the cache small
        _LOAD_TEMPLATES.clear()
    _LOAD_TEMPLATES[id(rules), players] = (rules, core)
    return core


def _load_fields(state: State) -> list[int]:
    """The flat list of integers that the native ``load`` reads (``NativeState::load`` in
    native/src/module.cpp lays it out, field by field): ``state``'s position, read, not changed."""
    rules = state.rules
    trick = state.trick
    undealt = state.undealt
    seats = state.seats
    two = state.two
    played = 0
    if rules.sluff_after_play:  # the seats in the trick's rounds (Trick.sluffable)
        for rnd in trick.rounds:
            for s, _ in rnd:
                played |= 1 << s
    loser = state.loser
    stock, reserve, table, out = undealt.stock, undealt.reserve, two.table, seats.out_order
    rs, rc, needy = trick.round_seats, trick.round_cards, trick.chance_seats or state.needy
    fields = [
        state.phase, state.to_act, state.dealer, state.first_leader, len(state.history),
        state.action_limit, state.tricks, trick.pending, seats.blue, trick.leader, trick.round_pos,
        trick.round_high, trick.winner, trick.last_winner, trick.window_start, undealt.trump_card,
        undealt.trump_holder, undealt.trump_suit, two.kill_at, -1 if loser is None else loser,
        trick.last_put, state.abandoned, state.ask_all, trick.trick_cards, trick.trick_ranks & _ONE_PACK,
        state.dreck, two.killed, trick.sluffed, played, trick.occasion, trick.occasion_hand,
        trick.tie_rank, trick.chance_cards, len(trick.rounds),
        *seats.hands, *seats.piles, *seats.known, *trick.contributed,
        len(stock), *stock, len(reserve), *reserve, len(rs), *rs, len(rc), *chain.from_iterable(rc),
        len(table), *table, *two.table_owners, len(out), *out, len(needy), *needy,
    ]
    return fields


def new_state(rules: Rules, players: int, *, dealer: int = 0, deck: Sequence[int] | None = None,
              seed: int | str | None = None, leader: int | None = None,
              action_limit: int | None = None) -> CompiledState | State:
    """A new deal in the compiled engine where it plays ``rules`` at ``players`` seats
    (:func:`unsupported` is None), else in the Python engine (:meth:`State.new
    <skitgubbe.engine.state.State.new>`): the same arguments and the same deal either way.  Raises
    what ``State.new`` raises."""
    if unsupported(rules, players) is None:
        return CompiledState.new(rules, players, dealer=dealer, deck=deck, seed=seed, leader=leader,
                                 action_limit=action_limit)
    return State.new(rules, players, dealer=dealer, deck=deck, seed=seed, leader=leader,
                     action_limit=action_limit)


class Disagreement(NamedTuple):
    """Where the two engines parted in :func:`compare_play`: a replayable record.

    Attributes:
        preset: the rules' name; players: the seat count; seed: the seed of the deal and of the
            random actions (see :func:`check_deal`); dealer: the dealer's seat.
        actions: the actions taken before the disagreement, in notation (``"play 7H"``).
        what: what differs: ``"fingerprint"``, ``"legal actions"``, ``"events"`` or ``"outcome"``.
        python, compiled: the two values that differ (as text).
        rules: for rules other than an unchanged preset, the Python expression that builds them
            (:func:`replay_rules`); empty for a preset.
    """

    preset: str
    players: int
    seed: int
    dealer: int
    actions: tuple[str, ...]
    what: str
    python: str
    compiled: str
    rules: str = ""

    def __str__(self) -> str:
        return (f"{self.preset}, {self.players} seats, seed {self.seed}, dealer {self.dealer}: "
                f"{self.what} differ after {len(self.actions)} actions {list(self.actions)}\n"
                f"  python:   {self.python}\n"
                f"  compiled: {self.compiled}\n  replay: State.new("
                f"{self.rules or f'PRESETS[{self.preset!r}]'}, {self.players}, "
                f"seed={self.seed}, dealer={self.dealer}) then apply Action.parse(a) for each action "
                f"(a dreck order as written)")


Observer = Callable[[Action, tuple[Event, ...]], None]
"""Called by :func:`compare_play` after each step with the action and the Python engine's events
(to count what the compared deals reached)."""


def compare_play(python: State, compiled: CompiledState, rng: random.Random, *, seed: int = 0,
                 dealer: int = 0, observe: Observer | None = None) -> Disagreement | None:
    """Play ``python`` and ``compiled`` (two states of the same deal) to the end side by side, each
    action drawn by ``rng`` from the Python engine's legal actions (a dreck order by
    :meth:`State.chance_action <skitgubbe.engine.state.State.chance_action>`), comparing at every decision the
    :class:`Fingerprint` (which holds the seat to act), the legal actions (the same list, in order),
    then the events of each step and the outcome.  Returns None when they agree throughout, else
    the first :class:`Disagreement` (``seed`` and ``dealer`` are copied into it for the replay).
    ``observe``, if given, is called after every step with the action and the Python engine's events
    of that step (before they are compared)."""
    taken: list[str] = []

    def differ(what: str, a: object, b: object) -> Disagreement:
        rules = python.rules
        text = "" if PRESETS.get(rules.name) == rules else replay_rules(rules)
        return Disagreement(rules.name, python.players, seed, dealer, tuple(taken), what, repr(a), repr(b),
                            text)

    while True:
        fa, fb = fingerprint(python), compiled.fingerprint()
        if fa != fb:
            return differ("fingerprint", fa, fb)
        legal = python.legal_actions()
        other = compiled.legal_actions()
        if legal != other:
            return differ("legal actions", [str(a) for a in legal], [str(a) for a in other])
        if python.is_over or compiled.is_over:
            if python.outcome != compiled.outcome:
                return differ("outcome", python.outcome, compiled.outcome)
            return None
        if python.to_act == CHANCE:
            action = python.chance_action(rng)
        else:
            action = legal[int(rng.random() * len(legal))]
        done = python.apply(action, trusted=True)
        if observe is not None:
            observe(action, done)
        ea = [(e.kind, e.seat, e.cards) for e in done]
        eb = [(e.kind, e.seat, e.cards) for e in compiled.apply(action)]
        taken.append(str(action))
        if ea != eb:
            return differ("events", ea, eb)


def replay_rules(rules: Rules) -> str:
    """A Python expression that builds ``rules``: ``PRESETS['goat']`` for an unchanged preset, else the
    preset it changes least with the changes, ``PRESETS['goat'].with_options({'sluff_once': True})``
    (for a :class:`Disagreement`'s replay)."""
    if PRESETS.get(rules.name) == rules:
        return f"PRESETS[{rules.name!r}]"
    near = min(PRESETS, key=lambda k: len(rules_diff(PRESETS[k], rules)))
    changes = {k: v for k, (_, v) in sorted(rules_diff(PRESETS[near], rules).items())}
    return f"PRESETS[{near!r}].with_options({changes!r})"


_DRAWN_NUMBERS: dict[str, tuple[int, ...]] = {
    "dreck_below": (-1, 0, 4, 5, 6, 8, 10), "dreck_max_rank": (2, 5, 8, 14),
    "dreck_trump_rank": (0, 2, 6, 14), "reserve": (0, 6, 12, 30),
}
"""The values :func:`draw_rules` draws for these whole-number options (a few telling ones)."""

_MAS_NEEDS: dict[str, object] = {
    "exposed_bottom": True, "stock_end": StockEnd.STOP, "turn_from_stock": False, "sluffing": False,
    "must_match": False, "bottom_aside": False, "aces_low_first": False, "max_equal_play": 1,
    "trump_shown_when_drawn": False, "sluff_guard_high": False, "sluff_guard_last": False,
    "sluff_settled_only": False, "sluff_after_play": False, "sluff_once": False, "sluff_losing_only": False,
    "sluff_last_rank": False, "sluff_guard_last_card": False,
}
"""What ``first_phase=beat`` needs of the other options (Rules' checks)."""


def draw_rules(rng: random.Random, base: Rules, changes: int = 4) -> Rules:
    """Rules near ``base`` for differential tests: one to ``changes`` options of
    :data:`COMPILED_OPTIONS` set to values drawn by ``rng`` (each allowed value alike; a few telling
    ones for the whole numbers of :data:`_DRAWN_NUMBERS`), drawn again until :class:`Rules` accepts
    the combination.  Drawing ``first_phase=beat`` brings what Mas needs of the other options, an
    avstickshög (``reserve``) a two-seat table; otherwise a third of the draws widen the table to 2
    to 8 seats.  The result is named ``"custom"``."""
    options = sorted(COMPILED_OPTIONS)
    while True:
        chosen: dict[str, object] = {}
        for option in rng.sample(options, rng.randint(1, changes)):
            chosen[option] = rng.choice(_DRAWN_NUMBERS.get(option, COMPILED_OPTIONS[option]))
        if chosen.get("first_phase") is FirstPhase.BEAT:
            chosen = {**chosen, **_MAS_NEEDS}
        if chosen.get("reserve") or (base.reserve and "reserve" not in chosen):
            chosen.update(min_players=2, max_players=2)
        elif rng.random() < 1 / 3:
            chosen.update(min_players=2, max_players=8)
        try:
            return base.replace(**chosen)
        except ValueError:  # RulesError: a combination the rules reject
            continue


def check_deal(preset: str | Rules, players: int, seed: int, *, dealer: int = 0, leader: int | None = None,
               action_limit: int | None = None, observe: Observer | None = None) -> Disagreement | None:
    """Deal ``preset`` (a name of :data:`COMPILED_PRESETS`, or rules the compiled engine plays:
    :func:`unsupported`) at ``players`` seats from ``seed``
    (:func:`~skitgubbe.engine.state.deck_from_seed`) in both engines and play it out with
    :func:`compare_play` (``observe`` passed on), the actions drawn by ``random.Random(seed)``; None
    when the engines agree throughout, else the first :class:`Disagreement`.  Raises
    :class:`UnsupportedError` when the compiled engine does not play it (or is not installed),
    ``KeyError`` for an unknown preset."""
    rules = PRESETS[preset] if isinstance(preset, str) else preset
    python = State.new(rules, players, dealer=dealer, seed=seed, leader=leader, action_limit=action_limit)
    compiled = CompiledState.new(rules, players, dealer=dealer, deck=python.deck, leader=leader,
                                 action_limit=action_limit)
    return compare_play(python, compiled, random.Random(seed), seed=seed, dealer=dealer, observe=observe)
