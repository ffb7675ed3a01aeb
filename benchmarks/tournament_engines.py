"""Games per second of a tournament between compiled bots (issue 30 item 1) on the compiled engine
beside ``--engine python``, in one run, CPU time of this process (``time.process_time``), one process.

    nice python benchmarks/tournament_engines.py [--bots heuristic,random] [--deals 40] [--compiled-deals 400]

For each table (pagat at 3 seats, goat at 4) it plays :func:`skitgubbe.batch.tournament.run_tournament`
with ``jobs=1``, first with ``engine="python"`` (``--deals`` deals), then with ``engine="compiled"``
(``--compiled-deals`` deals: more, so that its clock reads more than a few milliseconds), and checks
that the compiled run's first ``--deals`` deals give the Python run's games.  Rows:

* ``whole run``: games per CPU second of the whole call (the deals, the openskill ratings, the
  table), and the ratio compiled / python;
* ``deals only``: games per CPU second of playing the deals (the tournament's own ``cpu_seconds``:
  the engine and the bots, without the ratings), and the ratio.

A game is one deal in one seating.
"""

from __future__ import annotations

import argparse
import time

from skitgubbe.batch.tournament import TournamentResult, run_tournament

TABLES = (("pagat", 3), ("goat", 4))


def timed(preset: str, players: int, bots: list[str], deals: int, engine: str) -> tuple[TournamentResult, float]:
    start = time.process_time()
    result = run_tournament(preset, players, bots, deals, 0, jobs=1, engine=engine)
    return result, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="heuristic,random", help="entrants (compiled bots), comma-separated")
    parser.add_argument("--deals", type=int, default=40, help="deals of the Python-engine run")
    parser.add_argument("--compiled-deals", type=int, default=400, help="deals of the compiled run")
    args = parser.parse_args()
    bots = args.bots.split(",")
    print(f"bots {args.bots}; one process; games per CPU second (a game = one deal in one seating)")
    print(f"{'table':10} {'row':10} {'python':>10} {'compiled':>10} {'ratio':>8}")
    for preset, players in TABLES:
        python, py_s = timed(preset, players, bots, args.deals, "python")
        compiled, c_s = timed(preset, players, bots, args.compiled_deals, "compiled")
        assert python.engine == "python" and compiled.engine == "compiled"
        assert compiled.games[:len(python.games)] == python.games, "the engines disagree"
        table = f"{preset} {players}"
        whole = (len(python.games) / py_s, len(compiled.games) / c_s)
        deals = (len(python.games) / python.cpu_seconds, len(compiled.games) / compiled.cpu_seconds)
        for row, (p, c) in (("whole run", whole), ("deals only", deals)):
            print(f"{table:10} {row:10} {p:10.0f} {c:10.0f} {c / p:7.1f}x")


if __name__ == "__main__":
    main()
