"""Does a won trick's gain count the seat's own card again?  The one setting in which the heuristic
and counter bots' phase-one scorers differed (``HeuristicBot.win_keeps_card``; docs/bots.md, "One
phase-one scorer").

    python benchmarks/win_keeps_card.py --bot heuristic --against heuristic --rules pagat --deals 1000
    python benchmarks/win_keeps_card.py --bot counter --against heuristic --rules goat --deals 300

Each deal is played once per seat of the bot with the setting off and once with it on, the other
seats held by ``--against`` bots (their own setting), on the same deck, dealer and random streams
(deal ``d``: ``deck_from_seed(f"{seed}:{d}")``, dealer ``d % players``).  Prints both loser rates
and their paired difference (on minus off), each with a 95% Student t interval over deals.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time

from skitgubbe.batch.runner import play_out
from skitgubbe.batch.tournament import mean_interval
from skitgubbe.bots import make_bot
from skitgubbe.bots.base import Bot
from skitgubbe.engine.record import deck_from_seed
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant


def build(name: str, keep: bool | None, rng: random.Random) -> Bot:
    """Bot ``name``; with ``keep`` not None, its ``win_keeps_card`` set so (on this instance)."""
    bot = make_bot(name, rng)
    if keep is not None:
        bot.win_keeps_card = keep  # type: ignore[attr-defined]
    return bot


def play_deal(task: tuple[str, int, str, str, int, int]) -> tuple[float, float]:
    """The bot's share of losses over the seatings of one deal: (setting off, setting on)."""
    rules_name, n, bot, against, seed, d = task
    rules = find_variant(rules_name)
    deck = deck_from_seed(f"{seed}:{d}", decks=rules.decks)
    shares = []
    for keep in (False, True):
        losses = 0
        for q in range(n):
            st = State.new(rules, n, dealer=d % n, deck=deck)
            bots = [build(bot, keep, random.Random(f"{seed}:{d}:{q}:{i}")) if i == q
                    else build(against, None, random.Random(f"{seed}:{d}:{q}:{i}")) for i in range(n)]
            play_out(st, bots, random.Random(f"{seed}:{d}:chance"))
            losses += st.loser == q
        shares.append(losses / n)
    return shares[0], shares[1]


def main(argv: list[str] | None = None) -> None:
    """Run the deals and print the two loser rates and their difference (module docstring)."""
    parser = argparse.ArgumentParser(prog="python benchmarks/win_keeps_card.py")
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--against", default="heuristic")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    tasks = [(args.rules, args.players, args.bot, args.against, args.seed, d) for d in range(args.deals)]
    start = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            pairs = pool.map(play_deal, tasks, chunksize=4)
    else:
        pairs = [play_deal(t) for t in tasks]
    off = [a for a, _ in pairs]
    on = [b for _, b in pairs]

    def pct(values: list[float], low: float = 0.0) -> str:
        m, lo, hi = mean_interval(values, low, 1.0)
        return f"{100 * m:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"

    print(f"{args.rules}, {args.players} seats, {args.bot} against {args.against}, {args.deals} deals, "
          f"seed {args.seed}: off {pct(off)}, on {pct(on)}, on - off "
          f"{pct([b - a for a, b in pairs], -1.0)} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
