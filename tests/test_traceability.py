"""docs/traceability.md stays honest: every test it names exists, and it calls none a known fault
(xfail) unless the test is marked so."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "traceability.md"


def short_names() -> dict[str, str]:
    """The page's table of short names: ``{"sp": "tests/test_scenarios_pagat.py", ...}``."""
    text = PAGE.read_text(encoding="utf-8")
    return dict(re.findall(r"^\| `(\w+)` \| `(tests/[\w/]+\.py)` \|", text, re.M))


def test_every_test_the_page_names_exists() -> None:
    text = PAGE.read_text(encoding="utf-8")
    files = short_names()
    assert len(files) >= 10
    named = re.findall(r"\b(\w+)::(test_\w+)", text)
    assert len(named) > 100
    missing = []
    for short, test in named:
        assert short in files, f"{short}::{test}: {short} is not in the page's table of files"
        source = (ROOT / files[short]).read_text(encoding="utf-8")
        if not re.search(rf"^def {test}\(", source, re.M):
            missing.append(f"{short}::{test}")
    assert not missing, f"docs/traceability.md names tests that do not exist: {missing}"


def test_no_passing_test_is_called_a_known_fault() -> None:
    text = PAGE.read_text(encoding="utf-8")
    files = short_names()
    for line in text.splitlines():
        if "xfail" not in line and "known fault" not in line.lower():
            continue
        for short, test in re.findall(r"\b(\w+)::(test_\w+)", line):
            source = (ROOT / files[short]).read_text(encoding="utf-8")
            marked = re.search(rf"@pytest\.mark\.xfail[^\n]*\n(?:@[^\n]*\n)*def {test}\(", source)
            assert marked, f"docs/traceability.md calls {short}::{test} a known fault, but it is not xfail"
