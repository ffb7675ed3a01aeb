"""Study ``cards-or-ranking``: does the number of cards taken into phase two matter less than
their ranks?

Claim (Howell page, strategy tip, paraphrased): how many cards you collect in the first part
matters less than how high they are; a few low cards lose the game, while a seat can hold half
the pack and still not lose.

Measure: every seat of ``--deals x 5`` ``howell`` deals at four seats between heuristic bots, at
the start of phase two: its cards split into low non-trumps (rank 2 to 6), middle non-trumps
(7 to queen), top non-trumps (king, ace) and trumps; the loser rate by hand size and by low
cards (Wilson intervals); and a logistic model of losing on the four counts (Newton's method,
:func:`~.core.logistic_fit`), whose coefficients say how one more card of each kind changes the
log-odds of losing.  The seats of a deal are not independent (exactly one loses), so the
model's intervals are a little too narrow.
"""

from __future__ import annotations

import math
from typing import Any

from ...engine.variants import find_variant
from ..backend import Backend
from .core import CAVEAT, Config, Progress, StudyResult, logistic_fit, rate, run_configs

NAME = "cards-or-ranking"
TITLE = "Cards or ranking"
SCALE = 5
PRESET, PLAYERS, BOT = "howell", 4, "heuristic"
KINDS = ("low (2-6)", "middle (7-Q)", "top (K/A)", "trump")
SIZE_BINS = ((0, 6), (7, 9), (10, 12), (13, 15), (16, 19), (20, 52))


def run(deals: int, seed: int, backend: Backend, progress: Progress | None = None, *,
        engine: str = "python") -> StudyResult:
    """Run the study with ``deals * SCALE`` deals (module docstring)."""
    n = deals * SCALE
    data = run_configs([Config("cards", find_variant(PRESET), PLAYERS, (BOT,))], n, seed, backend, progress,
                       engine=engine)
    xs: list[list[int]] = []
    ys: list[int] = []
    sizes: list[int] = []
    for d in data["cards"]:
        if d.abandoned or not d.hands:
            continue
        for s, h in enumerate(d.hands):
            top = h.aces + h.kings
            xs.append([h.low, h.size - h.low - top - h.trumps, top, h.trumps])
            ys.append(int(d.loser == s))
            sizes.append(h.size)
    try:
        coefs = logistic_fit(xs, ys)
    except ValueError:  # too few deals: collinear counts or a perfect split
        coefs = [(math.nan, math.nan, math.nan)] * (len(KINDS) + 1)
    by_size = []
    for lo, hi in SIZE_BINS:
        sel = [y for y, z in zip(ys, sizes, strict=True) if lo <= z <= hi]
        by_size.append((f"{lo}-{hi}", len(sel), *rate(sum(sel), len(sel))))
    by_low = []
    for k in range(6):
        sel = [y for y, x in zip(ys, xs, strict=True) if (x[0] == k if k < 5 else x[0] >= 5)]
        by_low.append((f"{k}" if k < 5 else "5+", len(sel), *rate(sum(sel), len(sel))))
    rows: list[list[object]] = [["coefficient", "intercept", len(ys), *(round(v, 4) for v in coefs[0])]]
    rows += [["coefficient", kind, len(ys), *(round(v, 4) for v in c)]
             for kind, c in zip(KINDS, coefs[1:], strict=True)]
    for part, groups in (("by hand size", by_size), ("by low cards", by_low)):
        rows += [[part, g[0], g[1], round(g[2], 4), round(g[3], 4), round(g[4], 4)] for g in groups]
    low, mid, high, trump = coefs[1:]

    def odds(c: tuple[float, float, float]) -> str:
        return f"x{math.exp(c[0]):.2f} [{math.exp(c[1]):.2f}, {math.exp(c[2]):.2f}]"

    fitted = not math.isnan(low[0])
    if not fitted:
        verdict = ""
    elif low[1] > mid[2]:
        verdict = ("So the text is right for these bots: a low card costs clearly more than a middle one "
                   "(the intervals do not overlap), so what the cards are counts for more than how many. ")
    elif low[2] < mid[1]:
        verdict = "So for these bots a low card costs less than a middle one, against the text. "
    else:
        verdict = "So for these bots a low card and a middle one cost about the same: the count matters too. "
    answer = (
        ("" if fitted else f"With {n} deals the model cannot be fitted: give more deals. ") +
        f"Over {len(ys)} seats of {n} {PRESET} deals at {PLAYERS} seats between {BOT} bots, one more "
        f"low non-trump multiplies the odds of losing by {odds(low)}, one more middle non-trump by "
        f"{odds(mid)}, one more king or ace by {odds(high)} and one more trump by {odds(trump)}. "
        + verdict
        + f"The seats with the most cards ({by_size[-1][0]}) lose {by_size[-1][2]:.0%} "
        f"[{by_size[-1][3]:.0%}, {by_size[-1][4]:.0%}] of the time; seats with 5 or more low cards lose "
        f"{by_low[-1][2]:.0%} [{by_low[-1][3]:.0%}, {by_low[-1][4]:.0%}]. " + CAVEAT)
    return StudyResult(
        NAME, TITLE, "Howell page (strategy tip, first part)",
        "The Howell page says the number of cards taken in the first part matters less than their "
        "ranking: a few low cards lose, while half the pack need not.",
        f"{BOT} at every seat; {PRESET}, {PLAYERS} seats", n,
        seed, ["part", "term", "cases", "value", "low", "high"], rows, answer,
        {"coefs": coefs, "by_size": by_size, "by_low": by_low})


def draw(result: StudyResult, fig: Any) -> None:
    """Three panels: loser rate by hand size, by low cards, and the model's coefficients."""
    ax1, ax2, ax3 = fig.subplots(1, 3)
    for ax, key, xlabel in ((ax1, "by_size", "cards at the start of phase two"),
                            (ax2, "by_low", "low non-trumps (2-6) at the start of phase two")):
        groups: list[tuple[str, int, float, float, float]] = result.plot[key]  # type: ignore[assignment]
        xs = range(len(groups))
        ax.errorbar(list(xs), [g[2] for g in groups], yerr=[[g[2] - g[3] for g in groups],
                    [g[4] - g[2] for g in groups]], marker="o", capsize=3, ls="none")
        ax.set_xticks(list(xs), [f"{g[0]}\n(n={g[1]})" for g in groups], fontsize=7)
        ax.axhline(1 / PLAYERS, color="grey", lw=0.8)
        ax.set(xlabel=xlabel, ylabel="loser rate (95% interval)", ylim=(0, 1))
    coefs: list[tuple[float, float, float]] = result.plot["coefs"]  # type: ignore[assignment]
    ys = range(len(KINDS))
    ax3.errorbar([c[0] for c in coefs[1:]], list(ys), xerr=[[c[0] - c[1] for c in coefs[1:]],
                 [c[2] - c[0] for c in coefs[1:]]], marker="o", capsize=3, ls="none")
    ax3.set_yticks(list(ys), [f"one more {k}" for k in KINDS])
    ax3.axvline(0, color="grey", lw=0.8)
    ax3.set(xlabel="change in log-odds of losing (95% interval)", title="logistic model")
    ax1.set_title("loser rate by hand size")
    ax2.set_title("loser rate by low cards")
    fig.suptitle(f"{TITLE}: {result.bots}; {result.deals} deals (grey: a fair share)")
