"""Replays that outlive their room (issue 17, "Replay"): a permanent link per finished deal served from
the database (after the room has expired and after a restart), and the replay of an uploaded record
file, with a clear refusal naming the line of a malformed one."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest
from server_helpers import LiveServer, Player, play_until_over

from skitgubbe.engine.record import dumps, loads, record_of, replay
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.server.replays import MAX_RECORD_BYTES, is_deal_id, record_replay
from skitgubbe.server.rooms import RoomError
from skitgubbe.server.store import Store


def _finished_deal(server: LiveServer, preset: str = "goat") -> tuple[str, dict]:
    """A deal of ``preset`` played to the end by Ann and two bots; its room code and replay message."""
    server.hub.rng = random.Random(11)
    made = server.make_room(preset=preset, players=3, seats=["easy", "easy"])

    async def go() -> dict:
        ann = Player(server.ws, made["room"], 0, made["token"], rng=random.Random(2))
        await ann.connect()
        await play_until_over([ann])
        msg = await ann.request({"type": "replay"}, "replay")
        await ann.close()
        return msg

    return made["room"], asyncio.run(go())


def test_a_finished_deal_keeps_its_link_after_its_room_is_gone_and_a_restart(server: LiveServer) -> None:
    code, msg = _finished_deal(server)
    deal = msg["deal"]
    assert msg["complete"] and is_deal_id(deal)
    room = server.hub.rooms[code]
    assert deal == room.deal_id()
    stored = httpx.get(f"{server.http}/api/deals/{deal}", timeout=10).json()
    for key in ("names", "hands", "moves", "frames", "record", "deal"):
        assert stored[key] == msg[key], key
    page = httpx.get(f"{server.http}/replay/{deal}", timeout=10)
    assert page.status_code == 200 and "table.js" in page.text

    # the room expires (deleted from the database), then the server restarts: the link still works
    server.stop()
    store = Store(server.db_url)
    assert store.take(code) is not None  # given back when the server stopped
    store.write([("delete", code, 0, "", {})])
    assert code not in store.room_codes()
    store.close()
    server.start()
    assert code not in server.hub.rooms
    again = httpx.get(f"{server.http}/api/deals/{deal}", timeout=10)
    assert again.status_code == 200 and again.json()["frames"] == msg["frames"]


def test_a_deal_in_progress_has_no_link_and_unknown_links_are_404(server: LiveServer) -> None:
    made = server.make_room(preset="pagat", players=3, seats=["open", "open"])
    room = server.hub.rooms[made["room"]]
    assert room.state is None
    with pytest.raises(ValueError):
        room.deal_id()
    # a deal in progress is never kept, so its id shows nothing (hidden cards stay hidden)
    playing = server.hub.rooms[server.make_room(preset="pagat", players=3, seats=["easy", "easy"])["room"]]
    assert playing.status == "playing" and playing.state is not None and not playing.state.is_over
    assert server.hub.store.load_deal(playing.deal_id()) is None
    for deal in (playing.deal_id(), "0123456789abcdef", "nope", "0123456789ABCDEF", "x" * 500):
        r = httpx.get(f"{server.http}/api/deals/{deal}", timeout=10)
        assert r.status_code == 404 and r.json()["error"] == "no-deal", deal


def _record_text(seed: int = 3) -> str:
    rng = random.Random(seed)
    state = State.new(find_variant("goat"), 4, dealer=0, seed=seed)
    while not state.is_over:
        seat = state.to_act if state.to_act >= 0 else -1
        action = state.chance_action(rng) if seat == -1 else rng.choice(state.legal_actions(seat))
        state.apply(action, seat)
    return dumps(record_of(state))


def test_an_uploaded_record_replays_step_by_step(server: LiveServer) -> None:
    text = _record_text()
    r = server.post("/api/records", {"text": text})
    assert r.status_code == 200, r.text
    msg = r.json()
    final = replay(loads(text))
    assert msg["complete"] and msg["over"] and msg["deal"] is None
    assert msg["names"] == [f"Seat {s}" for s in range(4)]
    assert len(msg["frames"]) == len(final.history) + 1 and len(msg["moves"]) == len(final.history)
    assert sum(len(h) for h in msg["hands"]) == 4 * final.rules.hand_size
    end = msg["frames"][-1]
    assert end["public"]["phase"] == "game over" and end["public"]["loser"] == final.loser
    assert end["lines"][-1] == f"Seat {final.loser} is the goat"


@pytest.mark.parametrize(("change", "line", "words"), [
    (lambda t: t.replace("players = 4", "players = 40"), 3, "players"),
    (lambda t: t.replace("deck = ", "deck = XX "), 5, "deck"),
    (lambda t: t.replace("moves:\n", "moves:\n0 play 2C\n"), 7, "move 1 (line 7)"),
    (lambda t: "hello\n" + t, 1, "line 1"),
])
def test_a_malformed_record_is_refused_naming_its_line(server: LiveServer, change: Any, line: int,
                                                       words: str) -> None:
    text = change(_record_text())
    r = server.post("/api/records", {"text": text})
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["error"] == "bad-record", body
    assert words in body["message"] and f"line {line}" in body["message"], body


def test_record_limits() -> None:
    with pytest.raises(RoomError) as e:
        record_replay("x" * (MAX_RECORD_BYTES + 1))
    assert e.value.code == "bad-record"
    with pytest.raises(RoomError) as e:
        record_replay(b"skitgubbe-record = 1\n\xff\n")
    assert e.value.code == "bad-record" and "line 2" in str(e.value)


def test_a_large_record_body_is_accepted_on_its_route_only(server: LiveServer) -> None:
    big = {"text": "# " + "x" * 40_000 + "\n" + _record_text()}
    assert server.post("/api/records", big).status_code == 200
    r = server.post("/api/rooms", {"name": "Ann", "preset": "goat", "players": 3, "seats": ["easy"],
                                   "x": "y" * 40_000})
    assert r.status_code == 413
