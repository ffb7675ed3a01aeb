"""House rules: a TOML file naming a preset and the options a table changes (no I/O).

Example (``house.toml``)::

    preset = "goat"          # the preset these rules start from (name or alias)
    name = "our-goat"        # optional; shown in records and tables
    [options]
    dreck_below = 5          # any option of skitgubbe.rules.Rules
    pick_up = "top-card"

Errors name the key at fault and what is allowed (:class:`RulesFileError`).
"""

from __future__ import annotations

import tomllib

from .rules import OPTION_HELP, Rules, RulesError
from .variants import UnknownVariantError, find_variant, rules_diff

__all__ = ["RulesFileError", "parse_rules_file", "describe_diff"]

_TOP_KEYS = ("preset", "name", "options")


class RulesFileError(ValueError):
    """A house-rules file that cannot be used; the message names the key (or TOML line) at fault."""


def parse_rules_file(text: str) -> Rules:
    """The :class:`Rules` a house-rules TOML text describes.

    Raises :class:`RulesFileError` for TOML that does not parse (with its line), an
    unknown top-level key, a missing or unknown preset, an unknown option, a value
    that is not allowed (the allowed values are listed), or a combination of options
    that the rules reject (both options are named).
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesFileError(f"not valid TOML: {e}") from None
    for key in data:
        if key not in _TOP_KEYS:
            raise RulesFileError(f"{key}: unknown key; keys are {', '.join(_TOP_KEYS)}")
    preset = data.get("preset")
    if not isinstance(preset, str):
        raise RulesFileError('preset: missing; name the preset these rules start from, e.g. preset = "goat"')
    try:
        base = find_variant(preset)
    except UnknownVariantError as e:
        raise RulesFileError(f"preset: {e}") from None
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RulesFileError("options: must be a table, e.g. [options] followed by option = value lines")
    if "name" in options:
        raise RulesFileError("options.name: give the name at the top level (name = \"...\")")
    name = data.get("name", f"{base.name}+house")
    if not isinstance(name, str) or not name.strip() or any(ch.isspace() for ch in name.strip()):
        raise RulesFileError(f"name: {name!r} must be a text without spaces")
    try:
        return base.with_options({"name": name.strip(), **options}, where="options.")
    except RulesError as e:
        raise RulesFileError(str(e)) from None


def describe_diff(a: Rules, b: Rules) -> list[str]:
    """What differs between ``a`` and ``b``, one line per option in plain words."""
    lines = []
    for key, (va, vb) in rules_diff(a, b).items():
        lines.append(f"{key}: {_word(va)} in {a.name}, {_word(vb)} in {b.name} ({OPTION_HELP.get(key, '')})")
    return lines


def _word(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
