"""Train the learned bot (:mod:`skitgubbe.bots.learned`): imitation of the counter bot, then DAgger.

Usage (docs/research.md, "A learned baseline")::

    python -m skitgubbe.batch.learn_train --rules pagat --players 3 --out WEIGHTS.json [--curve CURVE.csv]
        [--games 3000] [--rounds 2] [--dagger-games 1500] [--seed 0] [--hidden 96,32] [--epochs 4]
        [--eval-deals 100] [--lr 0.001] [--decay 0.0] [--batch 256]
    python -m skitgubbe.batch.learn_train --plot CURVE.csv [CURVE.csv ...] --figure PATH_WITHOUT_SUFFIX

**Method** (behaviour cloning, then DAgger: Ross, Gordon and Bagnell 2011).  The network of
:class:`~skitgubbe.bots.learned.Model` scores each legal action of a decision from the 0/1 features of
the seat's view and of the action (:func:`~skitgubbe.bots.learned.state_features`,
:func:`~skitgubbe.bots.learned.action_features`, read from the view only); the softmax of the scores
over the legal actions is a policy, fitted by cross-entropy to the action the *teacher*, the
``counter`` bot, takes in that view.  Only decisions with more than one legal action are samples.

* **Round 0 (imitation)**: ``--games`` deals in which each seat is a ``counter`` bot (60%, at least one
  a deal) or a ``heuristic`` bot (40%); every decision of a counter seat is a sample, labelled with
  its own choice.
* **Rounds 1..R (DAgger)**: ``--dagger-games`` deals a round in which each seat is the current learned
  agent (60%, at least one a deal), a ``heuristic`` (25%) or a ``counter`` bot (15%).  The learned
  seats play their own (greedy) choice, and each of their decisions is a sample labelled with the
  choice the counter bot would make in the same view: the teacher labels the positions the agent
  itself reaches, which behaviour cloning alone never shows it.  The samples of every round are kept.
* **Fitting, every round**: the samples of every tenth deal are held out.  The network, kept from
  the round before, trains up to ``--epochs`` passes of minibatches of ``--batch`` decisions (Adam,
  decoupled weight decay ``--decay``; manual backpropagation in numpy) and keeps the parameters (the
  round's starting ones included) with the lowest held-out cross-entropy.
* **After each round** the agent (greedy, with the weights as shipped: float16) plays
  ``--eval-deals`` fixed deals (deck ``deck_from_seed("learn-train-eval:<preset>:<k>")``, dealer
  ``k % players``, not the harness's deals) in every seat against ``heuristic`` bots, and its loser
  rate is a row of the curve.

The counter bot is the teacher only: the shipped bot never runs it.

**Outputs.**  ``--out``: the weights file (JSON, the format of ``skitgubbe/bots/learned_weights.json``);
if it exists (with this feature version), its other models are kept and the model
``<preset>-<players>`` is replaced, so one file can hold several presets.  ``--curve`` (default:
``--out`` with ``-<preset>-<players>.csv`` in place of ``.json``): one row a round: ``round, games,
decisions`` (the round's new samples), ``kept`` (all training samples so far), ``loss`` (mean
cross-entropy of the last pass, nats), ``val_loss`` (the kept parameters' held-out cross-entropy,
nats), ``val_agree`` (the share of held-out decisions where the network's top action is the
teacher's), ``eval_games, eval_losses, eval_loser_rate, cpu_seconds`` (process CPU time since the
start, evaluation included).  The same arguments give the same files (one BLAS thread).

numpy is needed (``pip install numpy``); matplotlib for ``--plot``.  Raises ``SystemExit`` with a
message when either is missing.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import sys
import time
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..bots import make_bot
from ..bots.learned import (
    ACTION_SIZE,
    FEATURE_VERSION,
    STATE_SIZE,
    LearnedBot,
    Model,
    all_action_features,
    encode_array,
    state_features,
)
from ..engine.actions import Action
from ..engine.rules import Rules
from ..engine.state import State, deck_from_seed
from ..engine.variants import find_variant
from ..engine.view import View
from .runner import play_out
from .stats import wilson_interval

__all__ = ["main", "train", "evaluate_against_heuristic", "plot_curves"]

_WIDTH = STATE_SIZE + ACTION_SIZE
TEACHER = "counter"
"""The bot whose choices the network imitates."""


def _numpy() -> Any:
    """numpy, imported with one BLAS thread (deterministic, and polite on a shared machine)."""
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    try:
        import numpy as np
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise SystemExit("the trainer needs numpy: pip install numpy") from exc
    return np


# -- playing and recording ----------------------------------------------------------------------


class _Samples:
    """Decisions in compact arrays: per decision its state features, its legal actions' features,
    the teacher's choice and its deal; per action its features (flat lists with offsets)."""

    def __init__(self) -> None:
        self.state = array("h")        # state feature indices, all decisions one after another
        self.state_off = array("q", [0])
        self.act = array("h")          # action feature indices, all actions one after another
        self.act_off = array("q", [0])
        self.dec_act = array("q", [0])  # decision d has the actions dec_act[d] .. dec_act[d+1]-1
        self.label = array("h")        # the teacher's choice, an index into the decision's actions
        self.deal = array("q")

    def __len__(self) -> int:
        return len(self.label)

    def add(self, state: list[int], actions: list[list[int]], label: int, deal: int) -> None:
        self.state.extend(state)
        self.state_off.append(len(self.state))
        for f in actions:
            self.act.extend(f)
            self.act_off.append(len(self.act))
        self.dec_act.append(len(self.act_off) - 1)
        self.label.append(label)
        self.deal.append(deal)


class _Recorder:
    """A recorded seat: plays ``model`` greedily (or the teacher's choice without a model) and records
    each decision with more than one legal action, labelled with the ``teacher``'s choice."""

    def __init__(self, teacher: Any, samples: _Samples, deal: int, model: Model | None) -> None:
        self.teacher = teacher
        self.samples = samples
        self.deal = deal
        self.model = model
        self.name = "learned" if model is not None else str(teacher.name)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        state = state_features(view)
        every = all_action_features(view, legal)
        label = legal.index(self.teacher.choose(view, legal))
        self.samples.add(state, every, label, self.deal)
        if self.model is None:
            return legal[label]
        part = self.model.state_part(state)
        scores = [self.model.logit(part, f) for f in every]
        return legal[scores.index(max(scores))]


def _play_games(rules: Rules, players: int, games: int, tag: str, mix: Sequence[tuple[str, float]],
                model: Model | None, samples: _Samples, deal_base: int,
                action_limit: int | None = None) -> None:
    """Play ``games`` deals seeded by ``tag`` and add their samples to ``samples``.

    ``mix`` is ``(name, weight)`` pairs, one of them ``"learned"`` (the recorded seats: ``model``
    playing greedily, or the teacher itself without a model); at least one recorded seat a deal.
    Deal ``g`` is numbered ``deal_base + g`` in the samples.  ``action_limit``: abandon a deal after
    that many actions (its samples are kept: the teacher's labels need no outcome); None: the
    engine's default."""
    names = [m[0] for m in mix]
    weights = [m[1] for m in mix]
    for g in range(games):
        seed = f"{tag}:{g}"
        pick = random.Random(f"{seed}:seats")
        chosen = [pick.choices(names, weights)[0] for _ in range(players)]
        if "learned" not in chosen:
            chosen[pick.randrange(players)] = "learned"
        seats: list[Any] = []
        for s, name in enumerate(chosen):
            rng = random.Random(f"{seed}:bot{s}")
            if name == "learned":
                seats.append(_Recorder(make_bot(TEACHER, rng), samples, deal_base + g, model))
            else:
                seats.append(make_bot(name, rng))
        deck = deck_from_seed(seed, decks=rules.decks, pack=rules.pack)
        state = State.new(rules, players, dealer=g % players, deck=deck,
                          ask_every_seat=True, action_limit=action_limit)
        play_out(state, seats, random.Random(f"{seed}:chance"))


def evaluate_against_heuristic(rules: Rules, players: int, models: dict[str, Model],
                               deals: int) -> tuple[int, int]:
    """``(games, losses)`` of the greedy learned bot with ``models`` in every seat of ``deals`` fixed deals
    (deck ``deck_from_seed("learn-train-eval:<preset>:<k>")``) against ``heuristic`` bots."""
    games = losses = 0
    for k in range(deals):
        seed = f"learn-train-eval:{rules.name}:{k}"
        deck = deck_from_seed(seed, decks=rules.decks, pack=rules.pack)
        for r in range(players):
            state = State.new(rules, players, dealer=k % players, deck=deck, ask_every_seat=True)
            bots: list[Any] = [LearnedBot(random.Random(f"{seed}:{r}"), models=models) if i == r
                               else make_bot("heuristic", random.Random(f"{seed}:{r}:{i}"))
                               for i in range(players)]
            play_out(state, bots, random.Random(f"{seed}:chance"))
            if state.loser is not None:
                games += 1
                losses += state.loser == r
    return games, losses


# -- the network ------------------------------------------------------------------------------------


class _Data:
    """:class:`_Samples` as numpy arrays, with dense minibatches of whole decisions."""

    def __init__(self, np: Any, s: _Samples) -> None:
        self.np = np
        self.state = np.frombuffer(s.state, np.int16).astype(np.int64)
        self.state_off = np.frombuffer(s.state_off, np.int64).copy()
        self.act = np.frombuffer(s.act, np.int16).astype(np.int64)
        self.act_off = np.frombuffer(s.act_off, np.int64).copy()
        self.dec_act = np.frombuffer(s.dec_act, np.int64).copy()
        self.label = np.frombuffer(s.label, np.int16).astype(np.int64)
        self.deal = np.frombuffer(s.deal, np.int64).copy()

    def batch(self, dec: Any) -> tuple[Any, Any, Any, Any, Any]:
        """For the decisions ``dec``: the dense state matrix (B, STATE_SIZE), the dense action matrix
        (rows, ACTION_SIZE) of their actions in order, each action row's decision (0..B-1), the first
        row of each decision, and the row of each decision's teacher choice."""
        np = self.np
        xs = _rows(np, self.state, self.state_off[dec], self.state_off[dec + 1], STATE_SIZE)
        first, last = self.dec_act[dec], self.dec_act[dec + 1]
        counts = last - first
        acts = _ranges(np, first, counts)
        xa = _rows(np, self.act, self.act_off[acts], self.act_off[acts + 1], ACTION_SIZE)
        row_dec = np.repeat(np.arange(len(dec)), counts)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        return xs, xa, row_dec, starts, starts + self.label[dec]


def _ranges(np: Any, starts: Any, counts: Any) -> Any:
    """The concatenation of ``range(starts[i], starts[i] + counts[i])`` for every i."""
    total = int(counts.sum())
    offs = np.repeat(np.cumsum(counts) - counts, counts)
    return np.arange(total) - offs + np.repeat(starts, counts)


def _rows(np: Any, flat: Any, lo: Any, hi: Any, width: int) -> Any:
    """Dense 0/1 float32 rows: row i has 1 at ``flat[lo[i]:hi[i]]``."""
    x = np.zeros((len(lo), width), np.float32)
    counts = hi - lo
    x[np.repeat(np.arange(len(lo)), counts), flat[_ranges(np, lo, counts)]] = 1.0
    return x


class _Net:
    """The MLP of :class:`~skitgubbe.bots.learned.Model` in numpy (float32) with Adam, as a policy."""

    def __init__(self, np: Any, hidden: tuple[int, int], seed: int, lr: float, decay: float = 0.0) -> None:
        self.np = np
        rng = np.random.default_rng(seed)
        h1, h2 = hidden
        self.p = {
            "w1": (rng.standard_normal((_WIDTH, h1)) * np.sqrt(2.0 / 80)).astype(np.float32),
            "b1": np.zeros(h1, np.float32),
            "w2": (rng.standard_normal((h1, h2)) * np.sqrt(2.0 / h1)).astype(np.float32),
            "b2": np.zeros(h2, np.float32),
            "w3": (rng.standard_normal(h2) * np.sqrt(1.0 / h2)).astype(np.float32),
            "b3": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0
        self.lr = lr
        self.decay = decay
        self.hidden = hidden

    def forward(self, batch: tuple[Any, Any, Any, Any, Any]) -> tuple[float, int, Any]:
        """Cross-entropy sum (nats), count of decisions whose top action is the label, and what
        :meth:`step` needs, for one batch of :meth:`_Data.batch`."""
        np, p = self.np, self.p
        xs, xa, row_dec, starts, labels = batch
        w1 = p["w1"]
        a1 = (xs @ w1[:STATE_SIZE])[row_dec] + xa @ w1[STATE_SIZE:] + p["b1"]
        h1 = np.maximum(a1, 0)
        a2 = h1 @ p["w2"] + p["b2"]
        h2 = np.maximum(a2, 0)
        z = h2 @ p["w3"] + p["b3"][0]
        top = np.maximum.reduceat(z, starts)
        e = np.exp(z - top[row_dec])
        tot = np.add.reduceat(e, starts)
        loss = float(np.sum(np.log(tot) - (z[labels] - top)))
        agree = int(np.sum(z[labels] >= top))
        return loss, agree, (xs, xa, row_dec, starts, labels, a1, h1, a2, h2, e / tot[row_dec])

    def step(self, batch: tuple[Any, Any, Any, Any, Any]) -> float:
        """One Adam step on a batch; returns its mean cross-entropy (nats) before the step."""
        np, p = self.np, self.p
        loss, _, (xs, xa, row_dec, starts, labels, a1, h1, a2, h2, prob) = self.forward(batch)
        n = len(starts)
        dz = prob
        dz[labels] -= 1.0
        dz /= n
        g = {"w3": h2.T @ dz, "b3": np.zeros(1, np.float32)}
        da2 = np.outer(dz, p["w3"]) * (a2 > 0)
        g["w2"] = h1.T @ da2
        g["b2"] = da2.sum(0)
        da1 = (da2 @ p["w2"].T) * (a1 > 0)
        g["w1"] = np.concatenate([xs.T @ np.add.reduceat(da1, starts), xa.T @ da1])
        g["b1"] = da1.sum(0)
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        corr = np.sqrt(1 - b2 ** self.t) / (1 - b1 ** self.t)
        for k, grad in g.items():
            grad = grad.astype(np.float32)
            self.m[k] = b1 * self.m[k] + (1 - b1) * grad
            self.v[k] = b2 * self.v[k] + (1 - b2) * grad * grad
            p[k] -= (self.lr * corr * self.m[k] / (np.sqrt(self.v[k]) + eps)).astype(np.float32)
            if self.decay and k.startswith("w"):
                p[k] *= np.float32(1 - self.lr * self.decay)  # decoupled weight decay (AdamW)
        return loss / n

    def copy(self) -> dict[str, Any]:
        """A copy of the parameters (see :meth:`restore`)."""
        return {k: v.copy() for k, v in self.p.items()}

    def restore(self, params: dict[str, Any]) -> None:
        """Put back parameters taken by :meth:`copy`."""
        self.p = {k: v.copy() for k, v in params.items()}

    def model_data(self, preset: str, players: int, meta: dict[str, Any]) -> dict[str, Any]:
        """The weights as a model entry of a weights file (float16)."""
        np, p = self.np, self.p
        h1, h2 = self.hidden

        def enc(a: Any, shape: tuple[int, ...]) -> dict[str, object]:
            vals = np.clip(np.asarray(a, np.float64).reshape(-1), -60000, 60000)
            return encode_array([float(v) for v in vals], shape)

        return {
            "preset": preset, "players": players, "state_size": STATE_SIZE, "action_size": ACTION_SIZE,
            "hidden": [h1, h2],
            "w1": enc(p["w1"], (_WIDTH, h1)), "b1": enc(p["b1"], (h1,)),
            "w2": enc(p["w2"].T, (h2, h1)), "b2": enc(p["b2"], (h2,)),
            "w3": enc(p["w3"], (h2,)), "b3": enc(p["b3"], (1,)),
            "meta": meta,
        }


def _held_out(np: Any, net: _Net, data: _Data, dec: Any) -> tuple[float, float]:
    """Mean cross-entropy (nats) and top-1 agreement with the teacher over decisions ``dec``."""
    if not len(dec):
        return 0.0, 0.0
    loss = 0.0
    agree = 0
    for a in range(0, len(dec), 2048):
        part_loss, part_agree, _ = net.forward(data.batch(dec[a:a + 2048]))
        loss += part_loss
        agree += part_agree
    return loss / len(dec), agree / len(dec)


def _fit(np: Any, net: _Net, data: _Data, train_dec: Any, val_dec: Any, epochs: int, batch: int,
         rng: Any) -> tuple[float, float, float]:
    """Up to ``epochs`` passes of minibatches over the decisions ``train_dec``, keeping the parameters
    (those before the first pass included) with the lowest cross-entropy on ``val_dec`` (early
    stopping).  Returns ``(train loss of the last pass, held-out loss, held-out agreement)`` of the
    kept parameters."""
    last = 0.0
    best, best_agree = _held_out(np, net, data, val_dec)
    kept = net.copy()
    for _ in range(epochs):
        order = train_dec[rng.permutation(len(train_dec))]
        total = 0.0
        steps = 0
        for start in range(0, len(order), batch):
            total += net.step(data.batch(np.sort(order[start:start + batch])))
            steps += 1
        last = total / max(steps, 1)
        val, agree = _held_out(np, net, data, val_dec)
        if val < best:
            best, best_agree, kept = val, agree, net.copy()
        else:
            break
    net.restore(kept)
    return last, best, best_agree


# -- training ---------------------------------------------------------------------------------------


def train(rules: Rules, players: int, out: Path, curve: Path, *, games: int = 3000, rounds: int = 2,
          dagger_games: int = 1500, seed: int = 0, hidden: tuple[int, int] = (96, 32), epochs: int = 4,
          eval_deals: int = 100, lr: float = 1e-3, decay: float = 0.0, batch: int = 256, log: Any = None,
          command: str = "", action_limit: int | None = None) -> dict[str, Any]:
    """Train a model for ``rules`` with ``players`` seats (module docstring), write it into the weights
    file ``out`` and the curve to ``curve`` (CSV), and return the model entry written.  ``log``: a
    callable given one line of progress text a round, or None.  ``action_limit``: the training deals'
    action limit (None: the engine's default; a small one keeps an untrained network's long deals
    short, as in the tests).  Raises ``ValueError`` for a seat count
    the rules do not allow, a non-positive size or action limit, ``SystemExit`` without numpy."""
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, "
                         f"not {players}")
    if min(games, eval_deals, epochs, batch, *hidden) < 1 or dagger_games < 0 or rounds < 0:
        raise ValueError("games, deals, epochs, batch and hidden sizes must be positive")
    if action_limit is not None and action_limit < 1:
        raise ValueError(f"the action limit must be at least 1, not {action_limit}")
    np = _numpy()
    start = time.process_time()
    nrng = np.random.default_rng(seed)
    net = _Net(np, hidden, seed, lr, decay)
    key = f"{rules.name}-{players}"
    samples = _Samples()
    rows: list[dict[str, Any]] = []
    total_games = 0
    entry: dict[str, Any] = {}
    for rnd in range(rounds + 1):
        before = len(samples)
        tag = f"learn-train:{seed}:{key}:{rnd}"
        if rnd == 0:
            mix: list[tuple[str, float]] = [("learned", 0.6), ("heuristic", 0.4)]
            n_games, model = games, None
        else:
            mix = [("learned", 0.6), ("heuristic", 0.25), ("counter", 0.15)]
            n_games, model = dagger_games, Model(key, entry)
        _play_games(rules, players, n_games, tag, mix, model, samples, total_games, action_limit)
        total_games += n_games
        data = _Data(np, samples)
        every = np.arange(len(samples))
        held = data.deal % 10 == 9  # every tenth deal is held out
        loss, val, agree = _fit(np, net, data, every[~held], every[held], epochs, batch, nrng)
        meta = {"command": command, "seed": seed, "rounds": rnd, "games": total_games,
                "samples": len(samples), "teacher": TEACHER, "val_agree": round(agree, 4),
                "cpu_seconds": round(time.process_time() - start, 1), "feature_version": FEATURE_VERSION}
        entry = net.model_data(rules.name, players, meta)
        g, lost = evaluate_against_heuristic(rules, players, {key: Model(key, entry)}, eval_deals)
        row = {"round": rnd, "games": n_games, "decisions": len(samples) - before,
               "kept": int((~held).sum()), "loss": round(loss, 5), "val_loss": round(val, 5),
               "val_agree": round(agree, 4), "eval_games": g, "eval_losses": lost,
               "eval_loser_rate": round(lost / g if g else 0.0, 4),
               "cpu_seconds": round(time.process_time() - start, 1)}
        rows.append(row)
        if log is not None:
            log(" ".join(f"{k}={v}" for k, v in row.items()))
        entry["meta"]["cpu_seconds"] = row["cpu_seconds"]
        _write_weights(out, key, entry)  # after every round, so a stopped run leaves its last round
        curve.parent.mkdir(parents=True, exist_ok=True)
        with curve.open("w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    return entry


def _write_weights(out: Path, key: str, entry: dict[str, Any]) -> None:
    """Put model ``entry`` under ``key`` into the weights file ``out`` (created if missing)."""
    data: dict[str, Any] = {"format": "skitgubbe-learned-v1", "features": FEATURE_VERSION, "models": {}}
    if out.exists():
        old = json.loads(out.read_text(encoding="utf-8"))
        if old.get("features") == FEATURE_VERSION:
            data["models"] = old.get("models", {})
    data["models"][key] = entry
    data["models"] = dict(sorted(data["models"].items(),
                                 key=lambda kv: (not kv[0].startswith("pagat"), kv[0])))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


# -- the figure -------------------------------------------------------------------------------------


def plot_curves(curves: Sequence[Path], figure: Path) -> list[Path]:
    """Plot the loser rate against heuristic bots per round of each curve CSV (with its 95% Wilson
    interval over the round's evaluation games), with the fair share
    ``1/players`` dashed, as ``figure`` + ``.png`` and ``.svg``; returns the two paths.  The label of a
    curve is its file name (``learned-<preset>-<players>.csv`` gives ``<preset> <players>p``)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise SystemExit("the figure needs matplotlib: pip install matplotlib") from exc
    plt.rcParams["svg.hashsalt"] = "skitgubbe"
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, path in enumerate(curves):
        with path.open() as fh:
            rows = list(csv.DictReader(fh))
        label = path.stem.removeprefix("learned-").rsplit("-", 1)
        name = f"{label[0]} {label[1]}p" if len(label) == 2 else path.stem
        players = int(label[1]) if len(label) == 2 and label[1].isdigit() else 0
        cpu = [float(r["cpu_seconds"]) / 60 for r in rows]
        rate = [float(r["eval_loser_rate"]) for r in rows]
        ends = [wilson_interval(int(r["eval_losses"]), int(r["eval_games"])) for r in rows]
        err = [[p - lo for p, (lo, _) in zip(rate, ends, strict=True)],
               [hi - p for p, (_, hi) in zip(rate, ends, strict=True)]]
        color = f"C{i}"
        against = f"{players - 1} heuristic bots" if players else "heuristic bots"
        ax.errorbar(cpu, rate, yerr=err, fmt="o-", color=color, capsize=3,
                    label=f"{name}: learned vs {against} (95% Wilson)")
        if players:
            ax.axhline(1 / players, color=color, ls="--", lw=1, label=f"{name}: fair share 1/{players}")
    ax.set_xlabel("training CPU minutes (evaluation included); one point per round")
    ax.set_ylabel("loser rate against heuristic bots")
    ax.set_title("Learned baseline (imitation of counter, then DAgger): training curve")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    figure.parent.mkdir(parents=True, exist_ok=True)
    paths = [figure.with_suffix(".png"), figure.with_suffix(".svg")]
    fig.savefig(paths[0], dpi=120)
    fig.savefig(paths[1], metadata={"Date": None})
    plt.close(fig)
    return paths


# -- command line -----------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (module docstring).  Returns the exit status."""
    p = argparse.ArgumentParser(prog="python -m skitgubbe.batch.learn_train",
                                description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="pagat", help="preset to train on (default pagat)")
    p.add_argument("--players", type=int, default=3, help="seats (default 3)")
    p.add_argument("--out", type=Path, help="weights file to write (a model is added or replaced)")
    p.add_argument("--curve", type=Path, help="training curve CSV (default: next to --out)")
    p.add_argument("--games", type=int, default=3000, help="round 0: counter/heuristic deals (default 3000)")
    p.add_argument("--rounds", type=int, default=2, help="DAgger rounds after round 0 (default 2)")
    p.add_argument("--dagger-games", type=int, default=1500, help="deals per DAgger round (default 1500)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--hidden", default="96,32", help="two hidden layer widths, H1,H2 (default 96,32)")
    p.add_argument("--epochs", type=int, default=4, help="passes over the samples a round (default 4)")
    p.add_argument("--eval-deals", type=int, default=100,
                   help="fixed deals of the curve's evaluation (default 100)")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam step size (default 0.001)")
    p.add_argument("--decay", type=float, default=0.0, help="AdamW weight decay of the weights (default 0)")
    p.add_argument("--batch", type=int, default=256, help="decisions per minibatch (default 256)")
    p.add_argument("--action-limit", type=int, default=None,
                   help="abandon a training deal after this many actions (default: the engine's limit)")
    p.add_argument("--plot", type=Path, nargs="+", help="plot these curve CSVs instead of training")
    p.add_argument("--figure", type=Path, help="with --plot: the figure's path without suffix")
    args = p.parse_args(argv)
    if args.plot:
        if args.figure is None:
            p.error("--plot needs --figure")
        for path in plot_curves(args.plot, args.figure):
            print(path)
        return 0
    if args.out is None:
        p.error("--out is required to train")
    try:
        h1, h2 = (int(h) for h in args.hidden.split(","))
    except ValueError:
        p.error(f"--hidden {args.hidden!r}: give two widths, H1,H2")
    rules = find_variant(args.rules)
    curve = args.curve or args.out.with_name(f"{args.out.stem}-{rules.name}-{args.players}.csv")
    command = "python -m skitgubbe.batch.learn_train " + " ".join(sys.argv[1:] if argv is None else argv)
    train(rules, args.players, args.out, curve, games=args.games, rounds=args.rounds,
          dagger_games=args.dagger_games, seed=args.seed, hidden=(h1, h2), epochs=args.epochs,
          eval_deals=args.eval_deals, lr=args.lr, decay=args.decay, batch=args.batch,
          log=lambda line: print(line, flush=True), command=command, action_limit=args.action_limit)
    print(f"wrote {args.out} and {curve}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
