"""Phase-two positions (skitgubbe.engine.position, State.from_position, ``start = phase-two`` records).

The scenario tests write each worked phase-two example of the rule texts as a position record, replay
the example's moves and check what the text says happens: who picks up what, who leads next, when
the trick is killed.  Sources, cited by section:

* pagat.com Skitgubbe, "Play in the second phase" (the 'Suppose there are 3 players' and 'A leads his
  last card' examples; single cards, pick up only the top card);
* the Swedish Goat Game / Flurst page, "Ending a trick by killing" and "Going out";
* Dave Howell's Swedish Goat Game page, "The Second Part" (the two 4-player examples).

Seats are A=0, B=1, C=2, D=3 (Howell's players 1-4 are seats 0-3); play is clockwise.
Then: dumps/loads round trips, record_of, every validation fault (through the record format with its
line and field, and through check_position directly), practice_position and State.from_position.
"""

from __future__ import annotations

import dataclasses
import json
import random
import textwrap
from pathlib import Path

import pytest

from helpers import cs, random_playout
from skitgubbe.engine.actions import parse_action
from skitgubbe.engine.base import Event, Phase
from skitgubbe.engine.cards import FULL_DECK, SUIT_MASKS
from skitgubbe.engine.position import (
    Position,
    PositionError,
    check_position,
    default_kill_at,
    practice_position,
)
from skitgubbe.engine.record import (
    Record,
    RecordFormatError,
    ReplayError,
    dumps,
    loads,
    record_of,
    replay,
    start_state,
)
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.play.cli import main

PAGAT = find_variant("pagat")
GOAT = find_variant("goat")
A, B, C, D = 0, 1, 2, 3


def rec(text: str, moves: str = "") -> str:
    """A record: ``text`` (dedented headers, ending with ``moves:``) followed by ``moves`` (one a line)."""
    return textwrap.dedent(text).lstrip() + textwrap.dedent(moves).strip() + "\n"


def run(text: str, moves: str = "") -> State:
    return replay(loads(rec(text, moves)))


def kills(state: State) -> list[Event]:
    return [e for e in state.events if e.kind == "kill"]


def pick_ups(state: State) -> list[tuple[int, int]]:
    return [(e.seat, e.cards) for e in state.events if e.kind == "pick-up"]


# -- pagat.com: "Suppose there are 3 players" -------------------------------------------------------

PAGAT_THREE = """
    skitgubbe-record = 1
    rules = pagat
    players = 3
    start = phase-two
    hand 0 = 5C 8C 2D      # A
    hand 1 = 9C JC 3D      # B
    hand 2 = QC 4D 6D      # C
    trump = S
    to-act = 0
    out-of-play = rest
    moves:
"""


def test_pagat_three_players_c_beats_and_leads_next() -> None:
    """'If C now beats B's card, C puts aside the cards and leads to the next trick.'"""
    s = run(PAGAT_THREE, """
        0 play 5C
        1 play 9C
        2 play QC
    """)
    assert [(e.seat, e.cards) for e in kills(s)] == [(C, cs("5C 9C QC"))]
    assert s.killed & cs("5C 9C QC") == cs("5C 9C QC")
    assert s.table == [] and s.to_act == C and s.kill_at == 3
    assert s.phase == Phase.TWO


def test_pagat_three_players_c_picks_up_then_a_beats_own_lead_and_b_completes() -> None:
    """'If C ... picks it up, it is now A's turn to beat the card showing on the table (which is in fact
    A's own lead).  If A does this, and then B beats A's card, it is B who has completed the trick; B
    sets aside the three cards and leads to the next trick.'"""
    s = run(PAGAT_THREE, """
        0 play 5C
        1 play 9C
        2 pick
    """)
    assert pick_ups(s) == [(C, cs("9C"))]  # only the top card
    assert s.hands[C] == cs("QC 4D 6D 9C")
    assert s.table == [cs("5C")] and s.table_owners == [A]
    assert s.to_act == A
    assert not kills(s)
    for seat, move in ((A, "play 8C"), (B, "play JC")):
        s.apply(parse_action(move), seat)
    assert [(e.seat, e.cards) for e in kills(s)] == [(B, cs("5C 8C JC"))]
    assert s.to_act == B and s.table == [] and s.kill_at == 3


def test_pagat_three_players_everything_picked_up_next_seat_leads() -> None:
    """'A leads, B beats A's card, C picks up B's card, and A picks up his own card.  It is now B's
    lead.'"""
    s = run(PAGAT_THREE, """
        0 play 5C
        1 play 9C
        2 pick
        0 pick
    """)
    assert pick_ups(s) == [(C, cs("9C")), (A, cs("5C"))]
    assert s.hands[A] == cs("5C 8C 2D")
    assert s.table == [] and not kills(s)
    assert s.to_act == B and s.kill_at == 3


# -- pagat.com: "A leads his last card" ---------------------------------------------------------------

PAGAT_LAST_CARD = """
    skitgubbe-record = 1
    rules = pagat
    players = 3
    start = phase-two
    hand 0 = 7H
    hand 1 = 9H JH 2C
    hand 2 = KH 3C 4C
    trump = S
    to-act = 0
    out-of-play = rest
    moves:
"""


def test_pagat_a_leads_last_card_trick_still_needs_three() -> None:
    """'A leads his last card, B beats it, C picks B's card up, B beats A's card again, and now C beats
    B's card.  The trick is now over, and C leads to the next trick.  As there are now only two
    players, the new trick will have only two cards.'"""
    s = run(PAGAT_LAST_CARD, """
        0 play 7H
        1 play 9H
        2 pick
        1 play JH
    """)
    assert s.out_order == [A]
    assert pick_ups(s) == [(C, cs("9H"))]
    assert s.kill_at == 3  # A went out, but this trick still needs three cards
    assert len(s.table) == 2 and not kills(s)
    assert s.to_act == C
    s.apply(parse_action("play KH"), C)
    assert [(e.seat, e.cards) for e in kills(s)] == [(C, cs("7H JH KH"))]
    assert s.to_act == C and s.kill_at == 2
    assert s.hands == [0, cs("2C"), cs("9H 3C 4C")]


def test_pagat_b_beats_with_last_card_everything_picked_up() -> None:
    """'A leads; B beats with his last card, C picks this card up, and A picks up the card he led.  It
    is now C's lead and the next trick will be complete with two cards.'"""
    s = run("""
        skitgubbe-record = 1
        rules = pagat
        players = 3
        start = phase-two
        hand 0 = 7H 2C
        hand 1 = 9H
        hand 2 = KH 3C 4C
        trump = S
        to-act = 0
        out-of-play = rest
        moves:
    """, """
        0 play 7H
        1 play 9H
        2 pick
        0 pick
    """)
    assert s.out_order == [B]
    assert pick_ups(s) == [(C, cs("9H")), (A, cs("7H"))]
    assert s.table == [] and not kills(s)
    assert s.to_act == C and s.kill_at == 2


MID_TRICK = """
    skitgubbe-record = 1
    rules = pagat
    players = 3
    start = phase-two
    hand 1 = JH 2C
    hand 2 = KH 3C 4C
    trump = S
    to-act = 2
    table = 0 7H | 1 9H    # A led his last card, B beat it
    {kill}
    out-seats = 0
    out-of-play = rest
    moves:
"""


@pytest.mark.parametrize("kill", ["kill-at = 3", "# kill-at by default"])
def test_pagat_mid_trick_position_with_a_seat_already_out(kill: str) -> None:
    """The 'A leads his last card' example set up after B's beat: A is out, two plays are on the
    table, and the trick still needs three cards (given, or by default counting A who played to it)."""
    text = MID_TRICK.format(kill=kill)
    start = start_state(loads(rec(text)))
    assert start.phase == Phase.TWO
    assert start.out_order == [A]
    assert start.table == [cs("7H"), cs("9H")] and start.table_owners == [A, B]
    assert start.kill_at == 3 and start.to_act == C
    s = run(text, """
        2 pick
        1 play JH
        2 play KH
    """)
    assert pick_ups(s) == [(C, cs("9H"))]
    assert [(e.seat, e.cards) for e in kills(s)] == [(C, cs("7H JH KH"))]
    assert s.to_act == C and s.kill_at == 2
    assert s.hands == [0, cs("2C"), cs("9H 3C 4C")]


def test_explicit_kill_at_overrides_the_default() -> None:
    text = rec("""
        skitgubbe-record = 1
        rules = pagat
        players = 3
        start = phase-two
        hand 1 = JH 2C
        hand 2 = KH 3C 4C
        trump = S
        to-act = 1
        table = 0 7H
        kill-at = 2
        out-seats = 0
        out-of-play = rest
        moves:
    """)
    record = loads(text)
    assert record.position is not None and default_kill_at(record.position) == 3
    s = start_state(record)
    assert s.kill_at == 2
    s.apply(parse_action("play JH"), B)
    assert [(e.seat, e.cards) for e in kills(s)] == [(B, cs("7H JH"))]
    assert s.to_act == B


# -- the Swedish Goat Game / Flurst page: "Ending a trick by killing" -------------------------------

FLURST_SIMPLE = """
    skitgubbe-record = 1
    rules = goat
    players = 4
    start = phase-two
    hand 0 = 4C 9S
    hand 1 = 6C 9D
    hand 2 = 8C TD
    hand 3 = TC {d_extra}
    trump = H
    to-act = 0
    out-of-play = rest
    moves:
"""


def test_flurst_four_beats_kill_the_trick() -> None:
    """'If A leads, then B beats, then C beats, then D beats, that kills the trick in four moves' and
    'The player who killed the trick leads the next one.'"""
    s = run(FLURST_SIMPLE.format(d_extra="JD"), """
        0 play 4C
        1 play 6C
        2 play 8C
    """)
    assert len(s.table) == 3 and not kills(s)
    s.apply(parse_action("play TC"), D)
    assert [(e.seat, e.cards) for e in kills(s)] == [(D, cs("4C 6C 8C TC"))]
    assert s.to_act == D and s.table == [] and s.kill_at == 4


def test_flurst_kill_and_go_out_next_seat_leads() -> None:
    """'If a player kills and goes out at the same time, the next player clockwise gets the lead.'"""
    s = run(FLURST_SIMPLE.format(d_extra=""), """
        0 play 4C
        1 play 6C
        2 play 8C
        3 play TC
    """)
    assert [(e.seat, e.cards) for e in kills(s)] == [(D, cs("4C 6C 8C TC"))]
    assert s.out_order == [D]
    assert s.to_act == A and s.kill_at == 3


def test_flurst_messy_kill_after_an_eat() -> None:
    """'A leads (1 play on table) then B beats (2 plays) then C eats A's lead (down to 1 play on
    table) then D beats (2 plays) then A beats (3 plays) then B beats (4 plays) for a kill.'"""
    text = """
        skitgubbe-record = 1
        rules = goat
        players = 4
        start = phase-two
        hand 0 = 4C TC 2S
        hand 1 = 6C QC 3S
        hand 2 = 8D 4S
        hand 3 = 8C 5S
        trump = H
        to-act = 0
        out-of-play = rest     # the 5C is out of play: 4C and 6C do not touch
        moves:
    """
    moves = ["0 play 4C", "1 play 6C", "2 pick", "3 play 8C", "0 play TC", "1 play QC"]
    plays_on_table = [1, 2, 1, 2, 3]
    s = start_state(loads(rec(text)))
    for move, expected in zip(moves[:-1], plays_on_table, strict=True):
        seat, _, action = move.partition(" ")
        s.apply(parse_action(action), int(seat))
        assert len(s.table) == expected, move
    assert pick_ups(s) == [(C, cs("4C"))]
    assert not kills(s)
    s.apply(parse_action("play QC"), B)
    assert [(e.seat, e.cards) for e in kills(s)] == [(B, cs("6C 8C TC QC"))]
    assert s.to_act == B and s.kill_at == 4
    assert run(text, "\n".join(moves)).hands == s.hands


def test_flurst_going_out_mid_trick_leaves_the_kill_count() -> None:
    """'A player might go out (see below) in the middle of a trick, but the number of plays needed to
    kill that trick remains unchanged.'"""
    s = run("""
        skitgubbe-record = 1
        rules = goat
        players = 4
        start = phase-two
        hand 0 = 4C 9S
        hand 1 = 6C
        hand 2 = 8C TD
        hand 3 = TC JD
        trump = H
        to-act = 0
        out-of-play = rest
        moves:
    """, """
        0 play 4C
        1 play 6C
        2 play 8C
    """)
    assert s.out_order == [B]
    assert s.kill_at == 4 and len(s.table) == 3 and not kills(s)
    assert s.to_act == D
    s.apply(parse_action("play TC"), D)
    assert kills(s) and s.to_act == D and s.kill_at == 3


# -- Dave Howell's Swedish Goat Game page: "The Second Part" ------------------------------------------

HOWELL_FIRST = """
    skitgubbe-record = 1
    rules = goat
    players = 4
    start = phase-two
    hand 0 = 2C 3C 4H
    hand 1 = 7C 8C 9C 6H
    hand 2 = 4S 5S 7H
    hand 3 = TC JC 8H 9S
    trump = D
    to-act = 0
    out-of-play = rest
    moves:
"""


def test_howell_first_example_eats_the_touching_cards() -> None:
    """'1 leads 2-3 of clubs / 2 plays 7-8-9 of clubs / 3 ... picks up 2-3 / 4 plays 10-J of clubs / 1
    ... picks up 7-8-9-10-J of clubs (notice how they all touch).'  Then 'All the cards have been
    picked up (the table is bare) in which case ... the player after the last picker-upper gets to
    lead.'"""
    s = run(HOWELL_FIRST, """
        0 play 2C 3C
        1 play 7C 8C 9C
        2 pick
        3 play TC JC
        0 pick
    """)
    assert pick_ups(s) == [(C, cs("2C 3C")), (A, cs("7C 8C 9C TC JC"))]
    assert s.hands[A] == cs("7C 8C 9C TC JC 4H")
    assert s.hands[C] == cs("2C 3C 4S 5S 7H")
    assert s.table == [] and not kills(s)
    assert s.to_act == B and s.kill_at == 4


def test_howell_second_example_kill_after_a_seat_went_out() -> None:
    """The 'similar example': player 1 goes out with the 2 of diamonds (trump) as the third play (N
    still 4), player 2 eats 7-J of clubs, 3 plays the 5, 4 the 7-8 and 2 the ace of diamonds: 'This
    kills the trick, the 2,5,7-8,A of diamonds are removed (ouch!) and player 2 gets to lead.  Now,
    and only now is N reduced (to 3 players left).'"""
    text = """
        skitgubbe-record = 1
        rules = goat
        players = 4
        start = phase-two
        hand 0 = 2C 3C 2D
        hand 1 = 7C 8C 9C AD 4S
        hand 2 = 5D 6S 7S
        hand 3 = TC JC 7D 8D 9S
        trump = D
        to-act = 0
        out-of-play = rest
        moves:
    """
    steps = [  # move, plays on the table after it
        ("0 play 2C 3C", 1),
        ("1 play 7C 8C 9C", 2),
        ("2 pick", 1),
        ("3 play TC JC", 2),
        ("0 play 2D", 3),
        ("1 pick", 1),
        ("2 play 5D", 2),
        ("3 play 7D 8D", 3),
    ]
    s = start_state(loads(rec(text)))
    for move, on_table in steps:
        seat, _, action = move.partition(" ")
        s.apply(parse_action(action), int(seat))
        assert len(s.table) == on_table, move
        assert s.kill_at == 4, move
    assert s.out_order == [A]
    assert pick_ups(s) == [(C, cs("2C 3C")), (B, cs("7C 8C 9C TC JC"))]
    assert s.to_act == B  # player 1 'has gone out - smiles': skipped
    s.apply(parse_action("play AD"), B)
    assert [(e.seat, e.cards) for e in kills(s)] == [(B, cs("2D 5D 7D 8D AD"))]
    assert s.to_act == B and s.table == [] and s.kill_at == 3
    assert s.hands[B] == cs("7C 8C 9C TC JC 4S")
    whole = run(text, "\n".join(m for m, _ in steps) + "\n1 play AD")
    assert whole.hands == s.hands and whole.killed == s.killed


# -- a position played to the end, claimed loser ---------------------------------------------------

ENDGAME = """
    skitgubbe-record = 1
    rules = pagat
    players = 2
    start = phase-two
    hand 0 = AS
    hand 1 = 2C
    trump = S
    to-act = 0
    out-of-play = rest
    moves:
"""


def test_position_played_to_the_end_checks_the_claimed_loser() -> None:
    s = run(ENDGAME, "0 play AS\nloser = 1")
    assert s.is_over and s.loser == B and s.out_order == [A]
    with pytest.raises(ReplayError, match="the record says seat 0 loses, but seat 1 loses"):
        run(ENDGAME, "0 play AS\nloser = 0")


def test_illegal_move_from_a_position_names_the_move_and_reason() -> None:
    with pytest.raises(ReplayError) as err:
        run(PAGAT_THREE, "0 play 5C\n1 play 3D")
    assert err.value.index == 1 and err.value.seat == B
    assert err.value.reason == "the 3♦ cannot beat the 5♣; only a higher club or a trump can"
    assert err.value.line == rec(PAGAT_THREE).splitlines().index("moves:") + 3  # the second move


def test_cli_replay_accepts_a_position_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mid.sgr"
    path.write_text(rec(MID_TRICK.format(kill="kill-at = 3"), "2 pick"), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "pagat, 3 players, 1 moves, all legal" in out
    assert "the game goes on: phase two, to act: 1" in out and "table: ['0: 7H']" in out and "trump S" in out
    assert main(["replay", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["table"] == ["0: 7H"] and data["kill_at"] == 3 and data["out_order"] == [0]
    assert data["legal"] == {"1": ["play JH", "pick"]}
    path.write_text(rec(ENDGAME, "0 play AS\nloser = 1"), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    assert "loser: seat 1" in capsys.readouterr().out


# -- round trips and record_of --------------------------------------------------------------------


def strip_lines(record: Record) -> Record:
    return dataclasses.replace(record, move_lines=())


@pytest.mark.parametrize("text", [
    rec(PAGAT_THREE, "0 play 5C\n1 play 9C"),
    rec(MID_TRICK.format(kill="kill-at = 3"), "2 pick"),
    rec(MID_TRICK.format(kill=""), ""),
    rec(HOWELL_FIRST, "0 play 2C 3C"),
    rec(ENDGAME, "0 play AS\nloser = 1"),
], ids=["pagat-three", "mid-trick-kill-at", "mid-trick-default", "howell", "endgame-loser"])
def test_position_records_round_trip(text: str) -> None:
    record = loads(text)
    again = loads(dumps(record))
    assert strip_lines(again) == strip_lines(record)
    assert dumps(again) == dumps(record)
    assert record.deck == () and record.position is not None


def test_dumps_writes_every_position_field() -> None:
    record = loads(rec(MID_TRICK.format(kill="kill-at = 3"), "2 pick"))
    text = dumps(record)
    for line in ("start = phase-two", "hand 0 = \n", "hand 1 = 2C JH", "hand 2 = 3C 4C KH", "trump = S",
                 "to-act = 2", "table = 0 7H | 1 9H", "kill-at = 3", "out-seats = 0", "moves:\n2 pick"):
        assert line in text, line
    assert "deck =" not in text and "seed =" not in text
    position = record.position
    assert position is not None
    assert position.out_of_play == FULL_DECK & ~cs("7H 9H JH 2C KH 3C 4C")
    assert "kill-at" not in dumps(loads(rec(MID_TRICK.format(kill=""))))


def test_record_of_a_position_state_replays_to_the_same_state() -> None:
    position = Position((cs("5C 8C 2D"), cs("9C JC 3D"), cs("QC 4D 6D")), 3, A,
                        out_of_play=FULL_DECK & ~cs("5C 8C 2D 9C JC 3D QC 4D 6D"))
    s = State.from_position(PAGAT, position)
    for seat, move in ((A, "play 5C"), (B, "play 9C"), (C, "pick")):
        s.apply(parse_action(move), seat)
    record = record_of(s)
    assert record.position == position and record.deck == ()
    assert [str(a) for _, a in record.moves] == ["play 5C", "play 9C", "pick"]
    again = replay(loads(dumps(record)))
    assert again.hands == s.hands and again.table == s.table and again.to_act == s.to_act
    assert again.history == s.history


def test_record_of_a_finished_position_game_claims_its_loser() -> None:
    s = start_state(loads(rec(ENDGAME)))
    s.apply(parse_action("play AS"), A)
    record = record_of(s)
    assert record.loser == B
    assert "loser = 1" in dumps(record)
    assert replay(loads(dumps(record))).loser == B


# -- validation through the record format: line and field ---------------------------------------


def position_text(*headers: str, rules: str = "pagat", players: int = 3, start: str = "phase-two") -> str:
    lines = ["skitgubbe-record = 1", f"rules = {rules}", f"players = {players}"]
    if start:
        lines.append(f"start = {start}")
    return "\n".join([*lines, *headers, "moves:"]) + "\n"


GOOD = ("hand 0 = 5C 8C", "hand 1 = 9C", "hand 2 = 2D", "trump = S", "to-act = 0", "out-of-play = rest")


def test_the_base_of_the_fault_cases_loads() -> None:
    record = loads(position_text(*GOOD))
    assert record.position is not None and record.position.hands == (cs("5C 8C"), cs("9C"), cs("2D"))


FAULTS = [
    # name, headers (line 5 is the first), rules, players, line, field, words
    ("card twice, hand vs hand",
     ("hand 0 = 5C 8C", "hand 1 = 8C 9C", "hand 2 = 2D", "trump = S", "to-act = 0", "out-of-play = rest"),
     "pagat", 3, 6, "hand 1", "8♣ is already in hand 0"),
    ("card twice, hand vs table",
     ("hand 0 = 5C 8C", "hand 1 = 9C", "hand 2 = 2D", "trump = S", "to-act = 1", "table = 2 8C",
      "out-of-play = rest"),
     "pagat", 3, 10, "table", "8♣ is already in hand 0"),
    ("card twice, hand vs out-of-play",
     ("hand 0 = 5C 8C", "hand 1 = 9C", "hand 2 = 2D", "trump = S", "to-act = 0", "out-of-play = 8C"),
     "pagat", 3, 10, "out-of-play", "8♣ is already in hand 0"),
    ("card written twice in one hand",
     ("hand 0 = 5C 5C", "hand 1 = 9C", "trump = S", "to-act = 0", "out-of-play = rest"),
     "pagat", 3, 5, "hand 0", "a card is written twice"),
    ("card missing",
     ("hand 0 = 5C 8C", "hand 1 = 9C", "hand 2 = 2D", "trump = S", "to-act = 0"),
     "pagat", 3, 0, "cards", "missing: 2♣ 3♣ 4♣ 6♣"),
    ("hand for a seat that is out",
     ("hand 0 = 5C 8C", "hand 1 = 9C", "hand 2 = 2D", "trump = S", "to-act = 0", "out-seats = 2",
      "out-of-play = rest"),
     "pagat", 3, 10, "out-seats", "seat 2 is out but holds 2♦"),
    ("hand for a seat that does not exist",
     ("hand 0 = 5C 8C", "hand 1 = 9C", "hand 3 = 2D", "trump = S", "to-act = 0", "out-of-play = rest"),
     "pagat", 3, 7, "hand 3", "no such seat: hands are 'hand 0' to 'hand 2'"),
    ("to-act seat without cards",
     ("hand 0 = 5C 8C", "hand 1 = 9C", "trump = S", "to-act = 2", "out-of-play = rest"),
     "pagat", 3, 8, "to-act", "seat 2 cannot act: it holds no cards"),
    ("table play not a run",
     ("hand 0 = 5C", "hand 1 = 9C", "hand 2 = 2D", "trump = S", "to-act = 1", "table = 0 6D 8D",
      "out-of-play = rest"),
     "goat", 3, 10, "table", "play 1 (6♦ 8♦) is not one card or a run of touching cards of one suit"),
    ("table play does not beat the one below",
     ("hand 0 = 5C", "hand 1 = 9C", "hand 2 = 2D", "trump = S", "to-act = 2", "table = 0 8D | 1 7D",
      "out-of-play = rest"),
     "pagat", 3, 10, "table", "play 2 (7♦) does not beat play 1 (8♦) with spades trumps"),
    ("off-suit non-trump does not beat",
     ("hand 0 = 5C", "hand 1 = 9C", "hand 2 = 2D", "trump = S", "to-act = 2", "table = 0 8D | 1 AH",
      "out-of-play = rest"),
     "pagat", 3, 10, "table", "play 2 (A♥) does not beat play 1 (8♦)"),
    ("a multi-card play under pagat",
     ("hand 0 = 5C", "hand 1 = 9C", "hand 2 = 2D", "trump = S", "to-act = 1", "table = 0 6D 7D",
      "out-of-play = rest"),
     "pagat", 3, 10, "table", "play 1 has 2 cards: pagat plays single cards"),
    ("kill-at not above the plays on the table",
     ("hand 0 = 5C", "hand 1 = 9C", "hand 2 = 2D", "trump = S", "to-act = 2", "table = 0 6D | 1 7D",
      "kill-at = 2", "out-of-play = rest"),
     "pagat", 3, 11, "kill-at", "2 plays to kill does not fit 2 plays on the table and 3 seats"),
    ("kill-at beyond the seats",
     ("hand 0 = 5C", "hand 1 = 9C", "hand 2 = 2D", "trump = S", "to-act = 2", "kill-at = 4",
      "out-of-play = rest"),
     "pagat", 3, 10, "kill-at", "4 is out of range 1..3"),
    ("fewer than two seats holding cards",
     ("hand 0 = 5C", "trump = S", "to-act = 0", "out-of-play = rest"),
     "pagat", 3, 3, "players", "fewer than two seats hold cards"),
    ("deck with start = phase-two",
     ("deck = 2C", "hand 0 = 5C", "hand 1 = 9C", "trump = S", "to-act = 0", "out-of-play = rest"),
     "pagat", 3, 5, "deck", "a phase-two position has no deal: remove this field"),
    ("seed with start = phase-two",
     ("seed = 4", "hand 0 = 5C", "hand 1 = 9C", "trump = S", "to-act = 0", "out-of-play = rest"),
     "pagat", 3, 5, "seed", "a phase-two position has no deal: remove this field"),
    ("leader with start = phase-two",
     ("hand 0 = 5C", "hand 1 = 9C", "trump = S", "to-act = 0", "leader = 1", "out-of-play = rest"),
     "pagat", 3, 9, "leader", "a phase-two position has no deal: remove this field"),
    ("bad trump letter",
     ("hand 0 = 5C", "hand 1 = 9C", "trump = X", "to-act = 0", "out-of-play = rest"),
     "pagat", 3, 7, "trump", "'X' is not a suit: write C, D, H or S"),
    ("trump missing",
     ("hand 0 = 5C", "hand 1 = 9C", "to-act = 0", "out-of-play = rest"),
     "pagat", 3, 0, "trump", "missing: name the trump suit"),
    ("to-act missing",
     ("hand 0 = 5C", "hand 1 = 9C", "trump = S", "out-of-play = rest"),
     "pagat", 3, 0, "to-act", "missing: the seat to lead"),
    ("table play without a seat",
     ("hand 0 = 5C", "hand 1 = 9C", "trump = S", "to-act = 0", "table = 6D", "out-of-play = rest"),
     "pagat", 3, 9, "table", "play 1 must start with its seat number"),
    ("out-seats not numbers",
     ("hand 0 = 5C", "hand 1 = 9C", "trump = S", "to-act = 0", "out-seats = two", "out-of-play = rest"),
     "pagat", 3, 9, "out-seats", "list seat numbers separated by spaces"),
    ("out-seats twice",
     ("hand 0 = 5C", "hand 1 = 9C", "trump = S", "to-act = 0", "out-seats = 2 2", "out-of-play = rest"),
     "pagat", 3, 9, "out-seats", "a seat is listed twice"),
]


@pytest.mark.parametrize(("headers", "rules", "players", "line", "field", "words"),
                         [f[1:] for f in FAULTS], ids=[f[0] for f in FAULTS])
def test_invalid_position_record(headers: tuple[str, ...], rules: str, players: int, line: int,
                                 field: str, words: str) -> None:
    text = position_text(*headers, rules=rules, players=players)
    with pytest.raises(RecordFormatError) as err:
        loads(text)
    assert (err.value.line, err.value.field) == (line, field), str(err.value)
    assert words in str(err.value)
    if line:
        key = text.splitlines()[line - 1].split("=")[0].strip()
        assert key == field or field == "players"


def test_a_hand_key_that_names_a_seat_is_never_silently_dropped() -> None:
    """``hand 01`` names seat 1 (or is rejected): its cards must not vanish into ``out-of-play = rest``."""
    text = position_text("hand 0 = 5C 8C", "hand 01 = 9C", "hand 2 = 2D", "trump = S", "to-act = 0",
                         "out-of-play = rest")
    try:
        record = loads(text)
    except RecordFormatError as e:
        assert (e.line, e.field) == (6, "hand 01")
    else:
        assert record.position is not None
        assert record.position.hands[1] == cs("9C")


def test_unknown_start_value() -> None:
    with pytest.raises(RecordFormatError) as err:
        loads(position_text(*GOOD, start="phase-one"))
    assert (err.value.line, err.value.field) == (4, "start")
    assert "the only starting point besides a deal is 'phase-two'" in str(err.value)


@pytest.mark.parametrize("header", ["trump = S", "to-act = 0", "out-of-play = rest", "table = 0 5D",
                                    "kill-at = 2", "out-seats = 1", "hand 0 = 5C"])
def test_position_fields_without_start(header: str) -> None:
    text = position_text("dealer = 0", "seed = 1", header, start="")
    with pytest.raises(RecordFormatError) as err:
        loads(text)
    assert err.value.line == 6
    assert err.value.field == header.split("=")[0].strip()
    assert "belongs to a position: add 'start = phase-two'" in str(err.value)


# -- validation through check_position ----------------------------------------------------------


def position(hands: tuple[str, ...], *, trump: int = 3, to_act: int = 0,
             table: tuple[tuple[int, str], ...] = (), kill_at: int | None = None, out: tuple[int, ...] = (),
             out_of_play: str | None = None) -> Position:
    """A position whose out-of-play cards are, unless given, every card not in a hand or on the table."""
    hand_sets = tuple(cs(h) for h in hands)
    table_sets = tuple((s, cs(t)) for s, t in table)
    if out_of_play is None:
        placed = 0
        for m in hand_sets + tuple(t for _, t in table_sets):
            placed |= m
        oop = FULL_DECK & ~placed
    else:
        oop = cs(out_of_play)
    return Position(hand_sets, trump, to_act, out_of_play=oop, table=table_sets, kill_at=kill_at,
                    out_order=out)


def test_good_positions_pass_check_position() -> None:
    check_position(position(("5C 8C", "9C", "2D")), PAGAT)
    check_position(position(("", "JH 2C", "KH 3C"), to_act=2, table=((0, "7H"), (1, "9H")), out=(0,)), PAGAT)
    check_position(position(("2C 3C", "7C", "4S", "TC"), to_act=2, table=((0, "5D 6D"), (1, "9D TD"))), GOAT)


DIRECT_FAULTS = [
    ("seat count", position(("5C", "9C")), GOAT, "players", "goat is for 3 to 8 players, not 2"),
    ("trump suit", position(("5C", "9C", "2D"), trump=4), PAGAT, "trump", "trump suit must be 0..3"),
    ("hand vs hand", Position((cs("5C 8C"), cs("8C"), FULL_DECK & ~cs("5C 8C")), 3, 0), PAGAT,
     "hand 1", "8♣ is already in hand 0"),
    ("hand vs table", Position((cs("5C 8C"), cs("9C"), FULL_DECK & ~cs("5C 8C 9C")), 3, 0,
                               table=((1, cs("8C")),)), PAGAT, "table", "8♣ is already in hand 0"),
    ("hand vs out-of-play", position(("5C 8C", "9C"), out_of_play="8C"), PAGAT, "out-of-play",
     "8♣ is already in hand 0"),
    ("card missing", position(("5C 8C", "9C"), out_of_play="2D"), PAGAT, "cards", "missing: 2♣"),
    ("not a card set", Position((-1, cs("9C"), 0), 3, 0), PAGAT, "hand 0", "not a card set"),
    ("table seat", position(("5C", "9C", "2D"), table=((5, "6D"),)), PAGAT, "table",
     "play 1 is by seat 5, which does not exist"),
    ("empty play", Position((cs("5C"), FULL_DECK & ~cs("5C"), 0), 3, 0, table=((1, 0),)), PAGAT, "table",
     "play 1 has no cards"),
    ("not a run", position(("5C", "9C", "2D"), table=((1, "6D 8D"),)), GOAT, "table",
     "is not one card or a run"),
    ("single cards", position(("5C", "9C", "2D"), table=((1, "6D 7D"),)), PAGAT, "table",
     "pagat plays single cards"),
    ("does not beat", position(("5C", "9C", "2D"), table=((1, "9D"), (2, "6D"))), PAGAT, "table",
     "play 2 (6♦) does not beat play 1 (9♦)"),
    ("trump beaten by lower trump", position(("5C", "9C", "2D"), table=((1, "9S"), (2, "6S"))), PAGAT,
     "table", "play 2 (6♠) does not beat play 1 (9♠)"),
    ("out seat holds cards", position(("5C", "9C", "2D"), out=(2,)), PAGAT, "out-seats",
     "seat 2 is out but holds 2♦"),
    ("out seat does not exist", position(("5C", "9C", ""), out=(7,)), PAGAT, "out-seats",
     "seat 7 does not exist"),
    ("out seat twice", position(("5C", "9C", ""), out=(2, 2)), PAGAT, "out-seats", "a seat is listed twice"),
    ("one seat holding", position(("5C", "", "")), PAGAT, "players", "fewer than two seats hold cards"),
    ("to-act holds nothing", position(("5C", "9C", ""), to_act=2), PAGAT, "to-act",
     "seat 2 cannot act: it holds no cards"),
    ("to-act does not exist", position(("5C", "9C", "2D"), to_act=3), PAGAT, "to-act",
     "seat 3 does not exist"),
    ("kill-at reached", position(("5C", "9C", "2D"), table=((0, "6D"), (1, "7D")), kill_at=2), PAGAT,
     "kill-at", "2 plays to kill does not fit 2 plays on the table and 3 seats"),
    ("kill-at above seats", position(("5C", "9C", "2D"), kill_at=4), PAGAT, "kill-at",
     "4 plays to kill does not fit 0 plays on the table and 3 seats"),
]


@pytest.mark.parametrize(("pos", "rules", "field", "words"), [f[1:] for f in DIRECT_FAULTS],
                         ids=[f[0] for f in DIRECT_FAULTS])
def test_check_position_names_the_fault(pos: Position, rules: object, field: str, words: str) -> None:
    with pytest.raises(PositionError) as err:
        check_position(pos, rules)  # type: ignore[arg-type]
    assert err.value.field == field
    assert words in str(err.value)
    assert str(err.value).startswith(f"{field}: ")
    assert isinstance(err.value, ValueError)
    with pytest.raises(PositionError):
        State.from_position(rules, pos)  # type: ignore[arg-type]


def test_default_kill_at_counts_holders_and_seats_that_played_to_the_table() -> None:
    assert default_kill_at(position(("5C", "9C", "2D"))) == 3
    assert default_kill_at(position(("5C", "9C", ""))) == 2
    assert default_kill_at(position(("", "JH", "KH"), to_act=1, table=((0, "7H"),), out=(0,))) == 3


# -- practice_position and State.from_position -----------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 7, 8])
def test_practice_position_deals_all_cards_evenly(players: int) -> None:
    p = practice_position(players, random.Random(players), trump_suit=2)
    assert len(p.hands) == players
    union = 0
    for h in p.hands:
        assert union & h == 0
        union |= h
    assert union == FULL_DECK
    sizes = [h.bit_count() for h in p.hands]
    assert max(sizes) - min(sizes) <= 1 and sum(sizes) == 52
    assert sizes == sorted(sizes, reverse=True)  # dealt one at a time from seat 0
    assert p.trump_suit == 2 and p.to_act == 0 and p.out_of_play == 0 and p.table == ()
    check_position(p, GOAT if players >= 3 else PAGAT)


def test_practice_position_is_seeded_and_draws_a_trump_when_not_given() -> None:
    a = practice_position(4, random.Random(11))
    b = practice_position(4, random.Random(11))
    assert a == b
    assert 0 <= a.trump_suit < 4
    assert {practice_position(3, random.Random(k)).trump_suit for k in range(40)} == {0, 1, 2, 3}
    for suit in range(4):
        assert practice_position(3, random.Random(5), trump_suit=suit).trump_suit == suit
    assert practice_position(4, random.Random(1)).hands != practice_position(4, random.Random(2)).hands


@pytest.mark.parametrize(("players", "suit", "words"), [
    (1, None, "2 to 8 players, not 1"), (9, None, "2 to 8 players, not 9"), (3, 4, "trump suit must be 0..3"),
])
def test_practice_position_rejects_bad_arguments(players: int, suit: int | None, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        practice_position(players, random.Random(0), trump_suit=suit)


def test_from_position_starts_phase_two() -> None:
    p = position(("5C 8C 2D", "9C JC 3D", "QC 4D 6D"), trump=1, to_act=2)
    s = State.from_position(PAGAT, p)
    assert s.phase == Phase.TWO
    assert s.to_act == C and s.trump_suit == 1 and s.trump_known
    assert s.kill_at == 3 and s.table == [] and s.out_order == []
    assert s.hands == list(p.hands) and s.killed == p.out_of_play
    assert s.stock == [] and s.history == [] and s.known == [0, 0, 0]
    assert s.position == p
    assert s.legal_actions() == [parse_action(m) for m in ("play QC", "play 4D", "play 6D")]


def test_from_position_kill_at_default_and_explicit() -> None:
    hands = ("5C", "9C", "", "2D")
    assert State.from_position(PAGAT, position(hands, out=(2,))).kill_at == 3
    assert State.from_position(PAGAT, position(hands, out=(2,), kill_at=4)).kill_at == 4
    mid = position(("", "JH", "KH 3C"), to_act=2, table=((0, "7H"), (1, "9H")), out=(0,))
    assert State.from_position(PAGAT, mid).kill_at == 3
    s = State.from_position(PAGAT, dataclasses.replace(mid, kill_at=3))
    assert s.table == [cs("7H"), cs("9H")] and s.table_owners == [0, 1]


def test_from_position_out_order_listed_seats_first_then_from_the_dealers_left() -> None:
    # ruling E15: seats without cards that the position does not list go out from the dealer's left
    hands = ("", "5C", "", "9C", "")
    p = position(hands, to_act=1, out=(4, 2))
    s = State.from_position(GOAT, p)
    assert s.out_order == [4, 2, 0]
    assert [e for e in s.events if e.kind == "out"] == [Event("out", 4), Event("out", 2), Event("out", 0)]
    assert s.kill_at == 2
    # the position's dealer is seat 0: from its left, seats 2, 4, then 0 (was 0, 2, 4, seat order)
    assert State.from_position(GOAT, position(hands, to_act=1)).dealer == 0
    assert State.from_position(GOAT, position(hands, to_act=1)).out_order == [2, 4, 0]


def test_from_position_game_goes_on_to_a_loser() -> None:
    p = position(("5C 8C 2D", "9C JC 3D", "QC 4D 6D"), trump=0)
    s = State.from_position(PAGAT, p)
    random_playout(s, 3)
    assert s.loser is not None and sorted([*s.out_order, s.loser]) == [0, 1, 2]
    assert s.hands[s.loser] and not any(h for i, h in enumerate(s.hands) if i != s.loser)


def test_from_phase_two_builds_a_position() -> None:
    hands = [cs("5C 8C"), 0, cs("9C TS")]
    s = State.from_phase_two(PAGAT, hands, trump_suit=3, leader=1)
    assert s.to_act == C  # the leader holds nothing: the next seat holding cards leads
    assert s.position is not None
    assert s.position.out_of_play == FULL_DECK & ~cs("5C 8C 9C TS")
    assert s.kill_at == 2 and s.out_order == [1]
    assert s.legal_actions() == [parse_action("play 9C"), parse_action("play TS")]
    assert SUIT_MASKS[3] & s.hands[C] == cs("TS")
