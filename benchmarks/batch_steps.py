"""Env steps per second of batch stepping (skitgubbe.adapters.batch, issue 20 item 4) beside
single-env PettingZoo loops, in one run, CPU time of this process (``time.process_time``).

    nice python benchmarks/batch_steps.py [--players 3] [--goat-players 4] [--steps 400000] [--pz-steps 3000]
    nice python benchmarks/batch_steps.py --every-preset [--envs 256] [--steps 200000]
    nice python benchmarks/batch_steps.py --opponents [--envs 256] [--steps 20000]

Rows (``--every-preset``: only the table of every preset, below):

* ``batch N step only``: pagat, N envs, random legal actions; only the time inside
  :meth:`BatchEnv.step` is counted (the C++ step, the observations and masks written); the NumPy
  choice of actions is outside the clock.
* ``batch N whole loop``: the same loop timed whole: NumPy draws one random legal action per env
  from the mask (:func:`~skitgubbe.adapters.batch.random_legal_actions`) and the batch steps.
* ``goat batch N ...``: the same two rows for goat (``--goat-players`` seats; 0 skips them).
* ``pettingzoo skitgubbe``: this project's PettingZoo AEC env (pagat, same seats), one env,
  ``action_space.sample(mask)`` each turn, ``e.last()`` read each turn (an env step = one turn).
* ``pettingzoo <classic>``: PettingZoo's own classic games with random legal actions, when they
  import here (the card games need rlcard, every classic game pygame); skipped with the reason
  otherwise.

With ``--every-preset``: for every preset of ``compiled.COMPILED_PRESETS`` at its usual seat count
(``variants.usual_players``) the ``step only`` and ``whole loop`` rates of a batch of ``--envs``
envs, by the preset's own compiled code and by the run-time policy given the same rules (one
run, the same seeds), and the vector environment (``skitgubbe.adapters.vector``) with the learner
at seat 0 and random opponents: learner steps a second, the opponents' steps uncounted.

With ``--opponents``: for every preset at its usual seat count, learner steps a second of
:meth:`BatchEnv.step` + :meth:`BatchEnv.play_others` with the learner at seat 0 (its first legal
action, NumPy's argmax of the mask) and compiled random, then heuristic, bots in the other seats
(``--steps`` learner steps per row), with the opponents' decisions a second beside them; the
issue's target for compiled counter opponents is 50,000 learner steps a second.

An env step is one decision of one env (a seat's action).
"""

from __future__ import annotations

import argparse
import importlib
import time

import numpy as np

from skitgubbe.adapters.batch import BatchEnv, random_legal_actions
from skitgubbe.engine.rules import Rules


def batch_rows(preset: str | Rules, players: int, n_envs: int, steps: int) -> tuple[float, float]:
    envs = BatchEnv(preset, players=players, n_envs=n_envs, seed=1)
    out = envs.reset()
    rng = np.random.default_rng(0)
    inside = 0.0
    done = 0
    start = time.process_time()
    while done < steps:
        actions = random_legal_actions(out.mask, rng)
        t = time.process_time()
        out = envs.step(actions)
        inside += time.process_time() - t
        done += n_envs
    whole = time.process_time() - start
    return done / inside, done / whole


def vector_learner_rate(preset: str, players: int, n_envs: int, steps: int) -> float:
    """Learner steps per CPU second of SkitgubbeVectorEnv (random opponents, seat 0), the NumPy
    choice of the learner's actions counted."""
    from skitgubbe.adapters.vector import SkitgubbeVectorEnv

    envs = SkitgubbeVectorEnv(n_envs, preset, players, copy=False)
    _, info = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    done = 0
    start = time.process_time()
    while done < steps:
        _, _, _, _, info = envs.step(random_legal_actions(info["action_mask"], rng))
        done += n_envs
    return done / (time.process_time() - start)


def opponent_rates(preset: str, players: int, n_envs: int, steps: int, bots: str) -> tuple[float, float]:
    """(learner steps, opponents' steps) per CPU second of step + play_others, learner at seat 0
    taking its first legal action, ``bots`` at the other seats."""
    envs = BatchEnv(preset, players=players, n_envs=n_envs, seed=1, bots=bots)
    out = envs.reset()
    envs.play_others(0)
    done = 0
    others = envs.other_steps
    start = time.process_time()
    while done < steps:
        out = envs.step(np.argmax(out.mask != 0, axis=1))
        envs.play_others(0)
        done += n_envs
    spent = time.process_time() - start
    return done / spent, (envs.other_steps - others) / spent


def opponents_table(n_envs: int, steps: int) -> None:
    from skitgubbe.engine.compiled import COMPILED_PRESETS
    from skitgubbe.engine.variants import PRESETS, usual_players

    opponent_rates("pagat", 3, n_envs, steps // 4, "random")  # (warm-up)
    print(f"learner steps per CPU second, batch {n_envs}, learner at seat 0 (first legal action), "
          "compiled bots at the other seats (their steps a second beside)")
    print(f"{'preset':20s}{'seats':>6s}{'random: learner':>17s}{'their steps':>13s}"
          f"{'heuristic: learner':>20s}{'their steps':>13s}")
    for preset in COMPILED_PRESETS:
        players = usual_players(PRESETS[preset])
        r_learner, r_others = opponent_rates(preset, players, n_envs, steps, "random")
        h_learner, h_others = opponent_rates(preset, players, n_envs, steps, "heuristic")
        print(f"{preset:20s}{players:6d}{r_learner:17,.0f}{r_others:13,.0f}{h_learner:20,.0f}{h_others:13,.0f}")


def every_preset(n_envs: int, steps: int) -> None:
    from skitgubbe.engine.compiled import COMPILED_PRESETS
    from skitgubbe.engine.variants import PRESETS, usual_players

    batch_rows("pagat", 3, n_envs, steps // 4)  # (warm-up: the first row ran about a third slower without it)
    print(f"every preset, batch {n_envs}, env steps per CPU second (observations and masks written)")
    print(f"{'preset':20s}{'seats':>6s}{'step only':>12s}{'whole loop':>12s}{'run-time only':>15s}"
          f"{'run-time loop':>15s}{'learner/s':>12s}")
    for preset in COMPILED_PRESETS:
        players = usual_players(PRESETS[preset])
        only, whole = batch_rows(preset, players, n_envs, steps)
        rules = PRESETS[preset].replace(name=f"{preset} (run-time policy)")
        r_only, r_whole = batch_rows(rules, players, n_envs, steps)
        learner = vector_learner_rate(preset, players, n_envs, steps // players)
        print(f"{preset:20s}{players:6d}{only:12,.0f}{whole:12,.0f}{r_only:15,.0f}{r_whole:15,.0f}{learner:12,.0f}")


def pettingzoo_loop(make: object, turns: int) -> float:
    e = make()  # type: ignore[operator]
    e.reset(seed=0)
    n = 0
    start = time.process_time()
    while n < turns:
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                action = None
            else:
                mask = obs["action_mask"] if isinstance(obs, dict) else None
                action = e.action_space(agent).sample(mask)
                n += 1
            e.step(action)
        e.reset()
    return n / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--goat-players", type=int, default=4, help="seats of the goat rows (0: none)")
    ap.add_argument("--steps", type=int, default=400_000, help="env steps per batch row")
    ap.add_argument("--pz-steps", type=int, default=3_000, help="turns per PettingZoo row")
    ap.add_argument("--every-preset", action="store_true", help="only the table of every preset")
    ap.add_argument("--envs", type=int, default=256, help="batch size of the --every-preset table")
    ap.add_argument("--opponents", action="store_true",
                    help="only the table of learner steps against compiled random and heuristic bots")
    args = ap.parse_args()
    if args.opponents:
        opponents_table(args.envs, args.steps)
        return
    if args.every_preset:
        every_preset(args.envs, args.steps)
        return
    print(f"pagat, {args.players} seats; env steps per CPU second")
    for n in (64, 256, 1024):
        only, whole = batch_rows("pagat", args.players, n, args.steps)
        print(f"batch {n:5d} step only   {only:12,.0f}")
        print(f"batch {n:5d} whole loop  {whole:12,.0f}  (NumPy choosing the actions counted)")
    if args.goat_players:
        print(f"goat, {args.goat_players} seats")
        for n in (64, 256, 1024):
            only, whole = batch_rows("goat", args.goat_players, n, args.steps)
            print(f"goat batch {n:5d} step only   {only:12,.0f}")
            print(f"goat batch {n:5d} whole loop  {whole:12,.0f}")
    from skitgubbe.adapters.pettingzoo import env as sg_env

    rate = pettingzoo_loop(lambda: sg_env(rules="pagat", players=args.players), args.pz_steps)
    print(f"pettingzoo skitgubbe     {rate:12,.0f}  (one env, this project's AEC adapter)")
    for name in ("leduc_holdem_v4", "texas_holdem_v4", "texas_holdem_no_limit_v6", "gin_rummy_v4",
                 "tictactoe_v3", "connect_four_v3"):
        try:
            mod = importlib.import_module(f"pettingzoo.classic.{name}")
        except Exception as exc:  # noqa: BLE001 - any import failure: not installed here
            print(f"pettingzoo {name:14s}  not run: {type(exc).__name__}: {exc}")
            continue
        rate = pettingzoo_loop(mod.env, args.pz_steps)
        print(f"pettingzoo {name:14s}{rate:12,.0f}")


if __name__ == "__main__":
    main()
