"""Hints (skitgubbe.play.hint and ``skitgubbe hint``): every legal move with why, every card that may not
be played with why not, for concrete positions written as records.

Phase two follows pagat.com Skitgubbe, "Play in the second phase" (beat with a higher card of the
suit or a trump; pick up only the top card) and the Swedish Goat Game / Flurst page, "Following a
trick" (runs; eat the lowest run).  Phase one follows Dave Howell's Swedish Goat Game page, "The First
Part" (match if you can, sluffing) and pagat.com, "Play in the first phase".
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from helpers import PICK, STOCK, stack_deck
from skitgubbe.engine.actions import Action, Kind, parse_action
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import card_name
from skitgubbe.engine.record import loads, replay, start_state
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.play.cli import main
from skitgubbe.play.hint import Hint, hints


def position(rules: str, hands: dict[int, str], *, trump: str, to_act: int, table: str = "",
             kill_at: int | None = None, players: int | None = None, moves: str = "") -> str:
    """A phase-two position record; cards in no hand and not on the table are out of play."""
    n = players if players is not None else max(hands) + 1
    lines = ["skitgubbe-record = 1", f"rules = {rules}", f"players = {n}", "start = phase-two"]
    lines += [f"hand {s} = {h}" for s, h in sorted(hands.items())]
    lines += [f"trump = {trump}", f"to-act = {to_act}", "out-of-play = rest"]
    if table:
        lines.append(f"table = {table}")
    if kill_at is not None:
        lines.append(f"kill-at = {kill_at}")
    lines += ["moves:", *(m.strip() for m in moves.splitlines() if m.strip())]
    return "\n".join(lines) + "\n"


def state_of(text: str) -> State:
    return replay(loads(text))


def table_of(found: list[Hint]) -> list[tuple[str, bool, str]]:
    return [(str(h.action), h.legal, h.reason) for h in found]


def deck(hands: list[str], stock: str = "", *, dealer: int) -> str:
    """A record's deck line (text) dealing ``hands`` with ``stock`` on top (:func:`helpers.stack_deck`)."""
    return " ".join(card_name(c) for c in stack_deck(hands, stock, dealer=dealer))


# -- phase two: beating -----------------------------------------------------------------------------


def test_beats_same_suit_trump_and_the_exact_illegal_text() -> None:
    s = state_of(position("pagat", {0: "3C 9D QD 2S 7S", 1: "4H 5H", 2: "6H"}, trump="S", to_act=0,
                          table="2 JD"))
    assert table_of(hints(s)) == [
        ("play QD", True, "Q♦ beats the J♦: a higher diamond"),
        ("play 2S", True, "2♠ is a trump: it beats any diamond"),
        ("play 7S", True, "7♠ is a trump: it beats any diamond"),
        ("pick", True, "instead of beating you may always pick up: you would take J♦"),
        ("play 3C", False, "the 3♣ cannot beat the J♦; only a higher diamond or a trump can"),
        ("play 9D", False, "the 9♦ cannot beat the J♦; only a higher diamond or a trump can"),
    ]
    assert hints(s, 0) == hints(s)


def test_on_a_trump_only_a_higher_trump_beats() -> None:
    s = state_of(position("pagat", {0: "4H 3S 7S AD", 1: "2C 3C", 2: "4C"}, trump="S", to_act=0,
                          table="1 5D | 2 6S"))
    assert table_of(hints(s)) == [
        ("play 7S", True, "7♠ beats the 6♠: a higher spade; it is play 3 of 3: it kills the trick"),
        ("pick", True, "instead of beating you may always pick up: you would take 6♠"),  # the top card only
        ("play AD", False, "the A♦ cannot beat the 6♠; only a higher trump can"),
        ("play 4H", False, "the 4♥ cannot beat the 6♠; only a higher trump can"),
        ("play 3S", False, "the 3♠ cannot beat the 6♠; only a higher trump can"),
    ]


def test_kill_note_only_on_the_killing_play() -> None:
    text = position("pagat", {0: "QD 5C", 1: "4H 5H", 2: "6H"}, trump="S", to_act=0, table="2 JD",
                    kill_at=3)
    assert hints(state_of(text))[0].reason == "Q♦ beats the J♦: a higher diamond"
    text = text.replace("kill-at = 3", "kill-at = 2")
    assert hints(state_of(text))[0].reason == ("Q♦ beats the J♦: a higher diamond; "
                                               "it is play 2 of 2: it kills the trick")


def test_going_out_note_with_the_last_card() -> None:
    s = state_of(position("pagat", {0: "7S", 1: "2C 3C", 2: "4C"}, trump="S", to_act=0, table="1 5D | 2 6S"))
    assert table_of(hints(s)) == [
        ("play 7S", True, "7♠ beats the 6♠: a higher spade; it is play 3 of 3: it kills the trick; "
                          "it is your last card: you go out"),
        ("pick", True, "instead of beating you may always pick up: you would take 6♠"),
    ]


def test_goat_pick_up_names_the_lowest_run_and_runs_beat() -> None:
    """Flurst: 'eat the lowest run of touching cards on the table ... a run that spans several previous
    plays'; 2-3 and 4-5 of clubs touch, the 9 does not."""
    s = state_of(position("goat", {0: "7H", 1: "8H", 2: "QH", 3: "TC JC 2H 8D"}, trump="H", to_act=3,
                          table="0 2C 3C | 1 4C 5C | 2 9C"))
    assert table_of(hints(s)) == [
        ("play TC", True, "T♣ beats the 9♣: a higher club; it is play 4 of 4: it kills the trick"),
        ("play JC", True, "J♣ beats the 9♣: a higher club; it is play 4 of 4: it kills the trick"),
        ("play TC JC", True, "T♣ J♣ beats the 9♣: a higher club; it is play 4 of 4: it kills the trick"),
        ("play 2H", True, "2♥ is a trump: it beats any club; it is play 4 of 4: it kills the trick"),
        ("pick", True, "instead of beating you may always pick up: you would take 2♣ 3♣ 4♣ 5♣"),
        ("play 8D", False, "the 8♦ cannot beat the 9♣; only a higher club or a trump can"),
    ]
    s.apply(PICK, 3)
    assert [str(Action(Kind.PLAY, p)) for p in s.table] == ["play 9C"]  # the 9♣ is left on the table


def test_pagat_pick_up_takes_only_the_top_card() -> None:
    s = state_of(position("pagat", {0: "2H 3H", 1: "4H", 2: "5H"}, trump="S", to_act=0,
                          table="1 5D | 2 9D"))
    found = {str(h.action): h for h in hints(s)}
    assert found["pick"].reason == "instead of beating you may always pick up: you would take 9♦"
    assert not found["play 2H"].legal


# -- phase two: leading --------------------------------------------------------------------------


def test_leads_are_all_legal_and_the_last_card_goes_out() -> None:
    s = state_of(position("pagat", {0: "5C 8C", 1: "7H", 2: "6H"}, trump="S", to_act=1))
    assert table_of(hints(s)) == [
        ("play 7H", True, "you lead: any card may be led (7♥); it is your last card: you go out"),
    ]
    s = state_of(position("pagat", {0: "5C 8C", 1: "7H", 2: "6H"}, trump="S", to_act=0))
    assert table_of(hints(s)) == [("play 5C", True, "you lead: any card may be led (5♣)"),
                                  ("play 8C", True, "you lead: any card may be led (8♣)")]


def test_goat_leads_include_runs() -> None:
    s = state_of(position("goat", {0: "2D 3D", 1: "7H", 2: "6H"}, trump="S", to_act=0))
    assert table_of(hints(s)) == [
        ("play 2D", True, "you lead: any card may be led (2♦)"),
        ("play 3D", True, "you lead: any card may be led (3♦)"),
        ("play 2D 3D", True,
         "you lead: any card or run may be led (2♦ 3♦); it is your last card: you go out"),
    ]


def test_phase_two_seat_not_to_act_and_game_over() -> None:
    s = state_of(position("pagat", {0: "3C 9D", 1: "4H 5H", 2: "6H"}, trump="S", to_act=0, table="2 JD"))
    assert hints(s, 1) == [] and hints(s, 2) == []
    with pytest.raises(ValueError, match="there is no seat 3"):
        hints(s, 3)


def test_no_hints_once_the_game_is_over() -> None:
    """hints(): 'Empty once the game is over' (the default seat is then no seat)."""
    s = state_of(position("pagat", {0: "AS", 1: "2C"}, trump="S", to_act=0, moves="0 play AS"))
    assert s.is_over
    assert hints(s, 1) == []
    assert hints(s) == []


# -- phase one --------------------------------------------------------------------------------------

HOWELL_DEAL = ("skitgubbe-record = 1\nrules = goat\nplayers = 3\ndealer = 2\n"
               f"deck = {deck(['8D 3D 5C', '3C 3S 2D', 'KC KS 2H'], '7D QC JS 5H 9H 6S 4C 8C', dealer=2)}\n"
               "moves:\n")


def test_goat_must_match_legal_matches_and_refused_cards() -> None:
    """Howell, The First Part: 'player 2 ... must play one of his 3s because it is the highest card played
    thusfar'."""
    s = start_state(loads(HOWELL_DEAL))
    s.apply(parse_action("play 3D"), 0)
    assert s.to_act == 1
    assert table_of(hints(s)) == [
        ("play 3C", True, "you must match the highest card of this round: 3♣ makes a tie (a war)"),
        ("play 3S", True, "you must match the highest card of this round: 3♠ makes a tie (a war)"),
        ("play 2D", False, "you must match the 3: you hold 3♣ 3♠"),
        ("stock", False, "you must match the 3: you hold 3♣ 3♠"),
    ]


def test_sluff_hint_in_a_sluff_window() -> None:
    """Howell: 'He could (if he wished) sluff the other three (which he does)'."""
    s = start_state(loads(HOWELL_DEAL))
    s.apply(parse_action("play 3D"), 0)
    s.apply(parse_action("play 3S"), 1)
    assert s.to_act == 1 and s.pending
    assert table_of(hints(s)) == [
        ("sluff 3C", True, "a card of rank 3 is already in the trick: sluff it and draw a replacement"),
        ("pass", True, "say you are done sluffing for now"),
    ]
    assert hints(s, 0) == [] and hints(s, 2) == []


def test_stock_hint_and_plain_plays() -> None:
    s = start_state(loads(HOWELL_DEAL))
    for seat, move in ((0, "play 3D"), (1, "play 3S"), (1, "sluff 3C")):
        s.apply(parse_action(move), seat)
    assert s.to_act == 2 and not s.pending
    stock = len(s.stock)
    assert table_of(hints(s)) == [
        ("play KC", True, "K♣ is higher than everything in this round: you would take the trick"),
        ("play 2H", True, "2♥ is lower than the highest card so far: any card may be played in phase one"),
        ("play KS", True, "K♠ is higher than everything in this round: you would take the trick"),
        ("stock", True, f"turn up the top stock card and play it ({stock} cards in the stock; the last one "
                        "cannot be turned up)"),
    ]


def test_pagat_pairs_lead_tie_lower_higher() -> None:
    text = ("skitgubbe-record = 1\nrules = pagat\nplayers = 3\ndealer = 2\n"
            f"deck = {deck(['7C 2D 9S', '7H 5S KD', '4C 4D 4H'], dealer=2)}\nmoves:\n")
    s = start_state(loads(text))
    assert hints(s)[0] == Hint(parse_action("play 7C"), True,
                               "you lead: any card may be led, suits do not matter in phase one")
    s.apply(parse_action("play 7C"), 0)
    assert table_of(hints(s))[:3] == [
        ("play KD", True, "K♦ is higher than everything in this round: you would take the trick"),
        ("play 7H", True, "7♥ ties the highest card: a bounce, the tied seats play again"),
        ("play 5S", True, "5♠ is lower than the highest card so far: any card may be played in phase one"),
    ]
    assert hints(s, 2) == []


def test_out_of_turn_sluffs_only() -> None:
    """A seat that has played may sluff out of turn while another seat's sluff window is first: its
    hints are the sluff and the pass, and no card is listed as refused."""
    text = ("skitgubbe-record = 1\nrules = goat\nplayers = 3\ndealer = 2\n"
            f"deck = {deck(['3D 8D 5C', '9S 2D 6H', 'KC 7S 3C'], '9C 4H 4D', dealer=2)}\n"
            "moves:\n0 play 3D\n1 play 9S\n")
    s = state_of(text)
    assert s.to_act == 2
    assert table_of(hints(s, 0)) == [
        ("sluff 9C", True, "a card of rank 9 is already in the trick: sluff it and draw a replacement"),
        ("pass", True, "say you are done sluffing for now"),
    ]
    assert [str(h.action) for h in hints(s, 2)] == ["sluff 3C", "pass"]
    assert hints(s, 1) == []


def play_until_last_stock_card(rules: str, seed: int) -> State:
    """A deal played with the first legal play (or pass) until one stock card is left and a seat must
    play."""
    s = State.new(find_variant(rules), 3, seed=seed)
    while not (len(s.stock) == 1 and s.phase == Phase.ONE and not s.pending):
        legal = s.legal_actions()
        s.apply(next((a for a in legal if a.kind is Kind.PLAY), legal[-1]))
    return s


@pytest.mark.parametrize("rules", ["pagat", "goat"])
def test_stock_refused_when_one_card_is_left(rules: str) -> None:
    s = play_until_last_stock_card(rules, 7)
    assert STOCK not in s.legal_actions()
    refused = [h for h in hints(s) if h.action == STOCK]
    why = "the stock's last card cannot be turned up: it becomes the trump card"
    assert refused == [Hint(STOCK, False, why)]
    assert all(h.legal for h in hints(s) if h.action != STOCK)


# -- the command ------------------------------------------------------------------------------------

BEAT_FILE = position("pagat", {0: "3C 9D QD 2S", 1: "4H 5H", 2: "6H"}, trump="S", to_act=0, table="2 JD")


def test_cli_hint_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "beat.sgr"
    path.write_text(BEAT_FILE, encoding="utf-8")
    assert main(["hint", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "seat 0, phase two:"
    assert [line.split()[0] for line in lines[1:]] == ["yes", "yes", "yes", "no", "no"]
    assert any(line.startswith("  no   play 9♦ ")
               and line.endswith(" the 9♦ cannot beat the J♦; only a higher diamond or a trump can")
               for line in lines)
    assert any(line.startswith("  yes  pick up ") and line.endswith("you would take J♦") for line in lines)
    assert main(["hint", str(path), "--seat", "1"]) == 0
    assert capsys.readouterr().out.splitlines() == ["seat 1, phase two:",
                                                    "  nothing to do now: it is not this seat's turn"]


def test_cli_hint_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "beat.sgr"
    path.write_text(BEAT_FILE, encoding="utf-8")
    assert main(["hint", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = [{"move": str(h.action), "legal": h.legal, "reason": h.reason}
                for h in hints(state_of(BEAT_FILE), 0)]
    assert data == expected
    assert {"move": "play 9D", "legal": False,
            "reason": "the 9♦ cannot beat the J♦; only a higher diamond or a trump can"} in data
    assert main(["hint", str(path), "--json", "--seat", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_cli_hint_replays_the_moves_of_a_deal_record(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "howell.sgr"
    path.write_text(HOWELL_DEAL + "0 play 3D\n", encoding="utf-8")
    assert main(["hint", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("seat 1, phase one:")
    assert "you must match the 3: you hold 3♣ 3♠" in out


def test_cli_hint_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "beat.sgr"
    path.write_text(BEAT_FILE, encoding="utf-8")
    assert main(["hint", str(path), "--seat", "5"]) == 2
    assert "there is no seat 5 to give hints for (seats 0..2" in capsys.readouterr().err
    bad = tmp_path / "bad.sgr"
    bad.write_text(BEAT_FILE.replace("trump = S", "trump = X"), encoding="utf-8")
    assert main(["hint", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "malformed record: line" in err and "trump: 'X' is not a suit" in err
    illegal = tmp_path / "illegal.sgr"
    illegal.write_text(BEAT_FILE + "0 play 9D\n", encoding="utf-8")
    assert main(["hint", str(illegal)]) == 1
    assert "the 9♦ cannot beat the J♦" in capsys.readouterr().err
    assert main(["hint", str(tmp_path / "missing.sgr")]) == 2
    assert "cannot read" in capsys.readouterr().err
    over = tmp_path / "over.sgr"
    over.write_text(position("pagat", {0: "AS", 1: "2C"}, trump="S", to_act=0, moves="0 play AS"), "utf-8")
    assert main(["hint", str(over)]) == 0  # issue 16 item 8: says the deal is over and who lost
    assert "the deal is over: seat 1 lost" in capsys.readouterr().out


def test_hints_leave_the_state_alone() -> None:
    s = state_of(BEAT_FILE)
    before = (list(s.hands), list(s.table), s.to_act, list(s.history), list(s.events))
    for seat in range(3):
        hints(s, seat)
    assert (s.hands, s.table, s.to_act, s.history, s.events) == before
    rng = random.Random(1)
    g = State.new(find_variant("goat"), 4, seed=3)
    for _ in range(30):
        snapshot = (list(g.hands), list(g.stock), g.to_act, g.pending, list(g.history))
        for seat in range(4):
            hints(g, seat)
        assert (g.hands, g.stock, g.to_act, g.pending, g.history) == snapshot
        if g.to_act < 0:
            g.apply(g.chance_action(rng), g.to_act)
        else:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])


def test_under_aces_low_a_legal_ace_is_explained_as_lower_than_the_round() -> None:
    # Howell, "The First Part": aces are low in phase one.  The reason used to compare raw ranks and
    # called a legal ace "the highest card so far in this round" when a 6 was higher.
    state = State.new(find_variant("howell"), 4, seed=0)
    rng = random.Random(0)
    found = 0
    while state.phase == Phase.ONE and found < 3:
        s = state.to_act
        if s >= 0:
            for h in hints(state, s):
                c = h.action.cards.bit_length() - 1
                high = state.round_high  # the rank of the round's highest card, 0 before a lead
                if h.legal and h.action.kind == Kind.PLAY and c % 13 == 12 and high not in (0, 14):
                    assert "lower than the highest card so far (aces are low in phase one)" in h.reason, h
                    found += 1
        state.apply(state.random_action(rng), state.to_act)
    assert found, "seed 0 has a legal ace under a higher card in phase one"


@pytest.mark.parametrize("seed", range(4))
def test_every_legal_mas_move_has_a_reason(seed: int) -> None:
    # Mas: beat or pick up the led card, store three trumps, exchange the 2 of trumps
    state = State.new(find_variant("mas"), 2, seed=seed)
    rng = random.Random(seed)
    kinds = set()
    while not state.is_over:
        if state.to_act >= 0:
            for h in hints(state):
                kinds.add(h.action.kind)
                assert h.reason and (not h.legal or state.reason(h.action) == h.reason)
        state.apply(state.random_action(rng), state.to_act)
    assert Kind.PICK_UP in kinds
