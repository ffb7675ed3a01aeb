"""Study ``aces-low``: do aces low in phase one keep monster hands out of phase two?

Claim (Flurst page, variant "aces low in the first part", paraphrased): ranking aces low in the
first part keeps players who hoard aces and kings from building overwhelming hands for the second.

Measure: ``goat`` at four seats with and without ``aces_low_first`` (the same deals: the seeds do
not depend on the option), heuristic bots at every seat, ``--deals x 5`` deals each.  A seat's
*power* at the start of phase two is its trumps plus its non-trump aces and kings.  Per deal: the
most power any seat holds, and the Gini coefficient of the seats' power (0: all equal, 1: one seat
holds all).  A *monster* is a seat holding at least :data:`MONSTER` power cards.
"""

from __future__ import annotations

from typing import Any

from ...engine.variants import find_variant
from ..backend import Backend
from .core import CAVEAT, Config, Progress, StudyResult, mean_ci, rate, run_configs
from .deals import SeatHand

NAME = "aces-low"
TITLE = "Monster hands and aces low"
SCALE = 5
PRESET, PLAYERS, BOT = "goat", 4, "heuristic"
MONSTER = 12
"""Power cards (trumps, non-trump aces and kings) that make a monster hand."""


def gini(values: list[int]) -> float:
    """The Gini coefficient of ``values`` (non-negative): mean absolute difference over twice
    the mean; 0.0 when all are 0."""
    n, total = len(values), sum(values)
    if not total:
        return 0.0
    return sum(abs(a - b) for a in values for b in values) / (2 * n * total)


def _strongest(hands: tuple[SeatHand, ...]) -> int:
    """The seat with the most power (the first of them on a tie)."""
    powers = [h.power for h in hands]
    return powers.index(max(powers))


def run(deals: int, seed: int, backend: Backend, progress: Progress | None = None, *,
        engine: str = "python") -> StudyResult:
    """Run the study with ``deals * SCALE`` deals per setting (module docstring)."""
    n = deals * SCALE
    base = find_variant(PRESET)
    settings = {"aces high": base, "aces low": base.replace(name=f"{PRESET}+aces_low_first",
                                                            aces_low_first=True)}
    # the same label for both settings: the same decks
    data = {}
    done = 0

    def step(k: int, total: int) -> None:
        if progress is not None:
            progress(done + k, 2 * n)

    for key, rules in settings.items():
        config = Config("monster", rules, PLAYERS, (BOT,))
        data[key] = run_configs([config], n, seed, backend, step, engine=engine)["monster"]
        done += n
    rows: list[list[object]] = []
    plot: dict[str, object] = {}
    stats = {}
    mean_gini: dict[str, float] = {}
    plot["ginis"] = mean_gini
    for key, ds in data.items():
        hands = [d for d in ds if d.hands]
        tops = [max(h.power for h in d.hands) for d in hands]
        ginis = [gini([h.power for h in d.hands]) for d in hands]
        monsters = sum(t >= MONSTER for t in tops)
        g, m = mean_ci(ginis), rate(monsters, len(tops))
        top_loses = [d for d in hands if not d.abandoned]
        strongest = rate(sum(_strongest(d.hands) == d.loser for d in top_loses), len(top_loses))
        stats[key] = (g, m, strongest, mean_ci([float(t) for t in tops]))
        rows.append([key, len(hands), *(round(v, 4) for v in g), *(round(v, 4) for v in m),
                     *(round(v, 3) for v in stats[key][3]), *(round(v, 4) for v in strongest)])
        plot[key] = tops
        mean_gini[key] = g[0]
    (g0, m0, _, t0), (g1, m1, _, t1) = stats["aces high"], stats["aces low"]
    # the same decks under both settings: the paired difference of each deal's Gini is the sharper test
    pairs = [(a, b) for a, b in zip(data["aces high"], data["aces low"], strict=True) if a.hands and b.hands]
    diff = mean_ci([gini([h.power for h in b.hands]) - gini([h.power for h in a.hands]) for a, b in pairs])
    answer = (
        f"With aces high in phase one the seats' power is spread with a mean Gini of {g0[0]:.3f} "
        f"[{g0[1]:.3f}, {g0[2]:.3f}] and a monster hand ({MONSTER} or more trumps, aces and kings) turns up "
        f"in {m0[0]:.1%} [{m0[1]:.1%}, {m0[2]:.1%}] of deals; with aces low, {g1[0]:.3f} [{g1[1]:.3f}, "
        f"{g1[2]:.3f}] and {m1[0]:.1%} [{m1[1]:.1%}, {m1[2]:.1%}]. The strongest hand holds {t0[0]:.1f} "
        f"power cards on average with aces high and {t1[0]:.1f} with aces low. Deal by deal (the same "
        f"decks), aces low changes the Gini by {diff[0]:+.3f} [{diff[1]:+.3f}, {diff[2]:+.3f}]. "
        + ("So aces low makes phase-two hands more even, as the Flurst page says, but by little. "
           if diff[2] < 0 else
           "So aces low makes no clear difference to how unequal the hands are here. "
           if diff[1] <= 0 else
           "So aces low makes phase-two hands less even here, against the Flurst page. ")
        + CAVEAT)
    return StudyResult(
        NAME, TITLE, "Flurst page (variant: aces low in the first part)",
        "The Flurst page says ranking aces low in the first part keeps ace and king hoarders from "
        "building monster hands.",
        f"{BOT} at every seat; {PRESET}, {PLAYERS} seats", n, seed,
        ["setting", "deals", "gini", "gini_low", "gini_high", "monster_share", "monster_low", "monster_high",
         "strongest_power", "strongest_power_low", "strongest_power_high", "strongest_seat_loser_rate",
         "strongest_low", "strongest_high"], rows, answer, plot)


def draw(result: StudyResult, fig: Any) -> None:
    """The distribution of the strongest seat's power per deal, aces high and aces low."""
    ax = fig.subplots(1, 1)
    bins = [x - 0.5 for x in range(0, 30)]
    ginis: dict[str, float] = result.plot["ginis"]  # type: ignore[assignment]
    for key, color in (("aces high", "C0"), ("aces low", "C1")):
        tops: list[int] = result.plot[key]  # type: ignore[assignment]
        ax.hist(tops, bins=bins, histtype="step", lw=2, color=color, density=True,
                label=f"{key}: mean Gini of the seats' power {ginis[key]:.3f}")
    ax.axvline(MONSTER - 0.5, color="grey", ls="--", lw=1, label=f"monster: {MONSTER}+")
    ax.set_xlim(1.5, 18.5)
    ax.set(xlabel="power cards (trumps, non-trump aces and kings) of the strongest seat at the start of "
           "phase two", ylabel="share of deals")
    ax.legend()
    fig.suptitle(f"{TITLE}: {result.bots}; {result.deals} deals per setting")
