"""The terminal game (skitgubbe.play.terminal): whole games with scripted answers, rejected inputs,
quitting, hidden information, and the pure rendering/narration functions."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from rich.console import Console, RenderableType

from skitgubbe.bots import make_bot
from skitgubbe.engine.actions import Action, Kind
from skitgubbe.engine.base import Event, Phase
from skitgubbe.engine.cards import card_label, card_name, cards_in, mask_of, parse_card, rank_of
from skitgubbe.engine.record import dumps, loads, record_of, replay
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.engine.view import View, view_of
from skitgubbe.play.terminal import (
    SCREEN_TITLE,
    Session,
    describe_event,
    describe_pass,
    kill_text,
    loser_title,
    ordered_moves,
    pick_up_preview,
    play_game,
    render_hand,
    render_help,
    render_moves,
    render_screen,
    render_seats,
    render_trick,
    seat_names,
)

PAGAT = find_variant("pagat")
GOAT = find_variant("goat")


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=100, force_terminal=False), buf


def _text(renderable: RenderableType) -> str:
    console, buf = _console()
    console.print(renderable)
    return buf.getvalue()


def _cs(*names: str) -> int:
    return mask_of(parse_card(n) for n in names)


_LOSER = re.compile(r"Game over: (?:You are|Seat (\d+) is) (the skitgubbe|the goat)\.")


def _loser_in(text: str, human: int) -> tuple[int, str]:
    m = _LOSER.search(text)
    assert m is not None, text[-2000:]
    return (int(m.group(1)) if m.group(1) else human), m.group(2)


class FirstBot:
    """Always the first legal action: makes hand-built scenarios deterministic."""

    name = "first"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return legal[0]


def _session(state: State, human: int, *, bot: str = "random", seed: int = 0) -> tuple[Session, io.StringIO]:
    console, buf = _console()
    bots = {s: (FirstBot() if bot == "first" else make_bot(bot, random.Random(seed * 100 + s)))
            for s in range(state.players) if s != human}
    session = Session(state, human_seat=human, bots=bots, console=console,
                      read_line=lambda prompt: "q", rng=random.Random(seed))
    return session, buf


def _snapshot(state: State) -> tuple[object, ...]:
    return (len(state.history), tuple(state.hands), state.to_act, tuple(state.stock), len(state.events),
            tuple(state.table), state.pending)


# -- whole games through play_game ------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players", "seed", "title"), [("pagat", 3, 11, "the skitgubbe"),
                                                                 ("goat", 4, 12, "the goat")])
def test_whole_game_answering_1_ends_with_loser_and_record(
    tmp_path: Path, rules: str, players: int, seed: int, title: str
) -> None:
    console, buf = _console()
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return "1"

    code = play_game(find_variant(rules), players, human_seat=1,
                     bot_names=["heuristic", "random"], seed=seed, record_dir=tmp_path / "recs",
                     console=console, read_line=read_line)
    out = buf.getvalue()
    assert code == 0
    assert prompts and all(re.match(r"Your move \[(1-\d+, or e\.g\. 7h|Enter = .+); ", p)
                           for p in prompts)
    assert not any("[1-1," in p for p in prompts)  # one move: "[Enter = ...", never "[1-1"
    loser, word = _loser_in(out, human=1)
    assert word == title
    path = tmp_path / "recs" / f"{rules}-{seed}.sgr"
    assert path.is_file()
    assert f"Record saved: {path}" in out.replace("\n", "")
    record = loads(path.read_text(encoding="utf-8"))
    assert record.seed == seed and record.dealer == players - 1
    assert replay(record).loser == loser == record.loser
    # bots are named by kind, cycled over the other seats in seat order
    assert "Seat 0 (heuristic)" in out and "Seat 2 (random)" in out
    if players == 4:
        assert "Seat 3 (heuristic)" in out


def test_play_game_without_record_dir_writes_nothing(tmp_path: Path) -> None:
    console, buf = _console()
    code = play_game(PAGAT, 2, human_seat=0, bot_names=["random"], seed=3, record_dir=None,
                     console=console, read_line=lambda p: "1")
    assert code == 0
    assert "Record saved" not in buf.getvalue()
    assert list(tmp_path.iterdir()) == []


def test_record_write_failure_returns_1(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    console, buf = _console()
    code = play_game(PAGAT, 2, human_seat=0, bot_names=["random"], seed=3, record_dir=blocker,
                     console=console, read_line=lambda p: "1")
    assert code == 1
    assert "could not write the record" in buf.getvalue()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"human_seat": 3}, "there is no seat 3"),
    ({"bot_names": ["nobody"]}, "no bot called 'nobody'"),
    ({"bot_names": []}, "give at least one bot name"),
    ({"players": 9}, "pagat is for 2 to 4 players"),
])
def test_bad_configuration_prints_one_error_line_and_returns_2(
    kwargs: dict[str, object], message: str
) -> None:
    console, buf = _console()
    args: dict[str, object] = {"human_seat": 0, "bot_names": ["random"]}
    args.update(kwargs)
    players = int(args.pop("players", 3))  # type: ignore[call-overload]
    code = play_game(PAGAT, players, seed=1, record_dir=None, console=console,
                     read_line=lambda p: "1", **args)  # type: ignore[arg-type]
    assert code == 2
    out = buf.getvalue().strip()
    assert out.startswith("error: ") and message in out and "\n" not in out


# -- quitting -------------------------------------------------------------------------------


def _quit_with(behaviour: Callable[[str], str]) -> tuple[int, str]:
    console, buf = _console()
    code = play_game(GOAT, 3, human_seat=0, bot_names=["random"], seed=5, record_dir=None,
                     console=console, read_line=behaviour)
    return code, buf.getvalue()


def test_q_quits_with_0() -> None:
    code, out = _quit_with(lambda p: "q")
    assert code == 0
    assert out.rstrip().endswith("Goodbye: you left the game.")


def test_ctrl_c_quits_with_130_without_traceback() -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    code, out = _quit_with(interrupt)
    assert code == 130
    assert out.rstrip().endswith("Interrupted: goodbye.")
    assert "Traceback" not in out


def test_end_of_input_quits_with_0() -> None:
    def eof(prompt: str) -> str:
        raise EOFError

    code, out = _quit_with(eof)
    assert code == 0
    assert out.rstrip().endswith("End of input: goodbye.")


@pytest.mark.parametrize("leave", ["quit", KeyboardInterrupt, EOFError])
def test_quitting_saves_the_unfinished_record_that_hint_and_from_continue(
    tmp_path: Path, leave: str | type[BaseException], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 16, item 8: leaving a game (q, Ctrl-C, end of input) with --record saves the record so far,
    says where, and `skitgubbe hint` and `skitgubbe play --from` go on from it."""
    from skitgubbe.play.cli import main

    answers = iter(["1"] * 5 + [leave])

    def read_line(prompt: str) -> str:
        answer = next(answers)
        if not isinstance(answer, str):
            raise answer
        return answer

    console, buf = _console()
    code = play_game(PAGAT, 3, human_seat=2, bot_names=["random", "heuristic"], seed=4, record_dir=tmp_path,
                     console=console, read_line=read_line)
    out = buf.getvalue()
    assert code == (130 if leave is KeyboardInterrupt else 0)
    path = tmp_path / "pagat-4-unfinished.sgr"
    assert list(tmp_path.iterdir()) == [path]
    assert f"Unfinished game saved: {path}" in out
    assert f"skitgubbe play --from {path} --seat 2 --bots random,heuristic" in " ".join(out.split())
    record = loads(path.read_text(encoding="utf-8"))
    state = replay(record)
    assert not state.is_over and record.seed == 4 and state.to_act == 2
    assert len([1 for s, _ in record.moves if s == 2]) == 5  # the five moves made, nothing lost
    capsys.readouterr()
    assert main(["hint", str(path)]) == 0
    hint = capsys.readouterr().out
    assert hint.startswith("seat 2, phase one:") and "yes  play" in hint
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    assert main(["play", "--from", str(path), "--seat", "2", "--seed", "5"]) == 0
    assert "seat 2 to act" in capsys.readouterr().out


def test_a_finished_game_is_saved_under_its_own_name_only(tmp_path: Path) -> None:
    console, buf = _console()
    assert play_game(PAGAT, 2, human_seat=0, bot_names=["random"], seed=3, record_dir=tmp_path,
                     console=console, read_line=lambda p: "1") == 0
    assert [p.name for p in tmp_path.iterdir()] == ["pagat-3.sgr"]
    assert "Unfinished" not in buf.getvalue()


# -- rejected inputs ------------------------------------------------------------------------------


def test_rejected_inputs_print_the_reason_and_leave_the_state_alone() -> None:
    state = State.new(PAGAT, 3, seed=21, dealer=2)
    session, buf = _session(state, human=0)
    hand = state.hands[0]
    not_held = next(c for c in range(52) if not hand >> c & 1)
    held = next(iter(cards_in(hand)))
    script = [
        ("xyz", "Not accepted: 'xyz' is neither a card nor a move"),
        ("0", "Not accepted: there is no move 0: choose a number from 1 to 4"),
        ("99", "Not accepted: there is no move 99: choose a number from 1 to 4"),
        ("", "Not accepted: type a move number 1-4"),
        (card_name(not_held).lower(), f"Not accepted: you do not hold {card_label(not_held)}"),
        (f"sluff {card_name(held)}", "Not accepted: these rules have no sluffing"),
        ("pick", "Not accepted: there is nothing to pick up in phase one"),
        ("play 2c 2c", "Not accepted: a card appears twice"),
        ("dreck 2c", "Not accepted: the dreck is dealt by chance, not by a seat"),
        ("pass", "Not accepted: you have no sluff window open"),
        ("h", "Phase two: lead any card; then beat the top play"),
        ("t", SCREEN_TITLE),
    ]
    before = _snapshot(state)
    calls = iter(range(len(script) + 1))

    def read_line(prompt: str) -> str:
        i = next(calls)
        out = buf.getvalue()
        if i:
            _, expected = script[i - 1]
            assert expected in " ".join(out.split())  # (wrapped between words at the console's width)
            if expected.startswith("Not accepted"):
                assert out.count("Not accepted") == 1 and out.startswith("Not accepted")  # the reason alone
            assert _snapshot(state) == before
        buf.seek(0)
        buf.truncate()
        return script[i][0] if i < len(script) else "q"

    session.read_line = read_line
    assert session.run() == 0
    assert _snapshot(state) == before
    assert "Goodbye" in buf.getvalue()


def test_goat_must_match_is_explained_and_changes_nothing() -> None:
    """Search seeded goat games for a moment where the human must match and type another card."""
    found = []
    for seed in range(30):
        state = State.new(GOAT, 4, seed=seed, dealer=3)
        session, buf = _session(state, human=1, seed=seed)
        pending: dict[str, object] = {}

        def read_line(prompt: str, state: State = state, buf: io.StringIO = buf,
                      pending: dict[str, object] = pending) -> str:
            if pending:
                assert _snapshot(state) == pending["snap"]
                line = buf.getvalue().splitlines()[-1]
                found.append(line)
                return "q"
            legal = state.legal_actions(1)
            playable = 0
            for a in legal:
                if a.kind is Kind.PLAY:
                    playable |= a.cards
            other = state.hands[1] & ~playable
            if state.phase == Phase.ONE and not state.pending and playable and other:
                pending["snap"] = _snapshot(state)
                return card_name(other.bit_length() - 1).lower()
            return "1"

        session.read_line = read_line
        assert session.run() == 0
        if found:
            break
    assert found, "no must-match situation in 30 seeded goat games"
    assert re.fullmatch(r"Not accepted: you must match the (\w+): you hold .+", found[0])


def test_phase_two_rejections_and_table_pagat() -> None:
    # trump hearts; seat 0 leads 7♠ (its first legal action), seat 2 cannot beat and picks up.
    hands = [_cs("7S", "8S"), _cs("3D", "9S", "KH", "2S"), _cs("4C", "5C")]
    state = State.from_phase_two(PAGAT, hands, trump_suit=2, leader=0)
    session, buf = _session(state, human=1, bot="first")
    answers = iter(["3d", "2s", "5c", "play 9s kh", "stock", "9s", "q"])
    screens: list[str] = []

    def read_line(prompt: str) -> str:
        screens.append(buf.getvalue())
        buf.seek(0)
        buf.truncate()
        return next(answers)

    session.read_line = read_line
    assert session.run() == 0
    first = screens[0]
    assert "Seat 0 leads 7♠" in first
    assert "1 of 3 plays: 2 more beats kill" in first
    assert "1. Seat 0 led  7♠" in first and "picking up takes 7♠" in first
    assert "♥ hearts    K♥   ← trump" in first
    assert "Not accepted: the 3♦ cannot beat the 7♠; only a higher spade or a trump can" in screens[1]
    assert "Not accepted: the 2♠ cannot beat the 7♠" in screens[2]
    assert "Not accepted: you do not hold 5♣" in screens[3]
    assert "Not accepted: these rules allow one card per play in phase two" in screens[4]
    assert "Not accepted: there is no stock in phase two" in screens[5]
    after = screens[6]
    assert "You beat with 9♠" in after
    assert "Seat 2 picks up 9♠" in after
    assert "Seat 0 beats with 8♠" in after
    assert "2 of 3 plays: the next beat kills" in after
    assert "2. Seat 0 beat 8♠" in after


def test_phase_two_runs_and_eating_the_lowest_run_goat() -> None:
    hands = [_cs("2D", "3D", "AS"), _cs("4D", "5D", "6D", "8H", "KS"), _cs("QC", "KC")]
    state = State.from_phase_two(GOAT, hands, trump_suit=3, leader=0)
    session, buf = _session(state, human=1, bot="first")
    answers = iter(["play 4d 6d", "4d 5d 6d", "ks", "pick", "q"])
    screens: list[str] = []

    def read_line(prompt: str) -> str:
        screens.append(buf.getvalue())
        buf.seek(0)
        buf.truncate()
        return next(answers)

    session.read_line = read_line
    assert session.run() == 0
    assert "Seat 0 leads 2♦" in screens[0]
    assert "Not accepted: a play is one card or a run of touching cards of one suit" in screens[1]
    later = screens[2]
    assert "You beat with 4♦ 5♦ 6♦" in later
    assert "Seat 2 picks up 2♦" in later
    assert "Seat 0 beats with A♠" in later
    assert "2 of 3 plays: the next beat kills" in later
    assert "picking up takes 4♦ 5♦ 6♦" in later
    assert "Not accepted: the K♠ cannot beat the A♠; only a higher trump can" in screens[3]
    assert "You pick up 4♦ 5♦ 6♦" in screens[4]


# -- whole games through Session: typed answers and hidden information -----------------------------


def _typed(action: Action, legal: Sequence[Action], n: int) -> str:
    """Action notation as a person would type it, in a few styles."""
    if action.kind is Kind.PLAY and action.cards.bit_count() == 1:
        return card_name(action.cards.bit_length() - 1).lower()
    if action.kind is Kind.SLUFF and n % 4 == 1 and Action(Kind.PLAY, action.cards) not in legal:
        return card_name(action.cards.bit_length() - 1).lower()  # a bare card that can only be sluffed
    return str(action) if n % 2 else str(action).upper()


@pytest.mark.parametrize(("rules", "players", "human", "seed"), [("pagat", 3, 0, 2), ("goat", 4, 2, 25),
                                                                 ("goat", 5, 4, 8)])
def test_typed_answers_and_no_hidden_card_is_ever_shown(rules: str, players: int, human: int,
                                                        seed: int) -> None:
    state = State.new(find_variant(rules), players, seed=seed, dealer=players - 1)
    session, buf = _session(state, human=human, seed=seed)
    expected: list[Action] = []
    checked = [0]

    def read_line(prompt: str) -> str:
        out = buf.getvalue()
        screen = out[out.rindex(SCREEN_TITLE):]
        hidden = 0
        for s in range(players):
            if s != human:
                hidden |= state.hands[s] & ~state.known[s]
        for c in state.stock:
            hidden |= 1 << c
        if not state.trump_known and state.trump_card >= 0:
            hidden |= 1 << state.trump_card
        for c in cards_in(hidden):
            assert card_label(c) not in screen, (card_label(c), screen)
        checked[0] += 1
        legal = ordered_moves(state.legal_actions(human), view_of(state, human).trump_suit)  # as numbered
        n = len(expected)
        action = legal[n % len(legal)] if n % 3 else legal[0]
        expected.append(action)
        return str(legal.index(action) + 1) if n % 2 == 0 else _typed(action, legal, n)

    session.read_line = read_line
    assert session.run() == 0
    assert [a for s, a in state.history if s == human] == expected
    assert checked[0] == len(expected) > 5
    out = buf.getvalue()
    loser, _ = _loser_in(out, human)
    assert state.loser == loser
    assert "Not accepted" not in out


def _simulate_answering_1(rules: str, players: int, human: int, seed: int) -> State:
    """The game a Session from :func:`_session` plays when the human always answers 1,
    without rendering anything (to pick seeds quickly)."""
    state = State.new(find_variant(rules), players, seed=seed, dealer=players - 1)
    bots = {s: make_bot("random", random.Random(seed * 100 + s)) for s in range(players) if s != human}
    rng = random.Random(seed)
    while not state.is_over:
        s = state.to_act
        if s < 0:
            state.apply(state.chance_action(rng), s)
        elif s == human:
            state.apply(state.legal_actions(s)[0], s)
        else:
            state.apply(bots[s].choose(view_of(state, s), state.legal_actions(s)), s)
    return state


def test_several_needy_seats_get_counts_not_cards() -> None:
    """A goat game where the dreck is shared by two seats, one of them the human's."""
    def shared(state: State) -> bool:
        dealt = [e for e in state.events if e.kind == "dreck-dealt"]
        return bool(dealt) and len(dealt[0].seats) > 1 and 0 in dealt[0].seats

    seed = next(sd for sd in range(300) if shared(_simulate_answering_1("goat", 4, 0, sd)))
    state = State.new(GOAT, 4, seed=seed, dealer=3)
    session, buf = _session(state, human=0, seed=seed)
    session.read_line = lambda p: "1"
    assert session.run() == 0
    assert shared(state)
    dealt = [e for e in state.events if e.kind == "dreck-dealt"]
    out = buf.getvalue()
    start = out.index("the dreck (17 cards: every 2 to 5 and the 6")
    part = out[start:out.index("Phase two:", start)]
    assert "The dreck is shuffled and dealt: " in part
    assert re.search(r"You receive \d+ cards of the dreck: ", part)
    other = next(s for s in dealt[0].seats if s != 0)
    # the other seat's share is never named: replay up to the deal to learn it
    record = loads(dumps(record_of(state)))
    deal = next(i for i, (_, a) in enumerate(state.history) if a.kind is Kind.DRECK)
    after = replay(record, upto=deal + 1)
    dealt_part = part[part.index("The dreck is shuffled"):]
    for c in cards_in(after.hands[other] & after.dreck):
        assert card_label(c) not in dealt_part


def test_abandoned_game_says_nobody_loses() -> None:
    state = State.new(PAGAT, 3, seed=1, dealer=2, action_limit=4)
    session, buf = _session(state, human=0)
    session.read_line = lambda p: "1"
    assert session.run() == 0
    out = buf.getvalue()
    assert "The deal is abandoned at the action limit: nobody loses" in out
    assert "Game over: nobody loses." in out


def test_in_a_sluff_window_a_bare_card_sluffs_and_plays_must_wait() -> None:
    for seed in range(50):
        state = State.new(GOAT, 3, seed=seed, dealer=2)
        rng = random.Random(seed)
        while state.phase == Phase.ONE and not (state.to_act == 0 and state.pending >> 0 & 1):
            state.apply(rng.choice(state.legal_actions()))
        if state.phase == Phase.ONE:
            break
    else:  # pragma: no cover
        pytest.fail("no sluff window for seat 0")
    session, _ = _session(state, human=0)
    view = view_of(state, 0)
    sluff = next(a for a in view.legal if a.kind is Kind.SLUFF)
    card = card_name(sluff.cards.bit_length() - 1)
    before = _snapshot(state)
    assert session.resolve(card.lower(), view) == (sluff, "")
    assert session.resolve(f"sluff {card}", view) == (sluff, "")
    assert session.resolve(f"play {card}", view) == (
        None, "the trick waits for sluffs: sluff a card of a rank already in the trick, or pass")
    assert session.resolve("stock", view)[1].startswith("the trick waits for sluffs")
    assert session.resolve("pass", view) == (Action(Kind.PASS), "")
    assert _snapshot(state) == before


def test_a_bot_choosing_an_illegal_action_is_a_bug() -> None:
    class Cheat:
        name = "cheat"

        def choose(self, view: View, legal: Sequence[Action]) -> Action:
            return Action(Kind.PICK_UP)

    state = State.new(PAGAT, 2, seed=1, dealer=0)  # seat 1 leads: the bot at seat 1 moves first
    console, _ = _console()
    session = Session(state, human_seat=0, bots={1: Cheat()}, console=console,
                      read_line=lambda p: "1", rng=random.Random(1))
    with pytest.raises(ValueError, match="not legal"):
        session.run()


# -- pure rendering ----------------------------------------------------------------------------


def _bounce_state() -> State:
    """pagat, 3 seats, dealer 2: seat 0 is dealt 7♥ first and seat 1 7♣, so they bounce."""
    first = ["7H", "7C", "2D", "9S", "3C", "4D", "KH", "5S", "6C"]
    rest = [c for c in range(52) if c not in {parse_card(x) for x in first}]
    deck = [parse_card(x) for x in first] + rest
    return State.new(PAGAT, 3, deck=deck, dealer=2)


def test_render_trick_phase_one_bounce_rounds_kept_separate() -> None:
    state = _bounce_state()
    state.apply(Action(Kind.PLAY, _cs("7H")), 0)
    state.apply(Action(Kind.PLAY, _cs("7C")), 1)
    assert [e.kind for e in state.events if e.kind not in ("deal", "draw")] == ["play", "play", "bounce"]
    view = view_of(state, 1)
    text = _text(render_trick(view))
    assert "Trick: Seat 0 leads to You" in text
    assert "round 1: Seat 0 7♥ · You 7♣   → bounce: Seat 0 and You play again" in text
    assert "still to play this round: Seat 0, You" in text
    assert describe_event(state.events[-1], seat_names(3, 1), PAGAT) == (
        "Bounce (stunsa): Seat 0 and You tie for the highest card and play again, Seat 0 first")
    seats = _text(render_seats(view, ["Seat 0 (random)", "You", "Seat 2 (random)"]))
    assert "Stock: 41 cards" in seats
    assert "the last stock card will be set aside face down" in seats
    assert re.search(r"Seat 2 \(random\)\s+3 in hand · pile 0", seats)


def test_render_hand_grouped_sorted_with_trump_last() -> None:
    hands = [_cs("KS", "2C", "TH", "3H", "9C", "AD"), _cs("4C"), _cs("5C")]
    state = State.from_phase_two(PAGAT, hands, trump_suit=2, leader=0)
    lines = _text(render_hand(view_of(state, 0))).splitlines()
    assert lines[0] == "Your hand (6 cards):"
    assert lines[1].split() == ["♣", "clubs", "2♣", "9♣"]
    assert lines[2].split() == ["♦", "diamonds", "A♦"]
    assert lines[3].split() == ["♠", "spades", "K♠"]
    assert lines[4].split() == ["♥", "hearts", "3♥", "T♥", "←", "trump"]
    seats = _text(render_seats(view_of(state, 1), seat_names(3, 1)))
    assert "Trump: ♥ hearts" in seats


def test_render_hand_phase_one_has_no_trump_mark() -> None:
    text = _text(render_hand(view_of(_bounce_state(), 0)))
    assert "trump" not in text and "7♥" in text


def test_render_hand_empty_and_no_moves() -> None:
    state = State.from_phase_two(PAGAT, [0, _cs("4C"), _cs("5C")], trump_suit=2, leader=1)
    view = view_of(state, 0)
    assert _text(render_hand(view)).strip() == "Your hand (0 cards): none"
    assert _text(render_moves([])) == ""
    assert re.search(r"You\s+out", _text(render_seats(view, seat_names(3, 0))))


def test_render_seats_names_the_trump_holder_and_known_cards() -> None:
    state = State.new(PAGAT, 3, seed=9, dealer=2)
    rng = random.Random(0)
    while state.trump_holder < 0:
        state.apply(rng.choice(state.legal_actions()))
    holder = state.trump_holder
    names = seat_names(3, 0)
    text = _text(render_seats(view_of(state, 0), names))
    verb = "hold" if holder == 0 else "holds"
    assert f"Trump: not yet known — {names[holder]} {verb} the face-down trump card" in text
    assert "face-down trump card" in text.splitlines()[1 + holder]
    while state.phase != Phase.TWO and not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    if state.phase == Phase.TWO:
        text = _text(render_seats(view_of(state, 0), names))
        assert "known: " in text
        assert "Stock" not in text


def test_render_moves_numbers_labels() -> None:
    legal = [Action(Kind.PLAY, _cs("7H")), Action(Kind.STOCK), Action(Kind.SLUFF, _cs("2C")),
             Action(Kind.PASS), Action(Kind.PICK_UP), Action(Kind.PLAY, _cs("5D", "6D"))]
    text = _text(render_moves(legal))
    for i, a in enumerate(legal, start=1):
        assert f"{i}) {a.label()}" in text


def test_render_screen_sluff_window_title_and_must_match_hint() -> None:
    found = False
    for seed in range(20):
        state = State.new(GOAT, 3, seed=seed, dealer=2)
        rng = random.Random(seed)
        while state.phase == Phase.ONE:
            s = state.to_act
            view = view_of(state, s)
            if s in view.sluff_window:
                text = _text(render_screen(view, seat_names(3, s)))
                assert "sluff a card of a rank in the trick, or pass" in text
                found = True
            cur = view.rounds[-1] if view.rounds else ()
            if not view.sluff_window and cur and view.round_seats:
                high = max(rank_of(c) for _, c in cur)
                if any(rank_of(c) == high for c in cards_in(view.hand)):
                    text = _text(render_trick(view))
                    assert "(match if you can): you hold" in text and "so you must match" in text
            state.apply(rng.choice(state.legal_actions()), s)
        if found:
            break
    assert found


def test_kill_text_and_pick_up_preview() -> None:
    assert kill_text(2, 3) == "2 of 3 plays: the next beat kills"
    assert kill_text(1, 4) == "1 of 4 plays: 3 more beats kill"
    hands = [_cs("3C", "AH"), _cs("4C", "5C", "KD"), _cs("6C", "8C", "9C", "QD"), _cs("2S")]
    state = State.from_phase_two(GOAT, hands, trump_suit=2, leader=0)
    state.apply(Action(Kind.PLAY, _cs("3C")))
    state.apply(Action(Kind.PLAY, _cs("4C", "5C")))
    state.apply(Action(Kind.PLAY, _cs("8C", "9C")))
    assert state.to_act == 3
    # goat eats the lowest run, across plays: 3♣ 4♣ 5♣ (8♣ does not touch it)
    assert pick_up_preview(view_of(state, 3)) == _cs("3C", "4C", "5C")
    assert "3 of 4 plays: the next beat kills" in _text(render_trick(view_of(state, 3)))
    p2 = State.from_phase_two(PAGAT, [_cs("3C", "AH"), _cs("6C", "KD"), _cs("8C", "QD")],
                              trump_suit=2, leader=0)
    assert pick_up_preview(view_of(p2, 0)) == 0
    p2.apply(Action(Kind.PLAY, _cs("3C")))
    p2.apply(Action(Kind.PLAY, _cs("6C")))
    assert pick_up_preview(view_of(p2, 2)) == _cs("6C")  # pagat: the top card only
    assert "Table: empty" not in _text(render_trick(view_of(p2, 2)))


def test_render_trick_empty_table_and_game_over() -> None:
    state = State.from_phase_two(PAGAT, [_cs("3C"), _cs("6C", "KD"), _cs("8C")], trump_suit=2, leader=1)
    assert "Table: empty, You to lead (a trick is killed after 3 plays)" in _text(
        render_trick(view_of(state, 1)))
    over = State.from_phase_two(PAGAT, [_cs("3C"), 0, 0], trump_suit=2, leader=0)
    assert over.is_over
    assert _text(render_trick(view_of(over, 0))).strip() == ""


def test_help_mentions_the_rules() -> None:
    goat = render_help(GOAT)
    assert "Match if you can" in goat and "Sluff" in goat and "run of touching cards" in goat
    assert "lowest run" in goat and "the goat" in goat
    pagat = render_help(PAGAT)
    assert "Match if you can" not in pagat and "Sluff" not in pagat and "the top play." in pagat
    assert "the skitgubbe" in pagat


# -- narration ------------------------------------------------------------------------------------

NAMES = ["Seat 0", "You", "Seat 2", "Seat 3"]


@pytest.mark.parametrize(("event", "text"), [
    (Event("play", 0, _cs("7H")), "Seat 0 plays 7♥"),
    (Event("play", 1, _cs("7H")), "You play 7♥"),
    (Event("stock", 2, _cs("9C")), "Seat 2 turns up 9♣ from the stock and plays it"),
    (Event("stock", 1, _cs("9C")), "You turn up 9♣ from the stock and play it"),
    (Event("sluff", 1, _cs("7C")), "You sluff 7♣"),
    (Event("bounce", 0, 0, (0, 1)),
     "Bounce (stunsa): Seat 0 and You tie for the highest card and play again, Seat 0 first"),
    (Event("war", 2, 0, (2, 3, 1)),
     "War: Seat 2, Seat 3 and You tie for the highest card and play again, Seat 2 first"),
    (Event("win", 3, _cs("7H", "9D", "2C")), "Seat 3 wins the trick (3 cards: 2♣ 9♦ 7♥)"),
    (Event("win", 1, _cs("7H")), "You win the trick (1 card: 7♥)"),
    (Event("end-one", 2), "End of phase one: Seat 2 has no card to play"),
    (Event("end-one", 1), "End of phase one: You have no card to play"),
    (Event("take-back", 0, _cs("AH", "AS")), "Seat 0 takes back A♥ A♠ from the unfinished trick"),
    (Event("exposed", 2, _cs("4C", "9C")), "Seat 2 shows the cards left in hand: 4♣ 9♣"),
    (Event("trump", 2, _cs("7H"), (2,)),
     "Trump revealed: ♥ hearts (Seat 2 adds the trump card 7♥ to the hand)"),
    (Event("trump", 1, _cs("2S"), (3,)),
     "Trump revealed: ♠ spades (You add the trump card 2♠ to the hand)"),
    (Event("trump", 2, 0, (0,)), "Trump revealed: ♣ clubs (Seat 2 adds the trump card to the hand)"),
    (Event("dreck", -1, _cs("2C", "3C", "4C", "5C", "2D", "3D", "4D", "5D", "2H", "3H", "4H", "5H",
                             "2S", "3S", "4S", "5S", "6H"), (2,)),
     "Seat 2 has fewer than 6 cards: the dreck (17 cards: every 2 to 5 and the 6♥) is collected"),
    (Event("dreck", -1, _cs("2C"), (1, 3)), "You and Seat 3 have fewer than 6 cards"),
    (Event("dreck-dealt", -1, 0, (2,)), "Seat 2 receives the whole dreck (17 cards)"),
    (Event("dreck-dealt", -1, 0, (1,)), "You receive the whole dreck (17 cards)"),
    (Event("dreck-dealt", -1, 0, (3, 1)), "The dreck is shuffled and dealt: Seat 3 9 cards, You 8 cards"),
    (Event("dreck-dealt", -1, 0, (0, 1, 2)),
     "The dreck is shuffled and dealt: Seat 0 6 cards, You 6 cards, Seat 2 5 cards"),
    (Event("lead", 0, _cs("5D", "6D", "7D")), "Seat 0 leads 5♦ 6♦ 7♦"),
    (Event("beat", 1, _cs("QH")), "You beat with Q♥"),
    (Event("pick-up", 2, _cs("5D", "6D")), "Seat 2 picks up 5♦ 6♦"),
    (Event("kill", 3, _cs("5D", "6D", "9S")), "Seat 3 kills the trick: 3 cards out of play"),
    (Event("three-cards", 0), "Seat 0: “three cards”"),
    (Event("one-card", 1), "You: “one card”"),
    (Event("out", 2), "Seat 2 is out"),
    (Event("out", 1), "You are out"),
    (Event("loser", 2), "Seat 2 is the goat"),
    (Event("loser", 1), "You are the goat"),
    (Event("abandoned"), "The deal is abandoned at the action limit: nobody loses"),
])
def test_describe_event(event: Event, text: str) -> None:
    dreck = _cs("2C", "3C", "4C", "5C", "2D", "3D", "4D", "5D", "2H", "3H", "4H", "5H",
                "2S", "3S", "4S", "5S", "6H")
    line = describe_event(event, NAMES, GOAT, dreck=dreck)
    assert line is not None and line.startswith(text)


def test_describe_event_pagat_loser_unknown_kind_and_no_dreck_size() -> None:
    assert describe_event(Event("loser", 0), NAMES, PAGAT) == "Seat 0 is the skitgubbe"
    assert describe_event(Event("nonsense", 0), NAMES, PAGAT) is None
    assert describe_event(Event("dreck-dealt", -1, 0, (0, 2)), NAMES, GOAT) == (
        "The dreck is shuffled and dealt to Seat 0 and Seat 2")
    assert describe_event(Event("dreck-dealt", -1, 0, (0,)), NAMES, GOAT) == "Seat 0 receives the whole dreck"
    assert loser_title(PAGAT) == "the skitgubbe" and loser_title(GOAT) == "the goat"


def test_describe_pass() -> None:
    assert describe_pass(NAMES, [2]) == "Seat 2 passes (no sluff)"
    assert describe_pass(NAMES, [1]) == "You pass (no sluff)"
    assert describe_pass(NAMES, [0, 2, 3]) == "Seat 0, Seat 2 and Seat 3 pass (no sluff)"


def test_seat_names() -> None:
    assert seat_names(3, 1) == ["Seat 0", "You", "Seat 2"]


def test_double_deck_hand_shows_both_copies_and_a_typed_name_plays_the_copy_held() -> None:
    # Flurst / Howell, "Double Deck": twins are the same card (rulings DD1, DD2).  The second pack's
    # copy of a card is card + 52; the screen shows both copies and "9d" plays whichever is held.
    rules = GOAT.replace(decks=2, dreck_below=12)
    second = 52
    hands = [_cs("2D", "AS"), _cs("5C", "6C", "7C") | (_cs("6C", "9D") << second), _cs("QC", "KC")]
    state = State.from_phase_two(rules, hands, trump_suit=2, leader=1)
    session, buf = _session(state, human=1, bot="first")
    answers = iter(["6c 6c", "9d", "q"])
    screens: list[str] = []

    def read_line(prompt: str) -> str:
        screens.append(buf.getvalue())
        buf.seek(0)
        buf.truncate()
        return next(answers)

    session.read_line = read_line
    assert session.run() == 0
    assert "♣ clubs     5♣ 6♣ 6♣ 7♣" in screens[0]
    assert "Not accepted: a card appears twice in '6c 6c'" in screens[1]
    assert "the copies of a card never touch" in " ".join(screens[1].split())
    assert "You lead 9♦" in screens[2]
    assert state.history[0] == (1, Action(Kind.PLAY, 1 << (parse_card("9D") + second)))
