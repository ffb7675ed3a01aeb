"""The web application: the page, a small JSON API to make and join rooms, the websocket.

HTTP routes (docs/server.md):

* ``GET /`` the table page; ``GET /static/...`` its script and style.
* ``GET /api/options`` presets (with their seat ranges) and bot names.
* ``POST /api/rooms`` make a room; ``GET /api/rooms/{code}`` what the lobby shows;
  ``POST /api/rooms/{code}/join`` take an open seat.
* ``WS /ws`` the game: see :mod:`skitgubbe.server.protocol`.

Bad requests are answered ``{"error": code, "message": text}`` with status 400 (404 for
a room that does not exist, 409 for a full table, 413 for an oversized body).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
from collections.abc import AsyncIterator
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from ..variants import PRESETS
from .botpool import BotPool
from .hub import Client, Hub
from .protocol import MAX_CHAT_CHARS, ProtocolError
from .rooms import DIFFICULTIES, RoomError, available_bots
from .store import DEFAULT_DB_URL, Store

__all__ = ["create_app", "serve", "Application", "STATIC_DIR"]

STATIC_DIR = Path(str(files("skitgubbe.server") / "static"))
"""Where the page's files are (package data)."""

MAX_BODY_BYTES = 16_384
"""The largest HTTP request body accepted, in bytes."""

_STATUS = {"no-room": 404, "full": 409}


def _fail(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise ProtocolError("too-large", f"the request body is limited to {MAX_BODY_BYTES} bytes")
    try:
        data = json.loads(raw or b"{}")
    except ValueError:
        raise ProtocolError("malformed", "the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "the body must be a JSON object")
    return data


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any) -> Any:
    value = data.get(key, default)
    if value is default:
        return value
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise ProtocolError("bad-field", f"{key} has the wrong type: {value!r:.40}")
    return value


def create_app(
    db_url: str = DEFAULT_DB_URL,
    *,
    bot_workers: int = 2,
    bot_delay: float = 0.6,
    away_after: float = 30.0,
    rate: float = 20.0,
    burst: float = 40.0,
) -> Application:
    """The ASGI application of ``skitgubbe serve`` (see :class:`Application`).

    Args:
        db_url: SQLAlchemy URL of the database (created tables if missing).
        bot_workers: bot processes (0: a thread, for tests).
        bot_delay: seconds a bot waits before it moves.
        away_after: seconds without a connection before a bot plays a player's seat.
        rate, burst: per-connection rate limit, messages a second and burst size.

    The hub (``app.state.hub``) is built when the application starts, which replays every
    stored room; it raises what :class:`~skitgubbe.server.store.Store` raises for a database
    that cannot be reached.
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, db_url)
        pool = BotPool(bot_workers)
        hub = Hub(store, pool, bot_delay=bot_delay, away_after=away_after)
        await hub.load()
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.close()
            pool.close()
            store.close()

    app = FastAPI(title="skitgubbe", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.exception_handler(RoomError)
    async def room_error(_request: Request, e: RoomError) -> JSONResponse:
        return _fail(e.code, str(e), _STATUS.get(e.code, 400))

    @app.exception_handler(ProtocolError)
    async def protocol_error(_request: Request, e: ProtocolError) -> JSONResponse:
        return _fail(e.code, str(e), 413 if e.code == "too-large" else 400)

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html")

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        bots = available_bots()
        return {
            "presets": [{"name": name, "min_players": r.min_players, "max_players": r.max_players}
                        for name, r in PRESETS.items()],
            "bots": bots,
            "difficulties": [d for d in DIFFICULTIES if d in bots],
            "max_chat": MAX_CHAT_CHARS,
        }

    @app.post("/api/rooms")
    async def make_room(request: Request) -> dict[str, Any]:
        data = await _body(request)
        hub: Hub = request.app.state.hub
        seats = _field(data, "seats", list, [])
        if not all(isinstance(s, str) for s in seats):
            raise ProtocolError("bad-field", "seats must be a list of 'open' or bot names")
        return await hub.create_room(
            _field(data, "name", str, ""),
            preset=_field(data, "preset", str, None),
            house_rules=_field(data, "house_rules", str, None),
            players=_field(data, "players", int, 3),
            seats=seats,
            turn_seconds=_field(data, "turn_seconds", (int, float), 0),
            sluff_seconds=_field(data, "sluff_seconds", (int, float), 8),
        )

    @app.get("/api/rooms/{code}")
    async def room_info(code: str, request: Request) -> dict[str, Any]:
        hub: Hub = request.app.state.hub
        return hub.room_info(code)

    @app.post("/api/rooms/{code}/join")
    async def join(code: str, request: Request) -> dict[str, Any]:
        data = await _body(request)
        hub: Hub = request.app.state.hub
        return await hub.join(code, _field(data, "name", str, ""))

    return Application(app, rate=rate, burst=burst)


class Application:
    """The ASGI application: the websocket ``/ws`` is served directly (the game's hot path, without
    the web framework's per-message layers); everything else, lifespan included, by the FastAPI app
    ``api``.  ``state`` is the FastAPI app's state (``state.hub`` once started)."""

    def __init__(self, api: FastAPI, *, rate: float, burst: float) -> None:
        self.api = api
        self.rate = rate
        self.burst = burst

    @property
    def state(self) -> Any:
        """The FastAPI app's ``state``."""
        return self.api.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == "/ws":
            await self._websocket(receive, send)
        else:
            await self.api(scope, receive, send)

    async def _websocket(self, receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        hub: Hub = self.api.state.hub
        client = Client(rate=self.rate, burst=self.burst)

        async def pump() -> None:
            while True:
                text = await client.outbox.get()
                if text is None:
                    await send({"type": "websocket.close", "code": 1008})
                    return
                await send({"type": "websocket.send", "text": text})

        sender = asyncio.create_task(pump())
        try:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await hub.receive(client, raw)
                if sender.done():
                    break
        except OSError:  # the connection went away while sending
            pass
        finally:
            hub.disconnect(client)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender


GC_THRESHOLDS = (50_000, 20, 10)
"""The server's cyclic garbage collector thresholds (generation 0, 1, 2; see :func:`gc.set_threshold`)."""


def tune_gc() -> None:
    """Make the cyclic garbage collector run rarely, so it does not stall the event loop.

    A server with hundreds of live tables holds a large graph of objects; with Python's default
    thresholds a full collection ran every few seconds under load and paused every connection for
    200-400 ms (the 99th-percentile move latency of the load benchmark, docs/server.md "Load").
    Objects made before serving (modules, the app) are frozen out of collection, and
    :data:`GC_THRESHOLDS` collects the young generation every 50,000 net allocations instead of
    700.  Reference counting still frees all acyclic garbage at once.
    """
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def serve(db_url: str = DEFAULT_DB_URL, *, host: str = "127.0.0.1", port: int = 8000,
          bot_workers: int = 2, bot_delay: float = 0.6) -> int:
    """Run the server until interrupted (uvicorn) on ``host``:``port``; returns 0.  Other
    arguments: see :func:`create_app`."""
    import uvicorn

    app = create_app(db_url, bot_workers=bot_workers, bot_delay=bot_delay)
    tune_gc()
    uvicorn.run(app, host=host, port=port, ws_max_size=65_536, ws_per_message_deflate=False,
                log_level="warning")
    return 0
