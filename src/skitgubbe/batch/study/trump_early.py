"""Study ``trump-early``: should a seat spend its trumps early in the five-player game?

Claim (Howell page, strategy tip in the second part, paraphrased): do not use up your trumps too
early, except perhaps in the five-player game, where the rule may be to trump early and often.

Measure: the heuristic bot's phase-two ``trump_power`` (:class:`~skitgubbe.bots.HeuristicBot`)
sets how readily it spends trumps: a trump in hand counts as a burden of about ``1 - power``, so
a low power makes trumps cards to be rid of (spent early) and a high one cards to keep.  One bot
with each power of :data:`POWERS` (the default, 1.5, included as the control) plays among
default heuristic bots under ``howell`` at 3, 4 and 5 seats; its loser rate times the seats is 1
when the setting neither helps nor hurts.  The bot's default is not changed: the setting is made
on the study's own instances (:func:`~.deals.build_bot`).
"""

from __future__ import annotations

from typing import Any

from ...engine.variants import find_variant
from ..backend import Backend
from .core import CAVEAT, Config, Progress, StudyResult, diff_interval, rate, run_configs

NAME = "trump-early"
TITLE = "Trump early in the five-player game"
SCALE = 1
PRESET, BOT = "howell", "heuristic"
SEATS = (3, 4, 5)
POWERS = (0.0, 0.5, 1.0, 1.5, 2.5)
"""The trump powers tried (1.5 is the heuristic bot's default)."""
DEFAULT = 1.5


def run(deals: int, seed: int, backend: Backend, progress: Progress | None = None, *,
        engine: str = "python") -> StudyResult:
    """Run the study with ``deals`` deals per seat count and power (module docstring)."""
    rules = find_variant(PRESET)
    configs = [Config(f"trump{p}:{w}", rules, p, (f"{BOT}/trump_power={w}", BOT))
               for p in SEATS for w in POWERS]
    data = run_configs(configs, deals, seed, backend, progress, engine=engine)
    rows: list[list[object]] = []
    plot: dict[str, object] = {}
    parts = []
    for p in SEATS:
        rates, counts = {}, {}
        for w in POWERS:
            done = [d for d in data[f"trump{p}:{w}"] if not d.abandoned]
            counts[w] = (sum(d.loser == d.shift for d in done), len(done))
            r = rates[w] = rate(*counts[w])
            rows.append([p, w, len(done), *(round(v, 4) for v in r), round(p * r[0], 3)])
        plot[str(p)] = rates
        best = min(POWERS, key=lambda w: rates[w][0])
        early, default = rates[POWERS[0]], rates[DEFAULT]
        d = diff_interval(counts[POWERS[0]], counts[DEFAULT])
        effect = ("hurts" if d[1] > 0 else "helps" if d[2] < 0 else "makes no clear difference")
        parts.append(f"at {p} seats the bot that spends trumps most readily (power {POWERS[0]}) loses "
                     f"{early[0]:.0%} [{early[1]:.0%}, {early[2]:.0%}] against {default[0]:.0%} "
                     f"[{default[1]:.0%}, {default[2]:.0%}] for the default: trumping early {effect} "
                     f"({100 * d[0]:+.0f} points [{100 * d[1]:+.0f}, {100 * d[2]:+.0f}]); the best "
                     f"power tried is {best}")
    answer = ("Among default heuristic bots under howell, " + "; ".join(parts)
              + ". A fair share is 33%, 25% and 20%; a difference is called clear only when its 95% "
                "interval leaves out 0. This is one way to spend trumps (a weight in one bot), not every "
                "way a person might. " + CAVEAT)
    return StudyResult(
        NAME, TITLE, "Howell page (strategy tip, second part)",
        "The Howell page advises keeping trumps, except perhaps at five players, where trumping early "
        "and often may be the rule.",
        f"one {BOT} bot with trump_power varied among default {BOT} bots; {PRESET}", deals, seed,
        ["players", "trump_power", "deals", "loser_rate", "low", "high", "rate_x_seats"], rows, answer, plot)


def draw(result: StudyResult, fig: Any) -> None:
    """Loser rate times seats against trump power, one line per seat count."""
    ax = fig.subplots(1, 1)
    for i, p in enumerate(SEATS):
        rates: dict[float, tuple[float, float, float]] = result.plot[str(p)]  # type: ignore[assignment]
        xs = [w + 0.04 * (i - 1) for w in POWERS]
        ax.errorbar(xs, [p * rates[w][0] for w in POWERS], capsize=3, marker="o", label=f"{p} seats",
                    yerr=[[p * (rates[w][0] - rates[w][1]) for w in POWERS],
                          [p * (rates[w][2] - rates[w][0]) for w in POWERS]])
    ax.axhline(1, color="grey", lw=0.8)
    ax.axvline(DEFAULT, color="grey", lw=0.8, ls=":")
    ax.set(xlabel="trump_power: low = spends trumps readily, high = keeps them (dotted: the default)",
           ylabel="loser rate x seats (1 = fair; 95% interval)")
    ax.legend()
    fig.suptitle(f"{TITLE}: {result.bots}; {result.deals} deals per point", fontsize=10)
