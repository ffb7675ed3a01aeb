"""The OpenSpiel game ``python_skitgubbe``: the engine as an OpenSpiel Python game, in the shape of
OpenSpiel's ``kuhn_poker.py`` (a Game, a State delegating to the engine, an Observer).

Importing this module registers the game (it needs the ``openspiel`` extra: ``open_spiel`` and
``numpy``)::

    import pyspiel
    import skitgubbe.adapters.openspiel  # registers python_skitgubbe
    game = pyspiel.load_game("python_skitgubbe(rules=goat,players=4)")

Parameters: ``rules`` (a preset name or alias, default ``pagat``), ``players`` (default 3, within
the preset's range), ``max_turns`` (the turn cap, default :data:`DEFAULT_MAX_TURNS`),
``auto_forced`` and ``compact_actions`` (both ``False``).  docs/research.md, "OpenSpiel", is the
full description; in short:

* **Actions** are the ids of :mod:`skitgubbe.adapters.encoding` (551), sorted; with
  ``compact_actions`` indexes ``k`` into the preset's compact space (:attr:`SkitgubbeGame.action_ids`,
  ``encoding.rules_action_ids``).  **Chance outcomes** are card ids 0..51.
* **Chance** is the engine's explicit-chance mode, :class:`skitgubbe.engine.chance.ChanceState`:
  every dealt card, the bottom card under ``bottom_aside``/``exposed_bottom``, every card a step
  takes from the stock or the reserve and every card of a chance deal (the dreck, Koira's split,
  an unfinished trick dealt round) is a node, uniform over the cards it may be; who sees each
  card is its :class:`~skitgubbe.engine.chance.Slot`'s ``to``.
* **Sluff windows** ask every seat holding cards (``State.new(..., ask_every_seat=True)``), so
  who acts never depends on hidden cards.  ``auto_forced=True`` takes every decision with a
  single legal action itself (not in ``history()``; counted in ``max_turns``): *this shows who
  could sluff through the turn order*, for a learner that reads only its own information state
  at its own turns.
* **Returns** are terminal: -1 for the loser, ``+1/(players-1)`` for the others, 0 for all when
  the deal is abandoned after ``max_turns`` decisions (:func:`skitgubbe.adapters.shared.rewards`).
* **Observers** (:class:`SkitgubbeObserver`): the information state (the seat's whole history,
  hidden cards as ``??``, then its observation; tensor ``INFO_SIZE``), the observation
  (``encoding.observation`` of the seat's view), the seat's hand, the public observer (the same
  for every player, absolute seats) and the all-private one (every hand).
* **Resampling**: :meth:`SkitgubbeState.resample_from_infostate` uses the engine's world sampler.

In open_spiel 2.0.2 the C++ ``MCTSBot.step`` and ``ISMCTSBot.step`` crash on any Python game (a
GIL error); use the Python ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` instead (give it
no-op ``restart_at`` and ``inform_action`` to use it with ``evaluate_bots``).

``python -m skitgubbe.adapters.openspiel [--games N] [--all-seats] [--only P,...]`` measures random-play
speed (:func:`main`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np  # type: ignore[import-not-found, unused-ignore]
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from ..engine.actions import CHANCE, Action
from ..engine.base import PUBLIC, Phase
from ..engine.cards import card_name, format_cards
from ..engine.chance import ChanceState
from ..engine.rules import Rules
from ..engine.variants import find_variant
from ..engine.view import SPECTATOR, View
from . import encoding
from .shared import advance, rewards

__all__ = ["GAME_NAME", "DEFAULT_MAX_TURNS", "INFO_SIZE", "SkitgubbeGame", "SkitgubbeState",
           "SkitgubbeObserver"]

GAME_NAME = "python_skitgubbe"
"""The short name the game is registered under."""

DEFAULT_MAX_TURNS = 10_000
"""Default turn cap: decisions (player actions) after which a deal is abandoned.  Uniformly random
play takes 127 to 1606 decisions on average depending on the preset and seats, and the longest
random deal seen took 5555 (goat, 8 seats; docs/research.md); the cap only stops endless
phase-two cycles."""

INFO_SIZE = encoding.OBS_SIZE + 8 + 52 + 2 * 8 * 52
"""Length of the information state tensor (2544): the observation (``encoding.OBS_SIZE``),
then ``seat`` (8, one-hot, not rotated), ``held`` (52) and per seat, rotated, ``put`` (8x52) and
``played`` (8x52)."""

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
assert _CHANCE == CHANCE
_CARD = tuple(card_name(c) for c in range(52))
_PARAMS: dict[str, Any] = {"rules": "pagat", "players": 3, "max_turns": DEFAULT_MAX_TURNS,
                           "auto_forced": False, "compact_actions": False}
_FULL_IDS: tuple[int, ...] = tuple(range(encoding.NUM_ACTIONS))
_RESAMPLE_TRIES = 200
"""Worlds a resample tries before it returns the real one (:meth:`SkitgubbeState.resample_from_infostate`)."""
# what a chance card is for, as action_to_string says it (Slot kinds of skitgubbe.engine.chance)
_CHANCE_TEXT = {"deal": "deal {card} to seat {seat}", "bottom": "deal {card} to the bottom of the stock",
                "draw": "seat {seat} draws {card}", "stock": "seat {seat} turns up {card}",
                "trump-aside": "seat {seat} sets aside {card} as the trump card",
                "trump-drawn": "seat {seat} draws {card} face up, the last stock card",
                "reserve-draw": "seat {seat} draws {card} from the reserve",
                "dreck-share": "dreck {card} to seat {seat}", "dreck-aside": "dreck {card} set aside",
                "split": "split {card} to seat {seat}'s pile",
                "trick-dealt": "deal {card} of the unfinished trick to seat {seat}"}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME, long_name="Python Skitgubbe",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8, min_num_players=2,
    provides_information_state_string=True, provides_information_state_tensor=True,
    provides_observation_string=True, provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


@functools.cache
def _compact(rules: Rules) -> tuple[tuple[int, ...], dict[int, int]]:
    """The compact action space of ``rules``: ``(action_ids, index of each full id)``."""
    ids = encoding.rules_action_ids(rules)
    return ids, {a: k for k, a in enumerate(ids)}


class SkitgubbeGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_skitgubbe`` (see the module docstring).

    Args:
        params: ``{"rules": str, "players": int, "max_turns": int, "auto_forced": bool,
            "compact_actions": bool}``; missing keys take their defaults (``pagat``, 3,
            :data:`DEFAULT_MAX_TURNS`, False, False).

    Attributes:
        rules: the :class:`~skitgubbe.engine.rules.Rules` of the preset.
        players, max_turns, auto_forced, compact_actions: the parameters.
        action_ids: the full action id (:mod:`skitgubbe.adapters.encoding`) of each of the game's
            action ids: ``encoding.rules_action_ids(rules)`` with ``compact_actions``, else
            ``tuple(range(NUM_ACTIONS))``; ``num_distinct_actions()`` is its length.

    Raises ``ValueError`` for an unknown preset, a seat count outside it, or ``max_turns < 1``, and
    ``TypeError`` for an option that is not a bool (``pyspiel.load_game`` already refuses a value
    of another type than the default's with a ``pyspiel.SpielError``).
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_PARAMS, **(params or {})}
        rules = find_variant(str(p["rules"]))
        players, max_turns = int(p["players"]), int(p["max_turns"])
        if not rules.min_players <= players <= rules.max_players:
            raise ValueError(
                f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}")
        if max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, not {max_turns}")
        for option in ("auto_forced", "compact_actions"):
            if not isinstance(p[option], bool):
                raise TypeError(f"{option} must be True or False, not {p[option]!r}")
        self.rules, self.players, self.max_turns = rules, players, max_turns
        self.auto_forced: bool = p["auto_forced"]
        self.compact_actions: bool = p["compact_actions"]
        self.action_ids: tuple[int, ...] = _compact(rules)[0] if self.compact_actions else _FULL_IDS
        info = pyspiel.GameInfo(num_distinct_actions=len(self.action_ids), max_chance_outcomes=52,
                                num_players=players, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=max_turns)
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> SkitgubbeState:
        """A new deal, starting with the chance nodes of the deal."""
        return SkitgubbeState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> SkitgubbeObserver:
        """The observer for ``iig_obs_type`` (a ``pyspiel.IIGObservationType``; default: the
        observation).  Perfect recall: the information state (public and single-player private
        information) or every player's (``ALL_PLAYERS``).  Without: the observation (public and
        single-player private), the seat's hand (private only), the public observer (public only,
        the same for every player), every player's private information (with or without the
        public), or nothing.  Raises ``ValueError`` for observer parameters or an unsupported type."""
        if params:
            raise ValueError(f"python_skitgubbe observers take no parameters, got {params}")
        t = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        private = {pyspiel.PrivateInfoType.SINGLE_PLAYER: "single", pyspiel.PrivateInfoType.NONE: "none",
                   pyspiel.PrivateInfoType.ALL_PLAYERS: "all"}[t.private_info]
        kind = {(True, True, "single"): "info", (True, True, "all"): "all-info",
                (False, True, "single"): "obs", (False, False, "single"): "private",
                (False, True, "none"): "public", (False, False, "none"): "none",
                (False, True, "all"): "all", (False, False, "all"): "all"}.get(
                    (bool(t.perfect_recall), bool(t.public_info), private))
        if kind is None:
            raise ValueError(f"python_skitgubbe has no observer for {t}")
        return SkitgubbeObserver(kind)


class _Params(NamedTuple):
    """A game's parameters, as a state keeps them (shared by its copies, pickled with it)."""

    rules: Rules
    players: int
    max_turns: int
    auto_forced: bool
    compact_actions: bool
    action_ids: tuple[int, ...]


class _Deal:
    """What a :class:`SkitgubbeState` holds, in one object so that a clone is one fast copy.

    Attributes: ``cs`` (the :class:`~skitgubbe.engine.chance.ChanceState`), ``turns`` (decisions
    so far), ``held``/``put``/``played`` (per seat: every card it held, put into phase-one tricks,
    played in phase two), ``texts`` (per seat ``(entries, text)``: a cache of its history text),
    ``views`` and ``legal`` (caches since the last action), ``game`` (the game's parameters,
    shared by copies).
    """

    __slots__ = ("cs", "turns", "held", "put", "played", "texts", "views", "legal", "to_decide", "game")

    def __init__(self, game: SkitgubbeGame) -> None:
        self.game = _Params(game.rules, game.players, game.max_turns, game.auto_forced,
                            game.compact_actions, game.action_ids)
        self.cs = ChanceState.new(game.rules, game.players, ask_every_seat=True,
                                  action_limit=game.max_turns + 10)
        self.turns = 0
        n = game.players
        self.held, self.put, self.played = [0] * n, [0] * n, [0] * n
        self.texts: list[tuple[int, str]] = [(0, "")] * n
        self.views: dict[int, View] = {}
        self.legal: list[int] | None = None
        self.to_decide: int | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        other = object.__new__(_Deal)
        other.game, other.cs, other.turns = self.game, self.cs.clone(), self.turns
        other.held, other.put, other.played = self.held.copy(), self.put.copy(), self.played.copy()
        other.texts, other.views, other.legal, other.to_decide = self.texts.copy(), {}, None, None
        return other

    def __getstate__(self) -> dict[str, Any]:
        state = {name: getattr(self, name) for name in self.__slots__}
        state["views"], state["legal"], state["to_decide"] = {}, None, None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, v in state.items():
            setattr(self, name, v)

    def player(self) -> int:
        """The seat to decide, ``_CHANCE`` or ``_TERMINAL`` (also once ``max_turns`` is reached)."""
        p = self.to_decide
        if p is None:
            s = self.cs.to_act
            p = _CHANCE if s == CHANCE else _TERMINAL if s < 0 or self.turns >= self.game.max_turns else s
            self.to_decide = p
        return p

    def legal_ids(self, player: int) -> list[int]:
        """Sorted full action ids of ``player`` (empty unless it is the seat to decide)."""
        if player < 0 or player != self.player():
            return []
        if self.legal is None:
            e = self.cs.engine
            assert e is not None
            self.legal = encoding.legal_ids(e, player)
        return self.legal.copy()

    def apply(self, player: int, a: int) -> None:
        """Take full id (or chance card) ``a``; raises ``ValueError`` for one not legal here."""
        cs = self.cs
        if player == _CHANCE:
            try:
                cs.apply(a, CHANCE)
            except ValueError:
                raise ValueError(f"{_CARD[a] if 0 <= a < 52 else a} is not a chance outcome here") from None
            slot = cs.history[-1].slot
            assert slot is not None
            if slot.kind == "stock":
                self.put[slot.seat] |= 1 << a
            elif slot.kind == "deal":
                self.held[slot.seat] |= 1 << a
        else:
            if a not in self.legal_ids(player):
                raise ValueError(f"seat {player} cannot take action {a} ({_action_text(a)}) now")
            e = cs.engine
            assert e is not None
            action = encoding.action_of(a)
            if action.cards:
                (self.played if e.phase == Phase.TWO else self.put)[player] |= action.cards
            cs.apply(action, player, trusted=True)
            self.turns += 1
        self.views, self.legal, self.to_decide = {}, None, None
        if cs.engine is not None:
            for s, h in enumerate(cs.engine.hands):
                self.held[s] |= h

    def play_forced(self) -> None:
        """With ``auto_forced``, take every decision with a single legal action (chance nodes stay)."""
        if self.game.auto_forced and self.player() >= 0:
            self.turns += advance(self.cs, auto_forced=True, budget=self.game.max_turns - self.turns)
            self.views, self.legal, self.to_decide = {}, None, None
            if self.cs.engine is not None:
                for s, h in enumerate(self.cs.engine.hands):
                    self.held[s] |= h

    def view(self, seat: int) -> View:
        """The seat's view (``SPECTATOR`` for the public one) with ``to_act`` as the game has it."""
        v = self.views.get(seat)
        if v is None:
            v = self.cs.view(seat)
            p = self.player()
            to_act = p if p >= 0 else (CHANCE if p == _CHANCE else -2)
            if v.to_act != to_act:
                v = v._replace(to_act=to_act)
            self.views[seat] = v
        return v

    def history_text(self, seat: int) -> str:
        """Every step so far as ``seat`` saw it, one per line (hidden cards as ``??``; ``seat`` -1:
        every card that some seat saw)."""
        done, text = self.texts[seat] if seat >= 0 else (0, "")
        history = self.cs.history
        if done == len(history):
            return text
        parts = [text] if done else []
        for en in history[done:]:
            slot = en.slot
            if slot is None:
                parts.append(f"{en.seat} {en.action}")
            elif slot.seen_by(seat) if seat >= 0 else slot.to != 0:
                parts.append(f"{slot.kind} {slot.seat} {_CARD[en.card]}")
            else:
                parts.append(f"{slot.kind} {slot.seat} ??")
        text = "\n".join(parts)
        if seat >= 0:
            self.texts[seat] = (len(history), text)
        return text


def _action_text(a: int) -> str:
    return str(encoding.action_of(a)) if 0 <= a < encoding.NUM_ACTIONS else "no such action"


class SkitgubbeState(pyspiel.State):  # type: ignore[misc]
    """One deal of ``python_skitgubbe`` (see the module docstring): the OpenSpiel API over a
    :class:`~skitgubbe.engine.chance.ChanceState`.  Build it with ``game.new_initial_state()``."""

    def __init__(self, game: SkitgubbeGame) -> None:
        super().__init__(game)
        self.deal = _Deal(game)

    @property
    def action_ids(self) -> tuple[int, ...]:
        """The full action id of each of this game's action ids (:attr:`SkitgubbeGame.action_ids`)."""
        return self.deal.game.action_ids

    def _full_id(self, action: int) -> int:
        if not self.deal.game.compact_actions:
            return action
        ids = self.action_ids
        if not 0 <= action < len(ids):
            raise ValueError(f"action {action} is outside the compact action space 0..{len(ids) - 1} "
                             f"of {self.deal.game.rules.name}")
        return ids[action]

    def current_player(self) -> int:
        """The seat to decide, ``pyspiel.PlayerId.CHANCE`` or ``pyspiel.PlayerId.TERMINAL``."""
        return self.deal.player()

    def _legal_actions(self, player: int) -> list[int]:
        """Sorted action ids (compact indexes with ``compact_actions``) of ``player``."""
        ids = self.deal.legal_ids(player)
        if self.deal.game.compact_actions:
            index = _compact(self.deal.game.rules)[1]
            return [index[a] for a in ids]
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(card, probability)`` for every card the chance node may pick (uniform, summing to 1).
        Raises ``ValueError`` at a node that is not a chance node."""
        if self.deal.player() != _CHANCE:
            raise ValueError("chance_outcomes() asked at a node that is not a chance node")
        return self.deal.cs.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        """Take ``action`` (an action id, or a card at a chance node), then with ``auto_forced``
        every forced decision.  Raises ``ValueError`` for an action that is not legal here."""
        p = self.deal.player()
        if p == _TERMINAL:
            raise ValueError("the game is over")
        self.deal.apply(p, int(action) if p == _CHANCE else self._full_id(int(action)))
        self.deal.play_forced()

    def _action_to_string(self, player: int, action: int) -> str:
        """``play 7H``, ``sluff 4S``, ``pass``... for a seat; for chance the card, with what it is
        for when this state is that chance node (``deal 7H to seat 2``)."""
        if player != _CHANCE:
            if self.deal.game.compact_actions:
                ids = self.action_ids
                return _action_text(ids[action]) if 0 <= action < len(ids) else "no such action"
            return _action_text(action)
        card = _CARD[action] if 0 <= action < 52 else str(action)
        if self.deal.player() != _CHANCE:
            return card
        slot = self.deal.cs.slot()
        kind = "trump-drawn" if slot.kind == "draw" and slot.to == PUBLIC else slot.kind  # Mas: face up
        return _CHANCE_TEXT[kind].format(card=card, seat=slot.seat)

    def is_terminal(self) -> bool:
        """True once the deal is over (a loser, or abandoned at the turn cap)."""
        return self.deal.player() == _TERMINAL

    def returns(self) -> list[float]:
        """Per seat: -1 for the loser, ``1/(players-1)`` for the others; all 0 before the end and
        for an abandoned deal (:func:`skitgubbe.adapters.shared.rewards`)."""
        e = self.deal.cs.engine
        over = e is not None and e.phase == Phase.OVER
        return rewards(e.loser if over else None, self.deal.game.players)  # type: ignore[union-attr]

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> SkitgubbeState:
        """A new state that seat ``player_id`` cannot tell from this one (equal information state
        string), drawn with ``probability_sampler`` (floats uniform in [0, 1), e.g.
        ``pyspiel.UniformProbabilitySampler(0., 1.)``).

        The world is the engine's (:meth:`ChanceState.world_history
        <skitgubbe.engine.chance.ChanceState.world_history>`, built on
        :class:`skitgubbe.engine.worlds.Worlds`): the history's chance outcomes that the seat did
        not see are relabelled and the history is replayed from the start, every move checked, so
        ``history()`` and serialization agree with the new world.  A world in which the history is
        not legal (under "match if you can", a seat that did not match held a card of that rank:
        an inference the world sampler does not make) is drawn again, up to 200 times; so is, with
        ``auto_forced``, a world whose replay does not end at this node (a move forced in one world
        may be a choice in the other).  If none fits, the real state is returned (a copy)."""
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        deal = self.deal
        game = self.get_game()
        for _ in range(_RESAMPLE_TRIES):
            state: SkitgubbeState = game.new_initial_state()
            if _replay(state, deal.cs.world_history(player_id, rng)):
                return state
        state = game.new_initial_state()
        _replay(state, [en.card if en.action is None else en.action for en in deal.cs.history])
        return state

    def __str__(self) -> str:
        """Every hand, the stock, the trick and the window (the full state, for debugging)."""
        deal = self.deal
        e = deal.cs.engine
        head = f"{deal.game.rules.name}, {deal.game.players} seats; decisions {deal.turns}; " \
               f"to decide: {deal.player()}"
        if e is None:
            return head + "\ndealing: " + " ".join(_CARD[c] for c in deal.cs.dealt)
        lines = [head, f"{Phase.NAMES[e.phase]}; engine to act {e.to_act}"]
        lines += [f"seat {s}: {format_cards(h) or '-'}; pile {format_cards(e.piles[s]) or '-'}"
                  for s, h in enumerate(e.hands)]
        lines.append("stock (top last): " + " ".join(_CARD[c] for c in e.stock))
        lines.append("reserve (top last): " + " ".join(_CARD[c] for c in e.reserve))
        lines.append(f"trump card {e.trump_card} with seat {e.trump_holder}; suit {e.trump_suit}")
        lines.append(encoding.observation_string(deal.view(SPECTATOR)))
        if deal.cs.pending is not None:
            lines.append(f"waiting for the cards of: {deal.cs.pending} {deal.cs.chosen}")
        if deal.cs.deal_order:
            lines.append("dealt by chance: " + " ".join(_CARD[c] for c in deal.cs.deal_order))
        return "\n".join(lines)

    def view(self, seat: int) -> View:
        """What ``seat`` sees now (its :class:`~skitgubbe.engine.view.View`; ``to_act`` is the seat
        to decide, -1 chance, -2 over)."""
        return self.deal.view(seat)

    @property
    def engine(self) -> Any:
        """The engine :class:`~skitgubbe.engine.state.State` (None while the cards are being
        dealt).  Read it, do not change it."""
        return self.deal.cs.engine

    @property
    def chance_state(self) -> ChanceState:
        """The :class:`~skitgubbe.engine.chance.ChanceState` underneath.  Read it, do not change it."""
        return self.deal.cs


def _replay(state: SkitgubbeState, values: Sequence[Action | int]) -> bool:
    """Take ``values`` (one per ChanceState history entry) from the new ``state``, every move
    checked; an entry the state took itself (a forced move) is skipped.  False if a move is not
    legal, if the state took another move itself, or if it then has taken more steps than
    ``values``."""
    deal = state.deal
    index = _compact(deal.game.rules)[1] if deal.game.compact_actions else None
    try:
        for i, v in enumerate(values):
            if i < len(deal.cs.history):  # taken by the state itself: it must be the same
                en = deal.cs.history[i]
                if (en.card if en.action is None else en.action) != v:
                    return False
                continue
            if isinstance(v, Action):
                a = encoding.action_id(v)
                state.apply_action(index[a] if index is not None else a)
            else:
                state.apply_action(v)
    except ValueError:  # (pyspiel passes the adapter's ValueError on as it is)
        return False
    return len(deal.cs.history) == len(values)


def _put(out: dict[int, float], masks: Sequence[int], seat: int, off: int) -> None:
    """Set ``out[off + 52 * k + c] = 1`` for every card ``c`` of ``masks[(seat + k) % n]``."""
    n = len(masks)
    for s in range(n):
        base = off + 52 * ((s - seat) % n)
        m = masks[s]
        while m:
            low = m & -m
            out[base + low.bit_length() - 1] = 1.0
            m ^= low


def _public_view(deal: _Deal) -> View:
    """The spectator's view in absolute seats (``seat`` 0 for the encoding's rotation)."""
    return deal.view(SPECTATOR)._replace(seat=0)


_MY_WINDOW = dict((name, off) for name, off, _ in encoding.OBS_FIELDS)["my_window"]


class SkitgubbeObserver:
    """An OpenSpiel Python observer of ``python_skitgubbe``.

    ``kind`` is one of ``info`` (information state: ``INFO_SIZE`` floats; string: the seat's whole
    history then its observation), ``obs`` (observation: ``encoding.OBS_SIZE`` floats), ``private``
    (the seat's hand: 52 floats), ``public`` (the spectator's observation in absolute seats, the
    same for every player: ``OBS_SIZE`` floats, no hand, no ``my_window``), ``all`` (the public
    observation, then every seat's hand (8x52, absolute) and the trump card as its holder sees it
    (52)), ``all-info`` (``all`` with the history of every card some seat saw) or ``none``.

    Attributes:
        tensor: ``np.ndarray`` of float32, filled by :meth:`set_from`.
        dict: named views of ``tensor`` (the fields of :data:`encoding.OBS_FIELDS`, per-seat
            fields shaped ``(8, 52)``; ``info`` adds ``seat`` (8,), ``held`` (52,), ``put`` and
            ``played`` (8, 52); ``all`` adds ``hands`` (8, 52) and ``private_trump`` (52,)).
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        pieces: list[tuple[str, int, tuple[int, ...]]] = []
        if kind in ("obs", "public", "info", "all", "all-info"):
            pieces += [(name, size, (8, 52) if size == 8 * 52 else (size,))
                       for name, _, size in encoding.OBS_FIELDS]
        if kind == "info":
            pieces += [("seat", 8, (8,)), ("held", 52, (52,)), ("put", 8 * 52, (8, 52)),
                       ("played", 8 * 52, (8, 52))]
        if kind in ("all", "all-info"):
            pieces += [("hands", 8 * 52, (8, 52)), ("private_trump", 52, (52,))]
        if kind == "private":
            pieces.append(("hand", 52, (52,)))
        self.tensor: np.ndarray[Any, Any] = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        off = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[off:off + size].reshape(shape)
            off += size

    def set_from(self, state: SkitgubbeState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` as seat ``player`` sees it (the public and all-private
        kinds are the same for every player)."""
        kind, deal = self.kind, state.deal
        if kind == "none":
            return
        if kind == "private":
            entries: dict[int, float] = {}
            _put(entries, [deal.view(player).hand], 0, 0)
        elif kind in ("public", "all", "all-info"):
            entries = encoding.observation_entries(_public_view(deal))
            entries.pop(_MY_WINDOW, None)
            if kind != "public":
                n = deal.game.players
                views = [deal.view(s) for s in range(n)]
                _put(entries, [v.hand for v in views], 0, encoding.OBS_SIZE)
                trump = max(v.trump_card for v in views)
                if trump >= 0:
                    entries[encoding.OBS_SIZE + 8 * 52 + trump] = 1.0
        else:
            entries = encoding.observation_entries(deal.view(player))
            if kind == "info":
                off = encoding.OBS_SIZE
                entries[off + player] = 1.0
                _put(entries, [deal.held[player]], 0, off + 8)
                _put(entries, deal.put, player, off + 8 + 52)
                _put(entries, deal.played, player, off + 8 + 52 + 8 * 52)
        t = self.tensor
        t.fill(0.0)
        if entries:
            k = len(entries)
            t[np.fromiter(entries.keys(), np.intp, k)] = np.fromiter(entries.values(), np.float32, k)

    def string_from(self, state: SkitgubbeState, player: int) -> str:
        """``state`` as seat ``player`` sees it, as text (the public and all-private kinds: the
        same for every player)."""
        kind, deal = self.kind, state.deal
        if kind == "none":
            return ""
        if kind == "private":
            return f"seat {player} hand: {format_cards(deal.view(player).hand) or '-'}"
        if kind in ("public", "all", "all-info"):
            lines = encoding.observation_string(_public_view(deal)).split("\n")
            text = "\n".join([f"{deal.game.players} seats; " + lines[0].split("; ", 1)[1], *lines[2:]])
            if kind == "public":
                return text
            hands = "\n".join(f"hand {s}: {format_cards(deal.view(s).hand) or '-'}"
                              for s in range(deal.game.players))
            text = f"{text}\n{hands}"
            return f"{deal.history_text(-1)}\n--\n{text}" if kind == "all-info" else text
        text = encoding.observation_string(deal.view(player))
        if kind == "info":
            return f"seat {player}\n{deal.history_text(player)}\n--\n{text}"
        return text


pyspiel.register_game(_GAME_TYPE, SkitgubbeGame)


def bench(spec: str, games: int, seed: int = 0) -> tuple[int, list[int], float]:
    """Play ``games`` deals of the game ``spec`` (e.g. ``"python_skitgubbe(rules=goat,players=4)"``)
    with uniformly random moves and chance outcomes through the pyspiel API.  Returns ``(steps,
    decisions, seconds)``: all actions (chance and player), the decisions of each deal, the time."""
    import time

    rng = random.Random(seed)
    game = pyspiel.load_game(spec)
    steps = 0
    decisions = []
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
            steps += 1
        decisions.append(moves)
    return steps, decisions, time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m skitgubbe.adapters.openspiel [--games N] [--all-seats] [--only P,...]``: random-play speed
    (steps per second through the pyspiel API) and deal lengths (decisions: mean and longest) of
    every preset at its smallest table and at four seats, or at every seat count."""
    import argparse

    from ..engine.variants import PRESETS

    parser = argparse.ArgumentParser(prog="python -m skitgubbe.adapters.openspiel")
    parser.add_argument("--games", type=int, default=20, help="deals per game (default 20)")
    parser.add_argument("--all-seats", action="store_true", help="every seat count of each preset")
    parser.add_argument("--only", default="", help="comma-separated presets (default: every preset)")
    args = parser.parse_args(argv)
    only = {name for name in args.only.split(",") if name}
    for name, rules in sorted(PRESETS.items()):
        if only and name not in only:
            continue
        counts = range(rules.min_players, rules.max_players + 1) if args.all_seats else sorted(
            {rules.min_players, min(4, rules.max_players)})
        for players in counts:
            spec = f"{GAME_NAME}(rules={name},players={players})"
            steps, decisions, seconds = bench(spec, args.games)
            print(f"{spec}: decisions {sum(decisions) / len(decisions):.0f} (longest {max(decisions)}), "
                  f"{steps / seconds:,.0f} steps/s")


if __name__ == "__main__":
    main()
