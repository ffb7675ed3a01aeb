"""Batch stepping for vectorized training (issue 20): N deals stepped in one call by the compiled
engine, observations and legal-action masks returned as stacked NumPy arrays (needs ``numpy`` and
the compiled engine, ``pip install ./native``; docs/performance.md).

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

Shapes and dtypes (``N`` = ``n_envs``, ``P`` = ``players``), in :class:`BatchStep`:

* ``obs``: float32 ``(N, OBS_SIZE)`` = ``(N, 1652)``: row ``i`` is
  :func:`skitgubbe.adapters.encoding.observation` of :func:`skitgubbe.engine.view.view_of` for the
  seat to act in env ``i`` (what that seat may see only: never another seat's hand or the stock
  order).
* ``mask``: int8 ``(N, NUM_ACTIONS)`` = ``(N, 551)``: ``mask[i, k]`` is 1 exactly when action id
  ``k`` (:mod:`skitgubbe.adapters.encoding`) is legal for that seat.
* ``to_act``: int32 ``(N,)``: the seat (0..P-1) whose observation and mask row ``i`` holds.
* ``rewards``: float32 ``(N, P)``, per seat (absolute seat numbers): zero unless the deal of env
  ``i`` ended in this step; then the PettingZoo adapter's rewards
  (:mod:`skitgubbe.adapters.pettingzoo`): ``-1`` for the loser and ``+1/(P-1)`` for every other
  seat (they sum to zero), or all zero when the engine abandoned the deal at its action limit
  (``truncated``).
* ``done``: bool ``(N,)``: the deal of env ``i`` ended in this step.  The env has already been
  dealt anew (automatic reset): its ``obs``, ``mask`` and ``to_act`` are the new deal's first
  decision.  ``done`` is reported once per deal.
* ``truncated``: bool ``(N,)``: the ended deal was abandoned at the action limit (a subset of
  ``done``; random play of pagat ends far sooner).

The arrays are the batch's own memory (views, no copy): the next :meth:`BatchEnv.step` or
:meth:`BatchEnv.reset` overwrites them.  Copy (``out.obs.copy()``) what you keep.

Dealing: each env deals from its own xoshiro256** generator (the compiled engine's), seeded from
``seed``: the deck order and the dealer (uniform over the seats).  This is *not* the Python
engine's seeding (:func:`~skitgubbe.engine.state.deck_from_seed`) nor the PettingZoo adapter's:
the same seed gives other deals.  :attr:`BatchEnv.decks` and :attr:`BatchEnv.dealers` give each
env's current deal, so ``State.new(rules, P, dealer=dealers[i], deck=decks[i].tolist(),
ask_every_seat=True)`` replays it in the Python engine.  The dreck (goat), when it is dealt round
several needy seats, is shuffled by the env's generator too, inside the step that ends phase one;
:meth:`BatchEnv.dreck_order` gives the last order dealt, the chance action of that step.

Turn order is the PettingZoo adapter's: the sequential sluffing protocol with every seat holding
cards asked in each sluff window (``ask_every_seat=True``, docs/sluffing.md), so who is asked never
depends on hidden cards; pagat has no sluffing.

Rules: ``pagat`` (and ``myllymatti``, the same game) at 2 to 4 seats and ``goat`` at 3 to 8.
Other rules raise :class:`~skitgubbe.engine.compiled.UnsupportedError` (a ``ValueError``); without
the compiled engine the constructor raises ``ImportError``.  There is no pure-Python fallback: use
:mod:`skitgubbe.adapters.pettingzoo` (the same observations, masks and rewards, one env at a time).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..engine import compiled
from ..engine.rules import Rules
from ..engine.variants import PRESETS, RESEARCH_PRESETS
from . import encoding

try:
    import skitgubbe_native
except ImportError:  # the optional compiled engine is not installed
    skitgubbe_native = None  # type: ignore[assignment]

__all__ = ["BATCH_PRESETS", "BatchEnv", "BatchStep", "random_legal_actions"]

BATCH_PRESETS: dict[str, str] = {"pagat": "PagatBatch", "myllymatti": "PagatBatch", "goat": "GoatBatch"}
"""The presets :class:`BatchEnv` steps, with the class of ``skitgubbe_native`` that does it."""


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


class BatchEnv:
    """``n_envs`` deals of ``rules`` (a preset name or :class:`~skitgubbe.engine.rules.Rules`) at
    ``players`` seats, stepped together by the compiled engine.

    Raises ``ImportError`` without the compiled engine, :class:`~skitgubbe.engine.compiled.UnsupportedError`
    for rules or a seat count it does not step in batches, and ``ValueError`` for ``n_envs`` below 1
    or an ``action_limit`` below 1 (actions after which a deal is abandoned: ``truncated``).
    """

    def __init__(self, rules: str | Rules = "pagat", players: int = 3, n_envs: int = 64, seed: int = 0,
                 *, action_limit: int = 20_000) -> None:
        if isinstance(rules, str):
            if rules not in PRESETS and rules not in RESEARCH_PRESETS:
                raise compiled.UnsupportedError(f"no preset named {rules!r}")
            rules = PRESETS.get(rules) or RESEARCH_PRESETS[rules]  # (a short pack: refused below, by name)
        native = skitgubbe_native
        if native is None:
            raise ImportError("BatchEnv needs the compiled engine: pip install ./native "
                              "(docs/performance.md)")
        reason = compiled.unsupported(rules, players)
        if reason is None and (rules.name not in BATCH_PRESETS or PRESETS[rules.name] != rules):
            reason = (f"batch stepping covers the presets {', '.join(BATCH_PRESETS)} only, unchanged: "
                      f"not {rules.name}")
        if reason is not None:
            raise compiled.UnsupportedError(reason)
        if n_envs < 1:
            raise ValueError(f"n_envs must be at least 1, not {n_envs}")
        if not 0 <= seed < 2**64:
            raise ValueError(f"the seed must be 0..2**64-1, not {seed}")
        self.rules = rules
        self.players = players
        self.n_envs = n_envs
        self._core: Any = getattr(native, BATCH_PRESETS[rules.name])(players, n_envs, seed, action_limit)
        core = self._core
        self._out = BatchStep(core.obs, core.mask, core.to_act, core.rewards, core.done, core.truncated)
        assert self._out.obs.shape == (n_envs, encoding.OBS_SIZE)
        assert self._out.mask.shape == (n_envs, encoding.NUM_ACTIONS)
        self._ready = False

    def reset(self) -> BatchStep:
        """Deal every env anew (from its own generator: not the same deals as the first reset);
        ``rewards`` zero, ``done`` and ``truncated`` False."""
        self._core.reset()
        self._ready = True
        return self._out

    def step(self, actions: npt.ArrayLike) -> BatchStep:
        """Take ``actions[i]`` (an action id, :mod:`skitgubbe.adapters.encoding`) for the seat to act
        in env ``i``, for every env.  ``actions``: ``N`` integers (any integer dtype).

        Every id is checked before any env moves: an id that is not legal (``mask[i, id]`` is 0) or
        outside ``0..550`` raises ``ValueError`` naming the first such env, its id and its seat, and
        no env changes.  ``ValueError`` too for the wrong number of actions or non-integer actions;
        ``RuntimeError`` before the first :meth:`reset`."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.n_envs,):
            raise ValueError(f"step takes one action id per env: shape ({self.n_envs},), not {a.shape}")
        if a.dtype.kind not in "iu":
            raise ValueError(f"action ids are integers, not {a.dtype}")
        self._core.step(np.ascontiguousarray(a, dtype=np.int64))
        return self._out

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
        """The order of the last dreck dealt round several seats in env ``i`` (empty before the
        first): ``Action(Kind.DRECK, cards, order)`` replays that chance step in the Python engine.
        It stays until the env's next such dreck, across new deals."""
        if not 0 <= i < self.n_envs:
            raise ValueError(f"there is no env {i}: envs are 0..{self.n_envs - 1}")
        k = int(self._core.dreck_lengths[i])
        return tuple(int(c) for c in self._core.dreck_orders[i][:k])

    @property
    def steps(self) -> int:
        """Env steps taken since the batch was made (each env's action counts one)."""
        return int(self._core.steps)
