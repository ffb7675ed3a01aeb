"""Fuzzing every parser a user reaches (issue 14, "Hostile input").

The property, for each parser: a valid result or the parser's documented error, never another
exception, and the error is one line.

* game records: :func:`skitgubbe.engine.record.loads` (text or bytes) gives a :class:`Record` or raises
  :class:`RecordFormatError` ("line N, FIELD: ..." or "record, FIELD: ..."); :func:`replay` of a
  record that loads gives a :class:`State` or raises :class:`ReplayError`.  Inputs: records the
  engine wrote for several presets (a finished deal, an unfinished one, house rules, a phase-two
  position, two packs), mutated byte by byte, line by line and field by field; arbitrary text and
  bytes.
* house rules: :func:`skitgubbe.engine.rulesfile.parse_rules_file` gives a :class:`Rules` or raises
  :class:`RulesFileError`; :meth:`Rules.with_options` gives a :class:`Rules` or raises
  :class:`RulesError`.  Inputs: valid files mutated, TOML-ish text built from option names and
  nasty values (Unicode digits, huge numbers, deep nesting), arbitrary text and bytes.
* moves: :func:`skitgubbe.engine.actions.parse_action` gives an :class:`Action` (whose text reads back to
  it) or raises :class:`ActionParseError`; :func:`skitgubbe.engine.cards.parse_cards` gives cards or
  raises :class:`CardParseError`.
* the command line, end to end: ``skitgubbe replay`` / ``hint`` of nasty records and ``skitgubbe
  rules show`` of nasty house rules exit 2 with a one-line message naming the line and field.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skitgubbe.engine.actions import CHANCE, Action, ActionParseError, parse_action
from skitgubbe.engine.cards import CardParseError, parse_card, parse_cards
from skitgubbe.engine.position import practice_position
from skitgubbe.engine.record import Record, RecordFormatError, ReplayError, dumps, loads, record_of, replay
from skitgubbe.engine.rules import OPTION_HELP, Rules, RulesError
from skitgubbe.engine.rulesfile import RulesFileError, parse_rules_file
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.play.cli import main

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- valid inputs to mutate ------------------------------------------------------------------------


def _played(rules: Rules, players: int, seed: int | str, stop: int = -1) -> State:
    state = State.new(rules, players, seed=seed)
    rng = random.Random(seed)
    while not state.is_over and len(state.history) != stop:
        if state.to_act == CHANCE:
            state.apply(state.chance_action(rng), CHANCE)
        else:
            state.apply(state.random_action(rng), state.to_act)
    return state


def _position_record() -> str:
    rules = find_variant("goat")
    state = State.from_position(rules, practice_position(4, random.Random(3), decks=rules.decks))
    rng = random.Random(3)
    for _ in range(6):
        state.apply(state.random_action(rng), state.to_act)
    return dumps(record_of(state))


HOUSE = ('preset = "goat"\nname = "our-goat"\n[options]\ndreck_below = 5\npick_up = "top-card"\n'
         "high_trump_kills_only = true\n")
DOUBLE = 'preset = "goat"\nname = "goat-double-deck"\n\n[options]\ndecks = 2\ndreck_below = 12\n'

RECORDS = [
    dumps(record_of(_played(find_variant("pagat"), 3, 1), seed=1)),
    dumps(record_of(_played(find_variant("goat"), 4, 2, stop=60), seed=2)),
    dumps(record_of(_played(find_variant("helmfrid"), 3, "three", stop=80), seed="three")),
    dumps(record_of(_played(find_variant("mas"), 3, 4, stop=40), seed=4)),
    dumps(record_of(_played(find_variant("two-player"), 2, 5, stop=50), seed=5)),
    dumps(record_of(_played(parse_rules_file(HOUSE), 4, 6, stop=70), seed=6)),
    dumps(record_of(_played(parse_rules_file(DOUBLE), 5, 7, stop=40), seed=7)),
    _position_record(),
]
RULES_FILES = [HOUSE, DOUBLE, 'preset = "pagat"\n', "preset = 'mattis'  # Norway\nname = 'blå'\n"]

NASTY_VALUES = ["²", "٣", "３", "9" * 5000, "-" * 3, "--", "-1", "+1", "1_0", "0x10", "", " ", "#", '"',
                '"\\ud800"', '"\\udc80x"', '"unterminated', "true", "chance", "rest", "phase-two",
                "x" * 3000, "\x00", "\x1b[31m", "\u2028", "99999999999", "1e5", "3.0"]
MOVE_WORDS = st.sampled_from(["play", "sluff", "stock", "pass", "pick", "up", "dreck", "store", "exchange",
                              "7h", "10D", "T♠", "a♣", "QS", "2c", "1c", "11h", "²c", "٣h", "KX", "", ",",
                              "♥"])
NASTY_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", "²".encode(), b"\x00", b"\r", b"\n",
               b"=", b"#", b'"', b"|", b" ", b"-", b"9" * 50]


def _check_record_error(e: RecordFormatError) -> None:
    text = str(e)
    assert "\n" not in text and "\r" not in text, "the error is one line"
    assert text.startswith(f"line {e.line}, " if e.line else "record, "), text[:100]
    assert e.field, "the field is named"


def _load_and_replay(data: str | bytes) -> None:
    """The property of the record parser (module docstring)."""
    try:
        record = loads(data)
    except RecordFormatError as e:
        _check_record_error(e)
        return
    assert isinstance(record, Record)
    try:
        state = replay(record)
    except ReplayError as e:
        assert "\n" not in str(e)
        return
    assert isinstance(state, State)


# -- records ---------------------------------------------------------------------------------------


def test_the_records_to_mutate_load_and_replay() -> None:
    """(So that each mutation below starts from a record that is itself fine.)"""
    for text in RECORDS:
        state = replay(loads(text))
        assert dumps(record_of(state, seed=loads(text).seed)) == text


@FUZZ
@given(st.sampled_from(RECORDS), st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(NASTY_BYTES),
                                                     st.sampled_from(["put", "insert", "delete"])),
                                           min_size=1, max_size=4))
def test_records_mutated_byte_by_byte(text: str, edits: list[tuple[int, bytes, str]]) -> None:
    data = bytearray(text.encode())
    for at, chunk, how in edits:
        i = at % len(data)
        if how == "put":
            data[i:i + len(chunk)] = chunk
        elif how == "insert":
            data[i:i] = chunk
        else:
            del data[i:i + len(chunk)]
    _load_and_replay(bytes(data))


@FUZZ
@given(st.sampled_from(RECORDS), st.data())
def test_records_mutated_line_by_line(text: str, data: st.DataObject) -> None:
    lines = text.splitlines()
    other = data.draw(st.sampled_from(RECORDS)).splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        how = data.draw(st.sampled_from(["delete", "repeat", "swap", "borrow", "cut"]))
        if how == "delete" and len(lines) > 1:
            del lines[i]
        elif how == "repeat":
            lines.insert(i, lines[i])
        elif how == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "borrow":
            lines[i] = data.draw(st.sampled_from(other))
        else:
            lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
    _load_and_replay("\n".join(lines) + "\n")


@FUZZ
@given(st.sampled_from(RECORDS), st.data())
def test_records_with_a_nasty_field(text: str, data: st.DataObject) -> None:
    """A header value, a move's seat or a move's action replaced by a nasty value."""
    lines = text.splitlines()
    for _ in range(data.draw(st.integers(1, 2))):
        i = data.draw(st.integers(0, len(lines) - 1))
        value = data.draw(st.sampled_from(NASTY_VALUES) | st.text(max_size=12))
        key, eq, _ = lines[i].partition(" = ")
        if eq:
            lines[i] = f"{key} = {value}"
        elif lines[i] != "moves:":
            seat, _, action = lines[i].partition(" ")
            lines[i] = f"{value} {action}" if data.draw(st.booleans()) else f"{seat} {value}"
    if data.draw(st.booleans()):  # a header the record did not have
        extra = data.draw(st.sampled_from(["leader", "protocol", "seed", "deck", "start", "to-act", "table",
                                           "out-seats", "kill-at", "hand 2", "rule hand_size", "rule decks",
                                           "rule confusion", "rule name", "loser"]))
        lines.insert(1, f"{extra} = {data.draw(st.sampled_from(NASTY_VALUES))}")
    _load_and_replay("\n".join(lines) + "\n")


@FUZZ
@given(st.sampled_from(RECORDS), st.data())
def test_records_with_mutated_moves(text: str, data: st.DataObject) -> None:
    """Moves dropped, repeated, given to another seat or turned into another move: the record still
    loads, and replaying it either works or names an illegal move (a ReplayError)."""
    head, _, tail = text.partition("moves:\n")
    moves = tail.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        if not moves:
            break
        i = data.draw(st.integers(0, len(moves) - 1))
        seat, _, action = moves[i].partition(" ")
        how = data.draw(st.sampled_from(["delete", "repeat", "seat", "action", "chance"]))
        if how == "delete":
            del moves[i]
        elif how == "repeat":
            moves.insert(i, moves[i])
        elif how == "seat":
            moves[i] = f"{data.draw(st.integers(0, 9))} {action}"
        elif how == "action":
            moves[i] = f"{seat} {data.draw(MOVE_WORDS)} {data.draw(MOVE_WORDS)}"
        else:
            moves[i] = f"chance {action}"
    _load_and_replay(head + "moves:\n" + "".join(m + "\n" for m in moves))


@FUZZ
@given(st.text(max_size=300) | st.binary(max_size=300))
def test_arbitrary_text_and_bytes_as_records(data: str | bytes) -> None:
    _load_and_replay(data)


@FUZZ
@given(st.lists(st.sampled_from(["skitgubbe-record = 1", "rules = pagat", "rules = goat", "players = 3",
                                 "players = 6", "dealer = 0", "seed = 1", "start = phase-two", "trump = S",
                                 "to-act = 0", "hand 0 = 5C 6C", "hand 1 = 7C", "out-of-play = rest",
                                 "rule confusion = true", "moves:", "1 play 5C", "0 stock", "chance sluff 2C",
                                 "2 pick", "loser = 1"]) | st.sampled_from(NASTY_VALUES), max_size=14))
def test_record_shaped_lines(lines: list[str]) -> None:
    _load_and_replay("\n".join(lines))


# -- house rules ------------------------------------------------------------------------------------

OPTIONS = sorted(OPTION_HELP)
TOML_VALUES = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["true", "false", "3.5", "inf", "1979-05-27", "0x1F", '"top-card"', '"lowest-run"', '"²"',
                     '"٣"', '"9' + "9" * 5000 + '"', "9" * 5000, '"' + "x" * 500 + '"', "[]", "{}",
                     '"\\ud800"',
                     "'literal'", '"""multi\nline"""', "'''[[[[[[[[[[[[[[[[[[[[[[[[[[[['''"]),
    st.integers(1, 3000).map(lambda k: "[" * k + "]" * k),
    st.integers(1, 1500).map(lambda k: "{a = " * k + "1" + "}" * k),
    st.text(max_size=10).map(lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'),
)


@FUZZ
@given(st.lists(st.tuples(st.sampled_from([*OPTIONS, "preset", "name", "options", "colour"]), TOML_VALUES),
                max_size=6), st.booleans(), st.sampled_from(["goat", "pagat", "helmfrid", "whist"]))
def test_toml_ish_house_rules(pairs: list[tuple[str, str]], table: bool, preset: str) -> None:
    text = (f'preset = "{preset}"\n' + ("[options]\n" if table else "")
            + "".join(f"{k} = {v}\n" for k, v in pairs))
    _parse_rules(text)


@FUZZ
@given(st.sampled_from(RULES_FILES), st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(NASTY_BYTES)),
                                               min_size=1, max_size=4))
def test_house_rules_mutated_byte_by_byte(text: str, edits: list[tuple[int, bytes]]) -> None:
    data = bytearray(text.encode())
    for at, chunk in edits:
        i = at % (len(data) + 1)
        data[i:i] = chunk
    _parse_rules(bytes(data))


@FUZZ
@given(st.text(max_size=300) | st.binary(max_size=300))
def test_arbitrary_text_and_bytes_as_house_rules(data: str | bytes) -> None:
    _parse_rules(data)


def _parse_rules(data: str | bytes) -> None:
    try:
        rules = parse_rules_file(data)
    except RulesFileError as e:
        assert "\n" not in str(e), str(e)[:300]
        return
    assert isinstance(rules, Rules)


OPTION_VALUES = st.one_of(
    st.sampled_from(NASTY_VALUES),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=5),
    st.integers(),
    st.integers(min_value=10**4400, max_value=10**4500),
    st.booleans(),
    st.floats(allow_nan=True),
    st.none(),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


@FUZZ
@given(st.dictionaries(st.sampled_from([*OPTIONS, "colour", "x" * 100, "²"]), OPTION_VALUES, max_size=4),
       st.sampled_from(["goat", "pagat", "mas", "koira"]))
def test_with_options_takes_any_value(options: dict[str, object], preset: str) -> None:
    try:
        rules = find_variant(preset).with_options(options, where="options.")
    except RulesError as e:
        assert "\n" not in str(e) and len(str(e)) < 2000, str(e)[:300]
        return
    assert isinstance(rules, Rules)


# -- moves -------------------------------------------------------------------------------------------




@FUZZ
@given(st.lists(MOVE_WORDS, max_size=6).map(" ".join) | st.text(max_size=40))
def test_parse_action(text: str) -> None:
    try:
        action = parse_action(text)
    except ActionParseError as e:
        assert "\n" not in str(e)
        return
    assert isinstance(action, Action)
    assert parse_action(str(action)) == action, "an action's notation reads back to it"


@FUZZ
@given(st.lists(MOVE_WORDS, max_size=6).map(" ".join) | st.text(max_size=40))
def test_parse_cards(text: str) -> None:
    try:
        cards = parse_cards(text)
    except CardParseError as e:
        assert "\n" not in str(e) and len(str(e)) < 300
        return
    assert all(0 <= c < 52 for c in cards)
    assert cards == [parse_card(w) for w in text.replace(",", " ").split()]


# -- the command line, end to end --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "where"),
    [
        (RECORDS[0].encode().replace(b"players = 3", b"players = \xff3"), "line 3, players: "),
        (RECORDS[1].encode().replace(b"\nmoves:\n", b"\nmoves:\n\xc3\n"), "line 8, moves: "),
        (RECORDS[1].replace("moves:\n", "moves:\n" + "9" * 5000 + " pass\n").encode(), "line 8, moves: "),
        (RECORDS[2].replace('seed = "three"', 'seed = "\\ud800"').encode(), "line 5, seed: "),
        (RECORDS[5].replace("rule hand_size = 3", "rule hand_size = ٣").encode(),
         "line 6, rule hand_size: "),
    ],
    ids=["a byte that is not UTF-8", "a move that is not UTF-8", "a 5,000-digit seat", "a surrogate seed",
         "Unicode digits in a rule"],
)
@pytest.mark.parametrize("command", ["replay", "hint"])
def test_the_cli_refuses_nasty_records(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes,
                                       where: str, command: str) -> None:
    path = tmp_path / "nasty.sgr"
    path.write_bytes(data)
    assert main([command, str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"{path}: malformed record: {where}"), err[:300]
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("toml", "words"),
    [
        ('preset = "goat"\n[options]\ndreck_below = ' + "{x = " * 3000 + "1" + "}" * 3000 + "\n",
         "line 3, options.dreck_below: arrays or tables nested too deeply"),
        ("preset = " + "[" * 900 + "]" * 900 + "\n", "line 1, preset: arrays or tables nested too deeply"),
        (b'preset = "goat"\n\xffname = "x"\n', "line 2: not UTF-8"),
    ],
    ids=["deep inline tables", "a deep array just under the recursion limit", "not UTF-8"],
)
def test_the_cli_refuses_nasty_house_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           toml: str | bytes, words: str) -> None:
    path = tmp_path / "nasty.toml"
    path.write_bytes(toml if isinstance(toml, bytes) else toml.encode())
    with pytest.raises(SystemExit) as e:
        main(["rules", "show", str(path)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"skitgubbe rules show: {path}: {words}"), err[:300]
    assert err.count("\n") == 1
