"""Helpers for the server tests: a real uvicorn server on a loopback port in a thread, scripted
websocket players, and finding the cards a message names."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import httpx  # noqa: E402
import uvicorn  # noqa: E402
import websockets  # noqa: E402

from skitgubbe.server.app import create_app  # noqa: E402

CARD_RE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([CDHS♣♦♥♠])(?![A-Za-z0-9])")
SUIT_OF = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_mentioned(text: str) -> set[str]:
    """Every card named in ``text`` (``"7H"``, ``"7♥"``, ``"TD"`` or ``"10♦"``), in notation."""
    return {("T" if r == "10" else r) + SUIT_OF.get(s, s) for r, s in CARD_RE.findall(text)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_process(db: str, port: int, *options: str, env: dict[str, str] | None = None,
                  output: IO[bytes] | int = subprocess.PIPE) -> subprocess.Popen[bytes]:
    """A real ``skitgubbe serve`` process on ``db`` and 127.0.0.1:``port`` (one bot worker, no bot
    delay, then ``options``), its standard output and error both to ``output``; not waited for:
    :func:`wait_serving`."""
    return subprocess.Popen(
        [sys.executable, "-m", "skitgubbe.play.cli", "serve", "--db", db, "--port", str(port),
         "--bot-workers", "1", "--bot-delay", "0", *options],
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}, stdout=output, stderr=subprocess.STDOUT)


def wait_serving(proc: subprocess.Popen[bytes], port: int,
                 said: Callable[[], str] = lambda: "") -> subprocess.Popen[bytes]:
    """``proc`` once it answers on ``port`` (30 seconds at most); else it is killed and RuntimeError
    raised with what it printed (its piped output, or what ``said()`` reads)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/options", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    printed = proc.communicate()[0] if proc.stdout is not None else None
    raise RuntimeError("skitgubbe serve did not start: " + (printed or b"").decode() + said())


class LiveServer:
    """``skitgubbe serve``'s app on 127.0.0.1 in a thread; ``stop()`` ends it like a kill
    (no goodbye to clients), ``start()`` starts it again on the same database and port."""

    def __init__(self, db_url: str, **app_args: Any) -> None:
        self.db_url = db_url
        self.app_args = {"bot_workers": 0, "bot_delay": 0.0, "rate": 1000.0, "burst": 1000.0, **app_args}
        self.port = free_port()
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None
        self.app: Any = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> LiveServer:
        self.app = create_app(self.db_url, **self.app_args)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws_max_size=65_536, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        self.server.should_exit = True
        self.server.force_exit = True
        self.thread.join(timeout=20)
        # A killed process's leases are taken over at once by the next server on this machine (its pid
        # is gone); this one lives on in the test's process, so it gives the leases back itself.
        hub = getattr(self.app.state, "hub", None)
        if hub is not None:
            hub.store.release_all()

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return httpx.post(self.http + path, json=body, timeout=10)

    def make_room(self, **body: Any) -> dict[str, Any]:
        body.setdefault("name", "Ann")
        r = self.post("/api/rooms", body)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def join(self, room: str, name: str) -> dict[str, Any]:
        r = self.post(f"/api/rooms/{room}/join", {"name": name})
        assert r.status_code == 200, r.text
        return dict(r.json())


RATE_BACKOFF = 0.5
"""Seconds a scripted player waits after a ``rate-limited`` refusal (the real server allows 20
messages a second, with a burst of 40), as a real client would."""


class Player:
    """A scripted player on a websocket: keeps every message received (``received``, raw text)
    and the latest table."""

    def __init__(self, url: str, room: str, player: int | None, token: str | None, *,
                 rng: random.Random | None = None, spectate: bool = False) -> None:
        self.url, self.room, self.player, self.token = url, room, player, token
        self.spectate = spectate
        self.rng = rng or random.Random(0)
        self.received: list[str] = []
        self.last: dict[str, Any] | None = None
        self.n = 0
        self.ws: Any = None

    async def connect(self) -> dict[str, Any]:
        self.ws = await websockets.connect(self.url, max_size=2**22)
        hello: dict[str, Any] = {"type": "hello", "room": self.room}
        if self.spectate:
            hello["spectate"] = True
        else:
            hello.update(player=self.player, token=self.token)
        await self.ws.send(json.dumps(hello))
        return await self.recv()

    async def recv(self, timeout: float = 20) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        self.received.append(raw)
        msg = json.loads(raw)
        if msg["type"] in ("sync", "state"):
            self.last = msg
        return dict(msg)

    async def drain(self) -> None:
        """Read every message already waiting, so that the next choice sees the latest table."""
        while True:
            try:
                await self.recv(timeout=0.003)
            except TimeoutError:
                return

    async def send(self, data: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(data))

    async def request(self, data: dict[str, Any], reply: str, *, tries: int = 20) -> dict[str, Any]:
        """Send ``data`` and return the first message of type ``reply``, skipping others.  A
        ``rate-limited`` refusal is waited out (:data:`RATE_BACKOFF`) and the request sent again;
        any other error fails."""
        for _ in range(tries):
            await self.send(data)
            while (msg := await self.recv())["type"] != reply:
                if msg["type"] == "error":
                    assert msg["code"] == "rate-limited", msg
                    await asyncio.sleep(RATE_BACKOFF)
                    break
            else:
                return msg
        raise AssertionError(f"{data} was refused for the rate limit {tries} times")

    async def act(self, move: str) -> None:
        self.n += 1
        await self.send({"type": "act", "n": self.n, "move": move})

    def choose(self) -> str | None:
        """A random legal move from the latest table: always when the seat is to act or asked to
        sluff, sometimes an out-of-turn sluff, else None."""
        if self.last is None or self.last["me"] is None or self.last["table"]["status"] != "playing":
            return None
        me, pub = self.last["me"], self.last["table"]["public"]
        legal = [m["move"] for m in me["legal"]]
        if not legal:
            return None
        if pub["to_act"] == me["seat"] or me["seat"] in pub["window"]:
            return str(self.rng.choice(legal))
        if self.rng.random() < 0.3:
            return str(self.rng.choice(legal))
        return None

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def play_a_round(players: list[Player]) -> None:
    """Each scripted player in turn reads what waits for it and makes its move, if it has one."""
    for p in players:
        await p.drain()
        move = p.choose()
        if move is not None:
            await p.act(move)
        await asyncio.sleep(0.01)


async def watch_until_over(watcher: Player, *, limit: float = 120) -> None:
    """Read every message a spectator is sent (as a page does) until it sees the deal over: the server
    drops a connection that leaves messages unread (``Limits.outbox_bytes``)."""
    async def run() -> None:
        while watcher.last is None or watcher.last["table"]["status"] != "over":
            await watcher.recv()
    await asyncio.wait_for(run(), limit)


async def play_until_over(players: list[Player], *, limit: float = 120) -> None:
    """Let the scripted players play (random legal moves) until every one sees the deal over."""
    async def run(p: Player) -> None:
        while True:
            t = p.last["table"] if p.last else None
            if t is not None and t["status"] == "over":
                return
            move = p.choose()
            if move is not None:
                await p.act(move)
            while True:
                msg = await p.recv()
                if msg["type"] in ("state", "sync", "error"):
                    break
            if msg["type"] == "error" and msg["code"] == "rate-limited":
                await asyncio.sleep(RATE_BACKOFF)
            await p.drain()
    await asyncio.wait_for(asyncio.gather(*(run(p) for p in players)), limit)
