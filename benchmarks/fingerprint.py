"""The behaviour fingerprint: seeded deals of every preset played by random moves and by each bot,
reduced to one digest per (preset, player) of every action taken and every outcome.

Freeze it before restructuring the engine or the bots, and compare after: equal digests mean the
same moves and the same losers on every deal (README, "Development"; issue "One engine contract").

    python benchmarks/fingerprint.py --out before.json            # at the old commit
    python benchmarks/fingerprint.py --check before.json          # at the new one: exit 1 on a change

Rows: ``PRESET/random`` plays ``--deals`` deals with uniformly random legal moves (seed k: the deck
of ``State.new(..., seed=k)``, the moves from ``random.Random(k)``); ``PRESET/heuristic`` and
``PRESET/counter`` play ``--bot-deals`` deals with that bot at every seat; ``PRESET/ismcts`` plays
``--ismcts-deals`` deals with ``ismcts-<I>it`` (a fixed iteration budget, so the moves do not
depend on the machine's speed) at seat 0 against counter bots.  Each preset is played at its usual
table (3 seats, 4 for goat, within its range).  ``--only`` narrows the presets or rows.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from skitgubbe.batch.runner import play_out
from skitgubbe.bots import make_bot
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS, find_variant


def usual_players(name: str) -> int:
    """The usual table of a preset: 3 seats (4 for goat), within its range."""
    rules = PRESETS[name]
    return max(rules.min_players, min(4 if name == "goat" else 3, rules.max_players))


def digest_deal(h: hashlib._Hash, state: State) -> int:
    """Feed one finished deal into ``h``: every ``seat:action`` and the outcome; returns its actions."""
    for seat, action in state.history:
        h.update(f"{seat}:{action};".encode())
    h.update(f"|{state.outcome}\n".encode())
    return len(state.history)


def row(args: tuple[str, str, int, int]) -> tuple[str, dict[str, object]]:
    """One row of the fingerprint: ``(preset, player, deals, iterations)`` -> (key, figures)."""
    name, player, deals, iterations = args
    rules = find_variant(name)
    n = usual_players(name)
    h = hashlib.sha256()
    actions = 0
    losers = [0] * n
    for k in range(deals):
        state = State.new(rules, n, seed=k)
        rng = random.Random(k)
        if player == "random":
            while not state.is_over:
                state.apply(state.random_action(rng), state.to_act)
        else:
            if player == "ismcts":
                bots = [make_bot(f"ismcts-{iterations}it", random.Random(k))]
                bots += [make_bot("counter", random.Random(k * 31 + s)) for s in range(1, n)]
            else:
                bots = [make_bot(player, random.Random(k * 31 + s)) for s in range(n)]
            play_out(state, bots, rng)
        actions += digest_deal(h, state)
        if state.loser is not None:
            losers[state.loser] += 1
    return f"{name}/{player}", {"deals": deals, "actions": actions, "losers": losers,
                                "digest": h.hexdigest()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=1000, help="random deals per preset (default 1000)")
    p.add_argument("--bot-deals", type=int, default=100,
                   help="deals per preset for the heuristic and counter bots (default 100)")
    p.add_argument("--ismcts-deals", type=int, default=10,
                   help="deals per preset for the search bot at seat 0 (default 10)")
    p.add_argument("--iterations", type=int, default=20,
                   help="the search bot's iterations a move (default 20)")
    p.add_argument("--only", default="", help="comma-separated presets or rows (pagat, goat/counter, ...)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--out", help="write the fingerprint as JSON to this file")
    p.add_argument("--check", help="compare with this fingerprint file; exit 1 naming each row that differs")
    a = p.parse_args(argv)
    only = {x.strip() for x in a.only.split(",") if x.strip()}
    if a.check:
        with open(a.check, encoding="utf-8") as f:
            data = json.load(f)
        frozen, a.iterations = data["rows"], data["iterations"]
        wanted = list(frozen)
    else:
        frozen = None
        wanted = [f"{name}/{player}" for name in sorted(PRESETS)
                  for player in ("random", "heuristic", "counter", "ismcts")]
    wanted = [w for w in wanted if not only or w in only or w.split("/")[0] in only]
    jobs = []
    for key in wanted:
        name, player = key.split("/")
        deals = frozen[key]["deals"] if frozen else {"random": a.deals, "ismcts": a.ismcts_deals}.get(
            player, a.bot_deals)
        jobs.append((name, player, deals, a.iterations))
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max(1, a.jobs)) as pool:
        rows = dict(pool.map(row, jobs))
    seconds = time.perf_counter() - t0
    changed = []
    for key, figures in rows.items():
        mark = ""
        if frozen is not None:
            same = frozen[key]["digest"] == figures["digest"]
            mark = "  same" if same else "  CHANGED"
            if not same:
                changed.append(key)
        print(f"{key:32} {figures['deals']:5} deals {figures['actions']:9} actions "
              f"{str(figures['digest'])[:16]}{mark}")
    print(f"{len(rows)} rows in {seconds:.0f} s", file=sys.stderr)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump({"iterations": a.iterations, "rows": rows}, f, indent=1, sort_keys=True)
            f.write("\n")
    if changed:
        print(f"{len(changed)} rows changed: {', '.join(changed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
