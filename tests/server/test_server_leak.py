"""The leak test through the real server: whole deals of every preset, and of house rules with
3-player confusion and with two packs, played by scripted seats over websockets with a spectator
watching; every message to every seat and to the spectator is held against what that receiver
may see (tests/server/leak_check.py).  Runs on every CI run (README "Development")."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from leak_check import check_messages
from server_helpers import LiveServer, Player, play_until_over, watch_until_over

from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.view import SPECTATOR, view_of
from skitgubbe.server import protocol
from skitgubbe.server.rooms import Room, make_spec, public_view

CONFUSION = 'preset = "goat"\nname = "goat-confusion"\n[options]\nconfusion = true\n'
TWO_PACKS = 'preset = "goat"\nname = "goat-two-packs"\n[options]\ndecks = 2\ndreck_below = 12\n'

# (what, preset or house rules, seats): every preset at a usual table, then the two house rules
TABLES = [(name, None, max(rules.min_players, min(3 if name != "goat" else 4, rules.max_players)))
          for name, rules in sorted(PRESETS.items())]
TABLES += [("confusion", CONFUSION, 6), ("two-packs", TWO_PACKS, 5)]


def play_and_check(server: LiveServer, what: str, house: str | None, players: int, seed: int) -> int:
    """Play one deal with every seat scripted (random legal moves, out-of-turn sluffs now and
    then) and a spectator; check every message; return how many were checked."""
    server.hub.rng = random.Random(seed)  # the deck, reproducibly
    body = {"house_rules": house} if house is not None else {"preset": what}
    made = server.make_room(players=players, seats=["open"] * (players - 1), **body)
    tokens = [(0, made["token"])]
    for i in range(1, players):
        j = server.join(made["room"], f"P{i}")
        tokens.append((j["player"], j["token"]))

    async def go() -> tuple[list[Player], Player]:
        ps = [Player(server.ws, made["room"], slot, tok, rng=random.Random(seed * 10 + slot))
              for slot, tok in tokens]
        watcher = Player(server.ws, made["room"], None, None, spectate=True)
        await watcher.connect()
        for p in ps:
            await p.connect()
        await asyncio.gather(play_until_over(ps), watch_until_over(watcher))
        await ps[0].request({"type": "replay"}, "replay")
        await watcher.request({"type": "replay"}, "replay")
        for p in [*ps, watcher]:
            await p.close()
        return ps, watcher

    ps, watcher = asyncio.run(go())
    room = server.hub.rooms[made["room"]]
    assert room.status == "over"
    receivers = {room.seat_of(p.player): p for p in ps}
    receivers[SPECTATOR] = watcher
    n = check_messages(room, receivers)
    last = json.loads(ps[0].received[-1])  # once over, the replay shows every hand
    assert last["type"] == "replay" and last["complete"] and len(last["hands"]) == players
    assert len(last["frames"]) == len(last["moves"]) + 1  # the replay steps through every move
    return n


@pytest.mark.parametrize("what, house, players", TABLES, ids=[t[0] for t in TABLES])
def test_no_message_holds_a_card_its_receiver_may_not_see(server: LiveServer, what: str, house: str | None,
                                                          players: int) -> None:
    assert play_and_check(server, what, house, players, seed=len(what) * 7 + players) > 50


def test_the_public_part_of_a_confusion_table_holds_no_partner_hand() -> None:
    # regression: the public part was built from seat 0's view, which under confusion holds seat 3's
    # whole hand, and was sent to every seat and to spectators
    spec = make_spec(preset=None, house_rules=CONFUSION, players=6, seats=["open"] * 5)
    room = Room("CF", spec)
    room.apply_entry("start", room.prepare_start(random.Random(1)))
    state = room.state
    assert state is not None
    known = protocol.public_part(public_view(state), room.seq)["known"]
    for seat in range(6):
        unseen = set(protocol.cards_list(state.hands[seat] & ~state.known[seat]))
        assert unseen and not set(known[seat]) & unseen


def test_the_public_part_refuses_a_seats_view() -> None:
    spec = make_spec(preset="pagat", house_rules=None, players=3, seats=["open"] * 2)
    room = Room("PV", spec)
    room.apply_entry("start", room.prepare_start(random.Random(1)))
    assert room.state is not None
    with pytest.raises(ValueError, match="spectator's view"):
        protocol.public_part(view_of(room.state, 0), room.seq)
