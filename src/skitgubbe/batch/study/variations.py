"""Study ``variations``: do the Howell page's recommended variations improve the Goat Game?

Claim (Howell page, introduction, paraphrased): the variations Howell took over from the version
he learned are plainly improvements on the standard rules.

Measure: the ``howell`` preset differs from ``goat`` in the options that
:func:`~skitgubbe.engine.variants.rules_diff` lists (the seat limits aside): ``aces_low_first``,
``bottom_aside`` and ``show_trump_card``.  At four seats, ``goat``, ``goat`` with each of those
options alone, and all of them (``howell``), with the measures of the ``table-size`` study
(:mod:`.table_size`): the skill index, actions per deal and the first leader's loser rate, each
with its 95% interval.
"""

from __future__ import annotations

from typing import Any

from ...engine.rules import Rules
from ...engine.variants import find_variant, rules_diff
from ..backend import Backend
from .core import CAVEAT, Progress, StudyResult, run_configs
from .table_size import COLUMNS, FIELD, STRONG, WEAK, skill_configs, skill_rows, table_row

NAME = "variations"
TITLE = "Do the recommended variations improve the game"
SCALE = 1
PLAYERS = 4
_SEATS = ("min_players", "max_players", "max_players_two_packs")


def rulesets() -> dict[str, Rules]:
    """Label -> rules: ``goat``, goat with each option where ``howell`` differs (labelled
    ``option: a -> b``, as ``skitgubbe rules diff`` shows it), and ``howell``."""
    goat, howell = find_variant("goat"), find_variant("howell")
    out = {"goat": goat}
    for option, (a, b) in rules_diff(goat, howell).items():
        if option in _SEATS:
            continue
        label = f"{option}: {str(a).lower()} -> {str(b).lower()}"
        out[label] = goat.replace(name=f"goat+{option}", **{option: b})
    out["howell (all of them)"] = howell
    return out


def run(deals: int, seed: int, backend: Backend, progress: Progress | None = None, *,
        engine: str = "python") -> StudyResult:
    """Run the study with ``deals`` deals per line-up and ruleset (module docstring)."""
    sets = rulesets()
    # every ruleset shares one label per line-up, so all of them are played on the same decks
    data = {}
    done = 0
    total = len(sets) * 3 * deals

    def step(k: int, _: int) -> None:
        if progress is not None:
            progress(done + k, total)

    for label, rules in sets.items():
        data[label] = run_configs(skill_configs("var", rules, PLAYERS), deals, seed, backend, step,
                                  engine=engine)
        done += 3 * deals
    ms = {label: skill_rows("var", PLAYERS, d) for label, d in data.items()}
    rows = [table_row(label, PLAYERS, m) for label, m in ms.items()]
    base = ms["goat"]

    def verdict(m: dict[str, Any]) -> str:
        if m["skill"][1] > base["skill"][2]:
            return "more skill"
        if m["skill"][2] < base["skill"][1]:
            return "less skill"
        return "no clear change in skill"

    parts = [f"{label} gives a skill index of {m['skill'][0]:.2f} [{m['skill'][1]:.2f}, {m['skill'][2]:.2f}] "
             f"({verdict(m)}), {m['actions']:.0f} actions a deal and a first-leader index of "
             f"{m['lead_x'][0]:.2f} [{m['lead_x'][1]:.2f}, {m['lead_x'][2]:.2f}]"
             for label, m in ms.items() if label != "goat"]
    answer = (f"At {PLAYERS} seats, goat has a skill index of {base['skill'][0]:.2f} "
              f"[{base['skill'][1]:.2f}, {base['skill'][2]:.2f}], {base['actions']:.0f} actions a deal "
              f"and a first-leader index of {base['lead_x'][0]:.2f} [{base['lead_x'][1]:.2f}, "
              f"{base['lead_x'][2]:.2f}] (1 is fair). "
              + "; ".join(parts) + ". 'More skill' and 'less skill' are said only when the intervals do not "
              "overlap; whether a variation is an improvement for people also depends on taste, which no "
              "bot measures. " + CAVEAT)
    return StudyResult(
        NAME, TITLE, "Howell page (introduction)",
        "The Howell page says the recommended variations it adopted are clear improvements over the "
        "standard rules.",
        f"field: {FIELD}, strong: {STRONG}, weak: {WEAK}; length and seat bias: {FIELD} only; "
        f"{PLAYERS} seats",
        deals, seed, ["ruleset", *COLUMNS[1:]], rows, answer, {"measures": ms})


def draw(result: StudyResult, fig: Any) -> None:
    """Three panels of horizontal bars per ruleset: skill index, actions, first-leader index."""
    ms: dict[str, dict[str, Any]] = result.plot["measures"]  # type: ignore[assignment]
    labels = list(ms)
    ys = list(range(len(labels)))[::-1]
    axes = fig.subplots(1, 3, sharey=True)
    for ax, key, title, ref in ((axes[0], "skill", "skill index (dashed: goat)", None),
                                (axes[1], "actions", "actions per deal", None),
                                (axes[2], "lead_x", "first leader's loser rate x seats (grey: fair)", 1.0)):
        if key == "actions":
            ax.barh(ys, [ms[x][key] for x in labels], color="C0")
        else:
            ax.errorbar([ms[x][key][0] for x in labels], ys, capsize=3, ls="none", marker="o",
                        xerr=[[ms[x][key][0] - ms[x][key][1] for x in labels],
                              [ms[x][key][2] - ms[x][key][0] for x in labels]])
            ax.axvline(ms["goat"][key][0], color="C1", lw=0.8, ls="--")
        if ref is not None:
            ax.axvline(ref, color="grey", lw=0.8)
        ax.set_title(title, fontsize=9)
    axes[0].set_yticks(ys, labels, fontsize=8)
    fig.suptitle(f"{TITLE}: goat + each option vs goat\n{result.bots}; {result.deals} deals per line-up",
                 fontsize=10)
