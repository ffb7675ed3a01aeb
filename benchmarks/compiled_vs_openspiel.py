"""Random-play speed, side by side in one run: the Python engine, the compiled engine and OpenSpiel.

Rows (each one core, CPU time of this process, ``time.process_time``; the median of ``--rounds``
timed rounds, each at least ``--seconds`` long):

* ``python pagat Np`` (and ``goat 4p``): the Python engine, deals from
  ``State.new(PRESETS[...], N, seed=...)`` played by uniformly random legal actions
  (:func:`skitgubbe.batch.bench.bench_random_play`);
* ``compiled pagat Np`` (and ``goat 4p``, ``goat 8p``): the compiled engine, whole deals (shuffle
  and dreck orders included) played in C++ by :func:`skitgubbe.engine.compiled.random_playouts`,
  many deals per call;
* ``python P Np`` and ``compiled P Np`` for each newer compiled preset at its usual table
  (:data:`NEWER`: myllymatti 3p, catsatcards 3p, two-player 2p, howell 4p, catsatcards-flurst 4p, mattis 4p,
  atlanta 3p, koira 4p),
  measured the same two ways;
* ``compiled pagat 3p, one call a deal``: ``CompiledState.new(..., seed=k)`` (the Python shuffle)
  then ``play_random`` for each deal: what one Python call per deal costs on top;
* ``openspiel hearts`` and ``openspiel crazy_eights``: ``pyspiel.evaluate_bots`` with OpenSpiel's
  C++ uniform random bots (``pyspiel.make_uniform_random_bot``) at every seat, one call a game, at
  the games' default tables (4 and 5 players).

Then the ratios (compiled pagat 3p over hearts, over crazy_eights and over the Python engine; goat
and each newer preset over the Python engine), the targets of issue 20 and the memory of one
compiled state.  Needs the compiled module (``pip install ./native``) and the ``openspiel`` extra.

    python benchmarks/compiled_vs_openspiel.py                  # about three minutes
    python benchmarks/compiled_vs_openspiel.py --seconds 1 --rounds 3 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable

from skitgubbe.batch.bench import bench_random_play
from skitgubbe.engine import compiled
from skitgubbe.engine.variants import PRESETS

PAGAT = PRESETS["pagat"]
NEWER = [("myllymatti", 3), ("catsatcards", 3), ("two-player", 2), ("howell", 4), ("catsatcards-flurst", 4),
         ("mattis", 4), ("atlanta", 3), ("koira", 4)]
"""The newer compiled presets, each at its usual table (variants.USUAL_PLAYERS)."""


def timed(run: Callable[[int], int], seconds: float, rounds: int) -> float:
    """The median over ``rounds`` of games per CPU second, each round calling ``run(k)`` (which
    plays some games and returns how many) until ``seconds`` of CPU time have passed."""
    rates = []
    for r in range(rounds):
        start = time.process_time()
        games, k = 0, r * 1_000_003
        while True:
            games += run(k)
            k += 1
            spent = time.process_time() - start
            if spent >= seconds:
                break
        rates.append(games / spent)
    return statistics.median(rates)


def python_rate(preset: str, players: int) -> Callable[[int], int]:
    def run(k: int) -> int:
        return bench_random_play(PRESETS[preset], players, 50, seed=k, engine="python").games
    return run


def compiled_rate(preset: str, players: int) -> Callable[[int], int]:
    def run(k: int) -> int:
        return compiled.random_playouts(preset, players, 5_000, k).games
    return run


def compiled_one_call_rate(players: int) -> Callable[[int], int]:
    def run(k: int) -> int:
        for g in range(200):
            compiled.CompiledState.new(PAGAT, players, seed=k * 200 + g).play_random(g)
        return 200
    return run


def openspiel_rate(name: str) -> Callable[[int], int]:
    import pyspiel

    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(p, 1234 + p) for p in range(game.num_players())]

    def run(k: int) -> int:
        for g in range(50):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, k * 50 + g)
        return 50
    return run


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per timed round; default 3")
    p.add_argument("--rounds", type=int, default=3, help="timed rounds per row (the median); default 3")
    p.add_argument("--json", action="store_true", help="print as JSON")
    args = p.parse_args(argv)
    if not compiled.available():
        print("compiled_vs_openspiel: the compiled engine is not installed (pip install ./native)",
              file=sys.stderr)
        return 2
    rows: dict[str, float] = {}
    runs: list[tuple[str, Callable[[int], int]]] = []
    for n in (2, 3, 4):
        runs.append((f"python pagat {n}p", python_rate("pagat", n)))
    runs.append(("python goat 4p", python_rate("goat", 4)))
    for n in (2, 3, 4):
        runs.append((f"compiled pagat {n}p", compiled_rate("pagat", n)))
    runs.append(("compiled goat 4p", compiled_rate("goat", 4)))
    runs.append(("compiled goat 8p", compiled_rate("goat", 8)))
    for preset, n in NEWER:
        runs.append((f"python {preset} {n}p", python_rate(preset, n)))
        runs.append((f"compiled {preset} {n}p", compiled_rate(preset, n)))
    runs.append(("compiled pagat 3p, one call a deal", compiled_one_call_rate(3)))
    runs.append(("openspiel hearts 4p", openspiel_rate("hearts")))
    runs.append(("openspiel crazy_eights 5p", openspiel_rate("crazy_eights")))
    for name, run in runs:
        rows[name] = timed(run, args.seconds, args.rounds)
        if not args.json:
            print(f"{name:38s} {rows[name]:>12,.0f} games/s", flush=True)
    c3 = rows["compiled pagat 3p"]
    ratios = {
        "compiled pagat 3p / openspiel hearts": c3 / rows["openspiel hearts 4p"],
        "compiled pagat 3p / openspiel crazy_eights": c3 / rows["openspiel crazy_eights 5p"],
        "compiled pagat 3p / python pagat 3p": c3 / rows["python pagat 3p"],
        "compiled goat 4p / python goat 4p": rows["compiled goat 4p"] / rows["python goat 4p"],
        "compiled pagat 3p one call a deal / openspiel hearts":
            rows["compiled pagat 3p, one call a deal"] / rows["openspiel hearts 4p"],
    }
    for preset, n in NEWER:
        ratios[f"compiled {preset} {n}p / python {preset} {n}p"] = (
            rows[f"compiled {preset} {n}p"] / rows[f"python {preset} {n}p"])
    python_over = [v for k, v in ratios.items() if k.startswith("compiled") and "/ python" in k]
    targets = {"pagat 3p >= 50,000 games/s": c3 >= 50_000,
               "pagat 3p >= 1.4x openspiel hearts": ratios["compiled pagat 3p / openspiel hearts"] >= 1.4,
               "goat 4p >= 20,000 games/s": rows["compiled goat 4p"] >= 20_000,
               "every compiled preset >= 10x its Python speed": min(python_over) >= 10}
    if args.json:
        print(json.dumps({"games_per_second": {k: round(v, 1) for k, v in rows.items()},
                          "ratios": {k: round(v, 2) for k, v in ratios.items()},
                          "targets_met": targets,
                          "state_bytes": {k: compiled.state_bytes(k) for k in compiled.COMPILED_PRESETS}},
                         indent=2))
        return 0
    for k, v in ratios.items():
        print(f"{k:62s} {v:8.2f}x")
    for k, ok in targets.items():
        print(f"target {k}: {'met' if ok else 'missed'}")
    for k in compiled.COMPILED_PRESETS:
        print(f"one compiled {k} state: {compiled.state_bytes(k)} bytes (the C++ struct)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
