"""The long differential run: the compiled engine against the Python engine over many deals.

The same comparison as tests/test_compiled.py (:func:`skitgubbe.engine.compiled.check_deal`: the
deck of ``State.new(PRESETS[preset], players, seed=k, dealer=k % players)`` in both engines, the
actions and dreck orders drawn by ``random.Random(k)`` on the Python side, the fingerprint, the
legal actions, the events and the outcome compared at every step), over more deals and other
seeds.  Needs the compiled module (``pip install ./native``, docs/performance.md).

    python benchmarks/compiled_diff.py --deals 20000   # every compiled preset at every seat count
    python benchmarks/compiled_diff.py --deals 5000 --preset goat --players 4 --start 1000000
    python benchmarks/compiled_diff.py --deals 3000 --preset howell two-player --start 100000
    python benchmarks/compiled_diff.py --random-options 2000 --deals 3 --start 1

Prints one line per table (deals, disagreements, deals compared per second) and every
disagreement with what replays it; exits 1 if there was any.

``--random-options N`` compares combinations of options instead of the presets: N rule sets drawn
by :func:`skitgubbe.engine.compiled.draw_rules` around the presets in turn (``--preset``), each
changing one to ``--changes`` options (generator seeded by ``--start``), each at a seat count drawn
from those the rules allow, and ``--deals`` deals of each (the deal seeds drawn too).  Prints how many
of the drawn sets the compiled engine played and how many it refused (with the reasons), the
deals compared, and every disagreement with its rules.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

from skitgubbe.engine import compiled
from skitgubbe.engine.variants import PRESETS


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=10_000, help="deals per table; default 10000")
    p.add_argument("--preset", nargs="+", default=list(compiled.COMPILED_PRESETS),
                   help="presets; default every one of compiled.COMPILED_PRESETS")
    p.add_argument("--players", type=int, nargs="+", default=None,
                   help="tables; default every seat count the preset allows")
    p.add_argument("--start", type=int, default=0, help="the first seed; default 0")
    p.add_argument("--stop-after", type=int, default=5, help="stop a table after this many disagreements")
    p.add_argument("--random-options", type=int, default=0, metavar="N",
                   help="compare N drawn combinations of options instead (see above)")
    p.add_argument("--changes", type=int, default=4, help="with --random-options: options changed at most")
    args = p.parse_args(argv)
    if not compiled.available():
        print("compiled_diff: the compiled engine is not installed (pip install ./native)", file=sys.stderr)
        return 2
    if args.random_options:
        return random_options(args.random_options, args.deals, args.preset, args.start, args.changes,
                              args.stop_after)
    found = 0
    tables = [(preset, n) for preset in args.preset
              for n in (args.players or range(compiled.COMPILED_PRESETS[preset][0],
                                              compiled.COMPILED_PRESETS[preset][1] + 1))]
    for preset, players in tables:
        reason = compiled.unsupported(PRESETS[preset], players)
        if reason:
            print(f"compiled_diff: {reason}", file=sys.stderr)
            return 2
        start = time.perf_counter()
        bad = 0
        for seed in range(args.start, args.start + args.deals):
            d = compiled.check_deal(preset, players, seed, dealer=seed % players)
            if d is not None:
                bad += 1
                print(d)
                if bad >= args.stop_after:
                    break
        seconds = time.perf_counter() - start
        print(f"{preset} {players} seats: {args.deals} deals from seed {args.start}, {bad} disagreements, "
              f"{args.deals / seconds:,.0f} deals compared per second", flush=True)
        found += bad
    return 1 if found else 0


def random_options(combinations: int, deals: int, presets: list[str], start: int, changes: int,
                   stop_after: int) -> int:
    """The ``--random-options`` run; returns the exit status."""
    rng = random.Random(start)
    refused: Counter[str] = Counter()
    played = compared = bad = 0
    began = time.perf_counter()
    for i in range(combinations):
        rules = compiled.draw_rules(rng, PRESETS[presets[i % len(presets)]], changes)
        players = rng.randint(rules.min_players, rules.max_players)
        reason = compiled.unsupported(rules, players)
        if reason is not None:
            refused[reason] += 1
            continue
        played += 1
        for _ in range(deals):
            seed = rng.randrange(2**32)
            d = compiled.check_deal(rules, players, seed, dealer=seed % players)
            compared += 1
            if d is not None:
                bad += 1
                print(d, flush=True)
                break
        if bad >= stop_after:
            break
        if (i + 1) % 500 == 0:
            print(f"... {i + 1} combinations, {compared} deals, {bad} disagreements", flush=True)
    seconds = time.perf_counter() - began
    print(f"random options from seed {start}: {combinations} combinations drawn (up to {changes} options "
          f"changed), {played} compiled, {sum(refused.values())} refused; {compared} deals compared, "
          f"{bad} disagreements, {compared / seconds:,.0f} deals compared per second")
    for reason, count in refused.most_common():
        print(f"  refused {count}x: {reason}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
