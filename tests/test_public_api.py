"""The supported surface: skitgubbe.__all__, documented in docs/api.md."""

from __future__ import annotations

import inspect
from pathlib import Path

import skitgubbe

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def test_every_public_name_is_documented_and_has_a_docstring() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in skitgubbe.__all__:
        assert f"`{name}" in text, f"{name} is in skitgubbe.__all__ but not in docs/api.md"
        obj = getattr(skitgubbe, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert inspect.getdoc(obj), f"{name} has no docstring"


def test_the_readme_example_runs() -> None:
    readme = (DOC.parent.parent / "README.md").read_text(encoding="utf-8")
    start = readme.index("```python\n", readme.index("## The engine in Python")) + len("```python\n")
    code = readme[start:readme.index("```", start)]
    exec(compile(code, "README.md", "exec"), {"print": lambda *a, **k: None})
