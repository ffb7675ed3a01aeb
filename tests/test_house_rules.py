"""House rules: Rules.with_options, the TOML rules file, rules diff, and records with custom rules."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from skitgubbe.engine.record import RecordFormatError, dumps, loads, record_of, replay
from skitgubbe.engine.rules import OPTION_HELP, PickUp, Rules, RulesError
from skitgubbe.engine.rulesfile import RulesFileError, describe_diff, parse_rules_file
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.play.cli import main

GOAT = find_variant("goat")
PAGAT = find_variant("pagat")


def test_with_options_converts_text_and_keeps_types() -> None:
    rules = GOAT.with_options({"dreck_below": "5", "pick_up": "top-card", "expose_leftover": "true",
                               "name": "ours"})
    assert (rules.dreck_below, rules.pick_up, rules.expose_leftover, rules.name) == (5, PickUp.TOP_CARD, True,
                                                                                    "ours")
    assert GOAT.with_options({"hand_size": 2}).hand_size == 2
    assert GOAT.with_options({"pick_up": PickUp.TOP_CARD}).pick_up is PickUp.TOP_CARD


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, "colour: unknown option; options are name, min_players"),
        ({"pick_up": "top"}, "pick_up: 'top' is not allowed; allowed values: top-card, top-run"),
        ({"sluffing": "maybe"}, "sluffing: 'maybe' is not allowed; allowed values: true, false"),
        ({"hand_size": "three"}, "hand_size: 'three' is not allowed; give a whole number"),
        ({"hand_size": True}, "hand_size: True is not allowed; give a whole number"),
        ({"name": ""}, "name: '' is not allowed; give a text"),
        ({"sluffing": False}, "sluff_guard_high/sluff_guard_last need sluffing=True"),
    ],
)
def test_with_options_names_the_option_and_the_allowed_values(options: dict[str, object],
                                                              message: str) -> None:
    with pytest.raises(RulesError) as info:
        GOAT.with_options(options)
    assert message in str(info.value)


def test_every_option_has_a_plain_words_description() -> None:
    assert set(OPTION_HELP) == set(Rules().options())


HOUSE = 'preset = "flurst"\nname = "our-goat"\n[options]\ndreck_below = 5\npick_up = "top-card"\n'


def test_rules_file_starts_from_a_preset_and_changes_options() -> None:
    rules = parse_rules_file(HOUSE)
    assert rules.name == "our-goat" and rules.dreck_below == 5 and rules.pick_up is PickUp.TOP_CARD
    assert rules.replace(name="goat", dreck_below=6, pick_up=PickUp.LOWEST_RUN) == GOAT
    assert parse_rules_file('preset = "pagat"\n').name == "pagat+house"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("preset = ", "not valid TOML"),
        ('preset = "goat"\ncolour = 1\n', "colour: unknown key; keys are preset, name, options"),
        ("[options]\nhand_size = 2\n", "preset: missing"),
        ('preset = "whist"\n', "preset: no rules called 'whist'"),
        ('preset = "goat"\noptions = 3\n', "options: must be a table"),
        ('preset = "goat"\n[options]\nname = "x"\n', "options.name: give the name at the top level"),
        ('preset = "goat"\nname = "our goat"\n', "name: 'our goat' must be a text without spaces"),
        ('preset = "goat"\n[options]\nhand = 2\n', "options.hand: unknown option"),
        ('preset = "goat"\n[options]\npick_up = "top"\n',
         "options.pick_up: 'top' is not allowed; allowed values"),
        ('preset = "goat"\n[options]\nsluffing = false\n', "sluff_guard_high/sluff_guard_last need sluffing"),
    ],
)
def test_rules_file_errors_name_the_key(text: str, message: str) -> None:
    with pytest.raises(RulesFileError) as info:
        parse_rules_file(text)
    assert message in str(info.value)


def test_describe_diff_in_plain_words() -> None:
    lines = describe_diff(GOAT, parse_rules_file(HOUSE))
    assert lines == [
        "dreck_below: 6 in goat, 5 in our-goat (" + OPTION_HELP["dreck_below"] + ")",
        "pick_up: lowest-run in goat, top-card in our-goat (" + OPTION_HELP["pick_up"] + ")",
    ]
    assert describe_diff(GOAT, GOAT) == []
    lines = describe_diff(PAGAT, GOAT)
    assert any(line.startswith("must_match: false in pagat, true in goat") for line in lines)


def _finished(rules: Rules, players: int, seed: int) -> State:
    state = State.new(rules, players, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(state.random_action(rng), state.to_act)
    return state


def test_records_of_house_rules_round_trip_and_replay() -> None:
    rules = parse_rules_file(HOUSE)
    state = _finished(rules, 4, seed=3)
    text = dumps(record_of(state))
    assert "rules = custom\nrule name = our-goat\n" in text and "rule pick_up = top-card" in text
    record = loads(text)
    assert record.rules == rules
    assert replay(record).outcome == state.outcome
    assert dumps(record) == text


def test_hand_written_record_may_override_a_preset() -> None:
    text = ("skitgubbe-record = 1\nrules = goat\nrule dreck_below = 4\nplayers = 3\ndealer = 0\nseed = 1\n"
            "moves:\n")
    record = loads(text)
    assert record.rules.dreck_below == 4 and record.rules.name == "goat+house"
    assert record.rules.replace(name="goat", dreck_below=6) == GOAT


@pytest.mark.parametrize(
    ("edit", "line", "field", "message"),
    [
        ("rule dreck_below = x", 3, "rule dreck_below", "'x' is not allowed; give a whole number"),
        ("rule colour = red", 3, "rule colour", "unknown option"),
        ("rule sluffing = false", 3, "rules", "need sluffing=True"),
    ],
)
def test_bad_rule_lines_in_records(edit: str, line: int, field: str, message: str) -> None:
    text = f"skitgubbe-record = 1\nrules = goat\n{edit}\nplayers = 3\ndealer = 0\nseed = 1\nmoves:\n"
    with pytest.raises(RecordFormatError) as info:
        loads(text)
    assert (info.value.line, info.value.field) == (line, field)
    assert message in str(info.value)


def test_cli_rules_show_diff_and_simulate_with_a_rules_file(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.toml"
    house.write_text(HOUSE)
    assert main(["rules", "show", str(house), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["dreck_below"] == 5
    assert main(["rules", "diff", "goat", str(house)]) == 0
    out = capsys.readouterr().out
    assert "goat and our-goat: 2 options differ" in out and "dreck_below: 6 in goat, 5 in our-goat" in out
    assert main(["rules", "diff", "goat", "flurst"]) == 0
    assert "the same rules" in capsys.readouterr().out
    assert main(["simulate", "--rules-file", str(house), "--players", "4", "--games", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "our-goat"
    bad = tmp_path / "bad.toml"
    bad.write_text('preset = "goat"\n[options]\npick_up = "top"\n')
    with pytest.raises(SystemExit):
        main(["simulate", "--rules-file", str(bad), "--games", "1"])
    assert "options.pick_up: 'top' is not allowed" in capsys.readouterr().err  # lists the allowed values
    with pytest.raises(SystemExit):
        main(["rules", "diff", "goat", str(tmp_path / "missing.toml")])
    assert "cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["rules", "show", "whist"])
    assert "no rules called 'whist'" in capsys.readouterr().err


# -- hostile input (issue 14): option values are checked where they are read ------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"hand_size": "²"}, "hand_size: '²' is not allowed; give a whole number, 1 to 6"),
        ({"hand_size": "٣"}, "hand_size: '٣' is not allowed; give a whole number, 1 to 6"),
        ({"hand_size": "9" * 5000}, "hand_size: a text of 5000 characters starting '9999999999999999' is "
                                   "not allowed; give a whole number, 1 to 6"),
        ({"hand_size": "--3"}, "hand_size: '--3' is not allowed; give a whole number, 1 to 6"),
        ({"hand_size": "3_0"}, "hand_size: '3_0' is not allowed"),
        ({"hand_size": 10**5000},
         "hand_size: a whole number of 5001 digits is not allowed; give a whole number, 1 to 6"),
        ({"hand_size": 7}, "hand_size: 7 is not allowed; give a whole number, 1 to 6"),
        ({"dreck_below": "-2"}, "dreck_below: -2 is not allowed; give a whole number, -1 to 104"),
        ({"dreck_trump_rank": 1}, "dreck_trump_rank: 1 is not allowed; give a whole number, 0, or 2 to 14"),
        ({"decks": [2]}, "decks: an array is not allowed; give a whole number, 1 or 2"),
        ({"pick_up": "x" * 16_000},
         "pick_up: a text of 16000 characters starting 'xxxxxxxxxxxxxxxx' is not allowed; allowed values: "
         "top-card, top-run"),
        ({"name": "x" * 16_000},
         "name: a text of 16000 characters starting 'xxxxxxxxxxxxxxxx' is not allowed; give a text of "
         "1 to 40"),
        ({"name": "a#b"},
         "name: 'a#b' is not allowed; give a text of 1 to 40 printable characters, without '#'"),
        ({"name": "a\nb"}, "name: 'a\\nb' is not allowed; give a text of 1 to 40 printable"),
    ],
)
def test_hostile_option_values_name_the_option_and_what_is_allowed(options: dict[str, object],
                                                                   message: str) -> None:
    with pytest.raises(RulesError) as info:
        GOAT.with_options(options)
    assert str(info.value).startswith(message), str(info.value)[:200]
    assert len(str(info.value)) < 300, "the value at fault is shown shortened"


def test_whole_number_texts_are_ascii_digits() -> None:
    assert GOAT.with_options({"hand_size": " 4 ", "dreck_below": "-1", "reserve": "0"}).hand_size == 4
    assert GOAT.with_options({"hand_size": "04"}).hand_size == 4  # (a leading zero is still a number)
    assert GOAT.with_options({"name": "x" * 40}).name == "x" * 40


DEEP_ARRAY = "[" * 5000 + "]" * 5000
DEEP_TABLE = "{a = " * 2000 + "1" + "}" * 2000  # (within the length limit; tomllib recursed)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('preset = "goat"\n[options]\nhand_size = "²"\n',
         "options.hand_size: '²' is not allowed; give a whole number, 1 to 6"),
        ('preset = "goat"\n[options]\nhand_size = "' + "9" * 5000 + '"\n',
         "options.hand_size: a text of 5000 characters starting '9999999999999999' is not allowed"),
        ('preset = "goat"\n[options]\nhand_size = ' + "9" * 5000 + "\n",
         "line 3, options.hand_size: a number of 5000 digits is not allowed"),
        ('preset = "goat"\n[options]\nhand_size = ' + DEEP_ARRAY + "\n",
         "line 3, options.hand_size: arrays or tables nested too deeply"),
        ('preset = "goat"\n[options]\nhand_size = ' + DEEP_TABLE + "\n",
         "line 3, options.hand_size: arrays or tables nested too deeply"),
        ("preset = " + DEEP_ARRAY + "\n", "line 1, preset: arrays or tables nested too deeply"),
        ('preset = "goat"\noptions = {hand_size = ' + "[" * 40 + "]" * 40 + "}\n",
         "line 2, options: arrays or tables nested too deeply"),
        ('preset = "goat"\n[options]\nhand_size = ' + "[" * 5 + "]" * 5 + "\n",
         "options.hand_size: an array is not allowed; give a whole number, 1 to 6"),
        ('preset = "goat"\nname = "' + "x" * 16_000 + '"\n',
         "name: a text of 16000 characters starting 'xxxxxxxxxxxxxxxx' is not allowed; give a text of "
         "1 to 40"),
        ('preset = "goat"\n' + "# a long comment\n" * 1200,
         "the house rules are 20416 characters long; at most 20000 are allowed"),
        ('preset = "' + "g" * 5000 + '"\n',
         "preset: a text of 5000 characters starting 'gggggggggggggggg' is not a preset's name; presets: "),
        ('preset = "goat"\n' + "k" * 5000 + " = 1\n", "kkkkkkk"),
    ],
    ids=["Unicode digits", "a 5,000-digit text", "a 5,000-digit number", "a deep array", "a deep table",
         "a deep preset", "a deep inline table", "a shallow array", "a long name", "a long file",
         "a long preset", "a long key"],
)
def test_hostile_rules_files_give_rules_file_errors(text: str, message: str) -> None:
    with pytest.raises(RulesFileError) as info:
        parse_rules_file(text)
    assert str(info.value).startswith(message), str(info.value)[:300]
    assert "\n" not in str(info.value) and len(str(info.value)) < 600


def test_nesting_inside_strings_and_comments_is_not_counted() -> None:
    text = ('preset = "goat"  # [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n'
            'name = "our-goat"\n'
            "[options]\n"
            'pick_up = "top-card"\n'
            "dreck_below = 5 # {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\n")
    assert parse_rules_file(text).dreck_below == 5
    quoted = 'preset = "goat"\nname = "' + "[" * 39 + '"\n'  # too long a name, but not nested
    assert parse_rules_file(quoted).name == "[" * 39
    with pytest.raises(RulesFileError, match="name: a text of 41 characters .* give a text of 1 to 40"):
        parse_rules_file(quoted.replace("[" * 39, "[" * 41))
    with pytest.raises(RulesFileError, match="name: .* must be a text without spaces"):
        parse_rules_file("preset = 'goat'\nname = '''[[[[[ " + "[" * 40 + "]'''\n")
