"""Writing a study's files: its figure (PNG and SVG, matplotlib), table (CSV), answer (Markdown)
and result (JSON), and the HTML report gathering several.

matplotlib is the extra ``skitgubbe[study]``; :func:`write_study` raises ``RuntimeError`` saying
so when it is missing.  Figures are drawn with the non-interactive Agg backend.
"""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import find_study
from .core import StudyResult

__all__ = ["write_study", "write_report"]


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise RuntimeError("studies draw their figures with matplotlib: "
                           "pip install 'skitgubbe[study]'") from None
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "skitgubbe"  # the same SVG for the same numbers
    matplotlib.rcParams["svg.fonttype"] = "none"
    import matplotlib.pyplot as plt

    return plt


def write_study(result: StudyResult, out: Path) -> list[Path]:
    """Write ``NAME.png``, ``NAME.svg``, ``NAME.csv``, ``NAME.md`` and ``NAME.json`` for
    ``result`` into ``out`` (made if missing); returns the paths.  Raises ``RuntimeError``
    without matplotlib."""
    plt = _pyplot()
    out.mkdir(parents=True, exist_ok=True)
    stem = out / result.name
    fig = plt.figure(figsize=(13, 4.2), layout="constrained")
    find_study(result.name).draw(result, fig)
    fig.savefig(stem.with_suffix(".png"), dpi=80)
    fig.savefig(stem.with_suffix(".svg"), metadata={"Date": None})
    plt.close(fig)
    with stem.with_suffix(".csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(result.columns)
        w.writerows(result.rows)
    stem.with_suffix(".md").write_text(
        f"# {result.title}\n\nClaim ({result.source}): {result.claim}\n\nBots: {result.bots}. "
        f"Deals per configuration: {result.deals}, seed {result.seed}.\n\n{result.answer}\n",
        encoding="utf-8")
    stem.with_suffix(".json").write_text(json.dumps(result.to_dict(), indent=2) + "\n", encoding="utf-8")
    return [stem.with_suffix(s) for s in (".png", ".svg", ".csv", ".md", ".json")]


def write_report(results: Sequence[StudyResult], out: Path, *, command: str = "") -> Path:
    """Write ``report.html`` in ``out``: per study its claim, figure (the PNG written by
    :func:`write_study`), answer and table; ``command`` (the command that made it) is shown at
    the top.  Returns its path."""
    e = html.escape
    parts = ["<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Skitgubbe studies</title>",
             "<style>body{font-family:sans-serif;max-width:70em;margin:auto;padding:1em}"
             "table{border-collapse:collapse;font-size:80%}td,th{border:1px solid #ccc;padding:2px 6px}"
             "img{max-width:100%}</style></head><body>"
             "<h1>Skitgubbe: the rule texts' claims, by simulation</h1>"]
    if command:
        parts.append(f"<p>Made by <code>{e(command)}</code>.</p>")
    links = "".join(f"<li><a href='#{e(r.name)}'>{e(r.title)}</a></li>" for r in results)
    parts.append(f"<ul>{links}</ul>")
    for r in results:
        parts.append(f"<h2 id='{e(r.name)}'>{e(r.title)}</h2>"
                     f"<p><b>Claim</b> ({e(r.source)}): {e(r.claim)}</p>"
                     f"<img src='{e(r.name)}.png' alt='{e(r.title)}'><p>{e(r.answer)}</p>"
                     f"<p>Bots: {e(r.bots)}; {r.deals} deals per configuration; seed {r.seed}; table: "
                     f"<a href='{e(r.name)}.csv'>{e(r.name)}.csv</a>.</p><table><tr>"
                     + "".join(f"<th>{e(c)}</th>" for c in r.columns) + "</tr>"
                     + "".join("<tr>" + "".join(f"<td>{e(str(v))}</td>" for v in row) + "</tr>"
                               for row in r.rows)
                     + "</table>")
    parts.append("</body></html>\n")
    path = out / "report.html"
    path.write_text("".join(parts), encoding="utf-8")
    return path
