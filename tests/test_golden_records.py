"""Golden records: whole deals pinned move by move, with their narration.

tests/records/ holds, for each deal, ``NAME.sgr`` (a game record, docs/record-format.md), ``NAME.txt``
(the expected narration: one line per event, then the outcome) and ``NAME.legal`` (before each move,
every seat that may act and its legal actions).  Each record is read and replayed through the public
record API (``loads``, ``replay``) and must:

* replay move by move to its end, with the loser its ``loser`` line names;
* be exactly the text ``dumps(record_of(...))`` writes for the replayed deal (under its comment lines);
* still show the event kinds its ``# shows:`` comment lists;
* narrate, line by line, as its NAME.txt says (``helpers.narration_lines``);
* offer, before each move, the legal actions its NAME.legal lists (``helpers.legal_lines``), so a rule
  that allows or forbids one more action fails even where the moves played stay legal.

So a change of any rule, of the record format or of the narration fails here.  When the change is
intended, regenerate the records with ``.venv/bin/python tests/records/make_records.py`` and read the
diff before keeping it.  Together the records cover every preset and the features listed in
:data:`FEATURES`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import legal_lines, narration_lines
from skitgubbe.engine.actions import CHANCE
from skitgubbe.engine.record import ReplayError, dumps, loads, record_of, replay
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS

RECORDS_DIR = Path(__file__).resolve().parent / "records"
RECORDS = sorted(RECORDS_DIR.glob("*.sgr"))
REGENERATE = (".venv/bin/python tests/records/make_records.py (only if the change is intended; "
              "then read `git diff tests/records`)")

FEATURES = {
    "a bounce (stunsa)": "bounce",
    "a war": "war",
    "a sluff": "sluff",
    "the dreck": "dreck",
    "a dreck dealt by chance to several seats": "chance",
    "Koira's split": "split",
    "Koira's tie-deal": "tie-deal",
    "Mas storing three trumps": "store",
    "Mas exchanging the 2 of trumps": "exchange",
    "the avstickshög": "reserve-draw",
    "the last stock card shown when drawn": "trump-drawn",
    "uneven dreck set aside": "dreck-aside",
}
"""What the records must show between them: a description and the event kind that shows it."""


def comment_lines(text: str) -> list[str]:
    """The whole-line comments of a record, without their ``#``."""
    return [line[1:].strip() for line in text.splitlines() if line.startswith("#")]


def shows(text: str) -> set[str]:
    """The event kinds a record's ``# shows: a, b`` comment names."""
    for line in comment_lines(text):
        if line.startswith("shows:"):
            return {k.strip() for k in line[len("shows:"):].split(",") if k.strip()}
    raise AssertionError("the record has no '# shows:' comment")


def shown(state: State) -> set[str]:
    """The event kinds of a deal, and ``"chance"`` if a chance move was made."""
    kinds = {e.kind for e in state.events}
    if any(seat == CHANCE for seat, _ in state.history):
        kinds.add("chance")
    return kinds


def replayed(path: Path) -> tuple[str, State]:
    """The record's text and the state after replaying all its moves; fails naming the move at fault."""
    text = path.read_text(encoding="utf-8")
    try:
        return text, replay(loads(text))
    except ReplayError as e:
        pytest.fail(f"{path.name} no longer replays: {e}.  Regenerate: {REGENERATE}")


def test_the_records_are_there() -> None:
    # every record has its narration and every narration its record; at least one record per preset
    assert RECORDS, f"no records in {RECORDS_DIR}"
    for suffix in (".txt", ".legal"):
        assert {p.stem for p in RECORDS} == {p.stem for p in RECORDS_DIR.glob("*" + suffix)}, suffix
    presets = {loads(p.read_text(encoding="utf-8")).rules.name for p in RECORDS}
    assert set(PRESETS) <= presets, f"no golden record for {sorted(set(PRESETS) - presets)}"


def test_the_records_show_every_feature() -> None:
    claimed = set().union(*(shows(p.read_text(encoding="utf-8")) for p in RECORDS))
    missing = [what for what, kind in FEATURES.items() if kind not in claimed]
    assert not missing, f"no golden record shows {missing}"
    texts = [p.read_text(encoding="utf-8") for p in RECORDS]
    assert any("rule decks = 2" in t for t in texts), "no golden record is played with two packs"
    assert any("protocol = live" in t for t in texts), "no golden record uses the live sluffing protocol"


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_golden_record(path: Path) -> None:
    text, state = replayed(path)
    record = loads(text)
    assert record.loser is not None, f"{path.name} names no loser"
    assert state.is_over and state.loser == record.loser  # (replay checks the loser line too)

    body = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))
    written = dumps(record_of(state, seed=record.seed))
    assert written == body, (f"{path.name}: the record of the replayed deal is no longer written as the "
                             f"file has it.  Regenerate: {REGENERATE}")

    missing = shows(text) - shown(state)
    assert not missing, f"{path.name} no longer shows {sorted(missing)}.  Regenerate: {REGENERATE}"

    same_lines(path.with_suffix(".txt"), narration_lines(state), "the deal narrates")
    same_lines(path.with_suffix(".legal"), legal_lines(record), "the replay offers")


def same_lines(expected_file: Path, got: list[str], what: str) -> None:
    """Asserts that ``got`` is the text of ``expected_file``, line by line (naming the first line that
    differs and the regeneration command)."""
    expected = expected_file.read_text(encoding="utf-8").splitlines()
    for no, (want, have) in enumerate(zip(expected, got, strict=False), start=1):
        assert have == want, (f"{expected_file.name} line {no} differs:\n  expected: {want}\n  {what}: "
                              f"{have}\nRegenerate: {REGENERATE}")
    assert len(got) == len(expected), (f"{expected_file.name} has {len(expected)} lines, {what} "
                                       f"{len(got)}.  Regenerate: {REGENERATE}")
