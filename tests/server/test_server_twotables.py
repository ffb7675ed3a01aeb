"""Two linked tables for 10 to 12 people (the Flurst page, "Two tables"): the session logic, and a
whole round over the server: both tables play, then the winners table's loser moves down, the losers
table's first player out moves up, and both new tables deal with everyone seated."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from server_helpers import LiveServer, Player, cards_mentioned, play_until_over

from skitgubbe.engine.variants import PRESETS
from skitgubbe.server.twotables import (
    LOSERS,
    WINNERS,
    Result,
    TwoTables,
    check_rules,
    next_seating,
    table_sizes,
)


def test_table_sizes_for_ten_to_twelve_people() -> None:
    assert [table_sizes(n) for n in (10, 11, 12)] == [(5, 5), (6, 5), (6, 6)]
    for n in (9, 13, 4):
        with pytest.raises(ValueError, match="10 to 12 people"):
            table_sizes(n)


def test_the_rules_must_seat_both_tables() -> None:
    assert check_rules(PRESETS["goat"], 12) == (6, 6)
    with pytest.raises(ValueError, match="pagat is for 2 to 4 players"):
        check_rules(PRESETS["pagat"], 10)
    with pytest.raises(ValueError, match="confusion"):
        check_rules(PRESETS["goat"].replace(confusion=True), 12)


def test_the_loser_moves_down_and_the_first_out_moves_up() -> None:
    winners, losers = next_seating((6, 5), Result(loser=2, first_out=0), Result(loser=1, first_out=4))
    assert winners == [(WINNERS, 0), (WINNERS, 1), (LOSERS, 4), (WINNERS, 3), (WINNERS, 4), (WINNERS, 5)]
    assert losers == [(LOSERS, 0), (LOSERS, 1), (LOSERS, 2), (LOSERS, 3), (WINNERS, 2)]
    # everyone has exactly one place next round
    everyone = [(WINNERS, s) for s in range(6)] + [(LOSERS, s) for s in range(5)]
    assert sorted(winners + losers) == sorted(everyone)
    # a deal that named nobody (abandoned): nobody moves
    stay = next_seating((5, 5), Result(None, None), Result(1, 4))
    assert stay == ([(WINNERS, s) for s in range(5)], [(LOSERS, s) for s in range(5)])
    with pytest.raises(ValueError):
        next_seating((5, 5), Result(5, 0), Result(1, 0))


def test_the_session_tells_each_slot_where_it_goes() -> None:
    s = TwoTables("S", (5, 5), rounds=[("W1", "L1")])
    assert s.info("W1")["next"] is None and s.info("L1")["table"] == "losers table"
    s.advance(("W2", "L2"), next_seating((5, 5), Result(3, 1), Result(0, 2)), {"down": "Di", "up": "Lu"})
    goes = s.info("W1")["next"]
    assert goes[3] == {"room": "L2", "player": 2, "table": "losers table"}
    assert goes[0] == {"room": "W2", "player": 0, "table": "winners table"}
    assert s.info("L1")["next"][2] == {"room": "W2", "player": 3, "table": "winners table"}
    assert s.info("W2") == {"code": "S", "round": 2, "table": "winners table", "rooms": ["W2", "L2"],
                            "moves": [{"down": "Di", "up": "Lu"}], "next": None}
    with pytest.raises(ValueError):
        s.info("XX")


def test_refusals(server: LiveServer) -> None:
    for body, code in [({"name": "Ann", "preset": "goat", "people": 9}, "bad-table"),
                       ({"name": "Ann", "preset": "pagat", "people": 10}, "bad-table"),
                       ({"name": "Ann", "preset": "nope", "people": 10}, "bad-rules"),
                       ({"name": "Ann", "people": 10}, "bad-rules"),
                       ({"name": "Ann", "preset": "goat", "people": "10"}, "bad-field")]:
        r = server.post("/api/twotables", body)
        assert r.status_code == 400 and r.json()["error"] == code, (body, r.text)
    assert server.hub.rooms == {}


def test_a_whole_round_of_two_tables(server: LiveServer) -> None:
    server.hub.rng = random.Random(7)
    r = server.post("/api/twotables", {"name": "P0", "preset": "goat", "people": 10})
    assert r.status_code == 200, r.text
    made = r.json()
    w_code, l_code = made["rooms"]
    seats = {(w_code, 0): made["token"]}
    names = iter(f"P{k}" for k in range(1, 10))
    for code, size in ((w_code, 5), (l_code, 5)):
        for _ in range(size - (code == w_code)):
            j = server.join(code, next(names))
            seats[(code, j["player"])] = j["token"]
    taken = server.post(f"/api/rooms/{l_code}/join", {"name": "p0"})  # (the losers table is full by now)
    assert taken.status_code == 409
    w_room, l_room = server.hub.rooms[w_code], server.hub.rooms[l_code]
    assert w_room.status == l_room.status == "playing"

    async def go() -> dict[tuple[str, int], dict]:
        players = {k: Player(server.ws, k[0], k[1], tok, rng=random.Random(k[1])) for k, tok in seats.items()}
        for p in players.values():
            await p.connect()
        again = players[(w_code, 0)]
        await play_until_over(list(players.values()), limit=240)
        await asyncio.sleep(0.3)
        for p in players.values():
            await p.drain()
        refused = await again.request({"type": "again"}, "error")
        assert refused["code"] == "bad-request" and "two tables" in refused["message"]
        last = {k: p.last for k, p in players.items()}
        for p in players.values():
            await p.close()
        return last

    last = asyncio.run(go())
    session = server.hub.sessions[made["session"]]
    assert len(session.rounds) == 2
    new_w, new_l = (server.hub.rooms[c] for c in session.rooms)
    loser_slot = w_room.seating[w_room.state.loser]
    first_out_slot = l_room.seating[l_room.state.out_order[0]]
    goat, up = w_room.players[loser_slot], l_room.players[first_out_slot]
    assert session.moves == [{"down": goat.name, "up": up.name}]
    assert new_l.players[first_out_slot].name == goat.name and new_w.players[loser_slot].name == up.name
    assert new_w.status == new_l.status == "playing"  # everyone seated: both deal at once
    # every player's last message says where it goes; the token it has works there
    for (code, slot), msg in last.items():
        info = msg["table"]["session"]
        assert info["moves"] == session.moves and not cards_mentioned(json.dumps(info))
        goes = info["next"][slot]
        target = server.hub.rooms[goes["room"]]
        assert target.find_token(goes["player"], seats[(code, slot)])
        assert target.players[goes["player"]].name == server.hub.rooms[code].players[slot].name
