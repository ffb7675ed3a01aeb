"""Train the learned bot (:mod:`skitgubbe.bots.learned`) by deep Monte Carlo, with numpy.

Usage (docs/research.md, "A learned baseline")::

    python -m skitgubbe.batch.learn_train --rules pagat --players 3 --out WEIGHTS.json [--curve CURVE.csv]
        [--bootstrap-games 1500] [--games 600] [--rounds 8] [--seed 0] [--hidden 64,32] [--epochs 2]
        [--buffer 300000] [--eval-deals 40] [--epsilon 0.08] [--lr 0.001] [--decay 0.01] [--batch 512]
    python -m skitgubbe.batch.learn_train --plot CURVE.csv [CURVE.csv ...] --figure PATH_WITHOUT_SUFFIX

**Method** (deep Monte Carlo, as in DouZero, Zha et al. 2021).  Every decision with more than one legal
action becomes a sample: the 0/1 features of the seat's view and of the action it took
(:func:`~skitgubbe.bots.learned.state_features`, :func:`~skitgubbe.bots.learned.action_features`,
read from the view only), labelled 1 if that seat ended the deal as the loser, else 0.  A small MLP
(:class:`~skitgubbe.bots.learned.Model`) is fitted to the labels by binary cross-entropy with AdamW
(manual backpropagation in numpy; weight decay ``--decay``), so it estimates the chance of losing
after each action.

* **Round 0 (bootstrap)**: ``--bootstrap-games`` deals in which every seat is a ``heuristic`` bot that
  takes a uniformly random legal action with chance ``--epsilon`` at each decision (exploration); every
  seat's decisions are samples.
* **Rounds 1..R (self-play)**: ``--games`` deals a round in which each seat is the current learned agent
  (60%), a ``heuristic`` (25%) or a ``counter`` (15%) bot, with at least one learned seat; only the
  learned seats explore (``--epsilon``) and are recorded, so an action's features are never confounded
  with which bot played it.
* **Fitting, every round**: the samples of every tenth deal are held out (a validation set of the last
  ``--buffer // 9``); the rest join a buffer of the last ``--buffer`` samples.  The network, kept from
  the round before, trains up to ``--epochs`` passes over the buffer and keeps the parameters (the
  round's starting ones included) with the lowest held-out cross-entropy.  Every sample of one deal
  shares its label, so without this a network memorises deals (its training loss falls while the
  held-out loss rises above that of a constant).
* **After each round** the agent (greedy, with the weights as shipped: float16) plays ``--eval-deals``
  fixed deals (deck ``deck_from_seed("learn-train-eval:<preset>:<k>")``, dealer ``k % players``, not
  the harness's deals) in every seat against ``heuristic`` bots, and its loser rate is a row of the
  curve.

**Outputs.**  ``--out``: the weights file (JSON, the format of ``skitgubbe/bots/learned_weights.json``);
if it exists, its other models are kept and the model ``<preset>-<players>`` is replaced, so one file can
hold several presets.  ``--curve`` (default: ``--out`` with ``-<preset>-<players>.csv`` in place of
``.json``): one row a round: ``round, games, samples, buffer, loss`` (mean cross-entropy of the last
epoch, nats), ``val_loss`` (the kept parameters' held-out cross-entropy, nats), ``eval_games,
eval_losses, eval_loser_rate, cpu_seconds`` (process CPU time since the
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
_MAX_ACTIVE = 240  # at most this many 1-entries in one sample (state and action)


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


class _Recorder:
    """A seat that plays ``bot`` (or the learned ``model`` greedily) with exploration ``epsilon`` and
    records ``(features, seat)`` of every decision with more than one legal action."""

    def __init__(self, seat: int, rng: random.Random, epsilon: float,
                 samples: list[tuple[list[int], int]] | None, bot: Any = None,
                 model: Model | None = None) -> None:
        self.seat = seat
        self.rng = rng
        self.epsilon = epsilon
        self.samples = samples
        self.bot = bot
        self.model = model
        self.name = "learned" if model is not None else str(bot.name)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self.samples is None:  # an opponent: plays, is not recorded, does not explore
            return self.bot.choose(view, legal)  # type: ignore[no-any-return]
        state = state_features(view)
        every = all_action_features(view, legal)
        if self.rng.random() < self.epsilon:
            i = self.rng.randrange(len(legal))
        elif self.model is not None:
            part = self.model.state_part(state)
            scores = [self.model.logit(part, f) for f in every]
            i = scores.index(min(scores))
        else:
            i = legal.index(self.bot.choose(view, legal))
        action, feats = legal[i], every[i]
        self.samples.append((state + [STATE_SIZE + i for i in feats], self.seat))
        return action


def _play_games(rules: Rules, players: int, games: int, tag: str, mix: Sequence[tuple[str, float]],
                epsilon: float, models: dict[str, Model] | None
                ) -> tuple[list[list[int]], list[int], list[int]]:
    """Play ``games`` deals seeded by ``tag`` and return the samples' feature lists and labels.

    ``mix`` is ``(name, weight)`` pairs.  Without ``models`` (the bootstrap) every seat plays the first
    bot of ``mix``, explores and is recorded.  With ``models`` each seat is ``"learned"`` (the current
    model: explores and is recorded) or an opponent bot (not recorded, no exploration), drawn from ``mix``
    with at least one learned seat a deal: only the learner's own decisions are samples, so the action
    features are not confounded with who plays them.  Returns the feature lists, the labels and the
    deal number of each sample."""
    feats: list[list[int]] = []
    labels: list[int] = []
    deals: list[int] = []
    key = f"{rules.name}-{players}"
    names = [m[0] for m in mix]
    weights = [m[1] for m in mix]
    for g in range(games):
        seed = f"{tag}:{g}"
        pick = random.Random(f"{seed}:seats")
        samples: list[tuple[list[int], int]] = []
        seats = []
        if models is None:
            chosen = [names[0]] * players
        else:
            chosen = [pick.choices(names, weights)[0] for _ in range(players)]
            if "learned" not in chosen:
                chosen[pick.randrange(players)] = "learned"
        for s, name in enumerate(chosen):
            rng = random.Random(f"{seed}:{s}")
            if name == "learned":
                assert models is not None
                seats.append(_Recorder(s, rng, epsilon, samples, model=models[key]))
            else:
                bot = make_bot(name, random.Random(f"{seed}:bot{s}"))
                seats.append(_Recorder(s, rng, epsilon, samples if models is None else None, bot=bot))
        state = State.new(rules, players, dealer=g % players, deck=deck_from_seed(seed, decks=rules.decks),
                          ask_every_seat=True)
        play_out(state, seats, random.Random(f"{seed}:chance"))
        if state.loser is None:
            continue
        for f, s in samples:
            feats.append(f)
            labels.append(1 if state.loser == s else 0)
            deals.append(g)
    return feats, labels, deals


def evaluate_against_heuristic(rules: Rules, players: int, models: dict[str, Model],
                               deals: int) -> tuple[int, int]:
    """``(games, losses)`` of the greedy learned bot with ``models`` in every seat of ``deals`` fixed deals
    (deck ``deck_from_seed("learn-train-eval:<preset>:<k>")``) against ``heuristic`` bots."""
    games = losses = 0
    for k in range(deals):
        seed = f"learn-train-eval:{rules.name}:{k}"
        deck = deck_from_seed(seed, decks=rules.decks)
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


class _Net:
    """The MLP of :class:`~skitgubbe.bots.learned.Model` in numpy (float32) with Adam."""

    def __init__(self, np: Any, hidden: tuple[int, int], seed: int, lr: float, decay: float = 0.0) -> None:
        self.np = np
        rng = np.random.default_rng(seed)
        h1, h2 = hidden
        self.p = {
            "w1": (rng.standard_normal((_WIDTH, h1)) * np.sqrt(2.0 / 60)).astype(np.float32),
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

    def step(self, x: Any, y: Any) -> float:
        """One Adam step on a batch: ``x`` (B, width) 0/1 float32, ``y`` (B,) 0/1.  Returns the mean
        cross-entropy (nats) before the step."""
        np, p = self.np, self.p
        a1 = x @ p["w1"] + p["b1"]
        h1 = np.maximum(a1, 0)
        a2 = h1 @ p["w2"] + p["b2"]
        h2 = np.maximum(a2, 0)
        z = h2 @ p["w3"] + p["b3"][0]
        loss = float(np.mean(np.logaddexp(0, z) - y * z))
        dz = (1.0 / (1.0 + np.exp(-z)) - y) / len(y)
        g = {"w3": h2.T @ dz, "b3": np.array([dz.sum()], np.float32)}
        da2 = np.outer(dz, p["w3"]) * (a2 > 0)
        g["w2"] = h1.T @ da2
        g["b2"] = da2.sum(0)
        da1 = (da2 @ p["w2"].T) * (a1 > 0)
        g["w1"] = x.T @ da1
        g["b1"] = da1.sum(0)
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        corr = np.sqrt(1 - b2 ** self.t) / (1 - b1 ** self.t)
        for k, grad in g.items():
            grad = grad.astype(np.float32)
            self.m[k] = b1 * self.m[k] + (1 - b1) * grad
            self.v[k] = b2 * self.v[k] + (1 - b2) * grad * grad
            p[k] -= (self.lr * corr * self.m[k] / (np.sqrt(self.v[k]) + eps)).astype(np.float32)
            if k.startswith("w"):
                p[k] *= np.float32(1 - self.lr * self.decay)  # decoupled weight decay (AdamW)
        return loss

    def loss(self, x: Any, y: Any) -> float:
        """Mean cross-entropy (nats) of a batch, without a step."""
        np, p = self.np, self.p
        h1 = np.maximum(x @ p["w1"] + p["b1"], 0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0)
        z = h2 @ p["w3"] + p["b3"][0]
        return float(np.mean(np.logaddexp(0, z) - y * z))

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


def _pack(np: Any, feats: list[list[int]]) -> Any:
    """Feature lists as a padded (N, _MAX_ACTIVE) int16 matrix; padding is index ``_WIDTH``."""
    out = np.full((len(feats), _MAX_ACTIVE), _WIDTH, np.int16)
    for i, f in enumerate(feats):
        if len(f) > _MAX_ACTIVE:
            raise ValueError(f"a sample has {len(f)} active features, more than {_MAX_ACTIVE}")
        out[i, :len(f)] = f
    return out


def _dense(np: Any, packed: Any) -> Any:
    """Packed samples as a dense (N, width) 0/1 float32 matrix."""
    x = np.zeros((len(packed), _WIDTH + 1), np.float32)
    x[np.arange(len(packed))[:, None], packed] = 1.0
    return x[:, :_WIDTH]


def _val_loss(np: Any, net: _Net, xs: Any, ys: Any) -> float:
    """Mean cross-entropy of ``net`` over packed samples (in blocks)."""
    if not len(ys):
        return 0.0
    total = 0.0
    for a in range(0, len(ys), 4096):
        b = min(a + 4096, len(ys))
        total += net.loss(_dense(np, xs[a:b]), ys[a:b].astype(np.float32)) * (b - a)
    return total / len(ys)


def _fit(np: Any, net: _Net, xs: Any, ys: Any, vx: Any, vy: Any, epochs: int, batch: int,
         rng: Any) -> tuple[float, float]:
    """Up to ``epochs`` passes of minibatches over the packed samples ``xs``, ``ys``, keeping the
    parameters (those before the first pass included) with the lowest cross-entropy on the held-out
    samples ``vx``, ``vy`` (early stopping: every sample of one deal shares its label, so a network
    that memorises deals would otherwise fit the noise).  Returns ``(train loss of the last pass,
    best held-out loss)``."""
    n = len(ys)
    last = 0.0
    best = _val_loss(np, net, vx, vy)
    kept = net.copy()
    for _ in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        steps = 0
        for start in range(0, n, batch):
            idx = order[start:start + batch]
            total += net.step(_dense(np, xs[idx]), ys[idx].astype(np.float32))
            steps += 1
        last = total / max(steps, 1)
        val = _val_loss(np, net, vx, vy)
        if val < best:
            best, kept = val, net.copy()
        else:
            break
    net.restore(kept)
    return last, best


# -- training ---------------------------------------------------------------------------------------


def train(rules: Rules, players: int, out: Path, curve: Path, *, bootstrap_games: int = 1500,
          games: int = 600, rounds: int = 8, seed: int = 0, hidden: tuple[int, int] = (64, 32),
          epochs: int = 2, buffer: int = 300_000, eval_deals: int = 40, epsilon: float = 0.08,
          lr: float = 1e-3, decay: float = 0.01, batch: int = 512, log: Any = None,
          command: str = "") -> dict[str, Any]:
    """Train a model for ``rules`` with ``players`` seats (module docstring), write it into the weights
    file ``out`` and the curve to ``curve`` (CSV), and return the model entry written.  ``log``: a
    callable given one line of progress text a round, or None.  Raises ``ValueError`` for a seat count
    the rules do not allow or a non-positive size, ``SystemExit`` without numpy."""
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players, "
                         f"not {players}")
    if min(bootstrap_games, eval_deals, epochs, buffer, batch, *hidden) < 1 or games < 0 or rounds < 0:
        raise ValueError("games, deals, epochs, buffer, batch and hidden sizes must be positive")
    np = _numpy()
    start = time.process_time()
    nrng = np.random.default_rng(seed)
    net = _Net(np, hidden, seed, lr, decay)
    key = f"{rules.name}-{players}"
    xs = vx = np.zeros((0, _MAX_ACTIVE), np.int16)
    ys = vy = np.zeros(0, np.int8)
    rows: list[dict[str, Any]] = []
    total_games = total_samples = 0
    entry: dict[str, Any] = {}
    for rnd in range(rounds + 1):
        models = None if rnd == 0 else {key: Model(key, entry)}
        if rnd == 0:
            mix: list[tuple[str, float]] = [("heuristic", 1.0)]
            n_games = bootstrap_games
        else:
            mix = [("learned", 0.6), ("heuristic", 0.25), ("counter", 0.15)]
            n_games = games
        tag = f"learn-train:{seed}:{key}:{rnd}"
        feats, labels, deal_of = _play_games(rules, players, n_games, tag, mix, epsilon, models)
        total_games += n_games
        total_samples += len(labels)
        held = np.array([d % 10 == 9 for d in deal_of], bool)  # every tenth deal is held out
        packed, lab = _pack(np, feats), np.array(labels, np.int8)
        xs = np.concatenate([xs, packed[~held]])[-buffer:]
        ys = np.concatenate([ys, lab[~held]])[-buffer:]
        vx = np.concatenate([vx, packed[held]])[-buffer // 9:]
        vy = np.concatenate([vy, lab[held]])[-buffer // 9:]
        loss, val = _fit(np, net, xs, ys, vx, vy, epochs, batch, nrng)
        meta = {"command": command, "seed": seed, "rounds": rnd, "games": total_games,
                "samples": total_samples,
                "cpu_seconds": round(time.process_time() - start, 1), "feature_version": FEATURE_VERSION}
        entry = net.model_data(rules.name, players, meta)
        g, lost = evaluate_against_heuristic(rules, players, {key: Model(key, entry)}, eval_deals)
        row = {"round": rnd, "games": n_games, "samples": len(labels), "buffer": len(ys),
               "loss": round(loss, 5), "val_loss": round(val, 5),
               "eval_games": g, "eval_losses": lost, "eval_loser_rate": round(lost / g if g else 0.0, 4),
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
    ax.set_title("Learned baseline (deep Monte Carlo): training curve")
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
    p.add_argument("--bootstrap-games", type=int, default=1500, help="round 0: heuristic/counter deals")
    p.add_argument("--games", type=int, default=600, help="deals per self-play round (default 600)")
    p.add_argument("--rounds", type=int, default=8, help="self-play rounds after the bootstrap (default 8)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--hidden", default="64,32", help="two hidden layer widths, H1,H2 (default 64,32)")
    p.add_argument("--epochs", type=int, default=2, help="passes over the buffer a round (default 2)")
    p.add_argument("--buffer", type=int, default=300_000, help="samples kept, newest first (default 300000)")
    p.add_argument("--eval-deals", type=int, default=40,
                   help="fixed deals of the curve's evaluation (default 40)")
    p.add_argument("--epsilon", type=float, default=0.08, help="chance of a random action a decision (0.08)")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam step size (default 0.001)")
    p.add_argument("--decay", type=float, default=0.01, help="AdamW weight decay of the weights (0.01)")
    p.add_argument("--batch", type=int, default=512, help="minibatch size (default 512)")
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
    train(rules, args.players, args.out, curve, bootstrap_games=args.bootstrap_games, games=args.games,
          rounds=args.rounds, seed=args.seed, hidden=(h1, h2), epochs=args.epochs, buffer=args.buffer,
          eval_deals=args.eval_deals, epsilon=args.epsilon, lr=args.lr, decay=args.decay, batch=args.batch,
          log=lambda line: print(line, flush=True), command=command)
    print(f"wrote {args.out} and {curve}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
