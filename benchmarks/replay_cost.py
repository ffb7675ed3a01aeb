"""What a spectator can make the server send by asking for replays (issue 28, item 5).

Plays one long finished deal (the Goat Game with two packs at eight seats, random moves), puts it in a
room of a hub on a throwaway SQLite file, then sends 40 ``replay`` requests from one client over four
spectator connections, as the report's abuser did, first with the replay budget turned off and then
with the defaults (``Limits.replay_bytes``, ``Limits.replay_burst``).  Prints the deal's moves, the
replay's size, the CPU seconds of building it once and of answering from the cache, and the bytes
the 40 requests were answered with in both runs.

    python benchmarks/replay_cost.py [--seed 3] [--requests 40]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

from skitgubbe.server.botpool import BotPool
from skitgubbe.server.hub import Client, Hub, Limits
from skitgubbe.server.rooms import Room, make_spec
from skitgubbe.server.store import Store

HOUSE = Path(__file__).resolve().parent.parent / "examples" / "double-deck.toml"


def long_deal(seed: int) -> Room:
    """A room whose deal (two packs, eight seats, random moves) is over."""
    spec = make_spec(preset=None, house_rules=HOUSE.read_text(), players=8, seats=["random"] * 7)
    room = Room("BENCH1", spec)
    room.apply_entry("join", {"slot": 0, "name": "Ann", "token_hash": "0" * 64})
    rng = random.Random(seed)
    room.apply_entry("start", room.prepare_start(rng))
    state = room.state
    assert state is not None
    while not state.is_over:
        seat = state.to_act
        if seat < 0:
            room.apply_entry("act", room.prepare_bot_act(seat, str(state.chance_action(rng))))
            continue
        seats = [seat, *room.pending_seats()]
        s = rng.choice(seats)
        room.apply_entry("act", room.prepare_bot_act(s, str(rng.choice(state.legal_actions(s)))))
    return room


async def requests(room: Room, limits: Limits, n: int, db: str) -> tuple[int, int]:
    """Bytes sent and requests refused for ``n`` replay requests of one client over four connections."""
    hub = Hub(Store(db), BotPool(0), bot_delay=0, limits=limits)
    hub._add(room)  # the finished room, as a restart would load it
    spies = [Client(rate=1000, burst=1000, key="198.51.100.7") for _ in range(4)]
    for c in spies:
        await hub.receive(c, json.dumps({"type": "hello", "room": room.code, "spectate": True}))
        while not c.outbox.empty():
            c.take_nowait()
    sent = refused = 0
    for i in range(n):
        c = spies[i % 4]
        await hub.receive(c, '{"type": "replay"}')
        while not c.outbox.empty():
            text = c.take_nowait()
            assert text is not None
            if json.loads(text)["type"] == "replay":
                sent += len(text.encode())
            else:
                refused += 1
    await hub.close()
    hub.pool.close()
    hub.store.close()
    return sent, refused


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--requests", type=int, default=40)
    args = ap.parse_args()
    room = long_deal(args.seed)
    assert room.state is not None
    with tempfile.TemporaryDirectory() as tmp:
        async def measure() -> None:
            hub = Hub(Store(f"sqlite:///{tmp}/m.db"), BotPool(0), bot_delay=0)
            t = time.process_time()
            size = len(hub.replay_text(room, None).encode())
            built = time.process_time() - t
            t = time.process_time()
            hub.replay_text(room, None)
            cached = time.process_time() - t
            await hub.close()
            hub.pool.close()
            hub.store.close()
            off = Limits(replay_bytes=1e15, replay_burst=1e15)
            before = await requests(room, off, args.requests, f"sqlite:///{tmp}/a.db")
            after = await requests(room, Limits(), args.requests, f"sqlite:///{tmp}/b.db")
            print(f"deal: {len(room.state.history)} moves, replay {size:,} bytes, built in {built:.2f} CPU s, "
                  f"from the cache in {cached * 1000:.2f} CPU ms")
            for what, (sent, refused) in (("no budget", before), ("the default budget", after)):
                print(f"{args.requests} requests, {what}: {sent:,} bytes sent, {refused} refused "
                      f"(x{sent / (18 * args.requests):,.0f} the 18-byte requests)")
        asyncio.run(measure())


if __name__ == "__main__":
    main()
