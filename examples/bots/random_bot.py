"""A bot from outside that plays a random legal move: the reference client of docs/server.md,
"Bots from outside".

    python examples/bots/random_bot.py ws://127.0.0.1:8000/ws --token TOKEN --ladder
    python examples/bots/random_bot.py ws://127.0.0.1:8000/ws --token TOKEN --room ABC123 --player 2

The token is the one ``skitgubbe bot add NAME`` printed (or set SKITGUBBE_BOT_TOKEN).  With
``--ladder`` it waits in the ladder's queue and plays one match; with ``--room`` it takes the seat it
was invited to and plays ``--deals`` deals.  Needs the ``websockets`` package.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys

import websockets


async def play(url: str, hello: dict[str, object], deals: int, rng: random.Random) -> int:
    """Play until the ladder match or ``deals`` deals are over; returns the moves sent."""
    n = moved = 0
    acted_at = -1  # the deal's move count when this bot last moved
    over: set[int] = set()
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps(hello))
        async for text in ws:
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "error":
                print("refused:", msg["code"], msg["message"], file=sys.stderr)
                if msg["code"] in ("bad-token", "not-invited", "no-room", "bad-field", "full"):
                    return moved
                # a refused move (the table moved on meanwhile): wait for the next position, not resend
            elif kind in ("queued", "seated"):
                print(kind, {k: v for k, v in msg.items() if k != "token"}, file=sys.stderr)
            elif kind == "ladder-over":
                return moved
            elif kind in ("sync", "state"):
                table, me = msg["table"], msg["me"]
                if table["status"] == "over":
                    over.add(table["game"])
                    if "ladder" not in hello and len(over) >= deals:
                        return moved
                    continue
                seq = table["public"]["seq"] if table["public"] else -1
                if me and me["legal"] and seq != acted_at:
                    n += 1
                    acted_at = seq
                    move = rng.choice(me["legal"])["move"]
                    await ws.send(json.dumps({"type": "act", "n": n, "move": move}))
                    moved += 1
    return moved


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("url", help="the server's websocket, e.g. ws://127.0.0.1:8000/ws")
    p.add_argument("--token", default=os.environ.get("SKITGUBBE_BOT_TOKEN"), help="the bot's token")
    p.add_argument("--ladder", action="store_true", help="join the ladder's queue")
    p.add_argument("--room", help="the room it was invited to")
    p.add_argument("--player", type=int, help="the seat it was invited to")
    p.add_argument("--deals", type=int, default=1, help="deals to play at an invited seat; default 1")
    p.add_argument("--seed", type=int, default=None, help="seed of its random choices")
    args = p.parse_args()
    if not args.token or args.ladder == (args.room is not None):
        p.error("give --token and either --ladder or --room with --player")
    hello: dict[str, object] = {"type": "hello", "bot_token": args.token}
    hello.update({"queue": "ladder"} if args.ladder else {"room": args.room, "player": args.player})
    # the query names the table (or the ladder) for a proxy routing by room; the server reads the hello
    url = args.url + ("?queue=ladder" if args.ladder else f"?room={args.room}")
    moved = asyncio.run(play(url, hello, args.deals, random.Random(args.seed)))
    print(f"moves sent: {moved}")
    return 0 if moved else 1


if __name__ == "__main__":
    sys.exit(main())
