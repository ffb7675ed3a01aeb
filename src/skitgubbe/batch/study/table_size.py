"""Study ``table-size``: which number of seats makes the best game.

Claims (paraphrased): pagat.com calls Skitgubbe best for three; the Flurst page says the Goat Game
is best for four or five and absurd above six; the Howell page calls more than six absurd and fewer
than three dumb.  "Best" is not measurable, so the study measures what a player could mean by it,
per preset (``pagat``, ``goat``, ``howell``) and seat count:

* skill rewarded: in a field of heuristic bots, the loser rate of one stronger bot (counter)
  and of one weaker bot (random) (:func:`skill_rows`).  With ``f = 1 / players`` the fair share,
  the *skill index* is the mean of how far each rate has moved from ``f`` towards certainty:
  ``((weak - f) / (1 - f) + (f - strong) / f) / 2``.  It is 0 when skill changes nothing and 1
  when the stronger bot never loses and the weaker one always does, at any table size;
* length: actions and tricks per deal among equal bots;
* seat bias: the loser rate of the seat that leads the first trick, among equal bots (a fair
  game gives it ``1 / players``);
* abandoned deals (the action limit, ruling E13).
"""

from __future__ import annotations

import math
from typing import Any

from ...engine.rules import Rules
from ...engine.variants import find_variant
from ..backend import Backend
from .core import CAVEAT, Config, Progress, StudyResult, rate, run_configs
from .deals import DealSummary

NAME = "table-size"
TITLE = "Best table size"
SCALE = 1
STRONG, WEAK, FIELD = "counter", "random", "heuristic"
TABLES = (("pagat", (2, 3, 4)), ("goat", (3, 4, 5, 6, 7, 8)), ("howell", (3, 4, 5, 6)))
"""The presets and seat counts measured."""


def skill_configs(label: str, rules: Rules, players: int) -> list[Config]:
    """The three line-ups of one table: one strong bot in the field (``S``), one weak bot in the
    field (``W``), the field alone (``E``)."""
    return [Config(f"{label}:S", rules, players, (STRONG, FIELD)),
            Config(f"{label}:W", rules, players, (WEAK, FIELD)),
            Config(f"{label}:E", rules, players, (FIELD,))]


def skill_rows(label: str, players: int, data: dict[str, list[DealSummary]]) -> dict[str, Any]:
    """The measures of one table from its three line-ups (:func:`skill_configs`): rates as
    ``(rate, low, high)``, the skill index as ``(index, low, high)``, means per deal."""
    s, w, e = data[f"{label}:S"], data[f"{label}:W"], data[f"{label}:E"]

    def losses(ds: list[DealSummary]) -> tuple[int, int]:
        done = [d for d in ds if not d.abandoned]
        return sum(d.loser == d.shift for d in done), len(done)

    ks, ns = losses(s)
    kw, nw = losses(w)
    f = 1 / players
    pw, ps = (kw / nw if nw else f), (ks / ns if ns else f)
    index = ((pw - f) / (1 - f) + (f - ps) / f) / 2
    var = (pw * (1 - pw) / max(nw, 1)) / (1 - f) ** 2 + (ps * (1 - ps) / max(ns, 1)) / f**2
    half = 1.96 * math.sqrt(var) / 2
    done = [d for d in e if not d.abandoned]
    lead = rate(sum(d.loser == d.first_leader for d in done), len(done))
    everything = s + w + e
    return {
        "strong": rate(ks, ns), "weak": rate(kw, nw),
        "skill": (index, index - half, index + half),
        "actions": sum(d.actions for d in e) / len(e), "tricks": sum(d.tricks for d in e) / len(e),
        "lead": lead, "lead_x": tuple(players * v for v in lead),
        "abandoned": rate(sum(d.abandoned for d in everything), len(everything)),
    }


COLUMNS = ["preset", "players", "strong_loser_rate", "strong_low", "strong_high", "weak_loser_rate",
           "weak_low", "weak_high", "skill_index", "skill_low", "skill_high", "mean_actions", "mean_tricks",
           "first_leader_loser_rate", "first_leader_low", "first_leader_high", "abandoned_share"]


def table_row(preset: str, players: int, m: dict[str, Any]) -> list[object]:
    """One CSV row (:data:`COLUMNS`) from :func:`skill_rows`' measures, rounded."""
    return [preset, players, *(round(v, 4) for v in m["strong"]), *(round(v, 4) for v in m["weak"]),
            *(round(v, 3) for v in m["skill"]), round(m["actions"], 1), round(m["tricks"], 1),
            *(round(v, 4) for v in m["lead"]), round(m["abandoned"][0], 4)]


def run(deals: int, seed: int, backend: Backend, progress: Progress | None = None, *,
        engine: str = "python") -> StudyResult:
    """Run the study with ``deals`` deals per line-up (module docstring)."""
    configs = [c for preset, sizes in TABLES for n in sizes
               for c in skill_configs(f"{preset}{n}", find_variant(preset), n)]
    data = run_configs(configs, deals, seed, backend, progress, engine=engine)
    rows, plot = [], {}
    answer = []
    for preset, sizes in TABLES:
        ms = {n: skill_rows(f"{preset}{n}", n, data) for n in sizes}
        rows += [table_row(preset, n, ms[n]) for n in sizes]
        plot[preset] = ms
        best = max(sizes, key=lambda n: ms[n]["skill"][0])
        b = ms[best]
        skill = [m["skill"][0] for m in ms.values()]
        lead = [m["lead_x"][0] for m in ms.values()]
        answer.append(
            f"In {preset} the skill index is highest at {best} seats ({b['skill'][0]:.2f} "
            f"[{b['skill'][1]:.2f}, {b['skill'][2]:.2f}]: among {FIELD} bots the {STRONG} bot loses "
            f"{b['strong'][0]:.0%} [{b['strong'][1]:.0%}, {b['strong'][2]:.0%}] and the {WEAK} bot "
            f"{b['weak'][0]:.0%} [{b['weak'][1]:.0%}, {b['weak'][2]:.0%}], a fair share being "
            f"{1 / best:.0%}); across {sizes[0]} to {sizes[-1]} seats the index runs from "
            f"{min(skill):.2f} to {max(skill):.2f}, a deal lasts {ms[sizes[0]]['actions']:.0f} to "
            f"{ms[sizes[-1]]['actions']:.0f} actions, and the first leader's loser rate times the seats "
            f"runs from {min(lead):.2f} to {max(lead):.2f} (1 is fair).")
    abandoned = sum(r[-1] > 0 for r in rows)  # type: ignore[operator]
    answer.append(f"{abandoned} of the {len(rows)} tables had abandoned deals.")
    return StudyResult(
        NAME, TITLE, "pagat.com; Flurst page; Howell page",
        "pagat.com calls Skitgubbe best for three; the Flurst page says four or five, absurd above six; "
        "the Howell page says more than six is absurd, fewer than three dumb.",
        f"field: {FIELD}, strong: {STRONG}, weak: {WEAK}; length and seat bias: {FIELD} only",
        deals, seed, COLUMNS, rows, " ".join(answer) + " " + CAVEAT, {"tables": plot})


def draw(result: StudyResult, fig: Any) -> None:
    """Three panels: skill index with intervals, actions per deal, first leader's loser rate."""
    tables: dict[str, dict[int, dict[str, Any]]] = result.plot["tables"]  # type: ignore[assignment]
    ax1, ax2, ax3 = fig.subplots(1, 3)
    for i, (preset, ms) in enumerate(tables.items()):
        xs = sorted(ms)
        color = f"C{i}"
        for key, ax in (("skill", ax1), ("lead_x", ax3)):
            ys = [ms[n][key][0] for n in xs]
            err = [[ms[n][key][0] - ms[n][key][1] for n in xs], [ms[n][key][2] - ms[n][key][0] for n in xs]]
            ax.errorbar([x + 0.06 * (i - 1) for x in xs], ys, yerr=err, marker="o", color=color,
                        capsize=3, label=preset)
        ax2.plot(xs, [ms[n]["actions"] for n in xs], marker="o", color=color, label=preset)
    ax1.axhline(0, color="grey", lw=0.8)
    ax1.set(title="skill index (0: none, 1: skill decides)", xlabel="seats", ylabel="index (95% interval)")
    ax2.set(title="length: actions per deal", xlabel="seats", ylabel="actions (mean)")
    ax3.axhline(1, color="grey", lw=0.8)
    ax3.set(title="first leader's loser rate x seats", xlabel="seats", ylabel="1 = fair (95% interval)")
    for ax in (ax1, ax2, ax3):
        ax.legend(fontsize=8)
    fig.suptitle(f"{TITLE}: {result.bots}; {result.deals} deals per line-up")
