"""Reconnecting resumes the same seat; killing the server mid-deal (SIGKILL of `skitgubbe serve`)
loses no acknowledged move, and the deal goes on after a restart."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from server_helpers import (
    LiveServer,
    Player,
    free_port,
    play_a_round,
    play_until_over,
    serve_process,
    wait_serving,
)


def test_reconnect_resumes_the_same_seat_with_a_full_resync(server: LiveServer) -> None:
    made = server.make_room(preset="goat", players=3, seats=["open", "easy"])
    joined = server.join(made["room"], "Bo")

    async def go() -> None:
        ann = Player(server.ws, made["room"], 0, made["token"], rng=random.Random(3))
        bo = Player(server.ws, made["room"], 1, joined["token"], rng=random.Random(4))
        await ann.connect()
        await bo.connect()
        room = server.hub.rooms[made["room"]]
        # play a little, then Bo's connection drops without a goodbye
        for _ in range(40):
            for p in (ann, bo):
                await p.drain()
                move = p.choose()
                if move is not None:
                    await p.act(move)
        bo.ws.transport.abort()
        seat = room.seat_of(1)
        await until(ann, lambda: ann.last is not None and not ann.last["table"]["seats"][seat]["connected"])
        back = Player(server.ws, made["room"], 1, joined["token"], rng=random.Random(5))
        back.n = bo.n  # the client keeps numbering its moves
        sync = await back.connect()
        assert sync["type"] == "sync" and sync["you"] == {"player": 1, "seat": seat, "name": "Bo"}
        state = room.state
        from skitgubbe.engine.view import view_of
        from skitgubbe.server.protocol import seat_part
        bot_seat = room.seat_of(2)  # the bot may still move; then the table waits for a person
        await until(back, lambda: state.is_over
                    or (state.to_act != bot_seat and bot_seat not in room.pending_seats()))
        await back.drain()
        assert back.last is not None
        assert back.last["me"]["hand"] == seat_part(view_of(state, seat))["hand"]
        assert sync["lines"] == room.lines[: len(sync["lines"])] and sync["lines"][0].startswith("Deal 1")
        await until(ann, lambda: ann.last is not None and ann.last["table"]["seats"][seat]["connected"])
        await play_until_over([ann, back])
        await ann.close()
        await back.close()

    asyncio.run(go())


async def until(p: Player, condition: Callable[[], bool], limit: float = 30) -> None:
    """Read ``p``'s messages until ``condition()`` holds (a safety limit, not a timing assertion)."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "the condition was never reached"
        await p.drain()
        await asyncio.sleep(0.01)


def test_killing_the_server_mid_deal_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/kill.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    ws = f"ws://127.0.0.1:{port}/ws"
    proc = wait_serving(serve_process(db, port), port)
    try:
        made = httpx.post(base + "/api/rooms", json={"name": "Ann", "preset": "goat", "players": 3,
                                                    "seats": ["open", "easy"]}).json()
        joined = httpx.post(f"{base}/api/rooms/{made['room']}/join", json={"name": "Bo"}).json()
        acked: dict[int, list[int]] = {0: [], 1: []}
        seen_seq = 0

        async def before() -> None:
            nonlocal seen_seq
            ps = [Player(ws, made["room"], 0, made["token"], rng=random.Random(1)),
                  Player(ws, made["room"], 1, joined["token"], rng=random.Random(2))]
            for p in ps:
                await p.connect()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                await play_a_round(ps)
                if ps[0].last is not None and ps[0].last["table"]["public"]["seq"] > 30:
                    break
            await asyncio.sleep(0.1)
            for p in ps:
                await p.drain()
                acked[p.player or 0] = [json.loads(m)["ack"] for m in p.received if '"ack":' in m]
                assert p.last is not None
                seen_seq = max(seen_seq, p.last["table"]["public"]["seq"])
            os.kill(proc.pid, signal.SIGKILL)  # no goodbye, no flush
            proc.wait()

        asyncio.run(before())
        assert seen_seq > 10 and acked[0] and acked[1]
        proc = wait_serving(serve_process(db, port), port)

        async def after() -> dict[str, Any]:
            ps = [Player(ws, made["room"], 0, made["token"], rng=random.Random(7)),
                  Player(ws, made["room"], 1, joined["token"], rng=random.Random(8))]
            syncs = [await p.connect() for p in ps]
            for p, sync in zip(ps, syncs, strict=True):
                # every move anyone was shown is still there, and so is every acknowledged one
                assert sync["table"]["public"]["seq"] >= seen_seq
                p.n = max(acked[p.player or 0]) + 1000
            # a replayed move number from before the restart is refused
            await ps[0].send({"type": "act", "n": acked[0][-1], "move": "pass"})
            while True:
                m = await ps[0].recv()
                if m["type"] == "error":
                    playing = syncs[0]["table"]["status"] == "playing"
                    assert m["code"] == ("replayed" if playing else "not-playing"), m
                    break
            await play_until_over(ps)
            m = await ps[0].request({"type": "replay"}, "replay")
            for p in ps:
                await p.close()
            return m

        replay = asyncio.run(after())
        assert replay["complete"] and len(replay["moves"]) >= seen_seq
        assert "skitgubbe-record" in replay["record"]
    finally:
        proc.kill()
        proc.wait()
