"""A whole deal through the real websocket against bots, its messages checked for hidden cards
(the leak test of every preset is tests/server/test_server_leak.py)."""

from __future__ import annotations

import asyncio
import json
import random

from leak_check import check_messages
from server_helpers import LiveServer, Player, play_until_over


def test_a_deal_against_bots_through_the_websocket(db_url: str) -> None:
    server = LiveServer(db_url).start()
    try:
        _deal_against_bots(server)
    finally:
        server.stop()


def _deal_against_bots(server: LiveServer) -> None:
    made = server.make_room(preset="pagat", players=3, seats=["easy", "easy"])

    async def go() -> Player:
        p = Player(server.ws, made["room"], 0, made["token"], rng=random.Random(1))
        first = await p.connect()
        assert first["type"] == "sync" and first["you"] == {"player": 0, "seat": 0, "name": "Ann"}
        assert first["table"]["status"] == "playing"  # no open seat: the deal starts at once
        await play_until_over([p])
        await p.close()
        return p

    p = asyncio.run(go())
    assert p.last is not None
    table = p.last["table"]
    assert table["status"] == "over" and table["public"]["loser"] in (0, 1, 2)
    assert sum(s["goats"] for s in table["seats"]) == 1
    assert any("Trump revealed" in line for raw in p.received for line in json.loads(raw).get("lines", []))
    room = server.hub.rooms[made["room"]]
    assert room.state.is_over and len(room.state.history) == table["public"]["seq"]
    assert check_messages(room, {0: p}) > 20
