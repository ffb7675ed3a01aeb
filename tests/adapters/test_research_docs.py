"""docs/research.md states sizes that the code defines: keep them in step."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skitgubbe.adapters import encoding
from skitgubbe.engine.variants import PRESETS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "research.md").read_text(encoding="utf-8")


def test_the_information_state_tensor_size_in_the_docs() -> None:
    pytest.importorskip("pyspiel")
    from skitgubbe.adapters.openspiel import INFO_SIZE

    assert INFO_SIZE == 2544
    assert f"**Information state tensor** ({INFO_SIZE} floats)" in DOC
    assert "2543" not in DOC


def test_the_compact_action_space_table_in_the_docs() -> None:
    rows = re.findall(r"^\| (`[^|]*`) \| (\d+) \| (`[^|]*`) \| (\d+) \|$", DOC, flags=re.M)
    rows += re.findall(r"^\| (`[^|]*`) \| (\d+) \| \| \|$", DOC, flags=re.M)
    documented: dict[str, int] = {}
    for row in rows:
        for names, size in zip(row[::2], row[1::2], strict=True):
            for name in re.findall(r"`([a-z-]+)`", names):
                documented[name] = int(size)
    assert documented == {name: len(encoding.rules_action_ids(r)) for name, r in PRESETS.items()}
    assert f"### Observation ({encoding.OBS_SIZE} floats" in DOC
    assert f"### Action ids ({encoding.NUM_ACTIONS})" in DOC
