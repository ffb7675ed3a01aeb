"""The bots' strength table of docs/bots.md: duplicate-deal tournaments, one JSON line per figure.

Each figure is one ``skitgubbe tournament`` run (the same function, the same seeding, so the
command printed with each line reproduces it exactly)::

    python benchmarks/strength.py --list                  # the figures and their commands
    nice -n 10 python benchmarks/strength.py --only counter-pagat,counter-goat
    nice -n 10 python benchmarks/strength.py --deals 20   # every figure with 20 deals
    python benchmarks/strength.py --only ismcts200it-counter-goat4 --deals 1000 \
        --backend ray --jobs 2 --checkpoint-dir results/strength   # stops and goes on

Every figure seats one bot against copies of an opponent as separate entrants
(``--bots A,B,B``), so every seating of a deal has exactly one A.  The A row's loser rate is the
figure; its 95% interval is the tournament's (Student t over deals).  ``--jobs`` is 1 by default:
the results do not depend on it, and the machine is shared.  ``--backend ray`` plays the deals on
Ray (a cluster at ``--address``, or one started here with ``--jobs`` CPUs).  With
``--checkpoint-dir`` each figure keeps its finished deals in ``DIR/<figure>.jsonl`` and a
run that stopped goes on from there (:mod:`skitgubbe.batch.checkpoint`).  ``cpu_hours`` is
the CPU time the figure's deals took, over every run of a checkpoint.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from skitgubbe.batch.backend import make_backend
from skitgubbe.batch.checkpoint import TournamentCheckpoint
from skitgubbe.batch.tournament import entrant_labels, run_tournament
from skitgubbe.engine.variants import find_variant

# name: (rules, players, bots, deals, seed)
FIGURES: dict[str, tuple[str, int, str, int, int]] = {
    "heuristic-random-pagat": ("pagat", 3, "heuristic,random,random", 1000, 1),
    "heuristic-random-goat": ("goat", 3, "heuristic,random,random", 1000, 1),
    "counter-random-pagat": ("pagat", 3, "counter,random,random", 1000, 1),
    "counter-random-goat": ("goat", 3, "counter,random,random", 1000, 1),
    "counter-pagat": ("pagat", 3, "counter,heuristic,heuristic", 1000, 1),
    "counter-goat": ("goat", 3, "counter,heuristic,heuristic", 1000, 1),
    # the search at 50 ms a move (a time budget: how far it gets depends on the machine's load)
    "ismcts-random-pagat": ("pagat", 3, "ismcts-50ms,random,random", 30, 1),
    "ismcts-random-goat": ("goat", 3, "ismcts-50ms,random,random", 30, 1),
    "ismcts-counter-pagat": ("pagat", 3, "ismcts-50ms,counter,counter", 100, 2027),
    "ismcts-counter-goat": ("goat", 3, "ismcts-50ms,counter,counter", 100, 2027),
    "ismcts-counter-goat4": ("goat", 4, "ismcts-50ms,counter,counter,counter", 100, 2027),
    # the same with the phase-two rules in Python (-python), as every ismcts row was measured
    # before the compiled playouts
    "python-counter-pagat": ("pagat", 3, "ismcts-50ms-python,counter,counter", 100, 2027),
    "python-counter-goat": ("goat", 3, "ismcts-50ms-python,counter,counter", 100, 2027),
    "python-counter-goat4": ("goat", 4, "ismcts-50ms-python,counter,counter,counter", 100, 2027),
    # a fixed iteration budget: move for move the same on any machine, at any load
    "ismcts200it-counter-pagat": ("pagat", 3, "ismcts-200it,counter,counter", 1000, 2027),
    "ismcts200it-counter-goat": ("goat", 3, "ismcts-200it,counter,counter", 1000, 2027),
    "ismcts200it-counter-goat4": ("goat", 4, "ismcts-200it,counter,counter,counter", 1000, 2027),
    "ismcts200it-random-pagat": ("pagat", 3, "ismcts-200it,random,random", 1000, 1),
    "ismcts200it-random-goat": ("goat", 3, "ismcts-200it,random,random", 1000, 1),
    # the same search with the heuristic rule in the rollouts' phase two
    "h2-counter-pagat": ("pagat", 3, "ismcts-50ms-heuristic-two,counter,counter", 100, 2027),
    "h2-counter-goat": ("goat", 3, "ismcts-50ms-heuristic-two,counter,counter", 100, 2027),
    # the same budget earned per decision, with the time phase one saves spent in phase two
    "bank-counter-pagat": ("pagat", 3, "ismcts-50ms-bank,counter,counter", 100, 2027),
    "bank-counter-goat": ("goat", 3, "ismcts-50ms-bank,counter,counter", 100, 2027),
    "bank-counter-goat4": ("goat", 4, "ismcts-50ms-bank,counter,counter,counter", 50, 2027),
    "ismcts1s-counter-pagat": ("pagat", 3, "ismcts-1s,counter,counter", 2, 2027),
    "ismcts1s-counter-goat": ("goat", 3, "ismcts-1s,counter,counter", 2, 2027),
    # the search as it was before the counter model (commit 07f25ed; -nomodel plays the same way,
    # though not move for move: the samples are now drawn in another order)
    "nomodel-counter-pagat": ("pagat", 3, "ismcts-210it-nomodel,counter,counter", 40, 2026),
    "nomodel-counter-goat": ("goat", 3, "ismcts-155it-nomodel,counter,counter", 15, 2026),
    # the search without the counter bot's guide, and with the old random rollouts
    "unguided-counter-pagat": ("pagat", 3, "ismcts-70it-unguided-nomodel,counter,counter", 60, 1),
    "unguided-counter-goat": ("goat", 3, "ismcts-30it-unguided-nomodel,counter,counter", 60, 1),
    "unguided-heuristic-pagat": ("pagat", 3, "ismcts-70it-unguided-nomodel,heuristic,heuristic", 12, 1),
    "unguided-randomrollouts-heuristic-pagat": (
        "pagat", 3, "ismcts-70it-random-unguided-nomodel,heuristic,heuristic", 12, 1),
}


def command(name: str, deals: int | None = None) -> str:
    """The ``skitgubbe tournament`` command that reproduces figure ``name`` (any ``--jobs`` or
    ``--backend`` gives the same table)."""
    rules, players, bots, d, seed = FIGURES[name]
    return (f"skitgubbe tournament --rules {rules} --players {players} --bots {bots} "
            f"--deals {deals or d} --seed {seed} --jobs 1 --json")


def markdown_row(figure: dict[str, object]) -> str:
    """docs/bots.md's table row for one JSON line of :func:`main`'s output: figure, rules and
    seats, bots, deals, seat-games, loser rate, 95% interval, even share, ms a move (median,
    p99, mean) and CPU hours (for a line from before they were measured, the run's wall-clock
    hours, an upper bound for a run in one process)."""
    rules, players, bots, _, _ = FIGURES[str(figure["figure"])]

    def pct(key: str) -> str:
        return f"{float(str(figure[key])) * 100:.1f}%"

    cpu, wall = figure.get("cpu_hours"), figure.get("wall_seconds")
    if cpu is not None:
        cpu_text = f"{float(str(cpu)):.2f}"
    elif wall is not None:
        cpu_text = f"≤ {float(str(wall)) / 3600:.2f} (wall clock, one process)"
    else:
        cpu_text = "–"
    return (f"| {figure['figure']} | {rules}, {players} | `{bots}` | {figure['deals']} "
            f"| {figure['seat_games']} | {pct('loser_rate')} | {pct('low')[:-1]}–{pct('high')} "
            f"| {pct('even_share')[:-3]}% "
            f"| {figure['median_ms']:.3g}, {figure['p99_ms']:.3g} (mean {figure['mean_ms']:.3g}) "
            f"| {cpu_text} |")


def main(argv: list[str] | None = None) -> None:
    """Run the figures asked for and print one JSON line each (module docstring)."""
    parser = argparse.ArgumentParser(prog="python benchmarks/strength.py")
    parser.add_argument("--only", help="comma-separated figure names (default: all)")
    parser.add_argument("--deals", type=int, help="deals for every figure (default: each figure's own)")
    parser.add_argument("--list", action="store_true", help="print the figures and their commands")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="where the deals run (the results do not depend on it)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes or Ray CPUs; default 1")
    parser.add_argument("--address", help="with --backend ray: a running cluster's head, HOST:PORT")
    parser.add_argument("--checkpoint-dir", type=Path,
                        help="keep each figure's finished deals here and go on from them")
    parser.add_argument("--markdown", type=Path, metavar="JSONL",
                        help="print docs/bots.md's table rows for the figures in JSONL (this script's "
                             "output) instead of running anything")
    args = parser.parse_args(argv)
    if args.markdown:
        for line in args.markdown.read_text(encoding="utf-8").splitlines():
            print(markdown_row(json.loads(line)))
        return
    names = args.only.split(",") if args.only else list(FIGURES)
    for name in names:
        if name not in FIGURES:
            parser.error(f"no figure {name!r}; figures: {', '.join(FIGURES)}")
        if args.list:
            print(f"{name}: {command(name, args.deals)}")
            continue
        rules, players, bots, deals, seed = FIGURES[name]
        deals = args.deals or deals
        start = time.perf_counter()
        table, entrants = find_variant(rules), bots.split(",")
        checkpoint = None
        if args.checkpoint_dir is not None:
            args.checkpoint_dir.mkdir(parents=True, exist_ok=True)
            checkpoint = TournamentCheckpoint(args.checkpoint_dir / f"{name}.jsonl", table, players,
                                              entrant_labels(entrants), seed)
        backend = make_backend(args.backend, jobs=args.jobs, address=args.address)
        try:
            result = run_tournament(table, players, entrants, deals, seed, jobs=args.jobs,
                                    backend=backend, resume=checkpoint.deals if checkpoint else (),
                                    on_deal=checkpoint.append if checkpoint else None)
        finally:
            backend.close()
            if checkpoint is not None:
                checkpoint.close()
        row = result.rows()[0]
        timing = result.timings()[row.bot]
        print(json.dumps({
            "figure": name, "command": command(name, deals), "bot": row.bot, "deals": row.deals,
            "seat_games": row.seat_games, "loser_rate": round(row.loser_rate, 4),
            "low": round(row.low, 4), "high": round(row.high, 4), "even_share": round(1 / players, 4),
            "mean_place": round(row.mean_place, 3), "mean_ms": round(timing["mean_ms"], 3),
            "median_ms": round(timing["median_ms"], 3), "p99_ms": round(timing["p99_ms"], 3),
            "abandoned": result.abandoned, "cpu_hours": round(result.cpu_seconds / 3600, 3),
            "wall_seconds": round(time.perf_counter() - start, 1),
        }), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
