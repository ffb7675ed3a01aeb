"""Time a decision of the compiled bot that decides from a View
(:class:`skitgubbe.bots.compiled_bots.CompiledBot`) beside the Python bot's, in one run, CPU time of
this process (``time.process_time``).

    nice python benchmarks/view_bot.py [--bots heuristic,random] [--deals 10] [--rounds 3]

For each table (pagat at 3 seats, goat at 4) it gathers every decision's view and legal actions
from ``--deals`` seeded deals played by Python heuristic bots, then times ``choose`` on all of them
``--rounds`` times for the Python bot and for the compiled one (each with a fresh seeded generator),
checks that both choose the same actions, and prints microseconds a decision and the ratio
python / compiled (above 1: the compiled bot is faster).
"""

from __future__ import annotations

import argparse
import random
import time

from skitgubbe.batch.runner import play_out
from skitgubbe.bots import make_bot
from skitgubbe.bots.compiled_bots import CompiledBot
from skitgubbe.engine.state import State, deck_from_seed
from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.view import view_of

TABLES = (("pagat", 3), ("goat", 4))


def decisions(preset: str, players: int, deals: int) -> list[tuple[object, list[object]]]:
    """Every (view, legal) of ``deals`` deals by Python heuristic bots."""
    out: list[tuple[object, list[object]]] = []
    for d in range(deals):
        state = State.new(PRESETS[preset], players, dealer=d % players, deck=deck_from_seed(f"bench:{d}"))
        bots = [make_bot("heuristic", random.Random(f"bench:{d}:{i}")) for i in range(players)]

        def keep(st: State, seat: int, _action: object) -> None:
            if not st.is_over and st.to_act >= 0:
                v = view_of(st, st.to_act)
                out.append((v, list(v.legal)))

        first = view_of(state, state.to_act)
        out.append((first, list(first.legal)))
        play_out(state, bots, random.Random(f"bench:{d}:chance"), on_step=keep)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="heuristic,random", help="bots to time, comma-separated")
    parser.add_argument("--deals", type=int, default=10, help="deals whose decisions are timed")
    parser.add_argument("--rounds", type=int, default=3, help="timed passes over the decisions")
    args = parser.parse_args()
    for preset, players in TABLES:
        seen = decisions(preset, players, args.deals)
        for name in args.bots.split(","):
            times = {}
            chosen = {}
            for engine in ("python", "compiled"):
                rng = random.Random(1)
                bot = make_bot(name, rng) if engine == "python" else CompiledBot(name, rng)
                start = time.process_time()
                picks = []
                for _ in range(args.rounds):
                    picks = [bot.choose(v, legal) for v, legal in seen]  # type: ignore[arg-type]
                times[engine] = (time.process_time() - start) / (args.rounds * len(seen))
                chosen[engine] = picks
            assert chosen["python"] == chosen["compiled"], f"{preset} {name}: the bots chose differently"
            print(f"{preset} {players} seats, {name}: {len(seen)} decisions; "
                  f"python {1e6 * times['python']:.1f} us, "
                  f"compiled-from-view {1e6 * times['compiled']:.1f} us a decision; "
                  f"ratio python/compiled {times['python'] / times['compiled']:.2f}")


if __name__ == "__main__":
    main()
