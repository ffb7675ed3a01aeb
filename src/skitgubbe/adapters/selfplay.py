"""Train the self-play agent (:mod:`skitgubbe.bots.selfplay`) by Deep Monte-Carlo, and run its network
with NumPy on :class:`~skitgubbe.adapters.batch.BatchEnv` observations.

Usage (docs/research.md, "A self-play agent")::

    skitgubbe train-selfplay --preset pagat --players 3 --minutes 30 --seed 0 --out WEIGHTS.json

**Method** (Deep Monte-Carlo, as in DouZero: Zha et al. 2021).  One network, shared by every seat,
estimates ``Q(obs, a)``: the expected reward at the end of the deal (``-1`` for the loser,
``+1/(P-1)`` for every other seat, :mod:`skitgubbe.adapters.batch`) of the seat whose observation
``obs`` is (:func:`skitgubbe.adapters.encoding.observation`, 1652 floats, rotated so that the
observing seat is first) when it takes action id ``a`` now and the seats play on as the agent does.
It is a multilayer perceptron ``1652 -> H1 -> H2 -> 551`` (ReLU): one output per action id, so one
forward pass scores every legal action of a decision.  ``n_envs`` deals of a
:class:`~skitgubbe.adapters.batch.BatchEnv` are stepped together; every seat of every deal is the
agent, which takes the legal action of highest ``Q`` or, with chance ``epsilon`` (falling linearly
from ``epsilon_start`` to ``epsilon_end`` over the run), a uniformly random legal one.  When a deal
ends, each decision of it with more than one legal action becomes a sample ``(obs, a, G)``, ``G``
the acting seat's reward of that deal (the Monte-Carlo return: no discount, no bootstrapping), kept
with chance ``sample_rate`` (a seat's decisions in one deal share their return); each
``batch`` samples are one step of Adam on the mean squared error ``(Q(obs, a) - G)^2``.  Each
sample is used once (on-policy, as DouZero's actors feed its learner).

**Cost.**  PyTorch on one thread (``torch.set_num_threads(1)``), on CPU; the command runs for
``--minutes`` of wall-clock time (or ``--max-updates`` steps of Adam) and prints a progress line every
``--log-seconds``.  The same arguments (and ``--max-updates`` in place of a time budget) give the same
weights.

**Outputs.**  ``--out``: a weights file in the format of ``skitgubbe/bots/selfplay_weights.json``
(:func:`skitgubbe.bots.selfplay.load_models`); if it exists, its other models are kept and the model
``<preset>-<players>`` is replaced, so one file holds several presets.  It is written at every
checkpoint (``--checkpoint-minutes``) and at the end.  Arrays are stored as float16 (the bot plays
with the float16 weights).

Needs the extra ``train`` (``pip install 'skitgubbe[train]'``: PyTorch and NumPy) and the compiled
engine (``pip install ./native``); :func:`train` raises ``ImportError`` naming the extra when PyTorch
is missing.  :class:`NumpyQ` needs NumPy only.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bots.learned import decode_array, encode_array
from ..bots.selfplay import FORMAT, WEIGHTS_FILE, model_key
from . import encoding
from .batch import BatchEnv, random_legal_actions

__all__ = ["NumpyQ", "train", "TrainResult"]


class NumpyQ:
    """The network of one model of a self-play weights file, run with NumPy on batches.

    ``data``: the model's entry of the parsed weights file (``file["models"]["pagat-3"]``).  Raises
    ``ValueError`` if the arrays' shapes do not chain ``1652 -> H1 -> H2 -> 551``."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        arrays = []
        for name in ("w1", "b1", "w2", "b2", "w3", "b3"):
            values, shape = decode_array(data[name])
            arrays.append(np.asarray(values, dtype=np.float32).reshape(shape))
        self.w1, self.b1, self.w2, self.b2, self.w3, self.b3 = arrays
        h1, h2 = self.b1.shape[0], self.b2.shape[0]
        if (self.w1.shape, self.w2.shape, self.w3.shape, self.b3.shape) != (
                (encoding.OBS_SIZE, h1), (h1, h2), (h2, encoding.NUM_ACTIONS), (encoding.NUM_ACTIONS,)):
            raise ValueError("self-play weights: the arrays' shapes do not chain 1652 -> H1 -> H2 -> 551")

    def q_values(self, obs: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """``Q`` of every action id: ``(N, 551)`` float32 for ``obs`` of shape ``(N, 1652)``."""
        x = np.asarray(obs, dtype=np.float32)
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        h = np.maximum(h @ self.w2 + self.b2, 0.0)
        q: npt.NDArray[np.float32] = (h @ self.w3 + self.b3).astype(np.float32)
        return q

    def act(self, obs: npt.ArrayLike, mask: npt.ArrayLike) -> npt.NDArray[np.intp]:
        """The greedy action id of each row: the legal id (``mask`` nonzero) of highest ``Q``, the
        lowest id on an exact tie.  ``(N,)`` ids for ``obs`` ``(N, 1652)`` and ``mask`` ``(N, 551)``."""
        q = self.q_values(obs)
        legal = np.asarray(mask) != 0
        picks: npt.NDArray[np.intp] = np.argmax(np.where(legal, q, -np.inf), axis=1)
        return picks


class TrainResult(dict[str, Any]):
    """What :func:`train` returns: the metadata recorded in the weights file (``updates``, ``samples``,
    ``deals``, ``env_steps``, ``cpu_seconds``, ``wall_seconds``, the arguments)."""


def _torch() -> Any:
    try:
        import torch
    except ImportError as e:  # the optional extra is not installed
        raise ImportError("training the self-play agent needs PyTorch: pip install 'skitgubbe[train]' "
                          "(the extra 'train': torch and numpy)") from e
    return torch


def _export(net: Any, hidden: Sequence[int]) -> dict[str, Any]:
    layers = [m for m in net if hasattr(m, "weight")]
    out: dict[str, Any] = {"hidden": list(hidden)}
    for k, layer in enumerate(layers, start=1):
        w = layer.weight.detach().numpy().T.astype(np.float32)  # (inputs, outputs): row i = input i
        b = layer.bias.detach().numpy().astype(np.float32)
        out[f"w{k}"] = encode_array(w.ravel().tolist(), w.shape)
        out[f"b{k}"] = encode_array(b.tolist(), b.shape)
    return out


def _write(path: str, key: str, model: dict[str, Any]) -> None:
    data: dict[str, Any] = {"format": FORMAT, "models": {}}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = json.load(f)
        if old.get("format") == FORMAT:
            data = old
    data["models"][key] = model
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    os.replace(tmp, path)


def train(preset: str = "pagat", players: int = 3, *, out: str, minutes: float = 30.0, seed: int = 0,
          n_envs: int = 128, hidden: tuple[int, int] = (256, 128), lr: float = 1e-3, batch: int = 2048,
          epsilon_start: float = 0.05, epsilon_end: float = 0.01, sample_rate: float = 0.25,
          max_updates: int | None = None,
          log_seconds: float = 30.0, checkpoint_minutes: float = 5.0,
          log: Callable[[str], None] = print, command: str = "") -> TrainResult:
    """Train the self-play agent (module docstring) for ``preset`` (``pagat`` or ``goat``, what
    :class:`~skitgubbe.adapters.batch.BatchEnv` steps) at ``players`` seats and write its weights to
    ``out`` (a JSON file; its other models are kept).

    ``minutes``: wall-clock budget (minutes); ``max_updates``: stop after that many Adam steps instead
    (whichever comes first; with ``max_updates`` and a generous budget the run is reproducible
    exactly).  ``seed`` seeds the deals, the exploration and the network's initial weights.
    ``n_envs``: deals stepped together; ``hidden``: ``(H1, H2)``; ``lr``: Adam's step size;
    ``batch``: samples a step; ``epsilon_start``/``epsilon_end``: the exploration rate at the start
    and at the end of the budget; ``sample_rate``: the chance that a decision becomes a sample (the
    decisions of one seat in one deal share their return, so a share of them carries most of what
    they teach at a fraction of the cost).  ``log`` receives a progress line every ``log_seconds`` seconds;
    ``command`` is recorded in the file's metadata.

    Raises ``ImportError`` naming the extra ``train`` without PyTorch, ``ImportError`` without the
    compiled engine, ``ValueError`` for a preset or seat count BatchEnv does not step, a
    non-positive ``minutes``, ``n_envs``, ``batch``, ``lr``, hidden width or ``max_updates``, or an
    epsilon or ``sample_rate`` outside 0..1 (``sample_rate`` above 0)."""
    torch = _torch()
    if minutes <= 0 or n_envs < 1 or batch < 1 or lr <= 0 or min(hidden) < 1 or len(hidden) != 2:
        raise ValueError("minutes, n_envs, batch, lr and the two hidden widths must be positive")
    if max_updates is not None and max_updates < 1:
        raise ValueError(f"max_updates must be at least 1, not {max_updates}")
    if not (0 <= epsilon_start <= 1 and 0 <= epsilon_end <= 1):
        raise ValueError("epsilon_start and epsilon_end are chances: 0..1")
    if not 0 < sample_rate <= 1:
        raise ValueError(f"sample_rate is a chance above 0: 0 < sample_rate <= 1, not {sample_rate}")
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    env = BatchEnv(preset, players=players, n_envs=n_envs, seed=seed)
    key = model_key(preset, players)
    h1, h2 = hidden
    net = torch.nn.Sequential(
        torch.nn.Linear(encoding.OBS_SIZE, h1), torch.nn.ReLU(),
        torch.nn.Linear(h1, h2), torch.nn.ReLU(),
        torch.nn.Linear(h2, encoding.NUM_ACTIONS),
    )
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    budget = minutes * 60.0
    t0, c0 = time.monotonic(), time.process_time()
    last_log = last_ckpt = t0
    meta: TrainResult = TrainResult(
        preset=preset, players=players, seed=seed, n_envs=n_envs, hidden=list(hidden), lr=lr, batch=batch,
        epsilon_start=epsilon_start, epsilon_end=epsilon_end, sample_rate=sample_rate, minutes=minutes,
        command=command,
        method="deep Monte-Carlo self-play, one network for every seat")

    # Rollout storage: step k's arrays live in steps[k - base]; env i's current deal began at start[i].
    obs_steps: list[npt.NDArray[np.float16]] = []
    act_steps: list[npt.NDArray[np.int16]] = []
    seat_steps: list[npt.NDArray[np.int8]] = []
    choice_steps: list[npt.NDArray[np.bool_]] = []
    base = 0
    start = np.zeros(n_envs, dtype=np.int64)
    pend_obs: list[npt.NDArray[np.float16]] = []
    pend_act: list[npt.NDArray[np.int16]] = []
    pend_ret: list[npt.NDArray[np.float32]] = []
    pending = 0
    updates = samples = deals = losses_seen = 0
    loss_sum = 0.0
    wins = np.zeros(players)
    step = 0
    out_step = env.reset()

    def save() -> None:
        meta.update(updates=updates, samples=samples, deals=deals, env_steps=step * n_envs,
                    cpu_seconds=round(time.process_time() - c0, 1),
                    wall_seconds=round(time.monotonic() - t0, 1))
        model = _export(net, hidden)
        model["meta"] = dict(meta)
        model["preset"], model["players"] = preset, players
        _write(out, key, model)

    while True:
        now = time.monotonic()
        frac = min(1.0, (now - t0) / budget)
        if now - t0 >= budget or (max_updates is not None and updates >= max_updates):
            break
        eps = epsilon_start + (epsilon_end - epsilon_start) * frac
        obs = out_step.obs
        mask = out_step.mask
        with torch.no_grad():
            q = net(torch.from_numpy(obs)).numpy()
        legal = mask != 0
        greedy = np.argmax(np.where(legal, q, -np.inf), axis=1)
        explore = rng.random(n_envs) < eps
        actions = np.where(explore, random_legal_actions(mask, rng), greedy)
        obs_steps.append(obs.astype(np.float16))
        act_steps.append(actions.astype(np.int16))
        seat_steps.append(out_step.to_act.astype(np.int8))
        choice_steps.append((legal.sum(axis=1) > 1) & (rng.random(n_envs) < sample_rate))
        out_step = env.step(actions)
        done = np.flatnonzero(out_step.done)
        for i in done:
            deals += 1
            ks = np.arange(start[i], step + 1) - base
            rewards = out_step.rewards[i]
            if not out_step.truncated[i]:
                wins[int(np.argmin(rewards))] += 1
                choose = np.array([choice_steps[k][i] for k in ks])
                ks = ks[choose]
                if ks.size:
                    pend_obs.append(np.stack([obs_steps[k][i] for k in ks]))
                    pend_act.append(np.array([act_steps[k][i] for k in ks], dtype=np.int16))
                    seats = np.array([seat_steps[k][i] for k in ks], dtype=np.int64)
                    pend_ret.append(rewards[seats].astype(np.float32))
                    pending += ks.size
            start[i] = step + 1
        step += 1
        drop = int(start.min()) - base
        if drop > 0:
            del obs_steps[:drop], act_steps[:drop], seat_steps[:drop], choice_steps[:drop]
            base += drop
        while pending >= batch and (max_updates is None or updates < max_updates):
            x = np.concatenate(pend_obs)
            a = np.concatenate(pend_act)
            g = np.concatenate(pend_ret)
            perm = rng.permutation(x.shape[0])
            x, a, g = x[perm], a[perm], g[perm]
            xb = torch.from_numpy(x[:batch].astype(np.float32))
            ab = torch.from_numpy(a[:batch].astype(np.int64))
            gb = torch.from_numpy(g[:batch])
            pred = net(xb).gather(1, ab[:, None])[:, 0]
            loss = torch.mean((pred - gb) ** 2)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 40.0)
            opt.step()
            updates += 1
            samples += batch
            loss_sum += float(loss.detach())
            losses_seen += 1
            pend_obs, pend_act, pend_ret = [x[batch:]], [a[batch:]], [g[batch:]]
            pending = x.shape[0] - batch
        now = time.monotonic()
        if now - last_log >= log_seconds:
            mean_loss = loss_sum / losses_seen if losses_seen else float("nan")
            log(f"{now - t0:7.0f}s  updates {updates}  samples {samples}  deals {deals}  "
                f"env steps {step * n_envs}  loss {mean_loss:.4f}  epsilon {eps:.3f}  "
                f"cpu {time.process_time() - c0:.0f}s")
            loss_sum, losses_seen, last_log = 0.0, 0, now
        if now - last_ckpt >= checkpoint_minutes * 60:
            save()
            last_ckpt = now
    save()
    log(f"done: {updates} updates, {samples} samples, {deals} deals, "
        f"{meta['cpu_seconds']} CPU seconds; weights {key!r} in {out}")
    return meta


DEFAULT_OUT = WEIGHTS_FILE
"""The shipped weights' file name (in ``skitgubbe/bots``)."""
