"""Which phase does a bot gain in?  One bot against copies of another, each phase played by a
bot of its own.

    python benchmarks/phase_split.py --rules pagat --bot ismcts-50ms/counter --against counter \\
        --deals 40 --seed 7

``--bot ONE/TWO`` plays phase one as the bot ``ONE`` and every later decision (phase two) as the
bot ``TWO`` (any names :func:`skitgubbe.bots.make_bot` knows; a single name plays both phases).
Every deal is played once per seat of the bot, the other seats held by ``--against`` bots: the
seatings that differ only in which copy of the other bot sits where are not repeated, so a deal
at three seats is three games, not the tournament's six.  Deal ``d`` uses the deck
``deck_from_seed(f"{seed}:{d}")`` and dealer ``d % players``, as in ``skitgubbe tournament``;
the bot at seat ``i`` of seating ``q`` draws from ``random.Random(f"{seed}:{d}:{q}:{i}")``.
Prints the bot's loser rate with a 95% Student t interval over deals.  ``--jobs`` processes share
the deals; the result does not depend on their number.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from collections.abc import Sequence

from skitgubbe.batch.runner import play_out
from skitgubbe.batch.tournament import mean_interval
from skitgubbe.bots import make_bot
from skitgubbe.bots.base import Bot
from skitgubbe.engine.actions import Action
from skitgubbe.engine.base import Phase
from skitgubbe.engine.record import deck_from_seed
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.engine.view import View


class PhaseSplit:
    """A bot that plays phase one as ``one`` and every other decision as ``two``."""

    def __init__(self, one: Bot, two: Bot) -> None:
        self.one, self.two = one, two
        self.name = f"{one.name}/{two.name}"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return (self.one if view.phase == Phase.ONE else self.two).choose(view, legal)


def build(spec: str, rng: random.Random) -> Bot:
    """``ONE/TWO`` as a :class:`PhaseSplit` (both bots share ``rng``), or one bot by name."""
    if "/" in spec:
        one, two = spec.split("/", 1)
        return PhaseSplit(make_bot(one, rng), make_bot(two, rng))
    return make_bot(spec, rng)


def play_deal(task: tuple[str, int, str, str, int, int]) -> float:
    """The bot's share of losses over the seatings of one deal."""
    rules_name, n, bot, against, seed, d = task
    rules = find_variant(rules_name)
    deck = deck_from_seed(f"{seed}:{d}", decks=rules.decks)
    losses = 0
    for q in range(n):
        st = State.new(rules, n, dealer=d % n, deck=deck)
        bots = [build(bot if i == q else against, random.Random(f"{seed}:{d}:{q}:{i}")) for i in range(n)]
        play_out(st, bots, random.Random(f"{seed}:{d}:chance"))
        losses += st.loser == q
    return losses / n


def main(argv: list[str] | None = None) -> None:
    """Run the deals and print the loser rate (module docstring)."""
    parser = argparse.ArgumentParser(prog="python benchmarks/phase_split.py")
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bot", required=True, help="a bot name, or ONE/TWO: phase one by ONE, then TWO")
    parser.add_argument("--against", default="counter")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    for spec in (args.bot, args.against):
        build(spec, random.Random(0))  # a bad name fails here, before any work
    tasks = [(args.rules, args.players, args.bot, args.against, args.seed, d) for d in range(args.deals)]
    start = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            rates = pool.map(play_deal, tasks, chunksize=1)
    else:
        rates = [play_deal(t) for t in tasks]
    mean, low, high = mean_interval(rates)
    print(f"{args.rules}, {args.players} seats, {args.bot} against {args.against}, {args.deals} deals, "
          f"seed {args.seed}: loser rate {100 * mean:.1f}% [{100 * low:.1f}, {100 * high:.1f}] "
          f"(even share {100 / args.players:.1f}%; {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
