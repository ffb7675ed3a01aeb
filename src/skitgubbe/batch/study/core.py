"""What every study shares: configurations of deals run on a backend, the result record, and the
statistics (intervals, a logistic fit) written by hand in the standard library.

A *configuration* is one table: rules, seats and a line-up of bots, known by a label.  A study
lists its configurations and how many deals each gets; :func:`run_configs` cuts them into chunks
of :data:`CHUNK` deals (:class:`~.deals.DealTask`), runs the chunks on a
:class:`~skitgubbe.batch.backend.Backend` and gives back each configuration's deal summaries in
deal order, so a study's result depends on its seed and size only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ...engine.rules import Rules
from ..backend import Backend, chunks
from ..stats import wilson_interval
from .deals import DealSummary, DealTask, play_deals

__all__ = ["CHUNK", "CAVEAT", "Config", "StudyResult", "run_configs", "rate", "diff_interval",
           "mean_ci", "logistic_fit", "Progress"]

CHUNK = 20
"""Deals per task sent to a worker."""

CAVEAT = (
    "These are bots, not people: an answer says what the rules do to the play of these bots (which "
    "deals they lose, how long the deals last, how much the stronger bot gains). It cannot say what "
    "people find fun, and a skill effect between two bots is a lower bound on what a better player "
    "could make of the same rules; a human who plays differently from every bot here may see other "
    "numbers."
)
"""The sentence every answer ends with: what a bot-based answer can and cannot say about human play."""

Progress = Callable[[int, int], None]
"""Called with ``(deals done, deals in all)`` as chunks finish."""


@dataclass(frozen=True)
class Config:
    """One table of a study: ``label`` (unique within the study, part of the deal seeds),
    ``rules``, ``players`` and ``lineup`` (bot specs, the first one turned round the seats:
    :mod:`~skitgubbe.batch.study.deals`)."""

    label: str
    rules: Rules
    players: int
    lineup: tuple[str, ...]


@dataclass
class StudyResult:
    """One study's answer: ``name``, ``title``, ``source`` (the rule text, as the glossary names
    it), ``claim`` (paraphrased), ``bots`` (the bots used, for the figure), ``deals`` (per
    configuration), ``seed``, the table (``columns``, ``rows``), ``answer`` (one paragraph with
    intervals, ending with :data:`CAVEAT`), ``plot``: the numbers the figure draws, and ``engine``
    (the engine asked for, ``"python"`` or ``"auto"``: :func:`~skitgubbe.batch.study.run_study`;
    not compared, not in :meth:`to_dict`: the results are the same)."""

    name: str
    title: str
    source: str
    claim: str
    bots: str
    deals: int
    seed: int
    columns: list[str]
    rows: list[list[object]]
    answer: str
    plot: dict[str, object] = field(default_factory=dict)
    engine: str = field(default="python", compare=False)

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON (the table as a list of objects)."""
        return {
            "name": self.name, "title": self.title, "source": self.source, "claim": self.claim,
            "bots": self.bots, "deals": self.deals, "seed": self.seed, "answer": self.answer,
            "table": [dict(zip(self.columns, row, strict=True)) for row in self.rows],
        }


def run_configs(configs: Sequence[Config], deals: int, seed: int, backend: Backend,
                progress: Progress | None = None, *, engine: str = "python") -> dict[str, list[DealSummary]]:
    """Play ``deals`` deals of each configuration on ``backend``: label -> summaries in deal
    order.  ``engine``: ``"python"`` (the reference) or ``"auto"`` (a configuration the compiled
    engine plays with compiled bots only is played in compiled code, with the same summaries:
    :mod:`~skitgubbe.batch.study.deals`).  Raises ``ValueError`` for ``deals < 1``, repeated
    labels, a table the rules do not allow or another engine."""
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    if len({c.label for c in configs}) != len(configs):
        raise ValueError("configuration labels must be distinct")
    if engine not in ("python", "auto"):
        raise ValueError(f"engine must be 'python' or 'auto', not {engine!r}")
    tasks = []
    for c in configs:
        if not c.rules.min_players <= c.players <= c.rules.max_players:
            raise ValueError(f"{c.rules.name} is for {c.rules.min_players} to {c.rules.max_players} "
                             f"players, not {c.players}")
        tasks += [DealTask(c.rules, c.players, c.lineup, seed, c.label, s, k, engine)
                  for s, k in chunks(deals, CHUNK)]
    total = deals * len(configs)
    done = 0

    def on_done(i: int, result: object) -> None:
        nonlocal done
        done += tasks[i].count
        if progress is not None:
            progress(done, total)

    results = backend.map(play_deals, tasks, on_done)
    out: dict[str, list[DealSummary]] = {c.label: [] for c in configs}
    for task, summaries in zip(tasks, results, strict=True):
        out[task.label] += summaries
    return out


def rate(k: int, n: int) -> tuple[float, float, float]:
    """``(k / n, low, high)`` with the 95% Wilson interval; ``(0, 0, 1)`` for ``n = 0``."""
    low, high = wilson_interval(k, n)
    return (k / n if n else 0.0), low, high


def diff_interval(a: tuple[int, int], b: tuple[int, int]) -> tuple[float, float, float]:
    """The difference of two rates ``a = (k, n)`` minus ``b``, with a 95% normal (Wald)
    interval: ``(diff, low, high)``."""
    pa = a[0] / a[1] if a[1] else 0.0
    pb = b[0] / b[1] if b[1] else 0.0
    se = math.sqrt((pa * (1 - pa) / a[1] if a[1] else 0.25) + (pb * (1 - pb) / b[1] if b[1] else 0.25))
    d = pa - pb
    return d, d - 1.96 * se, d + 1.96 * se


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean with a 95% normal interval (1.96 standard errors); the
    mean itself as both ends for fewer than two values."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = sum(values) / n
    if n < 2:
        return m, m, m
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return m, m - half, m + half


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` by Gauss-Jordan elimination with partial pivoting.  Raises
    ``ValueError`` for a singular matrix."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) < 1e-12:
            raise ValueError("the logistic model's features are collinear (singular information matrix)")
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        m[col] = [v / p for v in m[col]]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col]
                m[r] = [v - f * w for v, w in zip(m[r], m[col], strict=True)]
    return [m[i][n] for i in range(n)]


def logistic_fit(xs: Sequence[Sequence[float]], ys: Sequence[int], *, iterations: int = 50
                 ) -> list[tuple[float, float, float]]:
    """Maximum-likelihood logistic regression of ``ys`` (0/1) on ``xs`` (one row of features
    per case; an intercept is added first) by Newton's method.  Returns per coefficient
    (intercept first) ``(estimate, low, high)`` with a 95% Wald interval from the inverse
    information matrix.  Raises ``ValueError`` for no cases, rows of unequal length or collinear
    features."""
    if not xs or len(xs) != len(ys):
        raise ValueError("give one 0/1 outcome per row of features, and at least one row")
    rows = [[1.0, *map(float, x)] for x in xs]
    k = len(rows[0])
    if any(len(r) != k for r in rows):
        raise ValueError("every row of features must have the same length")
    beta = [0.0] * k
    info: list[list[float]] = []
    for _ in range(iterations):
        grad = [0.0] * k
        info = [[0.0] * k for _ in range(k)]
        for r, y in zip(rows, ys, strict=True):
            z = sum(b * v for b, v in zip(beta, r, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            w = p * (1 - p)
            for i in range(k):
                grad[i] += (y - p) * r[i]
                ri = w * r[i]
                for j in range(i, k):
                    info[i][j] += ri * r[j]
        for i in range(k):
            for j in range(i):
                info[i][j] = info[j][i]
        step = _solve(info, grad)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    out = []
    for i in range(k):
        unit = [1.0 if j == i else 0.0 for j in range(k)]
        var = _solve(info, unit)[i]
        se = math.sqrt(max(var, 0.0))
        out.append((beta[i], beta[i] - 1.96 * se, beta[i] + 1.96 * se))
    return out
