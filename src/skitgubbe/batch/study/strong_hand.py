"""Study ``strong-hand``: who loses next to the seat with the most trumps?

Claim (Howell page, strategy tip in the second part, paraphrased): with an overwhelming hand of
ten to twelve trumps it is easy to make the player on your left the goat (and harder, and a good
exercise, to make the one on your right it).

Measure: ``howell`` at four and five seats, heuristic bots at every seat, ``--deals x 5`` deals
each.  In each deal with one seat holding more trumps than any other at the start of phase two,
where the loser sits relative to it: the seat itself, its left (the next seat clockwise), its
right, or across (the others).  The same for the deals in which that seat holds at least
:data:`MANY` trumps (ten to twelve are rare with one pack).
"""

from __future__ import annotations

from typing import Any

from ...engine.variants import find_variant
from ..backend import Backend
from .core import CAVEAT, Config, Progress, StudyResult, rate, run_configs
from .deals import DealSummary

NAME = "strong-hand"
TITLE = "The strong hand and its neighbours"
SCALE = 5
PRESET, BOT = "howell", "heuristic"
SEATS = (4, 5)
MANY = 7
"""Trumps that make the strongest seat's hand "overwhelming" in the second panel."""
PLACES = ("itself", "left", "across", "right")


def place(loser: int, strong: int, players: int) -> str:
    """Where ``loser`` sits seen from ``strong``: one of :data:`PLACES`."""
    off = (loser - strong) % players
    return "itself" if off == 0 else "left" if off == 1 else "right" if off == players - 1 else "across"


Shares = dict[str, tuple[float, float, float]]


def tally(ds: list[DealSummary], players: int, least: int) -> tuple[Shares, int]:
    """Over the finished deals with one seat holding the most trumps, and at least ``least`` of
    them: the share of each place of the loser (:data:`PLACES`), and the number of deals."""
    counts = dict.fromkeys(PLACES, 0)
    total = 0
    for d in ds:
        if d.abandoned or not d.hands:
            continue
        trumps = [h.trumps for h in d.hands]
        top = max(trumps)
        if trumps.count(top) != 1 or top < least:
            continue
        counts[place(d.loser, trumps.index(top), players)] += 1
        total += 1
    return {p: rate(k, total) for p, k in counts.items()}, total


def run(deals: int, seed: int, backend: Backend, progress: Progress | None = None, *,
        engine: str = "python") -> StudyResult:
    """Run the study with ``deals * SCALE`` deals per table (module docstring)."""
    n = deals * SCALE
    configs = [Config(f"strong{p}", find_variant(PRESET), p, (BOT,)) for p in SEATS]
    data = run_configs(configs, n, seed, backend, progress, engine=engine)
    rows: list[list[object]] = []
    found: dict[str, tuple[Shares, int]] = {}
    parts = []
    for p in SEATS:
        for least, label in ((0, "all"), (MANY, f"{MANY}+ trumps")):
            shares, total = tally(data[f"strong{p}"], p, least)
            found[f"{p}:{label}"] = (shares, total)
            rows += [[p, label, total, where, *(round(v, 4) for v in shares[where])]
                     for where in PLACES if p > 3 or where != "across"]
        sh, total = found[f"{p}:{MANY}+ trumps"]
        left, right = sh["left"], sh["right"]
        parts.append(
            f"At {p} seats, when the seat with the most trumps holds {MANY} or more ({total} deals), the "
            f"loser is on its left in {left[0]:.0%} [{left[1]:.0%}, {left[2]:.0%}] of deals and on its right "
            f"in {right[0]:.0%} [{right[1]:.0%}, {right[2]:.0%}] (the strong seat itself loses "
            f"{sh['itself'][0]:.0%}).")
    answer = (" ".join(parts) + " An even spread over the other seats would be "
              + " and ".join(f"{1 / (p - 1):.0%} at {p}" for p in SEATS)
              + ". Howell's claim that the left neighbour is the easy victim holds where the left share is "
                "clearly above the right one; these bots do not aim at any seat, so this shows where the "
                "game's flow pushes the loss, not what a player aiming at a seat could do. " + CAVEAT)
    return StudyResult(
        NAME, TITLE, "Howell page (strategy tip, second part)",
        "The Howell page says that with ten to twelve trumps making your left neighbour the goat is easy, "
        "your right one harder.",
        f"{BOT} at every seat; {PRESET}", n, seed,
        ["players", "deals_with", "deals", "loser_place", "share", "low", "high"], rows, answer, dict(found))


def draw(result: StudyResult, fig: Any) -> None:
    """Per table size, the loser's place relative to the seat with the most trumps."""
    found: dict[str, tuple[Shares, int]] = result.plot  # type: ignore[assignment]
    axes = fig.subplots(1, len(SEATS))
    for ax, p in zip(axes, SEATS, strict=True):
        places = [w for w in PLACES if p > 3 or w != "across"]
        for j, label in enumerate(("all", f"{MANY}+ trumps")):
            shares, total = found[f"{p}:{label}"]
            xs = [i + 0.2 * (2 * j - 1) for i in range(len(places))]
            ys = [shares[w][0] for w in places]
            ax.bar(xs, ys, width=0.4, yerr=[[shares[w][0] - shares[w][1] for w in places],
                                             [shares[w][2] - shares[w][0] for w in places]],
                   capsize=3, label=f"{label} ({total} deals)", color=f"C{j}")
        ax.axhline(1 / p, color="grey", lw=0.8, label="one seat's fair share")
        ticks = [f"loser: {w}" + (f" ({p - 3} seats)" if w == "across" and p > 4 else "") for w in places]
        ax.set_xticks(range(len(places)), ticks, fontsize=8)
        ax.set(title=f"{p} seats", ylabel="share of deals (95% interval)", ylim=(0, 1))
        ax.legend(fontsize=8)
    fig.suptitle(f"{TITLE}: where the loser sits from the seat with the most trumps; {result.bots}; "
                 f"{result.deals} deals per table")
