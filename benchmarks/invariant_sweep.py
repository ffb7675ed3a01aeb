"""The invariant sweep, run for longer: random option sets and seat counts, each deal played with
random legal actions and checked after every action (the checks of tests/test_invariant_sweep.py:
every card in exactly one place, every legal action applies on a clone, illegal actions and seats
outside the table are refused with the state unchanged, the deal ends within its action limit).

    nice -n 10 python benchmarks/invariant_sweep.py --deals 2000 --seed 1
    nice -n 10 python benchmarks/invariant_sweep.py --seconds 600 --seed 7
    python benchmarks/invariant_sweep.py --seed 7 --deal 1234     # replay one deal that failed

Deal ``d`` draws everything from ``random.Random(f"{seed}:{d}")``: a preset with up to six options
changed (drawn again while the rules refuse the combination), the seat count, the deck seed, the
dealer, the seed of the random play and the sluffing protocol; so ``--seed S --deal D`` replays it.
Prints how many deals, actions and distinct option sets were checked, and each failure with the
command that replays it and its rules as a house-rules file.  Exits 1 if any deal failed.  Needs
the ``dev`` extra (the checks import hypothesis through the test modules).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from skitgubbe.engine.rules import Rules  # noqa: E402
from test_invariant_sweep import make_rules, option_set, seat_count, sweep_deal  # noqa: E402


def draw_deal(seed: int, d: int) -> tuple[str, dict[str, str], Rules, int, int, int, int, bool, int]:
    """Deal ``d`` of the sweep with ``seed``: ``(preset, options, rules, players, deck seed, dealer,
    play seed, live, option sets refused before this one)``."""
    rng = random.Random(f"{seed}:{d}")
    refused = 0
    while True:
        preset, options = option_set(rng.choice)
        rules = make_rules(preset, options)
        players = None if rules is None else seat_count(rules, rng.choice)
        if rules is not None and players is not None:
            break
        refused += 1
    assert rules is not None and players is not None
    return (preset, options, rules, players, rng.randrange(2**32), rng.randrange(8), rng.randrange(2**32),
            rng.random() < 0.3, refused)


def house_rules(preset: str, options: dict[str, str]) -> str:
    """The option set as a house-rules file (``skitgubbe rules show FILE``)."""
    lines = [f'preset = "{preset}"', "[options]"]
    for key, value in options.items():
        if key == "name":
            lines.insert(1, f'name = "{value}"')
        else:
            lines.append(f"{key} = {value}" if value.lstrip("-").isdigit() or value in ("true", "false")
                         else f'{key} = "{value}"')
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the sweep (module docstring); the exit status."""
    parser = argparse.ArgumentParser(prog="python benchmarks/invariant_sweep.py")
    parser.add_argument("--deals", type=int, default=1000, help="deals to check (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sweep (default 1)")
    parser.add_argument("--seconds", type=float, help="stop after this many seconds, whatever --deals says")
    parser.add_argument("--deal", type=int, help="check only this deal (replays a failure)")
    args = parser.parse_args(argv)
    if args.deals < 1 or (args.seconds is not None and args.seconds <= 0):
        parser.error("--deals and --seconds must be positive")
    deals = [args.deal] if args.deal is not None else range(args.deals)
    start = time.perf_counter()
    checked = actions = refused = 0
    option_sets: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
    failures: list[int] = []
    for d in deals:
        if args.seconds is not None and time.perf_counter() - start > args.seconds:
            break
        preset, options, rules, players, deck_seed, dealer, play_seed, live, skipped = draw_deal(args.seed, d)
        refused += skipped
        option_sets.add((preset, tuple(sorted(options.items()))))
        try:
            actions += sweep_deal(rules, players, deck_seed, dealer, play_seed, live)
        except Exception as e:  # a failed check (AssertionError) or a crash: both are findings
            failures.append(d)
            print(f"deal {d} FAILED: {type(e).__name__}: {e}".splitlines()[0][:500], flush=True)
            print(f"  replay: python benchmarks/invariant_sweep.py --seed {args.seed} --deal {d}")
            protocol = "live" if live else "sequential"
            print(f"  {players} seats, deck seed {deck_seed}, dealer {dealer % players}, play seed "
                  f"{play_seed}, {protocol} protocol; the rules as a house-rules file:")
            print("    " + house_rules(preset, options).replace("\n", "\n    "))
            if args.deal is not None:
                traceback.print_exc()
        checked += 1
    seconds = time.perf_counter() - start
    print(f"seed {args.seed}: {checked} deals, {actions} actions, {len(option_sets)} option sets "
          f"({refused} drawn combinations refused by the rules), {len(failures)} failed, {seconds:.0f} s"
          + (f"; failed deals: {', '.join(map(str, failures))}" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
