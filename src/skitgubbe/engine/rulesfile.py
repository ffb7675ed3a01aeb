"""House rules: a TOML file naming a preset and the options a table changes (no I/O).

Example (``house.toml``)::

    preset = "goat"          # the preset these rules start from (name or alias)
    name = "our-goat"        # optional; shown in records and tables
    [options]
    dreck_below = 5          # any option of skitgubbe.engine.rules.Rules
    pick_up = "top-card"

Errors name the key at fault and what is allowed (:class:`RulesFileError`).  Limits: the text
is at most :data:`MAX_TEXT` characters of UTF-8, arrays and tables nest at most
:data:`MAX_DEPTH` deep, a number has at most :data:`MAX_DIGITS` digits, and option values are
checked as :meth:`skitgubbe.engine.rules.Rules.with_options` says (a ``name`` of at most
:data:`skitgubbe.engine.rules.NAME_LENGTH` characters).
"""

from __future__ import annotations

import tomllib

from .rules import NAME_LENGTH, OPTION_HELP, Rules, RulesError, short_repr
from .variants import PRESETS, UnknownVariantError, find_variant, rules_diff

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "MAX_TEXT", "RulesFileError", "parse_rules_file", "describe_diff"]

_TOP_KEYS = ("preset", "name", "options")

MAX_TEXT = 20_000
"""The most characters a house-rules text may have (the longest sensible file is a few hundred)."""

MAX_DEPTH = 8
"""The deepest that arrays and inline tables may nest (house rules need none: option values are plain)."""

MAX_DIGITS = 18
"""The most digits one number may have (option values are small whole numbers)."""

_PLAIN = "an option's value is a whole number, true or false, or a text"


class RulesFileError(ValueError):
    """A house-rules file that cannot be used; the message names the key (or TOML line) at fault."""


def parse_rules_file(text: str | bytes) -> Rules:
    """The :class:`Rules` a house-rules TOML text describes (``bytes`` are read as UTF-8).

    Raises :class:`RulesFileError` for bytes that are not UTF-8 (with the line), a text longer
    than :data:`MAX_TEXT` characters, arrays or tables nested deeper than :data:`MAX_DEPTH` or a
    number of more than :data:`MAX_DIGITS` digits (with the line and key), TOML that does not
    parse (with its line), an unknown top-level key, a missing or unknown preset, an unknown
    option, a value that is not allowed (the allowed values are listed; see
    :meth:`Rules.with_options`), a name that is not a text without spaces of at most
    :data:`~skitgubbe.engine.rules.NAME_LENGTH` characters, or a combination of options that the rules
    reject (both options are named).
    """
    if isinstance(text, bytes):
        text = _decode(text)
    if len(text) > MAX_TEXT:
        raise RulesFileError(f"the house rules are {len(text)} characters long; at most {MAX_TEXT} are "
                             "allowed")
    _check_shape(text)
    try:
        data = tomllib.loads(text)
    except RecursionError:  # (kept out by _check_shape; a last guard)
        raise RulesFileError(f"not valid TOML: arrays or tables nested too deeply; {_PLAIN}") from None
    except ValueError as e:  # TOMLDecodeError, or a value tomllib itself cannot convert
        raise RulesFileError(f"not valid TOML: {short_repr(str(e)) if len(str(e)) > 200 else e}") from None
    for key in data:
        if key not in _TOP_KEYS:
            raise RulesFileError(f"{_shown_key(key)}: unknown key; keys are {', '.join(_TOP_KEYS)}")
    preset = data.get("preset")
    if not isinstance(preset, str):
        raise RulesFileError('preset: missing; name the preset these rules start from, e.g. preset = "goat"')
    if len(preset) > NAME_LENGTH:
        raise RulesFileError(f"preset: {short_repr(preset)} is not a preset's name; presets: "
                             + ", ".join(sorted(PRESETS)))
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
        raise RulesFileError(f"name: {short_repr(name)} must be a text without spaces")
    try:
        base.with_options({"name": name})  # the name first, so that its errors say "name", not "options.name"
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


def _decode(data: bytes) -> str:
    """``data`` as UTF-8 text, else RulesFileError naming the line of the first bad byte."""
    if len(data) > 4 * MAX_TEXT:  # (no need to decode it all to know it is too long)
        raise RulesFileError(f"the house rules are {len(data)} bytes long; at most {MAX_TEXT} characters "
                             "are allowed")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start].decode("utf-8")  # (whole characters: the error is the first fault)
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        raise RulesFileError(f"line {line}: not UTF-8 (byte 0x{data[e.start]:02x} at column {column}); house "
                             "rules are UTF-8 text") from None


def _shown_key(key: str) -> str:
    key = key if key.isprintable() else repr(key)
    return key if len(key) <= NAME_LENGTH else key[:NAME_LENGTH] + "…"


def _check_shape(text: str) -> None:
    """Refuse, before tomllib reads it, TOML that nests arrays or tables more than
    :data:`MAX_DEPTH` deep or writes a number of more than :data:`MAX_DIGITS` digits: tomllib
    would recurse once a level (a RecursionError) or hand Python's ``int`` a number too long to
    convert (a ValueError).  Strings and comments are skipped; the error names the line and the
    key whose value is at fault.  Anything else wrong is left to tomllib."""
    depth = 0
    line = 1
    table = key = ""
    i, n = 0, len(text)
    line_start = True  # nothing but spaces yet on this line
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            line_start = True
            i += 1
            continue
        if ch in " \t\r":
            i += 1
            continue
        first, line_start = line_start, False
        if ch == "#":  # a comment, to the end of the line
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if ch in "\"'":
            end = _skip_string(text, i)
            line += text.count("\n", i, end)
            i = end
            continue
        if first and depth == 0:
            end = text.find("\n", i)
            end = n if end < 0 else end
            if ch == "[":  # a table header: [options]
                header = text[i:end].split("#", 1)[0].strip().strip("[]")
                table = header.strip().replace('"', "").replace("'", "") + "."
                i = end
                continue
            eq = text.find("=", i, end)
            if eq >= 0:  # key = value: the key is named in errors, and not scanned for numbers
                key = table + text[i:eq].strip().replace('"', "").replace("'", "")
                i = eq + 1
                continue
        if ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise RulesFileError(f"line {line}, {_shown_key(key)}: arrays or tables nested too deeply "
                                     f"(at most {MAX_DEPTH} levels); {_PLAIN}")
        elif ch in "]}":
            depth = max(depth - 1, 0)
        elif "0" <= ch <= "9":
            j = i
            while j < n and ("0" <= text[j] <= "9" or text[j] == "_"):
                j += 1
            digits = j - i - text.count("_", i, j)
            if digits > MAX_DIGITS:
                raise RulesFileError(f"line {line}, {_shown_key(key)}: a number of {digits} digits is not "
                                     f"allowed; {_PLAIN} (see skitgubbe rules show)")
            i = j
            continue
        i += 1


def _skip_string(text: str, i: int) -> int:
    """The index just after the TOML string that starts at ``i`` (basic or literal, on one line or
    several); for a string left open on its line, the end of that line (tomllib reports it)."""
    quote = text[i] * 3 if text.startswith(text[i] * 3, i) else text[i]
    escapes = text[i] == '"'
    j, n = i + len(quote), len(text)
    while j < n:
        c = text[j]
        if escapes and c == "\\":
            j += 2
            continue
        if text.startswith(quote, j):
            return j + len(quote)
        if c == "\n" and len(quote) == 1:
            return j
        j += 1
    return n
