"""Print the figures of docs/research.md, each with the command that makes it.

Every figure in research.md comes from one command.  This script lists them (``--list``) and runs
them: by default the quick ones (seconds to a minute each); ``--all`` adds the slow ones (minutes
to an hour on the 2-core development machine); ``--only NAME,...`` runs the named ones.  Each
figure is printed after a line ``== NAME: COMMAND``, so the output can be compared with the docs.
Timings depend on the machine's load: compare rows of one run, not runs.

The figures ``compact``, ``forced`` and ``openspiel-forced`` are computed here (they are short);
the others run the project's own commands in a subprocess.  A figure that needs an extra
(OpenSpiel, PettingZoo, matplotlib for the study figures) is skipped with a line naming the extra
to install when it is missing, and does not make the script fail.

Run::

    .venv/bin/python benchmarks/research_figures.py --list
    .venv/bin/python benchmarks/research_figures.py            # the quick figures
    .venv/bin/python benchmarks/research_figures.py --only ismcts
"""

from __future__ import annotations

import argparse
import importlib.util
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
SELF = "benchmarks/research_figures.py"


@dataclass(frozen=True)
class Figure:
    """One figure of research.md: its section, the command, and whether it is slow."""

    name: str
    section: str
    command: list[str]
    slow: bool = False
    inline: Callable[[], None] | None = None
    needs: tuple[tuple[str, str], ...] = ()
    """(module, extra) pairs: the figure is skipped, naming the extra, when a module is missing."""


OPENSPIEL = (("pyspiel", "openspiel"),)
PETTINGZOO = (("pettingzoo", "pettingzoo"),)
MATPLOTLIB = (("matplotlib", "study"),)


def compact_sizes() -> None:
    """The compact action space of each preset (research.md, "Compact action space")."""
    from skitgubbe.adapters.encoding import rules_action_ids
    from skitgubbe.engine.variants import PRESETS

    for name, rules in PRESETS.items():
        print(f"{name:<20}{len(rules_action_ids(rules)):>5} ids")


def forced_share() -> None:
    """The share of PettingZoo decisions with a single legal action, 30 random deals each (deal
    ``k`` seeded ``k``, the actions drawn by ``random.Random(k)``: the same figure on every run)."""
    import random

    from skitgubbe.adapters.pettingzoo import env

    for rules, players in (("goat", 4), ("helmfrid", 3), ("howell", 4), ("pagat", 3)):
        e = env(rules=rules, players=players)
        forced = total = 0
        for seed in range(30):
            rng = random.Random(seed)
            e.reset(seed=seed)
            for _agent in e.agent_iter():
                obs, _, terminated, truncated, _ = e.last()
                if terminated or truncated:
                    e.step(None)
                    continue
                mask = obs["action_mask"]
                total += 1
                forced += int(mask.sum()) == 1
                e.step(rng.choice([int(i) for i in mask.nonzero()[0]]))
        print(f"{rules:<10}{players} seats: {forced / total:.1%} of {total} decisions are forced")


def openspiel_forced_share() -> None:
    """The share of OpenSpiel decisions with a single legal action (the default game), and the
    decisions a deal asks with ``auto_forced=True``: uniformly random play, 30 deals each."""
    import random

    import pyspiel

    import skitgubbe.adapters.openspiel  # noqa: F401  (registers python_skitgubbe)

    for rules, players in (("goat", 4), ("helmfrid", 3), ("howell", 4), ("pagat", 3)):
        counts = []
        for auto in (False, True):
            params = {"rules": rules, "players": players, "auto_forced": auto}
            game = pyspiel.load_game("python_skitgubbe", params)
            rng = random.Random(0)
            forced = total = 0
            for _ in range(30):
                state = game.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        state.apply_action(rng.choice(state.chance_outcomes())[0])
                        continue
                    legal = state.legal_actions()
                    total += 1
                    forced += len(legal) == 1
                    state.apply_action(rng.choice(legal))
            counts.append((forced, total))
        (forced, total), (_, asked) = counts
        print(f"{rules:<10}{players} seats: {forced / total:.1%} of {total} decisions are forced; "
              f"with auto_forced a deal asks {asked / 30:.0f} decisions (default {total / 30:.0f})")


FIGURES = [
    Figure("compact", "Action space: compact action space", [PY, SELF, "--only", "compact"],
           inline=compact_sizes),
    Figure("forced", "PettingZoo: options for learners (auto_forced)", [PY, SELF, "--only", "forced"],
           inline=forced_share, needs=PETTINGZOO),
    Figure("openspiel-forced", "OpenSpiel: options for learners (auto_forced)",
           [PY, SELF, "--only", "openspiel-forced"], inline=openspiel_forced_share, needs=OPENSPIEL),
    Figure("evaluate", "Evaluating your agent: the heuristic bot's reference rows",
           ["skitgubbe", "evaluate", "--agent", "heuristic", "--rules", "pagat", "--players", "3",
            "--deals", "100", "--ladder", "random,heuristic,counter"]),
    Figure("evaluate-ismcts", "Evaluating your agent: the counter bot against the ismcts rung",
           ["skitgubbe", "evaluate", "--agent", "counter", "--rules", "pagat", "--players", "3",
            "--deals", "10", "--ladder", "ismcts-50it"], slow=True),
    Figure("heuristic-vs-random", "Training example: the heuristic bot against two random bots",
           ["skitgubbe", "simulate", "--rules", "pagat", "--players", "3", "--games", "3000",
            "--bots", "heuristic,random,random", "--seed", "1"]),
    Figure("openspiel-speed", "OpenSpiel: random-play speed",
           [PY, "-m", "skitgubbe.adapters.openspiel", "--games", "20"], needs=OPENSPIEL),
    Figure("openspiel-decisions", "OpenSpiel: decisions of uniformly random play",
           [PY, "-m", "skitgubbe.adapters.openspiel", "--games", "200", "--all-seats"], slow=True,
           needs=OPENSPIEL),
    Figure("ismcts", "OpenSpiel, Bots: our ismcts against OpenSpiel's IS-MCTS",
           [PY, "benchmarks/ismcts_vs_openspiel.py", "--players", "2", "--games", "30", "--iterations", "50",
            "--seed", "1"], slow=True, needs=OPENSPIEL),
    Figure("training", "Training example: masked REINFORCE", [PY, "examples/train_policy_gradient.py"],
           slow=True, needs=(("gymnasium", "gymnasium"),)),
    Figure("learned-curve", "A learned baseline: the training curve (from the committed CSVs)",
           [PY, "-m", "skitgubbe.batch.learn_train", "--plot", "docs/research/learned-pagat-3.csv",
            "docs/research/learned-goat-4.csv", "--figure", "docs/research/learned-curve"], needs=MATPLOTLIB),
    Figure("learned-pagat", "A learned baseline: pagat rows",
           ["skitgubbe", "evaluate", "--agent", "learned", "--rules", "pagat", "--players", "3",
            "--deals", "1000", "--ladder", "random,heuristic,counter"], slow=True),
    Figure("learned-goat", "A learned baseline: goat rows",
           ["skitgubbe", "evaluate", "--agent", "learned", "--rules", "goat", "--players", "4",
            "--deals", "1000", "--ladder", "random,heuristic,counter"], slow=True),
    Figure("learned-pagat-ismcts", "A learned baseline: pagat, the ismcts rung",
           ["skitgubbe", "evaluate", "--agent", "learned", "--rules", "pagat", "--players", "3",
            "--deals", "100", "--ladder", "ismcts-50it"], slow=True),
    Figure("learned-goat-ismcts", "A learned baseline: goat, the ismcts rung",
           ["skitgubbe", "evaluate", "--agent", "learned", "--rules", "goat", "--players", "4",
            "--deals", "100", "--ladder", "ismcts-50it"], slow=True),
]


def _shown(command: list[str]) -> str:
    """The command as research.md writes it (``python`` for this interpreter)."""
    return shlex.join(["python" if word == PY else word for word in command])


def missing_extras(fig: Figure) -> list[str]:
    """The extras ``fig`` needs whose modules do not import here (in the order given)."""
    return [extra for module, extra in fig.needs if importlib.util.find_spec(module) is None]


def run_figure(fig: Figure) -> int:
    print(f"== {fig.name}: {_shown(fig.command)}   ({fig.section})", flush=True)
    missing = missing_extras(fig)
    if missing:
        extras = ",".join(missing)
        print(f"skipped: needs the {extras} extra (pip install -e '.[{extras}]')", flush=True)
        return 0
    if fig.inline is not None:
        fig.inline()
        return 0
    command = list(fig.command)
    if command[0] == "skitgubbe":
        command = [PY, "-m", "skitgubbe.play.cli", *command[1:]]
    return subprocess.run(command, cwd=ROOT, check=False).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="list the figures and their commands")
    parser.add_argument("--all", action="store_true", help="also the slow figures")
    parser.add_argument("--only", default="", help="comma separated figure names")
    args = parser.parse_args()
    by_name = {f.name: f for f in FIGURES}
    if args.list:
        for f in FIGURES:
            print(f"{f.name:<22}{'slow ' if f.slow else '     '}{_shown(f.command)}")
        return 0
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in names if n not in by_name]
        if unknown:
            parser.error(f"no figure {', '.join(unknown)}; figures: {', '.join(by_name)}")
        chosen = [by_name[n] for n in names]
    else:
        chosen = [f for f in FIGURES if args.all or not f.slow]
    status = 0
    for fig in chosen:
        status = run_figure(fig) or status
    return status


if __name__ == "__main__":
    sys.exit(main())
