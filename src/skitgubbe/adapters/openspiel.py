"""The OpenSpiel game ``python_skitgubbe``: the engine as an OpenSpiel Python game.

Importing this module registers the game (it needs the ``openspiel`` extra: ``open_spiel`` and
``numpy``)::

    import pyspiel
    import skitgubbe.adapters.openspiel  # registers python_skitgubbe
    game = pyspiel.load_game("python_skitgubbe(rules=goat,players=4)")

Parameters: ``rules`` (a preset name or alias, default ``pagat``), ``players`` (default 3, within
the preset's range), ``max_turns`` (the turn cap, default :data:`DEFAULT_MAX_TURNS`) and two
options for learners, both ``False`` by default (the game described below is the default)::

    pyspiel.load_game("python_skitgubbe", {"rules": "goat", "players": 4,
                                           "auto_forced": True, "compact_actions": True})

* ``auto_forced=True``: a decision with a single legal action (mostly ``pass`` in a sluff window
  of a seat that cannot sluff) is taken by the state itself, after every ``apply_action`` (and
  at the start), so ``current_player()`` is never a seat with only one legal action.  Chance
  nodes stay chance nodes.  The forced moves are *not* in ``history()`` (OpenSpiel records only
  the actions given to ``apply_action``): applying ``history()`` to a new initial state takes
  them again and reaches the same state, and ``clone``, serialization and
  :meth:`SkitgubbeState.resample_from_infostate` keep them.  They are in the information state
  string like any other move (the same text as in the default game: it does not say which
  moves were forced) and count towards ``max_turns``, so a deal with the same chosen moves ends
  as the default game's deal does.  *This shows hidden information through the turn order*:
  the default game asks every seat in a sluff window so that who acts never depends on hidden
  cards; skipping a seat whose only action is ``pass`` shows the other seats that it could not
  sluff, through ``current_player()``, ``history()`` and the sequence of information states and
  observations a seat is shown (OpenSpiel's ``rl_environment`` gives every seat's at each step).
  A seat's information state and observation at its own decisions are unchanged.  Use it for a
  learner that reads only its own information state at its own turns; the same leak as the
  PettingZoo and Gymnasium ``auto_forced`` (docs/research.md).
* ``compact_actions=True``: action ids are indexes into the preset's compact action space,
  :func:`skitgubbe.adapters.encoding.rules_action_ids` of the rules (``pagat`` 54 ids, ``goat``
  419): index ``k`` is full id ``action_ids[k]`` (:attr:`SkitgubbeGame.action_ids`,
  :attr:`SkitgubbeState.action_ids`), in ``num_distinct_actions()``, ``legal_actions()``,
  ``apply_action`` and ``action_to_string``.  Chance outcomes, observations and information
  states do not involve action ids and do not change.

The game (docs/research.md, "OpenSpiel", says the same at more length):

* **Actions.** Player actions are the ids of :mod:`skitgubbe.adapters.encoding` (551 of them;
  with ``compact_actions``, indexes into the preset's ids), given sorted by ``legal_actions()``.
  Chance outcomes are card ids 0..51.
* **Chance.** Every random event is an explicit chance node that picks one card uniformly among
  the cards it may be: the deal (one node per card, among the cards not yet dealt, in dealing
  order; then, under ``bottom_aside`` or ``exposed_bottom``, one for the bottom stock card);
  every card a step takes from the stock or the reserve (the draw after a play or a sluff, Mas's
  drawing up to the hand size and after a store, a card turned up, the last stock card, a
  reserve card drawn after a phase-two kill: one node each, in drawing order, among the unseen
  cards of the stock and the reserve, a card face up under the stock last); and each card of a
  chance deal in ``Phase.DRECK`` (``State.pending_deal()`` dealt round ``State.deal_seats()``:
  the dreck, Koira's split into piles, an unfinished trick into hands), in dealing order.  The
  adapter uses only the engine's public contract for this: ``State.draws`` says how many cards a
  step takes, from where and for whom; once chance has picked them, ``State.apply(...,
  draws=cards)`` takes the step with those cards (the caller resolving chance) and rewrites
  ``State.deck`` to match; a chance deal is a ``DRECK`` action with the order chance picked.  The
  engine :class:`~skitgubbe.engine.state.State` is built when the deal is complete, with the rest
  of the pack in a placeholder order.  Unseen cards are exchangeable until drawn, so the engine
  state is always exactly the state the engine reaches from that deck order and the same
  actions.  Koira's split, an unfinished trick dealt round, a card face up under the stock and
  the last stock card when the rules show it are seen by everyone; other draws only by the seat
  drawing.
* **Sluff windows.** With sluffing rules, after every play to a phase-one trick *every seat
  holding cards* is asked in turn, clockwise from the seat after the player, to sluff or pass;
  a seat that sluffs is asked again (while it holds cards), and a seat that cannot sluff has
  only ``pass``.  A seat that sluffs instead of playing when it is its turn to play is asked
  again in the same way.  So the public sequence of moves never shows who could sluff.  This is
  the engine's own protocol with every seat asked (``State.new(..., ask_every_seat=True)``);
  the trick is collected only when every seat asked has passed.
* **Returns.** Terminal only: the loser gets -1 and every other seat ``+1/(players-1)`` (zero
  sum; between -1 and 1).  When a decision would be due after ``max_turns`` decisions the deal
  is abandoned and every seat gets 0.  ``max_game_length`` is ``max_turns``.
* **Observations.** The observation tensor and string are
  :func:`skitgubbe.adapters.encoding.observation` / ``observation_string`` of the seat's view,
  with ``to_act`` and ``sluff_window`` as this protocol has them.  The information state string
  is the seat's whole history (every move, and each chance outcome the seat saw: its own deal
  and draws, cards turned up; the others as ``??``) followed by its observation string, so it
  has perfect recall.  The information state tensor (``INFO_SIZE`` floats) is the observation
  tensor followed by the seat (one-hot) and a summary of the past: every card the seat has held,
  and per seat (rotated) the cards it put into phase-one tricks and the cards it played in phase
  two.  The tensor is not perfect recall (the order of events is summarised away).
* **Resampling.** :meth:`SkitgubbeState.resample_from_infostate` deals a world that the seat
  cannot tell from the real one: see its docstring.

In open_spiel 2.0.2 the C++ ``MCTSBot.step`` and ``ISMCTSBot.step`` crash on any Python game (a
GIL error); use the Python ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` instead (give it
no-op ``restart_at`` and ``inform_action`` to use it with ``evaluate_bots``).

``python -m skitgubbe.adapters.openspiel [--games N]`` measures random-play speed (:func:`main`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from ..engine.actions import CHANCE, Action, Kind
from ..engine.base import Phase
from ..engine.cards import SUIT_MASKS, card_name, cards_in, format_cards, rank_of
from ..engine.rules import FirstPhase, Rules
from ..engine.state import Draw, State
from ..engine.variants import find_variant
from ..engine.view import View, view_of
from . import encoding

__all__ = [
    "GAME_NAME",
    "DEFAULT_MAX_TURNS",
    "INFO_SIZE",
    "SkitgubbeGame",
    "SkitgubbeState",
    "SkitgubbeObserver",
]

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

# Kinds of log entry: a move; a card dealt, drawn, turned up, set aside as the trump card (the
# last stock card; in Mas drawn face up), dealt from the dreck, put at the bottom of the stock at
# the deal, drawn from the reserve (avstickshög), dealt to a pile in Koira's split, dealt to a
# hand from an unfinished trick, or set aside from a dreck that does not share out evenly.
_MOVE, _DEAL, _DRAW, _TURN, _TRUMP, _DRECK, _BOTTOM, _RESERVE, _SPLIT, _SHARE, _ASIDE = range(11)
_KIND_WORDS = ("move", "deal", "draw", "turn", "trump", "dreck", "bottom", "reserve", "split", "share",
               "aside")
# Who saw a log entry: a seat, everyone, or nobody.
_ALL, _NOBODY = 99, -1

_ACTION_TEXT = tuple(str(encoding.action_of(i)) for i in range(encoding.NUM_ACTIONS))
_CARD_TEXT = tuple(card_name(c) for c in range(52))
_RANK = tuple(rank_of(c) for c in range(52))

_PARAMS: dict[str, Any] = {"rules": "pagat", "players": 3, "max_turns": DEFAULT_MAX_TURNS,
                           "auto_forced": False, "compact_actions": False}

_FULL_IDS: tuple[int, ...] = tuple(range(encoding.NUM_ACTIONS))


@functools.cache
def _compact(rules: Rules) -> tuple[tuple[int, ...], dict[int, int]]:
    """The compact action space of ``rules``: ``(action_ids, index of each full id)``."""
    ids = encoding.rules_action_ids(rules)
    return ids, {a: k for k, a in enumerate(ids)}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Skitgubbe",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)

_RESAMPLE_TRIES = 200
"""Random worlds tried by a resample before it falls back to the real one (see
:meth:`SkitgubbeState.resample_from_infostate`)."""


_FORCED_TRIES = 20
"""With ``auto_forced``, worlds tried by a resample before it returns the real one (see
:meth:`SkitgubbeState.resample_from_infostate`)."""

_placeholders: dict[tuple[Rules, int, int], State] = {}


def _placeholder(rules: Rules, players: int, dealer: int) -> State:
    """A State used only for the shape of a view while the cards are being dealt."""
    key = (rules, players, dealer)
    st = _placeholders.get(key)
    if st is None:
        st = _placeholders[key] = State.new(rules, players, dealer=dealer, deck=tuple(cards_in(rules.pack)))
    return st


class _Core:
    """Everything a :class:`SkitgubbeState` holds (one object, so that cloning is one fast copy).

    Attributes:
        rules, players, dealer, max_turns: the game's parameters.
        deal: cards dealt so far, in dealing order (seat ``(dealer + 1 + i) % players`` gets
            ``deal[i]``).
        engine: the engine state once the deal is complete (every seat asked in sluff windows:
            ``ask_every_seat``), else None.
        pending: a step ``(seat, Action, phase two)`` waiting for the chance nodes that decide the cards it
            takes from the stock or the reserve (:meth:`State.draws <skitgubbe.engine.state.State.draws>`),
            else None.
        slots: for the pending step, the engine's :class:`~skitgubbe.engine.state.Draw` of each card
            it takes, in order.
        chosen: the cards already picked for ``slots``.
        deal_order: cards of a chance deal dealt so far (while the engine waits in Phase.DRECK:
            the dreck, Koira's split or an unfinished trick; see ``State.pending_deal``).
        turns: decisions taken so far.
        bottom: the bottom stock card chosen at the deal when the rules set it aside or show it
            (``bottom_aside``, ``exposed_bottom``), else -1.
        log: one ``(player, action, kind, recipient, seen)`` per action taken: ``player`` is
            the seat or -1 for chance, ``action`` the action id or the card, ``kind`` one of the
            log kinds above, ``recipient`` the seat concerned (-1 for none), ``seen`` the seat
            that saw it, ``_ALL`` (moves, cards turned up or shown) or ``_NOBODY``.
        held: per seat, every card it has had in its hand.
        put: per seat, the cards it put into phase-one tricks (played, turned up, sluffed).
        played: per seat, the cards it played in phase two.
        no_match: ``(seat, log index, rank)`` for each phase-one play that did not match the
            round's highest rank under "match if you can": the seat held no card of that rank.
        texts: per seat, ``(entries, text)``: :meth:`history_text` of the first ``entries``
            log entries (a cache).
        views: :meth:`view` per seat since the last action (a cache).
        legal: :meth:`legal_ids` of the seat to decide since the last action (a cache).
        to_decide: :meth:`current_player` since the last action (a cache).
        checks: whether :meth:`apply_move` refuses illegal actions (off only while a
            resampled history, legal by construction, is replayed).
        auto_forced: whether the state takes every decision with a single legal action itself
            (:meth:`play_forced`; the game parameter ``auto_forced``).
        compact: whether the state's action ids are compact indexes (the game parameter
            ``compact_actions``; the core itself always works with full ids).
    """

    __slots__ = ("rules", "players", "dealer", "max_turns", "deal", "bottom", "engine",
                 "pending", "slots", "chosen", "deal_order", "turns", "log",
                 "held", "put", "played", "no_match", "texts", "views", "legal", "to_decide", "checks",
                 "auto_forced", "compact")

    def __init__(self, rules: Rules, players: int, max_turns: int, dealer: int = 0, *,
                 auto_forced: bool = False, compact: bool = False) -> None:
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.max_turns = max_turns
        self.deal: list[int] = []
        self.bottom = -1
        self.engine: State | None = None
        self.pending: tuple[int, Action, bool] | None = None
        self.slots: tuple[Draw, ...] = ()
        self.chosen: list[int] = []
        self.deal_order: list[int] = []
        self.turns = 0
        self.log: list[tuple[int, int, int, int, int]] = []
        self.held = [0] * players
        self.put = [0] * players
        self.played = [0] * players
        self.no_match: list[tuple[int, int, int]] = []
        self.texts: list[tuple[int, str]] = [(0, "")] * players
        self.views: dict[int, View] = {}
        self.legal: list[int] | None = None
        self.to_decide: int | None = None
        self.checks = True
        self.auto_forced = auto_forced
        self.compact = compact

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        other = object.__new__(_Core)
        for name in self.__slots__:
            v = getattr(self, name)
            if type(v) is list:
                v = v.copy()
            elif name == "engine" and v is not None:
                v = v.clone()
            elif name == "views":
                v = {}
            elif name in ("legal", "to_decide"):
                v = None
            setattr(other, name, v)
        return other

    def __getstate__(self) -> dict[str, Any]:
        state = {name: getattr(self, name) for name in self.__slots__}
        state["views"] = {}
        state["legal"] = state["to_decide"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.auto_forced = self.compact = False  # states pickled before these options existed
        for name, v in state.items():
            setattr(self, name, v)

    # -- whose turn ---------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to decide, ``_CHANCE`` or ``_TERMINAL``."""
        p = self.to_decide
        if p is None:
            p = self.to_decide = self._current_player()
        return p

    def _current_player(self) -> int:
        e = self.engine
        if e is None or self.pending is not None:
            return _CHANCE
        phase = e.phase
        if phase == Phase.OVER:
            return _TERMINAL
        if phase == Phase.DRECK:
            return _CHANCE
        return _TERMINAL if self.turns >= self.max_turns else e.to_act

    def legal_ids(self, player: int) -> list[int]:
        """Sorted action ids of ``player`` (empty unless it is the seat to decide)."""
        if player < 0 or player != self.current_player():
            return []
        if self.legal is not None:
            return self.legal.copy()
        e = self.engine
        assert e is not None
        ids = encoding.legal_ids(e, player)
        self.legal = ids
        return ids.copy()

    def chance_outcomes(self) -> list[int]:
        """The cards the current chance node may pick (each equally likely), sorted."""
        e = self.engine
        if e is None:
            dealt = 0
            for c in self.deal:
                dealt |= 1 << c
            return list(cards_in(self.rules.pack & ~dealt))
        if self.pending is not None:
            # the stock and the reserve are one pool of unseen cards in a placeholder order: any
            # of them may be the next card of either (but a card face up under the stock is last)
            chosen = self.chosen
            j = len(chosen)
            if (e.rules.exposed_bottom and self.slots[j].source == "stock"
                    and len(e.stock) == self.stock_slots(j + 1)):
                return [e.stock[0]]  # the last stock card lies face up
            pool = e.draw_pool()
            for c in chosen:
                pool &= ~(1 << c)
            return list(cards_in(pool))
        if e.phase == Phase.DRECK:
            done = 0
            for c in self.deal_order:
                done |= 1 << c
            return list(cards_in(e.pending_deal() & ~done))
        raise ValueError("not a chance node")

    # -- acting -------------------------------------------------------------------------------

    def apply_move(self, player: int, a: int) -> None:
        """Take action id ``a`` for ``player`` (the seat to decide).  Raises ``ValueError`` for
        an action that is not legal (unless :attr:`checks` is off)."""
        if self.checks and a not in self.legal_ids(player):
            raise ValueError(f"seat {player} cannot take action {a} ({_action_text(a)}) now")
        self.views = {}
        self.legal = None
        self.to_decide = None
        e = self.engine
        assert e is not None
        action = encoding.action_of(a)
        self.log.append((player, a, _MOVE, player, _ALL))
        self.turns += 1
        kind = action.kind
        if kind != Kind.PASS and e.phase == Phase.ONE:
            rules = self.rules
            if rules.must_match and e.round_high and kind != Kind.SLUFF and not rules.ties_beat_unique:
                high = e.round_high
                if kind == Kind.STOCK or _RANK[action.cards.bit_length() - 1] != high:
                    self.no_match.append((player, len(self.log) - 1, high))
        self._take(player, action)

    def play_forced(self) -> None:
        """With :attr:`auto_forced`, take every decision that has a single legal action, until a
        seat has a choice, a chance node is due or the deal is over (each forced move is logged
        and counted in :attr:`turns` like any other)."""
        if not self.auto_forced:
            return
        while True:
            p = self.current_player()
            if p < 0:
                return
            legal = self.legal_ids(p)
            if len(legal) != 1:
                return
            self.apply_move(p, legal[0])

    def apply_chance(self, card: int) -> None:
        """Take the outcome ``card`` of the current chance node.  Raises ``ValueError`` for a card
        that is not one of its outcomes, and ``RuntimeError`` if the engine then takes other
        cards than those the chance nodes were made for (it should never)."""
        if card not in self.chance_outcomes():
            raise ValueError(f"{_CARD_TEXT[card] if 0 <= card < 52 else card} is not a chance outcome here")
        self.views = {}
        self.legal = None
        self.to_decide = None
        e = self.engine
        n = self.players
        rules = self.rules
        if e is None:
            if len(self.deal) < n * rules.hand_size:
                seat = (self.dealer + len(self.deal) + 1) % n
                self.deal.append(card)
                self.held[seat] |= 1 << card
                self.log.append((_CHANCE, card, _DEAL, seat, seat))
            else:  # the bottom card, set aside or shown
                self.bottom = card
                self.log.append((_CHANCE, card, _BOTTOM, -1, _ALL if rules.exposed_bottom else _NOBODY))
            if len(self.deal) == n * rules.hand_size and (self.bottom >= 0 or not self._has_bottom()):
                self._build_engine()
            return
        if self.pending is not None:
            self.chosen.append(card)
            if len(self.chosen) < len(self.slots):
                return
            self._take_pending()
            return
        # a chance deal (the dreck, Koira's split, an unfinished trick), one card at a time
        seat, kind, seen = self.deal_slot(len(self.deal_order))
        self.deal_order.append(card)
        self.log.append((_CHANCE, card, kind, seat, seen))
        cards = e.pending_deal()
        if len(self.deal_order) == cards.bit_count():
            self._take(CHANCE, Action(Kind.DRECK, cards, tuple(self.deal_order)))

    def stock_slots(self, j: int) -> int:
        """How many of the first ``j`` cards of the pending step come from the stock."""
        return sum(1 for d in self.slots[:j] if d.source == "stock")

    def deal_slot(self, i: int) -> tuple[int, int, int]:
        """``(seat, log kind, seen by)`` of the ``i``-th card of the pending chance deal (seat -1
        for a dreck card set aside under ``dreck_remainder_aside``)."""
        e = self.engine
        assert e is not None
        seats = e.deal_seats()
        k = len(seats)
        seat = seats[i % k]
        if e.chance_seats:  # Koira's split, an unfinished trick dealt round: seen by all
            return seat, _SPLIT if e.chance_to_piles else _SHARE, _ALL
        if self.rules.dreck_remainder_aside:
            total = e.dreck.bit_count()
            if i >= total - total % k:  # does not share out evenly: set aside, face up
                return -1, _ASIDE, _ALL
        return seat, _DRECK, seat

    def _take(self, seat: int, action: Action) -> None:
        """Give ``action`` of ``seat`` (``CHANCE`` for a chance deal) to the engine.  If the step
        takes cards from the stock or the reserve (:meth:`State.draws`), it waits for one chance
        node per card instead (:attr:`pending`)."""
        e = self.engine
        assert e is not None
        two = e.phase == Phase.TWO
        if e.stock or e.reserve:
            slots = e.draws(action, seat, trusted=True)
            if slots:
                self.pending = (seat, action, two)
                self.slots = slots
                self.chosen = []
                return
        e.apply(action, seat, trusted=True)
        self._after(seat, action, two)

    def _take_pending(self) -> None:
        """Every card of the pending step is known: the engine takes the step with these draws
        (the caller resolving chance, :meth:`State.apply`), and the cards are logged."""
        e = self.engine
        assert e is not None and self.pending is not None
        seat, action, two = self.pending
        slots, chosen = self.slots, self.chosen
        e.apply(action, seat, trusted=True, draws=chosen)
        self.pending = None
        self.slots = ()
        self.chosen = []
        rules = self.rules
        for d, c in zip(slots, chosen, strict=True):
            to = d.seat
            if d.kind == "stock":
                kind, seen = _TURN, _ALL
                self.put[to] |= 1 << c
            elif d.kind == "reserve-draw":
                kind, seen = _RESERVE, to
            elif e.trump_card == c and e.trump_holder == to:  # the last stock card: the trump card
                shown = rules.exposed_bottom or rules.trump_shown_when_drawn
                kind, seen = _TRUMP, _ALL if shown else _NOBODY
            else:
                kind, seen = _DRAW, to
            self.log.append((_CHANCE, c, kind, to, seen))
        self._after(seat, action, two)

    def _after(self, seat: int, action: Action, two: bool) -> None:
        """The adapter's bookkeeping once the engine has taken a step (``two``: a phase-two move)."""
        if seat == CHANCE:
            self.deal_order = []
        elif action.cards:  # played in phase two, or put into a phase-one trick
            (self.played if two else self.put)[seat] |= action.cards
        self._note_hands()

    def _has_bottom(self) -> bool:
        """True if the rules set aside or show the bottom stock card at the deal."""
        return self.rules.bottom_aside or self.rules.exposed_bottom

    def _build_engine(self) -> None:
        dealt = 0
        for c in self.deal:
            dealt |= 1 << c
        bottom = [self.bottom] if self.bottom >= 0 else []
        deck = self.deal + list(cards_in(self.rules.pack & ~dealt & ~sum(1 << c for c in bottom))) + bottom
        self.engine = State.new(self.rules, self.players, dealer=self.dealer, deck=deck,
                                action_limit=self.max_turns + 10, ask_every_seat=True)

    def _note_hands(self) -> None:
        e = self.engine
        assert e is not None
        held = self.held
        for s, h in enumerate(e.hands):
            held[s] |= h

    # -- what a seat sees ---------------------------------------------------------------------

    def view(self, seat: int) -> View:
        """The seat's :class:`~skitgubbe.engine.view.View` as this protocol has it: ``to_act`` is the
        seat to decide (-1 chance, -2 over) and ``sluff_window`` the seats still to be asked."""
        v = self.views.get(seat)
        if v is None:
            v = self.views[seat] = self._view(seat)
        return v

    def _view(self, seat: int) -> View:
        cp = self.current_player()
        to_act = cp if cp >= 0 else (CHANCE if cp == _CHANCE else -2)
        e = self.engine
        n = self.players
        if e is None:
            sizes = [0] * n
            hand = 0
            for i, c in enumerate(self.deal):
                s = (self.dealer + 1 + i) % n
                sizes[s] += 1
                if s == seat:
                    hand |= 1 << c
            v = view_of(_placeholder(self.rules, n, self.dealer), seat)
            return v._replace(to_act=to_act, hand=hand, hand_sizes=tuple(sizes),
                              stock_size=self.rules.pack_size - len(self.deal), leader=-1, rounds=(),
                              round_seats=(), exposed_card=-1, legal=())
        v = view_of(e, seat)
        if v.to_act != to_act:  # a step waiting for its draws, or the turn cap reached
            v = v._replace(to_act=to_act)
        if self.deal_order:  # a chance deal under way: the cards dealt so far are where they went
            sizes = list(v.hand_sizes)
            hand = v.hand
            known = list(v.known)
            piles = list(v.piles)
            killed = v.killed
            for i, c in enumerate(self.deal_order):
                s, kind, _ = self.deal_slot(i)
                if kind == _SPLIT:
                    piles[s] |= 1 << c
                elif kind == _ASIDE:
                    killed |= 1 << c
                else:
                    sizes[s] += 1
                    if kind == _SHARE:
                        known[s] |= 1 << c
                    if s == seat:
                        hand |= 1 << c
            v = v._replace(hand=hand, hand_sizes=tuple(sizes), known=tuple(known), piles=tuple(piles),
                           killed=killed)
        return v

    def history_text(self, seat: int) -> str:
        """Every action so far as ``seat`` saw it, one per line (hidden cards as ``??``)."""
        done, text = self.texts[seat]
        log = self.log
        if done == len(log):
            return text
        parts = [text] if done else []
        for who, a, kind, to, seen in log[done:]:
            if kind == _MOVE:
                parts.append(f"{who} {_ACTION_TEXT[a]}")
            elif seen in (_ALL, seat):
                parts.append(f"{_KIND_WORDS[kind]} {to} {_CARD_TEXT[a]}")
            else:
                parts.append(f"{_KIND_WORDS[kind]} {to} ??")
        text = "\n".join(parts)
        self.texts[seat] = (len(log), text)
        return text

    def visible(self, seat: int) -> int:
        """Card set whose place ``seat`` knows now: its hand, the cards in public places (piles,
        the trick or table, killed, known cards), the trump card if it may see it, the bottom card
        if it was shown and the card of a move waiting for its draw."""
        v = self.view(seat)
        m = v.hand | v.trick_cards() | v.killed
        for s in range(self.players):
            m |= v.known[s] | v.piles[s]
        if v.trump_card >= 0:
            m |= 1 << v.trump_card
        if v.exposed_card >= 0:
            m |= 1 << v.exposed_card
        if self.pending is not None:
            m |= self.pending[1].cards
        e = self.engine
        if e is not None and e.phase == Phase.DRECK and e.chance_seats:
            m |= e.pending_deal()  # the cards of a trick being split or dealt round are public
        return m

    # -- resampling ---------------------------------------------------------------------------

    def resampled_actions(self, seat: int, rand: Callable[[], float]) -> list[int]:
        """The actions (ids and chance cards) of a world ``seat`` cannot tell from this one;
        see :meth:`SkitgubbeState.resample_from_infostate`."""
        log = self.log
        hidden = self.rules.pack & ~self.visible(seat)
        e = self.engine
        split = e.dreck if e is not None and len(e.needy) > 1 else 0
        # the entry that put each card where it is now: its last chance entry; for the dreck
        # dealt to several seats, its dreck entry (a dreck card not dealt yet has none)
        last: dict[int, int] = {}
        for i, (_, a, kind, _, _) in enumerate(log):
            if kind != _MOVE and (kind == _DRECK or not split >> a & 1):
                last[a] = i
        groups = [hidden]
        trump_slot = -1
        trump_suit = -1
        if split:
            groups = [hidden & split, hidden & ~split]
        if e is not None and e.trump_suit >= 0:
            tc = e.trump_card
            if tc >= 0 and hidden >> tc & 1 and not split >> tc & 1 and log[last[tc]][2] == _TRUMP:
                trump_slot = last[tc]
                trump_suit = e.trump_suit
        plans: list[tuple[list[int], list[int]]] = []  # (slots, cards) per group
        for g in groups:
            cards = list(cards_in(g))
            slots = [last[c] for c in cards if c in last]
            for i in slots:
                assert log[i][4] not in (seat, _ALL), "a hidden card was seen"
            plans.append((slots, cards))
        # "match if you can": for each (seat, rank) it was seen not to match, the latest such play
        # and the hidden cards it held then (their places are the log entries before that play)
        latest: dict[tuple[int, int], int] = {}
        for s, at, rank in self.no_match:
            latest[(s, rank)] = max(at, latest.get((s, rank), -1))
        checks = []
        all_slots = {i for slots, _ in plans for i in slots}
        for (s, rank), at in latest.items():
            idx = [i for i in all_slots if i < at and log[i][3] == s and log[i][2] in (_DEAL, _DRAW)]
            if idx:
                checks.append((rank, idx))
        best: dict[int, int] = {}
        for _ in range(_RESAMPLE_TRIES):
            new: dict[int, int] = {}
            for slots, cards in plans:
                pool = cards.copy()
                rest = slots
                if trump_slot in slots:
                    suited = [c for c in pool if SUIT_MASKS[trump_suit] >> c & 1]
                    t = suited[min(int(rand() * len(suited)), len(suited) - 1)]
                    new[trump_slot] = t
                    pool.remove(t)
                    rest = [i for i in slots if i != trump_slot]
                _shuffle(pool, rand)
                for i, c in zip(rest, pool, strict=False):
                    new[i] = c
            if all(_RANK[new[i]] != rank for rank, idx in checks for i in idx):
                best = new
                break
        values = [entry[1] for entry in log]
        for i, c in best.items():
            values[i] = c
        return values

    # -- text -----------------------------------------------------------------------------------

    def text(self) -> str:
        """The whole state (every hand and the stock order) as text, for debugging."""
        n = self.players
        cp = self.current_player()
        who = {_CHANCE: "chance", _TERMINAL: "nobody"}.get(cp, f"seat {cp}")
        lines = [f"{self.rules.name}, {n} seats; decisions {self.turns}/{self.max_turns}; to decide: {who}"]
        e = self.engine
        if e is None:
            lines.append("dealing: " + " ".join(_CARD_TEXT[c] for c in self.deal))
            return "\n".join(lines)
        lines.append(f"{Phase.NAMES[e.phase]}; engine to act {e.to_act}")
        for s in range(n):
            hand, pile = format_cards(e.hands[s]) or "-", format_cards(e.piles[s]) or "-"
            lines.append(f"seat {s}: {hand}; pile {pile}")
        lines.append("stock (top last): " + " ".join(_CARD_TEXT[c] for c in e.stock))
        if e.trump_card >= 0:
            lines.append(f"trump card {_CARD_TEXT[e.trump_card]} with seat {e.trump_holder}")
        if e.phase == Phase.ONE and e.rounds:
            rounds = (" ".join(f"{s}:{_CARD_TEXT[c]}" for s, c in r) for r in e.rounds)
            lines.append("trick: " + " / ".join(rounds))
            if e.sluffs:
                lines.append("sluffs: " + " ".join(f"{s}:{_CARD_TEXT[c]}" for s, c in e.sluffs))
        if e.table:
            lines.append("table: " + " | ".join(format_cards(p) for p in e.table))
        if e.pending:
            lines.append("sluff window: " + " ".join(str(s) for s in range(n) if e.pending >> s & 1))
        if e.reserve:
            lines.append("reserve (top last): " + " ".join(_CARD_TEXT[c] for c in e.reserve))
        if self.pending is not None:
            lines.append(f"waiting for the cards of: {self.pending[0]} {self.pending[1]}")
        if self.deal_order:
            lines.append("dealt by chance: " + " ".join(_CARD_TEXT[c] for c in self.deal_order))
        if e.phase == Phase.OVER:
            lines.append(f"loser: {e.loser}")
        return "\n".join(lines)


def _shuffle(items: list[int], rand: Callable[[], float]) -> None:
    """Fisher-Yates shuffle driven by ``rand`` (uniform in [0, 1))."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        if j > i:  # rand() returned 1.0
            j = i
        items[i], items[j] = items[j], items[i]


def _action_text(a: int) -> str:
    return _ACTION_TEXT[a] if 0 <= a < encoding.NUM_ACTIONS else "no such action"


class SkitgubbeGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_skitgubbe`` (see the module docstring).

    Args:
        params: ``{"rules": str, "players": int, "max_turns": int, "auto_forced": bool,
            "compact_actions": bool}``; missing keys take their defaults (``pagat``, 3,
            :data:`DEFAULT_MAX_TURNS`, False, False).  The two options are described in the
            module docstring.

    Attributes:
        rules: the :class:`~skitgubbe.engine.rules.Rules` of the preset.
        players, max_turns, auto_forced, compact_actions: the parameters.
        action_ids: the full action id (:mod:`skitgubbe.adapters.encoding`) of each of the game's
            action ids: ``encoding.rules_action_ids(rules)`` with ``compact_actions``, else
            ``tuple(range(NUM_ACTIONS))``; ``num_distinct_actions()`` is its length.

    Raises ``ValueError`` for an unknown preset, a seat count outside it, or ``max_turns < 1``, and
    ``TypeError`` for an option that is not a bool (``pyspiel.load_game`` already refuses a value
    of another type than the default's with a ``pyspiel.SpielError``; this check is for direct
    construction).
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_PARAMS, **(params or {})}
        rules = find_variant(str(p["rules"]))
        players = int(p["players"])
        max_turns = int(p["max_turns"])
        if not rules.min_players <= players <= rules.max_players:
            raise ValueError(
                f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}"
            )
        if max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, not {max_turns}")
        for option in ("auto_forced", "compact_actions"):
            if not isinstance(p[option], bool):
                raise TypeError(f"{option} must be True or False, not {p[option]!r}")
        auto_forced: bool = p["auto_forced"]
        compact_actions: bool = p["compact_actions"]
        action_ids = _compact(rules)[0] if compact_actions else _FULL_IDS
        info = pyspiel.GameInfo(
            num_distinct_actions=len(action_ids),
            max_chance_outcomes=52,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_turns,
        )
        super().__init__(_GAME_TYPE, info, p)
        self.rules = rules
        self.players = players
        self.max_turns = max_turns
        self.auto_forced = auto_forced
        self.compact_actions = compact_actions
        self.action_ids: tuple[int, ...] = action_ids

    def new_initial_state(self) -> SkitgubbeState:
        """A new deal, starting with the chance nodes of the deal."""
        return SkitgubbeState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SkitgubbeObserver:
        """The observer for ``iig_obs_type`` (a ``pyspiel.IIGObservationType``; default: the
        observation).  Supported: perfect recall with public and single-player private
        information (the information state), and without perfect recall any of public only,
        single-player private only, both (the observation), or neither.

        Raises ``ValueError`` for observation parameters or an unsupported type.
        """
        if params:
            raise ValueError(f"python_skitgubbe observers take no parameters, got {params}")
        t = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        single = t.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        none = t.private_info == pyspiel.PrivateInfoType.NONE
        if t.perfect_recall:
            if t.public_info and single:
                return SkitgubbeObserver("info")
        elif single:
            return SkitgubbeObserver("obs" if t.public_info else "private")
        elif none:
            return SkitgubbeObserver("public" if t.public_info else "none")
        raise ValueError(f"python_skitgubbe has no observer for {t}")


class SkitgubbeState(pyspiel.State):  # type: ignore[misc]
    """One deal of ``python_skitgubbe`` (see the module docstring).  Build it with
    ``game.new_initial_state()``."""

    def __init__(self, game: SkitgubbeGame) -> None:
        super().__init__(game)
        self.core = _Core(game.rules, game.players, game.max_turns, auto_forced=game.auto_forced,
                          compact=game.compact_actions)
        self.core.play_forced()  # nothing yet: a deal starts with chance nodes

    @property
    def action_ids(self) -> tuple[int, ...]:
        """The full action id (:mod:`skitgubbe.adapters.encoding`) of each of this game's action
        ids: the preset's compact action space with ``compact_actions``, else ``0..NUM_ACTIONS-1``
        (the same as :attr:`SkitgubbeGame.action_ids`)."""
        return _compact(self.core.rules)[0] if self.core.compact else _FULL_IDS

    def _full_id(self, action: int) -> int:
        """The full action id of the game's action id ``action``; raises ``ValueError`` for an id
        outside the compact action space."""
        if not self.core.compact:
            return action
        ids = _compact(self.core.rules)[0]
        if not 0 <= action < len(ids):
            raise ValueError(f"action {action} is outside the compact action space 0..{len(ids) - 1} "
                             f"of {self.core.rules.name}")
        return ids[action]

    # -- the OpenSpiel API ------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to decide, ``pyspiel.PlayerId.CHANCE`` or ``pyspiel.PlayerId.TERMINAL``."""
        return self.core.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        """Sorted action ids (see :mod:`skitgubbe.adapters.encoding`; with ``compact_actions``,
        compact indexes) of ``player``.  With ``auto_forced`` the seat to decide has at least two."""
        ids = self.core.legal_ids(player)
        if self.core.compact:
            index = _compact(self.core.rules)[1]
            return [index[a] for a in ids]
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(card, probability)`` for every card the chance node may pick (all equally likely).
        Raises ``ValueError`` at a node that is not a chance node."""
        if self.core.current_player() != _CHANCE:
            raise ValueError("chance_outcomes() asked at a node that is not a chance node")
        cards = self.core.chance_outcomes()
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def _apply_action(self, action: int) -> None:
        """Take ``action``: an action id (a compact index with ``compact_actions``) for a seat, a
        card for chance; then, with ``auto_forced``, every forced decision that follows.  Raises
        ``ValueError`` for an action that is not legal here."""
        core = self.core
        p = core.current_player()
        if p == _CHANCE:
            core.apply_chance(int(action))
        elif p == _TERMINAL:
            raise ValueError("the game is over")
        else:
            core.apply_move(p, self._full_id(int(action)))
        core.play_forced()

    def _action_to_string(self, player: int, action: int) -> str:
        """``play 7H``, ``sluff 4S``, ``pass``... for a seat; for chance the card, with what it
        is for when this state is that chance node (``deal 7H to seat 2``)."""
        if player != _CHANCE:
            if self.core.compact:
                ids = _compact(self.core.rules)[0]
                return _action_text(ids[action]) if 0 <= action < len(ids) else "no such action"
            return _action_text(action)
        card = _CARD_TEXT[action] if 0 <= action < 52 else str(action)
        core = self.core
        if core.current_player() != _CHANCE:
            return card
        e = core.engine
        if e is None:
            return f"deal {card} to seat {(core.dealer + len(core.deal) + 1) % core.players}"
        if core.pending is not None:
            j = len(core.chosen)
            draw = core.slots[j]
            seat = draw.seat
            if draw.kind == "stock":
                return f"seat {seat} turns up {card}"
            if draw.source == "reserve":
                return f"seat {seat} draws {card} from the reserve"
            left = len(e.stock) - core.stock_slots(j)
            if left == 1 and not core.rules.bottom_aside:
                if core.rules.first_phase is FirstPhase.BEAT:
                    return f"seat {seat} draws {card} face up, the last stock card"
                return f"seat {seat} sets aside {card} as the trump card"
            return f"seat {seat} draws {card}"
        seat, kind, _ = core.deal_slot(len(core.deal_order))
        if kind == _SPLIT:
            return f"split {card} to seat {seat}'s pile"
        if kind == _SHARE:
            return f"deal {card} of the unfinished trick to seat {seat}"
        if kind == _ASIDE:
            return f"dreck {card} set aside"
        return f"dreck {card} to seat {seat}"

    def is_terminal(self) -> bool:
        """True once the deal is over (a loser, or abandoned at the turn cap)."""
        return self.core.current_player() == _TERMINAL

    def returns(self) -> list[float]:
        """Per seat: -1 for the loser, ``1/(players-1)`` for the others; all 0 before the end and
        for an abandoned deal."""
        core = self.core
        n = core.players
        e = core.engine
        if e is None or e.phase != Phase.OVER or e.loser is None:
            return [0.0] * n
        win = 1.0 / (n - 1)
        return [-1.0 if s == e.loser else win for s in range(n)]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> SkitgubbeState:
        """A new state that seat ``player_id`` cannot tell from this one (equal information
        state string), drawn at random with ``probability_sampler`` (a callable returning floats
        uniform in [0, 1), e.g. ``pyspiel.UniformProbabilitySampler(0., 1.)``).

        The seat's own cards, every card in a public place (piles, the trick or table, killed,
        known cards) and every card the seat saw are kept.  The other cards, whose places the
        seat does not know (other seats' unknown hand cards, the stock, the face-down trump card,
        undealt cards), are shuffled among those places, each place keeping its count.  After
        phase one two constraints are kept: dreck cards dealt to several seats are shuffled only
        among the dreck cards, and a face-down trump card that has joined its holder's hand is
        replaced by a card of the trump suit.  Under "match if you can" the worlds in which a seat
        held a card it was seen not to match are rejected (up to 200 tries; if none fits, the
        real world is returned).  The chance outcomes of the history are relabelled to match
        and the new history is replayed from the start, so ``history()`` and serialization agree
        with the new world.

        With ``auto_forced``, a move may be forced in one world and a choice in the other (a seat
        that could not sluff in the real world may hold a sluffable card in the new one): the
        replay then lets the new state take the move itself, or gives it, so ``history()`` may
        differ in length from this state's.  The worlds do not use what the skipped seats show
        (that they could not sluff): they are drawn as for the default game.  A world whose
        replay ends at another node (a seat to decide here, other than ``player_id``, would be
        forced there) is rejected; after 20 such worlds the real one is returned.
        """
        def rand() -> float:
            return float(probability_sampler())

        game = self.get_game()
        core = self.core
        for _ in range(_FORCED_TRIES if core.auto_forced else 1):
            state: SkitgubbeState = game.new_initial_state()
            if _replay(state, core.resampled_actions(player_id, rand)):
                return state
        state = game.new_initial_state()
        _replay(state, [entry[1] for entry in core.log])
        return state

    def __str__(self) -> str:
        """Every hand, the stock order, the trick and the window (the full state, for debugging)."""
        return self.core.text()

    # -- for observers and tests ----------------------------------------------------------------------

    def view(self, seat: int) -> View:
        """What ``seat`` sees now (see ``_Core.view``)."""
        return self.core.view(seat)

    @property
    def engine(self) -> State | None:
        """The engine state (None while the cards are being dealt).  Read it, do not change it."""
        return self.core.engine


def _replay(state: SkitgubbeState, values: Sequence[int]) -> bool:
    """Take the actions ``values`` (one per log entry: full action ids and chance cards) from the
    new initial ``state``, without legality checks; an entry the state has already logged (a
    forced move it took itself) is skipped.  Returns False if the state then has more log entries
    than ``values`` (it took forced moves after the last one)."""
    core = state.core
    log = core.log
    core.checks = False
    try:
        for i, a in enumerate(values):
            if i < len(log):  # taken by the state itself (auto_forced)
                continue
            if core.compact and core.current_player() >= 0:
                a = _compact(core.rules)[1][a]
            state.apply_action(a)
    finally:
        core.checks = True
    return len(log) == len(values)


def _put_rotated(out: dict[int, float], masks: Sequence[int], seat: int, off: int) -> None:
    """Set ``out[off + 52 * k + c] = 1`` for every card ``c`` of ``masks[(seat + k) % n]``."""
    n = len(masks)
    for s in range(n):
        base = off + 52 * ((s - seat) % n)
        m = masks[s]
        while m:
            low = m & -m
            out[base + low.bit_length() - 1] = 1.0
            m ^= low


class SkitgubbeObserver:
    """An OpenSpiel Python observer of ``python_skitgubbe``.

    ``kind`` is one of ``info`` (information state: tensor of ``INFO_SIZE`` floats, string with
    the seat's whole history), ``obs`` (observation: ``encoding.OBS_SIZE`` floats), ``private``
    (the seat's hand: 52 floats), ``public`` (the observation with the hand and any privately
    seen trump card left out) or ``none`` (empty tensor, empty string).

    Attributes:
        tensor: ``np.ndarray`` of float32, filled by :meth:`set_from`.
        dict: named views of ``tensor`` (the fields of :data:`encoding.OBS_FIELDS`, per-seat
            fields shaped ``(8, 52)``; for ``info`` also ``seat`` (8,), ``held`` (52,), ``put``
            and ``played`` (8, 52)).
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        pieces: list[tuple[str, int, tuple[int, ...]]] = []
        if kind in ("obs", "public", "info"):
            for name, _, size in encoding.OBS_FIELDS:
                shape: tuple[int, ...] = (8, 52) if size == 8 * 52 else (size,)
                pieces.append((name, size, shape))
        if kind == "info":
            pieces += [("seat", 8, (8,)), ("held", 52, (52,)), ("put", 8 * 52, (8, 52)),
                       ("played", 8 * 52, (8, 52))]
        if kind == "private":
            pieces.append(("hand", 52, (52,)))
        total = sum(size for _, size, _ in pieces)
        self.tensor: np.ndarray[Any, Any] = np.zeros(total, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        off = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[off:off + size].reshape(shape)
            off += size

    def _view(self, state: SkitgubbeState, player: int) -> View:
        v = state.view(player)
        if self.kind == "public":
            shown = v.trump_card if v.rules.show_trump_card else -1
            v = v._replace(hand=0, trump_card=shown, legal=())
        return v

    def set_from(self, state: SkitgubbeState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` as seat ``player`` sees it."""
        kind = self.kind
        t = self.tensor
        if kind == "none":
            return
        if kind == "private":
            entries: dict[int, float] = {}
            _put_rotated(entries, [state.view(player).hand], 0, 0)
        else:
            entries = encoding.observation_entries(self._view(state, player))
            if kind == "info":
                core = state.core
                off = encoding.OBS_SIZE
                entries[off + player] = 1.0
                off += 8
                _put_rotated(entries, [core.held[player]], 0, off)
                _put_rotated(entries, core.put, player, off + 52)
                _put_rotated(entries, core.played, player, off + 52 + 8 * 52)
        t.fill(0.0)
        if entries:
            k = len(entries)
            t[np.fromiter(entries.keys(), np.intp, k)] = np.fromiter(entries.values(), np.float32, k)

    def string_from(self, state: SkitgubbeState, player: int) -> str:
        """``state`` as seat ``player`` sees it, as text."""
        kind = self.kind
        if kind == "none":
            return ""
        if kind == "private":
            return f"seat {player} hand: {format_cards(state.view(player).hand) or '-'}"
        text = encoding.observation_string(self._view(state, player))
        if kind == "info":
            return f"seat {player}\n{state.core.history_text(player)}\n--\n{text}"
        return text


pyspiel.register_game(_GAME_TYPE, SkitgubbeGame)


def bench(spec: str, games: int, seed: int = 0) -> tuple[int, list[int], float]:
    """Play ``games`` deals of the game ``spec`` (e.g. ``"python_skitgubbe(rules=goat,players=4)"``)
    with uniformly random moves and chance outcomes through the pyspiel API
    (``legal_actions``, ``chance_outcomes``, ``apply_action``).  Returns ``(steps, decisions,
    seconds)``: all actions (chance and player), the decisions (player actions) of each deal, and
    the time taken."""
    import random
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
    """``python -m skitgubbe.adapters.openspiel [--games N] [--all-seats]``: random-play speed
    (steps per second through the pyspiel API) and deal lengths (decisions: mean and longest) of
    every preset at its smallest table and at four seats, or at every seat count."""
    import argparse

    from ..engine.variants import PRESETS

    parser = argparse.ArgumentParser(prog="python -m skitgubbe.adapters.openspiel")
    parser.add_argument("--games", type=int, default=20, help="deals per game (default 20)")
    parser.add_argument("--all-seats", action="store_true", help="every seat count of each preset")
    args = parser.parse_args(argv)
    for name, rules in sorted(PRESETS.items()):
        counts = range(rules.min_players, rules.max_players + 1) if args.all_seats else sorted(
            {rules.min_players, min(4, rules.max_players)})
        for players in counts:
            spec = f"{GAME_NAME}(rules={name},players={players})"
            steps, decisions, seconds = bench(spec, args.games)
            print(f"{spec}: decisions {sum(decisions) / len(decisions):.0f} (longest {max(decisions)}), "
                  f"{steps / seconds:,.0f} steps/s")


if __name__ == "__main__":
    main()
