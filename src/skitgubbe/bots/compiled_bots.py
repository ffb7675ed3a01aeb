"""The bots in compiled code (``skitgubbe_native``, native/src/bots.hpp): whole deals with a
:class:`~skitgubbe.bots.randombot.RandomBot` or :class:`~skitgubbe.bots.heuristic.HeuristicBot`
at each seat, played in C++ with exactly the Python bots' decisions.

Each compiled bot reads only what its seat's :class:`~skitgubbe.engine.view.View` holds (the C++
code names the View field behind every read) and draws its random numbers from a C++ copy of
CPython's Mersenne Twister seeded as ``random.Random(seed)`` seeds a text, so a deal played here
is the Python engine's deal played by :func:`skitgubbe.batch.runner.play_out` with those bots,
action for action (tests/test_compiled_bots.py compares every action over seeded deals of every
compiled preset at every seat count).  The heuristic bot's weights are its class attributes,
handed to the compiled code at each call.

Only rules the compiled engine plays (:func:`skitgubbe.engine.compiled.unsupported`) and the bots
of :data:`COMPILED_BOTS`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from hashlib import sha512
from typing import NamedTuple

from ..engine.actions import Action, Kind
from ..engine.compiled import CARD_BITS, CompiledState, UnsupportedError, native_module, unsupported
from ..engine.native_options import COMPILED_PRESETS, member_values
from ..engine.rules import Rules
from ..engine.state import deck_from_seed, default_action_limit
from ..engine.variants import PRESETS
from ..engine.view import View
from ..engine.worlds import world_from_view
from .base import Bot
from .heuristic import HeuristicBot

__all__ = ["COMPILED_BOTS", "HEURISTIC_WEIGHTS", "PYTHON_FASTER", "BotDeal", "BotGame", "CompiledBot",
           "bot_deals", "compiled_bot_kind", "compiled_bots_unsupported", "compiled_deck"]

COMPILED_BOTS = ("random", "heuristic")
"""The bots the compiled engine plays, by :func:`~skitgubbe.bots.make_bot` name (index = the C++
``BotKind``)."""

PYTHON_FASTER = frozenset({"random", "heuristic"})
"""The bots of :data:`COMPILED_BOTS` whose Python decision costs less than a :class:`CompiledBot`'s
(building and loading a world from the view, about 200 microseconds a decision: the Python
heuristic bot takes 50 to 75, the random bot 1; benchmarks/view_bot.py): ``make_bot(...,
engine="auto")`` keeps the Python bot for them, and gives the :class:`CompiledBot` for every other
compiled bot."""

_ALIASES = {"easy": "heuristic"}

HEURISTIC_WEIGHTS = ("center", "needy_shift", "pwin_exp", "hold", "win_keeps_card", "sluff_margin",
                     "trump_power", "pick_penalty", "pick_floor", "kill_bonus", "out_bonus")
"""The :class:`~skitgubbe.bots.heuristic.HeuristicBot` attributes handed to the compiled code, in
the order of ``sg::HeuristicWeights``."""


class BotGame(NamedTuple):
    """One deal to play with compiled bots (:func:`bot_deals`).

    Attributes:
        bots: per seat, a name of :data:`COMPILED_BOTS` (or the alias ``easy``).
        deck: the 52 cards in dealing order (``State.new``'s ``deck``).
        dealer: the dealer's seat.
        seat_seeds: per seat, the text its bot's ``random.Random`` is seeded with.
        chance_seed: the text the chance ``random.Random`` (the dreck shuffle) is seeded with.
    """

    bots: Sequence[str]
    deck: Sequence[int]
    dealer: int
    seat_seeds: Sequence[str]
    chance_seed: str


class BotDeal(NamedTuple):
    """How one deal played by compiled bots ended.

    Attributes:
        loser: the losing seat, or None when the deal was abandoned (``State.loser``).
        abandoned: True when the action limit ended the deal.
        actions: the actions taken, chance actions included (``len(State.history)``).
        tricks: the tricks completed (``State.tricks``).
        out_order: the seats in the order they went out (``State.out_order``).
        decisions: per seat, the bot's decisions (its ``choose`` calls).
        seconds: per seat, the time its decisions took in C++ (a measurement).
        codes: with ``record``, every action's code in order (``kind << 56 | cards``; a chance
            action is ``DRECK << 56 | its cards``, its order not given), else empty.
    """

    loser: int | None
    abandoned: bool
    actions: int
    tricks: int
    out_order: tuple[int, ...]
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]
    codes: tuple[int, ...]


def compiled_bot_kind(name: str) -> int | None:
    """The C++ ``BotKind`` of the bot called ``name`` (case and spaces ignored, ``easy`` for
    ``heuristic``), or None when the compiled engine does not play that bot."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    return COMPILED_BOTS.index(key) if key in COMPILED_BOTS else None


def compiled_bots_unsupported(rules: Rules, players: int, bot_names: Sequence[str]) -> str | None:
    """Why the compiled engine cannot play ``rules`` at ``players`` seats with the bots
    ``bot_names`` (one line), or None when it can: :func:`~skitgubbe.engine.compiled.unsupported`'s
    reason, or the names of the bots it does not play."""
    reason = unsupported(rules, players)
    if reason is not None:
        return reason
    other = sorted({n.strip() for n in bot_names if compiled_bot_kind(n) is None})
    if other:
        return (f"the compiled engine plays the bots {', '.join(COMPILED_BOTS)} only, not "
                f"{', '.join(other)}")
    return None


def _seed_key(seed: str) -> bytes:
    """The big-endian bytes of the integer ``random.Random(seed)`` makes of the text ``seed``
    (Lib/random.py, ``Random.seed`` version 2: the UTF-8 text and its SHA-512 digest)."""
    text = seed.encode()
    return text + sha512(text).digest()


def compiled_deck(seed: str) -> tuple[int, ...]:
    """``deck_from_seed(seed)`` for the text ``seed`` (the full pack of 52 cards shuffled by
    ``random.Random(seed)``), shuffled in C++ by the copy of Python's generator; the same tuple,
    faster.  Falls back to :func:`~skitgubbe.engine.state.deck_from_seed` without the compiled module."""
    native = native_module()
    if native is None:
        return deck_from_seed(seed)
    return tuple(native.PythonRandom.from_key(_seed_key(seed)).shuffle(_FULL))


_FULL = list(range(52))

_PLANS: dict[tuple[int, int], tuple[Rules, str | None, dict[str, int] | None]] = {}
"""Per ``(id(rules), players)``: the rules object (kept, so its id is not reused), and the compiled
preset that plays them or the run-time policy's options (checked once: the check reads every option)."""


def _plan(rules: Rules, players: int) -> tuple[str | None, dict[str, int] | None]:
    """The compiled preset of ``rules`` or the run-time options; UnsupportedError if not played."""
    plan = _PLANS.get((id(rules), players))
    if plan is None or plan[0] is not rules:
        reason = unsupported(rules, players)
        if reason is not None or native_module() is None:
            raise UnsupportedError(reason)
        name = rules.name
        if name in COMPILED_PRESETS and rules == PRESETS[name]:  # the preset's own code
            plan = (rules, name, None)
        else:  # the run-time policy
            plan = (rules, None, member_values(rules))
        _PLANS[(id(rules), players)] = plan
    return plan[1], plan[2]


def bot_deals(rules: Rules, players: int, games: Sequence[BotGame], *, action_limit: int | None = None,
              record: bool = False) -> list[BotDeal]:
    """Play each of ``games`` (:class:`BotGame`) to its end in compiled code (one call, the GIL
    released), as :func:`skitgubbe.batch.runner.play_out` plays ``State.new(rules, players,
    dealer=game.dealer, deck=game.deck)`` with ``make_bot(game.bots[i],
    random.Random(game.seat_seeds[i]))`` at seat ``i`` and chance by
    ``random.Random(game.chance_seed)``: the same decisions, the same random numbers.

    ``action_limit``: abandon a deal after that many actions (default
    :func:`~skitgubbe.engine.state.default_action_limit`).  ``record``: also return every action's
    code (:class:`BotDeal`).  Returns one :class:`BotDeal` per game, in order.

    Raises :class:`~skitgubbe.engine.compiled.UnsupportedError` (a ``ValueError``) with
    :func:`compiled_bots_unsupported`'s reason when the compiled engine does not play the rules, the
    seat count or a bot (or is not installed); ``ValueError`` for a game whose bots or seeds are not
    one per seat, a deck that is not the 52 cards once each, a dealer seat that does not exist or an
    action limit below 1.
    """
    preset, options = _plan(rules, players)
    kinds: list[int] = []
    for game in games:
        for n in game.bots:
            kind = compiled_bot_kind(n)
            if kind is None:
                raise UnsupportedError(compiled_bots_unsupported(rules, players, game.bots))
            kinds.append(kind)
    limit = default_action_limit(rules) if action_limit is None else action_limit
    if limit < 1:
        raise ValueError(f"the action limit must be at least 1, not {limit}")
    decks: list[int] = []
    dealers: list[int] = []
    keys: list[bytes] = []
    for game in games:
        if len(game.bots) != players or len(game.seat_seeds) != players:
            raise ValueError(f"give one bot and one seed per seat ({players}), not {len(game.bots)} bots "
                             f"and {len(game.seat_seeds)} seeds")
        decks.extend(game.deck)
        dealers.append(game.dealer)
        keys.extend(_seed_key(s) for s in game.seat_seeds)
        keys.append(_seed_key(game.chance_seed))
    weights = [float(getattr(HeuristicBot, w)) for w in HEURISTIC_WEIGHTS]
    native = native_module()
    assert native is not None  # (_plan said yes)
    if preset is not None:
        played = native.bot_deals(preset, players, kinds, decks, dealers, keys, limit, weights, record)
    else:
        assert options is not None
        played = native.runtime_bot_deals(options, players, kinds, decks, dealers, keys, limit, weights,
                                          record)
    return [BotDeal(None if loser < 0 else loser, abandoned, actions, tricks, tuple(out), tuple(dec),
                    tuple(sec), tuple(codes))
            for loser, abandoned, actions, tricks, out, dec, sec, codes in played]


_HISTORY_TAIL = 128
"""How many of the public history's last entries a decision hands to the compiled code (its
``Recent::kKeep``: the heuristic bot's loop check reads fewer)."""


class CompiledBot:
    """A bot of :data:`COMPILED_BOTS` deciding in compiled code from a seat's
    :class:`~skitgubbe.engine.view.View`, for callers that step the Python engine (the server,
    ``evaluate`` with a Python agent): each :meth:`choose` builds a world consistent with the view
    (:func:`~skitgubbe.engine.worlds.world_from_view`), loads it
    (:meth:`CompiledState.from_state <skitgubbe.engine.compiled.CompiledState.from_state>`) and
    asks the compiled bot for ``view.seat``'s move, handing it ``rng``'s state and taking the new
    state back: the same decisions and the same random numbers as the Python bot of that name
    drawing from ``rng`` (tests/test_compiled_view_bot.py plays whole deals both ways).

    ``name``: a name of :data:`COMPILED_BOTS` (or the alias ``easy``).  ``weights``: the heuristic
    bot's weights by :data:`HEURISTIC_WEIGHTS` name, each missing one the
    :class:`~skitgubbe.bots.heuristic.HeuristicBot` class attribute (read by the heuristic bot
    only).  ``fallback``: the bot that decides where the compiled engine does not play the view's
    rules at its seat count (the Python bot of that name drawing from the same ``rng``,
    :func:`~skitgubbe.bots.make_bot` with ``engine="auto"``); without one, :meth:`choose` raises
    :class:`~skitgubbe.engine.compiled.UnsupportedError` there.  Raises ``ValueError`` for a name
    the compiled engine does not play or an unknown weight name.
    """

    def __init__(self, name: str, rng: random.Random, *, weights: Mapping[str, float] | None = None,
                 fallback: Bot | None = None) -> None:
        kind = compiled_bot_kind(name)
        if kind is None:
            raise ValueError(f"no compiled bot called {name!r}; compiled bots: {', '.join(COMPILED_BOTS)}")
        unknown = sorted(set(weights or ()) - set(HEURISTIC_WEIGHTS))
        if unknown:
            raise ValueError(f"unknown heuristic weights {', '.join(unknown)}; weights: "
                             f"{', '.join(HEURISTIC_WEIGHTS)}")
        given = dict(weights or {})
        self.name = COMPILED_BOTS[kind]
        self.kind = kind
        self.rng = rng
        self.weights = [float(given.get(w, getattr(HeuristicBot, w))) for w in HEURISTIC_WEIGHTS]
        self.fallback = fallback

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The action of ``legal`` (``view.seat``'s legal actions, non-empty) that the Python bot
        would choose from ``view``, ``rng`` advanced as the Python bot advances it.

        Where the compiled engine does not play the view's rules at its seat count, the
        ``fallback`` bot decides, or (without one) :class:`~skitgubbe.engine.compiled.UnsupportedError`
        is raised.  Raises ``ValueError`` for a view with no decision of its seat (the
        dreck deal, a finished deal) and ``RuntimeError`` if the compiled bot's action is not in
        ``legal`` (the two engines disagree: a bug)."""
        native = native_module()
        if native is None or not self._plays(view.rules, view.players):
            if self.fallback is not None:
                return self.fallback.choose(view, legal)
            raise UnsupportedError(unsupported(view.rules, view.players))
        world = world_from_view(view, events=False)
        core = CompiledState.from_state(world).core
        history = view.history
        n = len(history)
        # The loop check (heuristic.is_looping, Recent::looping) reads further back only when the
        # last action is a pick-up: else the last entry is all it needs.
        back = _HISTORY_TAIL if n and history[n - 1][1].kind == Kind.PICK_UP else 1
        tail = history[max(0, n - back):]
        seats = [s for s, _ in tail]
        codes = [a.kind << CARD_BITS | a.cards for _, a in tail]
        state = list(self.rng.getstate()[1])
        code, after = native.bot_decision(core, self.kind, view.seat, n, seats, codes, self.weights, state)
        self.rng.setstate((3, tuple(after), None))
        for action in legal:
            if action.kind << CARD_BITS | action.cards == code and not action.order:
                return action
        raise RuntimeError(f"the compiled {self.name} bot chose action code {code:#x}, not one of the "
                           f"{len(legal)} legal actions (the engines disagree)")

    def _plays(self, rules: Rules, players: int) -> bool:
        """Whether the compiled engine plays ``rules`` at ``players`` seats (checked once per rules
        object and seat count: the check reads every option)."""
        key = (id(rules), players)
        seen = self._checked.get(key)
        if seen is None or seen[0] is not rules:
            seen = (rules, unsupported(rules, players) is None)
            self._checked[key] = seen
        return seen[1]

    _checked: dict[tuple[int, int], tuple[Rules, bool]] = {}
