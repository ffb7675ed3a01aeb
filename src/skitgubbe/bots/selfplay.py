"""The self-play bot: a value network trained by Deep Monte-Carlo self-play, run in pure Python.

**What it computes.**  For its seat's :class:`~skitgubbe.engine.view.View` the network gives, for
every action id ``a`` (the action space of :mod:`skitgubbe.adapters.encoding`, 551 ids), ``Q(obs,
a)``: its estimate of the seat's reward at the end of the deal (``-1`` for the loser, ``+1/(P-1)``
for the others) if it takes ``a`` now and every seat plays on as the agent does.  The bot plays the
legal action of highest ``Q`` (exact ties broken by its ``random.Random``); a decision with one
legal action is taken without the network.  It never consults another bot: it learned only from
deals it played against itself (:mod:`skitgubbe.adapters.selfplay`, ``skitgubbe train-selfplay``).

**Features.**  ``obs`` is the observation of :func:`skitgubbe.adapters.encoding.observation` (1652
floats read from the view alone, seats rotated so that the observing seat comes first), which is
what :class:`~skitgubbe.adapters.batch.BatchEnv` hands the trainer.  The bots may not import the
adapters (the layer contract in pyproject.toml), so :func:`observation_entries` and
:func:`action_index` compute the same encoding here, from the engine's types only;
``tests/test_selfplay.py`` keeps them equal to the adapters' on every decision of seeded deals.

**Network.**  ``h1 = relu(obs W1 + b1)`` (``H1`` units), ``h2 = relu(h1 W2 + b2)`` (``H2``), ``Q =
h2 W3 + b3`` (551).  ``obs`` is sparse (about a hundred nonzero entries), so ``obs W1`` is a sum of
rows of ``W1``, and only the legal actions' columns of ``W3`` are computed.
:class:`skitgubbe.adapters.selfplay.NumpyQ` runs the same network with NumPy on batches (the bots use
the standard library only).

**Weights** ship as package data, ``selfplay_weights.json`` (format :data:`FORMAT`): one model per
trained preset and seat count (``"pagat-3"``, ``"goat-4"``), each array little-endian float16,
zlib-compressed and base64-encoded (:func:`skitgubbe.bots.learned.encode_array`).  A deal is played
with the model of its preset and seat count, else of its preset at the nearest seat count (the
observation is seat-relative), else of the trained preset whose rules differ from the deal's in the
fewest options (:func:`~skitgubbe.engine.variants.rules_diff`).  So the bot plays every preset and
option set, legally, but only ``pagat`` at 3 seats and ``goat`` at 4 were trained
(:func:`shipped_models` lists the shipped models); elsewhere it plays an untrained guess.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from operator import add, mul
from typing import Any

from ..engine.actions import Action, Kind
from ..engine.base import Phase
from ..engine.rules import Rules
from ..engine.variants import PRESETS, rules_diff
from ..engine.view import View
from .learned import decode_array

__all__ = ["FORMAT", "WEIGHTS_FILE", "OBS_SIZE", "NUM_ACTIONS", "Model", "SelfPlayBot", "action_index",
           "load_models", "model_for", "model_key", "observation_entries", "shipped_models"]

FORMAT = "skitgubbe-selfplay-v1"
"""The ``format`` of a self-play weights file."""

WEIGHTS_FILE = "selfplay_weights.json"
"""The package data file of the shipped weights (in ``skitgubbe/bots``)."""

OBS_SIZE = 1652
"""Length of the observation (:data:`skitgubbe.adapters.encoding.OBS_SIZE`)."""

NUM_ACTIONS = 551
"""Number of action ids (:data:`skitgubbe.adapters.encoding.NUM_ACTIONS`)."""

_SIZES = (("hand", 52), ("known", 8 * 52), ("piles", 8 * 52), ("round", 8 * 52), ("trick", 52), ("top", 52),
          ("killed", 52), ("trump_card", 52), ("trump_suit", 4), ("phase", 4), ("present", 8),
          ("hand_sizes", 8), ("stock_size", 1), ("table_count", 1), ("to_act", 8), ("window", 8),
          ("my_window", 1), ("due", 8), ("leader", 8), ("trick_winner", 8), ("trump_holder", 8), ("out", 8),
          ("loser", 8), ("exposed", 52), ("reserve_size", 1))


def _offsets() -> dict[str, int]:
    out, off = {}, 0
    for name, size in _SIZES:
        out[name] = off
        off += size
    assert off == OBS_SIZE
    return out


_OFF = _offsets()
_PHASE_INDEX = {Phase.ONE: 0, Phase.DRECK: 1, Phase.TWO: 2, Phase.OVER: 3}


def model_key(preset: str, players: int) -> str:
    """The key of a model in a weights file: ``"<preset>-<players>"`` (``"pagat-3"``)."""
    return f"{preset}-{players}"


def _set_cards(out: dict[int, float], off: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[off + low.bit_length() - 1] = 1.0
        mask ^= low


def observation_entries(view: View) -> dict[int, float]:
    """The nonzero entries of the seat's observation (:func:`skitgubbe.adapters.encoding.observation`,
    layout in that module's docstring) as ``{index: value}``, read from ``view`` only."""
    out: dict[int, float] = {}
    n = view.players
    me = view.seat
    off = _OFF
    _set_cards(out, off["hand"], view.hand)
    for s in range(n):
        r = (s - me) % n
        _set_cards(out, off["known"] + 52 * r, view.known[s])
        _set_cards(out, off["piles"] + 52 * r, view.piles[s])
        out[off["present"] + r] = 1.0
        out[off["hand_sizes"] + r] = view.hand_sizes[s] / 52
    if view.rounds:
        for s, c in view.rounds[-1]:
            out[off["round"] + 52 * ((s - me) % n) + c] = 1.0
    _set_cards(out, off["trick"], view.trick_cards())
    if view.table:
        _set_cards(out, off["top"], view.table[-1][1])
        if view.kill_at:
            out[off["table_count"]] = min(1.0, len(view.table) / view.kill_at)
    _set_cards(out, off["killed"], view.killed)
    if view.trump_card >= 0:
        out[off["trump_card"] + view.trump_card] = 1.0
    if view.trump_suit >= 0:
        out[off["trump_suit"] + view.trump_suit] = 1.0
    phase = _PHASE_INDEX.get(view.phase)
    if phase is not None:
        out[off["phase"] + phase] = 1.0
    out[off["stock_size"]] = view.stock_size / 52
    if 0 <= view.to_act < n:
        out[off["to_act"] + (view.to_act - me) % n] = 1.0
    for s in view.sluff_window:
        out[off["window"] + (s - me) % n] = 1.0
    if me in view.sluff_window:
        out[off["my_window"]] = 1.0
    for s in view.round_seats:
        out[off["due"] + (s - me) % n] = 1.0
    for name, s in (("leader", view.leader), ("trick_winner", view.trick_winner),
                    ("trump_holder", view.trump_holder)):
        if 0 <= s < n:
            out[off[name] + (s - me) % n] = 1.0
    for s in view.out_order:
        out[off["out"] + (s - me) % n] = 1.0
    if view.loser is not None:
        out[off["loser"] + (view.loser - me) % n] = 1.0
    if view.exposed_card >= 0:
        out[off["exposed"] + view.exposed_card] = 1.0
    if view.reserve_size:
        out[off["reserve_size"]] = view.reserve_size / 52
    return {i: x for i, x in out.items() if x}


def _equal_ids() -> dict[int, int]:
    ids: dict[int, int] = {}
    k = 419
    for rank in range(13):
        cards = [suit * 13 + rank for suit in range(4)]
        sets = [sum(1 << cards[i] for i in range(4) if pick >> i & 1) for pick in range(16)]
        for size in (2, 3):
            for m in sorted(m for m in sets if m.bit_count() == size):
                ids[m] = k
                k += 1
    return ids


_EQUAL_IDS = _equal_ids()
_RUN_OFFSET = tuple(sum(12 - k for k in range(start)) for start in range(12))


def action_index(action: Action) -> int:
    """The action id of ``action`` (:func:`skitgubbe.adapters.encoding.action_id`).  Raises
    ``ValueError`` for a chance action or a play that has no id (several cards that are neither a
    run of one suit nor two or three of one rank)."""
    kind, cards = action.kind, action.cards
    if kind == Kind.STOCK:
        return 52
    if kind == Kind.PASS:
        return 105
    if kind == Kind.PICK_UP:
        return 106
    if kind == Kind.STORE:
        return 549
    if kind == Kind.EXCHANGE:
        return 550
    if kind == Kind.SLUFF and cards and cards & (cards - 1) == 0:
        return 53 + cards.bit_length() - 1
    if kind == Kind.PLAY and cards:
        if cards & (cards - 1) == 0:
            return cards.bit_length() - 1
        low = (cards & -cards).bit_length() - 1
        suit, start = divmod(low, 13)
        length = cards.bit_count()
        if start + length <= 13 and cards == ((1 << length) - 1) << low:
            return 107 + 78 * suit + _RUN_OFFSET[start] + length - 2
        if cards in _EQUAL_IDS:
            return _EQUAL_IDS[cards]
    raise ValueError(f"{action} has no action id: a play is one card, a run of touching cards, or two or "
                     "three cards of one rank, and a chance deal has none")


class Model:
    """One trained network (module docstring) with its metadata.

    Attributes: ``key`` (``"pagat-3"``), ``preset``, ``players`` (the seat count it was trained at),
    ``hidden`` (``(H1, H2)``), ``meta`` (what the trainer recorded: command, updates, deals, CPU
    seconds).  Raises ``ValueError`` if the arrays' shapes do not chain ``1652 -> H1 -> H2 -> 551``."""

    def __init__(self, key: str, data: Mapping[str, Any]) -> None:
        self.key = key
        self.preset = str(data["preset"])
        self.players = int(data["players"])
        arrays = {name: decode_array(data[name]) for name in ("w1", "b1", "w2", "b2", "w3", "b3")}
        h1, h2 = len(arrays["b1"][0]), len(arrays["b2"][0])
        shapes = tuple(arrays[name][1] for name in ("w1", "b1", "w2", "b2", "w3", "b3"))
        if shapes != ((OBS_SIZE, h1), (h1,), (h1, h2), (h2,), (h2, NUM_ACTIONS), (NUM_ACTIONS,)):
            raise ValueError(f"self-play weights {key!r}: shapes {shapes} do not chain "
                             f"{OBS_SIZE} -> H1 -> H2 -> {NUM_ACTIONS}")
        self.hidden = (h1, h2)
        w1, w2, w3 = arrays["w1"][0], arrays["w2"][0], arrays["w3"][0]
        self._w1 = [w1[i * h1:(i + 1) * h1] for i in range(OBS_SIZE)]  # row i: input i's weights
        self._b1 = arrays["b1"][0]
        self._w2t = [w2[j::h2] for j in range(h2)]  # row j: the weights into unit j of layer 2
        self._b2 = arrays["b2"][0]
        self._w3t = [w3[a::NUM_ACTIONS] for a in range(NUM_ACTIONS)]  # row a: the weights into Q(., a)
        self._b3 = arrays["b3"][0]
        self.meta: dict[str, Any] = dict(data.get("meta", {}))

    def q_values(self, entries: Mapping[int, float], ids: Sequence[int]) -> list[float]:
        """``Q`` of the action ids ``ids`` for an observation given by its nonzero ``entries``
        (``{index: value}``, :func:`observation_entries`)."""
        acc: Sequence[float] = self._b1
        w1 = self._w1
        for i, x in entries.items():
            row = w1[i]
            acc = list(map(add, acc, row)) if x == 1.0 else [a + x * w for a, w in zip(acc, row, strict=True)]
        h1 = [v if v > 0.0 else 0.0 for v in acc]
        h2 = []
        for row, b in zip(self._w2t, self._b2, strict=True):
            z = b + sum(map(mul, row, h1))
            h2.append(z if z > 0.0 else 0.0)
        return [self._b3[a] + sum(map(mul, self._w3t[a], h2)) for a in ids]


def load_models(data: Mapping[str, Any]) -> dict[str, Model]:
    """The models of a self-play weights file's parsed JSON ``data``, by key, in file order.  Raises
    ``ValueError`` for another format or no model."""
    if data.get("format") != FORMAT:
        raise ValueError(f"self-play weights: format {data.get('format')!r}, expected {FORMAT!r}")
    models = {key: Model(key, m) for key, m in dict(data.get("models", {})).items()}
    if not models:
        raise ValueError("self-play weights: no model")
    return models


@cache
def shipped_models() -> dict[str, Model]:
    """The shipped models (package data :data:`WEIGHTS_FILE`, read once)."""
    text = resources.files(__package__).joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return load_models(json.loads(text))


def model_for(rules: Rules, players: int, models: Mapping[str, Model] | None = None) -> Model:
    """The model that plays ``rules`` at ``players`` seats (module docstring): the one trained on that
    preset and seat count, else on that preset at the nearest seat count, else on the preset whose
    rules differ in the fewest options.  ``models``: default the shipped ones."""
    models = shipped_models() if models is None else models
    exact = models.get(model_key(rules.name, players))
    if exact is not None and PRESETS.get(rules.name) == rules:
        return exact
    best: Model | None = None
    best_d = (0, 0)
    for m in models.values():
        base = PRESETS.get(m.preset)
        d = (len(rules_diff(rules, base)) if base is not None else 1 << 20, abs(m.players - players))
        if best is None or d < best_d:
            best, best_d = m, d
    assert best is not None
    return best


class SelfPlayBot:
    """The self-play bot (module docstring): plays the legal action of highest ``Q``.

    ``models``: the models to use (default: the shipped weights, read on first use).  Its ``rng``
    breaks exact ties only, so a seeded game replays exactly."""

    name = "selfplay"

    def __init__(self, rng: random.Random, *, models: Mapping[str, Model] | None = None) -> None:
        self.rng = rng
        self.models = models

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The action of ``legal`` (non-empty) with the highest ``Q`` for ``view.seat``; the only one
        if there is one.  Raises ``ValueError`` for a legal action without an action id (none of the
        presets has one)."""
        if len(legal) == 1:
            return legal[0]
        model = model_for(view.rules, view.players, self.models)
        q = model.q_values(observation_entries(view), [action_index(a) for a in legal])
        best = max(q)
        ties = [i for i, v in enumerate(q) if v >= best]
        return legal[ties[0] if len(ties) == 1 else ties[self.rng.randrange(len(ties))]]
