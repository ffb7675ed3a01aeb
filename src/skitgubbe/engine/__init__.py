"""The rules engine: cards, rules and presets, actions, a deal's state and its two phases, views,
records, positions and narration.

It uses only the standard library and does no I/O; :mod:`skitgubbe.engine.compiled` also imports
the optional compiled engine (``skitgubbe_native``, built from ``native/``) when it is installed.
It is the lowest layer: nothing here imports another subpackage of :mod:`skitgubbe` (enforced by
the import contracts in pyproject.toml).
The supported names are re-exported by :mod:`skitgubbe` (docs/api.md).
"""
