"""The lobby's house-rules builder: every option of the rules as a form field, checked by the engine,
written as a house-rules TOML file and read back from one.  No I/O, no HTTP.

The builder starts from a preset (:data:`~skitgubbe.engine.variants.PRESETS`) and changes some of its
options.  :func:`build` makes the :class:`~skitgubbe.engine.rules.Rules` with
:meth:`~skitgubbe.engine.rules.Rules.with_options`, so the engine's own checks (ranges, combinations)
decide what is allowed; :func:`to_toml` writes the house-rules text that
:func:`~skitgubbe.engine.rulesfile.parse_rules_file` (and ``skitgubbe --rules-file``) reads back to the
same rules; :func:`read` reads such a text for the form.
"""

from __future__ import annotations

import enum
import json
import re
import tomllib
from dataclasses import dataclass, fields
from typing import Any

from ..engine.i18n import N_, gettext_in
from ..engine.rules import INT_RANGES, NAME_LENGTH, OPTION_HELP, Rules, RulesError
from ..engine.rulesfile import RulesFileError, parse_rules_file
from ..engine.variants import PRESETS, UnknownVariantError, find_variant, rules_diff
from .presets import describe
from .rooms import RoomError

__all__ = ["GROUPS", "OPTION_LABELS", "HouseRulesError", "Built", "option_fields", "build", "to_toml", "read",
           "named_options"]

GROUPS: dict[str, tuple[str, ...]] = {
    N_("The table"): ("min_players", "max_players", "hand_size", "decks", "max_players_two_packs",
                      "confusion", "loser_title", "lowest_rank", "suits"),
    N_("Phase one"): ("first_phase", "first_lead", "aces_low_first", "exposed_bottom", "bottom_aside",
                  "trump_shown_when_drawn", "max_equal_play", "must_match", "ties_beat_unique",
                  "all_ties_replay", "tie_deal", "turn_from_stock", "stock_end", "incomplete_trick_dealt",
                  "expose_leftover", "show_trump_card", "store_three_trumps", "exchange_two"),
    N_("Sluffing"): ("sluffing", "sluff_settled_only", "sluff_after_play", "sluff_once", "sluff_losing_only",
                 "sluff_own_rank", "sluff_last_rank", "sluff_guard_high", "sluff_guard_last",
                 "sluff_guard_last_card", "restaurant"),
    N_("The dreck"): ("dreck_below", "dreck_max_rank", "dreck_trump_rank", "dreck_remainder_aside"),
    N_("Phase two"): ("second_lead", "empty_hand", "plays", "pick_up", "forced_pickup", "complete_suit_ends",
                  "trump_ends_trick", "anti_trump", "beat_any_suit", "high_trump_kills_only", "reserve"),
}
"""The builder's sections and the options in each, in the order shown: every option of
:class:`~skitgubbe.engine.rules.Rules` but ``name`` (a field of its own) is in exactly one."""

OPTION_LABELS: dict[str, str] = {
    "name": N_("Name of these house rules"),
    "min_players": N_("Fewest players"),
    "max_players": N_("Most players"),
    "hand_size": N_("Cards in hand"),
    "decks": N_("Packs of cards"),
    "max_players_two_packs": N_("Most players with two packs"),
    "confusion": N_("Three players with two hands each"),
    "loser_title": N_("What the loser is called"),
    "lowest_rank": N_("Lowest rank in the pack"),
    "suits": N_("Suits in the pack"),
    "first_phase": N_("How phase one is played"),
    "first_lead": N_("Who leads the first trick"),
    "aces_low_first": N_("Aces low in phase one"),
    "exposed_bottom": N_("Show the bottom card of the stock"),
    "bottom_aside": N_("Set the bottom card aside"),
    "trump_shown_when_drawn": N_("Show the last stock card when it is drawn"),
    "max_equal_play": N_("Most cards of one rank in a play"),
    "must_match": N_("Play the same rank if you can"),
    "ties_beat_unique": N_("A tied rank beats single cards"),
    "all_ties_replay": N_("Every tied seat plays again"),
    "tie_deal": N_("A tie is dealt out"),
    "turn_from_stock": N_("Play the top card of the stock"),
    "stock_end": N_("When the stock runs out"),
    "incomplete_trick_dealt": N_("An unfinished trick is dealt round"),
    "expose_leftover": N_("Show the cards left at the end of phase one"),
    "show_trump_card": N_("Show the trump card"),
    "store_three_trumps": N_("Keep three trumps for phase two"),
    "exchange_two": N_("Swap the 2 of trumps for the trump card"),
    "sluffing": N_("Sluffing allowed"),
    "sluff_settled_only": N_("Sluff only once the trick is settled"),
    "sluff_after_play": N_("Sluff only after playing to the trick"),
    "sluff_once": N_("Sluff only once a trick"),
    "sluff_losing_only": N_("Sluff only ranks that lose the trick"),
    "sluff_own_rank": N_("Sluff only the rank you played"),
    "sluff_last_rank": N_("Sluff only the last rank played"),
    "sluff_guard_high": N_("No sluffing the highest rank before you play"),
    "sluff_guard_last": N_("No sluffing while you can still win the trick"),
    "sluff_guard_last_card": N_("No sluffing your last card to beat or tie"),
    "restaurant": N_("The last stock card replaces only a play"),
    "dreck_below": N_("Fewer cards than this get the dreck"),
    "dreck_max_rank": N_("Highest rank in the dreck"),
    "dreck_trump_rank": N_("Trump rank added to the dreck"),
    "dreck_remainder_aside": N_("Set aside dreck cards that do not share out"),
    "second_lead": N_("Who leads phase two"),
    "empty_hand": N_("A seat with no cards in phase two"),
    "plays": N_("What a play in phase two may be"),
    "pick_up": N_("What you pick up when you do not beat"),
    "forced_pickup": N_("The next seats must pick up too"),
    "complete_suit_ends": N_("A whole suit on the table ends the trick"),
    "trump_ends_trick": N_("A trump on a non-trump ends the trick"),
    "anti_trump": N_("A suit that trumps cannot beat"),
    "beat_any_suit": N_("Any higher card beats, whatever its suit"),
    "high_trump_kills_only": N_("The highest trump only kills"),
    "reserve": N_("Reserve cards for two players"),
}
"""Each option's label in the builder, in a player's words (the glossary's): message ids, shown
translated by :func:`option_fields` (the option's engine name is shown small beside it)."""

_NAME_HELP = N_("the name of these house rules, without spaces (shown at the table and in records)")

_OPTION_NAMES = tuple(f.name for f in fields(Rules))


class HouseRulesError(RoomError):
    """House rules the engine refuses (code ``bad-rules``); ``fields`` are the options the message
    names, in the order it names them (empty when it names none, e.g. TOML that does not parse)."""

    def __init__(self, message: str, fields_named: list[str]) -> None:
        super().__init__("bad-rules", message)
        self.fields = fields_named


def named_options(message: str) -> list[str]:
    """The option names (of :class:`~skitgubbe.engine.rules.Rules`) that an error ``message`` names as
    the engine names an option at fault (``x=value``, ``x: ...``, ``x/y``; ``options.x`` counts as
    ``x``), in order of first mention, each once.  A name in a list of allowed ones does not count."""
    found: list[tuple[int, str]] = []
    for name in _OPTION_NAMES:
        m = re.search(rf"(?<![A-Za-z_]){re.escape(name)}(?=[=:/])", message)
        if m:
            found.append((m.start(), name))
    return [name for _, name in sorted(found)]


def option_fields(lang: str = "en") -> list[dict[str, Any]]:
    """The builder's form in language ``lang`` (``"en"``, ``"sv"``, ...), one entry per option
    (``name`` first, then :data:`GROUPS` in order): ``name`` (the engine's name of the option, as a
    house-rules file writes it), ``label`` (:data:`OPTION_LABELS`, translated), ``group`` (the
    section's English name, a key), ``group_label`` (translated), ``help``
    (:data:`~skitgubbe.engine.rules.OPTION_HELP`, translated), ``kind`` (``"bool"``, ``"int"``,
    ``"choice"`` or ``"text"``), and for ``int`` its ``ranges`` (``[[low, high], ...]``,
    :data:`~skitgubbe.engine.rules.INT_RANGES`), for ``choice`` its ``choices`` (the values a
    house-rules file writes), for ``text`` its ``max_chars``.  An unknown ``lang`` gives English."""
    defaults = {f.name: f.default for f in fields(Rules)}

    def tr(text: str) -> str:
        return gettext_in(lang, text) if text else ""

    out: list[dict[str, Any]] = [{"name": "name", "label": tr(OPTION_LABELS["name"]), "group": "Name",
                                  "group_label": tr(N_("Name")), "kind": "text", "max_chars": NAME_LENGTH,
                                  "help": tr(_NAME_HELP)}]
    for group, names in GROUPS.items():
        for name in names:
            default = defaults[name]
            entry: dict[str, Any] = {"name": name, "label": tr(OPTION_LABELS[name]), "group": group,
                                     "group_label": tr(group), "help": tr(OPTION_HELP.get(name, ""))}
            if isinstance(default, enum.Enum):
                entry |= {"kind": "choice", "choices": [m.value for m in type(default)]}
            elif isinstance(default, bool):
                entry["kind"] = "bool"
            elif isinstance(default, int):
                entry |= {"kind": "int", "ranges": [list(r) for r in INT_RANGES[name]]}
            else:
                entry |= {"kind": "text", "max_chars": NAME_LENGTH}
            out.append(entry)
    return out


@dataclass(frozen=True)
class Built:
    """House rules the engine accepted: the ``preset`` they start from (its canonical name), the
    ``rules`` and their house-rules ``toml``."""

    preset: str
    rules: Rules

    @property
    def toml(self) -> str:
        """The house-rules file of these rules (:func:`to_toml`)."""
        return to_toml(self.preset, self.rules)

    def to_json(self) -> dict[str, Any]:
        """What the builder shows: ``preset``, ``name``, ``options`` (every option's value),
        ``changed`` (the options that differ from the preset), ``toml``, ``min_players``,
        ``max_players``, ``description`` (the lobby's line about them) and ``loser_title``."""
        base = PRESETS[self.preset]
        return {"preset": self.preset, "name": self.rules.name, "options": self.rules.options(),
                "changed": sorted(rules_diff(base, self.rules)), "toml": self.toml,
                "min_players": self.rules.min_players, "max_players": self.rules.max_players,
                "description": describe(self.rules.name, self.rules), "loser_title": self.rules.loser_title}


def _preset(name: str) -> tuple[str, Rules]:
    try:
        base = find_variant(name)
    except UnknownVariantError as e:
        raise HouseRulesError(f"preset: {e}", []) from None
    return base.name, base


def build(preset: str, options: dict[str, Any]) -> Built:
    """The house rules that start from ``preset`` (a name or alias) and set ``options`` (``{option:
    value}``, values as :meth:`~skitgubbe.engine.rules.Rules.with_options` takes them; ``name``
    among them names the rules, default ``PRESET+house``).

    Raises :class:`HouseRulesError` with the engine's message (the options at fault named, also in
    ``fields``) for an unknown preset or option, a value not allowed or a combination the rules
    reject, and for a name with spaces (a house-rules file's names have none)."""
    canonical, base = _preset(preset)
    changes = dict(options)
    name = changes.pop("name", None)
    if name is None or (isinstance(name, str) and not name.strip()):
        name = f"{canonical}+house"
    if not isinstance(name, str) or any(ch.isspace() for ch in name.strip()):
        raise HouseRulesError(f"name: {name!r:.50} must be a text without spaces, e.g. {canonical}+house",
                              ["name"])
    try:
        rules = base.with_options({"name": name.strip(), **changes})
    except RulesError as e:
        message = str(e)
        named = ["name"] if message.startswith("name:") else named_options(message)
        raise HouseRulesError(message, named) from None
    return Built(canonical, rules)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)  # a TOML basic string (JSON's escapes are TOML's)


def to_toml(preset: str, rules: Rules) -> str:
    """The house-rules file (:mod:`skitgubbe.engine.rulesfile`) of ``rules`` made from preset
    ``preset``: its name and the options that differ from the preset, with each option's help as a
    comment.  :func:`~skitgubbe.engine.rulesfile.parse_rules_file` reads it back to ``rules``.
    Raises ``KeyError`` for a preset that is not one."""
    base = PRESETS[preset]
    diff = rules_diff(base, rules)
    if "decks" in diff and "max_players" not in diff:  # (two packs would raise it by themselves)
        diff["max_players"] = (base.max_players, rules.max_players)
    lines = ["# House rules for skitgubbe (play them with: skitgubbe --rules FILE.toml, or upload them in",
             "# the lobby of the online table).",
             f"preset = {_value(preset)}", f"name = {_value(rules.name)}"]
    if diff:
        lines.append("[options]")
        for key in _OPTION_NAMES:
            if key in diff:
                lines.append(f"{key} = {_value(diff[key][1])}  # {OPTION_HELP.get(key, '')}")
    return "\n".join(lines) + "\n"


def read(text: str) -> Built:
    """The house rules of a house-rules TOML ``text`` (as :func:`~skitgubbe.engine.rulesfile.parse_rules_file`
    reads it), with the preset it starts from.  Raises :class:`HouseRulesError` with the engine's message
    (naming the line or key at fault)."""
    try:
        rules = parse_rules_file(text)
    except (RulesFileError, RulesError) as e:
        message = str(e)
        raise HouseRulesError(message, named_options(message)) from None
    preset = tomllib.loads(text)["preset"]  # (parse_rules_file has read it: a preset's name)
    canonical, _ = _preset(str(preset))
    return Built(canonical, rules)
