"""The server's words for every action kind, and a Mas table through the exchange of the 2 of
trumps and the storing of three trumps (regression: the server had no word for those two kinds,
so building the message of the seat that could make them failed and the table hung)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("sqlalchemy")

from skitgubbe.engine.actions import Action, Kind  # noqa: E402
from skitgubbe.engine.view import View, view_of  # noqa: E402
from skitgubbe.server import protocol  # noqa: E402
from skitgubbe.server.rooms import Room, make_spec, public_view  # noqa: E402


@pytest.mark.parametrize("kind", list(Kind), ids=[k.name for k in Kind])
def test_every_action_kind_has_a_word_and_a_label(kind: Kind) -> None:
    entry = protocol.seat_part(view_of_with_legal(Action(kind)))["legal"][0]
    assert entry["kind"] == str(Action(kind)).split()[0] and entry["label"]


def view_of_with_legal(action: Action) -> View:
    spec = make_spec(preset="mas", house_rules=None, players=2, seats=["open"])
    room = Room("W", spec)
    room.apply_entry("start", room.prepare_start(random.Random(0)))
    assert room.state is not None
    return view_of(room.state, 0)._replace(legal=(action,))


@pytest.mark.parametrize("seed, kind", [(3, Kind.EXCHANGE), (13, Kind.STORE)])
def test_a_mas_seat_that_may_exchange_or_store_gets_its_moves(seed: int, kind: Kind) -> None:
    # seed 3: seat 0 may exchange the 2 of trumps at once; seed 13: it may store three trumps at
    # move 7 (found by playing these two-seat Mas deals at random)
    spec = make_spec(preset="mas", house_rules=None, players=2, seats=["open"])
    room = Room("MAS", spec)
    room.apply_entry("start", room.prepare_start(random.Random(seed)))
    state = room.state
    assert state is not None
    rng = random.Random(seed)
    while kind not in {a.kind for a in state.legal_actions(0)}:
        seat = state.to_act
        action = state.chance_action(rng) if seat < 0 else rng.choice(state.legal_actions(seat))
        room.apply_entry("act", room.prepare_bot_act(seat, str(action)))
        assert room.status == "playing"
    word = str(Action(kind))
    mine = protocol.seat_part(view_of(state, 0))
    move = next(m for m in mine["legal"] if m["kind"] == word)
    assert move["move"] == word
    protocol.public_part(public_view(state), room.seq)
    room.apply_entry("act", room.prepare_bot_act(0, move["move"]))  # (no one joined: a server move)
    assert any(("exchanges" if kind is Kind.EXCHANGE else "three trumps") in line for line in room.lines[-3:])
