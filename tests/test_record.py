"""The game-record format (skitgubbe.engine.record): round trips, hand-written records, malformed
records with the line and field at fault, and replay errors."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skitgubbe.engine.actions import CHANCE, Action, Kind, parse_action
from skitgubbe.engine.cards import card_name, mask_of, parse_card, parse_cards
from skitgubbe.engine.record import (
    FORMAT_VERSION,
    Record,
    RecordFormatError,
    ReplayError,
    dumps,
    loads,
    record_of,
    replay,
)
from skitgubbe.engine.state import State, deck_from_seed
from skitgubbe.engine.variants import PRESETS, find_variant

TABLES = [
    (name, n)
    for name, rules in sorted(PRESETS.items())
    for n in range(rules.min_players, rules.max_players + 1)
]


def random_game(preset: str, players: int, seed: int, *, live: bool = False, stop: int = -1,
                dealer: int = 0, leader: int | None = None) -> State:
    """A deal from ``seed`` played with random legal actions (any acting seat when live) until it
    ends or ``stop`` actions were taken."""
    state = State.new(find_variant(preset), players, seed=seed, dealer=dealer, leader=leader, live=live)
    rng = random.Random(seed)
    while not state.is_over and len(state.history) != stop:
        if state.to_act == CHANCE:
            state.apply(state.chance_action(rng), CHANCE)
            continue
        seat = rng.choice(state.acting_seats()) if live else state.to_act
        legal = state.legal_actions(seat)
        state.apply(legal[rng.randrange(len(legal))], seat)
    return state


def same_game(a: State, b: State) -> None:
    assert a.hands == b.hands
    assert a.piles == b.piles
    assert a.known == b.known
    assert a.stock == b.stock
    assert a.table == b.table
    assert a.killed == b.killed
    assert a.history == b.history
    assert a.events == b.events
    assert (a.phase, a.to_act, a.trump_suit, a.trump_card) == (b.phase, b.to_act, b.trump_suit, b.trump_card)
    assert a.outcome == b.outcome


# -- round trips -------------------------------------------------------------------------------


@pytest.mark.parametrize("table", TABLES, ids=[f"{p}-{n}" for p, n in TABLES])
@pytest.mark.parametrize("live", [False, True], ids=["sequential", "live"])
@pytest.mark.parametrize("finished", [True, False], ids=["finished", "unfinished"])
def test_round_trip(table: tuple[str, int], live: bool, finished: bool) -> None:
    preset, players = table
    seed = 1000 * players + 7 * live + finished
    stop = -1 if finished else 40 + seed % 60
    state = random_game(preset, players, seed, live=live, stop=stop, dealer=seed % players)
    assert state.is_over == finished
    if finished:
        assert state.loser is not None
    record = record_of(state, seed=seed)
    text = dumps(record)
    loaded = loads(text)
    assert dumps(loaded) == text
    assert dataclasses.replace(loaded, move_lines=()) == record
    assert loaded.live == live and loaded.seed == seed and loaded.loser == state.loser
    assert ("protocol = live" in text) == live
    assert text.splitlines()[0] == f"skitgubbe-record = {FORMAT_VERSION}"
    # each move's line number points at that move's text
    lines = text.splitlines()
    assert len(loaded.move_lines) == len(loaded.moves) == len(state.history)
    for (seat, action), no in zip(loaded.moves, loaded.move_lines, strict=True):
        assert lines[no - 1] == f"{'chance' if seat == CHANCE else seat} {action}"
    same_game(replay(loaded), state)
    # part of the way, too
    k = len(state.history) // 2
    same_game(replay(loaded, upto=k), random_game(preset, players, seed, live=live, stop=k,
                                                  dealer=seed % players))


def test_round_trip_without_seed_and_with_leader() -> None:
    state = random_game("goat", 5, 3, leader=2, dealer=4)
    record = record_of(state)
    text = dumps(record)
    assert "seed" not in text and "leader = 2" in text and "dealer = 4" in text
    loaded = loads(text)
    assert loaded.seed is None and loaded.leader == 2 and loaded.dealer == 4
    assert dumps(loads(text)) == text
    same_game(replay(loaded), state)


def test_default_leader_is_not_written() -> None:
    state = random_game("pagat", 3, 5, stop=4, dealer=1, leader=2)  # 2 is the dealer's left
    assert record_of(state).leader is None
    assert "leader" not in dumps(record_of(state))


@pytest.mark.parametrize("seed", ["abc", "x y", "42", "-7", "a#b", " padded ", "", 'a"#b'])
def test_string_seeds_round_trip(seed: str) -> None:
    """deck_from_seed and record_of take str seeds; dumps must write them so that loads reads
    back the same seed (and so the same deck): "42" and 42 shuffle differently."""
    state = State.new(find_variant("pagat"), 3, seed=seed)
    record = record_of(state, seed=seed)
    text = dumps(record)
    loaded = loads(text)
    assert loaded.seed == seed
    assert loaded.deck == deck_from_seed(seed) == state.deck
    assert dumps(loaded) == text


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=10) | st.integers())
def test_any_seed_round_trips(seed: str | int) -> None:
    """Any seed record_of accepts (an int or any text) comes back from dumps/loads unchanged."""
    state = State.new(find_variant("goat"), 3, seed=seed)
    text = dumps(record_of(state, seed=seed))
    loaded = loads(text)
    assert loaded.seed == seed and type(loaded.seed) is type(seed)
    assert loaded.deck == state.deck


# -- hand-written records ------------------------------------------------------------------------

# pagat, 3 seats, dealer 0, seed 42.  deck_from_seed(42) starts
#   JC QD AD 5C TD AH 5D 2S 8D | KC 9S KD 9H 5H 7H ...
# dealt one at a time from the dealer's left: seat 1 JC 5C 5D, seat 2 QD TD 2S, seat 0 AD AH 8D;
# the stock's top cards are KC, 9S, KD, 9H, 5H, 7H.  Seat 1 leads to seat 2 (two-card tricks).
SEED_RECORD = """\
# a short pagat game
skitgubbe-record = 1
rules = pagat        # by name
players = 3
dealer = 0
seed = 42

moves:
1 play 5C     # draws KC
2 play 2S     # draws 9S; 5C wins, seat 1 leads to seat 2
1 5d          # a bare card means play; draws KD
2 play TD     # draws 9H; TD wins, seat 2 leads to seat 0
2 turn        # turns up 5H
0 play AD     # draws 7H; AD wins
"""


def test_hand_written_seed_record() -> None:
    deck = deck_from_seed(42)
    assert [card_name(c) for c in deck[:15]] == (
        ["JC", "QD", "AD", "5C", "TD", "AH", "5D", "2S", "8D", "KC", "9S", "KD", "9H", "5H", "7H"]
    )
    record = loads(SEED_RECORD)
    assert record.rules is PRESETS["pagat"]
    assert (record.players, record.dealer, record.seed, record.leader, record.live) == (3, 0, 42, None, False)
    assert record.deck == deck
    assert record.move_lines == (9, 10, 11, 12, 13, 14)
    assert record.moves[2] == (1, Action(Kind.PLAY, mask_of([parse_card("5D")])))
    assert record.moves[4] == (2, Action(Kind.STOCK))
    state = replay(record)
    m = mask_of
    assert state.hands == [m(parse_cards("AH 8D 7H")), m(parse_cards("JC KC KD")), m(parse_cards("QD 9S 9H"))]
    assert state.piles == [m(parse_cards("5H AD")), m(parse_cards("5C 2S")), m(parse_cards("5D TD"))]
    assert state.to_act == 0 and state.tricks == 3
    assert len(state.stock) == 52 - 9 - 6
    assert [e.seat for e in state.events if e.kind == "win"] == [1, 2, 0]
    assert not state.is_over


# The deck in card order (2C 3C ... AS).  pagat, 2 seats, dealer 0: seat 1 gets 2C 4C 6C and
# seat 0 3C 5C 7C; the stock's top is 8C, then 9C, TC, JC, QC, KC, AC, 2D...
ORDERED_DECK = " ".join(card_name(c) for c in range(52))
DECK_RECORD = f"""\
skitgubbe-record = 1
rules = skitgubbe
players = 2
dealer = 0
deck = {ORDERED_DECK}
moves:
1 play 6C
0 play 7C
0 play 3C
1 play 2C
0 stock
1 play 8C
loser = 1
"""


def test_hand_written_deck_record() -> None:
    assert ORDERED_DECK.startswith("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D")
    record = loads(DECK_RECORD)
    assert record.deck == tuple(range(52)) and record.seed is None and record.loser == 1
    assert record.rules.name == "pagat"
    state = replay(record, upto=len(record.moves))
    m = mask_of
    # 7C beats 6C, 3C beats 2C, the turned-up QC beats 8C: seat 0 wins all three tricks
    assert state.piles == [m(parse_cards("6C 7C 2C 3C QC 8C")), 0]
    assert state.hands == [m(parse_cards("5C 9C TC")), m(parse_cards("4C JC KC"))]
    assert state.to_act == 0 and len(state.stock) == 52 - 6 - 6
    # the record claims a loser although the game goes on
    with pytest.raises(ReplayError) as info:
        replay(record)
    e = info.value
    assert e.action is None and e.index == len(record.moves) == 6 and e.seat == 1
    assert "the game is not over" in e.reason and "seat 1 loses" in e.reason


# -- malformed records -------------------------------------------------------------------------

GOOD = """\
skitgubbe-record = 1
rules = pagat
players = 3
dealer = 0
seed = 42
moves:
1 play 5C
2 play 2S
"""


def _edit(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, 1)


DECK_42 = " ".join(card_name(c) for c in deck_from_seed(42))

MALFORMED = [
    # (id, text, line, field, words in the message)
    ("unknown key", _edit("dealer = 0\n", "dealer = 0\ncolour = red\n"), 5, "colour", "unknown field"),
    ("not key = value", _edit("dealer = 0\n", "dealer = 0\nhello\n"), 5, "hello", "key = value"),
    ("missing players", _edit("players = 3\n", ""), 0, "players", "missing"),
    ("missing version", _edit("skitgubbe-record = 1\n", ""), 0, "skitgubbe-record", "missing"),
    ("players too many", _edit("players = 3", "players = 5"), 3, "players", "out of range 2..4"),
    ("players too few", _edit("players = 3", "players = 1"), 3, "players", "out of range 2..4"),
    ("players not a number", _edit("players = 3", "players = three"), 3, "players", "not a whole number"),
    ("goat players", _edit("rules = pagat\nplayers = 3", "rules = goat\nplayers = 9"), 3, "players", "3..8"),
    ("dealer out of range", _edit("dealer = 0", "dealer = 3"), 4, "dealer", "out of range 0..2"),
    ("leader out of range", _edit("dealer = 0", "dealer = 0\nleader = -1"), 5, "leader", "out of range"),
    ("bad protocol", _edit("dealer = 0", "dealer = 0\nprotocol = fast"), 5, "protocol", "'fast'"),
    ("duplicate header", _edit("dealer = 0\n", "dealer = 0\nplayers = 3\n"), 5, "players",
     "given twice (first on line 3)"),
    ("wrong version", _edit("skitgubbe-record = 1", "skitgubbe-record = 2"), 1, "skitgubbe-record",
     "'2' is not supported"),
    ("unknown rules", _edit("rules = pagat", "rules = whist"), 2, "rules", "no rules called 'whist'"),
    ("bad card in deck", _edit("seed = 42\n", "deck = " + DECK_42.replace("KC", "KX") + "\n"), 5, "deck",
     "'KX' is not a card"),
    ("deck of 51 cards", _edit("seed = 42\n", "deck = " + DECK_42.rsplit(" ", 1)[0] + "\n"), 5, "deck",
     "got 51 cards"),
    ("deck with a card twice", _edit("seed = 42\n", "deck = " + DECK_42.replace("3S", "JC") + "\n"), 5,
     "deck", "1 missing"),
    ("deck not the seed's", _edit("seed = 42\n", "seed = 42\ndeck = " + ORDERED_DECK + "\n"), 6, "deck",
     "seed = 42"),
    ("neither deck nor seed", _edit("seed = 42\n", ""), 0, "deck", "missing"),
    ("unquoted text seed", _edit("seed = 42", "seed = forty-two"), 5, "seed", "quoted text"),
    ("seat out of range", _edit("2 play 2S", "3 play 2S"), 8, "moves", "seat 3 does not exist"),
    ("negative seat", _edit("2 play 2S", "-2 play 2S"), 8, "moves", "a seat number or 'chance', not '-2'"),
    ("minus one is not chance", _edit("2 play 2S", "-1 play 2S"), 8, "moves", "not '-1'"),
    ("seat not a number", _edit("2 play 2S", "two play 2S"), 8, "moves", "'two'"),
    ("unparseable move", _edit("2 play 2S", "2 fly 2S"), 8, "moves", "'fly' is not a card"),
    ("unknown verb alone", _edit("2 play 2S", "2 fly"), 8, "moves", "neither a card nor a move"),
    ("move takes no cards", _edit("2 play 2S", "2 stock 2S"), 8, "moves", "takes no cards"),
    ("move after loser", GOOD + "loser = 1\n2 play 9S\n", 10, "moves", "no move may follow"),
    ("loser out of range", GOOD + "loser = 3\n", 9, "loser", "out of range 0..2"),
]


@pytest.mark.parametrize(("text", "line", "field", "words"), [m[1:] for m in MALFORMED],
                         ids=[m[0] for m in MALFORMED])
def test_malformed_record(text: str, line: int, field: str, words: str) -> None:
    with pytest.raises(RecordFormatError) as info:
        loads(text)
    e = info.value
    assert (e.line, e.field) == (line, field), str(e)
    assert words in str(e)
    assert str(e).startswith(f"line {line}, {field}:" if line else f"record, {field}:")
    assert isinstance(e, ValueError)


def test_good_base_record_loads() -> None:
    """The base of the malformed records is itself fine (so each case fails for its one fault)."""
    record = loads(GOOD)
    assert record.moves == ((1, parse_action("play 5C")), (2, parse_action("play 2S")))
    assert replay(record).piles[1] == mask_of(parse_cards("5C 2S"))


# -- replay errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "index", "seat", "action", "reason"),
    [
        ("1 play 5C\n1 play JC\n", 1, 1, "play JC", "it is seat 2's turn to play, not yours"),
        ("1 play 5C\n2 play AD\n", 1, 2, "play AD", "you do not hold A♦"),
        ("1 play 5C\n2 pick\n", 1, 2, "pick", "there is nothing to pick up in phase one"),
        ("1 pass\n", 0, 1, "pass", "you have no sluff window open"),
        ("1 sluff 5C\n", 0, 1, "sluff 5C", "these rules have no sluffing"),
        ("chance dreck 2C 3C\n", 0, CHANCE, "dreck 2C 3C", "there is no dreck to deal now"),
    ],
)
def test_illegal_move_raises_replay_error(
    moves: str, index: int, seat: int, action: str, reason: str
) -> None:
    text = GOOD.split("moves:\n")[0] + "moves:\n" + moves
    record = loads(text)
    with pytest.raises(ReplayError) as info:
        replay(record)
    e = info.value
    assert (e.index, e.seat, e.action) == (index, seat, parse_action(action))
    assert e.line == 7 + index
    assert text.splitlines()[e.line - 1].endswith(action)
    assert e.reason.startswith(reason), e.reason
    assert str(e).startswith(f"move {index + 1} (line {e.line}): seat {seat} {action}: ")
    # the moves before the bad one replay fine
    assert len(replay(record, upto=index).history) == index


def test_illegal_move_in_a_record_built_in_code_has_no_line() -> None:
    state = random_game("pagat", 2, 9, stop=3)
    record = record_of(state)
    bad = dataclasses.replace(record, moves=record.moves + ((state.to_act, Action(Kind.PICK_UP)),))
    with pytest.raises(ReplayError) as info:
        replay(bad)
    assert (info.value.index, info.value.line) == (3, 0)
    assert str(info.value).startswith("move 4: ")


@pytest.mark.parametrize("preset, players", [("pagat", 3), ("goat", 6)])
def test_wrong_claimed_loser(preset: str, players: int) -> None:
    state = random_game(preset, players, 21)
    assert state.loser is not None
    record = record_of(state, seed=21)
    assert replay(record).loser == state.loser
    wrong = (state.loser + 1) % players
    text = dumps(record).replace(f"loser = {state.loser}\n", f"loser = {wrong}\n")
    loaded = loads(text)
    assert loaded.loser == wrong
    with pytest.raises(ReplayError) as info:
        replay(loaded)
    e = info.value
    assert e.action is None and e.index == len(record.moves) and e.seat == wrong
    assert e.reason == f"the record says seat {wrong} loses, but seat {state.loser} loses"
    assert str(e) == f"after the last move: {e.reason}"
    # replaying only part of it does not check the claim
    assert replay(loaded, upto=len(record.moves)).loser == state.loser


def test_record_is_frozen_and_minimal_record_replays() -> None:
    record = Record(rules=PRESETS["pagat"], players=2, dealer=1, deck=tuple(range(52)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.players = 3  # type: ignore[misc]
    text = dumps(record)
    assert text == (
        "skitgubbe-record = 1\nrules = pagat\nplayers = 2\ndealer = 1\n"
        f"deck = {ORDERED_DECK}\nmoves:\n"
    )
    state = replay(loads(text))
    assert state.to_act == 0 and not state.history  # the dealer's left leads


# -- hostile input (issue 14): every malformed value names its line and field ------------------------

GOAT_GOOD = GOOD.replace("rules = pagat", "rules = goat")
POSITION = """\
skitgubbe-record = 1
rules = pagat
players = 3
start = phase-two
hand 0 = 5C 8C
hand 1 = 9C JC
trump = S
to-act = 0
out-of-play = rest
moves:
"""

HOSTILE = [
    # (id, text, line, field, words in the message)
    ("seat in Unicode digits", _edit("2 play 2S", "² play 2S"), 8, "moves", "a seat number"),
    ("seat in Arabic-Indic digits", _edit("2 play 2S", "٢ play 2S"), 8, "moves", "a seat number"),
    ("seat of 5,000 digits", _edit("2 play 2S", "9" * 5000 + " play 2S"), 8, "moves", "a seat number"),
    ("players in Unicode digits", _edit("players = 3", "players = ٣"), 3, "players", "not a whole number"),
    ("players of 5,000 digits", _edit("players = 3", "players = " + "9" * 5000), 3, "players",
     "not a whole number"),
    ("players with an underscore", _edit("players = 3", "players = 0_3"), 3, "players", "not a whole number"),
    ("dealer written with a plus", _edit("dealer = 0", "dealer = +0"), 4, "dealer", "not a whole number"),
    ("seed of two minus signs", _edit("seed = 42", "seed = --42"), 5, "seed", "a whole number or a quoted"),
    ("seed of minus signs only", _edit("seed = 42", "seed = --"), 5, "seed", "a whole number or a quoted"),
    ("seed in Unicode digits", _edit("seed = 42", "seed = ²"), 5, "seed", "a whole number or a quoted"),
    ("seed of 5,000 digits", _edit("seed = 42", "seed = " + "9" * 5000), 5, "seed", "at most 1000 digits"),
    ("seed with an escaped lone surrogate", _edit("seed = 42", 'seed = "\\ud800"'), 5, "seed",
     "lone surrogate"),
    ("seed with a lone surrogate", _edit("seed = 42", 'seed = "a\ud800"'), 5, "seed", "lone surrogate"),
    ("rule value in Unicode digits", _edit("rules = pagat\n", "rules = pagat\nrule hand_size = ²\n"), 3,
     "rule hand_size", "'²' is not allowed; give a whole number, 1 to 6"),
    ("rule value of 5,000 digits",
     _edit("rules = pagat\n", "rules = pagat\nrule hand_size = " + "9" * 5000 + "\n"), 3,
     "rule hand_size", "give a whole number, 1 to 6"),
    ("rule value out of range", _edit("rules = pagat\n", "rules = pagat\nrule reserve = 31\n"), 3,
     "rule reserve", "31 is not allowed; give a whole number, 0 to 30"),
    ("confusion with 5 seats",
     GOAT_GOOD.replace("rules = goat\n", "rules = goat\nrule confusion = true\n").replace(
         "players = 3", "players = 5"), 4, "players", "3-player confusion is played with 6 seats, not 5"),
    ("hand in Unicode digits", POSITION.replace("hand 1 =", "hand ² ="), 6, "hand ²", "no such seat"),
    ("hand of 5,000 digits", POSITION.replace("hand 1 =", "hand " + "9" * 5000 + " ="), 6,
     "hand " + "9" * 5000, "no such seat"),
    ("table seat in Unicode digits", POSITION.replace("to-act = 0\n", "to-act = 0\ntable = ² 4C\n"), 9,
     "table", "must start with its seat number"),
    ("table seat of 5,000 digits",
     POSITION.replace("to-act = 0\n", "to-act = 0\ntable = " + "9" * 5000 + " 4C\n"), 9, "table",
     "must start with its seat number"),
    ("out-seats in Unicode digits", POSITION.replace("to-act = 0\n", "to-act = 0\nout-seats = ²\n"), 9,
     "out-seats", "seat numbers"),
    ("out-seats of 5,000 digits",
     POSITION.replace("to-act = 0\n", "to-act = 0\nout-seats = " + "9" * 5000 + "\n"), 9, "out-seats",
     "seat numbers"),
    ("to-act in Unicode digits", POSITION.replace("to-act = 0", "to-act = ０"), 8, "to-act",
     "not a whole number"),
]


@pytest.mark.parametrize(("text", "line", "field", "words"), [m[1:] for m in HOSTILE],
                         ids=[m[0] for m in HOSTILE])
def test_hostile_values_name_their_line_and_field(text: str, line: int, field: str, words: str) -> None:
    with pytest.raises(RecordFormatError) as info:
        loads(text)
    e = info.value
    assert (e.line, e.field) == (line, field), str(e)
    assert words in str(e)
    assert str(e).startswith(f"line {line}, ")
    assert "\n" not in str(e) and len(str(e)) < 400, "the value at fault is shown shortened"


def test_a_good_position_record_loads() -> None:
    """The base of the hostile position records is itself fine."""
    assert loads(POSITION).position is not None


@pytest.mark.parametrize(
    ("data", "line", "field"),
    [
        (GOOD.encode().replace(b"seed = 42", b"seed = 4\xff2"), 5, "seed"),
        (GOOD.encode().replace(b"2 play 2S", b"2 play 2\xc3"), 8, "moves"),
        (b"\xfe\xff" + GOOD.encode(), 1, "header"),
        (GOOD.encode().replace(b"dealer = 0\n", b"dealer = 0\n\xed\xa0\x80 = 1\n"), 5, "header"),
    ],
    ids=["in a header value", "in a move", "a UTF-16 byte order mark", "an encoded surrogate"],
)
def test_bytes_that_are_not_utf8_name_the_line(data: bytes, line: int, field: str) -> None:
    with pytest.raises(RecordFormatError) as info:
        loads(data)
    assert (info.value.line, info.value.field) == (line, field), str(info.value)
    assert "not UTF-8" in str(info.value) and "a record is UTF-8 text" in str(info.value)


def test_records_given_as_bytes_read_like_text() -> None:
    assert loads(GOOD.encode()) == loads(GOOD)
    assert loads(b"\xef\xbb\xbf" + GOOD.encode()) == loads(GOOD)  # a UTF-8 byte order mark is skipped
