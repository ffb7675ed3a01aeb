"""The learned bot: a small policy network, trained by imitation of the counter bot, run in pure Python.

**What it computes.**  For its seat's :class:`~skitgubbe.engine.view.View` and each legal action
``a`` the network gives a score ``z(view, a)``; the softmax of the scores over the legal actions is
the policy, the network's estimate of the chance that the ``counter`` bot
(:class:`~skitgubbe.bots.counter.CounterBot`) would take ``a`` in that view.  The bot plays the action
with the highest score (exact ties broken by its ``random.Random``); a decision with one legal action
is taken without the network.  The counter bot is not consulted at play time: it was only the teacher
of the training data.  Training (cross-entropy of the softmax against the counter bot's choices, in
deals of counter and heuristic bots and then in deals the learned agent plays itself, the counter bot
labelling its decisions: DAgger) is done by :mod:`skitgubbe.batch.learn_train` with numpy; this module
only reads the weights.

**Features** (:func:`state_features`, :func:`action_features`) are read from the view alone (its hand,
the public piles, known cards, table, killed cards, stock size, hand sizes, trump suit, phase), from
:func:`~skitgubbe.bots.tracker.track` and from the heuristic bot's scores of the legal actions
(:func:`heuristic_scores`: each action's place in its order and its gap to the best), which also read
the view alone: never a state, so no hidden card can reach the network. All features are 0/1, given as
the sorted list of the indices that are 1. Card blocks have 52 entries (a card of the second pack counts
as its twin of the first, ``c % 52``); once the trump suit is known (or shown under the stock) the suits
are rotated so that trump is suit 0 (entry ``13 * ((suit - trump) % 4) + rank - 2``), which lets what
was learned about one trump suit serve the others. Seats are relative: *next* is the seat after this
one, *prev* the seat before it, *others* every other seat. The layout (:data:`STATE_BLOCKS`,
:data:`ACTION_BLOCKS`) has :data:`STATE_SIZE` state entries and :data:`ACTION_SIZE` action entries.

**Network.**  ``x`` = the state entries followed by the action entries (length ``STATE_SIZE +
ACTION_SIZE``); ``h1 = relu(x W1 + b1)`` (``H1`` units), ``h2 = relu(h1 W2 + b2)`` (``H2`` units),
``z = h2 . w3 + b3``.  Because ``x`` is sparse, ``x W1`` is the sum of the rows of ``W1`` at the set
entries, and the state's share of it is computed once per decision.

**Weights** ship as package data, ``learned_weights.json``: one model per trained preset and seat
count (``"pagat-3"``, ``"goat-4"``), each array stored as little-endian float16, zlib-compressed and
base64-encoded (:func:`encode_array`).  A deal is played with the model of its preset and seat count,
else of its preset (another seat count: the features are seat-relative and do not depend on the
count), else of the trained preset whose rules differ from the deal's in the fewest options
(:func:`~skitgubbe.engine.variants.rules_diff`; ties go to the first model in the file, pagat).  So
the bot plays every preset and option set, but only ``pagat`` with 3 players and ``goat`` with 4
were trained.

Standard library only; a decision takes well under a millisecond of CPU (the harness's agent
ms/move: ``skitgubbe evaluate --agent learned``).
"""

from __future__ import annotations

import base64
import json
import math
import random
import struct
import zlib
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from operator import add, mul
from typing import Any

from ..engine.actions import Action
from ..engine.base import Phase
from ..engine.cards import cards_in
from ..engine.rules import Plays, Rules
from ..engine.variants import PRESETS, rules_diff
from ..engine.view import View
from .heuristic import HeuristicBot
from .tracker import track

__all__ = [
    "ACTION_BLOCKS",
    "ACTION_SIZE",
    "FEATURE_VERSION",
    "LearnedBot",
    "Model",
    "STATE_BLOCKS",
    "STATE_SIZE",
    "WEIGHTS_FILE",
    "action_features",
    "all_action_features",
    "heuristic_scores",
    "decode_array",
    "encode_array",
    "load_models",
    "model_for",
    "state_features",
]

FEATURE_VERSION = 3
"""The version of the feature layout and of the output's meaning (3: a policy score, the higher the
better; 2 was a chance of losing); a weights file names the version it was trained on."""

WEIGHTS_FILE = "learned_weights.json"
"""The package data file of the shipped weights (in ``skitgubbe/bots``)."""

_SIZE_BUCKETS = 13  # a hand size 0..11, or 12 and more

STATE_BLOCKS: tuple[tuple[str, int], ...] = (
    ("hand", 52),            # this seat's hand
    ("unseen", 52),          # cards whose place this seat has not seen (track(view).unseen)
    ("my_known", 52),        # cards of this seat's hand the others know
    ("my_pile", 52),         # phase one: this seat's pile of won tricks
    ("next_owned", 52),      # the next seat's known cards and pile (track(view).owned)
    ("prev_owned", 52),      # the same for the seat before this one
    ("others_owned", 52),    # the same for every seat but this one, next and prev
    ("table", 52),           # every card on the table (phase-one trick with sluffs, phase-two plays)
    ("top", 52),             # phase two: the top play (to beat); phase one: the last round's cards
    ("killed", 52),          # cards killed in phase two
    ("phase", 2),            # phase one, phase two
    ("trump", 2),            # trump suit known (suits rotated), not known
    ("stock", 6),            # stock size 0, 1-3, 4-8, 9-15, 16-25, 26+
    ("my_size", _SIZE_BUCKETS),
    ("next_size", _SIZE_BUCKETS),
    ("prev_size", _SIZE_BUCKETS),
    ("min_other_size", _SIZE_BUCKETS),  # the smallest hand of another seat still in
    ("seats_in", 8),         # seats not yet out: 1..8
    ("players", 7),          # seats at the table: 2..8
    ("trick", 8),            # phase one: I lead, 0..3+ seats still due after me, sluff window,
                             # I won the settled trick, another seat did
    ("phase_two", 5),        # phase two: the table is empty, plays left to kill 1, 2, 3, 4+
    ("trump_holder", 2),     # the face-down trump card is held by me, by another seat
    ("rules", 4),            # sluffing, must match, a dreck, plays of runs
)
"""The state feature blocks: (name, length), in order."""

ACTION_BLOCKS: tuple[tuple[str, int], ...] = (
    ("kind", 8),             # Kind one-hot
    ("cards", 52),           # the action's cards (suits rotated as the state's)
    ("count", 4),            # cards in the action: 1, 2, 3, 4+
    ("low_rank", 13),        # rank of its lowest card, 2..14
    ("trump", 2),            # the action holds a trump; a card of the highest rank in it is an ace
    ("heuristic_rank", 4),   # its place in the heuristic bot's order of the legal actions: 1st..4th+
    ("heuristic_gap", 6),    # the heuristic score below the best: 0, <0.5, <1.5, <3, <6, 6+
)
"""The action feature blocks: (name, length), in order."""


def _offsets(blocks: tuple[tuple[str, int], ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    at = 0
    for name, size in blocks:
        out[name] = at
        at += size
    return out


_S = _offsets(STATE_BLOCKS)
_A = _offsets(ACTION_BLOCKS)
STATE_SIZE = sum(size for _, size in STATE_BLOCKS)
"""Length of the state feature vector."""
ACTION_SIZE = sum(size for _, size in ACTION_BLOCKS)
"""Length of the action feature vector."""


def _card_map(trump: int) -> tuple[int, ...]:
    """Entry of each card 0..103 in a 52-entry card block, with suit ``trump`` rotated to 0 (-1: none)."""
    out = []
    for c in range(104):
        k = c % 52
        suit, rank = divmod(k, 13)
        if trump >= 0:
            suit = (suit - trump) % 4
        out.append(suit * 13 + rank)
    return tuple(out)


_CARD_MAPS = {t: _card_map(t) for t in (-1, 0, 1, 2, 3)}


def _bits(mask: int, offset: int, cmap: tuple[int, ...], out: list[int]) -> None:
    """Append ``offset + cmap[c]`` for every card ``c`` of card set ``mask`` to ``out``."""
    while mask:
        low = mask & -mask
        out.append(offset + cmap[low.bit_length() - 1])
        mask ^= low


def _bucket(n: int, edges: tuple[int, ...]) -> int:
    """Index of the first edge ``n`` does not exceed (``len(edges)`` if it exceeds them all)."""
    for i, e in enumerate(edges):
        if n <= e:
            return i
    return len(edges)


def _trump_of(view: View) -> int:
    """The suit rotated to 0: the trump suit once known, the exposed bottom card's suit, else -1."""
    if view.trump_suit >= 0:
        return view.trump_suit
    if view.exposed_card >= 0 and view.rules.exposed_bottom:
        return view.exposed_card % 52 // 13
    return -1


def state_features(view: View) -> list[int]:
    """The state features of ``view`` (module docstring): the sorted indices, each in
    ``0..STATE_SIZE-1``, of the entries that are 1.  Reads the view only.  Raises ``ValueError`` for a
    view that no deal produces (from :func:`~skitgubbe.bots.tracker.track`)."""
    me, n = view.seat, view.players
    nxt, prv = (me + 1) % n, (me - 1) % n
    trump = _trump_of(view)
    cmap = _CARD_MAPS[trump]
    tr = track(view)
    out: list[int] = []
    one = view.phase == Phase.ONE
    _bits(view.hand, _S["hand"], cmap, out)
    _bits(tr.unseen, _S["unseen"], cmap, out)
    _bits(view.known[me], _S["my_known"], cmap, out)
    if one:
        _bits(view.piles[me], _S["my_pile"], cmap, out)
    _bits(tr.owned[nxt], _S["next_owned"], cmap, out)
    if prv != nxt:
        _bits(tr.owned[prv], _S["prev_owned"], cmap, out)
    rest = 0
    for s in range(n):
        if s not in (me, nxt, prv):
            rest |= tr.owned[s]
    _bits(rest, _S["others_owned"], cmap, out)
    _bits(tr.table, _S["table"], cmap, out)
    if view.table:
        _bits(view.table[-1][1], _S["top"], cmap, out)
    elif one and view.rounds:
        last = 0
        for _, c in view.rounds[-1]:
            last |= 1 << c
        _bits(last, _S["top"], cmap, out)
    _bits(view.killed, _S["killed"], cmap, out)
    out.append(_S["phase"] + (0 if one else 1))
    out.append(_S["trump"] + (0 if trump >= 0 else 1))
    out.append(_S["stock"] + _bucket(view.stock_size, (0, 3, 8, 15, 25)))
    sizes = view.hand_sizes
    out.append(_S["my_size"] + min(sizes[me], _SIZE_BUCKETS - 1))
    out.append(_S["next_size"] + min(sizes[nxt], _SIZE_BUCKETS - 1))
    out.append(_S["prev_size"] + min(sizes[prv], _SIZE_BUCKETS - 1))
    gone = set(view.out_order)
    others = [sizes[s] for s in range(n) if s != me and s not in gone]
    if others:
        out.append(_S["min_other_size"] + min(min(others), _SIZE_BUCKETS - 1))
    out.append(_S["seats_in"] + min(max(n - len(gone), 1), 8) - 1)
    out.append(_S["players"] + min(max(n, 2), 8) - 2)
    t = _S["trick"]
    if one:
        if view.leader == me:
            out.append(t)
        if me in view.round_seats:
            after = len(view.round_seats) - 1 - view.round_seats.index(me)
            out.append(t + 1 + min(after, 3))
        if me in view.sluff_window:
            out.append(t + 5)
        if view.trick_winner >= 0:
            out.append(t + (6 if view.trick_winner == me else 7))
    else:
        p = _S["phase_two"]
        if not view.table:
            out.append(p)
        elif view.kill_at > 0:
            out.append(p + min(max(view.kill_at - len(view.table), 1), 4))
    if view.trump_holder >= 0:
        out.append(_S["trump_holder"] + (0 if view.trump_holder == me else 1))
    rules = view.rules
    r = _S["rules"]
    for i, flag in enumerate((rules.sluffing, rules.must_match, rules.dreck_below > 0,
                              rules.plays is not Plays.SINGLE)):
        if flag:
            out.append(r + i)
    out.sort()
    return out


class _Scorer(HeuristicBot):
    """The heuristic bot's scores of the legal actions, without choosing (no randomness used)."""

    def __init__(self) -> None:
        super().__init__(random.Random(0))
        self.scores: list[float] = []

    def _best(self, legal: Sequence[Action], scores: Sequence[float]) -> Action:
        self.scores = list(scores)
        return legal[0]


def heuristic_scores(view: View, legal: Sequence[Action]) -> list[float]:
    """The :class:`~skitgubbe.bots.heuristic.HeuristicBot`'s score of each of ``legal`` (higher is better;
    its loop breaking included), read from ``view`` only; ``[0.0]`` for a single legal action."""
    if len(legal) < 2:
        return [0.0] * len(legal)
    scorer = _Scorer()
    scorer.choose(view, legal)
    return scorer.scores


def _prior(scores: Sequence[float]) -> list[tuple[int, int]]:
    """Per action, ``(place, gap bucket)`` in the heuristic order (``heuristic_rank``, ``heuristic_gap``)."""
    top = max(scores, default=0.0)
    out = []
    for s in scores:
        place = sum(1 for t in scores if t > s + 1e-9)
        out.append((min(place, 3), _bucket_f(top - s, (1e-9, 0.5, 1.5, 3.0, 6.0))))
    return out


def _bucket_f(x: float, edges: tuple[float, ...]) -> int:
    for i, e in enumerate(edges):
        if x < e:
            return i
    return len(edges)


def all_action_features(view: View, legal: Sequence[Action]) -> list[list[int]]:
    """:func:`action_features` of every action of ``legal``, with the heuristic scores computed once."""
    prior = _prior(heuristic_scores(view, legal))
    return [action_features(view, a, p) for a, p in zip(legal, prior, strict=True)]


def action_features(view: View, action: Action, prior: tuple[int, int] | None = None) -> list[int]:
    """The action features of ``action`` in ``view`` (module docstring): the sorted indices, each in
    ``0..ACTION_SIZE-1``, of the entries that are 1.  The suits are rotated as in
    :func:`state_features` of the same view.  ``prior``: the action's ``(place, gap bucket)`` in the
    heuristic bot's order (computed from ``view.legal`` when not given)."""
    trump = _trump_of(view)
    cmap = _CARD_MAPS[trump]
    if prior is None:
        legal = list(view.legal)
        prior = _prior(heuristic_scores(view, legal))[legal.index(action)] if len(legal) > 1 else (0, 0)
    out = [_A["kind"] + int(action.kind), _A["heuristic_rank"] + prior[0], _A["heuristic_gap"] + prior[1]]
    cards = action.cards
    if cards:
        _bits(cards, _A["cards"], cmap, out)
        out.append(_A["count"] + min(cards.bit_count(), 4) - 1)
        low = (cards & -cards).bit_length() - 1
        out.append(_A["low_rank"] + low % 13)
        t = _A["trump"]
        if trump >= 0 and any(cmap[c] < 13 for c in cards_in(cards)):
            out.append(t)
        if any(c % 13 == 12 for c in cards_in(cards)):
            out.append(t + 1)
    out.sort()
    return out


# -- weights --------------------------------------------------------------------------------------


def encode_array(values: Sequence[float], shape: Sequence[int]) -> dict[str, object]:
    """``values`` (row-major, ``prod(shape)`` floats) as JSON data: ``{"dtype": "float16", "shape": [...],
    "data": base64 of the zlib-compressed little-endian float16 bytes}``.  Raises ``ValueError`` if the
    count does not match the shape, ``OverflowError`` for a value outside float16's range (65504)."""
    size = math.prod(shape)
    if len(values) != size:
        raise ValueError(f"{len(values)} values for shape {tuple(shape)}")
    raw = struct.pack(f"<{size}e", *values)
    data = base64.b64encode(zlib.compress(raw, 9)).decode()
    return {"dtype": "float16", "shape": list(shape), "data": data}


def decode_array(data: Mapping[str, Any]) -> tuple[list[float], tuple[int, ...]]:
    """The values (row-major floats) and shape of an array written by :func:`encode_array`.  Raises
    ``ValueError`` for another dtype or a byte count that does not match the shape."""
    if data.get("dtype") != "float16":
        raise ValueError(f"weights: dtype {data.get('dtype')!r}, expected 'float16'")
    shape = tuple(int(s) for s in data["shape"])
    raw = zlib.decompress(base64.b64decode(data["data"]))
    size = math.prod(shape)
    if len(raw) != 2 * size:
        raise ValueError(f"weights: {len(raw)} bytes for shape {shape}")
    return list(struct.unpack(f"<{size}e", raw)), shape


class Model:
    """One trained network (module docstring) with its metadata.

    Attributes:
        key: ``"<preset>-<players>"``, e.g. ``"pagat-3"``.
        preset: the preset it was trained on; ``players``: its seat count.
        hidden: ``(H1, H2)``, the widths of the two hidden layers.
        w1: ``STATE_SIZE + ACTION_SIZE`` rows of ``H1`` floats (row i: the weights of input entry i).
        b1: ``H1`` floats.  ``w2``: ``H2`` rows of ``H1`` floats.  ``b2``: ``H2`` floats.
        w3: ``H2`` floats.  ``b3``: a float (the output's bias, in logits).
        meta: what the trainer recorded (command, games, samples, CPU seconds...).
    """

    def __init__(self, key: str, data: Mapping[str, Any]) -> None:
        """Read the model ``data`` of a weights file.  Raises ``ValueError`` if its feature sizes or
        array shapes do not match this module's layout."""
        self.key = key
        self.preset = str(data["preset"])
        self.players = int(data["players"])
        if int(data["state_size"]) != STATE_SIZE or int(data["action_size"]) != ACTION_SIZE:
            raise ValueError(f"weights {key!r}: features {data['state_size']}+{data['action_size']}, this "
                             f"version has {STATE_SIZE}+{ACTION_SIZE}")
        h1, h2 = (int(h) for h in data["hidden"])
        self.hidden = (h1, h2)
        w1, s1 = decode_array(data["w1"])
        b1, sb1 = decode_array(data["b1"])
        w2, s2 = decode_array(data["w2"])
        b2, sb2 = decode_array(data["b2"])
        w3, s3 = decode_array(data["w3"])
        b3, sb3 = decode_array(data["b3"])
        expected = ((STATE_SIZE + ACTION_SIZE, h1), (h1,), (h2, h1), (h2,), (h2,), (1,))
        if (s1, sb1, s2, sb2, s3, sb3) != expected:
            raise ValueError(f"weights {key!r}: shapes {(s1, sb1, s2, sb2, s3, sb3)}, expected {expected}")
        self.w1 = [w1[i * h1:(i + 1) * h1] for i in range(STATE_SIZE + ACTION_SIZE)]
        self.b1 = b1
        self.w2 = [w2[k * h1:(k + 1) * h1] for k in range(h2)]
        self.b2 = b2
        self.w3 = w3
        self.b3 = b3[0]
        self.meta: dict[str, Any] = dict(data.get("meta", {}))

    def state_part(self, features: Sequence[int]) -> list[float]:
        """``b1`` plus the rows of ``W1`` at the state ``features`` (indices into ``0..STATE_SIZE-1``):
        the first layer's pre-activation before the action's share (``H1`` floats)."""
        acc = self.b1
        w1 = self.w1
        for i in features:
            acc = list(map(add, acc, w1[i]))
        return list(acc)

    def logit(self, state_part: Sequence[float], action: Sequence[int]) -> float:
        """The output score (a logit of the policy's softmax) for one action: ``action`` are its
        feature indices (``0..ACTION_SIZE-1``)."""
        acc: Sequence[float] = state_part
        w1 = self.w1
        for i in action:
            acc = list(map(add, acc, w1[STATE_SIZE + i]))
        h1 = [v if v > 0.0 else 0.0 for v in acc]
        out = self.b3
        for row, b, w in zip(self.w2, self.b2, self.w3, strict=True):
            z = b + sum(map(mul, row, h1))
            if z > 0.0:
                out += w * z
        return out

    def policy(self, view: View, legal: Sequence[Action]) -> list[float]:
        """The policy over ``legal`` (non-empty): the softmax of the actions' scores (they sum to 1)."""
        part = self.state_part(state_features(view))
        scores = [self.logit(part, f) for f in all_action_features(view, legal)]
        top = max(scores)
        exps = [math.exp(z - top) for z in scores]
        total = sum(exps)
        return [e / total for e in exps]


def load_models(data: Mapping[str, Any]) -> dict[str, Model]:
    """The models of a weights file's parsed JSON ``data``, by key, in file order.  Raises ``ValueError``
    for another format or feature version, or no model."""
    if data.get("format") != "skitgubbe-learned-v1":
        raise ValueError(f"weights: format {data.get('format')!r}, expected 'skitgubbe-learned-v1'")
    if int(data.get("features", -1)) != FEATURE_VERSION:
        raise ValueError(f"weights: feature version {data.get('features')}, this module has "
                         f"{FEATURE_VERSION}")
    models = {key: Model(key, m) for key, m in data["models"].items()}
    if not models:
        raise ValueError("weights: no model")
    return models


@cache
def _shipped() -> dict[str, Model]:
    """The shipped models (read once)."""
    text = resources.files(__package__).joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return load_models(json.loads(text))


def model_for(rules: Rules, players: int, models: Mapping[str, Model] | None = None) -> Model:
    """The model that plays ``rules`` with ``players`` seats (module docstring): the one trained on that
    preset and seat count, else on that preset, else on the preset whose rules differ in the fewest
    options.  ``models``: default the shipped ones."""
    models = _shipped() if models is None else models
    exact = models.get(f"{rules.name}-{players}")
    if exact is not None:
        return exact
    same = [m for m in models.values() if m.preset == rules.name]
    if same:
        return min(same, key=lambda m: abs(m.players - players))
    best: Model | None = None
    best_d = 0
    for m in models.values():
        base = PRESETS.get(m.preset)
        d = len(rules_diff(rules, base)) if base is not None else 1 << 20
        if best is None or d < best_d:
            best, best_d = m, d
    assert best is not None
    return best


class LearnedBot:
    """The learned bot (module docstring): plays the legal action with the highest policy score.

    ``models``: the models to use (default: the shipped weights, read on first use); ``epsilon``: the
    chance of a uniformly random action instead (0 by default; the trainer explores with it).  Its
    ``rng`` breaks exact ties and draws the exploration, so a seeded game replays exactly.
    """

    name = "learned"

    def __init__(self, rng: random.Random, *, models: Mapping[str, Model] | None = None,
                 epsilon: float = 0.0) -> None:
        self.rng = rng
        self.models = models
        self.epsilon = epsilon

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The action of ``legal`` (non-empty) with the highest policy score for ``view.seat``; the only
        one if there is one."""
        if len(legal) == 1:
            return legal[0]
        if self.epsilon and self.rng.random() < self.epsilon:
            return legal[self.rng.randrange(len(legal))]
        model = model_for(view.rules, view.players, self.models)
        part = model.state_part(state_features(view))
        scores = [model.logit(part, f) for f in all_action_features(view, legal)]
        best = max(scores)
        ties = [i for i, s in enumerate(scores) if s >= best - 1e-12]
        return legal[ties[0] if len(ties) == 1 else ties[self.rng.randrange(len(ties))]]
