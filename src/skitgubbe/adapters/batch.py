"""Batch stepping for vectorized training and research (issues 20 and 30): N deals stepped in one
call by the compiled engine, observations and legal-action masks returned as stacked NumPy arrays
(needs ``numpy`` and the compiled engine, ``pip install ./native``; docs/performance.md).

::

    import numpy as np
    from skitgubbe.adapters.batch import BatchEnv, random_legal_actions

    envs = BatchEnv("pagat", players=3, n_envs=256, seed=1)
    out = envs.reset()
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = random_legal_actions(out.mask, rng)  # one uniformly random legal id per env
        out = envs.step(actions)
        # out.rewards[out.done] are the rewards of the deals that just ended

Every seat of every env is the caller's (self-play): ``to_act[i]`` says whose observation and
mask row ``i`` holds, and the action of row ``i`` is that seat's.  Or the other seats are played
by compiled bots: :meth:`BatchEnv.play_others` plays every seat but one in C++, each seat by the
bot ``bots`` names for it (:data:`~skitgubbe.bots.compiled_bots.COMPILED_BOTS`: ``"random"``,
``"heuristic"``, any mix per seat) with exactly the Python bot's decisions
(:mod:`skitgubbe.bots.compiled_bots`): in every deal the bot of seat ``s`` draws from its own
``random.Random(k)``, ``k`` the seat's *bot seed* given with the deal (``bot_seeds``, below), as
``make_bot(name, random.Random(k))`` seeds a Python bot; without one ``k`` is drawn from the env's
generator.  A deal given with its chance seed and bot seeds is then the Python engine's deal played
by those bots for the learner's actions (tests/adapters/test_batch_bots.py compares them with the
PettingZoo environment, observations, masks and rewards, deal for deal).

::

    envs = BatchEnv("goat", players=4, n_envs=256, seed=1, bots="heuristic")
    out = envs.reset()
    envs.play_others(0)  # the heuristic bots play seats 1..3 up to seat 0's first decision
    while True:
        out = envs.step(policy(out.obs, out.mask))  # seat 0's actions
        envs.play_others(0)

Shapes and dtypes (``N`` = ``n_envs``, ``P`` = ``players``), in :class:`BatchStep`:

* ``obs``: float32 ``(N, OBS_SIZE)`` = ``(N, 1652)``: row ``i`` is
  :func:`skitgubbe.adapters.encoding.observation` of :func:`skitgubbe.engine.view.view_of` for the
  seat to act in env ``i`` (what that seat may see only: never another seat's hand or the stock
  order).
* ``mask``: int8 ``(N, NUM_ACTIONS)`` = ``(N, 551)``: ``mask[i, k]`` is 1 exactly when action id
  ``k`` (:mod:`skitgubbe.adapters.encoding`: plays of one card, runs, two or three cards of one
  rank, stock, sluff, pass, pick up, Mas's ``store`` and ``exchange``) is legal for that seat.
* ``to_act``: int32 ``(N,)``: the seat (0..P-1) whose observation and mask row ``i`` holds; ``-2``
  for a finished deal left waiting (``auto_reset=False``), whose rows are then all zero.
* ``rewards``: float32 ``(N, P)``, per seat (absolute seat numbers): zero unless the deal of env
  ``i`` ended in this step; then the PettingZoo adapter's rewards
  (:mod:`skitgubbe.adapters.pettingzoo`): ``-1`` for the loser and ``+1/(P-1)`` for every other
  seat (they sum to zero), or all zero when the engine abandoned the deal at its action limit
  (``truncated``).
* ``done``: bool ``(N,)``: the deal of env ``i`` ended in this step.  With ``auto_reset`` (the
  default) the env has already been dealt anew: its ``obs``, ``mask`` and ``to_act`` are the new
  deal's first decision.  ``done`` is reported once per deal.
* ``truncated``: bool ``(N,)``: the ended deal was abandoned at the action limit (a subset of
  ``done``; random play ends far sooner).

The arrays are the batch's own memory (views, no copy): the next :meth:`BatchEnv.step` or
:meth:`BatchEnv.reset` overwrites them.  Copy (``out.obs.copy()``) what you keep.

Dealing.  By default each env deals from its own xoshiro256** generator (the compiled engine's),
seeded from ``seed``: the deck order, the dealer (uniform over the seats) and the shuffles of the
chance steps (the dreck dealt round several needy seats, Koira's split of a trick, a trick dealt
round).  This is *not* the Python engine's seeding nor the PettingZoo adapter's.  A deal can be
given instead (duplicate deals, paired tests): a deck order (the 52 card numbers ``suit * 13 + rank
- 2``, first card dealt first, as ``State.new(..., deck=...)`` takes them; the deal of
``State.new(rules, P, seed=k)`` is ``deck_from_seed(k)``, :func:`skitgubbe.engine.state.deck_from_seed`),
a dealer seat, and optionally a *chance seed* ``c``: then every chance step of that deal is
``State.chance_action(rng)`` of one ``rng = random.Random(c)`` made when the deal starts, which is
how the PettingZoo adapter resolves chance (``reset(options={"deck": ..., "chance_seed": c})``), so
the deal can be replayed there step for step; without one its chance steps come from the env's
generator.  Given deals are dealt now (:meth:`BatchEnv.reset` with ``decks``, :meth:`BatchEnv.reset_env`)
or queued as the next deal of an env (:meth:`BatchEnv.queue_deal`, used by the automatic reset).
:attr:`BatchEnv.decks` and :attr:`BatchEnv.dealers` give each env's current deal, and
:meth:`BatchEnv.dreck_order` the order of its last chance step, so ``State.new(rules, P,
dealer=dealers[i], deck=decks[i].tolist(), ask_every_seat=True)`` replays it in the Python engine.

Turn order is the PettingZoo adapter's: the sequential sluffing protocol with every seat holding
cards asked in each sluff window (``ask_every_seat=True``, docs/sluffing.md), so who is asked never
depends on hidden cards.

Rules: every preset of :data:`skitgubbe.engine.compiled.COMPILED_PRESETS` at its seat counts, by
its own compiled code (:data:`BATCH_PRESETS`), and any other rules the compiled engine plays
(:func:`skitgubbe.engine.compiled.unsupported` returns None: any combination of
``COMPILED_OPTIONS``) by the run-time policy (``RuntimeBatch``, about 0.8 to 0.9 times as fast).
Other rules raise :class:`~skitgubbe.engine.compiled.UnsupportedError` (a ``ValueError``) with
that reason; without the compiled engine the constructor raises ``ImportError``.  There is no
pure-Python fallback: use :mod:`skitgubbe.adapters.pettingzoo` (the same observations, masks and
rewards, one env at a time).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..bots.compiled_bots import COMPILED_BOTS, HEURISTIC_WEIGHTS, compiled_bot_kind
from ..bots.heuristic import HeuristicBot
from ..engine import compiled
from ..engine.native_options import POLICIES, member_values
from ..engine.rules import Rules
from ..engine.state import validate_deck
from ..engine.variants import PRESETS, RESEARCH_PRESETS
from . import encoding

try:
    import skitgubbe_native
except ImportError:  # the optional compiled engine is not installed
    skitgubbe_native = None  # type: ignore[assignment]

__all__ = ["BATCH_PRESETS", "BatchEnv", "BatchStep", "random_legal_actions"]

BATCH_PRESETS: dict[str, str] = {preset: policy.stem + "Batch" for policy in POLICIES
                                 for preset in policy.presets}
"""The presets :class:`BatchEnv` steps by their own compiled code, with the class of
``skitgubbe_native`` that does it (``"goat": "GoatBatch"``); other rules the compiled engine plays
go to ``RuntimeBatch``."""

_DECK = np.arange(52)


def random_legal_actions(mask: npt.ArrayLike, rng: np.random.Generator) -> npt.NDArray[np.intp]:
    """One uniformly random legal action id per row of ``mask``.

    ``mask``: ``(N, K)`` array, nonzero where an action id is legal (a :class:`BatchStep`'s
    ``mask``); returns ``(N,)`` action ids (``intp``), each legal in its row.  Every legal id of a
    row is equally likely.  The random number is drawn for every id and the illegal ones are set
    below every possible draw before the argmax, so a legal id that draws ``0.0`` is still chosen
    over the illegal ones (``argmax(random * mask)``, the obvious one-liner, is not: with the only
    legal id drawing 0.0 it picks id 0, illegal).

    Raises ``ValueError`` naming the first row with no legal id (a :class:`BatchEnv` never returns
    one)."""
    m = np.asarray(mask) != 0
    if m.ndim != 2:
        raise ValueError(f"mask must be 2-dimensional (envs, action ids), not of shape {m.shape}")
    empty = np.flatnonzero(~m.any(axis=1))
    if empty.size:
        raise ValueError(f"row {int(empty[0])} of the mask has no legal action id")
    draws = rng.random(m.shape, dtype=np.float32)
    picks: npt.NDArray[np.intp] = np.argmax(np.where(m, draws, np.float32(-1.0)), axis=1)
    return picks


class BatchStep(NamedTuple):
    """What :meth:`BatchEnv.reset` and :meth:`BatchEnv.step` return (shapes and dtypes in the
    module docstring); views of the batch's arrays, overwritten by the next call."""

    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.int8]
    to_act: npt.NDArray[np.int32]
    rewards: npt.NDArray[np.float32]
    done: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]



def _deck_row(deck: Any, where: str) -> npt.NDArray[np.uint8]:
    """``deck`` (52 card numbers) as a uint8 array, checked; ``ValueError`` prefixed by ``where``
    naming what is wrong (the count, a number that is no card, a card twice)."""
    a = np.asarray(deck)
    if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
        raise ValueError(f"{where}a deck order is a sequence of the 52 card numbers (integers 0..51), "
                         f"not {deck!r:.80}")
    if a.shape != (52,) or a.min() < 0 or a.max() > 51 or not np.array_equal(np.sort(a), _DECK):
        try:
            validate_deck([int(c) for c in a.tolist()])
        except ValueError as e:
            raise ValueError(f"{where}{e}") from None
    return np.ascontiguousarray(a, dtype=np.uint8)


_NO_KEYS = np.zeros(0, dtype=np.uint64)


def _bot_keys(seeds: Any, rows: int | None, players: int, where: str) -> npt.NDArray[np.uint64]:
    """The bot seeds of one deal (``rows`` None: ``players`` integers) or of every env (``rows``
    rows of ``players``) as a flat uint64 array; None: the empty array (none given).  ``ValueError``
    prefixed by ``where`` for another shape or a seed that is not an integer 0..2**64-1."""
    if seeds is None:
        return _NO_KEYS
    flat = [list(r) for r in seeds] if rows is not None else [list(seeds)]
    if (rows is not None and len(flat) != rows) or any(len(r) != players for r in flat):
        shape = f"{rows} rows of {players}" if rows is not None else f"{players}"
        raise ValueError(f"{where}give bot seeds as {shape} integers (one per seat), not {seeds!r:.80}")
    out = []
    for r in flat:
        for k in r:
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= int(k) < 2**64:
                raise ValueError(f"{where}a bot seed is an integer 0..2**64-1, not {k!r}")
            out.append(int(k))
    return np.array(out, dtype=np.uint64)


def _chance_key(seed: Any, where: str) -> tuple[int, int]:
    """(mode, key) of a chance seed: (0, 0) for None, (1, seed) for an integer 0..2**64-1."""
    if seed is None:
        return 0, 0
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) < 2**64:
        raise ValueError(f"{where}a chance seed is None or an integer 0..2**64-1, not {seed!r}")
    return 1, int(seed)


class BatchEnv:
    """``n_envs`` deals of ``rules`` (a preset name or :class:`~skitgubbe.engine.rules.Rules`) at
    ``players`` seats, stepped together by the compiled engine (module docstring).

    Args:
        rules: a preset name (:data:`~skitgubbe.engine.variants.PRESETS` or ``RESEARCH_PRESETS``)
            or any :class:`Rules` the compiled engine plays.
        players: seats, within what the compiled engine plays for the rules.
        n_envs: deals stepped together, 1 or more.
        seed: the seed of the envs' own generators, 0..2**64-1.
        action_limit: actions after which a deal is abandoned (``truncated``), 1 or more.
        auto_reset: deal a finished env anew inside the step that ends its deal (its queued deal,
            :meth:`queue_deal`, or one from its generator); False leaves it finished (``to_act``
            -2, zero rows, :attr:`over` True, its actions ignored) until :meth:`reset_env` or
            :meth:`reset`.
        bots: the bots of :meth:`play_others`: a name of
            :data:`~skitgubbe.bots.compiled_bots.COMPILED_BOTS` (or the alias ``easy``) for every
            seat, or ``players`` names, one per seat (the entry of the seat ``play_others`` leaves
            to the caller is not used).

    Raises ``ImportError`` without the compiled engine, :class:`~skitgubbe.engine.compiled.UnsupportedError`
    (a ``ValueError``) with :func:`~skitgubbe.engine.compiled.unsupported`'s reason for rules or a
    seat count the compiled engine does not play, and ``ValueError`` for ``n_envs`` or
    ``action_limit`` below 1, a seed out of range, or ``bots`` naming a bot the batches do not
    play (the message lists those they do) or not one per seat.
    """

    def __init__(self, rules: str | Rules = "pagat", players: int = 3, n_envs: int = 64, seed: int = 0,
                 *, action_limit: int = 20_000, auto_reset: bool = True,
                 bots: str | Sequence[str] = "random") -> None:
        if isinstance(rules, str):
            if rules not in PRESETS and rules not in RESEARCH_PRESETS:
                raise compiled.UnsupportedError(f"no preset named {rules!r}")
            rules = PRESETS.get(rules) or RESEARCH_PRESETS[rules]  # (a short pack: refused below, by name)
        native = skitgubbe_native
        if native is None:
            raise ImportError("BatchEnv needs the compiled engine: pip install ./native "
                              "(docs/performance.md)")
        reason = compiled.unsupported(rules, players)
        if reason is not None:
            raise compiled.UnsupportedError(reason)
        if n_envs < 1:
            raise ValueError(f"n_envs must be at least 1, not {n_envs}")
        if action_limit < 1:
            raise ValueError(f"action_limit must be at least 1, not {action_limit}")
        if not 0 <= seed < 2**64:
            raise ValueError(f"the seed must be 0..2**64-1, not {seed}")
        self.rules = rules
        self.players = players
        self.n_envs = n_envs
        self.auto_reset = bool(auto_reset)
        flags = (action_limit, rules.exposed_bottom, self.auto_reset)
        own = rules.name in BATCH_PRESETS and PRESETS.get(rules.name) == rules
        self.preset: str | None = rules.name if own else None
        """The preset whose own compiled code steps the batch, or None for the run-time policy."""
        self._core: skitgubbe_native.NativeBatch
        if self.preset is not None:
            make = getattr(native, BATCH_PRESETS[self.preset])
            self._core = make(players, n_envs, seed, *flags)
        else:
            self._core = native.RuntimeBatch(member_values(rules), players, n_envs, seed, *flags)
        core = self._core
        names = [bots] * players if isinstance(bots, str) else list(bots)
        if len(names) != players:
            raise ValueError(f"give one bot per seat ({players}), not {len(names)}: {bots!r:.80}")
        kinds = [compiled_bot_kind(n) if isinstance(n, str) else None for n in names]
        if None in kinds:
            bad = names[kinds.index(None)]
            raise ValueError(f"the batches play the compiled bots {', '.join(COMPILED_BOTS)} only, "
                             f"not {bad!r}")
        core.set_bots([int(k) for k in kinds if k is not None],
                      [float(getattr(HeuristicBot, w)) for w in HEURISTIC_WEIGHTS])
        self.bots: tuple[str, ...] = tuple(COMPILED_BOTS[int(k)] for k in kinds if k is not None)
        """The bot :meth:`play_others` plays at each seat (names of ``COMPILED_BOTS``)."""
        self._out = BatchStep(core.obs, core.mask, core.to_act, core.rewards, core.done, core.truncated)
        assert self._out.obs.shape == (n_envs, encoding.OBS_SIZE)
        assert self._out.mask.shape == (n_envs, encoding.NUM_ACTIONS)
        self._ready = False

    def _dealer(self, dealer: Any, where: str) -> int:
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) \
                or not 0 <= int(dealer) < self.players:
            raise ValueError(f"{where}dealer seat {dealer!r} does not exist: seats are 0..{self.players - 1}")
        return int(dealer)

    def reset(self, decks: Sequence[Sequence[int]] | npt.ArrayLike | None = None,
              dealers: Sequence[int] | npt.ArrayLike | int | None = None,
              chance_seeds: Sequence[int | None] | None = None,
              bot_seeds: Sequence[Sequence[int]] | npt.ArrayLike | None = None) -> BatchStep:
        """Deal every env anew; ``rewards`` zero, ``done`` and ``truncated`` False.

        Without ``decks`` each env deals its queued deal (:meth:`queue_deal`) or one from its own
        generator (not the same deals as the previous reset); ``dealers`` and ``chance_seeds``
        must then be None.  With ``decks`` (``N`` deck orders: an ``(N, 52)`` array or ``N``
        sequences of the 52 card numbers, first card dealt first) env ``i`` is dealt ``decks[i]``
        by ``dealers[i]`` (``N`` seats, or one seat for every env; default 0, as ``State.new``),
        its chance steps shuffled by ``random.Random(chance_seeds[i])`` (``N`` entries, each an
        integer 0..2**64-1 or None for the env's generator; default None for all), and the bot of
        seat ``s`` (:meth:`play_others`) by ``random.Random(bot_seeds[i][s])`` (``N`` rows of ``P``
        integers 0..2**64-1; default None: each drawn from the env's generator).

        Raises ``ValueError`` naming the env and what is wrong: a deck that is not the 52 cards
        once each (its length, a number that is no card, a card twice), a dealer that is no
        seat, a chance seed or bot seed out of range, the wrong number of entries; nothing is
        dealt then."""
        if decks is None:
            if dealers is not None or chance_seeds is not None or bot_seeds is not None:
                raise ValueError("dealers, chance_seeds and bot_seeds go with decks: give decks too")
            self._core.reset()
        else:
            n = self.n_envs
            rows = list(decks)  # type: ignore[arg-type]
            if len(rows) != n:
                raise ValueError(f"give one deck order per env: {n}, not {len(rows)}")
            d = np.stack([_deck_row(r, f"env {i}: ") for i, r in enumerate(rows)])
            if dealers is None or isinstance(dealers, (int, np.integer)):
                seats = [0 if dealers is None else dealers] * n
            else:
                seats = list(dealers)  # type: ignore[arg-type]
                if len(seats) != n:
                    raise ValueError(f"give one dealer per env (or one for all): {n}, not {len(seats)}")
            dl = np.array([self._dealer(s, f"env {i}: ") for i, s in enumerate(seats)], dtype=np.int32)
            given = [None] * n if chance_seeds is None else list(chance_seeds)
            if len(given) != n:
                raise ValueError(f"give one chance seed (or None) per env: {n}, not {len(given)}")
            keys = [_chance_key(c, f"env {i}: ") for i, c in enumerate(given)]
            bots = _bot_keys(bot_seeds, n, self.players, "")
            self._core.reset_given(d, dl, np.array([m for m, _ in keys], dtype=np.uint8),
                                   np.array([k for _, k in keys], dtype=np.uint64), bots)
        self._ready = True
        return self._out

    def reset_env(self, i: int, deck: Sequence[int] | npt.ArrayLike, dealer: int = 0,
                  chance_seed: int | None = None, bot_seeds: Sequence[int] | None = None) -> BatchStep:
        """Deal env ``i`` the deck order ``deck`` by ``dealer`` now (whatever it was doing; the
        others are untouched), its chance steps shuffled by ``random.Random(chance_seed)`` (None:
        the env's generator), seat ``s``'s bot by ``random.Random(bot_seeds[s])`` (``P``
        integers; None: drawn from the env's generator); its ``rewards`` row zero, ``done`` and
        ``truncated`` False.  With
        ``auto_reset=False`` this is how a finished env gets its next deal.  Raises ``ValueError``
        as :meth:`reset` does, and for an env that does not exist; ``RuntimeError`` before the
        first :meth:`reset`."""
        if not self._ready:
            raise RuntimeError("call reset() before reset_env()")
        self._check_env(i)
        mode, key = _chance_key(chance_seed, "")
        self._core.reset_env(i, _deck_row(deck, ""), self._dealer(dealer, ""), mode, key,
                             _bot_keys(bot_seeds, None, self.players, ""))
        return self._out

    def queue_deal(self, i: int, deck: Sequence[int] | npt.ArrayLike, dealer: int = 0,
                   chance_seed: int | None = None, bot_seeds: Sequence[int] | None = None) -> None:
        """Make ``deck`` by ``dealer`` (and ``chance_seed`` and ``bot_seeds``, as in
        :meth:`reset_env`) the next deal of
        env ``i``: dealt when its current deal ends (the automatic reset) or at the next
        :meth:`reset` without decks, instead of a deal from its generator.  One deal is queued per
        env: queueing again replaces it; :meth:`queued` says whether one waits.  Raises
        ``ValueError`` as :meth:`reset_env` does."""
        self._check_env(i)
        mode, key = _chance_key(chance_seed, "")
        self._core.queue_deal(i, _deck_row(deck, ""), self._dealer(dealer, ""), mode, key,
                              _bot_keys(bot_seeds, None, self.players, ""))

    def queued(self, i: int) -> bool:
        """True while a deal queued for env ``i`` (:meth:`queue_deal`) has not been dealt."""
        self._check_env(i)
        return bool(self._core.queued(i))

    def _check_env(self, i: int) -> None:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.n_envs:
            raise ValueError(f"there is no env {i!r}: envs are 0..{self.n_envs - 1}")

    def step(self, actions: npt.ArrayLike) -> BatchStep:
        """Take ``actions[i]`` (an action id, :mod:`skitgubbe.adapters.encoding`) for the seat to act
        in env ``i``, for every env.  ``actions``: ``N`` integers (any integer dtype); the entry of
        a finished env left waiting (``auto_reset=False``) is not read.

        Every id is checked before any env moves: an id that is not legal (``mask[i, id]`` is 0) or
        outside ``0..550`` raises ``ValueError`` naming the first such env, its id and its seat, and
        no env changes.  ``ValueError`` too for the wrong number of actions or non-integer actions;
        ``RuntimeError`` before the first :meth:`reset`."""
        self._core.step(self._action_ids(actions))
        return self._out

    def _action_ids(self, actions: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """``actions`` as the contiguous int64 array of one id per env that the core steps; raises
        ``RuntimeError`` before the first :meth:`reset`, ``ValueError`` for another shape or
        non-integer ids."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.n_envs,):
            raise ValueError(f"step takes one action id per env: shape ({self.n_envs},), not {a.shape}")
        if a.dtype.kind not in "iu":
            raise ValueError(f"action ids are integers, not {a.dtype}")
        return np.ascontiguousarray(a, dtype=np.int64)

    def step_some(self, actions: npt.ArrayLike) -> BatchStep:
        """:meth:`step` for the envs whose entry of ``actions`` is 0 or more; an env whose entry is
        negative is not stepped (its rows unchanged, ``rewards`` zero, ``done`` and ``truncated``
        False).  Used to play some seats by other means (:mod:`skitgubbe.adapters.vector`'s
        opponents).  Raises as :meth:`step` does for the ids that are stepped."""
        self._core.step_some(self._action_ids(actions))
        return self._out

    def play_others(self, seat: int, *, record: bool = False) -> list[tuple[int, int | tuple[int, ...]]]:
        """Compiled opponents: in every env, every seat but ``seat`` is played by its bot
        (:attr:`bots`: :class:`~skitgubbe.bots.randombot.RandomBot` or
        :class:`~skitgubbe.bots.heuristic.HeuristicBot`, their decisions and random numbers, each
        seat's ``random.Random`` seeded per deal by its bot seed, module docstring) until ``seat``
        is to act, all in C++.  A deal that ends meanwhile is reported in
        ``rewards``, ``done`` and ``truncated`` as :meth:`step` reports it (added to what the last
        step reported: an env that already reported a deal's end in it keeps that report) and the
        env is dealt anew (its queued deal, or one from its generator) and played on until ``seat``
        is to act; without ``auto_reset`` it waits.  Call it after :meth:`step` (or :meth:`reset`):
        the arrays are then those of ``seat`` in every env.

        Returns ``[]``, or with ``record`` the moves taken, in order: ``(env, action id)`` for a
        seat's action and ``(env, order)`` (a tuple of cards) for a chance step, so that a Python
        engine can replay them.  Raises ``ValueError`` for a seat that does not exist;
        ``RuntimeError`` before the first :meth:`reset`."""
        if not self._ready:
            raise RuntimeError("call reset() before play_others()")
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat!r}: seats are 0..{self.players - 1}")
        log = self._core.play_others(int(seat), record)
        moves: list[tuple[int, int | tuple[int, ...]]] = []
        j = 0
        while j < len(log):
            env, what = log[j], log[j + 1]
            if what >= 0:
                moves.append((env, what))
                j += 2
            else:
                k = log[j + 2]
                moves.append((env, tuple(log[j + 3:j + 3 + k])))
                j += 3 + k
        return moves

    @property
    def other_steps(self) -> int:
        """Actions taken by :meth:`play_others` since the batch was made."""
        return int(self._core.other_steps)

    def observe(self, seat: int, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """float32 ``(N, OBS_SIZE)``: row ``i`` is the observation of ``seat`` (0..P-1) in env ``i``
        now (:func:`~skitgubbe.adapters.encoding.observation` of its view, whether or not it is
        to act; zero for a finished deal left waiting), written into ``out`` (a C-contiguous
        float32 ``(N, OBS_SIZE)`` array) or a new array.  Raises ``ValueError`` for a seat that
        does not exist or a wrong ``out``; ``RuntimeError`` before the first :meth:`reset`."""
        if not self._ready:
            raise RuntimeError("call reset() before observe()")
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat!r}: seats are 0..{self.players - 1}")
        if out is None:
            out = np.empty((self.n_envs, encoding.OBS_SIZE), dtype=np.float32)
        elif out.shape != (self.n_envs, encoding.OBS_SIZE) or out.dtype != np.float32 \
                or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous float32 array of shape ({self.n_envs}, "
                             f"{encoding.OBS_SIZE})")
        self._core.observe_seat(int(seat), out)
        return out

    @property
    def last(self) -> BatchStep:
        """What the last :meth:`reset` or :meth:`step` returned (the same views)."""
        return self._out

    @property
    def over(self) -> npt.NDArray[np.bool_]:
        """bool ``(N,)``: the env's deal has ended and waits for :meth:`reset_env` (only with
        ``auto_reset=False``; a view)."""
        return np.asarray(self._core.over)

    @property
    def decks(self) -> npt.NDArray[np.uint8]:
        """uint8 ``(N, 52)``: the deck order of each env's current deal (first card dealt first):
        ``State.new(rules, players, dealer=dealers[i], deck=decks[i].tolist())`` replays it."""
        return np.asarray(self._core.decks)

    @property
    def dealers(self) -> npt.NDArray[np.int32]:
        """int32 ``(N,)``: the dealer seat of each env's current deal."""
        return np.asarray(self._core.dealers)

    def dreck_order(self, i: int) -> tuple[int, ...]:
        """The order of the last chance step in env ``i`` (the dreck dealt round several seats,
        Koira's split, a trick dealt round; empty before the first):
        ``Action(Kind.DRECK, cards, order)`` replays that chance step in the Python engine.  It
        stays until the env's next chance step, across new deals."""
        self._check_env(i)
        k = int(self._core.dreck_lengths[i])
        return tuple(int(c) for c in self._core.dreck_orders[i][:k])

    @property
    def steps(self) -> int:
        """Env steps taken since the batch was made (each env's action counts one)."""
        return int(self._core.steps)
