"""Every code block of docs/research.md runs as written: the quick ones here, in a fresh interpreter.

Each fenced block in docs/research.md is preceded by a marker line saying what this test does with it:

* ``<!-- doc-test: run -->``: run it (a ``python`` block as a script; any other block as shell commands,
  one per line, ``\\`` joining lines, with ``python`` and ``skitgubbe`` meaning this interpreter and its
  console script);
* ``<!-- doc-test: after-previous -->``: a ``python`` block that continues the previous ``python`` block
  (both run together as one script);
* ``<!-- doc-test: skip: REASON -->``: not run here (a synopsis, an install line, a run of minutes; the
  reason says which).

A block without a marker fails the test, so a new example is classified when it is written.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "research.md"
MARKER = re.compile(r"^<!-- doc-test: (run|after-previous|skip: .+) -->$")
TIMEOUT = 240  # seconds a quick block may take on a loaded CI machine


class Block(NamedTuple):
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    marker: str | None


def blocks() -> list[Block]:
    """The fenced blocks of docs/research.md with the marker line above each (None without one)."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            lang = lines[i][3:].strip()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            m = MARKER.match(lines[k].strip()) if k >= 0 else None
            found.append(Block(i + 1, lang, "\n".join(lines[i + 1:j]), m.group(1) if m else None))
            i = j + 1
        else:
            i += 1
    return found


def scripts() -> list[tuple[int, str, str]]:
    """``(line, kind, text)`` for each runnable unit: ``python`` scripts (continuations joined) and
    shell commands."""
    units: list[tuple[int, str, str]] = []
    for b in blocks():
        if b.marker == "after-previous":
            assert units and units[-1][1] == "python", f"line {b.line}: nothing to continue"
            line, kind, text = units.pop()
            units.append((line, kind, text + "\n" + b.text))
        elif b.marker == "run":
            units.append((b.line, "python" if b.lang == "python" else "shell", b.text))
    return units


def test_every_block_is_classified() -> None:
    unmarked = [b.line for b in blocks() if b.marker is None]
    assert not unmarked, f"docs/research.md: blocks at lines {unmarked} have no <!-- doc-test: ... --> marker"
    assert len(scripts()) >= 8  # the examples are really run, not all skipped


def _command(line: str) -> list[str]:
    words = shlex.split(line, comments=True)
    console = Path(sys.executable).with_name("skitgubbe")
    if words and words[0] in ("python", "python3", ".venv/bin/python"):
        words[0] = sys.executable
    elif words and words[0] == "skitgubbe":
        words[0] = str(console)
    return words


def _commands(text: str) -> list[list[str]]:
    joined = re.sub(r"\\\n\s*", " ", text)
    lines = [line for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [_command(line) for line in lines]


@pytest.mark.parametrize(("line", "kind", "text"), scripts(),
                         ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_the_example_runs(line: int, kind: str, text: str) -> None:
    for module in re.findall(r"^(?:import|from) (pyspiel|pettingzoo|gymnasium|numpy|torch)\b", text, re.M):
        pytest.importorskip(module)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    runs = [[sys.executable, "-c", text]] if kind == "python" else _commands(text)
    for argv in runs:
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT)
        assert done.returncode == 0, (f"docs/research.md line {line}: {shlex.join(argv)} exited "
                                      f"{done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
