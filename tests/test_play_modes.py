"""``skitgubbe play`` modes through the command (skitgubbe.play.cli.main with scripted ``input``): ``--open``,
``--phase two`` with ``--trump``, ``--from`` a position or a partial deal record (the first screen, and
the record written at the end), argument errors, and the ``?`` key."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from skitgubbe.engine.cards import RANK_CHARS, SUIT_MASKS, SUIT_SYMBOLS, card_label, cards_in, rank_of
from skitgubbe.engine.record import loads, replay
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.play.cli import main
from skitgubbe.play.terminal import SCREEN_TITLE, render_hints

PAGAT = find_variant("pagat")

POSITION = """\
skitgubbe-record = 1
rules = pagat
players = 3
start = phase-two
hand 0 = JH 2C 5D
hand 2 = KH 3C 4C
trump = S
to-act = 0
table = 1 7H | 2 9H      # seat 1 led its last card, seat 2 beat it
kill-at = 3
out-seats = 1
out-of-play = rest
moves:
"""

PARTIAL = """\
skitgubbe-record = 1
rules = pagat
players = 3
dealer = 2
seed = 5
moves:
0 stock
"""


class Feed:
    """A stand-in for ``input``: the answers in order, then ``then`` forever (None: end of input)."""

    def __init__(self, answers: Iterable[str], then: str | None = None) -> None:
        self.answers = list(answers)
        self.then = then
        self.prompts: list[str] = []

    def __call__(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        if self.answers:
            return self.answers.pop(0)
        if self.then is None:
            raise EOFError
        return self.then


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str],
         answers: Iterable[str], *, then: str | None = None) -> tuple[int, str, str, Feed]:
    feed = Feed(answers, then)
    monkeypatch.setattr("builtins.input", feed)
    code = main(["play", *args])
    out, err = capsys.readouterr()
    return code, out, err, feed


def screens(out: str) -> list[str]:
    """The screens drawn for the human, each from its title rule to the next."""
    parts = out.split(SCREEN_TITLE + " · ")
    return parts[1:]


def compact(mask: int) -> str:
    """A hand as the open table shows it: '♣ 4 9 K · ♥ J Q'."""
    parts = []
    for s in range(4):
        ranks = [RANK_CHARS[rank_of(c) - 2] for c in cards_in(mask & SUIT_MASKS[s])]
        if ranks:
            parts.append(SUIT_SYMBOLS[s] + " " + " ".join(ranks))
    return " · ".join(parts)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- --open -----------------------------------------------------------------------------------------


def test_open_shows_every_other_hand(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _, _ = play(monkeypatch, capsys, ["--open", "--seed", "3"], ["q"])
    assert code == 0
    first = screens(out)[0]
    deal = State.new(PAGAT, 3, seed=3, dealer=2)
    assert "All hands are open." in out
    rows = [line for line in first.splitlines() if "holds:" in line]
    assert len(rows) == 2
    for seat, row in zip((1, 2), rows, strict=True):
        assert row.lstrip().startswith(f"Seat {seat}")
        assert row.endswith(f"holds: {compact(deal.hands[seat])}")
    code, out, _, _ = play(monkeypatch, capsys, ["--seed", "3"], ["q"])
    assert code == 0 and "holds:" not in out and "All hands are open." not in out


def test_open_keeps_showing_hands_in_phase_two(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "pos.sgr", POSITION)
    code, out, _, _ = play(monkeypatch, capsys, ["--open", "--from", str(path), "--seed", "1"], ["q"])
    assert code == 0
    first = screens(out)[0]
    assert f"holds: {compact(loads(POSITION).position.hands[2])}" in first  # type: ignore[union-attr]
    assert first.count("holds:") == 1  # seat 1 is out: nothing to show


# -- --phase two --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "rules", "trump", "sizes"), [
    (["--trump", "S"], "pagat", "♠ spades", (18, 17, 17)),
    (["--trump", "h", "--rules", "goat", "--players", "4"], "goat", "♥ hearts", (13, 13, 13, 13)),
])
def test_phase_two_starts_in_phase_two_with_the_trump(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str], args: list[str],
                                                      rules: str, trump: str, sizes: tuple[int, ...]) -> None:
    code, out, _, _ = play(monkeypatch, capsys, ["--phase", "two", "--seed", "8", *args], ["q"])
    assert code == 0
    first = screens(out)[0]
    assert first.startswith(f"{rules} · phase two · lead")
    assert f"Trump: {trump}" in first
    assert f"Your hand ({sizes[0]} cards)" in first
    for seat, n in enumerate(sizes[1:], start=1):
        assert any(line.lstrip().startswith(f"Seat {seat}") and f"{n} in hand" in line
                   for line in first.splitlines()), (seat, n)
    assert f"a trick is killed after {len(sizes)} plays" in first
    assert "Stock:" not in first and "phase one" not in out


def test_phase_two_draws_a_trump_when_not_given(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    seen = set()
    for seed in range(8):
        code, out, _, _ = play(monkeypatch, capsys, ["--phase", "two", "--seed", str(seed)], ["q"])
        assert code == 0 and "phase two · lead" in out
        line = next(line for line in screens(out)[0].splitlines() if line.startswith("Trump: "))
        seen.add(line.split()[1])
    assert len(seen) >= 2 and seen <= set(SUIT_SYMBOLS)


# -- --from ------------------------------------------------------------------------------------------


def test_from_a_position_file_shows_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "pos.sgr", POSITION)
    code, out, _, _ = play(monkeypatch, capsys, ["--from", str(path), "--seed", "1"], ["q"])
    assert code == 0
    assert "You are seat 0; seat 0 to act." in out
    first = screens(out)[0]
    assert first.startswith("pagat · phase two · beat it or pick up")
    assert "Trump: ♠ spades" in first
    assert "Table, bottom first (2 of 3 plays: the next beat kills):" in first
    assert "to beat: 9♥; picking up takes 9♥" in first
    assert "Your hand (3 cards)" in first
    seat1 = next(line for line in first.splitlines() if line.lstrip().startswith("Seat 1"))
    assert seat1.rstrip().endswith("out")
    assert "1) play J♥" in first and "pick up" in first
    assert out.rstrip().endswith("Goodbye: you left the game.")


def test_from_a_partial_deal_record_continues_there(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "partial.sgr", PARTIAL)
    state = replay(loads(PARTIAL))
    turned = next(e.cards for e in state.events if e.kind == "stock")
    code, out, _, _ = play(monkeypatch, capsys, ["--from", str(path), "--seat", "1", "--seed", "2"], ["q"])
    assert code == 0
    assert "You are seat 1; seat 1 to act." in out
    first = screens(out)[0]
    assert first.startswith("pagat · phase one · play to the trick")
    assert f"Stock: {len(state.stock)} cards" in first and len(state.stock) == 42
    assert f"round 1: Seat 0 {card_label(turned.bit_length() - 1)}" in first
    assert "Your hand (3 cards)" in first
    for c in cards_in(state.hands[1]):
        assert card_label(c) in first


def finish_with_ones(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], source: Path,
                     record_dir: Path, seed: int) -> tuple[str, Path]:
    code, out, _, _ = play(monkeypatch, capsys, ["--from", str(source), "--seed", str(seed), "--record",
                                                 str(record_dir)], [], then="1")
    assert code == 0, out
    assert "Game over:" in out
    written = sorted(record_dir.iterdir())
    assert len(written) == 1 and f"Record saved: {written[0]}" in out
    return out, written[0]


def test_record_of_a_game_from_a_position_replays(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    source = write(tmp_path, "pos.sgr", POSITION)
    _, path = finish_with_ones(monkeypatch, capsys, source, tmp_path / "records", 4)
    record = loads(path.read_text(encoding="utf-8"))
    assert record.position == loads(POSITION).position
    state = replay(record)
    assert state.is_over and record.loser == state.loser is not None
    assert main(["replay", str(path)]) == 0
    assert f"loser: seat {state.loser}" in capsys.readouterr().out


def test_record_of_a_game_from_a_partial_deal_replays(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    source = write(tmp_path, "partial.sgr", PARTIAL)
    _, path = finish_with_ones(monkeypatch, capsys, source, tmp_path / "records", 9)
    text = path.read_text(encoding="utf-8")
    assert main(["replay", str(path)]) == 0, capsys.readouterr().err
    record = loads(text)
    assert record.deck == loads(PARTIAL).deck
    assert record.moves[:1] == loads(PARTIAL).moves
    assert replay(record).is_over


# -- argument errors -----------------------------------------------------------------------------------


def test_trump_without_phase_two(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["play", "--trump", "S"])
    assert exc.value.code == 2
    assert "--trump goes with --phase two" in capsys.readouterr().err


@pytest.mark.parametrize("extra", [["--phase", "two"], ["--trump", "D"]])
def test_from_with_phase_or_trump(extra: list[str], tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "pos.sgr", POSITION)
    with pytest.raises(SystemExit) as exc:
        main(["play", "--from", str(path), *extra])
    assert exc.value.code == 2
    assert "--from starts where the record stops" in capsys.readouterr().err


def test_from_a_malformed_file_exits_2(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "bad.sgr", POSITION.replace("hand 2 = KH 3C 4C", "hand 2 = KH 3C JH"))
    code, out, err, feed = play(monkeypatch, capsys, ["--from", str(path)], ["q"])
    assert code == 2
    assert f"{path}: malformed record: line 6, hand 2: J♥ is already in hand 0" in err
    assert feed.prompts == [] and SCREEN_TITLE not in out
    code, _, err, _ = play(monkeypatch, capsys, ["--from", str(tmp_path / "missing.sgr")], ["q"])
    assert code == 2 and "cannot read" in err


def test_from_an_illegal_move_file_exits_1(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "illegal.sgr", POSITION + "0 play 2C\n")
    code, out, err, feed = play(monkeypatch, capsys, ["--from", str(path)], ["q"])
    assert code == 1
    assert "move 1 (line 14): seat 0 play 2C: the 2♣ cannot beat the 9♥; only a higher heart or a trump can" \
        in err
    assert feed.prompts == [] and SCREEN_TITLE not in out


def test_from_a_finished_game_and_a_seat_outside_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    over = ("skitgubbe-record = 1\nrules = pagat\nplayers = 2\nstart = phase-two\nhand 0 = AS\n"
            "hand 1 = 2C\ntrump = S\nto-act = 0\nout-of-play = rest\nmoves:\n0 play AS\n")
    assert replay(loads(over)).is_over
    path = write(tmp_path, "over.sgr", over)
    code, out, _, feed = play(monkeypatch, capsys, ["--from", str(path)], ["q"])
    assert code == 2 and "error: the game in that record is already over" in out
    assert feed.prompts == []
    path = write(tmp_path, "pos.sgr", POSITION)
    with pytest.raises(SystemExit) as exc:
        main(["play", "--from", str(path), "--seat", "3"])
    assert exc.value.code == 2 and "--seat: seats are 0..2" in capsys.readouterr().err


# -- the '?' key ---------------------------------------------------------------------------------------


def test_question_mark_shows_hints_and_changes_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The same game answered with and without '?' first: the only difference is the hints."""
    path = write(tmp_path, "pos.sgr", POSITION)
    args = ["--from", str(path), "--seed", "6"]
    code_a, plain, _, _ = play(monkeypatch, capsys, args, ["1", "1", "q"])
    code_b, hinted, _, feed = play(monkeypatch, capsys, args, ["?", "1", "1", "q"])
    assert code_a == code_b == 0
    block = render_hints(replay(loads(POSITION)), 0)
    assert block.startswith("Moves, and why:")
    assert "yes  play J♥" in block and "you would take 9♥" in block
    assert "no   play 2♣" in block and "the 2♣ cannot beat the 9♥" in block
    assert hinted.count("Moves, and why:") == 1 and block + "\n" in hinted
    assert hinted.replace(block + "\n", "") == plain
    assert plain.count(SCREEN_TITLE + " · ") >= 2  # the game went on after the first move
    assert len(feed.prompts) == 4 and feed.prompts[0] == feed.prompts[1]
