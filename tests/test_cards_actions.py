"""Cards (notation, card sets, runs) and actions (notation and parsing)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skitgubbe.engine.actions import Action, ActionParseError, Kind, parse_action, play
from skitgubbe.engine.cards import (
    FULL_DECK,
    SUIT_MASKS,
    CardParseError,
    card,
    card_label,
    card_name,
    cards_in,
    count,
    format_cards,
    highest,
    is_run,
    lowest,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    runs_in,
    suit_of,
)

masks = st.integers(min_value=0, max_value=FULL_DECK)


def c(text: str) -> int:
    return parse_card(text)


def m(text: str) -> int:
    return mask_of(parse_cards(text))


# -- cards -------------------------------------------------------------------------------------


def test_card_numbering() -> None:
    assert card(2, 0) == 0 == c("2C")
    assert card(14, 0) == 12 == c("AC")
    assert card(2, 1) == 13 == c("2D")
    assert card(10, 1) == 21 == c("TD")
    assert card(14, 3) == 51 == c("AS")
    for x in range(52):
        assert card(rank_of(x), suit_of(x)) == x
        assert x == suit_of(x) * 13 + rank_of(x) - 2


@pytest.mark.parametrize(("rank", "suit"), [(1, 0), (15, 0), (2, -1), (2, 4)])
def test_card_out_of_range(rank: int, suit: int) -> None:
    with pytest.raises(ValueError, match="must be"):
        card(rank, suit)


def test_notation_round_trips_for_every_card() -> None:
    names = set()
    for x in range(52):
        name = card_name(x)
        assert len(name) == 2 and name.isascii()
        assert parse_card(name) == x
        assert parse_card(name.lower()) == x
        assert parse_card(f"  {name} ") == x
        label = card_label(x)
        assert label[0] == name[0] and label[1] in "♣♦♥♠"
        assert parse_card(label) == x
        names.add(name)
    assert len(names) == 52
    assert [card_name(x) for x in range(13)] == [r + "C" for r in "23456789TJQKA"]
    assert card_label(c("TD")) == "T♦"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("10h", "TH"), ("10D", "TD"), ("10♠", "TS"), ("T♥", "TH"), ("A♠", "AS"), ("2♣", "2C"), ("K♦", "KD"),
     ("Q♡", "QH"), ("J♢", "JD"), ("9♤", "9S"), ("3♧", "3C"), ("as", "AS"), ("tc", "TC")],
)
def test_accepted_spellings(text: str, expected: str) -> None:
    assert card_name(parse_card(text)) == expected


@pytest.mark.parametrize(
    "text", ["", " ", "X", "1H", "11H", "TX", "ZZ", "TDD", "AH5", "0C", "10", "♠A", "T 5"]
)
def test_card_parse_errors(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(text)
    msg = str(info.value)
    assert repr(text) in msg
    assert "is not a card" in msg and "rank" in msg and "suit" in msg and "e.g. TD" in msg
    assert isinstance(info.value, ValueError)


def test_parse_cards() -> None:
    assert parse_cards("5D 6D,7D") == [c("5D"), c("6D"), c("7D")]
    assert parse_cards("  ah ,, 10c  ") == [c("AH"), c("TC")]
    assert parse_cards("") == []
    assert parse_cards("7h 2c") == [c("7H"), c("2C")]  # in the order written
    with pytest.raises(CardParseError, match="'QX'"):
        parse_cards("5D QX 7D")


# -- card sets ------------------------------------------------------------------------------------


@given(masks)
def test_mask_helpers_agree(mask: int) -> None:
    cards = list(cards_in(mask))
    assert cards == sorted(cards) == [x for x in range(52) if mask >> x & 1]
    assert mask_of(cards) == mask
    assert count(mask) == len(cards)
    if mask:
        assert lowest(mask) == cards[0] and highest(mask) == cards[-1]
    assert format_cards(mask) == " ".join(card_name(x) for x in cards)
    assert mask_of(parse_cards(format_cards(mask))) == mask
    assert mask_of(parse_cards(format_cards(mask, unicode=True))) == mask


def test_mask_edge_cases() -> None:
    assert mask_of([]) == 0 and list(cards_in(0)) == [] and count(0) == 0
    assert mask_of([5, 5]) == 1 << 5
    assert mask_of(range(52)) == FULL_DECK and count(FULL_DECK) == 52
    assert lowest(FULL_DECK) == 0 and highest(FULL_DECK) == 51
    assert format_cards(0) == ""
    assert format_cards(m("TD 2C 7D")) == "2C 7D TD"
    assert format_cards(m("TD 2C"), unicode=True) == "2♣ T♦"
    assert SUIT_MASKS[1] == m("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD")
    assert sum(SUIT_MASKS) == FULL_DECK


@pytest.mark.parametrize(
    ("text", "run"),
    [
        ("7H", True),
        ("5D 6D 7D", True),
        ("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", True),  # a whole suit
        ("QS KS AS", True),
        ("", False),
        ("5D 7D", False),  # a gap
        ("5D 6H", False),  # two suits
        ("5D 5H", False),  # same rank
        ("AC 2D", False),  # the ace does not touch the next suit's two
        ("KC AC 2D", False),
        ("AD 2H 3H", False),
        ("AH 2S", False),
    ],
)
def test_is_run(text: str, run: bool) -> None:
    assert is_run(m(text)) is run


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        ("", []),
        ("7H", ["7H"]),
        ("5D 6D 7D 9D", ["5D 6D 7D", "9D"]),
        ("AC 2D 3D", ["AC", "2D 3D"]),  # split at the suit boundary
        ("KC AC 2D", ["KC AC", "2D"]),
        ("2C 4C 2D", ["2C", "4C", "2D"]),
        ("AS KS QS 3H 2H", ["2H 3H", "QS KS AS"]),
    ],
)
def test_runs_in(text: str, runs: list[str]) -> None:
    assert list(runs_in(m(text))) == [m(r) for r in runs]


@given(masks)
def test_runs_in_partitions_into_maximal_runs(mask: int) -> None:
    runs = list(runs_in(mask))
    total = 0
    for r in runs:
        assert is_run(r)
        assert not total & r
        total |= r
        # maximal: the cards just below and above in the same suit are not in the mask
        lo, hi = lowest(r), highest(r)
        if rank_of(lo) > 2:
            assert not mask >> (lo - 1) & 1
        if rank_of(hi) < 14:
            assert not mask >> (hi + 1) & 1
    assert total == mask
    assert [lowest(r) for r in runs] == sorted(lowest(r) for r in runs)
    assert is_run(mask) == (len(runs) == 1)


# -- actions -------------------------------------------------------------------------------------

EXAMPLES = [
    (Action(Kind.PLAY, m("7H")), "play 7H", "play 7♥"),
    (Action(Kind.PLAY, m("5D 6D 7D")), "play 5D 6D 7D", "play 5♦ 6♦ 7♦"),
    (Action(Kind.STOCK), "stock", "turn up the top stock card"),
    (Action(Kind.SLUFF, m("7C")), "sluff 7C", "sluff 7♣"),
    (Action(Kind.PASS), "pass", "pass (done sluffing)"),
    (Action(Kind.PICK_UP), "pick", "pick up"),
    (Action(Kind.DRECK, m("2C 5H 3D"), (c("5H"), c("2C"), c("3D"))), "dreck 5H 2C 3D", "dreck 2♣ 3♦ 5♥"),
    (Action(Kind.STORE), "store", "store three trumps"),
    (Action(Kind.EXCHANGE), "exchange", "exchange the 2 of trumps for the turned-up trump"),
]


@pytest.mark.parametrize(("action", "text", "label"), EXAMPLES, ids=[e[1] for e in EXAMPLES])
def test_action_notation(action: Action, text: str, label: str) -> None:
    assert str(action) == text
    assert parse_action(text) == action
    assert parse_action(text.upper()) == action
    assert parse_action(f"  {text}  ") == action
    assert action.label() == label


def test_every_kind_has_an_example() -> None:
    assert {a.kind for a, _, _ in EXAMPLES} == set(Kind)


@settings(max_examples=200)
@given(kind=st.sampled_from([Kind.PLAY, Kind.SLUFF]), mask=masks.filter(bool))
def test_card_actions_round_trip(kind: Kind, mask: int) -> None:
    a = Action(kind, mask)
    assert parse_action(str(a)) == a


@given(st.permutations(range(52)), st.integers(min_value=1, max_value=52))
def test_dreck_round_trip_keeps_the_order(perm: list[int], k: int) -> None:
    order = tuple(perm[:k])
    a = Action(Kind.DRECK, mask_of(order), order)
    b = parse_action(str(a))
    assert b == a and b.order == order


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7H", Action(Kind.PLAY, m("7H"))),
        ("5d 6d", Action(Kind.PLAY, m("5D 6D"))),
        ("10h", Action(Kind.PLAY, m("TH"))),
        ("lead 7H", Action(Kind.PLAY, m("7H"))),
        ("beat A♠", Action(Kind.PLAY, m("AS"))),
        ("play 6d,5d", Action(Kind.PLAY, m("5D 6D"))),
        ("pick up", Action(Kind.PICK_UP)),
        ("PICK UP", Action(Kind.PICK_UP)),
        ("pickup", Action(Kind.PICK_UP)),
        ("eat", Action(Kind.PICK_UP)),
        ("done", Action(Kind.PASS)),
        ("turn", Action(Kind.STOCK)),
        ("slough 7c", Action(Kind.SLUFF, m("7C"))),
    ],
)
def test_accepted_action_spellings(text: str, expected: Action) -> None:
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty move"),
        ("   ", "empty move"),
        ("fly", "'fly' is neither a card nor a move: verbs are"),
        ("play", "'play' needs cards"),
        ("sluff", "'sluff' needs cards"),
        ("dreck", "'dreck' needs cards"),
        ("stock 7H", "'stock' takes no cards"),
        ("pass 7H", "'pass' takes no cards"),
        ("pick up 7H", "'pick' takes no cards"),
        ("play 7H 7H", "a card appears twice"),
        ("play 7H 7h", "a card appears twice"),
        ("dreck 2C 3C 2C 2C", "a card appears more than twice in the dreck order"),
        ("play 7X", "'7x' is not a card"),
        ("fly 7H", "'fly' is not a card"),
    ],
)
def test_action_parse_errors(text: str, words: str) -> None:
    with pytest.raises(ActionParseError) as info:
        parse_action(text)
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)


def test_play_helper_and_defaults() -> None:
    assert play(c("5D"), c("6D")) == Action(Kind.PLAY, m("5D 6D"))
    a = Action(Kind.PASS)
    assert a.cards == 0 and a.order == ()
    assert Action(Kind.DRECK, m("2C 3C")) != Action(Kind.DRECK, m("2C 3C"), (0, 1))
    assert str(Action(Kind.DRECK, m("2C 3C"))) == "dreck"  # an order hidden from a view


def test_a_dreck_order_may_name_a_card_twice_for_two_packs() -> None:
    # double deck: the second time a name is written it is the second pack's copy (card + 52)
    action = parse_action("dreck 2C 3C 2C")
    assert action.order == (0, 1, 52) and action.cards == (1 << 0) | (1 << 1) | (1 << 52)
    assert str(action) == "dreck 2C 3C 2C"


@pytest.mark.parametrize("preset, players, decks",
                         [("pagat", 3, 1), ("goat", 4, 1), ("mas", 3, 1), ("goat", 5, 2)])
def test_an_actions_repr_evaluates_back_to_it(preset: str, players: int, decks: int) -> None:
    # python-chess's Move.from_uci('e2e4') is the model: the repr is code that rebuilds the action
    from skitgubbe.engine.actions import CHANCE
    from skitgubbe.engine.state import State
    from skitgubbe.engine.variants import find_variant

    rules = find_variant(preset).with_options({"decks": decks, "dreck_below": 12} if decks == 2 else {})
    state = State.new(rules, players, seed=7)
    rng = random.Random(7)
    seen = 0
    while not state.is_over:
        legal = [state.chance_action(rng)] if state.to_act == CHANCE else state.legal_actions()
        for a in legal:
            assert eval(repr(a), {"Action": Action, "Kind": Kind}) == a
            seen += 1
        state.apply(rng.choice(legal), state.to_act)
    assert seen > 100
    assert repr(Action(Kind.PLAY, 1 << 12)) == "Action.parse('play AC')"
